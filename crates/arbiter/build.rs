//! Links the arbiter binary with `hot.ld`: the functions `arbiter match` runs every ply gathered
//! at the start of the text, so that the code a ply runs cold after an engine's search lies on
//! a few pages instead of ~60 (tools/bench/hot_layout.py writes the file; BENCHMARKS.md, issue
//! 8, has the measurements). Linux only (ELF, linked by lld or GNU ld, which both read the
//! script); elsewhere the layout is the linker's own.

fn main() {
    println!("cargo:rerun-if-changed=hot.ld");
    if std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux") {
        let dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
        println!("cargo:rustc-link-arg-bins=-Wl,-T,{dir}/hot.ld");
    }
}

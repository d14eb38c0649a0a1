//! Links the arbiter binary with `hot.ld` when asked (`ARBITER_HOT_LAYOUT=1`): the functions
//! `arbiter match` runs every ply gathered at the start of the text, so that the code a ply runs
//! cold after an engine's search lies on fewer pages (tools/bench/hot_layout.py writes the file;
//! BENCHMARKS.md has the measurement). Off by default: the script names functions by their
//! mangled symbols, which carry toolchain and crate hashes, so a rustc update or a moved function
//! makes its patterns stop matching without a word. Linux only, with lld (Rust's default there)
//! or GNU ld, which both read the script; mold and gold do not.

fn main() {
    println!("cargo:rerun-if-changed=hot.ld");
    println!("cargo:rerun-if-env-changed=ARBITER_HOT_LAYOUT");
    if !std::env::var("ARBITER_HOT_LAYOUT").is_ok_and(|v| v == "1") {
        return;
    }
    let linux = std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux");
    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    let other_linker = ["fuse-ld=mold", "fuse-ld=gold"].iter().any(|f| flags.contains(f));
    if !linux || other_linker {
        println!("cargo:warning=ARBITER_HOT_LAYOUT=1 is ignored: hot.ld needs Linux and lld or GNU ld");
        return;
    }
    let dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    println!("cargo:rustc-link-arg-bins=-Wl,-T,{dir}/hot.ld");
    // Tells tests/layout.rs to look for the section.
    println!("cargo:rustc-env=ARBITER_HOT_LAYOUT_APPLIED=1");
}

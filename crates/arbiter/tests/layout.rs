//! The binary is linked with hot.ld (build.rs): the functions a match runs every ply sit in
//! their own `.text.hot` section. The linker drops an output section nothing matched, so the
//! name in the section-name table shows that the script's names still find the code.

#[test]
fn the_per_ply_functions_are_laid_out_together() {
    if option_env!("ARBITER_HOT_LAYOUT_APPLIED").is_none() {
        println!("skipped: this build is linked without hot.ld (see crates/arbiter/build.rs)");
        return;
    }
    let bin = std::fs::read(env!("CARGO_BIN_EXE_arbiter")).unwrap();
    assert_eq!(&bin[..4], b"\x7fELF");
    let found = bin.windows(b".text.hot\0".len()).any(|w| w == b".text.hot\0");
    assert!(
        found,
        "no .text.hot section: hot.ld was not applied or none of its names matched (tools/bench/hot_layout.py)"
    );
}

//! With `ARBITER_HOT_LAYOUT=1` the binary is linked with hot.ld (build.rs): the functions a match
//! runs every ply sit in their own `.text.hot` section. The linker drops an output section
//! nothing matched, so the name in the section-name table shows that the script's names still
//! find the code. A default build is linked without it, and there is nothing to check.

#[test]
fn the_per_ply_functions_are_laid_out_together() {
    if option_env!("ARBITER_HOT_LAYOUT_APPLIED").is_none() {
        println!("hot.ld was not asked for (ARBITER_HOT_LAYOUT=1 links it): nothing to check");
        return;
    }
    let bin = std::fs::read(env!("CARGO_BIN_EXE_arbiter")).unwrap();
    assert_eq!(&bin[..4], b"\x7fELF");
    let found = bin.windows(b".text.hot\0".len()).any(|w| w == b".text.hot\0");
    assert!(
        found,
        "no .text.hot section: none of hot.ld's names matched; rewrite it with tools/bench/hot_layout.sh"
    );
}

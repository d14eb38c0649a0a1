//! The fuzz targets' saved inputs replayed under `cargo test`: every file of
//! `fuzz/regressions/<target>/` (inputs that once made a target fail) and `fuzz/seeds/<target>/`
//! goes through the same function `cargo fuzz run <target>` runs, so a fixed finding stays
//! fixed without a nightly toolchain or libFuzzer. The targets' code is `fuzz/src/`, compiled
//! here as a module (the fuzz directory is its own workspace, built by cargo-fuzz).

#[path = "../../../fuzz/src/lib.rs"]
#[allow(dead_code)] // The fuzz library's helpers are used through its targets only in part.
mod arbiter_fuzz;

use std::path::{Path, PathBuf};

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

/// Runs every file of `fuzz/<folder>/<target>/` through its target; returns how many ran.
/// A folder named after no target fails the test, so a new target's inputs are not left out.
fn replay(folder: &str) -> usize {
    let mut ran = 0;
    for dir in std::fs::read_dir(fuzz_dir().join(folder)).unwrap() {
        let dir = dir.unwrap().path();
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let Some((_, target)) = arbiter_fuzz::targets::TARGETS.iter().find(|(n, _)| *n == name) else {
            panic!("fuzz/{folder}/{name}: no fuzz target of that name");
        };
        for file in std::fs::read_dir(&dir).unwrap() {
            let file = file.unwrap().path();
            let data = std::fs::read(&file).unwrap();
            let outcome = std::panic::catch_unwind(|| target(&data));
            assert!(
                outcome.is_ok(),
                "{} fails its target {name} (the panic is printed above)",
                file.display()
            );
            ran += 1;
        }
    }
    ran
}

#[test]
fn fuzz_regressions_replay_clean() {
    let ran = replay("regressions");
    assert!(ran > 0, "no regression files");
}

#[test]
fn fuzz_seeds_replay_clean() {
    assert!(replay("seeds") > 0);
}

/// The targets the fuzz workspace builds are the ones replayed: each `[[bin]]` of
/// `fuzz/Cargo.toml` has a function in `TARGETS`, and the other way round.
#[test]
fn every_fuzz_binary_is_a_replayed_target() {
    let manifest = std::fs::read_to_string(fuzz_dir().join("Cargo.toml")).unwrap();
    let mut bins: Vec<&str> = manifest
        .split("[[bin]]")
        .skip(1)
        .filter_map(|b| b.lines().find_map(|l| l.strip_prefix("name = \"")?.strip_suffix('"')))
        .collect();
    let mut targets: Vec<&str> = arbiter_fuzz::targets::TARGETS.iter().map(|(n, _)| *n).collect();
    bins.sort_unstable();
    targets.sort_unstable();
    assert_eq!(bins, targets);
}

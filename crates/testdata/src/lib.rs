//! Test support: the shared test data (`shared/` beside the repository: perft suites, real game
//! records, specifications), found the same way by every crate's tests.

use std::path::PathBuf;

/// The `shared/` folder: `$ARBITER_SHARED` if set, else the one beside the repository.
///
/// Panics with a clear message when it is missing: the tests that call this need its data.
pub fn shared() -> PathBuf {
    let dir = std::env::var_os("ARBITER_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"));
    assert!(
        dir.join("data").is_dir(),
        "shared data not found at {} (set ARBITER_SHARED)",
        dir.display()
    );
    dir
}

/// A file of `shared/data/records/`.
pub fn record_file(relative: &str) -> PathBuf {
    shared().join("data/records").join(relative)
}

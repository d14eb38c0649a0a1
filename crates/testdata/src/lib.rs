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

/// The text block of a test vector in a spec of `shared/specs/`: the fenced block after the
/// `<!-- TEST-VECTOR: NAME` marker. Panics when the spec or the vector is missing.
pub fn spec_test_vector(spec: &str, name: &str) -> String {
    let path = shared().join("specs").join(spec);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let marker = format!("<!-- TEST-VECTOR: {name}");
    let at = text
        .find(&marker)
        .unwrap_or_else(|| panic!("{name} not in {}", path.display()));
    text[at..]
        .split("```text\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .unwrap_or_else(|| panic!("{name} has no text block"))
        .to_string()
}

/// The lines of a gzip-compressed fixture (`.tsv.gz`, written by the oracle scripts of
/// `tools/`), comment lines (`#`) left out.
pub fn fixture_lines(path: impl AsRef<std::path::Path>) -> impl Iterator<Item = String> {
    use std::io::BufRead;
    let path = path.as_ref();
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    std::io::BufReader::new(flate2::read::GzDecoder::new(file))
        .lines()
        .map(Result::unwrap)
        .filter(|l| !l.starts_with('#'))
}

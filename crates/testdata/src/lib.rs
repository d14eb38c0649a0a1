//! Test support, the same for every crate's tests: the data copied into the repository's
//! `tests/data/` (real game records, the specifications' test vectors; its README names each
//! file's source and licence), gzip fixtures, and the one way a test says it cannot run here.

use std::path::PathBuf;

/// The repository's `tests/data/`.
pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data")
}

/// A file of `tests/data/records/` (real game records and their expected replays).
pub fn record_file(relative: &str) -> PathBuf {
    data_dir().join("records").join(relative)
}

/// A file of `tests/data/specs/` (test vectors copied from the project's specifications).
pub fn spec_file(name: &str) -> PathBuf {
    data_dir().join("specs").join(name)
}

/// The text block of a test vector in `tests/data/specs/SPEC`: the fenced block after the
/// `<!-- TEST-VECTOR: NAME` marker. Panics when the file or the vector is missing.
pub fn spec_test_vector(spec: &str, name: &str) -> String {
    let path = spec_file(spec);
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

/// Says that a test cannot run here because a service or a program it needs is missing
/// (PostgreSQL, chromium, an engine, tmux); the caller returns right after.
///
/// On a developer machine it prints `SKIPPED: REASON` and the test passes, so a missing
/// program does not hide the other results. Under `CI=true` it panics with the reason instead:
/// CI installs everything the tests need (`.ci/run`), so a green CI run means every test ran.
/// Debian's Fairy-Stockfish where it is installed; else the test is skipped (see [`skip`]),
/// `needs` saying what needs it.
pub fn fairy_stockfish(needs: &str) -> Option<std::path::PathBuf> {
    let found = ["/usr/games/fairy-stockfish", "/usr/bin/fairy-stockfish"]
        .iter()
        .map(std::path::PathBuf::from)
        .find(|p| p.is_file());
    if found.is_none() {
        skip(format!(
            "{needs} needs Debian's fairy-stockfish (apt-get install fairy-stockfish)"
        ));
    }
    found
}

/// Debian's Stockfish where it is installed; else the test is skipped (see [`skip`]).
pub fn stockfish(needs: &str) -> Option<std::path::PathBuf> {
    let found = ["/usr/games/stockfish", "/usr/bin/stockfish"]
        .iter()
        .map(std::path::PathBuf::from)
        .find(|p| p.is_file());
    if found.is_none() {
        skip(format!("{needs} needs Debian's stockfish (apt-get install stockfish)"));
    }
    found
}

pub fn skip(reason: impl std::fmt::Display) {
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("CI=true and this test cannot run: {reason}");
    }
    println!("SKIPPED: {reason}");
}

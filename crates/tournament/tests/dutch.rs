//! The FIDE Dutch system against bbpPairings v6.0.0, the FIDE-endorsed implementation of the
//! 2026 rules: every round of random tournaments it generated and paired (tests/data/dutch,
//! made by `tools/swiss_oracle.py`) is paired again here and must come out the same — boards,
//! colours and the bye.
//!
//! `cargo test` checks every file up to 200 players and a quarter of those up to 400;
//! `ARBITER_DUTCH_ALL=1 cargo test --release -p arbiter-tournament --test dutch` checks every file
//! (with `arbiter pair --check FILE.trf` one file is checked from the command line).

use std::path::PathBuf;
use tournament::dutch;
use tournament::trf::Trf;

fn fixtures() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/dutch");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".trf.gz"))
        .collect();
    files.sort();
    files
}

fn read(path: &PathBuf) -> Trf {
    let text: Vec<String> = testdata::fixture_lines(path).collect();
    Trf::parse(&text.join("\n")).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn players(path: &std::path::Path) -> usize {
    let name = path.file_name().unwrap().to_string_lossy();
    name.split('-')
        .find_map(|p| p.strip_prefix('p'))
        .and_then(|p| p.parse().ok())
        .unwrap_or(0)
}

#[test]
fn pairings_equal_bbppairings() {
    let all = std::env::var_os("ARBITER_DUTCH_ALL").is_some();
    let files = fixtures();
    assert!(files.len() >= 1000, "{} fixture files", files.len());
    // The sample: every file up to 200 players and every 4th up to 400 (the rest, to 1,000
    // players, takes minutes).
    let sample: Vec<&PathBuf> = files
        .iter()
        .enumerate()
        .filter(|(i, f)| {
            let n = players(f);
            all || n <= 200 || (n <= 400 && i % 4 == 0)
        })
        .map(|(_, f)| f)
        .collect();
    let mut failures = Vec::new();
    let mut rounds = 0;
    for f in &sample {
        let trf = read(f);
        rounds += dutch::rounds_paired(&trf);
        for d in dutch::check(&trf) {
            failures.push(format!(
                "{} round {}: expected {:?}, file {:?}",
                f.display(),
                d.round,
                d.expected,
                d.found
            ));
        }
    }
    eprintln!(
        "{} files, {rounds} rounds, {} differences",
        sample.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} differences, e.g.\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
}

/// TV-DUTCH-1 and TV-DUTCH-2 of specs/tournament.md.
#[test]
fn spec_vectors() {
    let text = testdata::spec_test_vector("tournament.md", "TV-DUTCH-1");
    let (input, expected) = text.split_once("# expected round 5").unwrap();
    let trf = Trf::parse(input).unwrap();
    let expected: String = expected
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(dutch::pair_next(&trf).unwrap().to_string(), expected);

    // Input B: the same players before round 1, initial colour black.
    let round1: String = input
        .lines()
        .map(|l| {
            if l.starts_with("001") {
                format!("{}\n", &l[..89.min(l.len())])
            } else {
                format!("{l}\n")
            }
        })
        .collect::<String>()
        + "XXC black1\n";
    let trf = Trf::parse(&round1).unwrap();
    let b = text.split("# expected round 1:").nth(1).unwrap();
    let expected: String = b
        .lines()
        .skip(1)
        .take_while(|l| !l.is_empty() && !l.starts_with('`'))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(dutch::pair_next(&trf).unwrap().to_string(), expected);

    let text = testdata::spec_test_vector("tournament.md", "TV-DUTCH-2");
    let (input, expected) = text.split_once("# expected round 2:").unwrap();
    let trf = Trf::parse(input).unwrap();
    let expected: String = expected
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(dutch::pair_next(&trf).unwrap().to_string(), expected);
}

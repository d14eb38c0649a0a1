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
use tournament::result::{Bye, RoundResult};
use tournament::trf::Trf;

/// The `.trf.gz` files of `tests/data/{dir}`, sorted.
fn fixtures_in(dir: &str) -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(dir);
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
    let files = fixtures_in("dutch");
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

/// The pairing printed after a `# expected …` header: its lines up to a comment or blank line.
fn expected_after(header_and_rest: &str) -> String {
    header_and_rest
        .lines()
        .skip(1)
        .take_while(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with('`'))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// TV-DUTCH-1 and TV-DUTCH-2 of specs/tournament.md.
#[test]
fn spec_vectors() {
    let text = testdata::spec_test_vector("tournament.md", "TV-DUTCH-1");
    let (input, expected) = text.split_once("# expected round 5").unwrap();
    let trf = Trf::parse(input).unwrap();
    assert_eq!(dutch::pair_next(&trf).unwrap().to_string(), expected_after(expected));

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
    assert_eq!(dutch::pair_next(&trf).unwrap().to_string(), expected_after(b));

    let text = testdata::spec_test_vector("tournament.md", "TV-DUTCH-2");
    let (input, expected) = text.split_once("# expected round 2:").unwrap();
    let trf = Trf::parse(input).unwrap();
    assert_eq!(dutch::pair_next(&trf).unwrap().to_string(), expected_after(expected));
}

/// The TRF as it stood before round `k` (0-based): later rounds gone; in round k only the
/// entries of players who were not to be paired (requested byes, absences) — unless
/// `column_byes` is false, when a `240` record must say it.
fn before(trf: &Trf, k: usize, column_byes: bool) -> Trf {
    let mut t = trf.clone();
    for p in &mut t.players {
        p.rounds.truncate(k + 1);
        let keep = p
            .rounds
            .get(k)
            .is_some_and(|r| column_byes && r.opponent == 0 && r.result != RoundResult::Bye(Bye::PairingAllocated));
        if !keep {
            p.rounds.truncate(k);
        }
        p.written = p.rounds.len();
    }
    t
}

/// `arbiter pair` mode: the next round from a file cut before it, with requested byes given in
/// the round's column or only in `240` records.
#[test]
fn next_round_from_a_cut_file() {
    let mut checked = 0;
    for f in fixtures_in("dutch").iter().filter(|f| players(f) <= 60).step_by(3) {
        let trf = read(f);
        let byes_240 = trf.other.iter().any(|l| l.starts_with("240"));
        let rounds = dutch::rounds_paired(&trf);
        for k in 0..rounds {
            for column_byes in [true, false] {
                if !column_byes && !byes_240 {
                    continue;
                }
                let cut = before(&trf, k, column_byes);
                let mut cut_text = cut.clone();
                if !cut.other.iter().any(|l| l.starts_with("XXR") || l.starts_with("142")) {
                    cut_text.other.push(format!("XXR {rounds}"));
                }
                // The colour drawn before round 1, as the whole file implies it.
                let initial = dutch::Event::before_round(&trf, 0).unwrap().initial;
                cut_text.other.push(
                    match initial {
                        tournament::trf::Colour::Black => "XXC black1",
                        _ => "XXC white1",
                    }
                    .into(),
                );
                let ours =
                    dutch::pair_next(&cut_text).unwrap_or_else(|e| panic!("{} round {}: {e}", f.display(), k + 1));
                let recorded = dutch::recorded(&trf, k);
                assert!(
                    dutch::same_pairing(&ours, &recorded),
                    "{} round {} ({}): {ours:?} vs {recorded:?}",
                    f.display(),
                    k + 1,
                    if column_byes {
                        "byes in the column"
                    } else {
                        "byes in 240 records"
                    }
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "{checked} rounds");
}

/// Beyond the corpus: synthetic histories (`../shared/tools/tournament/synth_trf.py N 4 9 SEED`,
/// not themselves Dutch-paired) of thousands of players, the next round paired by an oracle and
/// kept beside each file: `.bbp.gz`, bbpPairings v6.0.0's `-p` output (2,000 players took it
/// 434 s), compared line by line; `.gacrux.gz`, FIDE's Gacrux 1.9.57 (`pairingchecker.py -p`;
/// 5,000 players took it 176 s and 7.7 GB, bbpPairings would need hours), compared as the set of
/// (white, black) pairs, since Gacrux orders its boards otherwise. Files above 2,000 players only
/// with `ARBITER_DUTCH_ALL=1`.
#[test]
fn large_rounds_equal_the_oracles() {
    let all = std::env::var_os("ARBITER_DUTCH_ALL").is_some();
    let files = fixtures_in("dutch-large");
    assert!(files.len() >= 2);
    for f in files.iter().filter(|f| all || players(f) <= 2000) {
        let pairing = dutch::pair_next(&read(f)).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let ours: Vec<String> = pairing.to_string().lines().map(str::to_string).collect();
        let name = f.to_string_lossy();
        let bbp = PathBuf::from(name.replace(".trf.gz", ".bbp.gz"));
        let (mut expected, mut ours) = if bbp.exists() {
            (testdata::fixture_lines(&bbp).collect::<Vec<_>>(), ours)
        } else {
            let mut theirs: Vec<String> = testdata::fixture_lines(name.replace(".trf.gz", ".gacrux.gz")).collect();
            let mut ours = ours;
            theirs.sort();
            ours.sort();
            (theirs, ours)
        };
        expected.retain(|l| !l.trim().is_empty());
        ours.retain(|l| !l.trim().is_empty());
        assert_eq!(ours.len(), expected.len(), "{}", f.display());
        let differ = ours.iter().zip(&expected).filter(|(a, b)| a != b).count();
        assert_eq!(differ, 0, "{}: {differ} lines differ from the oracle", f.display());
    }
}

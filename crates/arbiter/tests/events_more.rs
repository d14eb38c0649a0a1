//! Events of every format run end to end through the `arbiter` binary, as an arbiter would:
//! `create`, `register`, `pair --json` for the pairing ids, `result` per pairing, standings.
//! Each command is its own process, as it is for a user, so the big events take a while.

use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use serde_json::Value;

fn arbiter(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .output()
        .expect("run arbiter");
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// A fresh SQLite database for one test, and the commands run on it.
struct Db {
    dir: PathBuf,
    path: String,
    spawns: usize,
}

impl Db {
    fn new(test: &str) -> Db {
        let dir = std::env::temp_dir().join(format!("arbiter-events-{test}-{}", std::process::id()));
        std::fs::remove_dir_all(&dir).ok();
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("events.db").to_str().unwrap().to_string();
        Db { dir, path, spawns: 0 }
    }

    /// `arbiter ARGS --db FILE`.
    fn try_run(&mut self, args: &[&str]) -> (bool, String, String) {
        self.spawns += 1;
        let mut all = args.to_vec();
        all.extend(["--db", self.path.as_str()]);
        arbiter(&all)
    }

    /// A command that must succeed: its output.
    fn run(&mut self, args: &[&str]) -> String {
        let (ok, out, err) = self.try_run(args);
        assert!(ok, "arbiter {args:?} failed: {err}{out}");
        out
    }

    fn json(&mut self, args: &[&str]) -> Value {
        let out = self.run(args);
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"))
    }
}

impl Drop for Db {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.dir).ok();
    }
}

/// splitmix64: the seeded generator that picks results, so every run plays the same event.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A pairing of `pair --json`: its id, first-named and second entrant.
fn pairings(round: &Value) -> Vec<(String, u64, Option<u64>)> {
    round["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["id"].as_str().unwrap().to_string(), p["first"].as_u64().unwrap(), p["second"].as_u64()))
        .collect()
}

/// A standings table's lines of `standings --json`: (place, id, name, points, tie-breaks).
fn lines(table: &Value) -> Vec<(u64, u64, String, f64, Vec<f64>)> {
    table["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["place"].as_u64().unwrap(),
                l["id"].as_u64().unwrap(),
                l["name"].as_str().unwrap().to_string(),
                l["points"].as_f64().unwrap(),
                l["tiebreaks"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect(),
            )
        })
        .collect()
}

/// A 64-player double elimination, every game picked by the generator except the first game
/// of the grand final, which goes to the losers' bracket finalist when `reset`.
fn double_elimination(reset: bool) {
    let started = Instant::now();
    let mut db = Db::new(if reset { "de-reset" } else { "de-straight" });
    let n = 64u64;
    db.run(&["tournament", "create", "DE", "--format", "double-knockout", "--games", "1", "--seed", "64"]);
    for i in 1..=n {
        let rating = (2600 - 10 * i).to_string();
        db.run(&["tournament", "register", "DE", &format!("P{i}"), "--rating", &rating]);
    }
    let mut rng = if reset { 11 } else { 12 };
    let mut losses: BTreeMap<u64, u32> = (1..=n).map(|i| (i, 0)).collect();
    let mut played = 0;
    let mut ids = HashSet::new();
    let mut grand_final = Vec::new();
    for round in 1.. {
        let (ok, out, err) = db.try_run(&["tournament", "pair", "DE", "--json"]);
        if !ok {
            assert!(err.contains("finished"), "round {round}: {err}");
            break;
        }
        let r: Value = serde_json::from_str(&out).unwrap();
        let ps = pairings(&r);
        if round == 1 {
            // Seed 1 meets seed 64, seed 2 meets seed 63, …: 32 first-round matches, no bye.
            assert_eq!(ps.len(), 32);
            for (id, a, b) in &ps {
                assert!(id.starts_with("W1."), "{id}");
                assert_eq!(a + b.unwrap(), n + 1, "{id}: seeds pair from the outside in");
            }
        }
        for (id, a, b) in ps {
            assert!(ids.insert(id.clone()), "{id} paired twice");
            let b = b.expect("a 64-bracket has no byes");
            assert!(losses[&a] < 2 && losses[&b] < 2, "{id}: someone out is still playing");
            let first_wins = if id == "GF.1" {
                // The winners' bracket finalist comes in unbeaten, the other with one loss.
                let (lb_finalist_first, wb_finalist_first) = (losses[&a] == 1, losses[&a] == 0);
                assert!(losses[&a] + losses[&b] == 1, "GF.1: one finalist has lost once");
                if reset {
                    lb_finalist_first
                } else {
                    wb_finalist_first
                }
            } else {
                next(&mut rng) % 2 == 0
            };
            if id.starts_with("GF.") {
                grand_final.push(id.clone());
            }
            let out = db.run(&["tournament", "result", "DE", &id, if first_wins { "1-0" } else { "0-1" }]);
            assert!(out.contains("won by"), "{out}");
            let loser = if first_wins { b } else { a };
            *losses.get_mut(&loser).unwrap() += 1;
            played += 1;
        }
        assert!(round < 40, "the bracket does not end");
    }
    assert_eq!(played, if reset { 2 * n - 1 } else { 2 * n - 2 });
    let expected_gf: Vec<&str> = if reset { vec!["GF.1", "GF.2"] } else { vec!["GF.1"] };
    assert_eq!(grand_final, expected_gf);
    let unbeaten_twice: Vec<u64> = losses.iter().filter(|(_, &l)| l < 2).map(|(&i, _)| i).collect();
    assert_eq!(unbeaten_twice.len(), 1, "only the champion has not lost twice: {losses:?}");
    let champion = unbeaten_twice[0];
    assert_eq!(losses[&champion], u32::from(reset), "the champion lost only a reset GF.1");
    assert!(losses.values().all(|&l| l <= 2));

    let standings = db.json(&["tournament", "standings", "DE", "--json"]);
    let table = lines(&standings[0]);
    assert_eq!(table.len(), 64);
    assert_eq!(table[0].0, 1);
    assert_eq!(table[0].1, champion);
    assert_eq!(table[1].0, 2, "one runner-up");
    assert!(table.windows(2).all(|w| w[0].0 <= w[1].0), "places in order");
    let names: HashSet<&str> = table.iter().map(|l| l.2.as_str()).collect();
    assert_eq!(names.len(), 64, "everyone placed once");
    let bracket = db.run(&["tournament", "bracket", "DE"]);
    let champ_line = format!("P{champion} ");
    assert!(
        bracket
            .lines()
            .any(|l| l.contains("champion") && l.contains(&champ_line)),
        "{bracket}"
    );
    assert!(bracket.contains("runner-up"), "{bracket}");
    assert!(bracket.contains("    GF.1  "), "{bracket}");
    assert_eq!(bracket.contains("    GF.2  "), reset, "{bracket}");
    let text = db.run(&["tournament", "standings", "DE"]);
    assert!(text.starts_with("double-knockout\n"), "{text}");
    eprintln!(
        "double elimination of 64 (reset: {reset}): {} commands in {:.1?}",
        db.spawns,
        started.elapsed()
    );
}

#[test]
fn double_elimination_of_64_without_a_reset() {
    double_elimination(false);
}

#[test]
fn double_elimination_of_64_with_the_grand_final_reset() {
    double_elimination(true);
}

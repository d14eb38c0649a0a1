//! Every format as an organiser runs it through `arbiter tournament …`: created, registered,
//! paired round by round from the ids `pair --json` prints, results entered as an arbiter
//! reads them off the scoresheets, and the final standings checked against what the results
//! must come to.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

/// A temporary SQLite database the commands run on.
struct Db {
    path: PathBuf,
}

impl Db {
    fn new(tag: &str) -> Db {
        let dir = std::env::temp_dir().join(format!("arbiter-formats-{}-{tag}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("events.db");
        std::fs::remove_file(&path).ok();
        Db { path }
    }

    /// `arbiter tournament ARGS --db FILE`: success, stdout, stderr.
    fn run(&self, args: &[&str]) -> (bool, String, String) {
        let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .arg("tournament")
            .args(args)
            .arg("--db")
            .arg(&self.path)
            .env_remove("DATABASE_URL")
            .env_remove("ARBITER_DB")
            .output()
            .expect("run arbiter");
        (
            out.status.success(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    }

    fn ok(&self, args: &[&str]) -> String {
        let (ok, out, err) = self.run(args);
        assert!(ok, "{args:?} failed: {err}");
        out
    }

    fn json(&self, args: &[&str]) -> Value {
        let out = self.ok(args);
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"))
    }

    /// Runs a command that must fail, with a message containing `says`, and leave the event's
    /// log as it was.
    fn refuses(&self, event: &str, args: &[&str], says: &str) {
        let before = self.ok(&["log", event]);
        let (ok, out, err) = self.run(args);
        assert!(!ok, "{args:?} should fail, printed {out}");
        assert!(err.contains(says), "{args:?}: {err:?} should say {says:?}");
        assert!(!err.contains("panicked"), "{err}");
        assert_eq!(self.ok(&["log", event]), before, "{args:?} changed the event");
    }

    fn register(&self, event: &str, name: &str, rating: u32) -> u32 {
        let out = self.ok(&["register", event, name, "--rating", &rating.to_string()]);
        out.split_whitespace().next().unwrap().parse().unwrap()
    }

    fn pair(&self, event: &str) -> Round {
        Round::from(&self.json(&["pair", event, "--json"]))
    }

    fn result(&self, event: &str, id: &str, results: &[&str]) -> String {
        let mut args = vec!["result", event, id];
        args.extend(results);
        self.ok(&args)
    }

    /// The lines of the standings' tables, stage by stage.
    fn standings(&self, event: &str) -> Vec<Value> {
        self.json(&["standings", event, "--json"]).as_array().unwrap().clone()
    }
}

impl Drop for Db {
    fn drop(&mut self) {
        if let Some(dir) = self.path.parent() {
            std::fs::remove_dir_all(dir).ok();
        }
    }
}

/// A pairing as `pair --json` prints it.
#[derive(Debug, Clone, PartialEq)]
struct Pairing {
    id: String,
    first: u32,
    second: Option<u32>,
}

#[derive(Debug, Clone, PartialEq)]
struct Round {
    pairings: Vec<Pairing>,
    draw: Option<String>,
}

impl From<&Value> for Round {
    fn from(v: &Value) -> Round {
        Round {
            pairings: v["pairings"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| Pairing {
                    id: p["id"].as_str().unwrap().to_string(),
                    first: p["first"].as_u64().unwrap() as u32,
                    second: p["second"].as_u64().map(|x| x as u32),
                })
                .collect(),
            draw: v["draw"].as_str().map(str::to_string),
        }
    }
}

impl Round {
    fn games(&self) -> Vec<&Pairing> {
        self.pairings.iter().filter(|p| p.second.is_some()).collect()
    }

    fn byes(&self) -> Vec<&Pairing> {
        self.pairings.iter().filter(|p| p.second.is_none()).collect()
    }
}

/// splitmix64 as published (Steele, Lea, Flood 2014), to audit a lot from its printed seed.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// FIDE's Berger table for `n` players: per round, the boards as (white, black).
fn fide_berger(n: u32) -> Vec<Vec<(u32, u32)>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tournament/tests/data/berger-fide.tsv");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut rounds = BTreeMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols[0].parse::<u32>().unwrap() != n {
            continue;
        }
        let boards = cols[2]
            .split_whitespace()
            .map(|b| {
                let (w, k) = b.split_once('-').unwrap();
                (w.parse().unwrap(), k.parse().unwrap())
            })
            .collect();
        rounds.insert(cols[1].parse::<u32>().unwrap(), boards);
    }
    assert_eq!(rounds.len() as u32, n - 1, "the table for {n}");
    rounds.into_values().collect()
}

/// Who a card draw gave which card: name → "red 3", "black 3", "K".
fn cards(draw: &str) -> HashMap<String, String> {
    let list = draw.split_once("): ").expect("the cards follow the seed").1;
    list.split(", ")
        .map(|c| {
            let (name, card) = c.split_once(' ').unwrap();
            (name.to_string(), card.to_string())
        })
        .collect()
}

#[test]
fn a_card_drawn_knockout_of_13_with_best_of_three_matches() {
    let db = Db::new("cards");
    let create = |name: &str| {
        db.ok(&[
            "create", name, "--format", "knockout", "--draw", "cards", "--games", "3", "--playoff", "1", "--seed",
            "2026",
        ])
    };
    create("Cup");
    let names: Vec<String> = (1..=13).map(|i| format!("Player{i}")).collect();
    let mut name_of = HashMap::new();
    for (i, n) in names.iter().enumerate() {
        let id = db.register("Cup", n, 2000 - 10 * i as u32);
        name_of.insert(id, n.clone());
    }

    let mut alive: BTreeSet<u32> = name_of.keys().copied().collect();
    let mut shapes = Vec::new();
    let mut first_round = None;
    let mut champion = None;
    let mut lot_seen = false;
    for round_no in 1.. {
        let round = db.pair("Cup");
        if round_no == 1 {
            first_round = Some(round.clone());
        }
        shapes.push((round.games().len(), round.byes().len()));
        // Everyone still in draws a card, and nobody else.
        let drawn: BTreeSet<u32> = round.pairings.iter().flat_map(|p| [Some(p.first), p.second]).flatten().collect();
        assert_eq!(drawn, alive, "round {round_no}");
        // Equal numbers meet, the red card's holder named first (red in game 1); K is the bye.
        let draw = round.draw.as_deref().expect("a card draw is described");
        assert!(draw.contains("seed "), "{draw}");
        let held = cards(draw);
        assert_eq!(held.len(), alive.len(), "{draw}");
        for p in &round.pairings {
            let n = p.id.rsplit('.').next().unwrap();
            match p.second {
                Some(second) => {
                    assert_eq!(held[&name_of[&p.first]], format!("red {n}"), "{}: {draw}", p.id);
                    assert_eq!(held[&name_of[&second]], format!("black {n}"), "{}: {draw}", p.id);
                }
                None => {
                    assert_eq!(n, "K", "{}", p.id);
                    assert_eq!(held[&name_of[&p.first]], "K", "{draw}");
                }
            }
        }

        let mut winners = BTreeSet::new();
        for (k, p) in round.games().into_iter().enumerate() {
            let (first, second) = (p.first, p.second.unwrap());
            let winner = if round_no == 1 && k == 0 {
                // Game 1 red wins, game 2 red (the second) wins, game 3 drawn: 1½-1½, so a
                // play-off game, where the second has red again and wins it.
                let out = db.result("Cup", &p.id, &["1-0", "1-0", "1/2"]);
                assert!(out.contains("1½-1½") && out.contains("to play"), "{out}");
                let out = db.result("Cup", &p.id, &["1-0"]);
                assert!(out.contains(&format!("won by {}", name_of[&second])), "{out}");
                assert!(!out.contains("lots"), "{out}");
                second
            } else if round_no == 1 && k == 1 {
                // Tied after three games and after the play-off game: lots.
                let out = db.result("Cup", &p.id, &["0-1", "0-1", "1/2", "1/2"]);
                assert!(out.contains("2-2, lots: "), "{out}");
                let (seed, value, bit) = audit_lot(&out);
                assert_eq!(splitmix64(seed), value, "the lot replays from its seed: {out}");
                let winner = if bit == 0 { first } else { second };
                assert!(out.contains(&format!("won by {}", name_of[&winner])), "{out}");
                let log = db.ok(&["log", "Cup"]);
                let last = log.lines().last().unwrap();
                assert!(
                    last.contains(&format!("result {} 0-1 0-1 1/2 1/2", p.id))
                        && last.contains(&format!("lots drawn with splitmix64(seed {seed})")),
                    "the log keeps the lot: {last}"
                );
                lot_seen = true;
                winner
            } else if k % 2 == 0 {
                // The first wins both games (with black in game 2): clinched 2-0.
                let out = db.result("Cup", &p.id, &["1-0", "0-1"]);
                assert!(out.contains("2-0") && out.contains(&format!("won by {}", name_of[&first])), "{out}");
                second_game_too_many(&db, &p.id);
                first
            } else {
                // The second wins games 1 and 3 (black, then black): 1-2.
                let out = db.result("Cup", &p.id, &["0-1", "0-1", "0-1"]);
                assert!(out.contains("1-2") && out.contains(&format!("won by {}", name_of[&second])), "{out}");
                second
            };
            winners.insert(winner);
        }
        winners.extend(round.byes().iter().map(|p| p.first));
        alive = winners;
        if alive.len() == 1 {
            champion = alive.first().copied();
            let (ok, _, err) = db.run(&["pair", "Cup"]);
            assert!(!ok && err.contains("finished"), "{err}");
            break;
        }
    }
    assert!(lot_seen);
    assert_eq!(shapes, [(6, 1), (3, 1), (2, 0), (1, 0)], "13 → 7 → 4 → 2 → 1");

    let tables = db.standings("Cup");
    let lines = tables[0]["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 13);
    assert_eq!(lines[0]["place"], 1);
    assert_eq!(lines[0]["id"].as_u64(), champion.map(u64::from), "{lines:?}");
    assert_eq!(lines[1]["place"], 2, "one champion: {lines:?}");

    // The same seed and the same field draw the same cards.
    create("Replay");
    for (i, n) in names.iter().enumerate() {
        db.register("Replay", n, 2000 - 10 * i as u32);
    }
    assert_eq!(db.pair("Replay"), first_round.unwrap());
}

/// A decided match takes no more games.
fn second_game_too_many(db: &Db, id: &str) {
    let (ok, _, err) = db.run(&["result", "Cup", id, "1-0"]);
    assert!(!ok && err.contains("already decided"), "{err}");
}

/// The seed, the splitmix64 value and its lowest bit of a lot as `result` prints it.
fn audit_lot(out: &str) -> (u64, u64, u64) {
    let after = |key: &str| out.split(key).nth(1).unwrap_or_else(|| panic!("no {key:?} in {out}"));
    let seed = after("splitmix64(seed ").split(')').next().unwrap().parse().unwrap();
    let hex = after(") = 0x").split_whitespace().next().unwrap().trim_end_matches(',');
    let bit = after("lowest bit ").split(|c: char| !c.is_ascii_digit()).next().unwrap().parse().unwrap();
    (seed, u64::from_str_radix(hex, 16).unwrap(), bit)
}

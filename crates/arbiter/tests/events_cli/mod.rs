//! Helpers of the format tests: a database with the commands an arbiter runs, FIDE's Berger
//! tables, the card draw's record, the lot's audit.
#![allow(dead_code, unused_imports)]

pub use std::collections::{BTreeMap, BTreeSet, HashMap};
pub use std::path::PathBuf;
pub use std::process::Command;

pub use serde_json::Value;

/// A temporary SQLite database the commands run on.
pub struct Db {
    pub path: PathBuf,
}

impl Db {
    pub fn new(tag: &str) -> Db {
        let dir = std::env::temp_dir().join(format!("arbiter-formats-{}-{tag}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("events.db");
        std::fs::remove_file(&path).ok();
        Db { path }
    }

    /// `arbiter tournament ARGS --db FILE`: success, stdout, stderr.
    pub fn run(&self, args: &[&str]) -> (bool, String, String) {
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

    pub fn ok(&self, args: &[&str]) -> String {
        let (ok, out, err) = self.run(args);
        assert!(ok, "{args:?} failed: {err}");
        out
    }

    pub fn json(&self, args: &[&str]) -> Value {
        let out = self.ok(args);
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"))
    }

    /// Runs a command that must fail, with a message containing `says`, and leave the event's
    /// log as it was.
    pub fn refuses(&self, event: &str, args: &[&str], says: &str) {
        let before = self.ok(&["log", event]);
        let (ok, out, err) = self.run(args);
        assert!(!ok, "{args:?} should fail, printed {out}");
        assert!(err.contains(says), "{args:?}: {err:?} should say {says:?}");
        assert!(!err.contains("panicked"), "{err}");
        assert_eq!(self.ok(&["log", event]), before, "{args:?} changed the event");
    }

    pub fn register(&self, event: &str, name: &str, rating: u32) -> u32 {
        let out = self.ok(&["register", event, name, "--rating", &rating.to_string()]);
        out.split_whitespace().next().unwrap().parse().unwrap()
    }

    pub fn pair(&self, event: &str) -> Round {
        Round::from(&self.json(&["pair", event, "--json"]))
    }

    pub fn result(&self, event: &str, id: &str, results: &[&str]) -> String {
        let mut args = vec!["result", event, id];
        args.extend(results);
        self.ok(&args)
    }

    /// The lines of the standings' tables, stage by stage.
    pub fn standings(&self, event: &str) -> Vec<Value> {
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
pub struct Pairing {
    pub id: String,
    pub first: u32,
    pub second: Option<u32>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Round {
    pub pairings: Vec<Pairing>,
    pub draw: Option<String>,
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
    pub fn games(&self) -> Vec<&Pairing> {
        self.pairings.iter().filter(|p| p.second.is_some()).collect()
    }

    pub fn byes(&self) -> Vec<&Pairing> {
        self.pairings.iter().filter(|p| p.second.is_none()).collect()
    }
}

/// splitmix64 as published (Steele, Lea, Flood 2014), to audit a lot from its printed seed.
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// FIDE's Berger table for `n` players: per round, the boards as (white, black).
pub fn fide_berger(n: u32) -> Vec<Vec<(u32, u32)>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tournament/tests/data/berger-fide.tsv");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut rounds = BTreeMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols[0] != n.to_string() {
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
pub fn cards(draw: &str) -> HashMap<String, String> {
    let list = draw.split_once("): ").expect("the cards follow the seed").1;
    list.split(", ")
        .map(|c| {
            let (name, card) = c.split_once(' ').unwrap();
            (name.to_string(), card.to_string())
        })
        .collect()
}

/// A decided match takes no more games.
pub fn second_game_too_many(db: &Db, id: &str) {
    let (ok, _, err) = db.run(&["result", "Cup", id, "1-0"]);
    assert!(!ok && err.contains("already decided"), "{err}");
}

/// The seed, the splitmix64 value and its lowest bit of a lot as `result` prints it.
pub fn audit_lot(out: &str) -> (u64, u64, u64) {
    let after = |key: &str| out.split(key).nth(1).unwrap_or_else(|| panic!("no {key:?} in {out}"));
    let seed = after("splitmix64(seed ").split(')').next().unwrap().parse().unwrap();
    let hex = after(") = 0x").split_whitespace().next().unwrap().trim_end_matches(',');
    let bit = after("lowest bit ")
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .unwrap()
        .parse()
        .unwrap();
    (seed, u64::from_str_radix(hex, 16).unwrap(), bit)
}

/// A game's result as the arbiter's sheet gives it, from white's side, for the players with
/// Berger numbers `w` (white) and `b`: mostly the higher seed wins, with draws and upsets
/// sprinkled in by a rule the test can recount.
pub fn sheet(w: u32, b: u32) -> &'static str {
    if (w + b).is_multiple_of(4) {
        "1/2"
    } else if (w < b) != (w * b).is_multiple_of(7) {
        "1-0"
    } else {
        "0-1"
    }
}

/// Points of white and black for a sheet result.
pub fn points(result: &str) -> (f64, f64) {
    match result {
        "1-0" => (1.0, 0.0),
        "0-1" => (0.0, 1.0),
        _ => (0.5, 0.5),
    }
}

/// Registers players whose rating order differs from their registration order; returns each
/// entrant's id by Berger number (1 = highest rating) and the names by id.
pub fn register_field(db: &Db, event: &str, ratings: &[u32]) -> (Vec<u32>, HashMap<u32, String>) {
    let mut names = HashMap::new();
    let mut by_rating = Vec::new();
    for (i, &r) in ratings.iter().enumerate() {
        let name = format!("Entrant{}", i + 1);
        let id = db.register(event, &name, r);
        names.insert(id, name);
        by_rating.push((r, id));
    }
    by_rating.sort_by(|a, b| b.cmp(a));
    (by_rating.into_iter().map(|(_, id)| id).collect(), names)
}

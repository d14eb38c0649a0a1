//! Helpers shared by the event tests (each test binary uses its own share of them).
#![allow(dead_code, unused_imports)]

pub use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::PathBuf;
use std::process::Command;
pub use std::time::Instant;

pub use serde_json::Value;

pub fn arbiter(args: &[&str]) -> (bool, String, String) {
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
pub struct Db {
    pub dir: PathBuf,
    pub path: String,
    pub spawns: usize,
}

impl Db {
    pub fn new(test: &str) -> Db {
        let dir = std::env::temp_dir().join(format!("arbiter-events-{test}-{}", std::process::id()));
        std::fs::remove_dir_all(&dir).ok();
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("events.db").to_str().unwrap().to_string();
        Db { dir, path, spawns: 0 }
    }

    /// `arbiter ARGS --db FILE`.
    pub fn try_run(&mut self, args: &[&str]) -> (bool, String, String) {
        self.spawns += 1;
        let mut all = args.to_vec();
        all.extend(["--db", self.path.as_str()]);
        arbiter(&all)
    }

    /// A command that must succeed: its output.
    pub fn run(&mut self, args: &[&str]) -> String {
        let (ok, out, err) = self.try_run(args);
        assert!(ok, "arbiter {args:?} failed: {err}{out}");
        out
    }

    pub fn json(&mut self, args: &[&str]) -> Value {
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
pub fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A pairing of `pair --json`: its id, first-named and second entrant.
pub fn pairings(round: &Value) -> Vec<(String, u64, Option<u64>)> {
    round["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["id"].as_str().unwrap().to_string(),
                p["first"].as_u64().unwrap(),
                p["second"].as_u64(),
            )
        })
        .collect()
}

/// A standings table's lines of `standings --json`: (place, id, name, points, tie-breaks).
pub fn lines(table: &Value) -> Vec<(u64, u64, String, f64, Vec<f64>)> {
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
                l["tiebreaks"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_f64().unwrap())
                    .collect(),
            )
        })
        .collect()
}

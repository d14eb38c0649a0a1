//! Events of every format run end to end through the `arbiter` binary, as an arbiter would:
//! `create`, `register`, `pair --json` for the pairing ids, `result` per pairing, standings.
//! Each command is its own process, as it is for a user, so the big events take a while.

use std::collections::{BTreeMap, HashMap, HashSet};
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

/// A 64-player double elimination, every game picked by the generator except the first game
/// of the grand final, which goes to the losers' bracket finalist when `reset`.
fn double_elimination(reset: bool) {
    let started = Instant::now();
    let mut db = Db::new(if reset { "de-reset" } else { "de-straight" });
    let n = 64u64;
    db.run(&[
        "tournament",
        "create",
        "DE",
        "--format",
        "double-knockout",
        "--games",
        "1",
        "--seed",
        "64",
    ]);
    for i in 1..=n {
        let rating = (2600 - 10 * i).to_string();
        db.run(&["tournament", "register", "DE", &format!("P{i}"), "--rating", &rating]);
    }
    let mut rng = if reset { 11 } else { 12 };
    let mut losses: BTreeMap<u64, u32> = (1..=n).map(|i| (i, 0)).collect();
    let mut played = 0;
    let mut ids = HashSet::new();
    let mut grand_final = Vec::new();
    // The round (the id before its dot: W3, L5, GF) in which each entrant lost the second time.
    let mut out_in: HashMap<u64, String> = HashMap::new();
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
                next(&mut rng).is_multiple_of(2)
            };
            if id.starts_with("GF.") {
                grand_final.push(id.clone());
            }
            let out = db.run(&[
                "tournament",
                "result",
                "DE",
                &id,
                if first_wins { "1-0" } else { "0-1" },
            ]);
            assert!(out.contains("won by"), "{out}");
            let loser = if first_wins { b } else { a };
            *losses.get_mut(&loser).unwrap() += 1;
            if losses[&loser] == 2 {
                out_in.insert(loser, id.split('.').next().unwrap().to_string());
            }
            played += 1;
        }
        assert!(round < 40, "the bracket does not end");
    }
    assert_eq!(played, if reset { 2 * n - 1 } else { 2 * n - 2 });
    let expected_gf: Vec<&str> = if reset { vec!["GF.1", "GF.2"] } else { vec!["GF.1"] };
    assert_eq!(grand_final, expected_gf);
    let unbeaten_twice: Vec<u64> = losses.iter().filter(|(_, &l)| l < 2).map(|(&i, _)| i).collect();
    assert_eq!(
        unbeaten_twice.len(),
        1,
        "only the champion has not lost twice: {losses:?}"
    );
    let champion = unbeaten_twice[0];
    assert_eq!(
        losses[&champion],
        u32::from(reset),
        "the champion lost only a reset GF.1"
    );
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
    // Below the final, those out in the same losers' round share a place, a later round placing
    // higher.
    for w in table[1..].windows(2) {
        let (x, y) = (&out_in[&w[0].1], &out_in[&w[1].1]);
        assert_eq!(
            w[0].0 == w[1].0,
            x == y,
            "{} (out in {x}) and {} (out in {y})",
            w[0].2,
            w[1].2
        );
    }
    assert!(table[2..].iter().all(|l| out_in[&l.1].starts_with('L')));
    assert_eq!(table[2].0, 3, "the losers' final's loser is third alone");
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

/// The designed team results: team `i`'s boards against team `j` (i < j), from i's side.
/// By default the lower-numbered team wins 2½-1½; the exceptions make the ties below.
fn team_boards(i: u64, j: u64) -> [&'static str; 4] {
    match (i, j) {
        // T3 and T4 end level on match and game points; T3 beat T4, so 直胜 (DE) decides.
        (3, 5) | (3, 6) => ["1/2"; 4],
        // T7 and T8 level on everything but the boards: T7 took board 1 off T1 (台次分, TBR).
        (7, 8) => ["1/2"; 4],
        (1, 7) => ["0-1", "1-0", "1-0", "1/2"],
        // T6's 4-0 over T2: by game points first, T6 is second.
        (2, 6) => ["0-1"; 4],
        _ => ["1-0", "1/2", "1/2", "1/2"],
    }
}

fn reversed(r: &str) -> &'static str {
    match r {
        "1-0" => "0-1",
        "0-1" => "1-0",
        _ => "1/2",
    }
}

/// Team `t`'s members as registered: four boards and a reserve.
fn members(t: u64) -> Vec<String> {
    ["a", "b", "c", "d", "e"].iter().map(|m| format!("T{t}{m}")).collect()
}

/// Checks a team pairing's boards as `pair`/`pairings` print them: the first four members of
/// each team in board order, board 1 of the first-named team red/white, then alternating.
fn check_boards(text: &str, id: &str, first: u64, second: u64) {
    let start = text
        .lines()
        .position(|l| l.trim() == format!("{id}  boards:"))
        .unwrap_or_else(|| panic!("no boards of {id}: {text}"));
    let boards: Vec<&str> = text.lines().skip(start + 1).take(4).collect();
    let (a, b) = (members(first), members(second));
    for (k, line) in boards.iter().enumerate() {
        let (ca, cb) = if k % 2 == 0 {
            ("red/white", "black")
        } else {
            ("black", "red/white")
        };
        let want = format!("{}. {} ({ca}) - {} ({cb})", k + 1, a[k], b[k]);
        assert!(
            line.trim_start().starts_with(&want),
            "{id} board {}: {line:?}, want {want:?}",
            k + 1
        );
    }
}

/// Eight teams of four boards (and a reserve) in a round robin, the boards entered from the
/// first-named team's side: 7 rounds, standings by match points 2/1/0 (or game points first)
/// and the CXA's order 局分, 直胜, 台次分.
fn team_round_robin(game_points_first: bool) -> Vec<(u64, u64, String, f64, Vec<f64>)> {
    let mut db = Db::new(if game_points_first { "teams-gp" } else { "teams-mp" });
    let mut create = vec![
        "tournament",
        "create",
        "Teams",
        "--format",
        "round-robin",
        "--boards",
        "4",
    ];
    if game_points_first {
        create.push("--game-points-first");
    }
    db.run(&create);
    for t in 1..=8u64 {
        let out = db.run(&[
            "tournament",
            "register",
            "Teams",
            &format!("T{t}"),
            "--members",
            &members(t).join(","),
        ]);
        assert!(out.starts_with(&format!("{t} T{t}")), "{out}");
    }
    let mut met = HashSet::new();
    for round in 1..=7 {
        let r = db.json(&["tournament", "pair", "Teams", "--json"]);
        let ps = pairings(&r);
        assert_eq!(ps.len(), 4, "round {round}: 8 teams, 4 matches");
        for (id, a, b) in &ps {
            assert_eq!(id, &format!("{round}.{}", id.split('.').nth(1).unwrap()));
            let b = b.expect("no byes with 8 teams");
            assert!(met.insert((*a.min(&b), *a.max(&b))), "T{a} and T{b} met twice");
            let boards: Vec<&str> = if *a < b {
                team_boards(*a, b).to_vec()
            } else {
                team_boards(b, *a).iter().map(|r| reversed(r)).collect()
            };
            let mut args = vec!["tournament", "result", "Teams", id.as_str()];
            args.extend(boards);
            db.run(&args);
        }
        let shown = db.run(&["tournament", "pairings", "Teams"]);
        for (id, a, b) in &ps {
            check_boards(&shown, id, *a, b.unwrap());
        }
        assert!(
            !shown.contains(&format!("T{}e", ps[0].1)),
            "a reserve does not play: {shown}"
        );
    }
    assert_eq!(met.len(), 28);
    let (ok, _, err) = db.try_run(&["tournament", "pair", "Teams"]);
    assert!(!ok && err.contains("finished"), "{err}");

    // Match and game points counted here from the designed results.
    let mut mp = [0.0; 9];
    let mut gp = [0.0; 9];
    for i in 1..=8u64 {
        for j in i + 1..=8 {
            let pts: f64 = team_boards(i, j)
                .iter()
                .map(|r| match *r {
                    "1-0" => 1.0,
                    "1/2" => 0.5,
                    _ => 0.0,
                })
                .sum();
            gp[i as usize] += pts;
            gp[j as usize] += 4.0 - pts;
            let (mi, mj) = match pts {
                p if p > 2.0 => (2.0, 0.0),
                p if p < 2.0 => (0.0, 2.0),
                _ => (1.0, 1.0),
            };
            mp[i as usize] += mi;
            mp[j as usize] += mj;
        }
    }
    let tables = db.json(&["tournament", "standings", "Teams", "--json"]);
    assert_eq!(tables.as_array().unwrap().len(), 1);
    let columns: Vec<&str> = tables[0]["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(columns, ["GP", "DE", "TBR"], "the CXA's team order by default");
    let table = lines(&tables[0]);
    for (_, id, name, points, tb) in &table {
        let primary = if game_points_first {
            gp[*id as usize]
        } else {
            mp[*id as usize]
        };
        assert_eq!(*points, primary, "{name}");
        assert_eq!(tb[0], gp[*id as usize], "{name}: game points");
    }
    let places: Vec<u64> = table.iter().map(|l| l.0).collect();
    assert_eq!(places, (1..=8).collect::<Vec<_>>(), "every tie is broken");
    let text = db.run(&["tournament", "standings", "Teams"]);
    assert!(text.contains("TBR"), "{text}");
    let cross = db.run(&["tournament", "crosstable", "Teams"]);
    assert!(cross.contains("T8"), "{cross}");
    table
}

#[test]
fn eight_teams_of_four_boards_in_a_round_robin_with_match_points() {
    let table = team_round_robin(false);
    let order: Vec<&str> = table.iter().map(|l| l.2.as_str()).collect();
    assert_eq!(order, ["T1", "T2", "T3", "T4", "T6", "T5", "T7", "T8"]);
    let by = |name: &str| table.iter().find(|l| l.2 == name).unwrap().clone();
    let (t3, t4) = (by("T3"), by("T4"));
    assert_eq!((t3.3, t3.4[0]), (8.0, 14.5));
    assert_eq!((t4.3, t4.4[0]), (8.0, 14.5), "level with T3 on MP and GP");
    assert_eq!((t3.4[1], t4.4[1]), (1.0, 2.0), "直胜: T3 beat T4");
    let (t7, t8) = (by("T7"), by("T8"));
    assert_eq!((t7.3, t7.4[0], t8.3, t8.4[0]), (1.0, 11.0, 1.0, 11.0));
    assert_eq!((t7.4[1], t8.4[1]), (0.0, 0.0), "their drawn match separates nothing");
    assert_eq!((t7.4[2], t8.4[2]), (1.0, 2.0), "台次分: T7's board-1 win");
}

#[test]
fn eight_teams_ranked_by_game_points_first() {
    let table = team_round_robin(true);
    let order: Vec<&str> = table.iter().map(|l| l.2.as_str()).collect();
    assert_eq!(order, ["T1", "T6", "T3", "T4", "T2", "T5", "T7", "T8"]);
    let by = |name: &str| table.iter().find(|l| l.2 == name).unwrap().clone();
    let (t2, t5) = (by("T2"), by("T5"));
    assert_eq!((t2.3, t5.3), (14.0, 14.0), "level on game points");
    assert_eq!((t2.4[1], t5.4[1]), (1.0, 2.0), "T2 beat T5");
}

/// Six players in a round robin, the top two into a knockout final; 2nd place is a dead tie
/// (P2 and P3 drew each other and beat the same players), so a play-off decides it: won by
/// its second-named, or drawn and decided by lots.
fn two_stage(drawn_playoff: bool) {
    let mut db = Db::new(if drawn_playoff { "two-stage-lots" } else { "two-stage" });
    let out = db.run(&[
        "tournament",
        "create",
        "Two",
        "--format",
        "round-robin",
        "--advance",
        "2",
        "--final",
        "knockout",
        "--seed",
        "6",
    ]);
    assert!(out.contains("round-robin then knockout"), "{out}");
    for i in 1..=6u64 {
        db.run(&[
            "tournament",
            "register",
            "Two",
            &format!("P{i}"),
            "--rating",
            &(2000 - i).to_string(),
        ]);
    }
    // The lower number wins, but P2 and P3 draw.
    for round in 1..=5 {
        let r = db.json(&["tournament", "pair", "Two", "--json"]);
        for (id, a, b) in pairings(&r) {
            let b = b.unwrap();
            let result = match (a.min(b), a.max(b)) {
                (2, 3) => "1/2",
                _ if a < b => "1-0",
                _ => "0-1",
            };
            db.run(&["tournament", "result", "Two", &id, result]);
        }
        assert_eq!(r["number"].as_u64(), Some(round));
    }
    let tables = db.json(&["tournament", "standings", "Two", "--json"]);
    let first = lines(&tables[0]);
    let places: Vec<(u64, f64)> = first.iter().map(|l| (l.0, l.3)).collect();
    assert_eq!(places, [(1, 5.0), (2, 3.5), (2, 3.5), (4, 2.0), (5, 1.0), (6, 0.0)]);

    let po = db.json(&["tournament", "pair", "Two", "--json"]);
    let ps = pairings(&po);
    assert_eq!(ps.len(), 1, "{po}");
    let (id, a, b) = ps[0].clone();
    assert!(id.contains("PO"), "{id}");
    let b = b.unwrap();
    assert_eq!((a.min(b), a.max(b)), (2, 3), "the play-off is between the tied");
    let (ok, _, err) = db.try_run(&["tournament", "pair", "Two"]);
    assert!(!ok && err.contains(&id), "the final waits for the play-off: {err}");
    let before = db.run(&["tournament", "log", "Two"]);
    let (ok, _, err) = db.try_run(&["tournament", "result", "Two", "9.9", "1-0"]);
    assert!(!ok && err.contains("no pairing \"9.9\""), "{err}");
    assert_eq!(db.run(&["tournament", "log", "Two"]), before, "nothing changed");
    let played = if drawn_playoff { "1/2" } else { "0-1" };
    let out = db.run(&["tournament", "result", "Two", &id, played]);
    let b = if drawn_playoff {
        // A play-off game has no play-off of its own: a draw goes to lots at once.
        assert!(out.contains("lots drawn with splitmix64"), "{out}");
        let winner = if out.contains(&format!("lots: P{a} (won by P{a})")) {
            a
        } else {
            b
        };
        assert!(out.contains(&format!("lots: P{winner} (won by P{winner})")), "{out}");
        winner
    } else {
        assert!(out.contains(&format!("won by P{b}")), "{out}");
        b
    };

    let fin = db.json(&["tournament", "pair", "Two", "--json"]);
    let ps = pairings(&fin);
    assert_eq!(ps.len(), 1, "{fin}");
    let (fid, x, y) = ps[0].clone();
    assert!(fid.starts_with('F'), "a final-stage id: {fid}");
    let y = y.unwrap();
    assert_eq!(
        (x.min(y), x.max(y)),
        (1, b),
        "the winner of the stage and of the play-off"
    );
    // The play-off winner takes the final.
    let result = if x == b { "1-0" } else { "0-1" };
    let out = db.run(&["tournament", "result", "Two", &fid, result]);
    assert!(out.contains("the event is finished"), "{out}");

    let tables = db.json(&["tournament", "standings", "Two", "--json"]);
    assert_eq!(tables.as_array().unwrap().len(), 2);
    let fin = lines(&tables[1]);
    assert_eq!(tables[1]["title"], "final (knockout)");
    let loser = if b == 2 { 3 } else { 2 };
    let notes: Vec<(u64, &str)> = tables[0]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["id"].as_u64().unwrap(), l["note"].as_str().unwrap_or("")))
        .collect();
    for (id, note) in notes {
        let want = match id {
            1 => "qualified",
            _ if id == b => "qualified after a play-off",
            _ if id == loser => "out after a play-off",
            _ => "",
        };
        assert_eq!(note, want, "stage 1, P{id}");
    }
    assert_eq!((fin[0].0, fin[0].1), (1, b), "the play-off winner is champion");
    assert_eq!((fin[1].0, fin[1].1), (2, 1));
    let text = db.run(&["tournament", "pairings", "Two"]);
    assert!(text.contains("play-off 1"), "{text}");
    let log = db.run(&["tournament", "log", "Two"]);
    assert!(log.contains(&format!("result {id} {played}")), "{log}");
    assert_eq!(log.contains("lots drawn"), drawn_playoff, "{log}");
}

#[test]
fn a_tie_on_a_qualifying_place_goes_to_a_play_off_then_the_final() {
    two_stage(false);
}

#[test]
fn a_drawn_qualifying_play_off_is_decided_by_lots() {
    two_stage(true);
}

/// A 9-round Swiss of 200 players (FIDE Dutch) through the same commands: 200 registrations,
/// 9 pairings, 900 results, one process each. Results: the higher rated wins more often.
#[test]
fn a_nine_round_swiss_of_200_players() {
    let started = Instant::now();
    let mut db = Db::new("swiss200");
    db.run(&["tournament", "create", "Open", "--format", "swiss", "--rounds", "9"]);
    let n = 200u64;
    let mut rng = 200;
    let rating: Vec<u64> = (0..=n)
        .map(|i| if i == 0 { 0 } else { 1400 + next(&mut rng) % 1200 })
        .collect();
    for i in 1..=n {
        let out = db.run(&[
            "tournament",
            "register",
            "Open",
            &format!("Player {i}"),
            "--rating",
            &rating[i as usize].to_string(),
        ]);
        assert!(out.starts_with(&format!("{i} ")), "{out}");
    }
    let registered = started.elapsed();
    let mut points = vec![0.0f64; n as usize + 1];
    let mut met = HashSet::new();
    let mut byes = HashSet::new();
    for round in 1..=9u64 {
        let r = db.json(&["tournament", "pair", "Open", "--json"]);
        assert_eq!(r["round"].as_u64(), Some(round));
        let boards: Vec<(u64, u64)> = r["boards"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| (b[0].as_u64().unwrap(), b[1].as_u64().unwrap()))
            .collect();
        assert_eq!(boards.len(), 100, "round {round}: everyone plays");
        assert!(r["bye"].is_null());
        for &(w, b) in &boards {
            assert!(
                met.insert((w.min(b), w.max(b))),
                "round {round}: {w} and {b} met before"
            );
            let roll = next(&mut rng) % 100;
            let favourite_wins = roll < 55;
            let draw = (55..80).contains(&roll);
            let white_favourite = rating[w as usize] >= rating[b as usize];
            let result = if draw {
                points[w as usize] += 0.5;
                points[b as usize] += 0.5;
                "1/2"
            } else if favourite_wins == white_favourite {
                points[w as usize] += 1.0;
                "1-0"
            } else {
                points[b as usize] += 1.0;
                "0-1"
            };
            let (round, w, b) = (round.to_string(), w.to_string(), b.to_string());
            db.run(&["tournament", "result", "Open", &round, &w, &b, result]);
        }
        if let Some(b) = r["bye"].as_u64() {
            assert!(byes.insert(b));
        }
    }
    let (ok, _, err) = db.try_run(&["tournament", "pair", "Open"]);
    assert!(!ok, "a tenth round of a 9-round Swiss: {err}");
    let table = db.json(&["tournament", "standings", "Open", "--json"]);
    let table = table.as_array().unwrap();
    assert_eq!(table.len(), 200);
    for l in table {
        let number = l["number"].as_u64().unwrap() as usize;
        assert_eq!(l["points"].as_f64().unwrap(), points[number], "player {number}");
    }
    let scores: Vec<f64> = table.iter().map(|l| l["points"].as_f64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "ranked by points");
    assert_eq!(scores.iter().sum::<f64>(), 900.0, "a point a game");
    let leader = table[0]["number"].as_u64().unwrap() as usize;
    assert_eq!(points[leader], points.iter().cloned().fold(0.0, f64::max));
    let cross = db.run(&["tournament", "crosstable", "Open"]);
    assert!(cross.contains("Player 200"), "{cross}");
    eprintln!(
        "Swiss of 200, 9 rounds: {} commands in {:.1?} (registration {:.1?})",
        db.spawns,
        started.elapsed(),
        registered
    );
}

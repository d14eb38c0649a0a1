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
            "create",
            name,
            "--format",
            "knockout",
            "--draw",
            "cards",
            "--games",
            "3",
            "--playoff",
            "1",
            "--seed",
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
        let drawn: BTreeSet<u32> = round
            .pairings
            .iter()
            .flat_map(|p| [Some(p.first), p.second])
            .flatten()
            .collect();
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
        if round_no == 2 {
            // Round 2 stands on round 1's results: they can no longer be corrected.
            let id = first_round.as_ref().unwrap().games()[2].id.clone();
            db.refuses(
                "Cup",
                &["result", "Cup", &id, "0-1", "1-0", "--replace"],
                "a later round has been paired",
            );
        }
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
                if round_no == 1 && k == 2 {
                    // Entered the wrong way round, then corrected while nothing stands on it.
                    let out = db.result("Cup", &p.id, &["0-1", "1-0"]);
                    assert!(out.contains("0-2"), "{out}");
                    let out = db.ok(&["result", "Cup", &p.id, "1-0", "0-1", "--replace"]);
                    assert!(out.contains(&format!("won by {}", name_of[&first])), "{out}");
                    let log = db.ok(&["log", "Cup"]);
                    assert!(
                        log.trim_end()
                            .ends_with(&format!("result {} 1-0 0-1 (replacing)", p.id)),
                        "{log}"
                    );
                    winners.insert(first);
                    continue;
                }
                // The first wins both games (with black in game 2): clinched 2-0.
                let out = db.result("Cup", &p.id, &["1-0", "0-1"]);
                assert!(
                    out.contains("2-0") && out.contains(&format!("won by {}", name_of[&first])),
                    "{out}"
                );
                second_game_too_many(&db, &p.id);
                first
            } else {
                // The second wins games 1 and 3 (black, then black): 1-2.
                let out = db.result("Cup", &p.id, &["0-1", "0-1", "0-1"]);
                assert!(
                    out.contains("1-2") && out.contains(&format!("won by {}", name_of[&second])),
                    "{out}"
                );
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
    // Those out in one round share a place: 1, 2, the semi-finals' losers 3, the
    // quarter-finals' 5, round 1's 8.
    let places: Vec<u64> = lines.iter().map(|l| l["place"].as_u64().unwrap()).collect();
    assert_eq!(places, [1, 2, 3, 3, 5, 5, 5, 8, 8, 8, 8, 8, 8], "{lines:?}");

    // The same seed and the same field draw the same cards.
    create("Replay");
    for (i, n) in names.iter().enumerate() {
        db.register("Replay", n, 2000 - 10 * i as u32);
    }
    let first_round = first_round.unwrap();
    assert_eq!(db.pair("Replay"), first_round);
    // Another seed, another draw.
    db.ok(&[
        "create", "Other", "--format", "knockout", "--draw", "cards", "--seed", "2027",
    ]);
    for (i, n) in names.iter().enumerate() {
        db.register("Other", n, 2000 - 10 * i as u32);
    }
    assert_ne!(db.pair("Other").pairings, first_round.pairings);
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
fn sheet(w: u32, b: u32) -> &'static str {
    if (w + b).is_multiple_of(4) {
        "1/2"
    } else if (w < b) != (w * b).is_multiple_of(7) {
        "1-0"
    } else {
        "0-1"
    }
}

/// Points of white and black for a sheet result.
fn points(result: &str) -> (f64, f64) {
    match result {
        "1-0" => (1.0, 0.0),
        "0-1" => (0.0, 1.0),
        _ => (0.5, 0.5),
    }
}

/// Registers players whose rating order differs from their registration order; returns each
/// entrant's id by Berger number (1 = highest rating) and the names by id.
fn register_field(db: &Db, event: &str, ratings: &[u32]) -> (Vec<u32>, HashMap<u32, String>) {
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

#[test]
fn a_round_robin_of_10_plays_fides_berger_table() {
    let db = Db::new("rr");
    db.ok(&["create", "Club", "--format", "round-robin", "--tiebreaks", "DE,WIN,SB"]);
    let ratings = [1800, 2100, 1950, 2300, 1700, 2000, 2200, 1850, 2050, 1900];
    let (seeds, names) = register_field(&db, "Club", &ratings);
    let number = |id: u32| seeds.iter().position(|&s| s == id).unwrap() as u32 + 1;
    let table = fide_berger(10);

    let mut met = BTreeSet::new();
    // Per Berger number: points, wins, and (opponent, points scored against them).
    let mut score = [0.0f64; 11];
    let mut wins = [0u32; 11];
    let mut games: Vec<Vec<(u32, f64)>> = vec![Vec::new(); 11];
    // Per Berger number and round: the crosstable's cell.
    let mut cells = vec![Vec::new(); 11];
    for (r, fide) in table.iter().enumerate() {
        let round = db.pair("Club");
        let boards: Vec<(u32, u32)> = round
            .pairings
            .iter()
            .map(|p| (number(p.first), number(p.second.expect("an even field has no bye"))))
            .collect();
        assert_eq!(&boards, fide, "round {}: colours and boards as FIDE's table", r + 1);
        for (p, &(w, b)) in round.pairings.iter().zip(&boards) {
            assert_eq!(
                p.id,
                format!("{}.{}", r + 1, boards.iter().position(|x| *x == (w, b)).unwrap() + 1)
            );
            assert!(met.insert((w.min(b), w.max(b))), "{w} and {b} meet twice");
            let result = sheet(w, b);
            db.result("Club", &p.id, &[result]);
            let (pw, pb) = points(result);
            for (me, them, mine, colour) in [(w, b, pw, 'w'), (b, w, pb, 'b')] {
                score[me as usize] += mine;
                wins[me as usize] += u32::from(mine == 1.0);
                games[me as usize].push((them, mine));
                let shown = if mine == 1.0 {
                    "1"
                } else if mine == 0.0 {
                    "0"
                } else {
                    "½"
                };
                cells[me as usize].push(format!("{them}{colour}{shown}"));
            }
        }
    }
    assert_eq!(met.len(), 45, "every pair of ten meets once");
    let (ok, _, err) = db.run(&["pair", "Club"]);
    assert!(!ok && err.contains("finished"), "{err}");

    // Standings: points, wins and Sonneborn-Berger as the results give them, in order.
    let tables = db.standings("Club");
    assert_eq!(tables.len(), 1);
    assert_eq!(tables[0]["columns"], serde_json::json!(["DE", "WIN", "SB"]));
    let lines = tables[0]["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 10);
    let mut previous: Option<Vec<f64>> = None;
    for (i, l) in lines.iter().enumerate() {
        let n = number(l["id"].as_u64().unwrap() as u32) as usize;
        let tb: Vec<f64> = l["tiebreaks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        let sb: f64 = games[n].iter().map(|&(o, p)| p * score[o as usize]).sum();
        assert_eq!(l["points"].as_f64().unwrap(), score[n], "{l}");
        assert_eq!(tb[1], f64::from(wins[n]), "WIN of {l}");
        assert_eq!(tb[2], sb, "SB of {l}");
        // DE is a rank among the tied (1 first, 0 for the untied): two tied on points are
        // separated by their own game.
        let tied: Vec<usize> = (1..=10).filter(|&m| m != n && score[m] == score[n]).collect();
        match tied[..] {
            [] => assert_eq!(tb[0], 0.0, "{l}"),
            [m] => {
                let own = games[n].iter().find(|g| g.0 as usize == m).unwrap().1;
                let want = if own == 1.0 {
                    1.0
                } else if own == 0.0 {
                    2.0
                } else {
                    1.0
                };
                assert_eq!(tb[0], want, "DE of {l} against {m}");
            }
            _ => {}
        }
        let key: Vec<f64> = [score[n], -tb[0], tb[1], tb[2]].to_vec();
        if let Some(prev) = &previous {
            assert!(prev >= &key, "ranked by points then DE, WIN, SB: {lines:?}");
            let place = l["place"].as_u64().unwrap() as usize;
            assert_eq!(
                place == i + 1,
                prev != &key,
                "a shared place only for equal keys: {lines:?}"
            );
        }
        previous = Some(key);
    }

    // The crosstable, by Berger number: every round's opponent, colour and result.
    let crosstable = db.ok(&["crosstable", "Club"]);
    let mut rows = 0;
    for line in crosstable.lines().skip(2) {
        let cols: Vec<&str> = line.split_whitespace().collect();
        let n: usize = cols[1].parse().unwrap();
        assert_eq!(cols[2], names[&seeds[n - 1]], "{line}");
        assert_eq!(&cols[4..13], &cells[n][..], "{line}");
        assert_eq!(cols[13].parse::<f64>().unwrap(), score[n], "{line}");
        rows += 1;
    }
    assert_eq!(rows, 10, "{crosstable}");

    let html = db.ok(&["standings", "Club", "--html"]);
    assert!(
        html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"),
        "{html}"
    );
    for needed in ["<th>DE</th>", "<th>WIN</th>", "<th>SB</th>"] {
        assert!(html.contains(needed), "{needed}: {html}");
    }
    assert!(names.values().all(|n| html.contains(n.as_str())));
    assert!(
        !html.contains("<script") && !html.contains("<link") && !html.contains("src="),
        "standalone"
    );
}

#[test]
fn a_double_round_robin_of_6_reverses_colours_in_its_second_cycle() {
    let db = Db::new("drr");
    db.ok(&[
        "create",
        "Double",
        "--format",
        "double-round-robin",
        "--points",
        "2/1/0",
    ]);
    let (seeds, _) = register_field(&db, "Double", &[1500, 1900, 1600, 2000, 1700, 1800]);
    let number = |id: u32| seeds.iter().position(|&s| s == id).unwrap() as u32 + 1;
    let fide = fide_berger(6);
    // FIDE's double round robin: the first cycle with its last two rounds swapped (so nobody
    // has three games running with one colour across the cycles), then the table again with
    // colours reversed.
    let mut expected: Vec<Vec<(u32, u32)>> = fide.clone();
    expected.swap(3, 4);
    expected.extend(fide.iter().map(|r| r.iter().map(|&(w, b)| (b, w)).collect::<Vec<_>>()));

    let mut colours: BTreeMap<(u32, u32), u32> = BTreeMap::new();
    let mut score = [0.0f64; 7];
    for (r, want) in expected.iter().enumerate() {
        let round = db.pair("Double");
        let boards: Vec<(u32, u32)> = round
            .pairings
            .iter()
            .map(|p| (number(p.first), number(p.second.unwrap())))
            .collect();
        assert_eq!(&boards, want, "round {}", r + 1);
        for (p, &(w, b)) in round.pairings.iter().zip(&boards) {
            *colours.entry((w, b)).or_default() += 1;
            let result = sheet(w, b);
            db.result("Double", &p.id, &[result]);
            let (pw, pb) = points(result);
            score[w as usize] += 2.0 * pw;
            score[b as usize] += 2.0 * pb;
        }
    }
    assert_eq!(expected.len(), 10);
    // Each pair meets twice, once with each colour.
    assert_eq!(colours.len(), 30);
    assert!(colours.values().all(|&c| c == 1));
    let (ok, _, err) = db.run(&["pair", "Double"]);
    assert!(!ok && err.contains("finished"), "{err}");

    let tables = db.standings("Double");
    let lines = tables[0]["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 6);
    for l in lines {
        let n = number(l["id"].as_u64().unwrap() as u32) as usize;
        assert_eq!(l["points"].as_f64().unwrap(), score[n], "2/1/0 points: {l}");
    }
    let points: Vec<f64> = lines.iter().map(|l| l["points"].as_f64().unwrap()).collect();
    assert!(points.windows(2).all(|w| w[0] >= w[1]), "{points:?}");
    assert_eq!(points.iter().sum::<f64>(), 2.0 * 30.0, "two points a game");
}

#[test]
fn four_seeded_groups_of_six_send_their_top_two_to_a_knockout() {
    let db = Db::new("groups");
    db.ok(&[
        "create",
        "Cup",
        "--format",
        "groups",
        "--groups",
        "4",
        "--advance",
        "2",
        "--final",
        "knockout",
    ]);
    let ratings: Vec<u32> = (0..24).map(|i| 2000 + (i * 7 % 24) * 10).collect();
    let (seeds, _) = register_field(&db, "Cup", &ratings);
    let seed_of = |id: u32| seeds.iter().position(|&s| s == id).unwrap() as u32 + 1;

    let first = db.pair("Cup");
    let stages = db.json(&["pairings", "Cup", "--json"]);
    let groups: Vec<Vec<u32>> = stages[0]["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            g.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap() as u32)
                .collect()
        })
        .collect();
    assert_eq!(groups.len(), 4);
    // Seeds dealt in snake order: A 1 8 9 16 17 24, B 2 7 10 15 18 23, …
    for (g, members) in groups.iter().enumerate() {
        let mut got: Vec<u32> = members.iter().map(|&id| seed_of(id)).collect();
        got.sort();
        let g = g as u32;
        assert_eq!(got, [g + 1, 8 - g, 9 + g, 16 - g, 17 + g, 24 - g], "group {g}");
    }
    let group_of = |id: u32| groups.iter().position(|m| m.contains(&id)).unwrap();
    // Each group finishes in an order the results force: group A by rating, the others with
    // their seeds rotated, so a top seed can finish last. The earlier in the order wins.
    let finish: Vec<Vec<u32>> = groups
        .iter()
        .enumerate()
        .map(|(g, m)| {
            let mut by_seed = m.clone();
            by_seed.sort_by_key(|&id| seed_of(id));
            by_seed.rotate_left(g);
            by_seed
        })
        .collect();
    let rank = |id: u32| finish[group_of(id)].iter().position(|&x| x == id).unwrap();

    let mut round = first;
    for r in 1..=5 {
        assert_eq!(
            round.games().len(),
            12,
            "round {r}: three boards in each of four groups"
        );
        let mut met = BTreeSet::new();
        for p in &round.pairings {
            let (a, b) = (p.first, p.second.unwrap());
            assert_eq!(group_of(a), group_of(b), "{p:?} stays in its group");
            let letter = (b'A' + group_of(a) as u8) as char;
            assert!(p.id.starts_with(&format!("{letter}{r}.")), "{p:?}");
            assert!(met.insert(a) && met.insert(b));
            db.result("Cup", &p.id, &[if rank(a) < rank(b) { "1-0" } else { "0-1" }]);
        }
        if r < 5 {
            round = db.pair("Cup");
        }
    }

    // The group tables: the forced order, 5 4 3 2 1 0 points, nobody sharing a place.
    let tables = db.standings("Cup");
    for (g, order) in finish.iter().enumerate() {
        let lines = tables[g]["lines"].as_array().unwrap();
        let got: Vec<(u64, u64, f64)> = lines
            .iter()
            .map(|l| {
                (
                    l["place"].as_u64().unwrap(),
                    l["id"].as_u64().unwrap(),
                    l["points"].as_f64().unwrap(),
                )
            })
            .collect();
        let want: Vec<(u64, u64, f64)> = order
            .iter()
            .enumerate()
            .map(|(i, &id)| (i as u64 + 1, u64::from(id), 5.0 - i as f64))
            .collect();
        assert_eq!(got, want, "group {g}");
    }

    // The knockout of the top two: winners kept apart until the semi-finals, group mates apart
    // in the quarter-finals, each quarter-final a winner against a runner-up.
    let winners: Vec<u32> = finish.iter().map(|o| o[0]).collect();
    let runners: Vec<u32> = finish.iter().map(|o| o[1]).collect();
    let quarters = db.pair("Cup");
    assert_eq!(quarters.games().len(), 4, "{quarters:?}");
    assert!(quarters.byes().is_empty());
    let mut in_final = BTreeSet::new();
    for (k, p) in quarters.pairings.iter().enumerate() {
        let (a, b) = (p.first, p.second.unwrap());
        in_final.extend([a, b]);
        assert_ne!(group_of(a), group_of(b), "group mates in a quarter-final: {p:?}");
        assert_eq!(winners.contains(&a), runners.contains(&b), "{p:?}");
        assert!(winners.contains(&a) != winners.contains(&b), "{p:?}");
        // Two group winners go through, two runners-up beat theirs.
        let winner_wins = k < 2;
        let winner_first = winners.contains(&a);
        db.result("Cup", &p.id, &[if winner_wins == winner_first { "1-0" } else { "0-1" }]);
    }
    assert_eq!(in_final, winners.iter().chain(&runners).copied().collect());
    let semis = db.pair("Cup");
    assert_eq!(semis.games().len(), 2, "{semis:?}");
    for p in &semis.pairings {
        assert_ne!(
            group_of(p.first),
            group_of(p.second.unwrap()),
            "group mates in a semi-final: {p:?}"
        );
        db.result("Cup", &p.id, &["1-0"]);
    }
    let last = db.pair("Cup");
    assert_eq!(last.games().len(), 1, "{last:?}");
    let champion = last.pairings[0].second.unwrap();
    let out = db.result("Cup", &last.pairings[0].id, &["0-1"]);
    assert!(out.contains("the event is finished"), "{out}");
    let (ok, _, err) = db.run(&["pair", "Cup"]);
    assert!(!ok && err.contains("finished"), "{err}");

    let tables = db.standings("Cup");
    assert_eq!(tables.len(), 5, "four groups and the final");
    let final_table = &tables[4];
    assert_eq!(final_table["stage"], 1);
    let lines = final_table["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 8);
    assert_eq!(
        (lines[0]["place"].as_u64(), lines[0]["id"].as_u64()),
        (Some(1), Some(u64::from(champion)))
    );
    assert_eq!(lines[1]["place"], 2);
}

#[test]
fn impossible_requests_are_clear_errors_and_change_nothing() {
    let db = Db::new("errors");
    // A draw with too few players.
    db.ok(&["create", "Alone", "--format", "knockout", "--draw", "cards"]);
    db.register("Alone", "Solo", 1500);
    db.refuses("Alone", &["pair", "Alone"], "needs at least 2 entrants, has 1");
    db.ok(&["create", "Sparse", "--format", "groups", "--groups", "4"]);
    for i in 0..7 {
        db.register("Sparse", &format!("S{i}"), 1500 + i);
    }
    db.refuses("Sparse", &["pair", "Sparse"], "needs at least 8 entrants, has 7");

    db.ok(&["create", "Four", "--format", "round-robin"]);
    for (name, rating) in [("Ann", 1900), ("Bo", 1800), ("Cy", 1700), ("Di", 1600)] {
        db.register("Four", name, rating);
    }
    let round = db.pair("Four");
    let ids: Vec<&str> = round.pairings.iter().map(|p| p.id.as_str()).collect();
    // A result for a pairing that does not exist, one that is not a result, one too many.
    db.refuses("Four", &["result", "Four", "9.9", "1-0"], "no pairing \"9.9\"");
    db.refuses("Four", &["result", "Four", ids[0], "2-0"], "is not a result");
    db.refuses(
        "Four",
        &["result", "Four", ids[0], "1-0", "1-0"],
        "room for 1 more result(s), 2 given",
    );
    // A round paired twice while results are missing: the open ones are named.
    db.result("Four", ids[0], &["1-0"]);
    db.refuses(
        "Four",
        &["pair", "Four"],
        &format!("1 pairing(s) still without a result: {}", ids[1]),
    );
    db.refuses("Four", &["result", "Four", ids[0], "0-1"], "already decided");
    db.result("Four", ids[1], &["-+"]);
    for _ in 2..=3 {
        let round = db.pair("Four");
        for p in &round.pairings {
            db.result("Four", &p.id, &["1/2"]);
        }
    }
    // A result after the event is finished, and a round after it.
    db.refuses("Four", &["result", "Four", "3.1", "1-0"], "already decided");
    db.refuses("Four", &["pair", "Four"], "the event is finished");
    db.refuses("Four", &["result", "Nobody", "9.9", "1-0"], "no event named");
    let standings = db.standings("Four");
    let points: f64 = standings[0]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["points"].as_f64().unwrap())
        .sum();
    assert_eq!(points, 6.0, "1-0, a forfeit won, four draws");

    // A match's results are taken all or nothing: a game past the one that clinched it
    // refuses the whole line.
    db.ok(&["create", "Duel", "--format", "knockout", "--games", "3"]);
    db.register("Duel", "Red", 1600);
    db.register("Duel", "Black", 1500);
    let round = db.pair("Duel");
    let id = round.pairings[0].id.clone();
    db.refuses(
        "Duel",
        &["result", "Duel", &id, "1-0", "0-1", "1-0"],
        "decided after 2 game(s)",
    );
    let stored = db.json(&["pairings", "Duel", "--json"]);
    assert!(stored[0]["rounds"][0]["pairings"][0].get("games").is_none(), "{stored}");
    let out = db.result("Duel", &id, &["1-0", "0-1"]);
    assert!(
        out.contains("2-0, won by Red") && out.contains("the event is finished"),
        "{out}"
    );
}

#[test]
fn a_card_drawn_knockout_places_its_third_place_match() {
    let db = Db::new("third");
    db.ok(&[
        "create",
        "Eight",
        "--format",
        "knockout",
        "--draw",
        "cards",
        "--games",
        "1",
        "--third-place",
        "--seed",
        "8",
    ]);
    for i in 1..=8 {
        db.register("Eight", &format!("E{i}"), 1500 + i);
    }
    let mut third = None;
    for games in [4, 2, 2] {
        let round = db.pair("Eight");
        assert_eq!(round.games().len(), games, "{round:?}");
        for p in &round.pairings {
            // Every second-named entrant wins; the third-place match's too.
            db.result("Eight", &p.id, &["0-1"]);
            if p.id == "3P.1" {
                third = Some((p.second.unwrap(), p.first));
            }
        }
    }
    let (bronze, fourth) = third.expect("the final round has a third-place match");
    let tables = db.standings("Eight");
    let lines = tables[0]["lines"].as_array().unwrap();
    let places: Vec<(u64, u64)> = lines
        .iter()
        .map(|l| (l["place"].as_u64().unwrap(), l["id"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        &places[2..4],
        [(3, u64::from(bronze)), (4, u64::from(fourth))],
        "{lines:?}"
    );
    assert!(places[4..].iter().all(|&(place, _)| place == 5), "{lines:?}");
}

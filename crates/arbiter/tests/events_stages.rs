//! Stages and the Swiss end to end through the `arbiter` binary: a tie on a qualifying place
//! played off (or drawn by lots), and a nine-round Swiss of 200.

mod events_support;

use events_support::*;

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
        let winner = if out.contains(&format!("lots: P{a}, won by P{a}")) {
            a
        } else {
            b
        };
        assert!(out.contains(&format!("lots: P{winner}, won by P{winner}")), "{out}");
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

/// Standings as (name, points, tie-breaks), from a Swiss alone (`standings --json`, one line
/// each) or from a stage's table.
fn swiss_lines(db: &mut Db, event: &str) -> Vec<(String, f64, Vec<f64>)> {
    let v = db.json(&["tournament", "standings", event, "--json"]);
    let rows = match v[0].get("lines") {
        Some(l) => l.as_array().unwrap().clone(),
        None => v.as_array().unwrap().clone(),
    };
    rows.iter()
        .map(|l| {
            (
                l["name"].as_str().unwrap().to_string(),
                l["points"].as_f64().unwrap(),
                l["tiebreaks"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| t.as_f64().unwrap())
                    .collect(),
            )
        })
        .collect()
}

/// A round's games by name, (white, black), as `pair --json` gives them.
fn games_by_name(round: &Value) -> Vec<(String, String)> {
    pairings(round)
        .into_iter()
        .map(|(_, a, b)| (format!("P{a}"), format!("P{}", b.unwrap())))
        .collect()
}

/// A correction (`result … --replace`) in a Swiss feeding a final rewrites the stage's TRF,
/// as a Swiss alone takes a second result: the next round's Dutch pairing and the standings
/// see the corrected result, a correction after the next round is paired is taken as the
/// Swiss alone takes it, and none is taken once the stage is over.
#[test]
fn a_correction_in_a_swiss_stage_rewrites_its_trf_as_a_swiss_alone_does() {
    let mut db = Db::new("swiss-correction");
    db.run(&[
        "tournament",
        "create",
        "Pre",
        "--format",
        "swiss",
        "--rounds",
        "3",
        "--advance",
        "2",
        "--final",
        "knockout",
    ]);
    db.run(&["tournament", "create", "Solo", "--format", "swiss", "--rounds", "3"]);
    for event in ["Pre", "Solo"] {
        for i in 1..=4u64 {
            let rating = (2000 - i).to_string();
            db.run(&["tournament", "register", event, &format!("P{i}"), "--rating", &rating]);
        }
    }
    // Registered in rating order, the entrant ids and the Swiss's numbers agree.
    let stage = db.json(&["tournament", "pair", "Pre", "--json"]);
    let alone = db.json(&["tournament", "pair", "Solo", "--json"]);
    assert_eq!(games_by_name(&stage), games_by_name(&alone));
    assert_eq!(
        games_by_name(&stage),
        [("P1".into(), "P3".into()), ("P4".into(), "P2".into())]
    );
    let id_of = |round: &Value, a: u64, b: u64| {
        pairings(round)
            .into_iter()
            .find(|p| (p.1, p.2) == (a, Some(b)))
            .unwrap()
            .0
    };
    let (r1a, r1b) = (id_of(&stage, 1, 3), id_of(&stage, 4, 2));
    // Entered P1 wins, P2 wins; corrected: P3 beat P1.
    db.run(&["tournament", "result", "Pre", &r1a, "1-0"]);
    db.run(&["tournament", "result", "Pre", &r1b, "0-1"]);
    db.run(&["tournament", "result", "Pre", &r1a, "0-1", "--replace"]);
    db.run(&["tournament", "result", "Solo", "1", "1", "3", "1-0"]);
    db.run(&["tournament", "result", "Solo", "1", "4", "2", "0-1"]);
    db.run(&["tournament", "result", "Solo", "1", "1", "3", "0-1", "--replace"]);
    let table = swiss_lines(&mut db, "Pre");
    assert_eq!(table, swiss_lines(&mut db, "Solo"));
    let points: HashMap<String, f64> = table.iter().map(|l| (l.0.clone(), l.1)).collect();
    assert_eq!((points["P1"], points["P3"]), (0.0, 1.0), "the corrected result counts");

    // The winners meet: P3 (by the correction) and P2.
    let stage = db.json(&["tournament", "pair", "Pre", "--json"]);
    let alone = db.json(&["tournament", "pair", "Solo", "--json"]);
    assert_eq!(games_by_name(&stage), games_by_name(&alone));
    let met: HashSet<(String, String)> = games_by_name(&stage)
        .into_iter()
        .map(|(a, b)| (a.clone().min(b.clone()), a.max(b)))
        .collect();
    assert_eq!(
        met,
        HashSet::from([("P2".into(), "P3".into()), ("P1".into(), "P4".into())]),
        "round 2 is paired on the corrected result"
    );

    // Round 1 corrected again with round 2 paired: a Swiss alone takes it, and so does the stage.
    db.run(&["tournament", "result", "Pre", &r1b, "1/2", "--replace"]);
    db.run(&["tournament", "result", "Solo", "1", "4", "2", "1/2", "--replace"]);
    assert_eq!(swiss_lines(&mut db, "Pre"), swiss_lines(&mut db, "Solo"));
    let trf = db.json(&["tournament", "export", "Pre"])["stages"][0]["trf"]
        .as_str()
        .unwrap()
        .to_string();
    let line = |n: &str| trf.lines().find(|l| l.contains(&format!(" {n} "))).unwrap().to_string();
    assert!(line("P4").contains(" 2 w ="), "{trf}");
    assert!(line("P2").contains(" 4 b ="), "{trf}");

    // The rest by the lower number; then the final is paired and the stage is over.
    let mut r = stage;
    for round in 2..=3 {
        if round == 3 {
            r = db.json(&["tournament", "pair", "Pre", "--json"]);
        }
        for (id, a, b) in pairings(&r) {
            let result = if a < b.unwrap() { "1-0" } else { "0-1" };
            db.run(&["tournament", "result", "Pre", &id, result]);
        }
    }
    let fin = db.json(&["tournament", "pair", "Pre", "--json"]);
    assert!(pairings(&fin)[0].0.starts_with('F'), "{fin}");
    let before = db.run(&["tournament", "log", "Pre"]);
    let (ok, _, err) = db.try_run(&["tournament", "result", "Pre", &r1a, "1-0", "--replace"]);
    assert!(!ok && err.contains("stage that is over"), "{err}");
    assert_eq!(db.run(&["tournament", "log", "Pre"]), before, "nothing changed");
}

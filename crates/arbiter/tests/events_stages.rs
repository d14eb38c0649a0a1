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

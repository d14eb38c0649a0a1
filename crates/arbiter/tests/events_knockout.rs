//! Knockouts as an organiser runs them through `arbiter tournament …`: the card draw with
//! best-of-3 matches, play-offs and lots, the third-place match, and the requests that must fail.

mod events_cli;

use events_cli::*;

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

/// (place, note) of each entrant in a knockout's table, by id.
fn knockout_places(db: &Db, event: &str) -> HashMap<u32, (u64, String)> {
    let tables = db.standings(event);
    tables[0]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["id"].as_u64().unwrap() as u32,
                (
                    l["place"].as_u64().unwrap(),
                    l["note"].as_str().unwrap_or("").to_string(),
                ),
            )
        })
        .collect()
}

/// A seeded knockout of 12: the top four seeds have byes in round 1. While it is played they
/// rank by the round they reached with the others still in, never below those knocked out.
#[test]
fn a_seed_with_a_bye_ranks_with_those_still_in() {
    let db = Db::new("seeded-byes");
    db.ok(&["create", "Cup", "--format", "knockout", "--games", "1"]);
    let ratings = [1800, 2300, 1500, 2100, 1900, 1600, 2400, 1700, 2000, 1400, 2200, 1300];
    let (by_seed, _) = register_field(&db, "Cup", &ratings);
    let seed_of: HashMap<u32, usize> = by_seed.iter().enumerate().map(|(i, &id)| (id, i + 1)).collect();

    let r1 = db.pair("Cup");
    assert_eq!(r1.games().len(), 4, "12 of a bracket of 16: 4 byes, 4 matches");
    let playing: BTreeSet<usize> = r1
        .games()
        .iter()
        .flat_map(|p| [seed_of[&p.first], seed_of[&p.second.unwrap()]])
        .collect();
    assert_eq!(playing, (5..=12).collect(), "the byes go to seeds 1-4");
    // The higher seed wins, but for seed 12's upset of seed 5.
    let winner = |p: &Pairing| {
        let (a, b) = (p.first, p.second.unwrap());
        let upset = seed_of[&a].max(seed_of[&b]) == 12;
        (seed_of[&a] < seed_of[&b]) != upset
    };
    let mut out = BTreeSet::new();
    for p in r1.games() {
        let first_wins = winner(p);
        out.insert(if first_wins { p.second.unwrap() } else { p.first });
        db.result("Cup", &p.id, &[if first_wins { "1-0" } else { "0-1" }]);
    }
    let places = knockout_places(&db, "Cup");
    for (&id, (place, note)) in &places {
        let seed = seed_of[&id];
        if out.contains(&id) {
            assert_eq!((*place, note.as_str()), (9, "out in round 1"), "seed {seed}");
        } else if seed <= 4 {
            assert_eq!((*place, note.as_str()), (1, "bye in round 1"), "seed {seed}");
        } else {
            assert_eq!((*place, note.as_str()), (1, "won round 1"), "seed {seed}");
        }
    }

    // Round 2 in part: its winners and those still to play rank above its losers, who rank
    // above round 1's.
    let r2 = db.pair("Cup");
    assert_eq!(r2.games().len(), 4);
    let byes_in_round_2 = r2
        .games()
        .iter()
        .flat_map(|p| [p.first, p.second.unwrap()])
        .filter(|id| seed_of[id] <= 4)
        .count();
    assert_eq!(byes_in_round_2, 4, "the seeds with byes play round 2");
    let games = r2.games();
    let (decided, open) = games.split_at(2);
    let mut lost2 = BTreeSet::new();
    for p in decided {
        db.result("Cup", &p.id, &["1-0"]);
        lost2.insert(p.second.unwrap());
    }
    let places = knockout_places(&db, "Cup");
    for (&id, (place, note)) in &places {
        let want = if out.contains(&id) {
            (9, "out in round 1")
        } else if lost2.contains(&id) {
            (7, "out in round 2")
        } else if open.iter().any(|p| p.first == id || p.second == Some(id)) {
            (1, "playing round 2")
        } else {
            (1, "won round 2")
        };
        assert_eq!((*place, note.as_str()), want, "seed {}", seed_of[&id]);
    }
}

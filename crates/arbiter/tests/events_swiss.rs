//! A Swiss as an organiser runs it through `arbiter tournament …`: the rounds listed back with
//! their results, a result corrected after the next round is paired, and a round the field
//! cannot pair.

mod events_cli;

use events_cli::*;

/// A Swiss of `n` rated players with `rounds` rounds.
fn swiss(db: &Db, n: u32, rounds: u32) {
    db.ok(&["create", "Open", "--rounds", &rounds.to_string()]);
    for i in 1..=n {
        db.register("Open", &format!("P{i}"), 2000 - 10 * i);
    }
}

/// `pair --json`'s boards as (white, black).
fn boards(round: &Value) -> Vec<(u64, u64)> {
    round["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b[0].as_u64().unwrap(), b[1].as_u64().unwrap()))
        .collect()
}

fn result(db: &Db, round: u32, (w, b): (u64, u64), result: &str) -> String {
    db.ok(&[
        "result",
        "Open",
        &round.to_string(),
        &w.to_string(),
        &b.to_string(),
        result,
    ])
}

#[test]
fn pairings_list_every_round_with_its_own_boards_and_results() {
    let db = Db::new("swiss-pairings");
    swiss(&db, 5, 3);
    let mut paired = Vec::new();
    for round in 1..=2 {
        let r = db.json(&["pair", "Open", "--json"]);
        let games = boards(&r);
        result(&db, round, games[0], "1-0");
        if round == 1 {
            result(&db, round, games[1], "-/+");
        }
        paired.push((games, r["bye"].as_u64()));
    }
    // Round 2's second board is still to be played.
    let listed = db.json(&["pairings", "Open", "--json"]);
    let listed = listed.as_array().unwrap();
    assert_eq!(listed.len(), 2);
    for (i, (games, bye)) in paired.iter().enumerate() {
        let mut got = boards(&listed[i]);
        let mut want = games.clone();
        got.sort();
        want.sort();
        assert_eq!(listed[i]["round"], i + 1);
        assert_eq!(got, want, "round {}: {listed:?}", i + 1);
        assert_eq!(listed[i]["bye"].as_u64(), *bye);
    }
    let results = |i: usize| -> Vec<(u64, String)> {
        boards(&listed[i])
            .iter()
            .zip(listed[i]["results"].as_array().unwrap())
            .map(|((w, _), r)| (*w, r.as_str().unwrap().to_string()))
            .collect()
    };
    let expect = |games: &[(u64, u64)], rs: &[&str]| -> Vec<(u64, String)> {
        let mut v: Vec<_> = games.iter().zip(rs).map(|((w, _), r)| (*w, r.to_string())).collect();
        v.sort();
        v
    };
    let sorted = |mut v: Vec<(u64, String)>| {
        v.sort();
        v
    };
    assert_eq!(sorted(results(0)), expect(&paired[0].0, &["1-0", "-/+"]));
    assert_eq!(sorted(results(1)), expect(&paired[1].0, &["1-0", "-"]));

    // The text names each round's own games.
    let text = db.ok(&["pairings", "Open"]);
    let round2 = text.split("round 2\n").nth(1).unwrap();
    let (w, b) = paired[1].0[0];
    assert!(
        round2
            .lines()
            .any(|l| l.contains(&format!(" {w} P{w} ")) && l.contains(&format!(" {b} P{b} ")) && l.ends_with("1-0")),
        "{text}"
    );
}

#[test]
fn a_result_is_corrected_only_with_replace_and_later_pairings_stand() {
    let db = Db::new("swiss-correction");
    swiss(&db, 4, 3);
    let r1 = boards(&db.json(&["pair", "Open", "--json"]));
    result(&db, 1, r1[0], "1-0");
    result(&db, 1, r1[1], "1/2");
    let r2 = db.json(&["pair", "Open", "--json"]);
    let (w, b) = (r1[0].0.to_string(), r1[0].1.to_string());
    db.refuses(
        "Open",
        &["result", "Open", "1", &w, &b, "0-1"],
        &format!("round 1: {w} - {b} already has a result (1-0); --replace corrects it"),
    );
    let standings = db.json(&["standings", "Open", "--json"]);
    let out = db.ok(&["result", "Open", "1", &w, &b, "0-1", "--replace"]);
    assert!(out.contains("corrected to 0-1; the pairings of round 2 stand"), "{out}");
    assert_ne!(db.json(&["standings", "Open", "--json"]), standings);
    let listed = db.json(&["pairings", "Open", "--json"]);
    assert_eq!(boards(&listed[1]), boards(&r2), "round 2 as it was paired");
    assert_eq!(listed[0]["results"][0], "0-1");
    assert!(db.ok(&["log", "Open"]).contains("(replacing)"));
}

#[test]
fn a_round_the_field_cannot_pair_is_refused_in_words() {
    let db = Db::new("swiss-too-many-rounds");
    swiss(&db, 4, 5);
    for round in 1..=3 {
        for game in boards(&db.json(&["pair", "Open", "--json"])) {
            result(&db, round, game, "1/2");
        }
    }
    // Four players have met each other after three rounds.
    db.refuses(
        "Open",
        &["pair", "Open"],
        "round 4 cannot be paired: every way to pair it repeats a game",
    );
}

//! A bracket's standings while it is being played: everyone still in above everyone out, and
//! those out by how far they went — also where byes let a later round's match be paired with
//! the first round's, and in a double knockout where a player waits for the grand final.

mod events_cli;

use events_cli::*;

/// The standings' only table as (place, name, note).
fn table(db: &Db) -> Vec<(u64, String, String)> {
    let stages = db.standings("Cup");
    assert_eq!(stages.len(), 1, "{stages:?}");
    stages[0]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["place"].as_u64().unwrap(),
                l["name"].as_str().unwrap().to_string(),
                l["note"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn place_of(table: &[(u64, String, String)], name: &str) -> u64 {
    table
        .iter()
        .find(|l| l.1 == name)
        .unwrap_or_else(|| panic!("{name} in {table:?}"))
        .0
}

fn cup(db: &Db, format: &str, n: u32) {
    db.ok(&["create", "Cup", "--format", format, "--games", "1"]);
    for i in 1..=n {
        db.register("Cup", &format!("P{i}"), 2000 - 10 * i);
    }
}

#[test]
fn a_seeded_knockout_of_five_ranks_a_second_round_loser_out_while_the_first_round_is_played() {
    let db = Db::new("bracket-standings-ko5");
    cup(&db, "knockout", 5);
    // Seeds 1-3 have byes; 4-5 play round 1 and 2-3 meet in round 2, paired at once.
    let r = db.pair("Cup");
    let ids: Vec<&str> = r.pairings.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["1.2", "2.2"]);
    db.result("Cup", "2.2", &["0-1"]); // P3 beats P2
    let t = table(&db);
    assert!(place_of(&t, "P2") > 1, "P2 lost 2.2 and is out: {t:?}");
    for still_in in ["P1", "P3", "P4", "P5"] {
        assert_eq!(place_of(&t, still_in), 1, "{still_in}: {t:?}");
    }
    db.result("Cup", "1.2", &["0-1"]); // P5 beats P4
    let t = table(&db);
    // P2 went out a round later than P4 and ranks above.
    assert_eq!(
        t.iter().map(|l| (l.0, l.1.as_str())).collect::<Vec<_>>(),
        [(1, "P1"), (1, "P3"), (1, "P5"), (4, "P2"), (5, "P4")],
        "{t:?}"
    );
    assert!(
        t.iter().find(|l| l.1 == "P2").unwrap().2.starts_with("out in round"),
        "{t:?}"
    );
    db.pair("Cup");
    db.result("Cup", "2.1", &["1-0"]);
    db.pair("Cup");
    db.result("Cup", "3.1", &["0-1"]);
    let t = table(&db);
    assert_eq!(
        t.iter().map(|l| (l.0, l.1.as_str())).collect::<Vec<_>>(),
        [(1, "P3"), (2, "P1"), (3, "P2"), (3, "P5"), (5, "P4")],
        "{t:?}"
    );
}

#[test]
fn a_double_knockout_keeps_the_unbeaten_finalist_on_top_while_the_losers_bracket_plays() {
    let db = Db::new("bracket-standings-de3");
    cup(&db, "double-knockout", 3);
    db.pair("Cup");
    db.result("Cup", "W1.2", &["1-0"]); // P2 beats P3, who goes to the losers' bracket
    let t = table(&db);
    assert_eq!(place_of(&t, "P3"), 1, "one loss in a double knockout: {t:?}");
    assert!(t.iter().any(|l| l.1 == "P3" && l.2.contains("still in")), "{t:?}");
    db.pair("Cup");
    db.result("Cup", "W2.1", &["1-0"]); // P1 is in the grand final, unbeaten
    let round = db.pair("Cup");
    assert_eq!(round.pairings[0].id, "L2.1");
    let t = table(&db);
    for name in ["P1", "P2", "P3"] {
        assert_eq!(place_of(&t, name), 1, "{name}: {t:?}");
    }
    // The losers' final: P3 (a walkover in the losers' bracket) against P2, second-named.
    db.result("Cup", "L2.1", &["0-1"]);
    let t = table(&db);
    let out = t.iter().find(|l| l.0 == 3).unwrap();
    assert!(out.1 == "P3" && out.2.starts_with("out in round"), "{t:?}");
    assert_eq!(place_of(&t, "P1"), 1, "the unbeaten finalist waits on top: {t:?}");
}

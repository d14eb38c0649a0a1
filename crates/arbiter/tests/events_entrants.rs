//! Entrants as an organiser names them: by name or by number, in a team's lineup, a withdrawal,
//! a requested bye and a re-entry; and the refusals, in words that say what is wrong, changing
//! nothing.

mod events_cli;

use events_cli::*;

fn args(a: &[String; 5]) -> Vec<&str> {
    a.iter().map(String::as_str).collect()
}

#[test]
fn lineups_name_the_team_either_way_and_refusals_say_what_is_wrong() {
    let db = Db::new("lineups");
    db.ok(&["create", "Teams", "--format", "round-robin", "--boards", "4"]);
    db.refuses(
        "Teams",
        &["register", "Teams", "红队", "--members", "甲,乙,丙"],
        "team \"红队\" has 3 member(s) for 4 boards",
    );
    db.ok(&["register", "Teams", "蓝队", "--members", "A,B,C,D,E"]);
    db.ok(&["register", "Teams", "绿队", "--members", "W,X,Y,Z"]);
    let id = db.pair("Teams").pairings[0].id.clone();
    let lineup = |team: &'static str, players: &'static str| -> [String; 5] {
        ["lineup", "Teams", &id, team, players].map(str::to_string)
    };
    db.refuses("Teams", &args(&lineup("蓝队", "A,B,B,D")), "\"B\" is named twice");
    db.refuses(
        "Teams",
        &args(&lineup("蓝队", "E,A,B,C")),
        "\"A\" is listed below \"E\" but stands above on the roster",
    );
    db.refuses(
        "Teams",
        &args(&lineup("蓝队", "A,B,Q,D")),
        "\"Q\" is not on 蓝队's roster",
    );
    db.refuses("Teams", &args(&lineup("红队", "A,B,C,D")), "has no team \"红队\"");
    db.refuses("Teams", &args(&lineup("7", "A,B,C,D")), "has no team \"7\"");
    // By name and by number: the reserve comes in on board 4.
    let out = db.ok(&args(&lineup("蓝队", "A,B,C,E")));
    assert!(out.contains("4. E (black)"), "{out}");
    let out = db.ok(&args(&lineup("1", "A,B,D,E")));
    assert!(
        out.contains("3. D (red/white)") && out.contains("4. E (black)"),
        "{out}"
    );
}

#[test]
fn withdrawals_byes_and_reentries_name_the_player_either_way() {
    let db = Db::new("entrants");
    // A round robin: withdraw by name or number.
    db.ok(&["create", "RR", "--format", "round-robin"]);
    for name in ["王天一", "郑惟桐", "许银川", "洪智", "吕钦"] {
        db.register("RR", name, 0);
    }
    db.refuses("RR", &["withdraw", "RR", "赵鑫鑫"], "has no player \"赵鑫鑫\"");
    db.refuses(
        "RR",
        &["withdraw", "RR", "9"],
        "has no player number 9 (numbers run from 1 to 5)",
    );
    db.pair("RR");
    let out = db.ok(&["withdraw", "RR", "许银川"]);
    assert!(out.starts_with("许银川 withdrawn"), "{out}");
    assert!(db.ok(&["log", "RR"]).contains("withdraw 3"));
    let out = db.ok(&["withdraw", "RR", "5"]);
    assert!(out.starts_with("吕钦 withdrawn"), "{out}");

    // A Swiss: a bye, a withdrawal and a re-entry, by name; the log keeps the number. A
    // Swiss may hold two players of one name: that name asks for the number.
    db.ok(&["create", "Open", "--rounds", "3"]);
    for (name, rating) in [("Ann", 2000), ("Bo", 1900), ("Cy", 1800), ("Di", 1700), ("Bo", 1600)] {
        db.register("Open", name, rating);
    }
    db.refuses(
        "Open",
        &["bye", "Open", "Bo"],
        "has 2 players named \"Bo\" (numbers 2, 5): give the number",
    );
    db.refuses("Open", &["bye", "Open", "Ed"], "has no player \"Ed\"");
    let out = db.ok(&["bye", "Open", "Cy", "--round", "2"]);
    assert_eq!(out.trim(), "player 3 (Cy): bye H in round 2");
    let out = db.ok(&["withdraw", "Open", "Di"]);
    assert!(out.starts_with("player 4 (Di) withdrawn from round 1"), "{out}");
    let out = db.ok(&["reenter", "Open", "Di"]);
    assert!(out.starts_with("player 4 (Di) back from round 1"), "{out}");
    let log = db.ok(&["log", "Open"]);
    assert!(
        log.contains("bye 3 H round 2") && log.contains("withdraw 4 from round 1"),
        "{log}"
    );
}

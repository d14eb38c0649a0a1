//! A team's lineup as an organiser enters it: the team by name or number, and the lineups that
//! must be refused in words that say what is wrong, changing nothing.

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

//! A team knockout end to end through the `arbiter` binary: four teams of four boards in a
//! seeded bracket. One semi-final is tied 2-2 on the boards and goes, as seed 000 §6 has a tie
//! go, to a play-off match on the same boards (colours turned round), which decides it; the
//! final is played and the bracket placed.

mod events_support;

use events_support::*;

fn members(t: u64) -> Vec<String> {
    ["a", "b", "c", "d"].iter().map(|m| format!("T{t}{m}")).collect()
}

#[test]
fn a_four_team_knockout_with_a_tie_decided_by_its_play_off_match() {
    let mut db = Db::new("team-knockout");
    db.run(&[
        "tournament",
        "create",
        "Cup",
        "--format",
        "knockout",
        "--boards",
        "4",
        "--playoff",
        "1",
        "--seeding",
        "registration",
    ]);
    for t in 1..=4u64 {
        db.run(&[
            "tournament",
            "register",
            "Cup",
            &format!("T{t}"),
            "--members",
            &members(t).join(","),
        ]);
    }
    let semis = pairings(&db.json(&["tournament", "pair", "Cup", "--json"]));
    let ids: HashMap<u64, String> = semis.iter().map(|(id, a, _)| (*a, id.clone())).collect();
    assert_eq!(
        semis.iter().map(|(_, a, b)| (*a, b.unwrap())).collect::<Vec<_>>(),
        [(1, 4), (2, 3)],
        "seed 1 meets seed 4: {semis:?}"
    );
    // T2 wins 3-1. T1 and T4 share the boards 2-2 (T1 won board 1): a tie.
    db.run(&["tournament", "result", "Cup", &ids[&2], "1-0", "1-0", "1-0", "0-1"]);
    let tied = db.run(&["tournament", "result", "Cup", &ids[&1], "1-0", "0-1", "1/2", "1/2"]);
    assert!(
        tied.contains("2-2 (playing); next: play-off match 1, board 1, T4 has red"),
        "the tie goes to a play-off match, colours turned: {tied}"
    );
    let (ok, _, err) = db.try_run(&["tournament", "pair", "Cup"]);
    assert!(!ok && err.contains(&ids[&1]), "the final waits for the play-off: {err}");
    let shown = db.run(&["tournament", "pairings", "Cup"]);
    let at = shown
        .find(&format!("{}  play-off match 1, on the boards:", ids[&1]))
        .unwrap_or_else(|| panic!("{shown}"));
    let playoff: Vec<&str> = shown[at..].lines().skip(1).take(4).collect();
    assert!(
        playoff[0].trim_start().starts_with("1. T1a (black) - T4a (red/white)"),
        "{shown}"
    );
    assert!(
        playoff[1].trim_start().starts_with("2. T1b (red/white) - T4b (black)"),
        "{shown}"
    );
    // The play-off, from T1's side as the match sheet lists it: T4 wins board 2, the rest drawn.
    let decided = db.run(&["tournament", "result", "Cup", &ids[&1], "1/2", "0-1", "1/2", "1/2"]);
    assert!(decided.contains("2-2, play-off 1½-2½, won by T4"), "{decided}");
    assert!(!decided.contains("lots"), "{decided}");

    let fin = pairings(&db.json(&["tournament", "pair", "Cup", "--json"]));
    assert_eq!(fin.len(), 1, "{fin:?}");
    let (fid, a, b) = fin[0].clone();
    let mut teams = [a, b.unwrap()];
    teams.sort();
    assert_eq!(teams, [2, 4], "T4 came through the play-off: {fin:?}");
    // The final: T4 wins 2½-1½ (from the first-named's side as entered).
    let four = if a == 4 {
        ["1-0", "1-0", "1/2", "0-1"]
    } else {
        ["0-1", "0-1", "1/2", "1-0"]
    };
    let mut args = vec!["tournament", "result", "Cup", fid.as_str()];
    args.extend(four);
    let out = db.run(&args);
    assert!(out.contains("the event is finished"), "{out}");
    let t = db.json(&["tournament", "standings", "Cup", "--json"]);
    let places: Vec<(u64, u64)> = lines(&t[0]).iter().map(|l| (l.0, l.1)).collect();
    assert_eq!(&places[..2], [(1, 4), (2, 2)], "{t}");
    let bracket = db.run(&["tournament", "bracket", "Cup"]);
    assert!(bracket.contains("play-off 1½-2½"), "{bracket}");
    // The event's log keeps every step.
    let log = db.run(&["tournament", "log", "Cup"]);
    assert!(log.matches("result").count() >= 4, "{log}");
}

/// `--board-points 3/1/2/0`: a draw with black counts above a draw with red. Two teams on three
/// boards share the games 1½-1½, but the first-named team drew board 2 with black: 5 board
/// points to 4, the match won.
#[test]
fn board_points_by_colour_decide_a_team_pairing() {
    let mut db = Db::new("board-points");
    let (ok, _, err) = db.try_run(&[
        "tournament",
        "create",
        "Solo",
        "--format",
        "round-robin",
        "--board-points",
        "3/1/2/0",
    ]);
    assert!(!ok && err.contains("--boards"), "{err}");
    let (ok, _, err) = db.try_run(&[
        "tournament",
        "create",
        "Bad",
        "--format",
        "round-robin",
        "--boards",
        "3",
        "--board-points",
        "1/2/1/0",
    ]);
    assert!(!ok && err.contains("board points"), "a draw above a win: {err}");
    db.run(&[
        "tournament",
        "create",
        "League",
        "--format",
        "round-robin",
        "--boards",
        "3",
        "--board-points",
        "3/1/2/0",
    ]);
    for t in ["A", "B"] {
        let members: Vec<String> = (1..=3).map(|b| format!("{t}{b}")).collect();
        db.run(&["tournament", "register", "League", t, "--members", &members.join(",")]);
    }
    let round = pairings(&db.json(&["tournament", "pair", "League", "--json"]));
    let (id, first, _) = round[0].clone();
    let out = db.run(&["tournament", "result", "League", &id, "1-0", "1/2", "0-1"]);
    let winner = if first == 1 { "A" } else { "B" };
    assert!(out.contains(&format!("won by {winner}")), "{out}");
    // The score shows the board points that decided it beside the game points.
    assert!(out.contains("1½-1½ (board points 5-4)"), "{out}");
    let t = db.json(&["tournament", "standings", "League", "--json"]);
    let ls = lines(&t[0]);
    assert_eq!(
        (ls[0].1, ls[0].3, ls[0].4[0]),
        (first, 2.0, 5.0),
        "match points 2, 局分 5: {t}"
    );
    assert_eq!((ls[1].3, ls[1].4[0]), (0.0, 4.0), "{t}");
}

//! Repetition rulings a user found wanting: what the explanations say (every occurrence the
//! ordinal counts, no warning spoken of where none was given), and the classification the
//! simplified rules (seed 002) name — 一将一要抽吃 — with a chase made real by a discovered
//! check, under each ruleset.

use judge::xiangqi::{Rules, XiangqiJudge};
use judge::{judge_game, Judge, Outcome};
use xiangqi::notation::parse_iccs;
use xiangqi::Position;

fn moves(text: &str) -> Vec<xiangqi::Move> {
    text.split_whitespace().map(|m| parse_iccs(m).unwrap()).collect()
}

#[test]
fn point_07_a_fourth_occurrence_lists_four_and_says_which_are_judged() {
    // Both kings step out and back: the start position stands again after plies 4, 8 and 12.
    let start = Position::from_fen("3k5/9/9/p8/9/9/P8/9/9/4K4 w - - 0 1").unwrap();
    let mut j = XiangqiJudge::new(start, Rules::cxa());
    judge_game(
        &mut j,
        &moves("e0e1 d9d8 e1e0 d8d9 e0e1 d9d8 e1e0 d8d9 e0e1 d9d8 e1e0 d8d9"),
    )
    .unwrap();
    let text = &j.pending().expect("an innocent repetition may be claimed").explanation;
    assert!(
        text.contains("stood for the fourth time (at the start, after ply 4, after ply 8 and after ply 12; the last 3 are judged, from ply 4)"),
        "expected the four occurrences and the judged span; found: {text}"
    );
}

#[test]
fn point_07_at_trigger_names_no_warning_that_was_not_given() {
    // Red checks with the rook on every move (长将); ruled at the trigger, at ply 8.
    let start = Position::from_fen("9/4k4/9/9/5R3/9/9/9/9/3K5 w - - 0 1").unwrap();
    let list = moves("f5e5 e8f8 e5f5 f8e8 f5e5 e8f8 e5f5 f8e8");
    let v = judge_game(&mut XiangqiJudge::new(start.clone(), Rules::cxa().at_trigger()), &list).unwrap();
    assert_eq!((v.result, v.ply), (Outcome::SecondWins, 8));
    let text = &v.explanation;
    assert!(
        !text.contains("must vary") && !text.contains("it did not") && !text.contains("told to vary"),
        "expected no word of a warning at ply 8 under --at-trigger; found: {text}"
    );
    assert!(text.starts_with("red loses at once"), "found: {text}");
    assert!(
        text.contains("stood for the third time (at the start, after ply 4 and after ply 8)"),
        "found: {text}"
    );

    // The rulebook's way: told to vary at ply 8, and the loss when the cycle comes round again.
    let mut j = XiangqiJudge::new(start, Rules::cxa());
    let more = moves("f5e5 e8f8 e5f5 f8e8");
    judge_game(&mut j, &[&list[..], &more[..]].concat()).unwrap();
    let v = j.verdict().expect("red did not vary").clone();
    assert!(
        v.explanation
            .starts_with("red was told to vary at ply 8 and the position came again unchanged: red loses"),
        "found at ply {}: {}",
        v.ply,
        v.explanation
    );
}

#[test]
fn point_19_a_chase_whose_capture_gives_discovered_check_under_each_ruleset() {
    // XQ-FSF-25 (Fairy-Stockfish's tests): the black rook attacks the red horse on every move;
    // its capture would uncover the cannon's check, so the horse's protector could not take
    // back — a false root, and the attack a chase. Black chases on every move; red's horse
    // attacks the rook every other move.
    let start = Position::from_fen("5k3/9/9/9/9/1N2P1C2/9/4BC3/9/cr1RK4 w - - 0 1").unwrap();
    let list = moves("b4c2 b0c0 c2b4 c0b0 b4c2 b0c0 c2b4 c0b0");
    for rules in [Rules::cxa(), Rules::axf(), Rules::simplified()] {
        let name = rules.name;
        let v = judge_game(&mut XiangqiJudge::new(start.clone(), rules.at_trigger()), &list).unwrap();
        let r = v.repetition.as_ref().expect("a repetition ruling");
        assert_eq!(
            (v.result, v.ply),
            (Outcome::FirstWins, 8),
            "{name}: expected black to lose at ply 8; found {:?}: {}",
            v.result,
            v.explanation
        );
        assert!(r.second.forbidden && !r.first.forbidden, "{name}: {}", v.explanation);
    }
}

#[test]
fn point_19_one_check_one_threat_to_win_a_piece_by_check_loses_under_the_simplified_rules() {
    // 一将一要抽吃 (seed 002 三.4(2)): the red rook checks from e6; the king steps aside; the rook
    // goes back to b6, from where Rb9+ would drive the king off the back rank and take the
    // cannon on a9 (抽吃); the king steps back. Red alternates a check and that threat.
    let start = Position::from_fen("c3k4/9/9/1R7/9/9/9/9/9/3K5 w - - 0 1").unwrap();
    let list = moves("b6e6 e9f9 e6b6 f9e9 b6e6 e9f9 e6b6 f9e9");
    let rule = |rules: Rules| judge_game(&mut XiangqiJudge::new(start.clone(), rules.at_trigger()), &list).unwrap();

    let v = rule(Rules::simplified());
    let r = v.repetition.as_ref().expect("a repetition ruling");
    assert_eq!(
        (v.result, r.first.name.as_str(), r.first.forbidden),
        (Outcome::SecondWins, "一将一要抽吃", true),
        "simplified: {}",
        v.explanation
    );
    let threat = &r.moves[2];
    assert_eq!(
        (
            threat.coordinate.as_str(),
            threat.class.capture_threat,
            threat.class.label.as_str()
        ),
        ("e6b6", true, "要抽吃")
    );
    // Neither CXA nor AXF counts the threat: one check and one idle move, allowed; drawn.
    for rules in [Rules::cxa(), Rules::axf()] {
        let name = rules.name;
        let v = rule(rules);
        let r = v.repetition.as_ref().expect("a repetition ruling");
        assert_eq!(
            (v.result, r.first.name.as_str()),
            (Outcome::Draw, "一将一闲"),
            "{name}: {}",
            v.explanation
        );
    }
}

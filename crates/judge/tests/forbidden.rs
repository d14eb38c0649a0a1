//! `forbidden_moves`: the moves a referee bans (UCCI `banmoves`) on perpetual-check cycles, as
//! the rulebooks rule them (told to vary) and as engines do (at the trigger).

use game::Game;
use judge::chess::{ChessJudge, ChessRules};
use judge::xiangqi::{Rules, XiangqiJudge};
use judge::{forbidden_moves, Judge};
use xiangqi::notation::{parse_iccs, to_iccs};
use xiangqi::Position;

fn judge_after(fen: &str, list: &str, rules: Rules) -> XiangqiJudge {
    let mut j = XiangqiJudge::new(Position::from_fen(fen).unwrap(), rules);
    for m in list.split_whitespace() {
        assert_eq!(j.push(parse_iccs(m).unwrap()).unwrap(), None, "{m}");
    }
    j
}

fn banned(j: &XiangqiJudge) -> Vec<String> {
    forbidden_moves(j).into_iter().map(to_iccs).collect()
}

#[test]
fn a_side_told_to_vary_may_not_go_back_into_the_cycle() {
    // XQ-R01: red checks perpetually; at the threefold (ply 8) red is told to vary.
    let fen = "9/4k4/9/9/5R3/9/9/9/9/3K5 w - - 0 1";
    let cycle = "f5e5 e8f8 e5f5 f8e8";
    let j = judge_after(fen, &[cycle, cycle].join(" "), Rules::cxa());
    assert!(j.pending().is_some());
    assert_eq!(banned(&j), ["f5e5"]);
    // Before the cycle came round there was nothing to forbid.
    assert!(banned(&judge_after(fen, "", Rules::cxa())).is_empty());
    assert!(banned(&judge_after(fen, "f5e5 e8f8 e5f5 f8e8 f5e5", Rules::cxa())).is_empty());
    // Black, the innocent side, is never banned from repeating.
    assert!(banned(&judge_after(fen, &[cycle, cycle, "f5e5"].join(" "), Rules::cxa())).is_empty());
    // Red varies (the rook leaves the checking lines): nothing more to forbid for black.
    assert!(banned(&judge_after(fen, &[cycle, cycle, "f5f6"].join(" "), Rules::cxa())).is_empty());
}

#[test]
fn at_the_trigger_the_move_that_would_lose_is_banned() {
    // Black to move, in check from the rook on e5: red's checks come third.
    let fen = "9/4k4/9/9/4R4/9/9/9/9/3K5 b - - 0 1";
    let j = judge_after(fen, "e8f8 e5f5 f8e8 f5e5 e8f8 e5f5 f8e8", Rules::cxa().at_trigger());
    assert_eq!(banned(&j), ["f5e5"]);
    // Playing it anyway loses.
    let mut after = j.clone();
    let v = after.push(parse_iccs("f5e5").unwrap()).unwrap().cloned().unwrap();
    assert_eq!(v.reason, judge::Reason::PerpetualCheck);
    // Under AXF too.
    let j = judge_after(fen, "e8f8 e5f5 f8e8 f5e5 e8f8 e5f5 f8e8", Rules::axf().at_trigger());
    assert_eq!(banned(&j), ["f5e5"]);
    // An idle side repeating is not banned (a draw at most).
    let idle = "5k3/9/9/7R1/9/9/9/9/9/3K5 w - - 0 1";
    let j = judge_after(idle, "h6h9 f9f8 h9h6 f8f9 h6h9 f9f8 h9h6", Rules::cxa().at_trigger());
    assert!(banned(&j).is_empty());
}

#[test]
fn chess_forbids_nothing() {
    let mut j = ChessJudge::new(<chess::Position as Game>::start(), ChessRules::fide());
    for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
        let mv = j.position().parse_move(m).unwrap();
        j.push(mv).unwrap();
    }
    assert!(forbidden_moves(&j).is_empty());
}

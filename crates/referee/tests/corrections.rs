//! The arbiter's corrections, one ruling each: seed 000 5.6 (pieces straightened), 5.8 (a
//! position put right), seed 001 纠正失误 (1) and (2) (a board turned, colours swapped — the
//! quarter of the first time period at its boundary), and time corrections.

use game::Side;
use judge::xiangqi::{Rules, XiangqiJudge};
use judge::{Judge, Outcome};
use referee::clock::TimeControl;
use referee::touch::Touch;
use referee::{Command, Correction, EndReason, EventKind, Referee, RefereeRules, Straightening};

const R: Side = Side::First;
const B: Side = Side::Second;

/// CXA rules, 20 minutes each and no increment: the first period's quarter is 300 s.
fn game() -> Referee<XiangqiJudge> {
    let mut rules = RefereeRules::cxa();
    rules.time = TimeControl::fischer(1_200_000, 0);
    let mut r = Referee::new(XiangqiJudge::new(xiangqi::Position::start(), Rules::cxa()), rules);
    r.apply(0, R, Command::Start);
    r
}

fn kinds(r: &mut Referee<XiangqiJudge>, at: u64, side: Side, c: Command) -> Vec<EventKind> {
    r.apply(at, side, c).iter().map(|e| e.kind.clone()).collect()
}

fn mv(s: &str) -> Command {
    Command::Move(s.to_string())
}

fn straighten(square: &str, how: Straightening) -> Command {
    Command::Straighten {
        touch: Touch::Own(square.into()),
        how,
    }
}

fn ruling(events: &[EventKind]) -> (&'static str, String, Option<usize>) {
    events
        .iter()
        .find_map(|e| match e {
            EventKind::Corrected {
                article,
                ruling,
                back_to,
                ..
            } => Some((*article, ruling.clone(), *back_to)),
            _ => None,
        })
        .expect("a correction ruled")
}

#[test]
fn rule_5_6_straightening_with_notice_on_ones_own_time_is_no_touch() {
    let mut r = game();
    let ev = kinds(&mut r, 1_000, R, straighten("h2", Straightening::WithNotice));
    assert_eq!(ev.len(), 1, "{ev:?}");
    let (article, text, back) = ruling(&ev);
    assert_eq!((article, back), ("5.6", None));
    assert!(text.contains("not a touch"), "{text}");
    // Any piece may move: no obligation stands.
    assert!(matches!(
        &kinds(&mut r, 2_000, R, mv("b2e2"))[0],
        EventKind::MoveAccepted { .. }
    ));
}

#[test]
fn rule_5_6_a_piece_plainly_knocked_is_no_touch() {
    let mut r = game();
    let ev = kinds(&mut r, 1_000, R, straighten("h2", Straightening::Accidental));
    assert!(ruling(&ev).1.contains("by mistake"));
    assert!(matches!(
        &kinds(&mut r, 2_000, R, mv("b2e2"))[0],
        EventKind::MoveAccepted { .. }
    ));
}

#[test]
fn rule_5_6_straightening_without_notice_counts_as_touching() {
    let mut r = game();
    let ev = kinds(&mut r, 1_000, R, straighten("h2", Straightening::Unannounced));
    assert!(ruling(&ev).1.contains("counts as touched"), "{ev:?}");
    assert!(
        matches!(
            &ev[1],
            EventKind::Obligation {
                side: R,
                article: "5.1",
                ..
            }
        ),
        "{ev:?}"
    );
    // Bound by 5.1: the cannon on h2 must move.
    let ev = kinds(&mut r, 2_000, R, mv("b2e2"));
    assert!(matches!(&ev[0], EventKind::MoveRejected { .. }), "{ev:?}");
    assert!(matches!(
        &kinds(&mut r, 3_000, R, mv("h2e2"))[0],
        EventKind::MoveAccepted { .. }
    ));
}

#[test]
fn rule_5_6_straightening_on_the_opponents_time_is_warned() {
    let mut r = game();
    let ev = kinds(&mut r, 1_000, B, straighten("h7", Straightening::WithNotice));
    assert!(
        matches!(&ev[..], [EventKind::Warning { side: B, what, .. }] if what.contains("opponent's time")),
        "{ev:?}"
    );
}

#[test]
fn straightening_binds_nothing_where_touch_move_does_not_apply() {
    let mut r = Referee::new(
        XiangqiJudge::new(xiangqi::Position::start(), Rules::cxa()),
        RefereeRules::online(),
    );
    r.apply(0, R, Command::Start);
    let ev = kinds(&mut r, 1_000, B, straighten("h9", Straightening::Unannounced));
    assert!(ruling(&ev).1.contains("touch-move does not apply"), "{ev:?}");
    assert_eq!(ev.len(), 1, "{ev:?}");
}

#[test]
fn rule_5_8_a_wrong_move_order_goes_back_to_the_last_correct_position() {
    let mut r = game();
    r.apply(1_000, R, mv("h2e2"));
    let after_one = r.judge().position().fen();
    r.apply(2_000, B, mv("h9g7"));
    r.apply(3_000, R, mv("h0g2"));
    let ev = kinds(&mut r, 4_000, B, Command::Correct(Correction::RestoreTo(1)));
    let (article, text, back) = ruling(&ev);
    assert_eq!((article, back), ("5.8", Some(1)));
    assert!(text.contains("2 taken back"), "{text}");
    assert_eq!(r.judge().position().fen(), after_one);
    assert_eq!(r.judge().ply(), 1);
    // Black is to move again, and plays on from there; the record holds only the moves that stand.
    assert!(matches!(
        &kinds(&mut r, 5_000, B, mv("b9c7"))[0],
        EventKind::MoveAccepted { ply: 2, .. }
    ));
    let pgn = r.pgn(&xiangqi::Position::start(), &[]);
    assert!(pgn.contains("1. 炮二平五"), "{pgn}");
    assert!(
        !pgn.contains("马８进７") && !pgn.contains("马二进三"),
        "taken back: {pgn}"
    );
    assert!(pgn.contains("1... 马２进３"), "{pgn}");
}

#[test]
fn rule_5_8_nothing_to_take_back_is_refused() {
    let mut r = game();
    r.apply(1_000, R, mv("h2e2"));
    let ev = kinds(&mut r, 2_000, B, Command::Correct(Correction::RestoreTo(1)));
    assert!(matches!(&ev[..], [EventKind::Refused { .. }]), "{ev:?}");
    assert_eq!(r.judge().ply(), 1);
}

#[test]
fn corrections_after_the_game_are_not_taken_up() {
    // 5.8 局后不受理; 纠正失误: 赛后才发现，那么对局的结果有效.
    let mut r = game();
    r.apply(1_000, R, mv("h2e2"));
    r.apply(2_000, B, Command::Resign);
    for c in [Correction::RestoreTo(0), Correction::ColoursSwapped] {
        let ev = kinds(&mut r, 3_000, B, Command::Correct(c));
        assert!(matches!(&ev[..], [EventKind::Refused { .. }]), "{ev:?}");
    }
    assert_eq!(r.ending().unwrap().result, Outcome::FirstWins);
}

#[test]
fn seed_001_1_a_board_turned_the_wrong_way_plays_on() {
    let mut r = game();
    r.apply(1_000, R, mv("h2e2"));
    let fen = r.judge().position().fen();
    let ev = kinds(&mut r, 600_000, B, Command::Correct(Correction::BoardTurned));
    let (article, text, back) = ruling(&ev);
    assert_eq!((article, back), ("纠正失误 (1)", None));
    assert!(text.contains("play goes on"), "{text}");
    assert_eq!(r.judge().position().fen(), fen);
}

#[test]
fn seed_001_2_colours_swapped_restart_exactly_at_the_quarter() {
    let mut r = game();
    r.apply(10_000, R, mv("h2e2"));
    r.apply(20_000, B, mv("h9g7"));
    // 300 s is a quarter of 20 minutes: it has not yet passed.
    let ev = kinds(&mut r, 300_000, R, Command::Correct(Correction::ColoursSwapped));
    let (article, text, back) = ruling(&ev);
    assert_eq!((article, back), ("纠正失误 (2)", Some(0)), "{text}");
    assert_eq!(r.judge().ply(), 0);
    assert_eq!(r.judge().position().fen(), xiangqi::Position::start().fen());
    // Fresh clocks, red to move with its full time from the restart.
    assert_eq!(r.clock().remaining(R, 300_000).main, 1_200_000);
    assert_eq!(r.clock().remaining(B, 300_000).main, 1_200_000);
    assert_eq!(r.wake_at(), Some(300_000 + 1_200_000));
    assert!(matches!(
        &kinds(&mut r, 301_000, R, mv("b2e2"))[0],
        EventKind::MoveAccepted { ply: 1, .. }
    ));
}

#[test]
fn seed_001_2_colours_swapped_play_on_past_the_quarter() {
    let mut r = game();
    r.apply(10_000, R, mv("h2e2"));
    let fen = r.judge().position().fen();
    let ev = kinds(&mut r, 300_001, B, Command::Correct(Correction::ColoursSwapped));
    let (_, text, back) = ruling(&ev);
    assert_eq!(back, None, "{text}");
    assert!(text.contains("play goes on"), "{text}");
    assert_eq!(r.judge().position().fen(), fen);
}

#[test]
fn seed_001_2_adjourned_time_does_not_count_toward_the_quarter() {
    let mut r = game();
    r.apply(10_000, R, mv("h2e2"));
    r.apply(20_000, B, mv("h9g7"));
    r.apply(100_000, R, Command::Adjourn);
    r.apply(3_700_000, B, Command::Resume);
    // 100 s played, an hour adjourned, 200 s played: exactly the quarter.
    let ev = kinds(&mut r, 3_900_000, B, Command::Correct(Correction::ColoursSwapped));
    assert!(r.ending().is_none(), "{:?}", r.events());
    assert_eq!(ruling(&ev).2, Some(0), "{ev:?}");
}

#[test]
fn a_restart_clears_the_foul_counts() {
    let mut rules = RefereeRules::casual();
    rules.time = TimeControl::fischer(1_200_000, 0);
    let mut r = Referee::new(XiangqiJudge::new(xiangqi::Position::start(), Rules::cxa()), rules);
    r.apply(0, R, Command::Start);
    r.apply(1_000, R, Command::TechnicalFoul("连续提和，干扰对方".into()));
    r.apply(2_000, R, Command::Correct(Correction::ColoursSwapped));
    // The second foul of the new game is its first: no loss.
    let ev = kinds(&mut r, 3_000, R, Command::TechnicalFoul("连续提和，干扰对方".into()));
    assert!(matches!(&ev[..], [EventKind::Foul { count: 1, .. }]), "{ev:?}");
    assert!(r.ending().is_none());
}

#[test]
fn time_corrections_add_to_or_set_a_sides_main_time() {
    let mut r = game();
    r.apply(60_000, R, mv("h2e2"));
    // Black's clock runs from 60 s; red has 1 140 s.
    let ev = kinds(
        &mut r,
        90_000,
        R,
        Command::AddTime {
            ms: 120_000,
            reason: "clock set wrongly".into(),
        },
    );
    assert!(
        matches!(&ev[..], [EventKind::TimeCorrected { side: R, clocks, reason }]
            if clocks.first.main == 1_260_000 && clocks.second.main == 1_170_000 && reason == "clock set wrongly"),
        "{ev:?}"
    );
    // Setting the running side's time: it runs on from the correction.
    r.apply(
        90_000,
        B,
        Command::SetTime {
            ms: 30_000,
            reason: "clock malfunction".into(),
        },
    );
    assert_eq!(r.clock().remaining(B, 100_000).main, 20_000);
    assert_eq!(r.wake_at(), Some(120_000));
    r.apply(121_000, R, Command::Tick);
    let e = r.ending().expect("black's corrected flag fell");
    assert_eq!(
        (e.result, e.reason, e.at),
        (Outcome::FirstWins, EndReason::Time, 120_000)
    );
}

#[test]
fn a_correction_replays_the_same_from_the_log() {
    let mut r = game();
    r.apply(1_000, R, mv("h2e2"));
    r.apply(2_000, B, mv("h9g7"));
    r.apply(3_000, R, Command::Correct(Correction::RestoreTo(1)));
    r.apply(4_000, B, mv("b9c7"));
    r.apply(5_000, R, straighten("b2", Straightening::Unannounced));
    let mut again = Referee::new(
        XiangqiJudge::new(xiangqi::Position::start(), Rules::cxa()),
        r.rules().clone(),
    );
    for (at, side, c) in r.log().to_vec() {
        again.apply(at, side, c);
    }
    assert_eq!(again.events(), r.events());
    assert_eq!(again.judge().position().fen(), r.judge().position().fen());
}

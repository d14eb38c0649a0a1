//! Takebacks (online play): asked for, accepted or declined; off in rated games and under
//! competition rules; a game with one replays from its log to the same game.

use game::{Game, Side};
use judge::chess::{ChessJudge, ChessRules};
use judge::Judge;
use referee::clock::Remaining;
use referee::{Command, EventKind, Referee, RefereeRules, Why};

const W: Side = Side::First;
const B: Side = Side::Second;

fn fresh(rules: RefereeRules, rated: bool) -> Referee<ChessJudge> {
    let mut r = Referee::new(
        ChessJudge::new(<chess::Position as Game>::start(), ChessRules::fide()),
        rules,
    );
    r.set_rated(rated);
    r
}

fn chess(rules: RefereeRules, rated: bool) -> Referee<ChessJudge> {
    let mut r = fresh(rules, rated);
    r.apply(0, W, Command::Start);
    r
}

fn kinds(r: &mut Referee<ChessJudge>, at: u64, side: Side, c: Command) -> Vec<EventKind> {
    r.apply(at, side, c).iter().map(|e| e.kind.clone()).collect()
}

fn mv(s: &str) -> Command {
    Command::Move(s.to_string())
}

fn fen(r: &Referee<ChessJudge>) -> String {
    Game::fen(r.judge().position())
}

fn refused(ev: &[EventKind]) -> Option<Why> {
    match ev {
        [EventKind::Refused { code, .. }] => Some(*code),
        _ => None,
    }
}

#[test]
fn accepted_takeback_of_one_ply_and_of_two() {
    let mut r = chess(RefereeRules::online(), false);
    kinds(&mut r, 1_000, W, mv("e2e4"));
    let after_e4 = fen(&r);
    kinds(&mut r, 2_000, B, mv("e7e5"));
    // Black, having just moved, asks: one ply goes.
    assert!(r.may_propose_takeback(B));
    let ev = kinds(&mut r, 3_000, B, Command::ProposeTakeback);
    assert_eq!(
        ev,
        [EventKind::TakebackProposed {
            by: B,
            plies: 1,
            back_to: 1
        }]
    );
    assert_eq!(r.takeback(), Some((B, 1)));
    // Asking again changes nothing.
    assert!(kinds(&mut r, 3_100, B, Command::ProposeTakeback).is_empty());
    let ev = kinds(&mut r, 4_000, W, Command::AcceptTakeback);
    assert!(
        matches!(
            &ev[..],
            [EventKind::TakenBack {
                by: W,
                plies: 1,
                back_to: 1,
                ..
            }]
        ),
        "{ev:?}"
    );
    assert_eq!(fen(&r), after_e4);
    assert_eq!(r.judge().position().turn(), B);
    assert_eq!(r.takeback(), None);
    // Black plays on; white, whose move black has answered, takes back two plies.
    kinds(&mut r, 5_000, B, mv("c7c5"));
    let ev = kinds(&mut r, 6_000, W, Command::ProposeTakeback);
    assert_eq!(
        ev,
        [EventKind::TakebackProposed {
            by: W,
            plies: 2,
            back_to: 0
        }]
    );
    // Black asking too is agreeing.
    let ev = kinds(&mut r, 7_000, B, Command::ProposeTakeback);
    assert!(
        matches!(
            &ev[..],
            [EventKind::TakenBack {
                by: B,
                plies: 2,
                back_to: 0,
                ..
            }]
        ),
        "{ev:?}"
    );
    assert_eq!(fen(&r), Game::fen(&<chess::Position as Game>::start()));
    assert_eq!(r.judge().position().turn(), W);
    // Nothing of white's stands now: nothing to take back.
    let ev = kinds(&mut r, 8_000, W, Command::ProposeTakeback);
    assert_eq!(refused(&ev), Some(Why::NothingToTakeBack), "{ev:?}");
    assert!(!r.may_propose_takeback(W));
}

#[test]
fn declined_takeback_and_answers_without_a_request() {
    let mut r = chess(RefereeRules::online(), false);
    kinds(&mut r, 1_000, W, mv("d2d4"));
    let ev = kinds(&mut r, 1_500, B, Command::AcceptTakeback);
    assert_eq!(refused(&ev), Some(Why::NoTakebackPending), "{ev:?}");
    kinds(&mut r, 2_000, W, Command::ProposeTakeback);
    // The asker cannot answer its own request.
    let ev = kinds(&mut r, 2_100, W, Command::AcceptTakeback);
    assert_eq!(refused(&ev), Some(Why::NoTakebackPending), "{ev:?}");
    let ev = kinds(&mut r, 3_000, B, Command::DeclineTakeback);
    assert_eq!(ev, [EventKind::TakebackDeclined { by: B }]);
    assert_eq!(r.takeback(), None);
    let ev = kinds(&mut r, 3_500, B, Command::DeclineTakeback);
    assert_eq!(refused(&ev), Some(Why::NoTakebackPending), "{ev:?}");
    // The move stands; a request lapses when the opponent moves instead of answering.
    kinds(&mut r, 4_000, W, Command::ProposeTakeback);
    kinds(&mut r, 5_000, B, mv("d7d5"));
    assert_eq!(r.takeback(), None);
    let ev = kinds(&mut r, 6_000, B, Command::AcceptTakeback);
    assert_eq!(refused(&ev), Some(Why::NoTakebackPending), "{ev:?}");
}

#[test]
fn off_in_rated_games_and_under_competition_rules() {
    let mut r = chess(RefereeRules::online(), true);
    kinds(&mut r, 1_000, W, mv("e2e4"));
    assert!(!r.may_propose_takeback(W));
    let ev = kinds(&mut r, 2_000, W, Command::ProposeTakeback);
    assert_eq!(refused(&ev), Some(Why::TakebacksRated), "{ev:?}");
    let EventKind::Refused { reason, .. } = &ev[0] else {
        unreachable!()
    };
    assert!(reason.contains("rated"), "{reason}");
    // An event's game under the online rules: a competition all the same.
    let mut r = fresh(RefereeRules::online(), false);
    r.set_competition(true);
    r.apply(0, W, Command::Start);
    kinds(&mut r, 1_000, W, mv("e2e4"));
    assert!(!r.may_propose_takeback(W));
    let ev = kinds(&mut r, 2_000, W, Command::ProposeTakeback);
    assert_eq!(refused(&ev), Some(Why::TakebacksOff), "{ev:?}");
    for rules in [RefereeRules::fide(), RefereeRules::cxa(), RefereeRules::casual()] {
        let mut r = chess(rules, false);
        kinds(&mut r, 1_000, W, mv("e2e4"));
        let ev = kinds(&mut r, 2_000, W, Command::ProposeTakeback);
        assert_eq!(refused(&ev), Some(Why::TakebacksOff), "{ev:?}");
    }
}

#[test]
fn clocks_keep_running_as_they_are() {
    // 5 min + 3 s: white spends 10 s on e4, black 20 s on e5; white asks at 40 s.
    let mut r = chess(RefereeRules::online(), false);
    kinds(&mut r, 10_000, W, mv("e2e4"));
    kinds(&mut r, 30_000, B, mv("e7e5"));
    kinds(&mut r, 40_000, W, Command::ProposeTakeback);
    let ev = kinds(&mut r, 45_000, B, Command::AcceptTakeback);
    let [EventKind::TakenBack { clocks, .. }] = &ev[..] else {
        panic!("{ev:?}")
    };
    let main = |r: Remaining| r.main;
    // No time is given back: white had 300 - 10 + 3 = 293 s, then ran 15 s more to 278 s;
    // black keeps its 300 - 20 + 3 = 283 s.
    assert_eq!(main(clocks.first), 278_000);
    assert_eq!(main(clocks.second), 283_000);
    // White is to move again and its clock runs from the acceptance.
    assert_eq!(r.judge().position().turn(), W);
    assert_eq!(r.clock().remaining(W, 55_000).main, 268_000);
    assert_eq!(r.clock().remaining(B, 55_000).main, 283_000);
}

#[test]
fn a_game_with_a_takeback_replays_to_the_same_game() {
    let mut r = chess(RefereeRules::online(), false);
    kinds(&mut r, 1_000, W, mv("e2e4"));
    kinds(&mut r, 2_000, B, mv("e7e5"));
    kinds(&mut r, 3_000, W, mv("g1f3"));
    kinds(&mut r, 4_000, B, Command::ProposeTakeback);
    kinds(&mut r, 5_000, W, Command::DeclineTakeback);
    kinds(&mut r, 6_000, B, mv("b8c6"));
    kinds(&mut r, 7_000, W, Command::ProposeTakeback);
    kinds(&mut r, 8_000, B, Command::AcceptTakeback);
    kinds(&mut r, 9_000, W, mv("f1c4"));
    let mut again = fresh(RefereeRules::online(), false);
    for (at, side, c) in r.log().to_vec() {
        again.apply(at, side, c);
    }
    assert_eq!(again.events(), r.events());
    assert_eq!(fen(&again), fen(&r));
    assert_eq!(
        fen(&r).split(' ').next(),
        Some("rnbqkbnr/pppp1ppp/8/4p3/2B1P3/8/PPPP1PPP/RNBQK1NR")
    );
    assert_eq!(again.clock().remaining(B, 10_000), r.clock().remaining(B, 10_000));
}

#[test]
fn a_declined_draw_offer_stays_declined_across_a_takeback() {
    let mut r = chess(RefereeRules::online(), false);
    kinds(&mut r, 1_000, W, mv("e2e4"));
    kinds(&mut r, 1_500, W, Command::OfferDraw);
    assert!(r.may_offer_draw(W));
    kinds(&mut r, 2_000, B, Command::DeclineDraw);
    assert!(!r.may_offer_draw(W), "no new offer after a declined one");
    assert!(r.may_offer_draw(B));
    kinds(&mut r, 3_000, W, Command::ProposeTakeback);
    kinds(&mut r, 4_000, B, Command::AcceptTakeback);
    assert!(!r.may_offer_draw(W));
}

//! What a new user hit (issue 26), one test a point, named after it: a typo is no illegal
//! move, seed 000 counts illegal and extra moves among its technical fouls, and a draw is
//! claimable only when the referee says so.

use game::{Game, Side};
use judge::chess::{ChessJudge, ChessRules};
use judge::xiangqi::{Rules, XiangqiJudge};
use judge::Outcome;
use referee::{Command, EndReason, EventKind, FoulKind, Referee, RefereeRules};

const R: Side = Side::First;
const B: Side = Side::Second;

fn xiangqi(rules: RefereeRules) -> Referee<XiangqiJudge> {
    let mut r = Referee::new(XiangqiJudge::new(xiangqi::Position::start(), Rules::cxa()), rules);
    r.apply(0, R, Command::Start);
    r
}

fn chess(rules: RefereeRules) -> Referee<ChessJudge> {
    let mut r = Referee::new(
        ChessJudge::new(<chess::Position as Game>::start(), ChessRules::fide()),
        rules,
    );
    r.apply(0, R, Command::Start);
    r
}

fn kinds<J: judge::Judge>(r: &mut Referee<J>, at: u64, side: Side, c: Command) -> Vec<EventKind> {
    r.apply(at, side, c).iter().map(|e| e.kind.clone()).collect()
}

fn mv(s: &str) -> Command {
    Command::Move(s.to_string())
}

fn over<J: judge::Judge>(r: &Referee<J>) -> (Outcome, EndReason) {
    let e = r.ending().expect("the game is over");
    (e.result, e.reason)
}

#[test]
fn point_04_typo_is_not_an_illegal_move() {
    // Under CXA one illegal move loses (4.1.8); words and typos are no move at all.
    let mut r = xiangqi(RefereeRules::cxa());
    for (t, text) in [
        (1_000, "hello"),
        (2_000, "offer"),
        (3_000, "e4"),
        (4_000, ""),
        (5_000, "炮二"),
    ] {
        let ev = kinds(&mut r, t, R, mv(text));
        assert_eq!(ev.len(), 1, "{text:?}: {ev:?}");
        let EventKind::MoveRejected { reason, .. } = &ev[0] else {
            panic!("{text:?}: {ev:?}")
        };
        assert!(reason.starts_with("not understood"), "{reason}");
        // The hint names every notation read.
        for n in ["ICCS", "h2e2", "Fairy-Stockfish", "WXF", "C2.5", "Chinese", "炮二平五"] {
            assert!(reason.contains(n), "{n} missing from {reason}");
        }
    }
    assert!(r.ending().is_none());
    // A move that reads, in any notation, and is illegal on the board still loses.
    for text in ["h0h2", "a0a9", "C2.9", "炮二进九", "h1h3"] {
        let mut r = xiangqi(RefereeRules::cxa());
        let ev = kinds(&mut r, 1_000, R, mv(text));
        assert!(
            matches!(
                &ev[1],
                EventKind::Foul {
                    kind: FoulKind::IllegalMove,
                    ..
                }
            ),
            "{text}: {ev:?}"
        );
        assert_eq!(over(&r), (Outcome::SecondWins, EndReason::IllegalMoves), "{text}");
    }
    // Chess alike: UCI and SAN are read; a word is not.
    let mut r = chess(RefereeRules::fide());
    let ev = kinds(&mut r, 1_000, R, mv("resign please"));
    assert!(
        matches!(&ev[..], [EventKind::MoveRejected { reason, .. }] if reason.contains("UCI") && reason.contains("SAN")),
        "{ev:?}"
    );
    for text in ["Nf6", "e2e5"] {
        let ev = kinds(&mut r, 2_000, R, mv(text));
        assert!(
            matches!(
                &ev[1],
                EventKind::Foul {
                    kind: FoulKind::IllegalMove,
                    ..
                }
            ),
            "{text}: {ev:?}"
        );
    }
    assert_eq!(over(&r), (Outcome::SecondWins, EndReason::IllegalMoves));
}

#[test]
fn point_04_an_engine_that_sends_no_move_still_loses() {
    // A program's text that is no move is an illegal move where the rules say so (engine
    // matches), so a runner never asks again for ever.
    let mut rules = RefereeRules::online();
    rules.illegal_moves_lose_at = Some(1);
    rules.unreadable_move_counts_as = Some(FoulKind::IllegalMove);
    let mut r = xiangqi(rules);
    r.apply(1_000, R, mv("(none)"));
    assert_eq!(over(&r), (Outcome::SecondWins, EndReason::IllegalMoves));
}

#[test]
fn point_05_casual_illegal_move_is_a_technical_foul() {
    // Seed 000 §8 (五): 一方多走一步或棋子走往不能去的位置 are technical fouls, and §4 (四): the
    // second technical foul of a game loses.
    let mut r = xiangqi(RefereeRules::casual());
    let ev = kinds(&mut r, 1_000, R, mv("h0h2"));
    assert!(
        matches!(
            &ev[1],
            EventKind::Foul {
                side: R,
                kind: FoulKind::Technical,
                count: 1,
                limit: Some(2),
                ..
            }
        ),
        "{ev:?}"
    );
    assert!(r.ending().is_none());
    r.apply(2_000, R, mv("h2e2"));
    // An extra move: black's turn, red moves again.
    let ev = kinds(&mut r, 3_000, R, mv("b2e2"));
    assert!(matches!(&ev[0], EventKind::Refused { by: R, .. }), "{ev:?}");
    assert!(
        matches!(
            &ev[1],
            EventKind::Foul {
                kind: FoulKind::Technical,
                count: 2,
                ..
            }
        ),
        "{ev:?}"
    );
    assert_eq!(over(&r), (Outcome::SecondWins, EndReason::TechnicalFouls));

    // They count with the other technical fouls: one breach of touch-move (§8 (三)) and a
    // false claim of the move limit (§8 (二)) lose together.
    let mut r = xiangqi(RefereeRules::casual());
    r.apply(1_000, R, Command::TechnicalFoul("连续提和".into()));
    let ev = kinds(&mut r, 2_000, R, Command::ClaimDraw);
    assert!(
        matches!(
            &ev[1],
            EventKind::Foul {
                kind: FoulKind::Technical,
                count: 2,
                ..
            }
        ),
        "{ev:?}"
    );
    assert_eq!(over(&r), (Outcome::SecondWins, EndReason::TechnicalFouls));

    // Elsewhere an extra move is refused and costs nothing, and illegal moves keep their own
    // count (CXA provincial: the second loses).
    let mut r = xiangqi(RefereeRules::cxa_provincial());
    let ev = kinds(&mut r, 1_000, B, mv("h9g7"));
    assert!(matches!(&ev[..], [EventKind::Refused { .. }]), "{ev:?}");
    let ev = kinds(&mut r, 2_000, R, mv("h0h2"));
    assert!(
        matches!(
            &ev[1],
            EventKind::Foul {
                kind: FoulKind::IllegalMove,
                ..
            }
        ),
        "{ev:?}"
    );
}

#[test]
fn point_08_claim_only_when_claimable() {
    let mut r = chess(RefereeRules::online());
    assert_eq!(r.claimable(), None);
    let moves = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"];
    for (i, m) in moves.iter().enumerate() {
        let side = if i % 2 == 0 { R } else { B };
        r.apply(1_000 * (i as u64 + 1), side, mv(m));
        // Black may claim with its announced Ng8, which brings the start a third time.
        assert_eq!(r.claimable().is_some(), i >= 6, "after ply {}", i + 1);
    }
    assert_eq!(r.claimable().unwrap().reason.code(), "threefold_repetition");
    r.apply(9_000, R, Command::ClaimDraw);
    assert_eq!(over(&r), (Outcome::Draw, EndReason::Claim));
    assert_eq!(r.claimable(), None, "nothing is claimable once the game is over");

    // A claim made when nothing is claimable is still a false claim, with its foul.
    let mut r = xiangqi(RefereeRules::cxa());
    assert_eq!(r.claimable(), None);
    let ev = kinds(&mut r, 1_000, R, Command::ClaimDraw);
    assert!(
        matches!(
            &ev[1],
            EventKind::Foul {
                kind: FoulKind::FalseClaim,
                ..
            }
        ),
        "{ev:?}"
    );
    // Before the start nothing is claimable.
    let r = Referee::new(
        XiangqiJudge::new(xiangqi::Position::start(), Rules::cxa()),
        RefereeRules::cxa(),
    );
    assert_eq!(r.claimable(), None);
}

/// Every legal move, as the game writes it in each notation, reads as a move: the test that
/// tells typos apart never takes a real move for one.
#[test]
fn point_04_every_written_move_reads_as_a_move() {
    fn walk<G: Game>(mut pos: G, plies: usize, also: impl Fn(&G, G::Move) -> Vec<String>) {
        for ply in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            for &m in &moves {
                let mut texts = vec![pos.coordinate(m), pos.notation(m)];
                texts.extend(also(&pos, m));
                for t in texts {
                    assert!(pos.reads_as_move(&t), "{t:?} in {}", pos.fen());
                }
            }
            pos.play(moves[(ply * 7 + 3) % moves.len()]);
        }
    }
    walk(xiangqi::Position::start(), 40, |p, m| {
        vec![xiangqi::notation::to_wxf(p, m), xiangqi::notation::to_fsf(m)]
    });
    walk(<chess::Position as Game>::start(), 40, |_, _| Vec::new());
}

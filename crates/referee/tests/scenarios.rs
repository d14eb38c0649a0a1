//! The referee's rules, one scenario each, named after the article they check (seed 000 = the
//! CXA rules it quotes, 4.1.x; seed 002; FIDE), asserting the exact events.

use game::{Game, Side};
use judge::chess::{ChessJudge, ChessRules};
use judge::xiangqi::{Rules, XiangqiJudge};
use judge::Outcome;
use referee::clock::{Stage, TimeControl};
use referee::touch::Touch;
use referee::{Command, EndReason, EventKind, FoulKind, Referee, RefereeRules};

const R: Side = Side::First;
const B: Side = Side::Second;

fn xiangqi(rules: RefereeRules) -> Referee<XiangqiJudge> {
    xiangqi_from(xiangqi::Position::start(), rules)
}

fn xiangqi_from(pos: xiangqi::Position, rules: RefereeRules) -> Referee<XiangqiJudge> {
    let mut r = Referee::new(XiangqiJudge::new(pos, Rules::cxa()), rules);
    r.apply(0, R, Command::Start);
    r
}

fn chess_from(fen: &str, rules: RefereeRules) -> Referee<ChessJudge> {
    let pos = <chess::Position as Game>::from_fen(fen).unwrap();
    let mut r = Referee::new(ChessJudge::new(pos, ChessRules::fide()), rules);
    r.apply(0, R, Command::Start);
    r
}

fn kinds<J: judge::Judge>(r: &mut Referee<J>, at: u64, side: Side, c: Command) -> Vec<EventKind> {
    r.apply(at, side, c).iter().map(|e| e.kind.clone()).collect()
}

fn over<J: judge::Judge>(r: &Referee<J>) -> (Outcome, EndReason) {
    let e = r.ending().expect("the game is over");
    (e.result, e.reason)
}

fn mv(s: &str) -> Command {
    Command::Move(s.to_string())
}

#[test]
fn seed_000_section_2_a_move_over_the_time_per_move_loses() {
    // 每方走一着棋的时间不得超过 N 秒，超时判负 (casual: 60 s).
    let mut r = xiangqi(RefereeRules::casual());
    r.apply(59_000, R, mv("h2e2"));
    assert_eq!(r.wake_at(), Some(119_000));
    let ev = kinds(&mut r, 120_500, B, mv("h9g7"));
    assert!(matches!(&ev[0], EventKind::GameOver(e) if e.reason == EndReason::Time && e.at == 119_000));
    assert_eq!(over(&r), (Outcome::FirstWins, EndReason::Time));
    // Later commands are refused.
    assert!(matches!(
        &kinds(&mut r, 130_000, B, Command::Resign)[0],
        EventKind::Refused { .. }
    ));
}

#[test]
fn cxa_4_1_6_moves_not_made_within_the_stage_lose_on_time() {
    // 在规定时限内未走满规定着数: 2 moves in 10 s, then 5 s more.
    let mut rules = RefereeRules::cxa();
    rules.time = TimeControl::stages(vec![
        Stage {
            moves: Some(2),
            time: 10_000,
            increment: 0,
            bronstein: 0,
        },
        Stage {
            moves: None,
            time: 5_000,
            increment: 0,
            bronstein: 0,
        },
    ]);
    rules.lateness = None;
    let mut r = xiangqi(rules);
    r.apply(1_000, R, mv("h2e2"));
    r.apply(2_000, B, mv("h9g7"));
    r.apply(10_000, R, mv("h0g2")); // red's second move, 1 s to spare: 5 s added
    assert_eq!(r.clock().remaining(R, 10_000).main, 6_000);
    let ev = kinds(&mut r, 12_500, B, Command::Tick);
    assert!(ev.is_empty());
    // Black has 9 s for its second move and does not make it.
    r.apply(19_001, B, Command::Tick);
    assert_eq!(over(&r), (Outcome::FirstWins, EndReason::Time));
}

#[test]
fn cxa_4_1_7_lateness_beyond_the_limit_loses() {
    let mut r = xiangqi(RefereeRules::cxa());
    assert_eq!(r.wake_at(), Some(900_000));
    r.apply(900_001, R, Command::Tick);
    let e = r.ending().unwrap();
    assert_eq!(
        (e.result, e.reason, e.at),
        (Outcome::SecondWins, EndReason::Lateness, 900_000)
    );
}

#[test]
fn a_flag_is_a_draw_when_the_opponent_cannot_win() {
    // Black's flag falls, but white has only its king: FIDE 6.9.
    let mut rules = RefereeRules::online();
    rules.time = TimeControl::sudden_death(10_000);
    let mut r = chess_from("8/8/4k3/8/8/8/3K4/7r b - - 0 1", rules.clone());
    r.apply(10_001, B, Command::Tick);
    assert_eq!(over(&r), (Outcome::Draw, EndReason::Time));
    // With a rook white can still mate: the flag loses.
    let mut r = chess_from("8/8/4k3/8/8/8/3K4/7R b - - 0 1", rules);
    r.apply(10_001, B, Command::Tick);
    assert_eq!(over(&r), (Outcome::FirstWins, EndReason::Time));
}

#[test]
fn draw_offers_follow_the_seeds_etiquette() {
    let mut r = xiangqi(RefereeRules::cxa());
    // Not on its own: with a move (seed 002 二.6.(2)).
    assert!(matches!(
        &kinds(&mut r, 1_000, R, Command::OfferDraw)[0],
        EventKind::OfferRefused { .. }
    ));
    let ev = kinds(&mut r, 2_000, R, Command::MoveOfferingDraw("h2e2".into()));
    assert!(matches!(&ev[0], EventKind::MoveAccepted { offers_draw: true, .. }));
    assert_eq!(ev[1], EventKind::DrawOffered { by: R });
    // Declined by moving.
    let ev = kinds(&mut r, 3_000, B, mv("h9g7"));
    assert_eq!(ev[0], EventKind::DrawDeclined { by: B });
    // Red may not offer again until black has offered: a technical foul under CXA.
    let ev = kinds(&mut r, 4_000, R, Command::MoveOfferingDraw("h0g2".into()));
    assert!(matches!(&ev[1], EventKind::OfferRefused { by: R, .. }));
    assert!(matches!(
        &ev[2],
        EventKind::Foul {
            side: R,
            kind: FoulKind::Technical,
            count: 1,
            limit: Some(3),
            ..
        }
    ));
    // Black offers; now red may again, and accepting draws the game.
    let ev = kinds(&mut r, 5_000, B, Command::MoveOfferingDraw("i9h9".into()));
    assert_eq!(ev[1], EventKind::DrawOffered { by: B });
    r.apply(6_000, R, Command::AcceptDraw);
    assert_eq!(over(&r), (Outcome::Draw, EndReason::Agreement));
}

#[test]
fn a_repeated_offer_is_a_warning_in_chess() {
    let mut r = chess_from(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        RefereeRules::online(),
    );
    assert_eq!(
        kinds(&mut r, 1_000, R, Command::OfferDraw),
        vec![EventKind::DrawOffered { by: R }]
    );
    assert_eq!(
        kinds(&mut r, 2_000, B, Command::DeclineDraw),
        vec![EventKind::DrawDeclined { by: B }]
    );
    let ev = kinds(&mut r, 3_000, R, Command::OfferDraw);
    assert!(matches!(&ev[1], EventKind::Warning { side: R, .. }), "{ev:?}");
    assert!(r.ending().is_none());
}

#[test]
fn cxa_4_1_11_a_second_false_claim_of_the_move_limit_in_one_phase_loses() {
    let mut r = xiangqi(RefereeRules::cxa());
    r.apply(1_000, R, mv("h2e2"));
    let ev = kinds(&mut r, 2_000, B, Command::ClaimDraw);
    assert!(matches!(&ev[0], EventKind::ClaimRejected { by: B, .. }));
    assert!(matches!(
        &ev[1],
        EventKind::Foul {
            side: B,
            kind: FoulKind::FalseClaim,
            count: 1,
            ..
        }
    ));
    r.apply(3_000, B, Command::ClaimDraw);
    assert_eq!(over(&r), (Outcome::FirstWins, EndReason::FalseClaims));
}

#[test]
fn false_claims_count_afresh_after_a_capture() {
    let mut r = xiangqi(RefereeRules::cxa());
    r.apply(1_000, R, Command::ClaimDraw); // false claim 1, phase 0
    for (t, s, m) in [(2_000, R, "h2e2"), (3_000, R, "h9g7"), (4_000, R, "e2e6")] {
        let side = if m == "h9g7" { B } else { s };
        r.apply(t, side, mv(m)); // e2e6 takes a pawn: a new phase
    }
    let ev = kinds(&mut r, 5_000, B, Command::ClaimDraw);
    assert!(matches!(&ev[1], EventKind::Foul { count: 1, .. }), "{ev:?}");
    assert!(r.ending().is_none());
}

#[test]
fn a_correct_claim_ends_the_game() {
    let mut r = chess_from(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        RefereeRules::online(),
    );
    for (i, m) in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]
        .iter()
        .enumerate()
    {
        let side = if i % 2 == 0 { R } else { B };
        r.apply(1_000 * (i as u64 + 1), side, mv(m));
    }
    r.apply(9_000, R, Command::ClaimDraw);
    let e = r.ending().unwrap();
    assert_eq!((e.result, e.reason), (Outcome::Draw, EndReason::Claim));
    assert_eq!(referee::reason_code(e), "claim");
    assert_eq!(e.verdict.as_ref().unwrap().reason.code(), "threefold_repetition");
    // The rule the claim rested on, as the server's game state names it.
    assert_eq!(referee::rule_code(e), "threefold_repetition");
}

#[test]
fn cxa_4_1_8_one_illegal_move_loses_nationally_two_provincially() {
    let mut r = xiangqi(RefereeRules::cxa());
    let ev = kinds(&mut r, 1_000, R, mv("h0h2"));
    assert!(matches!(&ev[0], EventKind::MoveRejected { side: R, .. }));
    assert_eq!(over(&r), (Outcome::SecondWins, EndReason::IllegalMoves));
    let mut r = xiangqi(RefereeRules::cxa_provincial());
    r.apply(1_000, R, mv("h0h2"));
    assert!(r.ending().is_none());
    r.apply(2_000, R, mv("a0a5"));
    assert_eq!(over(&r), (Outcome::SecondWins, EndReason::IllegalMoves));
}

#[test]
fn online_chess_the_third_illegal_move_loses() {
    // Seed 001: 三次送王判负 — moves into check are refused, the third loses.
    let mut r = chess_from("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", RefereeRules::online());
    for t in 1..=2 {
        r.apply(t * 1_000, R, mv("Kd2"));
        assert!(r.ending().is_none());
    }
    r.apply(3_000, R, mv("Kf2"));
    assert_eq!(over(&r), (Outcome::SecondWins, EndReason::IllegalMoves));
}

#[test]
fn cxa_4_1_9_pressing_the_clock_without_moving_twice_loses() {
    let mut r = xiangqi(RefereeRules::cxa());
    let ev = kinds(&mut r, 1_000, R, Command::PressClock);
    assert!(matches!(
        &ev[0],
        EventKind::Foul {
            kind: FoulKind::ClockPress,
            count: 1,
            limit: Some(2),
            ..
        }
    ));
    r.apply(2_000, R, Command::PressClock);
    assert_eq!(over(&r), (Outcome::SecondWins, EndReason::ClockPresses));
}

#[test]
fn technical_fouls_lose_at_three_under_cxa_and_two_under_seed_000() {
    let mut r = xiangqi(RefereeRules::cxa());
    for t in 1..=2 {
        r.apply(t * 1_000, B, Command::TechnicalFoul("连续提和".into()));
    }
    assert!(r.ending().is_none());
    r.apply(3_000, B, Command::TechnicalFoul("连续提和".into()));
    assert_eq!(over(&r), (Outcome::FirstWins, EndReason::TechnicalFouls));
    let mut r = xiangqi(RefereeRules::casual());
    r.apply(1_000, B, Command::TechnicalFoul("多走一步".into()));
    r.apply(2_000, B, Command::TechnicalFoul("多走一步".into()));
    assert_eq!(over(&r), (Outcome::FirstWins, EndReason::TechnicalFouls));
}

#[test]
fn seed_000_rule_5_1_a_move_breaking_touch_move_is_refused_as_a_foul() {
    let mut r = xiangqi(RefereeRules::cxa());
    let ev = kinds(&mut r, 1_000, R, Command::Touch(Touch::Own("h2".into())));
    assert!(matches!(
        &ev[0],
        EventKind::Obligation {
            side: R,
            article: "5.1",
            ..
        }
    ));
    let ev = kinds(&mut r, 2_000, R, mv("b2e2"));
    assert!(matches!(&ev[0], EventKind::MoveRejected { side: R, .. }));
    assert!(matches!(
        &ev[1],
        EventKind::Foul {
            kind: FoulKind::Technical,
            count: 1,
            ..
        }
    ));
    let ev = kinds(&mut r, 3_000, R, mv("h2e2"));
    assert!(matches!(&ev[0], EventKind::MoveAccepted { .. }));
}

#[test]
fn cxa_4_1_5_the_offender_is_told_to_vary_then_loses() {
    // XQ-R01: red checks on every move.
    let pos = xiangqi::Position::from_fen("9/4k4/9/9/5R3/9/9/9/9/3K5 w - - 0 1").unwrap();
    let mut r = xiangqi_from(pos, RefereeRules::online());
    let cycle = ["f5e5", "e8f8", "e5f5", "f8e8"];
    let mut told = None;
    for (i, m) in cycle.iter().cycle().take(12).enumerate() {
        let side = if i % 2 == 0 { R } else { B };
        for e in r.apply(1_000 * (i as u64 + 1), side, mv(m)).to_vec() {
            if let EventKind::MustVary { side, .. } = e.kind {
                told = Some((side, i + 1));
            }
        }
    }
    assert_eq!(told, Some((R, 8)));
    let e = r.ending().unwrap();
    assert_eq!((e.result, e.reason, e.ply), (Outcome::SecondWins, EndReason::Rules, 12));
    assert_eq!(referee::reason_code(e), "perpetual_check");
}

#[test]
fn adjourning_stops_both_clocks() {
    let mut r = xiangqi(RefereeRules::online());
    r.apply(1_000, R, mv("h2e2"));
    r.apply(3_000, B, Command::Adjourn);
    assert_eq!(r.wake_at(), None);
    r.apply(1_000_000, B, Command::Resume);
    // Black used 2 s before the adjournment, nothing during it.
    assert_eq!(r.clock().remaining(B, 1_000_000).main, 298_000);
    r.apply(1_001_000, B, Command::Resign);
    assert_eq!(over(&r), (Outcome::FirstWins, EndReason::Resignation));
}

#[test]
fn nothing_is_played_on_an_adjourned_board() {
    let mut r = xiangqi(RefereeRules::online());
    r.apply(1_000, R, mv("h2e2"));
    r.apply(3_000, B, Command::Adjourn);
    for c in [mv("h9g7"), Command::Touch(Touch::Own("h9".into())), Command::PressClock] {
        let ev = kinds(&mut r, 4_000, B, c);
        assert!(
            matches!(&ev[..], [EventKind::Refused { reason, .. }] if reason.contains("adjourned")),
            "{ev:?}"
        );
    }
    assert_eq!(r.wake_at(), None, "no clock started");
    r.apply(10_000, B, Command::Resume);
    assert_eq!(r.clock().remaining(B, 10_000).main, 298_000);
    let ev = kinds(&mut r, 11_000, B, mv("h9g7"));
    assert!(
        ev.iter().any(|e| matches!(e, EventKind::MoveAccepted { .. })),
        "played once resumed: {ev:?}"
    );
}

#[test]
fn refusing_the_rules_loses_and_abort_has_no_result() {
    let mut r = xiangqi(RefereeRules::cxa());
    r.apply(1_000, B, Command::RefusesRules);
    assert_eq!(over(&r), (Outcome::FirstWins, EndReason::RefusedRules));
    let mut r = xiangqi(RefereeRules::cxa());
    r.apply(1_000, R, Command::Abort);
    assert_eq!(over(&r), (Outcome::Ongoing, EndReason::Aborted));
}

#[test]
fn versions_count_every_event_and_a_log_replays_to_the_same_events() {
    let mut r = xiangqi(RefereeRules::cxa());
    r.apply(1_000, R, Command::MoveOfferingDraw("h2e2".into()));
    r.apply(2_000, B, mv("h9g7"));
    r.apply(3_000, B, Command::TechnicalFoul("x".into()));
    r.apply(4_000, R, Command::ClaimDraw);
    for (i, e) in r.events().iter().enumerate() {
        assert_eq!(e.version, i as u64);
    }
    let mut again = Referee::new(
        XiangqiJudge::new(xiangqi::Position::start(), Rules::cxa()),
        RefereeRules::cxa(),
    );
    for (at, side, c) in r.log().to_vec() {
        again.apply(at, side, c);
    }
    assert_eq!(again.events(), r.events());
}

#[test]
fn cxa_4_1_3_a_move_exposing_ones_own_king_loses() {
    // The horse on e1 shields the red king from the black rook; moving it is 自杀.
    let pos = xiangqi::Position::from_fen("3k5/4r4/9/9/9/9/9/9/4N4/4K4 w - - 0 1").unwrap();
    let mut r = xiangqi_from(pos.clone(), RefereeRules::cxa());
    r.apply(1_000, R, mv("e1c2"));
    let e = r.ending().unwrap();
    assert_eq!(
        (e.result, e.reason, referee::reason_code(e)),
        (Outcome::SecondWins, EndReason::Rules, "self_check")
    );
    // Under AXF rules the judge refuses it: an illegal move, counted as such.
    let mut r = Referee::new(XiangqiJudge::new(pos, Rules::axf()), RefereeRules::cxa_provincial());
    r.apply(0, R, Command::Start);
    let ev = kinds(&mut r, 1_000, R, mv("e1c2"));
    assert!(
        matches!(
            &ev[1],
            EventKind::Foul {
                kind: FoulKind::IllegalMove,
                count: 1,
                ..
            }
        ),
        "{ev:?}"
    );
}

#[test]
fn the_record_is_pgn_with_clocks_and_termination() {
    let mut r = chess_from(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        RefereeRules::online(),
    );
    r.apply(2_000, R, mv("f3"));
    r.apply(5_000, B, Command::MoveOfferingDraw("e5".into()));
    r.apply(9_000, R, mv("g4"));
    r.apply(10_000, B, mv("Qh4#"));
    let pgn = r.pgn(
        &<chess::Position as Game>::start(),
        &[("Event", "test"), ("White", "a"), ("Black", "b")],
    );
    assert!(
        pgn.starts_with(
            "[Event \"test\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"a\"]\n\
             [Black \"b\"]\n[Result \"0-1\"]\n[Termination \"normal\"]\n"
        ),
        "{pgn}"
    );
    assert!(
        pgn.contains("1. f3 { [%clk 0:05:01] } 1... e5 { [%clk 0:05:00] } { draw offered } 2. g4"),
        "{pgn}"
    );
    assert!(pgn.contains("Qh4#"), "{pgn}");
    assert!(pgn.trim_end().ends_with("0-1"), "{pgn}");
    // It reads back as the same game.
    let games: Vec<_> = records::chess::ChessGames::new(pgn.as_bytes())
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].tree.main_line().count(), 4);
    assert_eq!(games[0].tags.get("Termination"), Some("normal"));
    // A Xiangqi game in Chinese notation, lost on time.
    let mut r = xiangqi(RefereeRules::casual());
    r.apply(1_000, R, mv("h2e2"));
    r.apply(100_000, B, Command::Tick);
    let pgn = r.pgn(&xiangqi::Position::start(), &[]);
    assert!(
        pgn.contains("[Variant \"xiangqi\"]") && pgn.contains("[Termination \"time forfeit\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("1. 炮二平五"), "{pgn}");
    let games: Vec<_> = records::pgn::XiangqiGames::new(pgn.as_bytes())
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(games[0].tree.main_line().count(), 1);
}

/// Without live notation (what an engine match asks for, writing its record after the game)
/// accepted moves carry their coordinates only, and the referee's own PGN writes those.
#[test]
fn without_live_notation_moves_are_recorded_in_coordinates() {
    let mut r = chess_from(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        RefereeRules::online(),
    );
    r.set_live_notation(false);
    let ev = kinds(&mut r, 2_000, R, mv("Nf3"));
    assert!(
        matches!(&ev[0], EventKind::MoveAccepted { coordinate, notation, .. } if coordinate == "g1f3" && notation.is_empty()),
        "{ev:?}"
    );
    r.set_live_notation(true);
    let ev = kinds(&mut r, 3_000, B, mv("d7d5"));
    assert!(
        matches!(&ev[0], EventKind::MoveAccepted { notation, .. } if notation == "d5"),
        "{ev:?}"
    );
    let pgn = r.pgn(&<chess::Position as Game>::start(), &[]);
    assert!(pgn.contains("1. g1f3 { [%clk 0:05:01] } 1... d5 {"), "{pgn}");
}

#[test]
fn seed_001_an_illegal_reply_to_check_must_be_made_again_with_the_same_piece() {
    // White is in check from the rook on e8; the knight on d2 can block on e4, the king can
    // step aside.
    let mut rules = RefereeRules::fide();
    rules.illegal_moves_lose_at = None;
    rules.lateness = None;
    let mut r = chess_from("4r1k1/8/8/8/8/8/3N4/4K3 w - - 0 1", rules);
    // The knight moves without answering the check: taken back, and the knight must answer.
    let ev = kinds(&mut r, 1_000, R, mv("d2b3"));
    assert!(matches!(&ev[0], EventKind::MoveRejected { .. }));
    assert!(
        ev.iter().any(|e| matches!(
            e,
            EventKind::Obligation {
                article: "纠正失误 (3)",
                ..
            }
        )),
        "{ev:?}"
    );
    // The king's answer is refused: the knight can answer.
    let ev = kinds(&mut r, 2_000, R, mv("e1f1"));
    assert!(matches!(&ev[0], EventKind::MoveRejected { .. }), "{ev:?}");
    let ev = kinds(&mut r, 3_000, R, mv("d2e4"));
    assert!(matches!(&ev[0], EventKind::MoveAccepted { .. }), "{ev:?}");
}

#[test]
fn fide_9_5_3_a_false_claim_gives_the_opponent_two_minutes() {
    let mut rules = RefereeRules::fide();
    rules.lateness = None;
    let mut r = chess_from("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", rules);
    let ev = kinds(&mut r, 1_000, R, Command::ClaimDraw);
    assert!(matches!(&ev[1], EventKind::Warning { side: R, .. }), "{ev:?}");
    assert_eq!(r.clock().remaining(B, 1_000).main, 5_400_000 + 120_000);
    assert!(r.ending().is_none());
    // The record keeps it.
    r.apply(2_000, R, mv("e4"));
    let pgn = r.pgn(&<chess::Position as Game>::start(), &[]);
    assert!(
        pgn.contains("{ white claimed: no draw can be claimed in this position }"),
        "{pgn}"
    );
    // A comment too long for a line goes word by word.
    assert!(
        pgn.replace('\n', " ").contains("{ warning to white: false claim"),
        "{pgn}"
    );
}

#[test]
fn online_lag_compensation_charges_the_mover_until_it_moved() {
    // 60 s each, no increment.
    let mut rules = RefereeRules::casual();
    rules.time = TimeControl::fischer(60_000, 0);
    let mut r = xiangqi(rules);
    r.apply(1_000, R, mv("h2e2"));
    // Black's move arrives at 5 s, made 1.5 s earlier: black is charged 2.5 s, and red's clock
    // starts at 5 s, not before.
    let lagged = |text: &str, lag| Command::LaggedMove {
        text: text.into(),
        offering: false,
        lag,
    };
    let ev = kinds(&mut r, 5_000, B, lagged("h9g7", 1_500));
    assert!(
        matches!(&ev[0], EventKind::MoveAccepted { clocks, .. } if clocks[Side::Second].main == 57_500 && clocks[Side::First].main == 59_000)
    );
    assert_eq!(r.clock().remaining(R, 6_000).main, 58_000);
    // A credit beyond the turn is cut at the turn's start: red charged nothing, not less.
    let ev = kinds(&mut r, 5_200, R, lagged("h0g2", 10_000));
    assert!(matches!(&ev[0], EventKind::MoveAccepted { clocks, .. } if clocks[Side::First].main == 59_000));
    // A move arriving after the flag, but made before it, is in time; one made after is not.
    let ev = kinds(&mut r, 5_200 + 57_500 + 300, B, lagged("i9h9", 400));
    assert!(matches!(&ev[0], EventKind::MoveAccepted { clocks, .. } if clocks[Side::Second].main == 100));
    let flag = 5_200 + 57_500 + 300 + 59_000;
    let ev = kinds(&mut r, flag + 500, R, lagged("i0h0", 400));
    assert!(matches!(&ev[0], EventKind::GameOver(e) if e.reason == EndReason::Time && e.at == flag));
}

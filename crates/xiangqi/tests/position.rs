//! Position validation, attack queries, and property tests of make/unmake and the key.

use proptest::prelude::*;
use xiangqi::notation::parse_iccs;
use xiangqi::{Bitboard, Color, Position, PositionErrorKind as K, Role, Square};

fn errors(fen: &str) -> Vec<K> {
    match Position::from_fen(fen) {
        Ok(_) => Vec::new(),
        Err(xiangqi::FenError::Position(e)) => e.kinds,
        Err(e) => panic!("{fen}: {e}"),
    }
}

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

#[test]
fn impossible_positions_are_rejected_precisely() {
    use Color::*;
    assert_eq!(errors("9/9/9/9/9/9/9/9/9/4K4 w"), vec![K::MissingKing(Black)]);
    assert_eq!(errors("3k5/9/9/9/9/9/9/9/3K5/4K4 w"), vec![K::TooManyKings(Red)]);
    assert_eq!(
        errors("3k5/9/9/9/9/9/9/9/9/6K2 w"),
        vec![K::KingOutsidePalace(Red, sq("g0"))]
    );
    assert_eq!(errors("3k5/9/9/9/9/9/9/9/4A4/3AK4 w"), vec![]);
    assert_eq!(
        errors("3k5/9/9/9/9/9/9/9/3A5/4K4 w"),
        vec![K::AdvisorUnreachable(Red, sq("d1"))]
    );
    assert_eq!(
        errors("3k5/9/9/9/9/9/9/1B7/9/4K4 w"),
        vec![K::ElephantUnreachable(Red, sq("b2"))]
    );
    assert_eq!(
        errors("3k5/9/9/9/9/2b6/9/9/9/4K4 w"),
        vec![K::ElephantUnreachable(Black, sq("c4"))]
    );
    assert_eq!(
        errors("3k5/9/9/9/9/9/9/4P4/9/4K4 w"),
        vec![K::PawnUnreachable(Red, sq("e2"))]
    );
    assert_eq!(
        errors("3k5/9/9/9/9/9/1P7/9/9/4K4 w"),
        vec![K::PawnUnreachable(Red, sq("b3"))]
    );
    assert_eq!(
        errors("3k5/9/9/9/9/1P7/9/9/9/4K4 w"),
        vec![K::PawnUnreachable(Red, sq("b4"))]
    );
    assert_eq!(errors("3k5/9/9/9/1P7/9/9/9/9/4K4 w"), vec![]);
    assert_eq!(
        errors("3k5/9/9/9/9/9/9/9/9/RRR1K4 w"),
        vec![K::TooManyPieces(Red, Role::Rook, 3)]
    );
    assert_eq!(errors("4k4/9/9/9/9/9/9/9/9/4K4 w"), vec![K::KingsFacing]);
    assert_eq!(errors("4k4/9/9/9/9/9/9/9/9/3K4R w"), vec![]);
    assert_eq!(errors("4k4/9/9/9/9/9/9/9/9/3KR4 w"), vec![K::OppositeCheck(Black)]);
    assert_eq!(errors("4k4/9/9/9/9/9/9/9/9/3KR4 b"), vec![]);
    // Several problems are all reported.
    assert_eq!(errors("9/9/9/9/9/9/9/9/3A5/6K2 w").len(), 3);
}

#[test]
fn composed_positions_may_ignore_piece_counts() {
    let fen = "3k5/9/9/P1P1P1P1P/P8/9/9/9/9/4K4 w";
    let e = match Position::from_fen(fen) {
        Err(xiangqi::FenError::Position(e)) => e,
        other => panic!("{other:?}"),
    };
    assert_eq!(e.kinds, vec![K::TooManyPieces(Color::Red, Role::Pawn, 6)]);
    let pos = e.ignore_too_many_pieces().unwrap();
    assert!(pos.count_legal() > 0);
}

#[test]
fn errors_read_well() {
    let e = Position::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w").unwrap_err();
    assert_eq!(
        e.to_string(),
        "illegal position: the kings face each other on an open file"
    );
}

#[test]
fn attack_queries() {
    // The red rook on e4 attacks the black pawn on e6, which the black horse on c7 protects
    // through its leg d7.
    let pos = Position::from_fen("3k5/9/2n6/4p4/9/4R4/9/9/9/5K3 w").unwrap();
    assert_eq!(pos.attackers(sq("e6"), Color::Red), Bitboard::from_square(sq("e4")));
    assert_eq!(pos.defenders(sq("e6")), Bitboard::from_square(sq("c7")));
    // Blocking the horse leg d7 removes the protection.
    let pos = Position::from_fen("3k5/9/2nn5/4p4/9/4R4/9/9/9/5K3 w").unwrap();
    assert_eq!(pos.defenders(sq("e6")), Bitboard::EMPTY);
    // Cannon attacks over one screen only.
    let pos = Position::from_fen("3k5/9/9/9/4p4/4P4/9/4C4/9/5K3 w").unwrap();
    assert_eq!(
        pos.attackers(sq("e5"), Color::Red),
        Bitboard::from_square(sq("e4")).with(sq("e2"))
    );
}

#[test]
fn pins_in_the_xiangqi_sense() {
    // The red rook on e3 is pinned by the black rook on e8 (pinned against the red king e0).
    let pos = Position::from_fen("3k5/4r4/9/9/9/9/4R4/9/9/4K4 w").unwrap();
    assert!(pos.pinned(Color::Red).contains(sq("e3")));
    // Two screens before a cannon: both are pinned (moving either makes a one-screen check).
    let pos = Position::from_fen("3k5/4c4/9/9/9/4P4/4R4/9/9/4K4 w").unwrap();
    assert_eq!(pos.pinned(Color::Red), Bitboard::from_square(sq("e3")).with(sq("e4")));
    // A horse leg: the black horse on c2 would check the king on e1 but for the red advisor
    // on its leg d2, which therefore may not move.
    let pos = Position::from_fen("3k5/9/9/9/9/9/9/2nA5/4K4/9 w").unwrap();
    assert!(pos.pinned(Color::Red).contains(sq("d2")));
    // The kings on one file with one piece between: it cannot leave the file (flying general).
    let pos = Position::from_fen("4k4/9/9/9/9/4N4/9/9/9/4K4 w").unwrap();
    assert!(pos.pinned(Color::Red).contains(sq("e4")));
    assert!(pos.legal_moves().iter().all(|m| m.from != sq("e4")));
}

#[test]
fn flying_general_and_self_check_are_illegal() {
    let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 w").unwrap();
    assert!(
        !pos.is_legal(parse_iccs("d0e0").unwrap()),
        "king may not face the other king"
    );
    let pos = Position::from_fen("5k3/9/9/9/9/9/9/9/4r4/3K5 w").unwrap();
    assert!(
        !pos.is_legal(parse_iccs("d0d1").unwrap()),
        "king may not step into the rook's line"
    );
    assert!(pos.play(parse_iccs("d0e0").unwrap()).is_err());
}

fn walk(pos: &Position, choices: &[u16]) -> Vec<(Position, xiangqi::Move)> {
    let mut out = Vec::new();
    let mut p = pos.clone();
    for &c in choices {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[c as usize % moves.len()];
        out.push((p.clone(), m));
        p.play_unchecked(m);
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Undoing every move in reverse order restores the position exactly, and the incremental
    /// key equals the key computed from scratch at every step.
    #[test]
    fn do_undo_restores_and_key_is_incremental(choices in proptest::collection::vec(any::<u16>(), 0..200)) {
        let start = Position::start();
        let mut pos = start.clone();
        let mut stack = Vec::new();
        for &c in &choices {
            let moves = pos.legal_moves();
            prop_assert_eq!(pos.has_legal_move(), !moves.is_empty());
            if moves.is_empty() { break; }
            let m = moves[c as usize % moves.len()];
            let before = pos.clone();
            // The key after each legal move, told without playing it, is the played key.
            for &other in &moves {
                let mut next = pos.clone();
                next.do_move(other);
                prop_assert_eq!(pos.key_after(other), next.key());
            }
            let undo = pos.do_move(m);
            prop_assert_eq!(pos.key(), pos.compute_key());
            prop_assert_ne!(pos.key(), before.key());
            stack.push((m, undo, before));
        }
        while let Some((m, undo, before)) = stack.pop() {
            pos.undo_move(m, undo);
            prop_assert_eq!(&pos, &before);
            prop_assert_eq!(pos.key(), before.key());
        }
        prop_assert_eq!(pos, start);
    }

    /// Copy-make and make/unmake agree; the FEN of every position reads back to it.
    #[test]
    fn fen_round_trips_along_random_games(choices in proptest::collection::vec(any::<u16>(), 0..150)) {
        for (pos, m) in walk(&Position::start(), &choices) {
            let again = Position::from_fen(&pos.fen().to_string()).unwrap();
            prop_assert_eq!(&again, &pos);
            let mut a = pos.clone();
            a.play_unchecked(m);
            let b = pos.clone().play(m).unwrap();
            prop_assert_eq!(a.key(), b.key());
            prop_assert_eq!(a.halfmoves(), if pos.is_capture(m) { 0 } else { pos.halfmoves() + 1 });
        }
    }

    /// Legal moves are exactly the pseudo-legal moves after which the mover is not attacked.
    #[test]
    fn legal_means_king_not_attacked_afterwards(choices in proptest::collection::vec(any::<u16>(), 0..120)) {
        for (pos, _) in walk(&Position::start(), &choices) {
            for &m in pos.legal_moves().iter() {
                let after = pos.clone().play(m).unwrap();
                let us = pos.turn();
                let k = after.king(us);
                prop_assert!(after.attackers(k, !us).is_empty(), "{} leaves the king attacked", m);
            }
        }
    }
}

#[test]
fn ignoring_piece_counts_still_rejects_an_attacked_king() {
    // Found by the `fen` fuzz target: six red pawns and black, not to move, in check.
    let fen = "3k5/P2PPPn1P/1C5C1/9/9/N1PN1R1r1/9/9/3K5/9 w - - 0 1";
    let e = match Position::from_fen(fen) {
        Err(xiangqi::FenError::Position(e)) => e,
        other => panic!("{other:?}"),
    };
    assert!(e.kinds.contains(&K::OppositeCheck(Color::Black)), "{:?}", e.kinds);
    assert!(e.ignore_too_many_pieces().is_err());
}

//! Touch-move, seed 000 §7 / rules 5.1–5.5 and the technical fouls of §8 (三), (四), each
//! scenario named after its article.

use game::Game;
use referee::touch::{obligation, Rule, Touch};
use xiangqi::Position;

fn own(s: &str) -> Touch {
    Touch::Own(s.to_string())
}

fn theirs(s: &str) -> Touch {
    Touch::Opponent(s.to_string())
}

/// A rule's data: code, article, own and opponent's squares.
fn said(r: &Rule) -> (&str, &str, Option<&str>, Option<&str>) {
    (r.code, r.article, r.own.as_deref(), r.theirs.as_deref())
}

fn coords(pos: &Position, moves: &Option<Vec<xiangqi::Move>>) -> Vec<String> {
    let mut v: Vec<String> = moves.as_ref().unwrap().iter().map(|&m| pos.coordinate(m)).collect();
    v.sort();
    v
}

#[test]
fn rule_5_1_a_touched_own_piece_must_move() {
    let pos = Position::start();
    let o = obligation(&pos, &[own("h2")]);
    assert_eq!(o.article, "5.1");
    let moves = coords(&pos, &o.allowed);
    assert_eq!(moves.len(), 12, "{moves:?}"); // the cannon's moves: h1, h3-h6, h9 capture, rank 2
    assert!(moves.iter().all(|m| m.starts_with("h2")));
    assert!(o.permits(xiangqi::notation::parse_iccs("h2e2").unwrap()));
    assert!(!o.permits(xiangqi::notation::parse_iccs("b2e2").unwrap()));
    assert_eq!(o.foul, None);
    assert_eq!(said(&o.said), ("move_touched", "5.1", Some("h2"), None));
}

#[test]
fn section_8_3_touching_an_own_piece_that_cannot_move_is_a_foul_and_frees_the_move() {
    // The horse on e1 shields its king from the other: it cannot move (帅将对面).
    let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/4N4/4K4 w - - 0 1").unwrap();
    let o = obligation(&pos, &[own("e1")]);
    assert_eq!((o.article, o.allowed.is_none()), ("free", true));
    assert_eq!(said(&o.said), ("own_cannot_move_any", "5.1", Some("e1"), None));
    let (what, rule) = o.foul.unwrap();
    assert!(what.contains("§8 (三)"));
    assert_eq!(said(&rule), ("touched_own_immovable", "§8 (三)", Some("e1"), None));
}

#[test]
fn rule_5_2_a_touched_opponent_piece_must_be_taken() {
    let pos = Position::start();
    let o = obligation(&pos, &[theirs("h9")]);
    assert_eq!((o.article, coords(&pos, &o.allowed)), ("5.2", vec!["h2h9".to_string()]));
    // §8 (四): a piece no one can take.
    let o = obligation(&pos, &[theirs("e9")]);
    assert_eq!(o.article, "free");
    assert_eq!(said(&o.said), ("none_can_take_any", "5.2", None, Some("e9")));
    let (what, rule) = o.foul.unwrap();
    assert!(what.contains("§8 (四)"));
    assert_eq!(said(&rule), ("touched_untakable", "§8 (四)", None, Some("e9")));
}

#[test]
fn rule_5_3_own_then_opponent() {
    let pos = Position::start();
    // The touched cannon can take the touched horse: it must.
    let o = obligation(&pos, &[own("h2"), theirs("h9")]);
    assert_eq!((o.article, coords(&pos, &o.allowed)), ("5.3", vec!["h2h9".to_string()]));
    assert_eq!(said(&o.said), ("take_with", "5.3", Some("h2"), Some("h9")));
    // It cannot: then it must move.
    let o = obligation(&pos, &[own("b2"), theirs("h9")]);
    let moves = coords(&pos, &o.allowed);
    assert_eq!(o.article, "5.3");
    assert_eq!(said(&o.said).0, "move_own_instead");
    assert!(
        !moves.is_empty() && moves.iter().all(|m| m.starts_with("b2")),
        "{moves:?}"
    );
    // The touched piece cannot move either (the horse shields its king from the rook): another
    // piece must take.
    let pinned = Position::from_fen("4k4/9/9/9/9/9/R3r4/9/4N4/4K4 w - - 0 1").unwrap();
    let o = obligation(&pinned, &[own("e1"), theirs("e3")]);
    assert_eq!(
        (o.article, coords(&pinned, &o.allowed)),
        ("5.3", vec!["a3e3".to_string()])
    );
    assert_eq!(said(&o.said).0, "take_with_another");
    assert!(o.foul.is_some(), "the horse cannot move: §8 (三)");
}

#[test]
fn rule_5_4_opponent_then_own() {
    let pos = Position::start();
    // The touched cannon on b2 cannot take h9: another piece must (h2xh9), before moving b2.
    let o = obligation(&pos, &[theirs("h9"), own("b2")]);
    assert_eq!((o.article, coords(&pos, &o.allowed)), ("5.4", vec!["h2h9".to_string()]));
    assert_eq!(
        said(&o.said),
        ("take_with_another_instead", "5.4", Some("b2"), Some("h9"))
    );
    // Nobody can take the touched piece: move the touched own piece.
    let o = obligation(&pos, &[theirs("a9"), own("b2")]);
    let moves = coords(&pos, &o.allowed);
    assert!(moves.iter().all(|m| m.starts_with("b2")) && !moves.is_empty());
    assert_eq!(said(&o.said).0, "move_own_last");
    assert_eq!(o.foul.unwrap().1.code, "touched_untakable");
}

#[test]
fn touch_move_is_the_same_code_for_chess() {
    let pos = <chess::Position as Game>::start();
    let o = obligation(&pos, &[own("g1")]);
    assert_eq!(o.article, "5.1");
    let mut moves: Vec<String> = o.allowed.unwrap().into_iter().map(|m| pos.coordinate(m)).collect();
    moves.sort();
    assert_eq!(moves, ["g1f3", "g1h3"]);
    let o = obligation(&pos, &[theirs("e7")]);
    assert_eq!(o.article, "free");
}

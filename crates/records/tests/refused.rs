//! A move a reader cannot play is kept, typed, in the record's issue: its ply, the move as
//! written, why it was refused and — for a Xiangqi move the pieces can make but that leaves the
//! mover's king exposed — the move itself, in every format.

use records::{Issue, Refusal, XiangqiRecord};
use xiangqi::notation::parse_iccs;

/// Red's king may step to d0 by its movement, but there it faces black's king.
const FEN: &str = "3k5/9/9/9/9/9/2P6/9/9/4K4 w - - 0 1";

fn pgn(moves: &str, format: Option<&str>) -> XiangqiRecord {
    let format = format.map(|f| format!("[Format \"{f}\"]\n")).unwrap_or_default();
    let text = format!("[Game \"Chinese Chess\"]\n[FEN \"{FEN}\"]\n{format}\n{moves} *\n");
    records::pgn::XiangqiGames::new(text.as_bytes())
        .next()
        .unwrap()
        .unwrap()
}

fn the_issue(r: &XiangqiRecord) -> &Issue {
    assert_eq!(r.issues.len(), 1, "{:?}", r.issues);
    &r.issues[0]
}

#[test]
fn point_01_a_refused_move_is_kept_typed_in_every_notation() {
    let e0d0 = parse_iccs("e0d0").unwrap();
    for (moves, format) in [
        ("1. 帅五平六", None),
        ("1. K5.6", Some("WXF")),
        ("1. e0-d0", Some("ICCS")),
        // Coordinates in a Chinese record: refused as the move they name, not as unreadable.
        ("1. e0d0", None),
    ] {
        let r = pgn(moves, format);
        let issue = the_issue(&r);
        let refused = issue.refused.as_ref().expect("a refused move");
        let written = moves.trim_start_matches("1. ");
        assert_eq!(
            (issue.ply, refused.written.as_str(), refused.why, refused.self_check),
            (Some(1), written, Refusal::Illegal, Some(e0d0)),
            "{moves}"
        );
        assert!(issue.message.contains("not a legal move here"), "{}", issue.message);
    }
    // A move no piece can make is refused with nothing to rule on; a word in no notation is
    // refused as no move.
    let r = pgn("1. 帅五进二", None);
    let refused = the_issue(&r).refused.clone().unwrap();
    assert_eq!((refused.why, refused.self_check), (Refusal::Illegal, None));
    let r = pgn("1. 帅五平六", Some("WXF"));
    assert_eq!(the_issue(&r).refused.as_ref().unwrap().self_check, Some(e0d0));
}

#[test]
fn point_01_binary_and_text_formats_keep_the_refused_move() {
    let e0d0 = parse_iccs("e0d0").unwrap();
    // DhtmlXQ: the red king (5th piece) on x4 y9, a red pawn on x2 y6, the black king on x3 y0.
    let mut binit = String::new();
    for i in 0..32 {
        binit.push_str(match i {
            4 => "49",
            11 => "26",
            20 => "30",
            _ => "99",
        });
    }
    let text = format!(
        "[DhtmlXQ]\n[DhtmlXQ_binit]{binit}[/DhtmlXQ_binit]\n[DhtmlXQ_movelist]4939[/DhtmlXQ_movelist]\n[/DhtmlXQ]\n"
    );
    let r = records::dhtmlxq::read_dhtmlxq_block(&text).unwrap();
    let issue = the_issue(&r);
    let refused = issue.refused.as_ref().unwrap();
    assert_eq!(
        (issue.ply, refused.written.as_str(), refused.self_check),
        (Some(1), "4939", Some(e0d0))
    );
    assert!(issue.message.contains("facing the other king"), "{}", issue.message);

    // The moves form keeps the moves before the refused one, as every other format does.
    let line = format!("position fen {FEN} moves c3c4 d9d8 e0d0");
    let records::files::AnyRecord::Xiangqi(r) = records::files::read_fen_moves(&line).unwrap() else {
        panic!("a Xiangqi line");
    };
    assert_eq!(r.tree.main_line().count(), 2);
    let issue = the_issue(&r);
    let refused = issue.refused.as_ref().unwrap();
    assert_eq!(
        (issue.ply, refused.written.as_str(), refused.self_check),
        (Some(3), "e0d0", Some(e0d0)),
        "{}",
        issue.message
    );
}

#[test]
fn point_03_an_illegal_move_says_what_was_expected_found_and_where() {
    // Coordinates in a Chinese record name a move: the message says it is not legal here,
    // not that a Chinese move was expected.
    let r = pgn("1. h2e2", None);
    let m = &the_issue(&r).message;
    assert!(
        m.contains("\"h2e2\" is not a legal move here") && !m.contains("expected"),
        "{m}"
    );
    // A word that is no move in any notation says which notations were expected.
    let r = pgn("1. hello", None);
    let issue = the_issue(&r);
    assert_eq!(issue.refused.as_ref().unwrap().why, Refusal::NotAMove);
    assert!(
        issue.message.contains("\"hello\"") && issue.message.contains("Chinese"),
        "{}",
        issue.message
    );
    // Chess SAN keeps the move too.
    let chess = "[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. Kd2 Ke7 2. Qd4 *\n";
    let r = records::chess::ChessGames::new(chess.as_bytes())
        .next()
        .unwrap()
        .unwrap();
    let issue = &r.issues[0];
    let refused = issue.refused.as_ref().unwrap();
    assert_eq!(
        (issue.ply, refused.written.as_str(), refused.why),
        (Some(3), "Qd4", Refusal::Illegal)
    );
}

//! A repetition the rules forbid: the engine that wants to repeat a perpetual check is told
//! the banned move, and a cycle begun in the opening book counts as the game's history.

use std::path::{Path, PathBuf};

use judge::chess::ChessRules;
use judge::xiangqi::{Rules, XiangqiJudge};
use matches::runner::{run_match, Entrant, MatchConfig, Start};

#[path = "../../engine/tests/common/mod.rs"]
mod common;
mod support;
use common::fake;
use support::{check_against_replay, config, dir, nodes};

/// Red checks with the rook from f5/e5 while black's king steps between e8 and f8: the cycle
/// of a perpetual check.
const REPEAT_FEN: &str = "9/4k4/9/9/5R3/9/9/9/9/3K5 w - - 0 1";
const CYCLE: [&str; 4] = ["f5e5", "e8f8", "e5f5", "f8e8"];

/// A one-game match from [`REPEAT_FEN`] (after `book`) between two fake engines that play
/// [`CYCLE`] for ever, writing `d/games.pgn`; and the file where red's engine logs what it is
/// told. None (skipped) without Python.
fn repeaters(d: &Path, book: Vec<String>, source: &str) -> Option<(MatchConfig, PathBuf)> {
    let log_red = d.join("red.log");
    let log_black = d.join("black.log");
    let mut red_args = vec!["--log", log_red.to_str().unwrap()];
    red_args.extend(CYCLE);
    let mut black_args = vec!["--log", log_black.to_str().unwrap()];
    black_args.extend(CYCLE);
    let red = fake("repeater-red", "uci.py", &red_args)?;
    let black = fake("repeater-black", "uci.py", &black_args)?;
    let mut cfg = config(
        vec![
            Entrant {
                config: red,
                control: nodes(1),
            },
            Entrant {
                config: black,
                control: nodes(1),
            },
        ],
        1,
        &d.join("games.pgn"),
    );
    cfg.openings = vec![Start {
        fen: Some(REPEAT_FEN.into()),
        moves: book,
        source: source.into(),
    }];
    cfg.adjudication.max_moves = Some(20);
    Some((cfg, log_red))
}

/// An engine that always wants to repeat a perpetual check is told the move the rules forbid
/// (UCI `searchmoves` without it; UCCI `banmoves`), and varies instead of losing.
#[test]
fn an_engine_that_wants_to_repeat_is_told_the_banned_move() {
    let d = dir("banned");
    let Some((mut cfg, log_red)) = repeaters(&d, Vec::new(), "perpetual check") else {
        return;
    };
    let pgn = d.join("games.pgn");
    let mut out = Vec::new();
    let summary = run_match(&cfg, |start| XiangqiJudge::new(start, Rules::cxa()), &mut out).unwrap();
    println!("{}", String::from_utf8_lossy(&out));
    let game = &summary.finished[0];
    assert_ne!(game.termination, "perpetual_check", "{game:?}");
    let told = std::fs::read_to_string(&log_red).unwrap();
    let banned = told
        .lines()
        .find(|l| l.contains("searchmoves"))
        .unwrap_or_else(|| panic!("red was never told to vary:\n{told}"));
    assert!(!banned.contains("f5e5"), "{banned}");
    // The ninth ply: red, told to vary at ply 8, played something else.
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("red must vary"), "{text}");
    check_against_replay(&pgn, &Rules::cxa(), ChessRules::fide());

    // At the trigger, as engines rule: the move that would lose at once is banned.
    let pgn = d.join("trigger.pgn");
    cfg.pgn_out = Some(pgn.clone());
    let mut out = Vec::new();
    let rules = Rules::cxa().at_trigger();
    let summary = run_match(&cfg, |start| XiangqiJudge::new(start, rules.clone()), &mut out).unwrap();
    println!("{}", String::from_utf8_lossy(&out));
    // Black's move completes the third occurrence, which red could not have avoided: under
    // this ruling red loses at ply 8, and the PGN says so as the judge does.
    assert_eq!(summary.finished[0].termination, "perpetual_check");
    check_against_replay(&pgn, &rules, ChessRules::fide());
}

/// The opening's moves are the game's history: a perpetual check begun in the book is lost as
/// soon as the engines complete it, the engines are given the book moves, and the PGN (from
/// the book's root, its moves `{book}`) replays to the same verdict.
#[test]
fn a_repetition_reaches_back_into_the_book() {
    let d = dir("book-history");
    // The first cycle is the book's.
    let book = CYCLE.iter().map(|m| m.to_string()).collect();
    let Some((cfg, log_red)) = repeaters(&d, book, "perpetual check, one cycle in the book") else {
        return;
    };
    let pgn = d.join("games.pgn");
    let rules = Rules::cxa().at_trigger();
    let summary = run_match(&cfg, |start| XiangqiJudge::new(start, rules.clone()), &mut Vec::new()).unwrap();
    // Without the book as history the engines would have needed two cycles of their own.
    assert_eq!(summary.finished[0].termination, "perpetual_check");
    assert_eq!(summary.plies, 4);
    let told = std::fs::read_to_string(&log_red).unwrap();
    let position = told.lines().find(|l| l.starts_with("position")).unwrap();
    assert!(position.ends_with("moves f5e5 e8f8 e5f5 f8e8"), "{told}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("{book}").count(), 4, "{text}");
    assert!(text.contains(&format!("[FEN \"{REPEAT_FEN}\"]")), "{text}");
    assert!(text.contains("[PlyCount \"8\"]"), "{text}");
    check_against_replay(&pgn, &rules, ChessRules::fide());
}

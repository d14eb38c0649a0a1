//! Point 18: a Xiangqi PGN arbiter writes reads in the Python library cchess (walker8088,
//! `pip install cchess`). Seeded games (advisors and elephants often ending on one file) are
//! written in both styles to `tests/data/cchess/`; `tools/pgn_oracle.py cchess` recorded what
//! cchess read of each (`*.cchess.txt`), and this test checks that reading against the games.
//!
//! What cchess does with the standard style, and why the `cchess` style exists:
//! - its reader stops at the first comment (`{…}`), so a standard record with comments stops
//!   there;
//! - two advisors or two elephants on one file are written without 前/后, as the notation rules
//!   and xqbase write them (进/退 tells them apart); cchess takes the first of the two without
//!   asking whether it can make the move, and stops when it cannot;
//! - with two pawns on a file it takes 前/后 among all of the side's pawns on the board, so it
//!   misreads or stops there in either style (a cchess limitation; ICCS avoids it).

use std::path::PathBuf;

use records::pgn::{write_pgn_styled, PgnStyle};
use records::{MoveTree, XiangqiRecord};
use xiangqi::notation::Notation;
use xiangqi::{Fen, Move, Position, Role};

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/cchess")
        .join(name)
}

/// Forty seeded games of up to 60 plies, advisor and elephant moves chosen whenever one is
/// legal (so that two often stand on one file), each game with a comment on its fiftieth ply.
fn games() -> Vec<XiangqiRecord> {
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    (0..40)
        .map(|g| {
            let mut record = XiangqiRecord::new(Fen::START);
            record.tags.push("Event", "cchess fixture");
            record.tags.push("Round", &(g + 1).to_string());
            record.tags.push("Result", "*");
            let mut pos = Position::start();
            let mut node = MoveTree::<Move>::ROOT;
            for ply in 0..60 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let defenders: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| {
                        let role = pos.board().piece_at(m.from).map(|p| p.role);
                        matches!(role, Some(Role::Advisor | Role::Elephant)) && !pos.is_capture(*m)
                    })
                    .collect();
                let m = if !defenders.is_empty() && next(3) > 0 {
                    defenders[next(defenders.len())]
                } else {
                    moves.as_slice()[next(moves.len())]
                };
                node = record.tree.add_child(node, m);
                if ply == 49 {
                    record.tree.set_comment(node, "a comment");
                }
                pos.play_unchecked(m);
            }
            record
        })
        .collect()
}

fn write(games: &[XiangqiRecord], style: PgnStyle) -> String {
    let mut text = String::new();
    for g in games {
        write_pgn_styled(g, Notation::Chinese, style, &mut text).unwrap();
        text.push('\n');
    }
    text
}

/// cchess's reading of a file: per game, the ICCS moves it read.
fn oracle(name: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(data(name)).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f[0], "game");
            let moves: Vec<String> = f[3].split_whitespace().map(str::to_string).collect();
            assert_eq!(moves.len(), f[2].parse::<usize>().unwrap(), "{l}");
            moves
        })
        .collect()
}

/// Where in a game cchess may stop, by ply: after the comment, at a tandem advisor or
/// elephant move (in the standard style), at a tandem pawn move.
#[derive(Debug, Default)]
struct Stops {
    comment: Option<usize>,
    defender_plies: Vec<usize>,
    pawn_plies: Vec<usize>,
}

fn stops(g: &XiangqiRecord) -> Stops {
    let mut s = Stops::default();
    let mut pos = Position::start();
    for (ply, (id, &m)) in g.tree.main_line_nodes().zip(g.tree.main_line()).enumerate() {
        let piece = pos.board().piece_at(m.from).unwrap();
        let twin = pos
            .board()
            .pieces()
            .any(|(sq, p)| p == piece && sq != m.from && sq.file() == m.from.file());
        match piece.role {
            Role::Advisor | Role::Elephant if twin => s.defender_plies.push(ply),
            Role::Pawn if twin => s.pawn_plies.push(ply),
            _ => {}
        }
        if g.tree.comment(id).is_some() {
            // The comment follows the move: cchess has read it.
            s.comment.get_or_insert(ply + 1);
        }
        pos.play_unchecked(m);
    }
    s
}

fn iccs(g: &XiangqiRecord) -> Vec<String> {
    g.tree
        .main_line()
        .map(|&m| {
            Notation::Iccs
                .write(&Position::start(), m)
                .to_ascii_lowercase()
                .replace('-', "")
        })
        .collect()
}

#[test]
fn point_18_cchess_reads_the_cchess_style_whole_and_stops_where_the_standard_style_says() {
    let games = games();
    let standard = write(&games, PgnStyle::Standard);
    let cchess = write(&games, PgnStyle::Cchess);
    // `ARBITER_WRITE_FIXTURES=1` writes the games anew (then run tools/pgn_oracle.py cchess).
    if std::env::var_os("ARBITER_WRITE_FIXTURES").is_some() {
        std::fs::write(data("standard.pgn"), &standard).unwrap();
        std::fs::write(data("cchess.pgn"), &cchess).unwrap();
    }
    assert_eq!(standard, std::fs::read_to_string(data("standard.pgn")).unwrap());
    assert_eq!(cchess, std::fs::read_to_string(data("cchess.pgn")).unwrap());
    assert!(!cchess.contains('{'), "the cchess style writes no comments");

    let read_standard = oracle("standard.pgn.cchess.txt");
    let read_cchess = oracle("cchess.pgn.cchess.txt");
    assert_eq!((read_standard.len(), read_cchess.len()), (games.len(), games.len()));
    let (mut whole, mut defenders, mut pawns) = (0, 0, 0);
    for (i, g) in games.iter().enumerate() {
        let ours = iccs(g);
        let s = stops(g);
        // cchess style: read whole, unless a tandem pawn move stops it (or it misread one:
        // it then read our moves up to that move, and something else after).
        let got = &read_cchess[i];
        match s.pawn_plies.first().copied() {
            None => {
                assert_eq!(got, &ours, "game {}: cchess style not read whole", i + 1);
                whole += 1;
            }
            Some(p) => {
                assert!(got.len() >= p && got[..p] == ours[..p], "game {}: {got:?}", i + 1);
                pawns += 1;
            }
        }
        // Standard style: a prefix of the game, cut at the comment or at a plain tandem
        // advisor or elephant move (cchess reads one when the first of the two it tries is
        // the one that moves) or a tandem pawn move.
        let got = &read_standard[i];
        assert!(
            got.len() <= ours.len() && got[..] == ours[..got.len()],
            "game {}: {got:?}",
            i + 1
        );
        let at = got.len();
        if s.defender_plies.contains(&at) {
            defenders += 1;
        } else {
            assert!(
                s.comment == Some(at) || s.pawn_plies.contains(&at),
                "game {}: cchess stopped at ply {at}, neither a comment nor a tandem move",
                i + 1
            );
        }
    }
    // The fixture shows all three: games read whole, stops at a plain tandem advisor or
    // elephant move in the standard style, tandem pawns.
    assert!(
        whole >= 30 && defenders >= 20,
        "{whole} whole, {defenders} at an advisor/elephant, {pawns} at pawns"
    );
}

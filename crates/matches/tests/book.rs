//! Matches from an opening book: each game's PGN starts at the book's root with the book's
//! moves marked `{book}`, and every engine move carries a fastchess comment.

use std::path::Path;

use engine::EngineConfig;
use judge::chess::{ChessJudge, ChessRules};
use judge::xiangqi::{Rules, XiangqiJudge};
use matches::runner::{run_match, Entrant, Start};
use records::files::{read_file, AnyRecord};

#[path = "../../engine/tests/common/mod.rs"]
mod common;
mod support;
use common::find;
use support::{check_against_replay, config, dir, fairy_config, nodes, pgn_tags, report};

/// The movetext of each game of a PGN file (after its tags), in file order.
fn movetexts(pgn: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(pgn).unwrap();
    text.split("[Event ")
        .skip(1)
        .map(|game| {
            game.lines()
                .skip_while(|l| !l.is_empty())
                .collect::<Vec<_>>()
                .join("\n")
                .trim()
                .to_string()
        })
        .collect()
}

/// Whether `c` is an engine move's comment as fastchess writes it: `+0.31/9 0.105s`,
/// `-M4/20 1.000s`, `/0 0.002s` (no score), then `, key=value` fields.
fn engine_comment(c: &str) -> bool {
    let head = c.split(", ").next().unwrap();
    let Some((score, rest)) = head.split_once('/') else {
        return false;
    };
    let Some((depth, time)) = rest.split_once(' ') else {
        return false;
    };
    let score_ok = score.is_empty()
        || score == "0.00"
        || (score.len() > 1
            && (score.starts_with('+') || score.starts_with('-'))
            && (score[1..].strip_prefix('M').is_some_and(|p| p.parse::<u32>().is_ok())
                || score[1..]
                    .split_once('.')
                    .is_some_and(|(a, b)| a.parse::<u32>().is_ok() && b.len() == 2 && b.parse::<u32>().is_ok())));
    let time_ok = time
        .strip_suffix('s')
        .and_then(|t| t.split_once('.'))
        .is_some_and(|(a, b)| a.parse::<u64>().is_ok() && b.len() == 3);
    score_ok && depth.parse::<u32>().is_ok() && time_ok
}

/// Checks the match PGN against the book it was played from: every game starts at its
/// opening's root (FEN tag only off the standard start), has the opening's moves marked
/// `{book}` and the engines' after them each with a `{score/depth time}` comment, counts all
/// of them in PlyCount, and replays with the judge to the recorded verdict.
fn check_book_games(pgn: &Path, kind: game::Kind, book: &[matches::openings::Opening], games: usize) {
    let tags = pgn_tags(pgn);
    let texts = movetexts(pgn);
    assert_eq!(tags.len(), games);
    let (_, records) = read_file(pgn).unwrap();
    for (i, (g, (tags, text))) in records.zip(tags.iter().zip(&texts)).enumerate() {
        let g = g.unwrap();
        let round: usize = tags["Round"].parse().unwrap();
        // Two engines: the pair of games of an encounter shares its round and its opening.
        let opening = &book[(round - 1) % book.len()];
        let (root, main_line) = match &g {
            AnyRecord::Xiangqi(r) => {
                let root = records::pgn::start_position(r);
                let mut pos = root.clone();
                let coords: Vec<String> = r
                    .tree
                    .main_line()
                    .map(|&m| {
                        let c = game::Game::coordinate(&pos, m);
                        game::Game::play(&mut pos, m);
                        c
                    })
                    .collect();
                (game::Game::fen(&root), coords)
            }
            AnyRecord::Chess(r) => {
                let start = records::chess::start_position(r);
                let root = chess::Position::new(start, chess::shakmaty::CastlingMode::Standard);
                let mut pos = root.clone();
                let coords: Vec<String> = r
                    .tree
                    .main_line()
                    .map(|&m| {
                        let c = game::Game::coordinate(&pos, m);
                        game::Game::play(&mut pos, m);
                        c
                    })
                    .collect();
                (game::Game::fen(&root), coords)
            }
        };
        let expected_root = match kind {
            game::Kind::Xiangqi => game::Game::fen(&opening.start::<xiangqi::Position>().unwrap()),
            game::Kind::Chess => game::Game::fen(&opening.start::<chess::Position>().unwrap()),
        };
        assert_eq!(
            root,
            expected_root,
            "game {}: the record starts at the book's root",
            i + 1
        );
        assert_eq!(
            tags.contains_key("FEN"),
            opening.fen.is_some(),
            "game {}: FEN tag only off the standard start",
            i + 1
        );
        assert!(main_line.len() >= opening.moves.len(), "game {}", i + 1);
        assert_eq!(
            main_line[..opening.moves.len()],
            opening.moves[..],
            "game {}: the book moves",
            i + 1
        );
        let plies: usize = tags["PlyCount"].parse().unwrap();
        assert_eq!(plies, main_line.len(), "game {}: PlyCount", i + 1);
        for key in [
            "GameDuration",
            "GameStartTime",
            "GameEndTime",
            "TimeControl",
            "Termination",
        ] {
            assert!(tags.contains_key(key), "game {}: no {key}", i + 1);
        }
        let flat = text.replace('\n', " ");
        let comments: Vec<&str> = flat.split('{').skip(1).map(|c| c.split_once('}').unwrap().0).collect();
        let book_marks = comments.iter().filter(|c| **c == "book").count();
        let engine_marks = comments.iter().filter(|c| engine_comment(c)).count();
        assert_eq!(book_marks, opening.moves.len(), "game {}: {text}", i + 1);
        assert_eq!(
            engine_marks,
            plies - opening.moves.len(),
            "game {}: a comment per engine move: {text}",
            i + 1
        );
        assert!(
            text.lines().all(|l| l.chars().count() <= 80 || !l.contains(' ')),
            "game {}: movetext lines within 80 columns: {text}",
            i + 1
        );
    }
}

/// A match from a PGN book with moves (and one from a FEN with moves): each record starts at
/// the book's root, carries the book moves as `{book}` and a fastchess comment on every engine
/// move, and replays with the judge to the verdict the referee gave live (which knew the book
/// moves as the game's history).
#[test]
fn the_pgn_starts_at_the_books_root_with_its_moves() {
    let Some(fairy) = find("fairy-stockfish") else { return };
    let Some(sf) = find("stockfish") else { return };
    let d = dir("book");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/openings");
    let starts = |book: &[matches::openings::Opening]| -> Vec<Start> {
        book.iter()
            .map(|o| Start {
                fen: o.fen.clone(),
                moves: o.moves.clone(),
                source: o.source.clone(),
            })
            .collect()
    };

    let book = matches::openings::read_openings(game::Kind::Xiangqi, &data.join("xiangqi.pgn")).unwrap();
    assert!(book.iter().any(|o| o.fen.is_some() && !o.moves.is_empty()));
    let pgn = d.join("xiangqi.pgn");
    let entrant = |name: &str| Entrant {
        config: fairy_config(name, &fairy),
        control: nodes(2000),
    };
    let mut cfg = config(vec![entrant("a"), entrant("b")], 2 * book.len() as u32, &pgn);
    cfg.openings = starts(&book);
    cfg.adjudication.max_moves = Some(40);
    let rules = Rules::cxa();
    let summary = run_match(&cfg, |start| XiangqiJudge::new(start, rules.clone()), &mut Vec::new()).unwrap();
    report(&summary, &cfg);
    check_book_games(&pgn, game::Kind::Xiangqi, &book, 2 * book.len());
    check_against_replay(&pgn, &rules, ChessRules::fide());
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("[TimeControl \"-\"]"), "{text}");
    assert!(text.contains("1. 炮二平五 {book}"), "{text}");
    assert!(
        text.contains("[Round \"1\"]") && text.contains("[Round \"2\"]"),
        "{text}"
    );

    let book = matches::openings::read_openings(game::Kind::Chess, &data.join("chess.pgn")).unwrap();
    let pgn = d.join("chess.pgn");
    let entrant = |name: &str| {
        let mut c = EngineConfig::new(name, &sf);
        c.options = vec![("Hash".into(), "16".into())];
        Entrant {
            config: c,
            control: nodes(2000),
        }
    };
    let mut cfg = config(vec![entrant("a"), entrant("b")], 2 * book.len() as u32, &pgn);
    cfg.openings = starts(&book);
    cfg.adjudication.max_moves = Some(30);
    cfg.pgn.nodes = true;
    let summary = run_match(
        &cfg,
        |start| ChessJudge::new(start, ChessRules::fide()),
        &mut Vec::new(),
    )
    .unwrap();
    report(&summary, &cfg);
    check_book_games(&pgn, game::Kind::Chess, &book, 2 * book.len());
    check_against_replay(&pgn, &Rules::cxa(), ChessRules::fide());
    let text = std::fs::read_to_string(&pgn).unwrap();
    // After a comment the second player's move carries its number, as the export format asks.
    assert!(text.contains("1. e4 {book} 1... e5 {book} 2. Nf3 {book}"), "{text}");
    assert!(text.contains(", n="), "{text}");
    println!("{text}");
}

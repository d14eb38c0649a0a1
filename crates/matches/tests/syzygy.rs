//! Syzygy adjudication: the probe against python-chess's (the oracle's) WDL and DTZ of the
//! same tables on a few hundred positions (tests/data/syzygy_oracle.txt, made by
//! tools/syzygy_fixture.py from the tables in tests/syzygy/), and Stockfish matches from
//! tablebase positions that end `adjudicated_tablebase` (`SKIPPED:` without Stockfish).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use chess::shakmaty::fen::Fen;
use chess::shakmaty::{CastlingMode, Chess, Color, Position as _};
use engine::EngineConfig;
use judge::chess::{ChessJudge, ChessRules};
use matches::play::{Adjudication, Control};
use matches::runner::{run_match, Entrant, MatchConfig, Start};
use matches::syzygy::{Syzygy, TbResults};
use records::files::{read_file, AnyRecord};

#[path = "../../engine/tests/common/mod.rs"]
mod common;
use common::find;

fn tables() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/syzygy")
}

fn open(results: TbResults, ignore50: bool) -> Syzygy {
    Syzygy::open(&[tables()], None, results, ignore50).unwrap()
}

fn position(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

struct Line {
    fen: String,
    wdl: i32,
    dtz: i32,
    /// `None`: open to the oracle (DTZ rounding).
    value50: Option<i32>,
}

fn oracle() -> Vec<Line> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/syzygy_oracle.txt");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split(';').collect();
            Line {
                fen: f[0].to_string(),
                wdl: f[1].parse().unwrap(),
                dtz: f[2].parse().unwrap(),
                value50: (f[3] != "?").then(|| f[3].parse().unwrap()),
            }
        })
        .collect()
}

fn winner(pos: &Chess, sign: i32) -> Option<Color> {
    match sign {
        1 => Some(pos.turn()),
        -1 => Some(!pos.turn()),
        _ => None,
    }
}

#[test]
fn the_probe_agrees_with_python_chess_on_every_oracle_position() {
    let fifty = open(TbResults::Both, false);
    let ignoring = open(TbResults::Both, true);
    let lines = oracle();
    assert!(lines.len() >= 300, "{} lines", lines.len());
    let (mut flipped, mut open_lines, mut settled) = (0, 0, 0);
    for l in &lines {
        let pos = position(&l.fen);
        let what = format!("{} (wdl {}, dtz {}, value50 {:?})", l.fen, l.wdl, l.dtz, l.value50);
        // Without the 50-move rule: the sign of WDL, whatever the clock.
        let v = ignoring.probe(&pos).unwrap_or_else(|| panic!("no verdict for {what}"));
        assert_eq!(v.winner, winner(&pos, l.wdl.signum()), "--tbignore50: {what}");
        assert_eq!(v.cursed, l.wdl.abs() == 1, "{what}");
        // With it: the oracle's value under the clock.
        let got = fifty.probe(&pos);
        match l.value50 {
            Some(value) => {
                let v = got.unwrap_or_else(|| panic!("no verdict for {what}"));
                assert_eq!(v.winner, winner(&pos, value), "{what}: {v:?}");
                let saved = (value == 0 && l.wdl != 0).then(|| winner(&pos, l.wdl.signum()).unwrap());
                assert_eq!(v.saved_by_fifty, saved, "{what}: {v:?}");
                if saved.is_some() {
                    flipped += 1;
                    assert!(
                        v.explanation().contains("draw by the 50-move rule"),
                        "{}",
                        v.explanation()
                    );
                }
            }
            None => {
                // Open to the oracle: our answer (exact, from the DTZ's precision and a search,
                // or none) must be one of the two the oracle allows.
                open_lines += 1;
                if let Some(v) = got {
                    settled += 1;
                    let decisive = winner(&pos, l.wdl.signum());
                    assert!(
                        v.winner == decisive || (v.winner.is_none() && v.saved_by_fifty == decisive),
                        "{what}: {v:?}"
                    );
                }
            }
        }
    }
    println!(
        "{} oracle positions: {flipped} wins or losses drawn by the clock, {open_lines} open to the oracle ({settled} settled here)",
        lines.len()
    );
    assert!(flipped >= 20, "the fixture should have wins the clock turns into draws");
}

#[test]
fn explanations_piece_limits_and_result_filters() {
    let tb = open(TbResults::Both, false);
    assert_eq!(tb.max_pieces(), 4);
    assert_eq!(tb.pieces(), 4);
    // KRvK, white to move, just after a capture.
    let krk = position("8/8/8/4k3/8/8/8/R3K3 w - - 0 1");
    let v = tb.probe(&krk).unwrap();
    assert_eq!(v.winner, Some(Color::White));
    assert_eq!(v.explanation(), "adjudicated by Syzygy tablebases: KRvK, White wins");
    // The same with 95 plies gone: the mate is too far for the 50-move rule.
    let late = position("8/8/8/4k3/8/8/8/R3K3 w - - 95 60");
    let v = tb.probe(&late).unwrap();
    assert_eq!((v.winner, v.saved_by_fifty), (None, Some(Color::White)));
    assert_eq!(
        v.explanation(),
        "adjudicated by Syzygy tablebases: KRvK, draw by the 50-move rule (White would win without it)"
    );
    let v = open(TbResults::Both, true).probe(&late).unwrap();
    assert_eq!(v.winner, Some(Color::White));
    // Black's rook.
    let v = tb.probe(&position("8/8/8/4k3/8/8/8/r3K3 w - - 0 1")).unwrap();
    assert_eq!(v.explanation(), "adjudicated by Syzygy tablebases: KvKR, Black wins");
    let draw = position("8/8/2k5/r7/8/8/5R2/5K2 w - - 0 1");
    assert_eq!(
        tb.probe(&draw).unwrap().explanation(),
        "adjudicated by Syzygy tablebases: KRvKR, draw"
    );
    // --tbadjudicate.
    let wins = open(TbResults::WinLoss, false);
    let draws = open(TbResults::Draw, false);
    assert!(wins.adjudicate(&krk).is_some() && wins.adjudicate(&draw).is_none());
    assert!(draws.adjudicate(&krk).is_none() && draws.adjudicate(&draw).is_some());
    assert!(wins.adjudicate(&late).is_none() && draws.adjudicate(&late).is_some());
    // --tbpieces 3: four men are not probed.
    let three = Syzygy::open(&[tables()], Some(3), TbResults::Both, false).unwrap();
    assert!(three.probe(&draw).is_none() && three.probe(&krk).is_some());
    // Too many men, castling rights, a missing table: no verdict.
    assert!(tb.probe(&Chess::default()).is_none());
    assert!(tb.probe(&position("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")).is_none());
    assert!(
        tb.probe(&position("4k3/8/8/8/8/8/8/2B1K1B1 w - - 0 1")).is_none(),
        "no KBBvK table"
    );
}

#[test]
fn unreadable_or_empty_table_directories_are_errors() {
    let missing = PathBuf::from("/nonexistent/syzygy");
    let e = Syzygy::open(&[tables(), missing], None, TbResults::Both, false).unwrap_err();
    assert!(e.contains("cannot read Syzygy tables in /nonexistent/syzygy"), "{e}");
    let empty = std::env::temp_dir().join(format!("arbiter-syzygy-empty-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let e = Syzygy::open(std::slice::from_ref(&empty), None, TbResults::Both, false).unwrap_err();
    assert!(e.contains("no Syzygy tables"), "{e}");
    let _ = std::fs::remove_dir_all(&empty);
    assert_eq!(
        matches::syzygy::split_dirs("/a:/b;/c"),
        vec![PathBuf::from("/a"), PathBuf::from("/b"), PathBuf::from("/c")]
    );
    assert!("WIN_LOSS".parse::<TbResults>().is_ok() && "wins".parse::<TbResults>().is_err());
}

/// Stockfish plays from tablebase positions: every game ends `adjudicated_tablebase` after the
/// first move, with the result the tables give for the position the PGN ends in.
#[test]
fn stockfish_games_from_tablebase_positions_end_by_the_tables() {
    let Some(sf) = find("stockfish") else { return };
    let d = std::env::temp_dir().join(format!("arbiter-syzygy-match-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let pgn = d.join("games.pgn");
    let entrant = |name: &str| {
        let mut c = EngineConfig::new(name, &sf);
        c.options = vec![("Hash".into(), "16".into())];
        Entrant {
            config: c,
            control: Control {
                nodes: Some(2000),
                ..Control::default()
            },
        }
    };
    // (FEN, the result of both games of the pair: the same side wins whoever plays it)
    let openings = [
        ("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", "1-0"),
        ("8/8/8/3k4/8/8/8/3QK3 b - - 0 1", "1-0"),
        ("8/8/2k5/r7/8/8/5R2/5K2 w - - 0 1", "1/2-1/2"),
        ("4k3/8/8/8/8/8/r7/4K3 b - - 0 1", "0-1"),
        // A won KRvK with 95 plies since the last capture: drawn by the 50-move rule.
        ("8/8/8/4k3/8/8/8/R3K3 w - - 95 60", "1/2-1/2"),
    ];
    let cfg = MatchConfig {
        engines: vec![entrant("sf-a"), entrant("sf-b")],
        games: 2 * openings.len() as u32,
        concurrency: 2,
        openings: openings
            .iter()
            .map(|(fen, _)| Start {
                fen: Some(fen.to_string()),
                moves: Vec::new(),
                source: fen.to_string(),
            })
            .collect(),
        adjudication: Adjudication {
            tablebase: Some(Arc::new(open(TbResults::Both, false))),
            ..Adjudication::default()
        },
        pgn_out: Some(pgn.clone()),
        event: "syzygy".into(),
        progress: true,
        ..MatchConfig::default()
    };
    let mut out = Vec::new();
    let summary = run_match(&cfg, |start| ChessJudge::new(start, ChessRules::fide()), &mut out).unwrap();
    println!("{}", String::from_utf8_lossy(&out));
    assert_eq!(summary.finished.len(), 2 * openings.len());
    for f in &summary.finished {
        let (fen, result) = openings[(f.number as usize - 1) / 2];
        assert_eq!(f.termination, "adjudicated_tablebase", "game {} from {fen}", f.number);
        assert_eq!(f.result, result, "game {} from {fen}", f.number);
    }
    // The PGN: Termination the standard's `adjudication`, the code and explanation in
    // TerminationDetails, and the result is the tables' for the position after the last move
    // (one move each game).
    let tb = open(TbResults::Both, false);
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(
        text.matches("[Termination \"adjudication\"]").count(),
        2 * openings.len()
    );
    // Movetext is wrapped at 80 columns: the comments may run over a line break.
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "[TerminationDetails \"adjudicated_tablebase: adjudicated by Syzygy tablebases: KRvK, White wins\"]"
        ),
        "{text}"
    );
    assert!(
        flat.contains("draw by the 50-move rule (White would win without it)\"]"),
        "{text}"
    );
    let (_, games) = read_file(&pgn).unwrap();
    let mut n = 0;
    for g in games {
        let AnyRecord::Chess(r) = g.unwrap() else {
            panic!("not chess")
        };
        let mut pos = records::chess::start_position(&r);
        let moves: Vec<_> = r.tree.main_line().copied().collect();
        assert_eq!(moves.len(), 1, "adjudicated after the first move");
        for m in moves {
            pos.play_unchecked(m);
        }
        let v = tb.probe(&pos).unwrap();
        let expected = match v.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        };
        assert_eq!(r.tags.get("Result").unwrap().to_string(), expected);
        n += 1;
    }
    assert_eq!(n, 2 * openings.len());
    let _ = std::fs::remove_dir_all(&d);
}

//! Fixed time a move (`st`, `go movetime`): an engine that uses its whole time, as engines do,
//! is not flagged; one that answers later than its time and the margin is.

use std::path::Path;

use judge::chess::ChessJudge;
use judge::xiangqi::{Rules, XiangqiJudge};
use matches::play::Control;
use matches::runner::{run_match, Entrant, MatchConfig};

#[path = "../../engine/tests/common/mod.rs"]
mod common;
use common::{fake, find};

fn config(engines: Vec<Entrant>, games: u32, pgn: &Path) -> MatchConfig {
    MatchConfig {
        engines,
        games,
        pgn_out: Some(pgn.to_path_buf()),
        ..MatchConfig::default()
    }
}

fn dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("arbiter-time-tests-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn fixed(ms: u64, margin: u64) -> Control {
    Control {
        movetime: Some(ms),
        margin,
        ..Control::default()
    }
}

/// Horses out and back: a position repeats, and the game is drawn by the rules.
const SHUFFLE: [&str; 8] = ["h0g2", "h9g7", "b0c2", "b9c7", "g2h0", "g7h9", "c2b0", "c7b9"];

/// Fake engines that think for all of their 100 ms (`--think`) and a millisecond or so of
/// pipes and scheduling more, within the margin (wide, for a loaded machine): the clock
/// charges the game's time in whole milliseconds, and a move a fraction of a millisecond past
/// its time used to be flagged once the fractions added up (within a few plies), whatever the
/// margin.
#[test]
fn point_13_fixed_time_moves_are_not_lost_on_time() {
    let mut args = vec!["--think"];
    args.extend(SHUFFLE);
    let (Some(a), Some(b)) = (fake("a", "uci.py", &args), fake("b", "uci.py", &args)) else {
        return;
    };
    let d = dir("fixed");
    let engines = vec![
        Entrant {
            config: a,
            control: fixed(100, 1000),
        },
        Entrant {
            config: b,
            control: fixed(100, 1000),
        },
    ];
    let cfg = config(engines, 4, &d.join("games.pgn"));
    let s = run_match(&cfg, |start| XiangqiJudge::new(start, Rules::cxa()), &mut Vec::new()).unwrap();
    assert_eq!(s.finished.len(), 4);
    for f in &s.finished {
        assert_ne!(f.termination, "time", "{:?}", s.finished);
        assert_eq!(f.result, "1/2-1/2", "{:?}", s.finished);
    }
    assert!(s.plies >= 4 * 8, "{} plies", s.plies);
}

/// The other side of point 13: an engine that answers 300 ms after its 100 ms, with a 100 ms
/// margin, loses on time at its first move.
#[test]
fn point_13_a_move_past_its_time_and_the_margin_loses() {
    let mut late = vec!["--think", "300"];
    late.extend(SHUFFLE);
    let mut on_time = vec!["--think"];
    on_time.extend(SHUFFLE);
    let (Some(a), Some(b)) = (fake("a", "uci.py", &on_time), fake("b", "uci.py", &late)) else {
        return;
    };
    let d = dir("late");
    let engines = vec![
        Entrant {
            config: a,
            control: fixed(100, 100),
        },
        Entrant {
            config: b,
            control: fixed(100, 100),
        },
    ];
    let cfg = config(engines, 2, &d.join("games.pgn"));
    let s = run_match(&cfg, |start| XiangqiJudge::new(start, Rules::cxa()), &mut Vec::new()).unwrap();
    for f in &s.finished {
        assert_eq!(f.termination, "time", "{:?}", s.finished);
        let late_is_first = f.first == "b";
        assert_eq!(f.result, if late_is_first { "0-1" } else { "1-0" }, "{:?}", s.finished);
    }
}

/// Stockfish at `st=0.1` (chess) and Fairy-Stockfish (Xiangqi) with `timemargin=500`, as in
/// the report: no game is lost on time.
#[test]
fn point_13_real_engines_at_a_fixed_time_a_move_keep_their_time() {
    let (Some(sf), Some(fsf)) = (find("stockfish"), find("fairy-stockfish")) else {
        return;
    };
    let d = dir("real");
    let mut chess = config(
        vec![
            Entrant {
                config: engine::EngineConfig::new("a", &sf),
                control: fixed(100, 500),
            },
            Entrant {
                config: engine::EngineConfig::new("b", &sf),
                control: fixed(100, 500),
            },
        ],
        2,
        &d.join("chess.pgn"),
    );
    chess.adjudication.max_moves = Some(15);
    let s = run_match(
        &chess,
        |start| ChessJudge::new(start, judge::chess::ChessRules::fide()),
        &mut Vec::new(),
    )
    .unwrap();
    assert!(s.finished.iter().all(|f| f.termination != "time"), "{:?}", s.finished);
    let fairy = |name: &str| {
        let mut c = engine::EngineConfig::new(name, &fsf);
        c.coordinates = engine::Coordinates::Fsf;
        c
    };
    let mut xiangqi = config(
        vec![
            Entrant {
                config: fairy("a"),
                control: fixed(100, 500),
            },
            Entrant {
                config: fairy("b"),
                control: fixed(100, 500),
            },
        ],
        2,
        &d.join("xiangqi.pgn"),
    );
    xiangqi.adjudication.max_moves = Some(15);
    let s = run_match(
        &xiangqi,
        |start| XiangqiJudge::new(start, Rules::cxa()),
        &mut Vec::new(),
    )
    .unwrap();
    assert!(s.finished.iter().all(|f| f.termination != "time"), "{:?}", s.finished);
}

//! What an engine plays is asked of the engine before a match: a chess engine is not played as
//! a Xiangqi one (point 14), and Fairy-Stockfish's ranks 1–10 are found from the engine itself,
//! whatever its command is called (point 15).

use std::path::{Path, PathBuf};

use engine::{Coordinates, EngineConfig, XiangqiEngine};
use judge::xiangqi::{Rules, XiangqiJudge};
use matches::play::{Adjudication, Control};
use matches::runner::{run_match, Entrant, MatchConfig, MatchError};

#[path = "../../engine/tests/common/mod.rs"]
mod common;
use common::{fake, find};

fn config(a: EngineConfig, b: EngineConfig, pgn: &Path) -> MatchConfig {
    let control = Control {
        nodes: Some(500),
        ..Control::default()
    };
    MatchConfig {
        engines: vec![
            Entrant {
                config: a,
                control: control.clone(),
            },
            Entrant { config: b, control },
        ],
        adjudication: Adjudication {
            max_moves: Some(10),
            ..Adjudication::default()
        },
        pgn_out: Some(pgn.to_path_buf()),
        ..MatchConfig::default()
    }
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("arbiter-detect-tests-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn xiangqi(cfg: &MatchConfig) -> Result<matches::runner::Summary, MatchError> {
    run_match(cfg, |start| XiangqiJudge::new(start, Rules::cxa()), &mut Vec::new())
}

/// Engines that answer chess moves are refused before a Xiangqi match, with the option that
/// plays chess named; no game is played.
#[test]
fn point_14_chess_engines_are_not_played_as_xiangqi() {
    let (Some(a), Some(b)) = (
        fake("a", "uci.py", &["e2e4", "e7e5"]),
        fake("b", "uci.py", &["e2e4", "e7e5"]),
    ) else {
        return;
    };
    let d = dir("fake-chess");
    let err = xiangqi(&config(a, b, &d.join("games.pgn"))).unwrap_err().to_string();
    assert!(err.contains("answered the Xiangqi start position with e2e4"), "{err}");
    assert!(err.contains("--game chess"), "{err}");
    // Refused before anything was written.
    assert!(!d.join("games.pgn").exists());
    assert!(!d.join("games.pgn.state.jsonl").exists());

    let Some(sf) = find("stockfish") else { return };
    let cfg = config(
        EngineConfig::new("sf1", &sf),
        EngineConfig::new("sf2", &sf),
        &d.join("sf.pgn"),
    );
    let err = xiangqi(&cfg).unwrap_err().to_string();
    assert!(err.contains("engine sf1 (Stockfish"), "{err}");
    assert!(
        err.contains("It plays chess: for chess engines, add --game chess"),
        "{err}"
    );
}

/// Fairy-Stockfish started through a wrapper script whose path does not say "fairy": its
/// coordinates are found from its UCI_Variant option, and no game is lost by an illegal move.
#[test]
fn point_15_fairy_stockfish_behind_a_wrapper_keeps_its_ranks() {
    let Some(fsf) = find("fairy-stockfish") else { return };
    let d = dir("wrapper");
    let wrapper = d.join("xq-engine.sh");
    std::fs::write(&wrapper, format!("#!/bin/sh\nexec {} \"$@\"\n", fsf.display())).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let mut a = EngineConfig::new("a", &wrapper);
    a.coordinates = Coordinates::Detect;
    let e = XiangqiEngine::start(&a).unwrap();
    assert_eq!(e.coordinates(), Coordinates::Fsf);
    drop(e);
    let mut b = a.clone();
    b.name = "b".into();
    let s = xiangqi(&config(a, b, &d.join("games.pgn"))).unwrap();
    assert_eq!(s.finished.len(), 2);
    assert!(
        s.finished.iter().all(|f| f.termination != "illegal_move"),
        "{:?}",
        s.finished
    );
}

/// An engine whose first move is off by a rank (it counts ranks 1–10 and says nothing) is
/// refused with the setting that reads it.
#[test]
fn point_15_a_move_off_by_a_rank_names_the_coords_setting() {
    // h3e3: the cannon's move in ranks 1-10 (h2e2 in ICCS); h3 is empty in ICCS.
    let (Some(a), Some(b)) = (fake("a", "uci.py", &["h3e3"]), fake("b", "uci.py", &["h3e3"])) else {
        return;
    };
    let d = dir("ranks");
    let err = xiangqi(&config(a, b, &d.join("games.pgn"))).unwrap_err().to_string();
    assert!(err.contains("with h3e3"), "{err}");
    assert!(err.contains("set coords=fsf, for ranks 1-10"), "{err}");
}

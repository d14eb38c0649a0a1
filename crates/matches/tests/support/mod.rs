//! What the match test files share beyond `common` (the engines): a scratch directory, a
//! match of two games per pair, and the check of every recorded ending against the judge's
//! replay of the PGN.
#![allow(dead_code)] // Each test file uses part of it.

use std::path::{Path, PathBuf};

use engine::{Coordinates, EngineConfig};
use judge::chess::{ChessJudge, ChessRules};
use judge::xiangqi::{Rules, XiangqiJudge};
use judge::{final_verdict, Judge, Outcome, Reason};
use matches::play::Control;
use matches::runner::{Entrant, MatchConfig, Start, Summary};
use records::files::{read_file, AnyRecord};

pub fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("arbiter-match-tests-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

pub fn nodes(n: u64) -> Control {
    Control {
        nodes: Some(n),
        ..Control::default()
    }
}

pub fn config(engines: Vec<Entrant>, games: u32, pgn: &Path) -> MatchConfig {
    MatchConfig {
        engines,
        games,
        concurrency: 2,
        pgn_out: Some(pgn.to_path_buf()),
        config_hash: 1,
        progress: true,
        ..MatchConfig::default()
    }
}

pub fn moves_start(moves: &str) -> Start {
    Start {
        fen: None,
        moves: moves.split_whitespace().map(str::to_string).collect(),
        source: moves.to_string(),
    }
}

/// Reason codes the judge gives (the rest are the referee's or the runner's).
pub fn judge_code(code: &str) -> bool {
    Reason::ALL.iter().any(|r| r.code() == code)
}

/// Replays every game of the PGN with the judge and checks that the recorded ending is the
/// judge's: an ending by rule has the judge's result and reason at the last ply; any other
/// ending (time, crash, adjudication) leaves a game the judge has not ended. Returns the
/// terminations.
pub fn check_against_replay(pgn: &Path, rules: &Rules, chess: ChessRules) -> Vec<String> {
    let (_, games) = read_file(pgn).unwrap();
    let mut terminations = Vec::new();
    for (i, g) in games.enumerate() {
        let g = g.unwrap_or_else(|e| panic!("game {}: {e}", i + 1));
        let (tags, verdict, plies, stopped) = match &g {
            AnyRecord::Xiangqi(r) => {
                let mut j = XiangqiJudge::new(records::pgn::start_position(r), rules.clone());
                let mut stopped = None;
                let moves: Vec<_> = r.tree.main_line().copied().collect();
                for &m in &moves {
                    if let Err(e) = j.push(m) {
                        stopped = Some(e.to_string());
                        break;
                    }
                }
                (r.tags.clone(), final_verdict(&j), moves.len(), stopped)
            }
            AnyRecord::Chess(r) => {
                let start = records::chess::start_position(r);
                let pos = chess::Position::new(start, chess::shakmaty::CastlingMode::Standard);
                let mut j = ChessJudge::new(pos, chess);
                let mut stopped = None;
                let moves: Vec<_> = r.tree.main_line().copied().collect();
                for &m in &moves {
                    if let Err(e) = j.push(m) {
                        stopped = Some(e.to_string());
                        break;
                    }
                }
                (r.tags.clone(), final_verdict(&j), moves.len(), stopped)
            }
        };
        assert!(g.issues().is_empty(), "game {}: {:?}", i + 1, g.issues());
        assert_eq!(stopped, None, "game {}: the judge refused a move", i + 1);
        let result = tags.get("Result").unwrap().to_string();
        // arbiter's reason code leads `TerminationDetails`; `Termination` has the standard's word.
        let details = tags.get("TerminationDetails").unwrap();
        let termination = details.split(": ").next().unwrap().to_string();
        assert!(
            [
                "normal",
                "time forfeit",
                "rules infraction",
                "adjudication",
                "abandoned"
            ]
            .contains(&tags.get("Termination").unwrap()),
            "game {}: {:?}",
            i + 1,
            tags.get("Termination")
        );
        assert_ne!(result, "*", "game {}: no result", i + 1);
        // A move that exposes the mover's own king loses (CXA) but is not a legal move to
        // record: the PGN stops before it and names it in the closing comment.
        if judge_code(&termination) && termination != "self_check" {
            assert_eq!(verdict.reason.code(), termination, "game {}: {verdict:?}", i + 1);
            assert_eq!(verdict.result.pgn(), result, "game {}", i + 1);
            assert_eq!(verdict.ply, plies, "game {}: the verdict is at the last ply", i + 1);
        } else {
            assert!(
                verdict.result == Outcome::Ongoing || verdict.claim,
                "game {}: ended by {termination} but the judge says {verdict:?}",
                i + 1
            );
        }
        terminations.push(termination);
    }
    terminations
}

pub fn fairy_config(name: &str, path: &Path) -> EngineConfig {
    let mut c = EngineConfig::new(name, path);
    c.coordinates = Coordinates::Fsf;
    c.options = vec![("Hash".into(), "16".into()), ("Threads".into(), "1".into())];
    c
}

pub fn report(summary: &Summary, config: &MatchConfig) {
    print!("{}", matches::runner::report(summary, config));
}

/// The tags of each game of a PGN file, in file order.
pub fn pgn_tags(pgn: &Path) -> Vec<std::collections::HashMap<String, String>> {
    let text = std::fs::read_to_string(pgn).unwrap();
    text.split("[Event ")
        .skip(1)
        .map(|game| {
            game.lines()
                .filter_map(|l| l.strip_prefix('[')?.strip_suffix("\"]")?.split_once(" \""))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

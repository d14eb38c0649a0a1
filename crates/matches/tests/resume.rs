//! An interrupted match resumes from its state file without playing a game twice.

use judge::chess::ChessRules;
use judge::xiangqi::{Rules, XiangqiJudge};
use matches::runner::{run_match, Entrant};

#[path = "../../engine/tests/common/mod.rs"]
mod common;
mod support;
use common::find;
use support::{check_against_replay, config, dir, fairy_config, moves_start, nodes};

/// A match stopped after some games resumes from its state file: the games already played
/// are not played again, and the total is the match's.
#[test]
fn an_interrupted_match_resumes_without_duplicates() {
    let Some(fairy) = find("fairy-stockfish") else { return };
    let d = dir("resume");
    let pgn = d.join("games.pgn");
    let engines = vec![
        Entrant {
            config: fairy_config("a", &fairy),
            control: nodes(500),
        },
        Entrant {
            config: fairy_config("b", &fairy),
            control: nodes(500),
        },
    ];
    let mut cfg = config(engines, 6, &pgn);
    cfg.openings = vec![
        moves_start("h2e2 h9g7"),
        moves_start("c3c4 c6c5"),
        moves_start("b0c2 b9c7"),
    ];
    cfg.adjudication.max_moves = Some(60);
    cfg.concurrency = 1;
    // The first run stops after 2 games (as if interrupted: an SPRT that decides at once
    // stands in for the interruption here; the CLI test kills the process).
    let mut first = cfg.clone();
    first.games = 2;
    let mut out = Vec::new();
    let s = run_match(&first, |start| XiangqiJudge::new(start, Rules::cxa()), &mut out).unwrap();
    assert_eq!(s.finished.len(), 2);
    // A half-written game after the last counted one is cut off on resuming.
    {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new().append(true).open(&pgn).unwrap();
        f.write_all(b"[Event \"half\"]\n[Round \"3\"]\n").unwrap();
    }
    // Same match identity (the game count is part of the schedule, not the state).
    let mut resumed = cfg.clone();
    resumed.resume = true;
    let mut out = Vec::new();
    let s = run_match(&resumed, |start| XiangqiJudge::new(start, Rules::cxa()), &mut out).unwrap();
    println!("{}", String::from_utf8_lossy(&out));
    assert_eq!(s.finished.len(), 6);
    assert_eq!(s.played, 4);
    assert_eq!(s.tally.trinomial.games(), 6);
    let text = std::fs::read_to_string(&pgn).unwrap();
    let mut rounds: Vec<u32> = text
        .lines()
        .filter_map(|l| l.strip_prefix("[Round \""))
        .map(|r| r.trim_end_matches("\"]").parse().unwrap())
        .collect();
    rounds.sort();
    // Round as fastchess numbers it: the two games of an encounter share one.
    assert_eq!(rounds, [1, 1, 2, 2, 3, 3]);
    assert!(!text.contains("half"));
    check_against_replay(&pgn, &Rules::cxa(), ChessRules::fide());
    // Another match's state is refused.
    let mut other = resumed.clone();
    other.config_hash = 2;
    assert!(run_match(&other, |start| XiangqiJudge::new(start, Rules::cxa()), &mut Vec::new()).is_err());
}

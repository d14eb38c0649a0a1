//! A match with an SPRT stops at the decision: the games still being played then are not
//! played out, counted or written (point 16).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use judge::xiangqi::{Rules, XiangqiJudge};
use matches::play::Control;
use matches::runner::{run_match, Entrant, MatchConfig};
use ratings::sprt::{Model, Pentanomial, Sprt, Status};

#[path = "../../engine/tests/common/mod.rs"]
mod common;
use common::fake;

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("arbiter-sprt-tests-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const SPRT: Sprt = Sprt {
    elo0: 0.0,
    elo1: 10.0,
    alpha: 0.05,
    beta: 0.05,
    model: Model::Normalized,
};

fn config(engines: Vec<Entrant>, concurrency: usize, pgn: &Path) -> MatchConfig {
    MatchConfig {
        engines,
        games: 200,
        concurrency,
        pgn_out: Some(pgn.to_path_buf()),
        sprt: Some(SPRT),
        ..MatchConfig::default()
    }
}

/// An engine that wins every game against one that dies at once: the SPRT accepts H1 after
/// the first `n` pairs whose score decides it, and the match has those `2n` games (with two
/// slots, at most the one game already under way beside them), in the summary and in the PGN.
#[test]
fn point_16_the_match_stops_at_the_sprt_decision() {
    let mut pairs = Pentanomial::default();
    let decided_at = (1..200)
        .find(|_| {
            pairs.add_pair(1.0, 1.0);
            SPRT.status(&pairs) != Status::Continue
        })
        .unwrap();
    for concurrency in [1, 2] {
        let (Some(good), Some(dies)) = (fake("good", "uci.py", &[]), fake("dies", "exit.py", &[])) else {
            return;
        };
        let d = dir(&format!("c{concurrency}"));
        let pgn = d.join("games.pgn");
        let control = Control {
            movetime: Some(200),
            ..Control::default()
        };
        let engines = vec![
            Entrant {
                config: good,
                control: control.clone(),
            },
            Entrant { config: dies, control },
        ];
        let cfg = config(engines, concurrency, &pgn);
        let s = run_match(&cfg, |start| XiangqiJudge::new(start, Rules::cxa()), &mut Vec::new()).unwrap();
        assert_eq!(s.sprt.map(|(_, st)| st), Some(Status::AcceptH1));
        // With two slots, the next pair's first game may already be under way on the other
        // slot when the deciding pair ends, and a game against an engine that dies at once can
        // finish before the decision is taken: at most one game more, never a pair more.
        let played = s.finished.len();
        let extra = if concurrency == 1 { 0 } else { 1 };
        assert!(
            (2 * decided_at..=2 * decided_at + extra).contains(&played),
            "concurrency {concurrency}: {played} games, decided after {}",
            2 * decided_at
        );
        let text = std::fs::read_to_string(&pgn).unwrap();
        assert_eq!(text.matches("[Event ").count(), played, "concurrency {concurrency}");
    }
}

/// The match stops when the SPRT decides: an engine that wins every game against one that
/// crashes at once is accepted as stronger long before the games run out.
#[test]
fn the_sprt_stops_the_match() {
    let Some(good) = fake("good", "uci.py", &[]) else {
        return;
    };
    let Some(dies) = fake("dies", "exit.py", &[]) else {
        return;
    };
    let d = dir("stops");
    let control = Control {
        movetime: Some(200),
        ..Control::default()
    };
    let mut cfg = config(
        vec![
            Entrant {
                config: good,
                control: control.clone(),
            },
            Entrant { config: dies, control },
        ],
        2,
        &d.join("games.pgn"),
    );
    // The decision is announced with the progress lines.
    cfg.progress = true;
    let started = Instant::now();
    let mut out = Vec::new();
    let summary = run_match(&cfg, |start| XiangqiJudge::new(start, Rules::cxa()), &mut out).unwrap();
    let text = String::from_utf8_lossy(&out);
    println!("{text}");
    let (llr, status) = summary.sprt.unwrap();
    assert_eq!(status, Status::AcceptH1, "LLR {llr}");
    assert!(summary.finished.len() < 200, "{}", summary.finished.len());
    assert!(text.contains("H1 accepted"));
    assert!(started.elapsed() < Duration::from_secs(30));
}

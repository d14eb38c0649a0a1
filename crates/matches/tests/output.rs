//! A match's output as fastchess and cutechess users' scripts read it (point 17): the game
//! lines, cutechess's score line in its order (wins - losses - draws) and fastchess's results
//! block.

use judge::xiangqi::{Rules, XiangqiJudge};
use matches::play::Control;
use matches::runner::{report, run_match, Entrant, MatchConfig};

#[path = "../../engine/tests/common/mod.rs"]
mod common;
use common::fake;

/// The dying engine first: it loses both games, so wins and losses differ from W-D-L's order
/// (`0 - 2 - 0`, not `0 - 0 - 2`).
#[test]
fn point_17_output_reads_as_fastchess_and_cutechess_write_it() {
    let (Some(dies), Some(good)) = (fake("dies", "exit.py", &[]), fake("good", "uci.py", &[])) else {
        return;
    };
    let d = std::env::temp_dir().join(format!("arbiter-output-tests-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let control = Control {
        nodes: Some(100),
        ..Control::default()
    };
    let mut options = good.clone();
    options.options = vec![("Hash".into(), "16".into()), ("Threads".into(), "1".into())];
    let mut dies = dies;
    dies.options = options.options.clone();
    let cfg = MatchConfig {
        engines: vec![
            Entrant {
                config: dies,
                control: control.clone(),
            },
            Entrant {
                config: options,
                control,
            },
        ],
        pgn_out: Some(d.join("games.pgn")),
        progress: true,
        rating_interval: 1,
        ..MatchConfig::default()
    };
    let mut out = Vec::new();
    let s = run_match(&cfg, |start| XiangqiJudge::new(start, Rules::cxa()), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap() + &report(&s, &cfg);
    println!("{text}");
    assert!(text.contains("Started game 1 of 2 (dies vs good)\n"), "{text}");
    assert!(text.contains("Started game 2 of 2 (good vs dies)\n"), "{text}");
    assert!(text.contains("Finished game 1 (dies vs good): 0-1 {"), "{text}");
    assert!(text.contains("Finished game 2 (good vs dies): 1-0 {"), "{text}");
    assert!(text.contains("Score of dies vs good: 0 - 1 - 0  [0.000] 1\n"), "{text}");
    assert!(text.contains("Score of dies vs good: 0 - 2 - 0  [0.000] 2\n"), "{text}");
    // After game 1 (the rating interval), no pair is complete yet; at the end, one pair that
    // scored 0 for the first engine.
    assert!(
        text.contains("Results of dies vs good (100 nodes, 1t, 16MB):\n"),
        "{text}"
    );
    assert!(text.contains("\nElo: "), "{text}");
    assert!(
        text.contains("\nGames: 2, Wins: 0, Losses: 2, Draws: 0, Points: 0.0 (0.00 %)\n"),
        "{text}"
    );
    assert!(text.contains("\nPtnml(0-2): [1, 0, 0, 0, 0]\n"), "{text}");
    // Started comes before Finished, game by game.
    let started = text.find("Started game 2").unwrap();
    let finished = text.find("Finished game 1").unwrap();
    assert!(finished < started, "{text}");
}

//! The runner against fake engines (Python scripts in `tests/fake/`): every way an engine can
//! misbehave must end in the right error within its deadline, and the UCCI path is tested
//! without a real UCCI engine.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use engine::{ChessEngine, EngineConfig, EngineError, Go, Limits, Protocol, Score, XiangqiEngine};

mod common;

/// The fake engine `script`, named after it.
fn fake(script: &str, args: &[&str]) -> Option<EngineConfig> {
    common::fake(script, script, args)
}

fn soon(ms: u64) -> Instant {
    Instant::now() + Duration::from_millis(ms)
}

fn nodes(n: u64) -> Limits {
    Limits {
        nodes: Some(n),
        ..Limits::default()
    }
}

fn log_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-engine-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn uci_fake_plays_its_list() {
    let log = log_file("uci.log");
    let Some(mut config) = fake("uci.py", &["--log", log.to_str().unwrap()]) else {
        return;
    };
    config.options = vec![("Hash".into(), "32".into()), ("Clear Hash".into(), String::new())];
    let mut e = XiangqiEngine::start(&config).unwrap();
    assert_eq!(e.id_name(), Some("Fake UCI"));
    assert_eq!(e.id_author(), Some("arbiter tests"));
    assert_eq!(e.options().len(), 2);
    assert_eq!(e.option("skill level").unwrap().max.as_deref(), Some("20"));
    e.new_game().unwrap();

    let mut moves: Vec<String> = Vec::new();
    for want in ["h2e2", "h9g7", "h0g2"] {
        let req = Go {
            moves: &moves,
            limits: nodes(1000),
            ..Go::default()
        };
        let reply = e.go(&req, soon(2000)).unwrap();
        assert_eq!(reply.best.unwrap(), want);
        assert_eq!(reply.score, Some(Score::Cp(12)), "the first PV's last score");
        assert_eq!(reply.depth, Some(2));
        assert_eq!(reply.nodes, Some(43));
        assert!(!reply.draw && !reply.resign);
        assert!(reply.pv.is_empty());
        // The PV when asked for: the first PV's last (the second PV's `a0a1` is not it).
        let reply = e.go(&Go { pv: true, ..req }, soon(2000)).unwrap();
        assert_eq!(reply.pv, [want]);
        assert!(reply.elapsed < Duration::from_secs(2));
        moves.push(reply.best.unwrap().to_string());
    }
    // Banned moves: UCI gets every other legal move as `searchmoves`.
    let banned = ["i9h9"];
    let req = Go {
        moves: &moves,
        banned: &banned,
        limits: nodes(1000),
        ..Go::default()
    };
    let reply = e.go(&req, soon(2000)).unwrap();
    assert_ne!(reply.best.unwrap(), "i9h9");
    drop(e);
    let told = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = told.lines().collect();
    assert_eq!(
        &lines[..3],
        ["uci", "setoption name Hash value 32", "setoption name Clear Hash"]
    );
    assert!(lines.contains(&"position startpos moves h2e2 h9g7 h0g2"), "{told}");
    assert!(lines.contains(&"go nodes 1000"));
    let search = lines.iter().find(|l| l.contains("searchmoves")).unwrap();
    assert!(!search.contains("i9h9") && search.contains("i9i8"), "{search}");
    assert_eq!(lines.last(), Some(&"quit"));
}

/// An option set only where declared: brought within the engine's range, and not sent at all
/// to an engine without it.
#[test]
fn options_if_declared_are_bounded_or_left_out() {
    let log = log_file("declared.log");
    let Some(mut config) = fake("uci.py", &["--log", log.to_str().unwrap()]) else {
        return;
    };
    config.if_declared = vec![
        ("Skill Level".into(), -9),
        ("Contempt".into(), 5),
        ("hash".into(), 4096),
    ];
    let e = XiangqiEngine::start(&config).unwrap();
    drop(e);
    let told = std::fs::read_to_string(&log).unwrap();
    let set: Vec<&str> = told.lines().filter(|l| l.starts_with("setoption")).collect();
    assert_eq!(
        set,
        ["setoption name Skill Level value 0", "setoption name Hash value 1024"],
        "{told}"
    );
}

#[test]
fn uci_fake_chess_and_bad_requests() {
    let Some(config) = fake("uci.py", &["e2e4", "e7e5", "g1f3"]) else {
        return;
    };
    let mut e = ChessEngine::start(&config).unwrap();
    let reply = e.go(&Go::<&str>::default(), soon(2000)).unwrap();
    assert_eq!(reply.best.unwrap(), "e2e4");
    let reply = e
        .go(
            &Go {
                moves: &["e2e4"],
                ..Go::default()
            },
            soon(2000),
        )
        .unwrap();
    assert_eq!(reply.best.unwrap(), "e7e5");
    let bad = e.go(
        &Go {
            moves: &["e2e5"],
            ..Go::default()
        },
        soon(2000),
    );
    assert!(matches!(bad, Err(EngineError::Request(_))), "{bad:?}");
    let bad = e.go(
        &Go {
            start_fen: Some("not a fen"),
            ..Go::<&str>::default()
        },
        soon(2000),
    );
    assert!(matches!(bad, Err(EngineError::Request(_))), "{bad:?}");
    // The engine is still usable after a refused request.
    let reply = e
        .go(
            &Go {
                moves: &["e2e4", "e7e5"],
                ..Go::default()
            },
            soon(2000),
        )
        .unwrap();
    assert_eq!(reply.best.unwrap(), "g1f3");
}

#[test]
fn hang_times_out_and_is_killed() {
    let Some(mut config) = fake("hang.py", &[]) else { return };
    config.ready_timeout = Duration::from_millis(500);
    let mut e = XiangqiEngine::start(&config).unwrap();
    let t = Instant::now();
    let err = e
        .go(
            &Go {
                moves: &["h2e2"],
                ..Go::default()
            },
            soon(300),
        )
        .unwrap_err();
    assert!(
        matches!(
            err,
            EngineError::Timeout {
                waiting_for: "bestmove",
                ..
            }
        ),
        "{err:?}"
    );
    assert!(t.elapsed() < Duration::from_millis(600), "{:?}", t.elapsed());
    // The stopped search's move never comes: the next request fails within the ready timeout.
    let t = Instant::now();
    let err = e.go(&Go::<&str>::default(), soon(300)).unwrap_err();
    assert!(matches!(err, EngineError::Timeout { .. }), "{err:?}");
    assert!(t.elapsed() < Duration::from_millis(1000), "{:?}", t.elapsed());
    let t = Instant::now();
    drop(e);
    assert!(t.elapsed() < Duration::from_millis(1000), "drop took {:?}", t.elapsed());
}

#[test]
fn exit_is_a_crash_with_status() {
    let Some(config) = fake("exit.py", &[]) else { return };
    let mut e = XiangqiEngine::start(&config).unwrap();
    let t = Instant::now();
    let err = e.go(&Go::<&str>::default(), soon(5000)).unwrap_err();
    assert!(t.elapsed() < Duration::from_millis(1000), "{:?}", t.elapsed());
    match &err {
        EngineError::Crashed { status, stderr } => {
            assert_eq!(status.and_then(|s| s.code()), Some(3), "{err}");
            assert!(stderr.iter().any(|l| l.contains("out of cheese")), "{stderr:?}");
        }
        other => panic!("{other:?}"),
    }
    // Dead stays dead, at once.
    let t = Instant::now();
    assert!(matches!(
        e.go(&Go::<&str>::default(), soon(5000)),
        Err(EngineError::Crashed { .. })
    ));
    assert!(matches!(e.new_game(), Err(EngineError::Crashed { .. })));
    assert!(t.elapsed() < Duration::from_millis(1000));
}

#[test]
fn garbage_is_ignored_until_the_move() {
    let Some(config) = fake("garbage.py", &[]) else { return };
    let mut e = XiangqiEngine::start(&config).unwrap();
    assert_eq!(e.id_name(), None);
    let err = e.go(&Go::<&str>::default(), soon(2000)).unwrap_err();
    assert!(
        matches!(&err, EngineError::Protocol(m) if m.contains("zz99")),
        "{err:?}"
    );
}

#[test]
fn megabytes_of_output_are_read_through_to_the_move() {
    // What the info lines said survives pages of padding (read and dropped as the buffer
    // fills) and a line too long to keep (skipped to its end).
    let Some(config) = fake("garbage.py", &["--huge"]) else {
        return;
    };
    let mut e = XiangqiEngine::start(&config).unwrap();
    let reply = e.go(&Go::<&str>::default(), soon(20000)).unwrap();
    assert_eq!(reply.best.as_deref(), Some("h2e2"));
    assert_eq!(reply.score, Some(Score::Cp(50)));
    assert_eq!(reply.depth, Some(3));
    assert_eq!(reply.nodes, Some(77));
    // And the engine still answers.
    e.sync().unwrap();
}

#[test]
fn no_handshake_times_out() {
    let Some(mut config) = fake("garbage.py", &["--no-uciok"]) else {
        return;
    };
    config.handshake_timeout = Duration::from_millis(500);
    let t = Instant::now();
    let err = XiangqiEngine::start(&config).unwrap_err();
    assert!(
        matches!(
            err,
            EngineError::Timeout {
                waiting_for: "uciok",
                ..
            }
        ),
        "{err:?}"
    );
    assert!(t.elapsed() < Duration::from_millis(1500), "{:?}", t.elapsed());
}

#[test]
fn a_flood_on_stderr_does_not_block() {
    let Some(config) = fake("garbage.py", &["--flood"]) else {
        return;
    };
    XiangqiEngine::start(&config).unwrap();
}

#[test]
fn engines_move_to_other_threads() {
    fn send<T: Send>() {}
    send::<XiangqiEngine>();
    send::<ChessEngine>();
}

#[test]
fn missing_command() {
    let config = EngineConfig::new("nothing", "/nonexistent/engine");
    let err = XiangqiEngine::start(&config).unwrap_err();
    assert!(matches!(err, EngineError::Spawn { .. }), "{err:?}");
}

#[test]
fn ucci_fake() {
    let log = log_file("ucci.log");
    let Some(mut config) = fake("ucci.py", &["--log", log.to_str().unwrap()]) else {
        return;
    };
    config.protocol = Protocol::Ucci;
    config.options = vec![("hashsize".into(), "16".into())];
    let mut e = XiangqiEngine::start(&config).unwrap();
    assert_eq!(e.id_name(), Some("Fake UCCI"));
    assert!(e.option("usemillisec").is_some());
    e.new_game().unwrap();

    let clocks = Limits {
        wtime: Some(60_000),
        btime: Some(55_000),
        winc: Some(1_000),
        binc: Some(2_000),
        ..Limits::default()
    };
    let reply = e
        .go(
            &Go {
                limits: clocks,
                ..Go::<&str>::default()
            },
            soon(2000),
        )
        .unwrap();
    assert_eq!(reply.best.unwrap(), "h2e2");
    assert_eq!(reply.ponder.unwrap(), "h9g7");
    assert_eq!(reply.score, Some(Score::Cp(25)));
    assert_eq!((reply.depth, reply.nodes), (Some(3), Some(1234)));

    // Banned moves are told with `banmoves` (the fake then plays its next move).
    let req = Go {
        banned: &["h2e2"],
        ..Go::<&str>::default()
    };
    assert_eq!(e.go(&req, soon(2000)).unwrap().best.unwrap(), "b2e2");

    // After a capture the engine gets the position after it and only the moves since.
    let moves = ["h2h9", "i9h9", "b2e2", "h7e7"];
    let req = Go {
        moves: &moves[..3],
        banned: &["h7e7", "a0a1"],
        limits: clocks,
        ..Go::default()
    };
    e.go(&req, soon(2000)).unwrap();

    let reply = e
        .go(
            &Go {
                moves: &moves,
                draw_offered: true,
                ..Go::default()
            },
            soon(2000),
        )
        .unwrap();
    assert!(reply.draw && !reply.resign);
    let reply = e
        .go(
            &Go {
                limits: Limits {
                    depth: Some(1),
                    ..Limits::default()
                },
                ..Go::<&str>::default()
            },
            soon(2000),
        )
        .unwrap();
    assert!(reply.resign && !reply.draw);
    assert_eq!(reply.best.unwrap(), "h2e2");
    let reply = e
        .go(
            &Go {
                limits: nodes(1),
                ..Go::<&str>::default()
            },
            soon(2000),
        )
        .unwrap();
    assert_eq!(reply.best, None);
    drop(e);

    let told = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = told.lines().collect();
    assert_eq!(
        &lines[..3],
        ["ucci", "setoption usemillisec true", "setoption hashsize 16"],
        "{told}"
    );
    assert!(lines.contains(&"setoption newgame"), "{told}");
    assert!(lines.contains(&"banmoves h2e2"), "{told}");
    assert!(
        lines.contains(&"go time 60000 increment 1000 opptime 55000 oppincrement 2000"),
        "{told}"
    );
    let after_capture = lines.iter().position(|l| l.ends_with(" moves b2e2")).expect(&told);
    assert!(
        lines[after_capture]
            .starts_with("position fen rnbakabr1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR w - - 0 2"),
        "{told}"
    );
    assert_eq!(
        lines[after_capture + 1],
        "banmoves h7e7",
        "illegal moves are not banned"
    );
    assert_eq!(
        lines[after_capture + 2],
        "go time 55000 increment 2000 opptime 60000 oppincrement 1000"
    );
    assert!(lines.iter().any(|l| l.ends_with(" moves b2e2 h7e7")), "{told}");
    assert!(lines.contains(&"go draw"), "{told}");
    assert!(lines.contains(&"go depth 1") && lines.contains(&"go nodes 1"), "{told}");
    assert_eq!(lines.last(), Some(&"quit"));
}

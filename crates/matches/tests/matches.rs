//! Matches: real engines (Fairy-Stockfish for Xiangqi, Stockfish for chess; `SKIPPED:` and a
//! pass when they are missing, a failure under `CI=true`) play short matches whose every
//! verdict is checked against the judge's own replay of the PGN; fake engines crash, hang,
//! resign and agree draws. Every test is bounded in time.

use std::time::{Duration, Instant};

use engine::EngineConfig;
use judge::chess::{ChessJudge, ChessRules};
use judge::xiangqi::{Rules, XiangqiJudge};
use matches::play::Control;
use matches::runner::{run_match, Entrant, Start};

#[path = "../../engine/tests/common/mod.rs"]
mod common;
mod support;
use common::{fake, find};
use support::{check_against_replay, config, dir, fairy_config, judge_code, moves_start, nodes, report};

#[test]
fn xiangqi_match_fairy_stockfish_every_verdict_is_the_judges() {
    let Some(fairy) = find("fairy-stockfish") else { return };
    let d = dir("xiangqi");
    let pgn = d.join("games.pgn");
    let mut cfg = config(
        vec![
            Entrant {
                config: fairy_config("fairy-a", &fairy),
                control: nodes(1000),
            },
            Entrant {
                config: fairy_config("fairy-b", &fairy),
                control: nodes(1000),
            },
        ],
        6,
        &pgn,
    );
    cfg.openings = vec![
        moves_start("h2e2 h9g7"),
        moves_start("b2e2 b9c7 b0c2"),
        Start {
            fen: Some("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1".into()),
            moves: vec![],
            source: "fen".into(),
        },
    ];
    cfg.adjudication.max_moves = Some(150);
    let started = Instant::now();
    let rules = Rules::cxa();
    let mut out = Vec::new();
    let summary = run_match(&cfg, |start| XiangqiJudge::new(start, rules.clone()), &mut out).unwrap();
    println!("{}", String::from_utf8_lossy(&out));
    report(&summary, &cfg);
    assert!(started.elapsed() < Duration::from_secs(60));
    assert_eq!(summary.finished.len(), 6);
    let terminations = check_against_replay(&pgn, &rules, ChessRules::fide());
    assert_eq!(terminations.len(), 6);
    assert!(
        terminations.iter().all(|t| judge_code(t) || t == "max_moves"),
        "{terminations:?}"
    );
    assert!(summary.overhead_per_ply_us() > 0.0);
}

#[test]
fn chess_match_stockfish() {
    let Some(sf) = find("stockfish") else { return };
    let d = dir("chess");
    let pgn = d.join("games.pgn");
    let entrant = |name: &str| {
        let mut c = EngineConfig::new(name, &sf);
        c.options = vec![("Hash".into(), "16".into())];
        Entrant {
            config: c,
            control: nodes(1000),
        }
    };
    let mut cfg = config(vec![entrant("sf-a"), entrant("sf-b")], 4, &pgn);
    cfg.openings = vec![moves_start("e2e4 e7e5"), moves_start("d2d4 g8f6 c2c4")];
    cfg.adjudication.max_moves = Some(200);
    let mut out = Vec::new();
    let summary = run_match(&cfg, |start| ChessJudge::new(start, ChessRules::fide()), &mut out).unwrap();
    println!("{}", String::from_utf8_lossy(&out));
    report(&summary, &cfg);
    assert_eq!(summary.finished.len(), 4);
    let terminations = check_against_replay(&pgn, &Rules::cxa(), ChessRules::fide());
    assert_eq!(terminations.len(), 4);
}

/// A game lost by the engine that crashes or hangs, recorded, and the match goes on with the
/// engine restarted.
#[test]
fn crashing_and_hanging_engines_lose_and_the_match_goes_on() {
    let Some(good) = fake("good", "uci.py", &[]) else {
        return;
    };
    let Some(dies) = fake("dies", "exit.py", &[]) else {
        return;
    };
    let Some(hangs) = fake("hangs", "hang.py", &[]) else {
        return;
    };
    let d = dir("crash");
    let started = Instant::now();
    for (bad, code) in [(dies, "crash"), (hangs, "time")] {
        let pgn = d.join(format!("{code}.pgn"));
        let control = Control {
            movetime: Some(200),
            margin: 50,
            ..Control::default()
        };
        let cfg = config(
            vec![
                Entrant {
                    config: good.clone(),
                    control: control.clone(),
                },
                Entrant { config: bad, control },
            ],
            4,
            &pgn,
        );
        let mut out = Vec::new();
        let summary = run_match(&cfg, |start| XiangqiJudge::new(start, Rules::cxa()), &mut out).unwrap();
        println!("{}", String::from_utf8_lossy(&out));
        assert_eq!(summary.finished.len(), 4);
        for g in &summary.finished {
            let bad_won = if g.first == "good" { "0-1" } else { "1-0" };
            assert_ne!(g.result, bad_won, "{g:?}");
            if g.termination == code {
                continue;
            }
            // The good fake plays its list and may blunder into an illegal move first.
            assert_eq!(g.termination, "illegal_move", "{g:?}");
        }
        assert!(
            summary.finished.iter().any(|g| g.termination == code),
            "{:?}",
            summary.finished
        );
        let text = std::fs::read_to_string(&pgn).unwrap();
        assert_eq!(text.matches("[Event ").count(), 4);
        check_against_replay(&pgn, &Rules::cxa(), ChessRules::fide());
    }
    assert!(started.elapsed() < Duration::from_secs(30), "{:?}", started.elapsed());
}

/// UCCI's `bestmove … resign` resigns; a draw offered with a move (`bestmove … draw`) goes to
/// the other engine as `go draw`, and its `bestmove … draw` agrees.
#[test]
fn ucci_resignation_and_draw_agreement() {
    let d = dir("ucci");
    let log = d.join("accepter.log");
    let ucci = |name: &str, args: &[&str]| {
        fake(name, "ucci.py", args).map(|mut c| {
            c.protocol = engine::Protocol::Ucci;
            c
        })
    };
    let Some(offerer) = ucci("offerer", &["--offer"]) else {
        return;
    };
    let Some(accepter) = ucci("accepter", &["--log", log.to_str().unwrap()]) else {
        return;
    };
    let Some(resigner) = ucci("resigner", &[]) else {
        return;
    };
    let Some(player) = fake("player", "uci.py", &[]) else {
        return;
    };
    let depth1 = Control {
        depth: Some(1),
        ..Control::default()
    };
    // The first game only: the offerer has red.
    let mut cfg = config(
        vec![
            Entrant {
                config: offerer,
                control: nodes(1000),
            },
            Entrant {
                config: accepter,
                control: nodes(1000),
            },
        ],
        1,
        &d.join("draw.pgn"),
    );
    let mut out = Vec::new();
    let s = run_match(&cfg, |start| XiangqiJudge::new(start, Rules::cxa()), &mut out).unwrap();
    assert_eq!(
        (s.finished[0].result.as_str(), s.finished[0].termination.as_str()),
        ("1/2-1/2", "agreement")
    );
    let told = std::fs::read_to_string(&log).unwrap();
    assert!(told.lines().any(|l| l.starts_with("go draw")), "{told}");
    let pgn = std::fs::read_to_string(d.join("draw.pgn")).unwrap();
    assert!(
        pgn.contains("{draw offered}") && pgn.contains("Draw by agreement}") && pgn.contains("accepted the draw offer"),
        "{pgn}"
    );

    cfg.engines = vec![
        Entrant {
            config: resigner,
            control: depth1,
        },
        Entrant {
            config: player,
            control: nodes(1000),
        },
    ];
    cfg.pgn_out = Some(d.join("resign.pgn"));
    let s = run_match(&cfg, |start| XiangqiJudge::new(start, Rules::cxa()), &mut Vec::new()).unwrap();
    assert_eq!(
        (s.finished[0].result.as_str(), s.finished[0].termination.as_str()),
        ("0-1", "resignation")
    );
    check_against_replay(&d.join("resign.pgn"), &Rules::cxa(), ChessRules::fide());
}

/// A clock: `tc=40/1+0.02`, limits from the referee's clocks, and each mover's clock after its
/// move in the PGN when asked (fastchess's `tl=`, in milliseconds).
#[test]
fn a_match_on_the_clock() {
    let Some(fairy) = find("fairy-stockfish") else { return };
    let d = dir("clock");
    let pgn = d.join("games.pgn");
    let control = Control {
        tc: Some(matches::play::Tc::parse("40/1+0.02").unwrap()),
        ..Control::default()
    };
    let mut cfg = config(
        vec![
            Entrant {
                config: fairy_config("a", &fairy),
                control: control.clone(),
            },
            Entrant {
                config: fairy_config("b", &fairy),
                control,
            },
        ],
        2,
        &pgn,
    );
    cfg.adjudication.max_moves = Some(40);
    cfg.pgn.time_left = true;
    let started = Instant::now();
    let mut out = Vec::new();
    let s = run_match(&cfg, |start| XiangqiJudge::new(start, Rules::cxa()), &mut out).unwrap();
    println!("{}", String::from_utf8_lossy(&out));
    assert_eq!(s.finished.len(), 2);
    assert!(started.elapsed() < Duration::from_secs(20));
    let text = std::fs::read_to_string(&pgn).unwrap();
    // Under a clock the TimeControl tag; time left per move when asked (fastchess's tl=).
    assert!(text.contains("[TimeControl \"40/1+0.02\"]"), "{text}");
    let left: Vec<&str> = text.split(", tl=").skip(1).collect();
    assert!(!left.is_empty(), "{text}");
    // Fractions of a second: the clock never shows a whole second here (1 s for 40 moves).
    assert!(
        left.iter().all(|t| t.starts_with("0.") || t.starts_with("1.")),
        "{text}"
    );
    check_against_replay(&pgn, &Rules::cxa(), ChessRules::fide());
}

/// An engine that cannot be started stops the match before any game is played.
#[test]
fn an_engine_that_cannot_start_stops_the_match() {
    let Some(good) = fake("good", "uci.py", &[]) else {
        return;
    };
    let d = dir("nostart");
    let cfg = config(
        vec![
            Entrant {
                config: good,
                control: nodes(1),
            },
            Entrant {
                config: EngineConfig::new("missing", "/nonexistent/engine"),
                control: nodes(1),
            },
        ],
        2,
        &d.join("games.pgn"),
    );
    let err = run_match(&cfg, |start| XiangqiJudge::new(start, Rules::cxa()), &mut Vec::new()).unwrap_err();
    assert!(err.to_string().contains("engine missing"), "{err}");
}

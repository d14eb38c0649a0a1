//! The runner against real engines when they are installed: Fairy-Stockfish for Xiangqi (by
//! UCI with ranks 1–10, and by UCCI) and Stockfish for chess. Each test passes with a line
//! starting `SKIPPED:` when its engine is missing (fails under `CI=true`).

use std::time::{Duration, Instant};

use engine::{ChessEngine, Coordinates, EngineConfig, Go, Limits, Protocol, Score, XiangqiEngine};
use game::Game;

mod common;
use common::find;

fn soon() -> Instant {
    Instant::now() + Duration::from_secs(10)
}

fn nodes(n: u64) -> Limits {
    Limits {
        nodes: Some(n),
        ..Limits::default()
    }
}

/// Plays `plies` moves from `start` with `go nodes 1000`, checking each reply is legal.
fn self_play<G: Game>(e: &mut engine::Engine<G>, start: Option<&str>, plies: usize) -> Vec<String> {
    let mut pos = match start {
        Some(f) => G::from_fen(f).unwrap(),
        None => G::start(),
    };
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..plies {
        let req = Go {
            start_fen: start,
            moves: &moves,
            limits: nodes(1000),
            ..Go::default()
        };
        let reply = e.go(&req, soon()).unwrap();
        let best = reply.best.expect("a move");
        let m = pos
            .parse_move(&best)
            .unwrap_or_else(|err| panic!("{best} after {moves:?}: {err}"));
        assert!(pos.is_legal(m), "{best} after {moves:?}");
        assert!(reply.depth.is_some() && reply.score.is_some(), "{reply:?}");
        pos.play(m);
        moves.push(best.to_string());
    }
    moves
}

/// Plays a principal variation from `pos`, checking each move is legal.
fn legal_line<G: Game>(pos: &G, pv: &[engine::MoveText]) {
    let mut pos = pos.clone();
    for m in pv {
        let parsed = pos.parse_move(m).unwrap_or_else(|err| panic!("{m} in {pv:?}: {err}"));
        assert!(pos.is_legal(parsed), "{m} in {pv:?}");
        pos.play(parsed);
    }
}

fn fairy(protocol: Protocol) -> Option<XiangqiEngine> {
    let mut config = EngineConfig::new("fairy-stockfish", find("fairy-stockfish")?);
    config.protocol = protocol;
    config.coordinates = match protocol {
        Protocol::Uci => Coordinates::Fsf,
        Protocol::Ucci => Coordinates::Iccs,
    };
    config.options = vec![("Threads".into(), "1".into()), ("Hash".into(), "16".into())];
    if protocol == Protocol::Ucci {
        config.options.clear();
    }
    let mut e = XiangqiEngine::start(&config).unwrap();
    e.new_game().unwrap();
    Some(e)
}

/// Red to move mates at once: the rook to the d-file checks the king, which cannot step to e9
/// (facing Red's king) nor stay on the d-file.
const MATE_IN_ONE: &str = "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1";

#[test]
fn fairy_stockfish_xiangqi_uci() {
    let Some(mut e) = fairy(Protocol::Uci) else { return };
    assert!(
        e.id_name().unwrap_or("").contains("Fairy-Stockfish"),
        "{:?}",
        e.id_name()
    );
    // Black's first moves leave rank 9, which Fairy-Stockfish calls 10: both conversions run.
    let moves = self_play(&mut e, None, 8);
    assert!(
        moves.iter().skip(1).step_by(2).any(|m| m.as_bytes()[1] == b'9'),
        "{moves:?}"
    );

    let req = Go {
        start_fen: Some(MATE_IN_ONE),
        moves: &[] as &[&str],
        limits: Limits {
            depth: Some(4),
            ..Limits::default()
        },
        ..Go::default()
    };
    let reply = e.go(&req, soon()).unwrap();
    assert_eq!(reply.best.unwrap(), "e1d1", "{reply:?}");
    assert_eq!(reply.score, Some(Score::Mate(1)));
    assert!(reply.pv.is_empty(), "a PV only when asked for: {reply:?}");
    let reply = e.go(&Go { pv: true, ..req }, soon()).unwrap();
    assert_eq!(reply.pv, ["e1d1"], "{reply:?}");
    // From the start, a line that crosses rank 9 (10 to the engine) both ways, every move legal.
    let opening = Go {
        moves: &[] as &[&str],
        limits: Limits {
            depth: Some(8),
            ..Limits::default()
        },
        pv: true,
        ..Go::default()
    };
    let reply = e.go(&opening, soon()).unwrap();
    assert!(reply.pv.len() >= 2, "{reply:?}");
    assert_eq!(reply.pv.first(), reply.best.as_ref());
    legal_line(&<xiangqi::Position as Game>::start(), &reply.pv);

    // Banned moves: forbid the mate, and the engine must find something else.
    let req = Go {
        banned: &["e1d1"],
        ..req
    };
    let reply = e.go(&req, soon()).unwrap();
    assert_ne!(reply.best.unwrap(), "e1d1");
    let pos = xiangqi::Position::from_fen(MATE_IN_ONE).unwrap();
    let m = Game::parse_move(&pos, &reply.best.unwrap()).unwrap();
    assert!(Game::is_legal(&pos, m));
}

#[test]
fn fairy_stockfish_xiangqi_ucci() {
    let Some(mut e) = fairy(Protocol::Ucci) else { return };
    self_play(&mut e, None, 6);
    let req = Go {
        start_fen: Some(MATE_IN_ONE),
        moves: &[] as &[&str],
        limits: Limits {
            depth: Some(4),
            ..Limits::default()
        },
        ..Go::default()
    };
    let reply = e.go(&req, soon()).unwrap();
    assert_eq!(reply.best.unwrap(), "e1d1", "{reply:?}");
    let banned = Go {
        banned: &["e1d1"],
        ..req
    };
    assert_ne!(e.go(&banned, soon()).unwrap().best.unwrap(), "e1d1");
    // A clock in milliseconds: a 2-second budget must not take seconds a move.
    let t = Instant::now();
    let clock = Go {
        limits: Limits {
            wtime: Some(2000),
            btime: Some(2000),
            winc: Some(0),
            binc: Some(0),
            ..Limits::default()
        },
        moves: &["h2e2"] as &[&str],
        ..Go::default()
    };
    e.go(&clock, soon()).unwrap();
    assert!(t.elapsed() < Duration::from_millis(1500), "{:?}", t.elapsed());
}

#[test]
fn stockfish_chess() {
    let Some(command) = find("stockfish") else { return };
    let mut config = EngineConfig::new("stockfish", command);
    config.options = vec![("Threads".into(), "1".into()), ("Hash".into(), "16".into())];
    let mut e = ChessEngine::start(&config).unwrap();
    e.new_game().unwrap();
    assert!(e.option("Hash").is_some());
    self_play(&mut e, None, 8);

    // Scholar's mate pattern: Qxf7#.
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
    let req = Go {
        start_fen: Some(fen),
        moves: &[] as &[&str],
        limits: Limits {
            depth: Some(6),
            ..Limits::default()
        },
        ..Go::default()
    };
    let reply = e.go(&Go { pv: true, ..req }, soon()).unwrap();
    assert_eq!(reply.best.unwrap(), "f3f7");
    assert_eq!(reply.score, Some(Score::Mate(1)));
    assert_eq!(reply.pv, ["f3f7"], "{reply:?}");
    let opening = Go {
        moves: &["e2e4"] as &[&str],
        limits: Limits {
            depth: Some(10),
            ..Limits::default()
        },
        pv: true,
        ..Go::default()
    };
    let reply = e.go(&opening, soon()).unwrap();
    assert!(reply.pv.len() >= 2, "{reply:?}");
    let mut pos = <chess::Position as Game>::start();
    pos.play(pos.parse_move("e2e4").unwrap());
    legal_line(&pos, &reply.pv);
    let banned = Go {
        banned: &["f3f7"],
        ..req
    };
    let reply = e.go(&banned, soon()).unwrap();
    assert_ne!(reply.best.unwrap(), "f3f7");
    // Stopped by the deadline on an infinite search, then usable again.
    let t = Instant::now();
    let err = e
        .go(&Go::<&str>::default(), Instant::now() + Duration::from_millis(200))
        .unwrap_err();
    assert!(matches!(err, engine::EngineError::Timeout { .. }), "{err:?}");
    assert!(t.elapsed() < Duration::from_millis(500));
    // The runner's own cost a ply: the whole call less the engine's time (printed, not
    // asserted: two shared cores make timings noisy).
    let mut moves: Vec<String> = Vec::new();
    let (mut total, mut engine) = (Duration::ZERO, Duration::ZERO);
    let mut pos = <chess::Position as Game>::start();
    for _ in 0..40 {
        let req = Go {
            moves: &moves,
            limits: nodes(1),
            ..Go::default()
        };
        let t = Instant::now();
        let reply = e.go(&req, soon()).unwrap();
        total += t.elapsed();
        engine += reply.elapsed;
        let Some(best) = reply.best else { break };
        let m = pos.parse_move(&best).unwrap();
        pos.play(m);
        moves.push(best.to_string());
    }
    let plies = moves.len().max(1) as u32;
    println!(
        "stockfish go nodes 1: {:?} a ply in all, {:?} of it the runner's",
        total / plies,
        total.saturating_sub(engine) / plies
    );
    let reply = e
        .go(
            &Go {
                limits: nodes(500),
                ..Go::<&str>::default()
            },
            soon(),
        )
        .unwrap();
    assert!(reply.best.is_some());
}

/// An analysis's search as the server asks for it: Fairy-Stockfish playing chess, a time and a
/// depth, the moves checked, the whole PV back.
#[test]
fn fairy_stockfish_chess_pv_on_a_timed_search() {
    let Some(command) = find("fairy-stockfish") else { return };
    let mut config = EngineConfig::new("fairy", command);
    config.coordinates = Coordinates::Detect;
    let mut e = ChessEngine::start(&config).unwrap();
    e.new_game().unwrap();
    let start = <chess::Position as Game>::start().fen();
    for moves in [&[] as &[&str], &["e2e4"], &["e2e4", "e7e5"]] {
        let req = Go {
            start_fen: Some(&start),
            moves,
            limits: Limits {
                movetime: Some(150),
                depth: Some(24),
                ..Limits::default()
            },
            checked: true,
            pv: true,
            ..Go::default()
        };
        let reply = e.go(&req, soon()).unwrap();
        assert!(reply.pv.len() >= 2, "{moves:?}: {reply:?}");
    }
}

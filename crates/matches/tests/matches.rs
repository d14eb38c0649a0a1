//! Matches: real engines (Fairy-Stockfish for Xiangqi, Stockfish for chess; `SKIPPED:` and a
//! pass when they are missing, a failure under `CI=true`) play short matches whose every verdict is checked against the
//! judge's own replay of the PGN; fake engines crash, hang and are told which moves the rules
//! forbid. Every test is bounded in time.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use engine::{Coordinates, EngineConfig};
use judge::chess::{ChessJudge, ChessRules};
use judge::xiangqi::{Rules, XiangqiJudge};
use judge::{final_verdict, Judge, Outcome, Reason};
use matches::play::Control;
use matches::runner::{run_match, Entrant, MatchConfig, Start, Summary};
use records::files::{read_file, AnyRecord};
use tournament::result::{Bye, RoundResult};

#[path = "../../engine/tests/common/mod.rs"]
mod common;
use common::{fake, find};

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("arbiter-match-tests-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn nodes(n: u64) -> Control {
    Control {
        nodes: Some(n),
        ..Control::default()
    }
}

fn config(engines: Vec<Entrant>, games: u32, pgn: &Path) -> MatchConfig {
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

fn moves_start(moves: &str) -> Start {
    Start {
        fen: None,
        moves: moves.split_whitespace().map(str::to_string).collect(),
        source: moves.to_string(),
    }
}

/// Reason codes the judge gives (the rest are the referee's or the runner's).
fn judge_code(code: &str) -> bool {
    Reason::ALL.iter().any(|r| r.code() == code)
}

/// Replays every game of the PGN with the judge and checks that the recorded ending is the
/// judge's: an ending by rule has the judge's result and reason at the last ply; any other
/// ending (time, crash, adjudication) leaves a game the judge has not ended. Returns the
/// terminations.
fn check_against_replay(pgn: &Path, rules: &Rules, chess: ChessRules) -> Vec<String> {
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

fn fairy_config(name: &str, path: &Path) -> EngineConfig {
    let mut c = EngineConfig::new(name, path);
    c.coordinates = Coordinates::Fsf;
    c.options = vec![("Hash".into(), "16".into()), ("Threads".into(), "1".into())];
    c
}

fn report(summary: &Summary, config: &MatchConfig) {
    print!("{}", matches::runner::report(summary, config));
}

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

/// Red checks with the rook from f5/e5 while black's king steps between e8 and f8: the cycle
/// of a perpetual check.
const REPEAT_FEN: &str = "9/4k4/9/9/5R3/9/9/9/9/3K5 w - - 0 1";
const CYCLE: [&str; 4] = ["f5e5", "e8f8", "e5f5", "f8e8"];

/// A one-game match from [`REPEAT_FEN`] (after `book`) between two fake engines that play
/// [`CYCLE`] for ever, writing `d/games.pgn`; and the file where red's engine logs what it is
/// told. None (skipped) without Python.
fn repeaters(d: &Path, book: Vec<String>, source: &str) -> Option<(MatchConfig, PathBuf)> {
    let log_red = d.join("red.log");
    let log_black = d.join("black.log");
    let mut red_args = vec!["--log", log_red.to_str().unwrap()];
    red_args.extend(CYCLE);
    let mut black_args = vec!["--log", log_black.to_str().unwrap()];
    black_args.extend(CYCLE);
    let red = fake("repeater-red", "uci.py", &red_args)?;
    let black = fake("repeater-black", "uci.py", &black_args)?;
    let mut cfg = config(
        vec![
            Entrant {
                config: red,
                control: nodes(1),
            },
            Entrant {
                config: black,
                control: nodes(1),
            },
        ],
        1,
        &d.join("games.pgn"),
    );
    cfg.openings = vec![Start {
        fen: Some(REPEAT_FEN.into()),
        moves: book,
        source: source.into(),
    }];
    cfg.adjudication.max_moves = Some(20);
    Some((cfg, log_red))
}

/// An engine that always wants to repeat a perpetual check is told the move the rules forbid
/// (UCI `searchmoves` without it; UCCI `banmoves`), and varies instead of losing.
#[test]
fn an_engine_that_wants_to_repeat_is_told_the_banned_move() {
    let d = dir("banned");
    let Some((mut cfg, log_red)) = repeaters(&d, Vec::new(), "perpetual check") else {
        return;
    };
    let pgn = d.join("games.pgn");
    let mut out = Vec::new();
    let summary = run_match(&cfg, |start| XiangqiJudge::new(start, Rules::cxa()), &mut out).unwrap();
    println!("{}", String::from_utf8_lossy(&out));
    let game = &summary.finished[0];
    assert_ne!(game.termination, "perpetual_check", "{game:?}");
    let told = std::fs::read_to_string(&log_red).unwrap();
    let banned = told
        .lines()
        .find(|l| l.contains("searchmoves"))
        .unwrap_or_else(|| panic!("red was never told to vary:\n{told}"));
    assert!(!banned.contains("f5e5"), "{banned}");
    // The ninth ply: red, told to vary at ply 8, played something else.
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("red must vary"), "{text}");
    check_against_replay(&pgn, &Rules::cxa(), ChessRules::fide());

    // At the trigger, as engines rule: the move that would lose at once is banned.
    let pgn = d.join("trigger.pgn");
    cfg.pgn_out = Some(pgn.clone());
    let mut out = Vec::new();
    let rules = Rules::cxa().at_trigger();
    let summary = run_match(&cfg, |start| XiangqiJudge::new(start, rules.clone()), &mut out).unwrap();
    println!("{}", String::from_utf8_lossy(&out));
    // Black's move completes the third occurrence, which red could not have avoided: under
    // this ruling red loses at ply 8, and the PGN says so as the judge does.
    assert_eq!(summary.finished[0].termination, "perpetual_check");
    check_against_replay(&pgn, &rules, ChessRules::fide());
}

/// Runs 8 short games of two `uci.py --cpus` engines under `control`, pinned (and yielding if
/// `yielding`): what each engine process wrote (its CPUs, its scheduling policy), by process.
fn pinned_engines(name: &str, control: Control, yielding: bool) -> Option<Vec<(Vec<usize>, i32)>> {
    let d = dir(name);
    let cpus = d.join("cpus");
    let _ = std::fs::remove_dir_all(&cpus);
    std::fs::create_dir_all(&cpus).unwrap();
    let c = cpus.display().to_string();
    let a = fake("a", "uci.py", &["--cpus", &c])?;
    let b = fake("b", "uci.py", &["--cpus", &c])?;
    let mut cfg = config(
        vec![
            Entrant {
                config: a,
                control: control.clone(),
            },
            Entrant { config: b, control },
        ],
        8,
        &d.join("games.pgn"),
    );
    cfg.adjudication.max_moves = Some(3);
    cfg.affinity = true;
    cfg.yield_to_engines = yielding;
    let s = run_match(&cfg, |start| XiangqiJudge::new(start, Rules::cxa()), &mut Vec::new()).unwrap();
    assert_eq!(s.finished.len(), 8);
    let mut engines = Vec::new();
    for e in std::fs::read_dir(&cpus).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_some_and(|x| x == "cpus") {
            let list = std::fs::read_to_string(&path)
                .unwrap()
                .lines()
                .map(|l| l.parse().unwrap())
                .collect();
            let policy = std::fs::read_to_string(path.with_extension("policy")).unwrap();
            engines.push((list, policy.trim().parse().unwrap()));
        }
    }
    Some(engines)
}

/// SCHED_OTHER and SCHED_BATCH (Linux).
const NORMAL: i32 = 0;
const BATCH: i32 = 3;

#[test]
fn with_affinity_each_game_slot_keeps_its_engines_on_a_cpu_of_its_own() {
    let control = Control {
        movetime: Some(500),
        ..Control::default()
    };
    let Some(engines) = pinned_engines("affinity", control, true) else {
        return;
    };
    let available = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert!(
        engines.len() >= 4,
        "the preflight's two engines, then two a slot: {engines:?}"
    );
    let mut seen = std::collections::BTreeSet::new();
    let mut pinned = 0;
    for (list, policy) in &engines {
        // Timed searches: the slots do not yield (an answer is timed when it is written).
        assert_eq!(*policy, NORMAL, "{engines:?}");
        if list.len() == 1 {
            pinned += 1;
            seen.insert(list[0]);
        }
    }
    if available >= 2 {
        // Each slot that played starts both engines on its one CPU (a slot may find no game
        // left if the other was quick); the preflight's engines may run anywhere.
        assert!(pinned == 2 || pinned == 4, "{pinned} engines on one CPU: {engines:?}");
        assert_eq!(seen.len(), pinned / 2, "the slots share no CPU: {seen:?}");
    }
}

/// Pinned slots change no scheduling policy unless asked to yield (`--yield-to-engines`).
#[test]
fn pinned_slots_keep_the_normal_policy_unless_asked_to_yield() {
    let control = Control {
        nodes: Some(1000),
        ..Control::default()
    };
    let Some(engines) = pinned_engines("affinity-not-asked", control, false) else {
        return;
    };
    assert!(engines.iter().all(|(_, p)| *p == NORMAL), "{engines:?}");
}

/// Untimed searches on pinned slots, asked to yield: the slot's thread and its engines yield
/// to each other (SCHED_BATCH, `matches::cpu`); the preflight's engines, started before, do not.
#[test]
fn pinned_slots_with_untimed_searches_yield_to_their_engines() {
    let control = Control {
        nodes: Some(1000),
        ..Control::default()
    };
    let Some(engines) = pinned_engines("affinity-untimed", control, true) else {
        return;
    };
    if std::thread::available_parallelism().map_or(1, |n| n.get()) < 2 {
        println!("skipped: one CPU, nothing to pin apart");
        return;
    }
    let slot_engines: Vec<i32> = engines.iter().filter(|(l, _)| l.len() == 1).map(|(_, p)| *p).collect();
    assert!(!slot_engines.is_empty(), "{engines:?}");
    assert!(slot_engines.iter().all(|&p| p == BATCH), "{engines:?}");
    assert!(
        engines.iter().filter(|(l, _)| l.len() > 1).all(|(_, p)| *p == NORMAL),
        "{engines:?}"
    );
}

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
    let d = dir("sprt");
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
        200,
        &d.join("games.pgn"),
    );
    cfg.sprt = Some(ratings::sprt::Sprt {
        elo0: 0.0,
        elo1: 10.0,
        alpha: 0.05,
        beta: 0.05,
        model: ratings::sprt::Model::Normalized,
    });
    let started = Instant::now();
    let mut out = Vec::new();
    let summary = run_match(&cfg, |start| XiangqiJudge::new(start, Rules::cxa()), &mut out).unwrap();
    let text = String::from_utf8_lossy(&out);
    println!("{text}");
    let (llr, status) = summary.sprt.unwrap();
    assert_eq!(status, ratings::sprt::Status::AcceptH1, "LLR {llr}");
    assert!(summary.finished.len() < 200, "{}", summary.finished.len());
    assert!(text.contains("H1 accepted"));
    assert!(started.elapsed() < Duration::from_secs(30));
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

/// The tags of each game of a PGN file, in file order.
fn pgn_tags(pgn: &Path) -> Vec<std::collections::HashMap<String, String>> {
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

/// Three engines play a round robin as a round-robin event: rounds in the order of the Berger
/// tables (each pairing's games in a row), the match written as a TRF that the tournament
/// crate reads back with every game once and the PGN's points, and standings with SB and DE
/// printed after each round and at the end.
#[test]
fn a_round_robin_of_three_is_a_berger_event_with_a_trf_and_standings() {
    let Some(alpha) = fake("alpha", "uci.py", &[]) else {
        return;
    };
    let Some(beta) = fake("beta", "uci.py", &[]) else {
        return;
    };
    let Some(dies) = fake("dies", "exit.py", &[]) else {
        return;
    };
    let d = dir("round-robin");
    let pgn = d.join("rr.pgn");
    let trf_path = d.join("rr.trf");
    let engines = [alpha, beta, dies]
        .into_iter()
        .map(|config| Entrant {
            config,
            control: nodes(100),
        })
        .collect();
    let mut cfg = config(engines, 2, &pgn);
    cfg.trf_out = Some(trf_path.clone());
    let started = Instant::now();
    let mut out = Vec::new();
    let summary = run_match(&cfg, |start| XiangqiJudge::new(start, Rules::cxa()), &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    let report = matches::runner::report(&summary, &cfg);
    println!("{out}{report}");
    assert!(started.elapsed() < Duration::from_secs(60), "{:?}", started.elapsed());

    // Berger for three (4 is the bye): round 1 2-3, round 2 1-2, round 3 3-1; each pairing's
    // two games in a row, the table's colours first.
    let expected = [
        ("beta", "dies"),
        ("dies", "beta"),
        ("alpha", "beta"),
        ("beta", "alpha"),
        ("dies", "alpha"),
        ("alpha", "dies"),
    ];
    let mut finished = summary.finished.clone();
    finished.sort_by_key(|g| g.number);
    let order: Vec<(&str, &str)> = finished.iter().map(|g| (g.first.as_str(), g.second.as_str())).collect();
    assert_eq!(order, expected);
    let tags = pgn_tags(&pgn);
    assert_eq!(tags.len(), 6);
    let mut by_round: Vec<(u32, String, String, String)> = tags
        .iter()
        .map(|t| {
            (
                t["Round"].parse().unwrap(),
                t["Red"].clone(),
                t["Black"].clone(),
                t["Result"].clone(),
            )
        })
        .collect();
    by_round.sort();
    // The PGN's Round is the Berger round (both games of its pairing have it).
    let mut expected_rounds: Vec<(u32, &str, &str)> = expected
        .iter()
        .enumerate()
        .map(|(i, &(a, b))| (i as u32 / 2 + 1, a, b))
        .collect();
    expected_rounds.sort();
    for ((round, red, black, _), (r, first, second)) in by_round.iter().zip(expected_rounds) {
        assert_eq!(
            (*round, red.as_str(), black.as_str()),
            (r, first, second),
            "round {round}"
        );
    }
    // In the schedule's order again.
    let by_round: Vec<(u32, String, String, String)> = expected
        .iter()
        .enumerate()
        .map(|(i, &(a, b))| {
            by_round
                .iter()
                .find(|(r, red, black, _)| *r == i as u32 / 2 + 1 && red == a && black == b)
                .unwrap()
                .clone()
        })
        .collect();
    // The engine that dies loses every game.
    for (_, red, black, result) in &by_round {
        if red == "dies" {
            assert_eq!(result, "0-1");
        } else if black == "dies" {
            assert_eq!(result, "1-0");
        }
    }

    // The TRF, read back by the tournament crate: every game once, in its colours, with its
    // result; the points are the PGN's.
    let trf = tournament::trf::Trf::parse(&std::fs::read_to_string(&trf_path).unwrap()).unwrap();
    let names: Vec<&str> = trf.players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["alpha", "beta", "dies"]);
    assert_eq!(trf.record("142"), Some("6"));
    let number = |name: &str| names.iter().position(|n| *n == name).unwrap() as u32 + 1;
    let mut games = 0;
    for p in &trf.players {
        assert_eq!(p.rounds.len(), 6);
        for (r, round) in p.rounds.iter().enumerate() {
            if round.opponent == 0 {
                // A bye: a pairing-allocated one worth nothing (`162  P 0.0`).
                assert_eq!(
                    round.result,
                    RoundResult::Bye(Bye::PairingAllocated),
                    "{} round {}",
                    p.name,
                    r + 1
                );
                continue;
            }
            assert!(round.played(), "{} round {}: {round:?}", p.name, r + 1);
            if round.colour == tournament::trf::Colour::White {
                games += 1;
                // TRF round (Berger round − 1) × 2 + game: the schedule's order, so game r + 1.
                let (_, red, black, result) = &by_round[r];
                assert_eq!(
                    (number(red), number(black)),
                    (p.number, round.opponent),
                    "round {}",
                    r + 1
                );
                let code = match result.as_str() {
                    "1-0" => RoundResult::WIN,
                    "0-1" => RoundResult::LOSS,
                    _ => RoundResult::DRAW,
                };
                assert_eq!(round.result, code, "round {}", r + 1);
            }
        }
        // Two games against each of the two others, two rounds of bye.
        assert_eq!(p.rounds.iter().filter(|r| r.played()).count(), 4, "{}", p.name);
    }
    assert_eq!(games, 6);
    for p in &trf.players {
        let from_pgn: f64 = by_round
            .iter()
            .map(|(_, red, black, result)| match result.as_str() {
                "1-0" if red == &p.name => 1.0,
                "0-1" if black == &p.name => 1.0,
                "1/2-1/2" if red == &p.name || black == &p.name => 0.5,
                _ => 0.0,
            })
            .sum();
        assert_eq!(p.points, from_pgn, "{}", p.name);
        let recounted: f64 = p.rounds.iter().filter(|r| r.played()).map(|r| r.points()).sum();
        assert_eq!(recounted, from_pgn, "{}", p.name);
    }
    assert_eq!(trf.record("202"), Some("SB,DE"));
    assert_eq!(tournament::event::point_system(&trf).pab, 0);

    // Standings by the tournament crate: after each round in the progress, and at the end in
    // the crate's order (points, SB, DE), with the ranks written in the TRF.
    let table = tournament::standings::standings(&trf, &matches::event::DEFAULT_TIEBREAKS);
    assert_eq!(table.last().unwrap().name, "dies");
    for row in &table {
        assert_eq!(row.points, trf.player(row.number).unwrap().points, "{}", row.name);
    }
    // Every round is announced once complete (with concurrency, several may complete at once).
    let mut announced = Vec::new();
    for line in out
        .lines()
        .filter(|l| l.ends_with(" of 3 complete; standings (points, then SB, DE):"))
    {
        let which = line.split(" of 3").next().unwrap();
        let (from, to) = match which.strip_prefix("Rounds ") {
            Some(range) => range.split_once('-').unwrap(),
            None => (
                which.strip_prefix("Round ").unwrap(),
                which.strip_prefix("Round ").unwrap(),
            ),
        };
        announced.extend(from.parse::<u32>().unwrap()..=to.parse::<u32>().unwrap());
    }
    assert_eq!(announced, [1, 2, 3], "{out}");
    let shown = report
        .split("Standings (points, then SB, DE):\n")
        .nth(1)
        .expect("standings in the report");
    let shown: Vec<&str> = shown.lines().take(3).collect();
    for (line, row) in shown.iter().zip(&table) {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words[0], format!("{}.", row.place), "{line}");
        assert_eq!(words[1], row.name, "{line}");
        assert_eq!(words[2].parse::<f64>().unwrap(), row.points, "{line}");
        assert!(line.contains(&format!("SB {}", row.tiebreaks[0])), "{line}");
        assert!(line.contains(&format!("DE {}", row.tiebreaks[1])), "{line}");
    }
    let text = std::fs::read_to_string(&trf_path).unwrap();
    for row in &table {
        let line = text
            .lines()
            .find(|l| l.starts_with("001") && l[14..].starts_with(&row.name))
            .unwrap();
        assert_eq!(line[85..89].trim(), row.place.to_string(), "{line}");
    }
    // Resumed when done, the match plays nothing and writes the same TRF from its state file.
    let mut again = cfg.clone();
    again.resume = true;
    std::fs::remove_file(&trf_path).unwrap();
    let s = run_match(&again, |start| XiangqiJudge::new(start, Rules::cxa()), &mut Vec::new()).unwrap();
    assert_eq!((s.played, s.finished.len()), (0, 6));
    // (But for the date, which may have turned.)
    let undated = |t: &str| {
        t.lines()
            .filter(|l| !l.starts_with("042"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(undated(&std::fs::read_to_string(&trf_path).unwrap()), undated(&text));
}

/// The movetext of each game of a PGN file (after its tags), in file order.
fn movetexts(pgn: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(pgn).unwrap();
    text.split("[Event ")
        .skip(1)
        .map(|game| {
            game.lines()
                .skip_while(|l| !l.is_empty())
                .collect::<Vec<_>>()
                .join("\n")
                .trim()
                .to_string()
        })
        .collect()
}

/// Whether `c` is an engine move's comment as fastchess writes it: `+0.31/9 0.105s`,
/// `-M4/20 1.000s`, `/0 0.002s` (no score), then `, key=value` fields.
fn engine_comment(c: &str) -> bool {
    let head = c.split(", ").next().unwrap();
    let Some((score, rest)) = head.split_once('/') else {
        return false;
    };
    let Some((depth, time)) = rest.split_once(' ') else {
        return false;
    };
    let score_ok = score.is_empty()
        || score == "0.00"
        || (score.len() > 1
            && (score.starts_with('+') || score.starts_with('-'))
            && (score[1..].strip_prefix('M').is_some_and(|p| p.parse::<u32>().is_ok())
                || score[1..]
                    .split_once('.')
                    .is_some_and(|(a, b)| a.parse::<u32>().is_ok() && b.len() == 2 && b.parse::<u32>().is_ok())));
    let time_ok = time
        .strip_suffix('s')
        .and_then(|t| t.split_once('.'))
        .is_some_and(|(a, b)| a.parse::<u64>().is_ok() && b.len() == 3);
    score_ok && depth.parse::<u32>().is_ok() && time_ok
}

/// Checks the match PGN against the book it was played from: every game starts at its
/// opening's root (FEN tag only off the standard start), has the opening's moves marked
/// `{book}` and the engines' after them each with a `{score/depth time}` comment, counts all
/// of them in PlyCount, and replays with the judge to the recorded verdict.
fn check_book_games(pgn: &Path, kind: game::Kind, book: &[matches::openings::Opening], games: usize) {
    let tags = pgn_tags(pgn);
    let texts = movetexts(pgn);
    assert_eq!(tags.len(), games);
    let (_, records) = read_file(pgn).unwrap();
    for (i, (g, (tags, text))) in records.zip(tags.iter().zip(&texts)).enumerate() {
        let g = g.unwrap();
        let round: usize = tags["Round"].parse().unwrap();
        // Two engines: the pair of games of an encounter shares its round and its opening.
        let opening = &book[(round - 1) % book.len()];
        let (root, main_line) = match &g {
            AnyRecord::Xiangqi(r) => {
                let root = records::pgn::start_position(r);
                let mut pos = root.clone();
                let coords: Vec<String> = r
                    .tree
                    .main_line()
                    .map(|&m| {
                        let c = game::Game::coordinate(&pos, m);
                        game::Game::play(&mut pos, m);
                        c
                    })
                    .collect();
                (game::Game::fen(&root), coords)
            }
            AnyRecord::Chess(r) => {
                let start = records::chess::start_position(r);
                let root = chess::Position::new(start, chess::shakmaty::CastlingMode::Standard);
                let mut pos = root.clone();
                let coords: Vec<String> = r
                    .tree
                    .main_line()
                    .map(|&m| {
                        let c = game::Game::coordinate(&pos, m);
                        game::Game::play(&mut pos, m);
                        c
                    })
                    .collect();
                (game::Game::fen(&root), coords)
            }
        };
        let expected_root = match kind {
            game::Kind::Xiangqi => game::Game::fen(&opening.start::<xiangqi::Position>().unwrap()),
            game::Kind::Chess => game::Game::fen(&opening.start::<chess::Position>().unwrap()),
        };
        assert_eq!(
            root,
            expected_root,
            "game {}: the record starts at the book's root",
            i + 1
        );
        assert_eq!(
            tags.contains_key("FEN"),
            opening.fen.is_some(),
            "game {}: FEN tag only off the standard start",
            i + 1
        );
        assert!(main_line.len() >= opening.moves.len(), "game {}", i + 1);
        assert_eq!(
            main_line[..opening.moves.len()],
            opening.moves[..],
            "game {}: the book moves",
            i + 1
        );
        let plies: usize = tags["PlyCount"].parse().unwrap();
        assert_eq!(plies, main_line.len(), "game {}: PlyCount", i + 1);
        for key in [
            "GameDuration",
            "GameStartTime",
            "GameEndTime",
            "TimeControl",
            "Termination",
        ] {
            assert!(tags.contains_key(key), "game {}: no {key}", i + 1);
        }
        let flat = text.replace('\n', " ");
        let comments: Vec<&str> = flat.split('{').skip(1).map(|c| c.split_once('}').unwrap().0).collect();
        let book_marks = comments.iter().filter(|c| **c == "book").count();
        let engine_marks = comments.iter().filter(|c| engine_comment(c)).count();
        assert_eq!(book_marks, opening.moves.len(), "game {}: {text}", i + 1);
        assert_eq!(
            engine_marks,
            plies - opening.moves.len(),
            "game {}: a comment per engine move: {text}",
            i + 1
        );
        assert!(
            text.lines().all(|l| l.chars().count() <= 80 || !l.contains(' ')),
            "game {}: movetext lines within 80 columns: {text}",
            i + 1
        );
    }
}

/// A match from a PGN book with moves (and one from a FEN with moves): each record starts at
/// the book's root, carries the book moves as `{book}` and a fastchess comment on every engine
/// move, and replays with the judge to the verdict the referee gave live (which knew the book
/// moves as the game's history).
#[test]
fn the_pgn_starts_at_the_books_root_with_its_moves() {
    let Some(fairy) = find("fairy-stockfish") else { return };
    let Some(sf) = find("stockfish") else { return };
    let d = dir("book");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/openings");
    let starts = |book: &[matches::openings::Opening]| -> Vec<Start> {
        book.iter()
            .map(|o| Start {
                fen: o.fen.clone(),
                moves: o.moves.clone(),
                source: o.source.clone(),
            })
            .collect()
    };

    let book = matches::openings::read_openings(game::Kind::Xiangqi, &data.join("xiangqi.pgn")).unwrap();
    assert!(book.iter().any(|o| o.fen.is_some() && !o.moves.is_empty()));
    let pgn = d.join("xiangqi.pgn");
    let entrant = |name: &str| Entrant {
        config: fairy_config(name, &fairy),
        control: nodes(2000),
    };
    let mut cfg = config(vec![entrant("a"), entrant("b")], 2 * book.len() as u32, &pgn);
    cfg.openings = starts(&book);
    cfg.adjudication.max_moves = Some(40);
    let rules = Rules::cxa();
    let summary = run_match(&cfg, |start| XiangqiJudge::new(start, rules.clone()), &mut Vec::new()).unwrap();
    report(&summary, &cfg);
    check_book_games(&pgn, game::Kind::Xiangqi, &book, 2 * book.len());
    check_against_replay(&pgn, &rules, ChessRules::fide());
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("[TimeControl \"-\"]"), "{text}");
    assert!(text.contains("1. 炮二平五 {book}"), "{text}");
    assert!(
        text.contains("[Round \"1\"]") && text.contains("[Round \"2\"]"),
        "{text}"
    );

    let book = matches::openings::read_openings(game::Kind::Chess, &data.join("chess.pgn")).unwrap();
    let pgn = d.join("chess.pgn");
    let entrant = |name: &str| {
        let mut c = EngineConfig::new(name, &sf);
        c.options = vec![("Hash".into(), "16".into())];
        Entrant {
            config: c,
            control: nodes(2000),
        }
    };
    let mut cfg = config(vec![entrant("a"), entrant("b")], 2 * book.len() as u32, &pgn);
    cfg.openings = starts(&book);
    cfg.adjudication.max_moves = Some(30);
    cfg.pgn.nodes = true;
    let summary = run_match(
        &cfg,
        |start| ChessJudge::new(start, ChessRules::fide()),
        &mut Vec::new(),
    )
    .unwrap();
    report(&summary, &cfg);
    check_book_games(&pgn, game::Kind::Chess, &book, 2 * book.len());
    check_against_replay(&pgn, &Rules::cxa(), ChessRules::fide());
    let text = std::fs::read_to_string(&pgn).unwrap();
    // After a comment the second player's move carries its number, as the export format asks.
    assert!(text.contains("1. e4 {book} 1... e5 {book} 2. Nf3 {book}"), "{text}");
    assert!(text.contains(", n="), "{text}");
    println!("{text}");
}

/// The opening's moves are the game's history: a perpetual check begun in the book is lost as
/// soon as the engines complete it, the engines are given the book moves, and the PGN (from
/// the book's root, its moves `{book}`) replays to the same verdict.
#[test]
fn a_repetition_reaches_back_into_the_book() {
    let d = dir("book-history");
    // The first cycle is the book's.
    let book = CYCLE.iter().map(|m| m.to_string()).collect();
    let Some((cfg, log_red)) = repeaters(&d, book, "perpetual check, one cycle in the book") else {
        return;
    };
    let pgn = d.join("games.pgn");
    let rules = Rules::cxa().at_trigger();
    let summary = run_match(&cfg, |start| XiangqiJudge::new(start, rules.clone()), &mut Vec::new()).unwrap();
    // Without the book as history the engines would have needed two cycles of their own.
    assert_eq!(summary.finished[0].termination, "perpetual_check");
    assert_eq!(summary.plies, 4);
    let told = std::fs::read_to_string(&log_red).unwrap();
    let position = told.lines().find(|l| l.starts_with("position")).unwrap();
    assert!(position.ends_with("moves f5e5 e8f8 e5f5 f8e8"), "{told}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("{book}").count(), 4, "{text}");
    assert!(text.contains(&format!("[FEN \"{REPEAT_FEN}\"]")), "{text}");
    assert!(text.contains("[PlyCount \"8\"]"), "{text}");
    check_against_replay(&pgn, &rules, ChessRules::fide());
}

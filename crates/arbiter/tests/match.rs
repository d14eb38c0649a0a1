//! `arbiter match` from the command line, with Fairy-Stockfish (`SKIPPED:` and a pass when it is
//! not installed, a failure under `CI=true`): openings in each format, UCI against UCCI, and a match killed part-way and
//! resumed. Every run is bounded in time.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn fairy() -> Option<PathBuf> {
    let p = PathBuf::from("/usr/games/fairy-stockfish");
    if p.exists() {
        return Some(p);
    }
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("fairy-stockfish"))
            .find(|p| p.exists())
    });
    if found.is_none() {
        testdata::skip("fairy-stockfish is not installed");
    }
    found
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("arbiter-cli-match-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `arbiter match ARGS`, killed after `limit`; returns (success, stdout, stderr).
fn run(args: &[String], limit: Duration) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("match")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            panic!("arbiter match did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn args(fairy: &Path, extra: &[&str]) -> Vec<String> {
    let cmd = format!("cmd={}", fairy.display());
    let mut a: Vec<String> = [
        "--engine",
        "name=A",
        &cmd,
        "--engine",
        "name=B",
        &cmd,
        "--each",
        "nodes=500",
        "option.Hash=16",
        "--game",
        "xiangqi",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    a.extend(extra.iter().map(|s| s.to_string()));
    a
}

fn rounds(pgn: &Path) -> Vec<u32> {
    let text = std::fs::read_to_string(pgn).unwrap_or_default();
    let mut r: Vec<u32> = text
        .lines()
        .filter_map(|l| l.strip_prefix("[Round \""))
        .map(|r| r.trim_end_matches("\"]").parse().unwrap())
        .collect();
    r.sort();
    r
}

#[test]
fn openings_in_each_format_and_uci_against_ucci() {
    let Some(fairy) = fairy() else { return };
    let d = dir("openings");
    let files = [
        (
            "book.epd",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1\n\
             rnbakabnr/9/1c5c1/p1p1p1p1p/9/2P6/P3P1P1P/1C5C1/9/RNBAKABNR b - - 0 1\n",
        ),
        ("book.txt", "h2e2 h9g7\nb0c2 b9c7 h0g2\n"),
        (
            "book.pgn",
            "[Event \"book\"]\n[Variant \"xiangqi\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 *\n",
        ),
    ];
    for (name, text) in files {
        let book = d.join(name);
        std::fs::write(&book, text).unwrap();
        let pgn = d.join(format!("{name}.games.pgn"));
        let extra = [
            "--games",
            "2",
            "--maxmoves",
            "40",
            "--openings",
            &format!("file={}", book.display()),
            "--pgnout",
            pgn.to_str().unwrap(),
        ];
        let (ok, out, err) = run(&args(&fairy, &extra), Duration::from_secs(60));
        assert!(ok, "{name}: {out}\n{err}");
        assert!(out.contains("runner overhead:"), "{out}");
        // Round as fastchess numbers it: the encounter, both its games.
        assert_eq!(rounds(&pgn), [1, 1], "{name}");
        let games = std::fs::read_to_string(&pgn).unwrap();
        if name == "book.epd" {
            assert!(games.contains("[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b"));
        }
    }
    // One engine by UCI with ranks 1-10, the other by UCCI.
    let pgn = d.join("ucci.pgn");
    let cmd = format!("cmd={}", fairy.display());
    let a: Vec<String> = [
        "--engine",
        "name=uci",
        &cmd,
        "proto=uci",
        "--engine",
        "name=ucci",
        &cmd,
        "proto=ucci",
        "--each",
        "depth=3",
        "--games",
        "2",
        "--maxmoves",
        "60",
        "--pgnout",
        pgn.to_str().unwrap(),
        "--sprt",
        "elo0=0",
        "elo1=10",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let (ok, out, err) = run(&a, Duration::from_secs(60));
    assert!(ok, "{out}\n{err}");
    assert_eq!(rounds(&pgn), [1, 1]);
    assert!(out.contains("LLR"), "{out}");
    // The rules verdicts of the games are the judge's on replay.
    let judged = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["judge", pgn.to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&judged.stderr);
    assert!(stderr.contains("0 result tags contradict the board"), "{stderr}");
}

#[test]
fn a_killed_match_resumes_without_duplicates() {
    let Some(fairy) = fairy() else { return };
    let d = dir("resume");
    let pgn = d.join("games.pgn");
    let book = d.join("book.txt");
    std::fs::write(&book, "h2e2 h9g7\nc3c4 c6c5\nb0c2 b9c7\nh2f2 b9c7\n").unwrap();
    let extra = [
        "--games",
        "8",
        "--maxmoves",
        "50",
        "--openings",
        &format!("file={}", book.display()),
        "order=random",
        "seed=3",
        "--pgnout",
        pgn.to_str().unwrap(),
    ];
    let a = args(&fairy, &extra);
    let state = d.join("games.pgn.state.jsonl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("match")
        .args(&a)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    // Killed once three games are in.
    loop {
        let done = std::fs::read_to_string(&state)
            .map(|s| s.matches("\"number\"").count())
            .unwrap_or(0);
        if done >= 3 || child.try_wait().unwrap().is_some() {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "no progress");
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = child.kill();
    let _ = child.wait();
    let before = rounds(&pgn);
    println!("killed after {} games", before.len());
    assert!(before.len() >= 3, "{before:?}");
    let mut resume = a.clone();
    resume.push("--resume".into());
    let (ok, out, err) = run(&resume, Duration::from_secs(60));
    assert!(ok, "{out}\n{err}");
    assert_eq!(rounds(&pgn), [1, 1, 2, 2, 3, 3, 4, 4], "{out}");
    assert!(out.contains("Resuming:") || before.len() == 8, "{out}");
    assert!(out.contains("\nGames: 8, "), "{out}");
    // The same output with another match's settings is refused.
    let mut other = a.clone();
    other[7] = "nodes=600".into();
    other.push("--resume".into());
    let (ok, _, err) = run(&other, Duration::from_secs(30));
    assert!(!ok && err.contains("another match"), "{err}");
}

/// Three engines play a round robin as a round-robin event: Berger rounds, standings with the
/// tie-breaks asked for after each round and at the end, and a TRF that `arbiter tournament
/// standings` reads to the same table.
#[test]
fn a_round_robin_of_three_writes_a_trf_that_tournament_standings_reads() {
    let Some(fairy) = fairy() else { return };
    let d = dir("round-robin");
    let (pgn, trf) = (d.join("rr.pgn"), d.join("rr.trf"));
    let cmd = format!("cmd={}", fairy.display());
    let mut a: Vec<String> = Vec::new();
    for name in ["A", "B", "C"] {
        a.extend(["--engine".to_string(), format!("name={name}"), cmd.clone()]);
    }
    a.extend(
        [
            "--each",
            "nodes=100",
            "option.Hash=16",
            "--game",
            "xiangqi",
            "--games",
            "2",
            "--maxmoves",
            "60",
            "--concurrency",
            "2",
            "--pgnout",
            pgn.to_str().unwrap(),
            "--trfout",
            trf.to_str().unwrap(),
            "--tiebreaks",
            "SB,DE",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    let (ok, out, err) = run(&a, Duration::from_secs(120));
    assert!(ok, "{out}\n{err}");
    // The Berger round: B-C, then A-B, then C-A, two games a pairing.
    assert_eq!(rounds(&pgn), [1, 1, 2, 2, 3, 3]);
    let text = std::fs::read_to_string(&pgn).unwrap();
    let mut games: Vec<(u32, String, String)> = text
        .split("[Event ")
        .skip(1)
        .map(|g| {
            let tag = |name: &str| {
                g.lines()
                    .find_map(|l| l.strip_prefix(&format!("[{name} \""))?.strip_suffix("\"]"))
                    .unwrap()
                    .to_string()
            };
            (tag("Round").parse().unwrap(), tag("Red"), tag("Black"))
        })
        .collect();
    games.sort();
    let pairs: Vec<(&str, &str)> = games.iter().map(|(_, r, b)| (r.as_str(), b.as_str())).collect();
    assert_eq!(
        pairs,
        [("B", "C"), ("C", "B"), ("A", "B"), ("B", "A"), ("A", "C"), ("C", "A")]
    );
    assert!(out.contains("of 3 complete; standings (points, then SB, DE):"), "{out}");
    let ours: Vec<(String, String)> = out
        .split("Standings (points, then SB, DE):\n")
        .nth(1)
        .expect("standings at the end")
        .lines()
        .take(3)
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (w[1].to_string(), w[2].to_string())
        })
        .collect();
    // The TRF, read by `arbiter tournament standings`: the same order and points.
    let standings = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["tournament", "standings", trf.to_str().unwrap(), "--tiebreaks", "SB,DE"])
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&standings.stdout);
    assert!(standings.status.success(), "{table}");
    let theirs: Vec<(String, String)> = table
        .lines()
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (w[2].to_string(), format!("{:.1}", w[3].parse::<f64>().unwrap()))
        })
        .collect();
    assert_eq!(ours, theirs, "{out}\n{table}");
    let total: f64 = theirs.iter().map(|(_, p)| p.parse::<f64>().unwrap()).sum();
    assert_eq!(total, 6.0, "{table}");
}

/// `--tb`: Stockfish from tablebase positions (an EPD), the engine crate's test tables; a
/// directory that cannot be read and a Xiangqi match with tables are errors at start-up.
#[test]
fn syzygy_tablebases_adjudicate_chess_games() {
    let tables = Path::new(env!("CARGO_MANIFEST_DIR")).join("../matches/tests/syzygy");
    let base = |cmd: &str, extra: &[&str]| -> Vec<String> {
        let cmd = format!("cmd={cmd}");
        let mut a: Vec<String> = [
            "--engine",
            "name=A",
            &cmd,
            "--engine",
            "name=B",
            &cmd,
            "--each",
            "nodes=2000",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let (ok, _, err) = run(
        &base("/bin/true", &["--game", "chess", "--tb", "/nonexistent/syzygy"]),
        Duration::from_secs(20),
    );
    assert!(
        !ok && err.contains("cannot read Syzygy tables in /nonexistent/syzygy"),
        "{err}"
    );
    let tb = tables.display().to_string();
    let (ok, _, err) = run(
        &base("/bin/true", &["--game", "xiangqi", "--tb", &tb]),
        Duration::from_secs(20),
    );
    assert!(!ok && err.contains("--tb (Syzygy tablebases) is for chess"), "{err}");
    let (ok, _, err) = run(
        &base("/bin/true", &["--game", "chess", "--tb", &tb, "--tbadjudicate", "WINS"]),
        Duration::from_secs(20),
    );
    assert!(!ok && err.contains("expected WIN_LOSS, DRAW or BOTH"), "{err}");

    let sf = PathBuf::from("/usr/games/stockfish");
    if !sf.exists() {
        testdata::skip("stockfish is not installed");
        return;
    }
    let d = dir("syzygy");
    let epd = d.join("tb.epd");
    // KRvK (a win), KRvKR (a draw: not adjudicated with WIN_LOSS, so the move limit ends it).
    std::fs::write(&epd, "8/8/8/4k3/8/8/8/R3K3 w - -\n8/8/2k5/r7/8/8/5R2/5K2 w - -\n").unwrap();
    let pgn = d.join("games.pgn");
    let (epd_s, pgn_s) = (epd.display().to_string(), pgn.display().to_string());
    let (ok, out, err) = run(
        &base(
            &sf.display().to_string(),
            &[
                "--game",
                "chess",
                "--games",
                "4",
                "--openings",
                &format!("file={epd_s}"),
                "--tb",
                &tb,
                "--tbadjudicate",
                "WIN_LOSS",
                "--maxmoves",
                "10",
                "--pgnout",
                &pgn_s,
            ],
        ),
        Duration::from_secs(120),
    );
    assert!(ok, "{out}\n{err}");
    assert!(out.contains("Syzygy tablebases: tables of up to 4 men found"), "{out}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    let games: Vec<&str> = text.split("[Event ").skip(1).collect();
    assert_eq!(games.len(), 4, "{text}");
    for g in &games {
        let krk = g.contains("[FEN \"8/8/8/4k3/8/8/8/R3K3 w - -");
        if krk {
            assert!(g.contains("[Termination \"adjudication\"]"), "{g}");
            assert!(g.contains("[Result \"1-0\"]"), "{g}");
            assert!(
                g.contains("[TerminationDetails \"adjudicated_tablebase: adjudicated by Syzygy tablebases: KRvK, White wins\"]")
                    && g.replace('\n', " ").contains(", White wins by adjudication} 1-0"),
                "{g}"
            );
        } else {
            assert!(
                !g.contains("adjudicated_tablebase"),
                "a draw is not adjudicated with WIN_LOSS: {g}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// fastchess's common options are accepted where arbiter does what they ask, and refused with
/// a word where it does not (point 17).
#[test]
fn point_17_fastchess_options_are_accepted_or_refused_clearly() {
    let base = |extra: &[&str]| -> Vec<String> {
        let mut a: Vec<String> = [
            "-engine",
            "name=A",
            "cmd=/bin/true",
            "-engine",
            "name=B",
            "cmd=/bin/true",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let limit = Duration::from_secs(20);
    let (ok, _, err) = run(&base(&["-each", "nodes=100", "restart=on"]), limit);
    assert!(!ok && err.contains("restart=on is not supported"), "{err}");
    let (ok, _, err) = run(&base(&["-each", "nodes=100", "-repeat", "4"]), limit);
    assert!(!ok && err.contains("arbiter plays each opening exactly twice"), "{err}");
    // Accepted: the match gets as far as starting /bin/true, which is no engine.
    for accepted in [
        &["-each", "plies=3", "restart=off"][..],
        &[
            "-each",
            "nodes=100",
            "-repeat",
            "-recover",
            "-srand",
            "42",
            "-ratinginterval",
            "5",
        ][..],
    ] {
        let (ok, _, err) = run(&base(accepted), limit);
        assert!(!ok && err.contains("engine A"), "{accepted:?}: {err}");
    }
}

/// Two chess engines without `--game`: the match refuses to start and says to add `--game
/// chess`, instead of playing every game to an illegal move at ply 0 (point 14).
#[test]
fn point_14_chess_engines_without_game_chess_are_refused() {
    let sf = PathBuf::from("/usr/games/stockfish");
    if !sf.exists() {
        testdata::skip("stockfish is not installed");
        return;
    }
    let d = dir("point14");
    let pgn = d.join("games.pgn");
    let cmd = format!("cmd={}", sf.display());
    let args: Vec<String> = [
        "--engine",
        "name=A",
        &cmd,
        "--engine",
        "name=B",
        &cmd,
        "--each",
        "nodes=1000",
        "--games",
        "2",
        "--pgnout",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([pgn.display().to_string()])
    .collect();
    let (ok, out, err) = run(&args, Duration::from_secs(60));
    assert!(!ok, "{out}");
    assert!(err.contains("add --game chess"), "{err}");
    assert!(!out.contains("Finished game"), "{out}");
}

/// The scheduling policy changes only when asked, and only where they work: pinned slots and
/// untimed searches.
#[test]
fn yield_to_engines_needs_affinity_and_untimed_searches() {
    let base = |extra: &[&str]| -> Vec<String> {
        [
            "--engine",
            "name=A",
            "cmd=/bin/true",
            "--engine",
            "name=B",
            "cmd=/bin/true",
        ]
        .iter()
        .chain(extra)
        .map(|s| s.to_string())
        .collect()
    };
    let limit = Duration::from_secs(20);
    for refused in [
        &["--each", "nodes=100", "--yield-to-engines"][..],
        &["--each", "tc=10+0.1", "--affinity", "--yield-to-engines"][..],
    ] {
        let (ok, _, err) = run(&base(refused), limit);
        assert!(
            !ok && err.contains("--yield-to-engines needs --affinity and untimed searches"),
            "{err}"
        );
    }
    let (ok, _, err) = run(
        &base(&["--each", "nodes=100", "--affinity", "--yield-to-engines"]),
        limit,
    );
    assert!(!ok && err.contains("engine A"), "{err}");
}

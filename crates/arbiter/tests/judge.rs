//! `arbiter judge` as a user hit it: a move that loses by rule, a record with an illegal move,
//! output closed early, and the limits an event or a referee sets.

use std::io::Read;
use std::process::{Command, Stdio};

fn arbiter(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .output()
        .expect("run arbiter");
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn json(line: &str) -> serde_json::Value {
    serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"))
}

/// A file in a fresh folder, removed when dropped.
struct Temp(std::path::PathBuf);

impl Temp {
    fn new(name: &str, text: &str) -> Temp {
        let dir = std::env::temp_dir().join(format!("arbiter-judge-test-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        Temp(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        std::fs::remove_dir_all(self.0.parent().unwrap()).ok();
    }
}

/// The kings on open files with a pawn left (not a dead position): e0d0 faces the kings.
const FACING: &str = "3k5/9/9/9/9/9/2P6/9/9/4K4 w - - 0 1";

#[test]
fn point_01_facing_kings_move_is_a_loss_under_cxa() {
    let (ok, out, err) = arbiter(&[
        "judge", "--game", "xiangqi", "--fen", FACING, "--moves", "e0d0", "--json",
    ]);
    assert!(ok, "expected the move ruled, not refused; stderr: {err}");
    let v = json(out.trim());
    assert_eq!(
        (v["result"].as_str(), v["reason"].as_str(), v["ply"].as_u64()),
        (Some("black"), Some("self_check"), Some(1)),
        "{v}"
    );
    // The same move in a record file of `position … moves …` lines.
    let file = Temp::new("facing.txt", &format!("position fen {FACING} moves e0d0\n"));
    let (ok, out, err) = arbiter(&["judge", file.path(), "--json"]);
    assert!(ok, "{err}");
    assert_eq!(json(out.trim())["reason"], "self_check", "{out}");
    // And in a PGN record in Chinese notation, which the reader refuses without the rules.
    let pgn = Temp::new(
        "facing.pgn",
        &format!("[Game \"Chinese Chess\"]\n[FEN \"{FACING}\"]\n[Result \"0-1\"]\n\n1. 帅五平六 0-1\n"),
    );
    let (ok, out, err) = arbiter(&["judge", pgn.path()]);
    assert!(ok, "{err}");
    assert!(out.contains("game 1: black (self_check) at ply 1 [cxa]"), "{out}");
    assert!(
        err.contains("1 ended by rule") && err.contains("0 games unreadable or stopped"),
        "{err}"
    );
    // Under AXF it is refused, with the ply and the move named.
    let (ok, _, err) = arbiter(&[
        "judge",
        "--game",
        "xiangqi",
        "--fen",
        FACING,
        "--moves",
        "e0d0",
        "--ruleset",
        "axf",
    ]);
    assert!(!ok);
    assert!(
        err.contains("ply 1") && err.contains("e0d0"),
        "expected ply 1 and e0d0; found: {err}"
    );
}

#[test]
fn point_02_an_illegal_move_in_a_record_stops_the_game_and_is_counted() {
    // Game 2's third move repeats red's first: not a legal move there.
    let file = Temp::new(
        "bad.pgn",
        "[Game \"Chinese Chess\"]\n\n1. h2e2 h9g7 *\n\n[Game \"Chinese Chess\"]\n\n1. h2e2 h9g7 2. h2e2 *\n",
    );
    let (ok, out, err) = arbiter(&["judge", file.path()]);
    assert!(ok, "{err}");
    let second = out
        .lines()
        .skip_while(|l| !l.contains("game 2"))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        second.contains("game 2: ongoing (not_over) at ply 2")
            && second.contains("stopped at ply 3:")
            && second.contains("h2e2"),
        "expected game 2 stopped at ply 3 naming the move; found:\n{out}"
    );
    assert!(
        err.contains("2 games judged") && err.contains("1 games unreadable or stopped"),
        "{err}"
    );
    let (_, out, _) = arbiter(&["judge", file.path(), "--json"]);
    let v = json(out.lines().nth(1).unwrap());
    assert_eq!(
        (v["game"].as_u64(), v["stopped_ply"].as_u64()),
        (Some(2), Some(3)),
        "{v}"
    );
}

/// Runs arbiter with its output closed before it writes, and then with the reader leaving
/// after `keep` bytes: it must end quietly either way.
fn ends_quietly_when_output_closes(args: &[&str], keep: usize) {
    for early in [true, false] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        if !early {
            let mut first = vec![0; keep];
            stdout.read_exact(&mut first).unwrap();
        }
        drop(stdout);
        let mut err = String::new();
        child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
        let status = child.wait().unwrap();
        assert!(
            status.success() && err.is_empty(),
            "{args:?}: expected a quiet end when the output closes; found {status}, stderr: {err}"
        );
    }
}

#[test]
fn point_03_every_command_ends_quietly_when_its_output_is_closed() {
    ends_quietly_when_output_closes(&["judge", "--rulesets"], 600);
    // A long output: the reader leaves with most of it unwritten.
    ends_quietly_when_output_closes(&["tournament", "generate", "--players", "400", "--rounds", "9"], 600);
    ends_quietly_when_output_closes(&["moves"], 10);
}

#[test]
fn point_19_move_limits_are_set_from_the_command_line() {
    // Four plies without a capture: a limit of 2 rounds ends it; the default 60 does not.
    let fen = "3k5/9/9/9/9/9/2P6/9/9/4K4 w - - 0 1";
    let moves = "e0e1 d9d8 e1e0 d8d9";
    let judge = |extra: &[&str]| {
        let mut args = vec!["judge", "--game", "xiangqi", "--fen", fen, "--moves", moves, "--json"];
        args.extend_from_slice(extra);
        let (ok, out, err) = arbiter(&args);
        assert!(ok, "{err}");
        json(out.trim())
    };
    assert_eq!(judge(&[])["result"], "ongoing");
    let v = judge(&["--move-limit", "2"]);
    assert_eq!(
        (v["reason"].as_str(), v["ply"].as_u64()),
        (Some("natural_move_limit"), Some(4)),
        "{v}"
    );
    let v = judge(&["--ruleset", "cxa,limit=2"]);
    assert_eq!(v["reason"], "natural_move_limit", "{v}");
    // A referee's temporary limit of one round from ply 2.
    let v = judge(&["--temporary-limit", "1@2"]);
    assert_eq!(
        (v["result"].as_str(), v["ply"].as_u64()),
        (Some("draw"), Some(4)),
        "{v}"
    );
    assert!(v["explanation"].as_str().unwrap().contains("临时限着"), "{v}");
    // A limit raised above the rules' is refused, with the range allowed.
    let (ok, _, err) = arbiter(&["judge", "--game", "xiangqi", "--moves", "", "--move-limit", "61"]);
    assert!(!ok && err.contains("1 to 60"), "{err}");
}

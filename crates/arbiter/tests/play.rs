//! `arbiter play`: two people at one keyboard. A scripted game through stdin, and the same
//! through a real terminal driven by tmux (skipped, saying so, where tmux is missing; `.ci/run`
//! installs it).

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn piped(args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_scripted_xiangqi_game_ends_in_mate_with_its_record() {
    // A draw offered and declined; a move that does not read; two rooks mate on the back rank
    // (XQ-B01 after a rook's step back and forth).
    let out = piped(
        &[
            "--game",
            "xiangqi",
            "--fen",
            "4k4/7R1/9/9/9/9/9/9/9/R2K5 w - - 0 1",
            "--time",
            "5+0",
        ],
        "draw\nh8h7\ndecline\ne9f9\nh7h8\nf9e9\nbogus\na0a9\n",
    );
    assert!(out.contains("red offers a draw"), "{out}");
    assert!(out.contains("black declined the draw"), "{out}");
    assert!(out.contains("not accepted"), "{out}");
    assert!(out.contains("game over: red (checkmate)"), "{out}");
    assert!(out.contains("[Result \"1-0\"]") && out.contains("{[%clk 0:0"), "{out}");
}

#[test]
fn a_scripted_chess_game_with_a_claim() {
    let out = piped(
        &["--game", "chess", "--time", "none"],
        "claim\nNf3\nNf6\nNg1\nNg8\nNf3\nNf6\nNg1\nNg8\nclaim\n",
    );
    assert!(out.contains("refused: no draw can be claimed"), "{out}");
    assert!(out.contains("game over: draw (claim)"), "{out}");
}

fn tmux(args: &[&str]) -> String {
    let out = Command::new("tmux").args(args).output().expect("tmux runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn two_players_at_one_terminal_through_tmux() {
    if Command::new("tmux").arg("-V").output().is_err() {
        testdata::skip("tmux is not installed (`.ci/run` installs it); the piped tests cover the same commands");
        return;
    }
    let session = format!("arbiter-play-{}", std::process::id());
    let bin = env!("CARGO_BIN_EXE_arbiter");
    tmux(&[
        "new-session",
        "-d",
        "-s",
        &session,
        "-x",
        "120",
        "-y",
        "50",
        bin,
        "play",
        "--game",
        "chess",
        "--time",
        "3+2",
    ]);
    // Keep the pane when the game is over and the program exits, to read it.
    tmux(&["set-option", "-t", &session, "remain-on-exit", "on"]);
    let screen = |session: &str| tmux(&["capture-pane", "-p", "-t", session, "-S", "-200"]);
    let wait_for = |what: &str| {
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(10) {
            let s = screen(&session);
            if s.contains(what) {
                return s;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("{what:?} never appeared:\n{}", screen(&session));
    };
    wait_for("white to move>");
    for m in ["f3", "e5", "g4", "Qh4#"] {
        // Literally (`f3` alone would be the F3 key), then Enter.
        tmux(&["send-keys", "-t", &session, "-l", m]);
        tmux(&["send-keys", "-t", &session, "Enter"]);
        std::thread::sleep(Duration::from_millis(100));
    }
    let s = wait_for("game over");
    tmux(&["kill-session", "-t", &session]);
    assert!(s.contains("game over: black (checkmate)"), "{s}");
    assert!(s.contains("clocks: white"), "{s}");
}

#[test]
fn the_referee_rulesets_are_listed_with_their_thresholds() {
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["play", "--list-rules"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let names: Vec<String> = text
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["name"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(names, ["cxa", "cxa-provincial", "casual", "fide", "online"]);
    assert!(
        text.contains("\"illegal_moves_lose_at\":1") && text.contains("\"technical_fouls_lose_at\":2"),
        "{text}"
    );
}

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

/// Whether tmux runs here; where it does not, the test says SKIPPED, and fails under CI.
fn have_tmux() -> bool {
    if Command::new("tmux").arg("-V").output().is_ok() {
        return true;
    }
    testdata::skip("tmux is not installed (`.ci/run` installs it); the piped tests cover the same commands");
    false
}

/// `arbiter play ARGS` in a detached tmux session of its own, 120×50.
struct Terminal {
    session: String,
}

impl Terminal {
    fn start(name: &str, args: &[&str]) -> Terminal {
        let session = format!("arbiter-{name}-{}", std::process::id());
        let mut all = vec!["new-session", "-d", "-s", &session, "-x", "120", "-y", "50"];
        all.push(env!("CARGO_BIN_EXE_arbiter"));
        all.push("play");
        all.extend_from_slice(args);
        tmux(&all);
        // Keep the pane when the game is over and the program exits, to read it.
        tmux(&["set-option", "-t", &session, "remain-on-exit", "on"]);
        Terminal { session }
    }

    fn screen(&self) -> String {
        tmux(&["capture-pane", "-p", "-t", &self.session, "-S", "-2000"])
    }

    fn wait_for(&self, what: &str) -> String {
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(10) {
            let s = self.screen();
            if s.contains(what) {
                return s;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("{what:?} never appeared:\n{}", self.screen());
    }

    /// Types `line` literally (`f3` alone would be the F3 key), then Enter, and waits for the
    /// prompt that follows it.
    fn type_line(&self, line: &str) {
        let prompts = self.screen().matches("to move>").count();
        tmux(&["send-keys", "-t", &self.session, "-l", line]);
        tmux(&["send-keys", "-t", &self.session, "Enter"]);
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(10) {
            let s = self.screen();
            if s.matches("to move>").count() > prompts || s.contains("game over") {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("no answer to {line:?}:\n{}", self.screen());
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        tmux(&["kill-session", "-t", &self.session]);
    }
}

#[test]
fn two_players_at_one_terminal_through_tmux() {
    if !have_tmux() {
        return;
    }
    let t = Terminal::start("play", &["--game", "chess", "--time", "3+2"]);
    t.wait_for("white to move>");
    for m in ["f3", "e5", "g4", "Qh4#"] {
        t.type_line(m);
    }
    let s = t.wait_for("game over");
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

#[test]
fn point_04_typo_is_not_an_illegal_move() {
    // Under cxa one illegal move loses (4.1.8); a word is no move, and costs nothing.
    let out = piped(&["--rules", "cxa", "--time", "none"], "hello\noffer\nh2e2\n");
    assert_eq!(out.matches("not understood").count(), 2, "{out}");
    assert!(
        out.contains("\"hello\" is not a move; moves are written in ICCS coordinates (h2e2, H2-E2), Fairy-Stockfish coordinates (h3e3), WXF (C2.5, H8+7) or Chinese (炮二平五)"),
        "{out}"
    );
    assert!(
        out.contains("commands: draw (offer with your next move), accept, decline"),
        "{out}"
    );
    assert!(!out.contains("foul by") && !out.contains("game over"), "{out}");
    assert!(out.contains("1. 炮二平五 (h2e2)"), "{out}");
    // A move that reads and is illegal on the board still loses.
    let out = piped(&["--rules", "cxa", "--time", "none"], "hello\nh0h2\n");
    assert!(
        out.contains("game over: black (illegal_moves) — red: illegal move h0h2"),
        "{out}"
    );
}

#[test]
fn point_07_play_numbers_moves() {
    // Move N is red's ply and black's reply.
    let out = piped(&["--time", "none"], "h2e2\nh9g7\nh0g2\ni9h9\nresign\n");
    for line in [
        "1. 炮二平五 (h2e2)",
        "1... 马８进７ (h9g7)",
        "2. 马二进三 (h0g2)",
        "2... 车９平８ (i9h9)",
    ] {
        assert!(out.contains(line), "{line} missing:\n{out}");
    }
    assert!(!out.contains("3. ") && !out.contains("4. "), "{out}");
    // Numbered on from the start's FEN, black to move opening "12...".
    let out = piped(
        &[
            "--game",
            "chess",
            "--time",
            "none",
            "--fen",
            "4k3/8/8/8/8/8/8/R3K3 b - - 0 12",
        ],
        "Kd7\nRa7+\nresign\n",
    );
    assert!(
        out.contains("12... Kd7 (e8d7)") && out.contains("13. Ra7+ (a1a7)"),
        "{out}"
    );
}

#[test]
fn point_08_claim_only_when_claimable() {
    if !have_tmux() {
        return;
    }
    let t = Terminal::start("claim", &["--game", "chess", "--time", "none"]);
    let s = t.wait_for("white to move>");
    assert!(s.contains("no draw may be claimed now"), "{s}");
    let commands = |s: &str| {
        s.lines()
            .rev()
            .find(|l| l.starts_with("commands:"))
            .unwrap_or("")
            .to_string()
    };
    assert!(!commands(&s).contains("claim"), "{s}");
    // Knights out and back: from the seventh ply black may claim the threefold repetition by
    // announcing Ng8; until then no claim is offered.
    for (i, m) in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"].iter().enumerate() {
        t.type_line(m);
        let offered = t.screen().contains("a draw may be claimed");
        assert_eq!(offered, i == 6, "after ply {}:\n{}", i + 1, t.screen());
    }
    t.type_line("help");
    let s = t.screen();
    assert!(commands(&s).contains("claim, resign"), "{s}");
    assert!(s.contains("a draw may be claimed now: "), "{s}");
    t.type_line("claim");
    let s = t.wait_for("game over");
    assert!(s.contains("game over: draw (claim)"), "{s}");
    assert!(!s.contains("foul by"), "{s}");
}

#[test]
fn point_08_a_false_claim_typed_is_still_a_foul() {
    // The seeds make a false claim a foul (seed 000 §8 (二)); the prompt does not offer it, but
    // a player who claims anyway has claimed.
    let out = piped(&["--rules", "casual", "--time", "none"], "claim\nclaim\n");
    assert!(
        out.contains("foul by red: no draw can be claimed in this position (1 of 2)"),
        "{out}"
    );
    assert!(out.contains("game over: black (technical_fouls)"), "{out}");
}

//! `arbiter play`: two people at one keyboard play a game in the terminal, refereed: real
//! clocks, draw offers, claims, resignation, the judge's verdict at the end.
//!
//! Commands are read a line at a time (so a game can also be piped in): a move in any notation
//! the game reads (`h2e2`, `炮二平五`, `e4`, `Nf3`), `draw` (offer with the next move), `accept`,
//! `decline`, `claim`, `resign`, `board`, `help`, `quit`. The side to move is the one typing (an
//! offer goes with a move, so it is answered by the side to move).
//!
//! A text that is no move is not understood and costs nothing; `claim` is offered only while a
//! draw may be claimed, since a false claim is a foul (it still is when typed).

use std::io::{BufRead, Write};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use game::{Game, Kind, Side};
use judge::chess::{ChessJudge, ChessRules};
use judge::xiangqi::{Rules, XiangqiJudge};
use judge::Judge;
use referee::clock::{Remaining, TimeControl};
use referee::{Command, EventKind, Referee, RefereeRules};

/// `5+3`: minutes and seconds of increment; `60s`: a limit per move; `none`.
pub fn parse_time(s: &str) -> Result<TimeControl> {
    if s == "none" {
        return Ok(TimeControl::unlimited());
    }
    if let Some(secs) = s.strip_suffix('s') {
        let n: u64 = secs.parse().context("seconds per move")?;
        return Ok(TimeControl::per_move(n * 1000));
    }
    let (min, inc) = s.split_once('+').unwrap_or((s, "0"));
    let min: f64 = min.parse().context("minutes")?;
    let inc: u64 = inc.parse().context("increment seconds")?;
    Ok(TimeControl::fischer((min * 60_000.0) as u64, inc * 1000))
}

/// `judge_rules`: the Xiangqi judge's rules, with the limits the command line set.
pub fn run(kind: &str, fen: Option<&str>, time: &str, rules: Option<&str>, judge_rules: Rules) -> Result<()> {
    let kind: Kind = kind.parse().map_err(anyhow::Error::msg)?;
    let mut referee_rules = match rules {
        Some(n) => RefereeRules::by_name(n)
            .with_context(|| format!("unknown referee rules {n:?}; known: {}", RefereeRules::NAMES.join(", ")))?,
        None => RefereeRules::online(),
    };
    referee_rules.time = parse_time(time)?;
    referee_rules.lateness = None;
    match kind {
        Kind::Xiangqi => {
            let start = match fen {
                Some(f) => <xiangqi::Position as Game>::from_fen(f).map_err(anyhow::Error::msg)?,
                None => xiangqi::Position::start(),
            };
            let judge = XiangqiJudge::new(start.clone(), judge_rules);
            session(Referee::new(judge, referee_rules), start)
        }
        Kind::Chess => {
            let start = match fen {
                Some(f) => <chess::Position as Game>::from_fen(f).map_err(anyhow::Error::msg)?,
                None => <chess::Position as Game>::start(),
            };
            let judge = ChessJudge::new(start.clone(), ChessRules::fide());
            session(Referee::new(judge, referee_rules), start)
        }
    }
}

/// The board from the FEN's placement field, rank by rank, with coordinates.
fn board<G: Game>(pos: &G) -> String {
    let fen = pos.fen();
    let placement = fen.split(' ').next().unwrap_or("");
    let ranks: Vec<&str> = placement.split('/').collect();
    let n = ranks.len();
    let mut out = String::new();
    for (i, rank) in ranks.iter().enumerate() {
        let label = if G::KIND == Kind::Xiangqi { n - 1 - i } else { n - i };
        out.push_str(&format!("{label:>2} "));
        for c in rank.chars() {
            match c.to_digit(10) {
                Some(d) => (0..d).for_each(|_| out.push_str(" .")),
                None => {
                    out.push(' ');
                    out.push(c);
                }
            }
        }
        out.push('\n');
        if G::KIND == Kind::Xiangqi && i == 4 {
            out.push_str("   ~~~~~~~~~~~~~~~~~~\n");
        }
    }
    let files = if G::KIND == Kind::Xiangqi {
        "abcdefghi"
    } else {
        "abcdefgh"
    };
    out.push_str("   ");
    for f in files.chars() {
        out.push(' ');
        out.push(f);
    }
    out.push('\n');
    out
}

/// The commands besides moves, `claim` among them only while a draw may be claimed.
fn commands(claimable: bool) -> &'static str {
    if claimable {
        "draw (offer with your next move), accept, decline, claim, resign, board, help, quit"
    } else {
        "draw (offer with your next move), accept, decline, resign, board, help, quit"
    }
}

/// What `help` says: the notations moves are read in, the commands, and whether a draw may be
/// claimed now and why.
fn help<J: Judge>(game: &Referee<J>) -> String {
    let notations = <J::Game as Game>::NOTATIONS;
    let claim = match game.claimable() {
        Some(v) => format!("a draw may be claimed now: {} (type claim)", v.explanation),
        None => "no draw may be claimed now (a false claim is a foul)".to_string(),
    };
    let commands = commands(game.claimable().is_some());
    format!("moves in {notations}\ncommands: {commands}\n{claim}")
}

/// The start's move number, from the FEN's sixth field: "… b KQkq - 0 1" opens with "1...".
fn first_move_number(fen: &str) -> usize {
    fen.split_whitespace()
        .nth(5)
        .and_then(|n| n.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(1)
}

fn clock_text(r: Remaining) -> String {
    let s = r.main / 1000;
    format!("{}:{:02}", s / 60, s % 60)
}

fn session<J: Judge>(mut game: Referee<J>, start: J::Game) -> Result<()> {
    let kind = <J::Game as Game>::KIND;
    let clock0 = Instant::now();
    let now = || clock0.elapsed().as_millis() as u64;
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    game.apply(now(), Side::First, Command::Start);
    let mut offering = false;
    let show = |game: &Referee<J>, out: &mut std::io::Stdout, t: u64| -> Result<()> {
        let pos = game.judge().position();
        let timed = !game.clock().control().stages.is_empty();
        write!(out, "\n{}", board(pos))?;
        if timed {
            writeln!(
                out,
                "clocks: {} {}  {} {}",
                Side::First.name(kind),
                clock_text(game.clock().remaining(Side::First, t)),
                Side::Second.name(kind),
                clock_text(game.clock().remaining(Side::Second, t))
            )?;
        }
        Ok(())
    };
    show(&game, &mut out, now())?;
    writeln!(out, "{}", help(&game))?;
    // A move and the reply make one numbered move, as records number them.
    let mut move_number = first_move_number(&start.fen());
    let mut lines = stdin.lock().lines();
    while game.ending().is_none() {
        let side = game.judge().position().turn();
        write!(out, "{} to move> ", side.name(kind))?;
        out.flush()?;
        let Some(line) = lines.next() else { break };
        let line = line?;
        let text = line.trim();
        let command = match text {
            "" => continue,
            "quit" => bail!("quit before the end"),
            "board" => {
                show(&game, &mut out, now())?;
                continue;
            }
            "help" | "?" => {
                writeln!(out, "{}", help(&game))?;
                continue;
            }
            "draw" => {
                offering = true;
                writeln!(out, "the offer goes with your next move")?;
                continue;
            }
            "accept" => (Command::AcceptDraw, side),
            "decline" => (Command::DeclineDraw, side),
            "claim" => (Command::ClaimDraw, side),
            "resign" => (Command::Resign, side),
            m if std::mem::take(&mut offering) => (Command::MoveOfferingDraw(m.to_string()), side),
            m => (Command::Move(m.to_string()), side),
        };
        let t = now();
        let events: Vec<EventKind> = game
            .apply(t, command.1, command.0)
            .iter()
            .map(|e| e.kind.clone())
            .collect();
        let mut moved = false;
        for e in events {
            match e {
                EventKind::MoveAccepted {
                    side,
                    notation,
                    coordinate,
                    ..
                } => {
                    moved = true;
                    let dots = if side == Side::First { "." } else { "..." };
                    writeln!(out, "{move_number}{dots} {notation} ({coordinate})")?;
                    if side == Side::Second {
                        move_number += 1;
                    }
                }
                EventKind::MoveRejected { reason, text, .. } => {
                    writeln!(out, "not accepted: {reason}")?;
                    if !game.judge().position().reads_as_move(&text) {
                        writeln!(out, "commands: {}", commands(game.claimable().is_some()))?;
                    }
                }
                EventKind::DrawOffered { by } => writeln!(out, "{} offers a draw (accept / decline)", by.name(kind))?,
                EventKind::DrawDeclined { by } => writeln!(out, "{} declined the draw", by.name(kind))?,
                EventKind::OfferRefused { reason, .. }
                | EventKind::ClaimRejected { reason, .. }
                | EventKind::Refused { reason, .. } => writeln!(out, "refused: {reason}")?,
                EventKind::Foul {
                    side,
                    count,
                    limit,
                    what,
                    ..
                } => writeln!(
                    out,
                    "foul by {}: {what} ({count}{})",
                    side.name(kind),
                    limit.map(|l| format!(" of {l}")).unwrap_or_default()
                )?,
                EventKind::Warning { side, what, .. } => writeln!(out, "warning to {}: {what}", side.name(kind))?,
                EventKind::MustVary { side, explanation, .. } => {
                    writeln!(out, "{} must vary: {explanation}", side.name(kind))?
                }
                EventKind::GameOver(e) => writeln!(
                    out,
                    "game over: {} ({}) — {}",
                    e.result.name(kind),
                    referee::reason_code(&e),
                    e.explanation
                )?,
                _ => {}
            }
        }
        if moved && game.ending().is_none() {
            show(&game, &mut out, now())?;
            if let Some(v) = game.claimable() {
                writeln!(out, "a draw may be claimed: {} (type claim)", v.explanation)?;
            }
        }
    }
    if game.ending().is_some() {
        writeln!(out, "\n{}", game.pgn(&start, &[("Event", "arbiter play")]))?;
    }
    Ok(())
}

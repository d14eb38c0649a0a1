//! The game as PGN, with `[%clk]` and `Termination`, and the notes a record keeps of what
//! was not a move.

use game::{Game, Side};
use judge::Judge;

use crate::clock::Millis;
use crate::events::EventKind;
use crate::Referee;

impl EventKind {
    /// What a PGN record says of an event other than a move, as a comment: the ending's
    /// explanation, fouls, rejected claims, warnings, a side told to vary.
    pub fn pgn_note(&self, kind: game::Kind) -> Option<String> {
        let name = |s: &Side| s.name(kind);
        match self {
            EventKind::GameOver(end) => Some(end.explanation.clone()),
            EventKind::Foul { side, what, count, .. } => Some(format!("foul by {}: {what} ({count})", name(side))),
            EventKind::ClaimRejected { by, reason } => Some(format!("{} claimed: {reason}", name(by))),
            EventKind::Warning { side, what } => Some(format!("warning to {}: {what}", name(side))),
            EventKind::MustVary { side, .. } => Some(format!("{} must vary", name(side))),
            _ => None,
        }
    }
}

/// `[%clk h:mm:ss]` as lichess and chess.com write it.
fn clk(ms: Millis) -> String {
    let s = ms / 1000;
    format!("[%clk {}:{:02}:{:02}]", s / 3600, s / 60 % 60, s % 60)
}

impl<J: Judge> Referee<J> {
    /// The game as PGN: the standard tags (with `Result` and `Termination` from the ending, the
    /// start `FEN` when it is not the standard one, `Variant` for Xiangqi), the moves in the
    /// game's notation with each mover's clock after the move as `[%clk]`, and offers as
    /// comments. `tags` come first (Event, Site, players …).
    pub fn pgn(&self, start: &J::Game, tags: &[(&str, &str)]) -> String {
        let kind = <J::Game as Game>::KIND;
        let mut out = String::new();
        for (k, v) in tags {
            out.push_str(&format!("[{k} \"{}\"]\n", v.replace('\\', "\\\\").replace('"', "\\\"")));
        }
        let result = self.ending().map_or("*", |e| e.result.pgn());
        out.push_str(&format!("[Result \"{result}\"]\n"));
        if kind == game::Kind::Xiangqi {
            out.push_str("[Variant \"xiangqi\"]\n");
        }
        let fen = start.fen();
        if fen != <J::Game as Game>::start().fen() {
            out.push_str(&format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n"));
        }
        if let Some(e) = self.ending() {
            out.push_str(&format!("[Termination \"{}\"]\n", e.reason.termination()));
        }
        out.push('\n');
        let mut line = String::new();
        // Numbered on from the start's FEN (its sixth field): "… b KQkq - 0 1" opens "1...".
        let mut fullmove = fen
            .split_whitespace()
            .nth(5)
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|&n| n > 0)
            .unwrap_or(1);
        let mut first = true;
        for e in self.events() {
            let EventKind::MoveAccepted {
                side,
                coordinate,
                notation,
                clocks,
                offers_draw,
                ..
            } = &e.kind
            else {
                if let Some(n) = e.kind.pgn_note(kind) {
                    line.push_str(&format!("{{{}}} ", n.replace('}', ")")));
                }
                continue;
            };
            match side {
                Side::First => line.push_str(&format!("{fullmove}. ")),
                Side::Second if first => line.push_str(&format!("{fullmove}... ")),
                Side::Second => {}
            }
            if *side == Side::Second {
                fullmove += 1;
            }
            first = false;
            // Without live notation, the coordinates.
            line.push_str(if notation.is_empty() {
                coordinate.as_str()
            } else {
                notation.as_str()
            });
            let left = clocks[match side {
                Side::First => 0,
                Side::Second => 1,
            }];
            if self.clock().control().stages.is_empty() {
                line.push(' ');
            } else {
                line.push_str(&format!(" {{{}}} ", clk(left.main)));
            }
            if *offers_draw {
                line.push_str("{draw offered} ");
            }
        }
        line.push_str(result);
        out.push_str(&line);
        out.push('\n');
        out
    }
}

//! The game as the engine has been told it, followed move by move across requests: the moves
//! in the project's coordinates, the `position` command for them, and the position itself,
//! played into only when a command needs it.

use game::{Game, Side};

use super::text::{position_line, push_move, same_move};
use crate::EngineError;

/// The game as the engine has been told it so far.
pub(super) struct Track<G: Game> {
    /// As the request gave it, to recognise the same game in the next request.
    pub(super) start_fen: Option<String>,
    pub(super) pos: G,
    /// How many of the moves are played into `pos`: all but checked ones not needed yet.
    pub(super) at: usize,
    /// The side to move at the start.
    pub(super) first: Side,
    /// Every move in the project's coordinates, end to end; `ends[i]` is where move `i` ends.
    /// One string rather than a string per move: fewer allocations, and it is compared with
    /// the next request to find what is new.
    pub(super) played: String,
    pub(super) ends: Vec<usize>,
    /// The `position` command for the moves so far, as the engine gets it, kept up to date
    /// move by move (rewriting it every ply would cost the whole game's moves each time).
    pub(super) line: String,
    pub(super) line_has_moves: bool,
}

impl<G: Game> Track<G> {
    pub(super) fn new(start_fen: Option<&str>) -> Result<Track<G>, EngineError> {
        let pos = match start_fen {
            Some(f) => G::from_fen(f).map_err(|e| EngineError::Request(format!("bad start FEN: {e}")))?,
            None => G::start(),
        };
        // The FEN as the game writes it: FEN is read leniently (WXF letters, missing fields)
        // and the engine must get the standard form.
        let mut line = String::with_capacity(2048);
        position_line(&mut line, start_fen.map(|_| pos.fen()).as_deref());
        Ok(Track {
            start_fen: start_fen.map(str::to_string),
            first: pos.turn(),
            pos,
            at: 0,
            played: String::with_capacity(1024),
            ends: Vec::with_capacity(256),
            line,
            line_has_moves: false,
        })
    }

    pub(super) fn extends<S: AsRef<str>>(&self, start_fen: Option<&str>, moves: &[S]) -> bool {
        if self.start_fen.as_deref() != start_fen || moves.len() < self.ends.len() {
            return false;
        }
        let played = self.played.as_bytes();
        let mut from = 0;
        self.ends.iter().zip(moves).all(|(&end, m)| {
            let same = same_move(&played[from..end], m.as_ref().as_bytes());
            from = end;
            same
        })
    }

    /// Writes down a move in coordinates: in `played` and in the `position` command.
    pub(super) fn write_down(&mut self, text: &str, fsf: bool) {
        let from = self.played.len();
        self.played.push_str(text);
        self.ends.push(self.played.len());
        if !self.line_has_moves {
            self.line.push_str(" moves");
            self.line_has_moves = true;
        }
        self.line.push(' ');
        push_move(&mut self.line, fsf, &self.played[from..]);
    }

    /// The side to move after the moves.
    pub(super) fn turn(&self) -> Side {
        if self.ends.len().is_multiple_of(2) {
            self.first
        } else {
            !self.first
        }
    }

    /// The position after the moves, played into now where it lags behind.
    pub(super) fn position(&mut self) -> Result<&G, EngineError> {
        while self.at < self.ends.len() {
            let from = if self.at == 0 { 0 } else { self.ends[self.at - 1] };
            let text = &self.played[from..self.ends[self.at]];
            let m = self
                .pos
                .parse_move(text)
                .map_err(|_| EngineError::Request(format!("move {} ({text}) is not legal", self.at + 1)))?;
            self.pos.play(m);
            self.at += 1;
        }
        Ok(&self.pos)
    }
}

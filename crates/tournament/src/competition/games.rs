//! The games an event has played over the board, player against player, for rating lists.

use serde::Serialize;

use super::progress::rule;
use super::{Event, Side};
use crate::result::{RoundResult, Score};
use crate::trf::{Colour, Trf};

/// One game played over the board: red's (white's) player, black's, and red's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlayedGame {
    pub red: String,
    pub black: String,
    pub score: Score,
}

impl Event {
    /// Every game played over the board, in the order played: a match's games with their
    /// colours, a team pairing's boards between the members who sat there (the first
    /// `boards` members, board 1's red with the first-named team; a tie's play-off match on
    /// the same boards, colours turned round), a Swiss's games from its
    /// TRF. Forfeits and byes are not games.
    pub fn played_games(&self) -> Vec<PlayedGame> {
        if let Some(text) = self.swiss_trf() {
            return Trf::parse(text).map(|t| swiss_games(&t)).unwrap_or_default();
        }
        let mut out = Vec::new();
        for (s, stage) in self.stages.iter().enumerate() {
            let rounds: Vec<_> = self
                .stage_rounds(s)
                .chain(stage.playoffs.iter().map(std::borrow::Cow::Borrowed))
                .collect();
            for p in rounds.iter().flat_map(|r| &r.pairings) {
                let Some(second) = p.second else { continue };
                let boards = rule(self, s, p).boards;
                let teams = boards > 0;
                for (k, g) in p
                    .games
                    .iter()
                    .enumerate()
                    .filter(|(_, g)| !g.forfeit && !g.double_forfeit)
                {
                    let (a, b) = if teams {
                        let member = |side| self.board_player(p, side, k % boards as usize).unwrap_or_default();
                        (member(Side::First), member(Side::Second))
                    } else {
                        (self.name_of(p.first), self.name_of(second))
                    };
                    // Colours alternate game by game in a match and board by board in a team
                    // pairing (turned round in a play-off match on the boards).
                    let first_red = super::Pairing::first_red(k, boards);
                    let side = if first_red { Side::First } else { Side::Second };
                    let (red, black, score) = match side {
                        Side::First => (a, b, g.score),
                        Side::Second => (b, a, g.score.reversed()),
                    };
                    if !red.is_empty() && !black.is_empty() {
                        out.push(PlayedGame { red, black, score });
                    }
                }
            }
        }
        out
    }
}

/// A Swiss's games, each once (from white's line), round by round.
fn swiss_games(t: &Trf) -> Vec<PlayedGame> {
    let rounds = t.players.iter().map(|p| p.rounds.len()).max().unwrap_or(0);
    let mut out = Vec::new();
    for r in 0..rounds {
        for p in &t.players {
            let Some(round) = p.rounds.get(r) else { continue };
            if !round.played() || round.colour != Colour::White {
                continue;
            }
            let (RoundResult::Game { score, .. }, Some(opponent)) = (round.result, t.player(round.opponent)) else {
                continue;
            };
            out.push(PlayedGame {
                red: p.name.clone(),
                black: opponent.name.clone(),
                score,
            });
        }
    }
    out
}

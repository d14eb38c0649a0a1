//! A player's result in one round — a game won, drawn or lost (胜、和、负), a forfeit (弃权) or
//! a bye (轮空) — as the one type the tournament code works on. TRF's letters for them are read
//! and written in [`crate::trf`] only.

use serde::{Deserialize, Serialize};

/// Win, draw or loss from one player's view (胜、和、负).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Score {
    Loss,
    Draw,
    Win,
}

impl Score {
    /// The same game from the opponent's view.
    pub fn reversed(self) -> Score {
        match self {
            Score::Win => Score::Loss,
            Score::Draw => Score::Draw,
            Score::Loss => Score::Win,
        }
    }

    /// Points on the 1/½/0 scale.
    pub fn points(self) -> f64 {
        match self {
            Score::Win => 1.0,
            Score::Draw => 0.5,
            Score::Loss => 0.0,
        }
    }
}

/// A round without a game (轮空).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Bye {
    /// The pairing-allocated bye: the one player left over when the round is paired (a win's
    /// points).
    PairingAllocated,
    /// A full-point bye the player asked for.
    Full,
    /// A half-point bye the player asked for (also what a late entrant may get for the rounds
    /// already played).
    Half,
    /// A zero-point bye: absent, or withdrawn (every round after a withdrawal).
    Zero,
}

impl Bye {
    /// The score it counts as: a win, a draw or a loss.
    pub fn score(self) -> Score {
        match self {
            Bye::PairingAllocated | Bye::Full => Score::Win,
            Bye::Half => Score::Draw,
            Bye::Zero => Score::Loss,
        }
    }

    /// What the bye is, in words (for messages and crosstables).
    pub fn name(self) -> &'static str {
        match self {
            Bye::PairingAllocated => "pairing-allocated bye",
            Bye::Full => "full-point bye",
            Bye::Half => "half-point bye",
            Bye::Zero => "zero-point bye",
        }
    }
}

/// A player's result in one round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum RoundResult {
    /// A game played over the board. `rated: false` for a game the event counts but rating
    /// lists do not (TRF's W, D, L: e.g. one abandoned before both sides moved).
    Game {
        score: Score,
        rated: bool,
    },
    /// Won by forfeit (the opponent did not play).
    ForfeitWin,
    /// Lost by forfeit (did not play; both players of a game may).
    ForfeitLoss,
    Bye(Bye),
    /// Paired, the game's result not entered yet.
    Pending,
}

impl RoundResult {
    pub const WIN: RoundResult = RoundResult::Game {
        score: Score::Win,
        rated: true,
    };
    pub const DRAW: RoundResult = RoundResult::Game {
        score: Score::Draw,
        rated: true,
    };
    pub const LOSS: RoundResult = RoundResult::Game {
        score: Score::Loss,
        rated: true,
    };

    /// A rated game with this score.
    pub fn game(score: Score) -> RoundResult {
        RoundResult::Game { score, rated: true }
    }

    /// What the round counts as; `None` while the result is pending.
    pub fn score(self) -> Option<Score> {
        match self {
            RoundResult::Game { score, .. } => Some(score),
            RoundResult::ForfeitWin => Some(Score::Win),
            RoundResult::ForfeitLoss => Some(Score::Loss),
            RoundResult::Bye(bye) => Some(bye.score()),
            RoundResult::Pending => None,
        }
    }

    /// Points on the 1/½/0 scale (wins and full byes 1, draws and half byes ½; a pending game
    /// nothing yet).
    pub fn points(self) -> f64 {
        self.score().map_or(0.0, Score::points)
    }

    /// A game played over the board, rated or not.
    pub fn is_game(self) -> bool {
        matches!(self, RoundResult::Game { .. })
    }

    /// The bye, if the round is one.
    pub fn bye(self) -> Option<Bye> {
        match self {
            RoundResult::Bye(b) => Some(b),
            _ => None,
        }
    }

    /// A voluntary unplayed round (C.07 16.2): a half- or zero-point bye, or a forfeit loss.
    pub fn voluntary_unplayed(self) -> bool {
        matches!(self, RoundResult::Bye(Bye::Half | Bye::Zero) | RoundResult::ForfeitLoss)
    }

    /// The opponent's result in the same game: a win for a loss, a forfeit win for a forfeit
    /// loss (`None` for a bye).
    pub fn reversed(self) -> Option<RoundResult> {
        Some(match self {
            RoundResult::Game { score, rated } => RoundResult::Game {
                score: score.reversed(),
                rated,
            },
            RoundResult::ForfeitWin => RoundResult::ForfeitLoss,
            RoundResult::ForfeitLoss => RoundResult::ForfeitWin,
            RoundResult::Pending => RoundResult::Pending,
            RoundResult::Bye(_) => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byes_and_forfeits_count_as_their_scores() {
        assert_eq!(RoundResult::Bye(Bye::PairingAllocated).points(), 1.0);
        assert_eq!(RoundResult::Bye(Bye::Half).points(), 0.5);
        assert_eq!(RoundResult::Bye(Bye::Zero).points(), 0.0);
        assert_eq!(RoundResult::ForfeitWin.score(), Some(Score::Win));
        assert_eq!(RoundResult::Pending.score(), None);
        assert_eq!(RoundResult::WIN.reversed(), Some(RoundResult::LOSS));
        assert_eq!(RoundResult::ForfeitLoss.reversed(), Some(RoundResult::ForfeitWin));
        assert!(RoundResult::ForfeitLoss.voluntary_unplayed());
        assert!(!RoundResult::Bye(Bye::Full).voluntary_unplayed());
    }
}

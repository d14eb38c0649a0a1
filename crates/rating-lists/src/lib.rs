//! Rating lists kept in the store ([`store::ratings`]): what a player's standing is under each
//! rating system and what an event's games make of the standings ([`standing`]), and rating an
//! event into a list ([`list`]). The command line (`arbiter rate`) and the server (an event's
//! games rated when it ends) share them.

pub mod list;
pub mod standing;

pub use list::{rate_game_into, rate_into, Report, Row};
pub use standing::State;

/// A rated game: the two players and the first's score.
#[derive(Debug, Clone, PartialEq)]
pub struct Game {
    pub first: String,
    pub second: String,
    /// 1, ½ or 0 for the first player.
    pub score: f64,
}

//! Ratings for players and events.
//!
//! - [`levels`]: the level-and-points scheme of seed 001 (无级别, 30级 … 1级, 100 points a level;
//!   the draw, lower-wins and higher-wins formulas; the loser pays what the winner gains),
//!   computed exactly.
//! - [`elo`]: FIDE Elo (B.02): the table of expected scores, K 40/20/10 with the K·n ≤ 700 cap,
//!   the 400-point rule and its October 2025 exception for players rated 2650 and above.
//! - [`glicko2`]: Glicko-2 (Glickman), rating periods with volatility.
//! - [`sprt`]: engine matches: Elo and normalized Elo estimates from game pairs
//!   (pentanomial) or games (trinomial), and the generalized SPRT as fishtest runs it.

pub mod elo;
pub mod glicko2;
pub mod levels;
pub mod sprt;

//! The referee: one game conducted under competition rules, the same for Xiangqi and chess.
//!
//! Time is an input: every command carries the time it happened (milliseconds on a monotonic
//! clock), so a game replays from its log and every test is deterministic.
//!
//! - [`clock`]: time controls — fixed time per move, sudden death, Fischer increment, Bronstein
//!   delay, stages ("N moves in T, then …"), byo-yomi — and the clocks that run under them.
//! - [`touch`]: touch-move obligations in the seeds' order of precedence.
//! - [`corrections`]: the arbiter's corrections at the board (pieces straightened, a position
//!   put right, a board turned or colours swapped) and the seeds' rulings on them.
//! - [`Referee`]: one game's state machine — moves with clocks, draw offers by the seeds'
//!   etiquette, claims, fouls and their limits, touch-move, adjournment, flag falls and
//!   lateness — ruling with the judge, and telling what draw may be claimed now
//!   ([`Referee::claimable`]); [`RefereeRules`] bundles an event's thresholds by name, and what
//!   each breach counts as; [`Referee::pgn`] writes the record with `[%clk]` and `Termination`.

pub mod clock;
pub mod corrections;
mod events;
mod game;
pub mod pgn;
pub mod rules;
pub mod touch;
mod why;

pub use corrections::{Correction, Straightening};
pub use events::{reason_code, rule_code, Command, EndReason, Ending, Event, EventKind, FoulKind};
pub use game::Referee;
pub use rules::{OfferPenalty, RefereeRules};
pub use why::Why;

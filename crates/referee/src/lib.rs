//! The referee: one game conducted under competition rules, the same for Xiangqi and chess.
//!
//! Time is an input: every command carries the time it happened (milliseconds on a monotonic
//! clock), so a game replays from its log and every test is deterministic.
//!
//! - [`clock`]: time controls — fixed time per move, sudden death, Fischer increment, Bronstein
//!   delay, stages ("N moves in T, then …"), byo-yomi — and the clocks that run under them.
//! - [`touch`]: touch-move obligations in the seeds' order of precedence.

pub mod clock;
pub mod touch;

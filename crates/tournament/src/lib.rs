//! Tournament formats (the first part of issue 6; Swiss pairings and standings follow).
//!
//! - [`round_robin`]: FIDE Berger tables (C.05 Annex 1), single and double, odd fields with a
//!   bye; seeds dealt into groups in snake order (分组循环).
//! - [`knockout`]: seeded brackets with byes to the top seeds, and seed 000's card draw (two sets
//!   of cards 1…m/2 and a K for the bye), seeded so a draw can be audited and replayed.
//! - [`double_elimination`]: winners' and losers' brackets, a grand final with reset.
//! - [`trf`] and [`tiebreak`]: TRF player lines, and the FIDE C.07 (2026) tie-breaks.

pub mod cxa;
pub mod cxa_swiss;
pub mod double_elimination;
pub mod dutch;
pub mod event;
pub mod knockout;
pub mod matching;
pub mod round_robin;
pub mod standings;
pub mod tiebreak;
pub mod trf;

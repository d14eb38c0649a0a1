//! Engine matches: games between engines (crate `engine`) played under the referee and judged
//! by the judge, as `arbiter match` runs them.
//!
//! - [`play`] plays one game between two engines (clocks from the engines' measured thinking
//!   time, banned moves, adjudication); [`runner`] plays a match of them (round robin or
//!   gauntlet, concurrency, PGN, progress, SPRT, resume from a state file beside the PGN).
//! - [`event`] makes a match a tournament event (Berger rounds, TRF-2026, standings with
//!   tie-breaks, by the tournament crate); [`openings`] reads the books games start from;
//!   [`pgn`] writes the games as engine match runners do (book moves, `{score/depth time}`);
//!   [`syzygy`] adjudicates chess endings by tablebases.
//! - [`cpu`] pins a game slot to CPUs and, when asked, changes its scheduling policy.

// Two system calls neither std nor rustix wraps for us (`sched_setscheduler`, and the process
// CPU clock without rustix's vDSO lookup) are made in `cpu`, allowed there and nowhere else.
#![deny(unsafe_code)]

pub mod cpu;
pub mod event;
mod journal;
pub mod openings;
pub mod output;
pub mod pgn;
pub mod play;
pub mod probe;
pub mod runner;
pub mod syzygy;

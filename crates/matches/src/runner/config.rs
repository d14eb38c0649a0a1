//! What a match is given: its engines and their limits, its openings, its outputs and options
//! ([`MatchConfig`]), and why it could not run ([`MatchError`]).

use std::io;
use std::path::{Path, PathBuf};

use ratings::sprt::Sprt;
use tournament::standings::TieBreak;

use crate::pgn::PgnOptions;
use crate::play::{Adjudication, Control};
use engine::EngineConfig;

/// One engine of the match and the limits its moves get.
#[derive(Debug, Clone)]
pub struct Entrant {
    pub config: EngineConfig,
    pub control: Control,
}

/// Where the games start: a FEN (`None`: the standard start) and moves played before the
/// engines take over.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Start {
    pub fen: Option<String>,
    /// In the project's coordinates (ICCS, UCI).
    pub moves: Vec<String>,
    /// Where it came from (file and line), for messages.
    pub source: String,
}

/// Everything a match needs. [`MatchConfig::default`] is a match of no engines yet: two games
/// per pair from the standard start, one at a time, no files written, nothing printed but
/// the results, so a caller names only what differs.
#[derive(Debug, Clone)]
pub struct MatchConfig {
    pub engines: Vec<Entrant>,
    /// The first engine against each of the others, rather than every pair.
    pub gauntlet: bool,
    /// Games per pair of engines (two per opening, colours reversed).
    pub games: u32,
    pub concurrency: usize,
    /// The openings in file order; empty: the standard start.
    pub openings: Vec<Start>,
    /// Shuffle the openings with this seed (otherwise in order).
    pub shuffle: Option<u64>,
    pub adjudication: Adjudication,
    pub pgn_out: Option<PathBuf>,
    /// What each engine move's PGN comment carries beyond `{score/depth time}`.
    pub pgn: PgnOptions,
    /// Write the match as a TRF-2026 file here at the end (see [`crate::event`]).
    pub trf_out: Option<PathBuf>,
    /// The tie-breaks of the standings (3+ engines) and of the TRF; empty: SB, then DE.
    pub tiebreaks: Vec<TieBreak>,
    /// Skip the games the state file next to `pgn_out` lists as finished.
    pub resume: bool,
    pub sprt: Option<Sprt>,
    pub event: String,
    pub site: String,
    /// A hash of what makes the match the same match, kept in the state file: a resumed match
    /// must be the one that was interrupted.
    pub config_hash: u64,
    /// Print a progress line per game.
    pub progress: bool,
    /// Keep each concurrent game — the runner's thread and the engines it starts — on CPUs of
    /// its own (as fastchess's `-use-affinity`): the runner and the engine it waits for then
    /// share a CPU and hand over to each other without waking another, which on two cores
    /// cut the runner's system time by a third. Slot `t` gets `Threads` CPUs (the largest
    /// `Threads` option of the engines, 1 if none), in turn from those the runner may use.
    pub affinity: bool,
    /// With `affinity` and untimed searches only: each slot's thread and its engines change
    /// their scheduling policy so that none preempts another when it wakes ([`crate::cpu`]). Off
    /// unless asked for: it changes how the system schedules the engines.
    pub yield_to_engines: bool,
    /// Print the results block (`Results of …`, `Ptnml(0-2)`) after every this many games
    /// (fastchess's `-ratinginterval`; 0: only at the end).
    pub rating_interval: u32,
}

impl Default for MatchConfig {
    fn default() -> Self {
        MatchConfig {
            engines: Vec::new(),
            gauntlet: false,
            // One pair of games, colours reversed: the least that is fair to both engines.
            games: 2,
            concurrency: 1,
            openings: Vec::new(),
            shuffle: None,
            adjudication: Adjudication::default(),
            pgn_out: None,
            pgn: PgnOptions::default(),
            trf_out: None,
            tiebreaks: Vec::new(),
            resume: false,
            sprt: None,
            // PGN's "unknown".
            event: "?".into(),
            site: "?".into(),
            config_hash: 0,
            progress: false,
            affinity: false,
            yield_to_engines: false,
            rating_interval: 0,
        }
    }
}

/// Why a match could not run.
#[derive(Debug)]
pub enum MatchError {
    Io(String),
    Config(String),
}

impl std::fmt::Display for MatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MatchError::Io(m) | MatchError::Config(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for MatchError {}

pub(crate) fn io_err(what: &str, path: &Path, e: io::Error) -> MatchError {
    MatchError::Io(format!("cannot {what} {}: {e}", path.display()))
}

/// A 64-bit FNV-1a hash, stable across runs and builds (for the state file).
pub fn stable_hash(text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// No engine's search is timed (nodes or depth only).
pub fn untimed(config: &MatchConfig) -> bool {
    config
        .engines
        .iter()
        .all(|e| e.control.tc.is_none() && e.control.movetime.is_none())
}

//! Engines as child processes: everything needed to start an engine, set its options, send it a
//! position and get its move back with every wait bounded. A match (crate `matches`) and a server
//! that lets a person play a computer both build on it. The referee decides what the moves mean;
//! this crate only gets them from engines safely.
//!
//! - [`Engine`] starts an engine ([`EngineConfig`]), shakes hands by UCI or UCCI, sets its
//!   options and asks it for moves ([`Engine::go`]) with [`Limits`] from the referee's clocks.
//! - Moves cross this boundary in the project's coordinates (ICCS for Xiangqi, UCI for chess)
//!   and are converted to the engine's ([`Coordinates`]) on the way out and back, so nothing
//!   above this crate knows which dialect an engine speaks.
//! - An engine is untrusted: it may hang, die, or print anything. Every wait for its output has
//!   a deadline (a non-blocking pipe and `poll`, on Unix), so a broken engine costs its game,
//!   never the runner; errors say which ([`EngineError`]).
//! - Cheap per move: the waiting thread reads the pipe itself and reads back only the last
//!   `info` lines a reply needs ([`lines`]); untimed searches (`go nodes`, `go depth`) are slept through
//!   for most of their expected length instead of waking for each line the engine prints.
//!
//! ```no_run
//! use std::time::{Duration, Instant};
//! use engine::{Coordinates, Engine, EngineConfig, Go, Limits};
//!
//! let mut config = EngineConfig::new("fairy", "fairy-stockfish");
//! config.coordinates = Coordinates::Fsf;
//! let mut fairy: Engine<xiangqi::Position> = Engine::start(&config)?;
//! fairy.new_game()?;
//! let moves = ["h2e2"];
//! let go = Go { moves: &moves, limits: Limits { nodes: Some(1000), ..Limits::default() }, ..Go::default() };
//! let reply = fairy.go(&go, Instant::now() + Duration::from_secs(5))?;
//! println!("{:?} {:?}", reply.best, reply.score);
//! # Ok::<(), engine::EngineError>(())
//! ```

// `MoveText::as_str` skips a UTF-8 check it does not need, allowed there and nowhere else.
#![deny(unsafe_code)]

mod command;
mod engine;
pub mod lines;
mod parse;
mod process;

use std::fmt;
use std::path::PathBuf;
use std::process::ExitStatus;
use std::time::Duration;

pub use engine::Engine;

/// An engine for Xiangqi positions.
pub type XiangqiEngine = Engine<xiangqi::Position>;
/// An engine for chess positions.
pub type ChessEngine = Engine<chess::Position>;

/// The protocol an engine speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Protocol {
    /// UCI (chess engines, Pikafish, Fairy-Stockfish).
    #[default]
    Uci,
    /// UCCI 3.0, the Chinese Xiangqi protocol (ElephantEye and its descendants).
    Ucci,
}

/// How an engine writes Xiangqi squares. No protocol says which ranks an engine counts, but
/// the one engine family that counts 1–10, Fairy-Stockfish, shows itself by its `UCI_Variant`
/// option, which [`Coordinates::Detect`] reads. Chess engines ignore this.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Coordinates {
    /// Ranks 0–9 from Red's side (`h2e2`), as ICCS, UCCI and Pikafish write them.
    #[default]
    Iccs,
    /// Ranks 1–10 (`h3e3`, `e10e9`), as Fairy-Stockfish writes them. It also needs
    /// `UCI_Variant xiangqi`, which is then sent unless the options set it.
    Fsf,
    /// Decided after the handshake: [`Coordinates::Fsf`] for a UCI engine that offers
    /// `xiangqi` in its `UCI_Variant` option or calls itself Fairy-Stockfish (`id name`),
    /// else [`Coordinates::Iccs`]. [`Engine::coordinates`] says what was decided.
    Detect,
}

/// How to start one engine and what to tell it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineConfig {
    /// The name the runner knows it by (the engine's own `id name` is kept apart).
    pub name: String,
    pub command: PathBuf,
    pub args: Vec<String>,
    pub working_dir: Option<PathBuf>,
    pub protocol: Protocol,
    /// Options set after the handshake, in this order: (name, value). An empty value sets a
    /// button option.
    pub options: Vec<(String, String)>,
    /// Numeric options set after `options` only where the engine declares them, a `spin`'s
    /// value brought within its declared range: a setting engines spell alike but bound
    /// differently (`Skill Level`: Fairy-Stockfish −20 to 20, Stockfish 0 to 20; an engine
    /// without it, as some Xiangqi engines are, is left as it is).
    pub if_declared: Vec<(String, i64)>,
    pub coordinates: Coordinates,
    /// The longest wait for `uciok`/`ucciok` after starting: engines load networks and
    /// tablebases before answering, so this is generous by default.
    pub handshake_timeout: Duration,
    /// The longest wait for `readyok`, and for an engine told to `stop` to give its move.
    pub ready_timeout: Duration,
}

impl EngineConfig {
    /// A UCI engine with ICCS coordinates, no options and 10-second timeouts.
    pub fn new(name: impl Into<String>, command: impl Into<PathBuf>) -> EngineConfig {
        EngineConfig {
            name: name.into(),
            command: command.into(),
            args: Vec::new(),
            working_dir: None,
            protocol: Protocol::Uci,
            options: Vec::new(),
            if_declared: Vec::new(),
            coordinates: Coordinates::Iccs,
            handshake_timeout: Duration::from_secs(10),
            ready_timeout: Duration::from_secs(10),
        }
    }
}

/// An option the engine declared in its handshake (`option name Hash type spin default 16 …`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EngineOption {
    pub name: String,
    /// `check`, `spin`, `combo`, `button`, `string` (UCCI adds `label`).
    pub kind: String,
    pub default: Option<String>,
    pub min: Option<String>,
    pub max: Option<String>,
    /// The choices of a `combo`.
    pub vars: Vec<String>,
}

/// How long or how far the engine may think. Times are milliseconds; clocks are by colour
/// (`wtime` is White's or Red's) as UCI has them, and UCCI's own/opponent form is derived from
/// the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Limits {
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u32>,
    pub movetime: Option<u64>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
}

/// One request for a move: the game so far, the moves forbidden now, and the limits. The moves
/// may be `&str` or `String`.
///
/// The whole game is passed every time (as the protocols want it); the engine remembers what
/// it has already checked and only looks at the new moves, so a long game costs no more a ply
/// than a short one.
#[derive(Debug, Clone, Copy)]
pub struct Go<'a, S: AsRef<str> = &'a str> {
    /// The start position's FEN; `None` for the standard start.
    pub start_fen: Option<&'a str>,
    /// Every move since the start, in the project's coordinates (ICCS or UCI).
    pub moves: &'a [S],
    /// Moves the rules forbid now (a repetition the offender must vary from), in the
    /// project's coordinates. Moves that are not legal anyway are ignored.
    pub banned: &'a [&'a str],
    pub limits: Limits,
    /// The opponent offers a draw (UCCI's `go draw`; UCI has no way to say it).
    pub draw_offered: bool,
    /// The moves were checked by the caller's own rules (a referee) and are in the game's
    /// coordinates as it writes them: the engine passes them on as they are and plays them
    /// into its own position only when a command needs it (UCI `searchmoves`, UCCI's
    /// position after a capture). Unchecked moves (the default) are checked as they come,
    /// and an illegal one is a [`EngineError::Request`].
    pub checked: bool,
    /// Keep the principal variation of the search's first line ([`Reply::pv`]), for an
    /// analysis. Off by default: a game's moves need only the best move, and reading the PV
    /// costs a copy of it on every search.
    pub pv: bool,
}

impl<S: AsRef<str>> Default for Go<'_, S> {
    fn default() -> Self {
        Go {
            start_fen: None,
            moves: &[],
            banned: &[],
            limits: Limits::default(),
            draw_offered: false,
            checked: false,
            pv: false,
        }
    }
}

/// A move as text, held inline: replies come every ply and a move is at most a few bytes, so
/// it needs no allocation.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct MoveText {
    len: u8,
    bytes: [u8; 7],
}

impl MoveText {
    /// `None` when `s` is longer than any coordinate move or not ASCII.
    pub fn new(s: &str) -> Option<MoveText> {
        if s.len() > 7 || !s.is_ascii() {
            return None;
        }
        let mut bytes = [0; 7];
        bytes[..s.len()].copy_from_slice(s.as_bytes());
        Some(MoveText {
            len: s.len() as u8,
            bytes,
        })
    }

    pub fn as_str(&self) -> &str {
        let bytes = &self.bytes[..self.len as usize];
        // SAFETY: `new` is the only constructor and takes ASCII only, which is UTF-8. Not
        // `from_utf8`: a runner compares the whole game's moves every ply (`Go::moves`).
        #[allow(unsafe_code)]
        unsafe {
            std::str::from_utf8_unchecked(bytes)
        }
    }
}

impl AsRef<str> for MoveText {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl std::ops::Deref for MoveText {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

impl PartialEq<str> for MoveText {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for MoveText {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// An evaluation, from the point of view of the side to move (the engine's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns. UCCI's bare `score N` is read as this too.
    Cp(i32),
    /// Mate in this many moves (negative: the engine is mated).
    Mate(i32),
}

/// The longest principal variation a [`Reply`] keeps: engines print lines as long as their
/// depth, and past a dozen moves a line says little a reader can use.
pub const MAX_PV: usize = 24;

/// The engine's answer to [`Engine::go`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// The move in the project's coordinates; `None` when the engine has none (UCCI
    /// `nobestmove`, UCI `bestmove (none)` or `0000`). Not checked for legality: that is the
    /// referee's ruling to make.
    pub best: Option<MoveText>,
    pub ponder: Option<MoveText>,
    /// The last score the engine reported (first line of a multi-PV search).
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// The principal variation of the first PV, in the project's coordinates, when [`Go::pv`]
    /// asked for it (else empty): the last `info` line's, or where that one was cut short by
    /// the end of the search (the same first move, fewer moves), the longer line before it. It ends before the
    /// first move the engine wrote unreadably and is at most [`MAX_PV`] moves long; like
    /// [`Reply::best`], it is not checked for legality.
    pub pv: Vec<MoveText>,
    /// UCCI `bestmove … draw`: the engine offers or accepts a draw with its move.
    pub draw: bool,
    /// UCCI `bestmove … resign`.
    pub resign: bool,
    /// From writing `go` to reading `bestmove` (the moment the line arrived, not when it was
    /// handled), i.e. the engine's time including the pipes.
    pub elapsed: Duration,
}

/// Why an engine could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineError {
    /// The command could not be started.
    Spawn { command: String, error: String },
    /// The engine did not answer in time (it was told to `stop` if it was searching).
    Timeout { waiting_for: &'static str, after: Duration },
    /// The engine exited or closed its output. The status is `None` when it had not exited
    /// shortly after; `stderr` holds its last lines there.
    Crashed {
        status: Option<ExitStatus>,
        stderr: Vec<String>,
    },
    /// The engine said something that breaks the protocol (an unreadable best move).
    Protocol(String),
    /// The request itself was wrong: a bad FEN, an illegal move, every legal move banned.
    Request(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Spawn { command, error } => write!(f, "cannot start {command}: {error}"),
            EngineError::Timeout { waiting_for, after } => {
                write!(f, "no {waiting_for} from the engine after {} ms", after.as_millis())
            }
            EngineError::Crashed { status, stderr } => {
                match status {
                    Some(s) => write!(f, "the engine exited ({s})")?,
                    None => f.write_str("the engine closed its output")?,
                }
                if let Some(last) = stderr.last() {
                    write!(f, "; its last error line: {last}")?;
                }
                Ok(())
            }
            EngineError::Protocol(m) => write!(f, "protocol error: {m}"),
            EngineError::Request(m) => write!(f, "bad request: {m}"),
        }
    }
}

impl std::error::Error for EngineError {}

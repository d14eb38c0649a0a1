//! The computer as an opponent: an engine (Fairy-Stockfish by default) holding one seat of a
//! game, refereed like any player. It is a client of the game like a person's page: it reads
//! the game's state, and on its turn sends its move through the same table (forwarded to the
//! owner in a cluster). It is bound by the 棋例 as a person is: the moves the rules forbid now
//! (a repetition it must vary from) are worked out from its own copy of the judge and sent to
//! the engine as banned, so it never plays one.
//!
//! One engine process a game, started for the game and ended with it: engines are small next
//! to a game's length, and a process of its own keeps one game's search from stalling another's.

mod engine;
mod level;
mod running;
mod seat;

use std::path::PathBuf;
use std::sync::Arc;

use game::{Kind, Side};
use referee::Command;
use serde_json::Value;

use crate::error::ApiError;
use crate::table::Table;

pub use level::Level;
pub use running::Computers;
pub use seat::ComputerSeat;

/// The engines the computer plays and analyses with, a game's each: found once, at start.
#[derive(Clone, Debug)]
pub struct Engines {
    /// Xiangqi's and chess's programs; `None` where no engine plays that game (a game against
    /// the computer is then refused with a clear error).
    pub xiangqi: Option<PathBuf>,
    pub chess: Option<PathBuf>,
}

/// The programs looked for, in order of preference, for each game: Fairy-Stockfish plays both
/// (Debian's `fairy-stockfish`); Pikafish only Xiangqi, Stockfish only chess.
const XIANGQI_ENGINES: [&str; 2] = ["fairy-stockfish", "pikafish"];
const CHESS_ENGINES: [&str; 2] = ["fairy-stockfish", "stockfish"];

impl Engines {
    /// `path` if given, else `$ARBITER_ENGINE`, for both games; else the first installed of
    /// each game's engines, on `$PATH` or in `/usr/games` (Debian's place for them).
    pub fn find(path: Option<PathBuf>) -> Engines {
        let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
            .map(|p| std::env::split_paths(&p).collect())
            .unwrap_or_default();
        dirs.push(PathBuf::from("/usr/games"));
        Engines::find_in(
            path.or_else(|| std::env::var_os("ARBITER_ENGINE").map(PathBuf::from)),
            &dirs,
        )
    }

    /// The same, `named` being the engine asked for and `dirs` where to look otherwise.
    pub fn find_in(named: Option<PathBuf>, dirs: &[PathBuf]) -> Engines {
        if let Some(named) = named {
            return Engines {
                xiangqi: Some(named.clone()),
                chess: Some(named),
            };
        }
        let first = |names: &[&str]| {
            names
                .iter()
                .find_map(|name| dirs.iter().map(|d| d.join(name)).find(|p| p.is_file()))
        };
        Engines {
            xiangqi: first(&XIANGQI_ENGINES),
            chess: first(&CHESS_ENGINES),
        }
    }

    /// The engine for games of `kind`, if there is one.
    pub fn program(&self, kind: Kind) -> Option<PathBuf> {
        match kind {
            Kind::Xiangqi => self.xiangqi.clone(),
            Kind::Chess => self.chess.clone(),
        }
    }

    pub fn require(&self, kind: Kind) -> Result<PathBuf, ApiError> {
        self.program(kind).ok_or_else(|| {
            ApiError::bad(
                crate::problem::Problem::NoEngine,
                "no engine to play against: install Fairy-Stockfish (Debian: apt-get install fairy-stockfish) or start the server with ARBITER_ENGINE=PATH",
            )
        })
    }
}

/// Puts the computer in its seat of game `table` if it has one and the game runs here, unless
/// it plays there already: a task of its own plays until the game is over or runs elsewhere.
pub fn seat(computers: &Arc<Computers>, table: &Arc<Table>) {
    let Some(seat) = table.computer else { return };
    if table.watch().borrow().1 || !table.is_local() {
        return;
    }
    let Some(program) = computers.engines().program(table.spec.kind) else {
        // Its clock runs out, and the person wins: said in the log for whoever runs the server.
        tracing::warn!(game = %table.id, "no engine is installed: the computer cannot play its seat");
        return;
    };
    if !computers.enter(&table.id) {
        return;
    }
    let (computers, table) = (computers.clone(), table.clone());
    tokio::spawn(async move {
        let place = computers.place().await;
        let played = play(&table, seat, program).await;
        drop(place);
        computers.leave(&table.id);
        if let Err(e) = played {
            tracing::warn!(game = %table.id, error = %e, "the computer stopped playing");
        }
    });
}

async fn play(table: &Table, seat: ComputerSeat, program: PathBuf) -> Result<(), ApiError> {
    let ComputerSeat { side, level } = seat;
    let id = &table.id;
    let kind = table.spec.kind;
    let rules = table.spec.rules.clone();
    let mut engine = engine::Seat::start(kind, &rules, program, level).await?;
    let mut progress = table.watch();
    let mut asked_at = None;
    loop {
        // Over, or handed to another node, whose own computer plays it from now.
        if progress.borrow_and_update().1 || !table.is_local() {
            return Ok(());
        }
        let (line, _) = table.full().await?;
        let full: Value = serde_json::from_str(&line).map_err(|e| internal(e.to_string()))?;
        let state = &full["state"];
        let moves: Vec<String> = state["moves"]
            .as_str()
            .unwrap_or_default()
            .split_whitespace()
            .map(String::from)
            .collect();
        let live = matches!(state["status"].as_str(), Some("started" | "created"));
        let ours = state["turn"].as_str() == Some(side.name(kind));
        if live && ours && asked_at != Some(moves.len()) {
            asked_at = Some(moves.len());
            match engine.choose(moves).await {
                Ok(Some(mv)) => {
                    if let Err(e) = table.act(side, Command::Move(mv.clone()), 0).await {
                        tracing::warn!(game = %id, mv = %mv, error = %e, "the computer's move was refused");
                    }
                }
                // No move to make: the game is over by the rules (the referee has said so).
                Ok(None) => {}
                Err(e) => {
                    // An engine that cannot play any more would leave its opponent waiting for
                    // ever: it resigns, and says why in the log.
                    tracing::warn!(game = %id, error = %e, "the engine failed: the computer resigns");
                    let _ = table.act(side, Command::Resign, 0).await;
                    return Ok(());
                }
            }
        }
        if progress.changed().await.is_err() {
            return Ok(());
        }
    }
}

/// The game's kind's name of `side` (`red`, `white`, …) read back, for a request.
pub fn side_named(kind: Kind, name: &str) -> Option<Side> {
    [Side::First, Side::Second].into_iter().find(|s| s.name(kind) == name)
}

/// A failure of the computer's own (its engine, its thread): the server's, not the request's.
fn internal(message: impl Into<String>) -> ApiError {
    ApiError::internal(message)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each game's engine is the first of its list installed: Pikafish plays Xiangqi and
    /// Stockfish chess where Fairy-Stockfish is missing; an engine named plays both.
    #[test]
    fn each_game_finds_its_engine() {
        let dir = std::env::temp_dir().join(format!("arbiter-engines-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let dirs = [dir.join("missing"), dir.clone()];
        let none = Engines::find_in(None, &dirs);
        assert_eq!((none.xiangqi, none.chess), (None, None));
        for name in ["pikafish", "stockfish"] {
            std::fs::write(dir.join(name), "").unwrap();
        }
        let found = Engines::find_in(None, &dirs);
        assert_eq!(found.program(Kind::Xiangqi), Some(dir.join("pikafish")));
        assert_eq!(found.program(Kind::Chess), Some(dir.join("stockfish")));
        std::fs::write(dir.join("fairy-stockfish"), "").unwrap();
        let found = Engines::find_in(None, &dirs);
        assert_eq!(found.program(Kind::Xiangqi), Some(dir.join("fairy-stockfish")));
        assert_eq!(found.program(Kind::Chess), Some(dir.join("fairy-stockfish")));
        let named = Engines::find_in(Some("/opt/e".into()), &dirs);
        assert_eq!(named.program(Kind::Chess), Some(PathBuf::from("/opt/e")));
        assert_eq!(named.program(Kind::Xiangqi), Some(PathBuf::from("/opt/e")));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

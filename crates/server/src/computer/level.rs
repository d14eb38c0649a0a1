//! The computer's strength, 1 (a beginner could beat it) to 8 (the engine at full strength for
//! a second a move), as lichess's levels of Stockfish: a skill setting that makes the engine
//! pick weaker moves on purpose, a depth and a time a move.

use engine::Limits;

use crate::error::ApiError;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level(u8);

/// Per level: Fairy-Stockfish's `Skill Level` (-20 to 20; an engine bounding it otherwise gets it
/// within its bounds, Stockfish 0 to 20), the depth, the time a move (ms).
const TABLE: [(i32, u32, u64); 8] = [
    (-9, 5, 50),
    (-5, 5, 100),
    (-1, 5, 150),
    (3, 5, 200),
    (7, 5, 300),
    (11, 8, 400),
    (16, 13, 500),
    (20, 22, 1000),
];

impl Level {
    pub const MAX: u8 = TABLE.len() as u8;

    pub fn new(n: u8) -> Result<Level, ApiError> {
        if (1..=Self::MAX).contains(&n) {
            Ok(Level(n))
        } else {
            Err(ApiError::bad(
                crate::problem::Problem::ComputerLevel,
                format!("computer level {n}: expected 1 to {}", Self::MAX),
            )
            .arg("level", n)
            .arg("max", Self::MAX))
        }
    }

    pub fn number(self) -> u8 {
        self.0
    }

    fn row(self) -> (i32, u32, u64) {
        TABLE[usize::from(self.0 - 1)]
    }

    /// The engine's `Skill Level`.
    pub fn skill(self) -> i32 {
        self.row().0
    }

    pub fn limits(self) -> Limits {
        let (_, depth, movetime) = self.row();
        Limits {
            depth: Some(depth),
            movetime: Some(movetime),
            ..Limits::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_read() {
        assert!(Level::new(0).is_err());
        assert!(Level::new(9).is_err());
        let weakest = Level::new(1).unwrap();
        let strongest = Level::new(8).unwrap();
        assert!(weakest.skill() < strongest.skill());
        assert!(weakest.limits().depth < strongest.limits().depth);
        assert!(weakest.limits().movetime < strongest.limits().movetime);
    }
}

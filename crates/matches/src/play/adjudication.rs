//! Endings the referee cannot see, ruled by the runner: adjudication by the engines' scores
//! (resign, draw, max moves) and, in chess, by Syzygy tablebases.

use std::any::Any;
use std::sync::Arc;

use game::{BySide, Game, Kind, Side};
use judge::Outcome;

use super::GameSetup;
use crate::syzygy::Syzygy;
use engine::Score;

/// Ending games by the engines' own scores (as fastchess's `-resign`, `-draw`, `-maxmoves`),
/// and chess games by Syzygy tablebases (`-tb`, [`crate::syzygy`]).
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Adjudication {
    /// `(movecount, score)`: a side loses when its score has been ≤ −score for `movecount`
    /// consecutive moves and the opponent's ≥ score for as many.
    pub resign: Option<(u32, i32)>,
    /// `(movenumber, movecount, score)`: a draw from move `movenumber` on, when both sides'
    /// scores have been within ±score for `movecount` consecutive moves each.
    pub draw: Option<(u32, u32, i32)>,
    /// A draw after this many moves (each side's), counting the opening's.
    pub max_moves: Option<u32>,
    /// Syzygy tables (chess only): a position they know ends the game, before the other
    /// adjudications are looked at (as in fastchess).
    pub tablebase: Option<Arc<Syzygy>>,
}

impl std::fmt::Debug for Adjudication {
    /// As derived, with `tablebase` only when set (the text is part of a match's identity for
    /// `--resume`, which matches without tables keep).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("Adjudication");
        d.field("resign", &self.resign)
            .field("draw", &self.draw)
            .field("max_moves", &self.max_moves);
        if let Some(tb) = &self.tablebase {
            d.field("tablebase", tb);
        }
        d.finish()
    }
}

/// A score in centipawns for adjudication (mates as very large scores).
fn centipawns(s: Score) -> i32 {
    match s {
        Score::Cp(c) => c,
        Score::Mate(m) if m > 0 => 100_000 - m,
        Score::Mate(m) => -100_000 - m,
    }
}

/// Counts of consecutive moves by score, per side.
#[derive(Default)]
pub(super) struct Scores {
    low: BySide<u32>,
    high: BySide<u32>,
    quiet: BySide<u32>,
}

impl Scores {
    pub(super) fn record(&mut self, side: Side, score: Option<Score>, adj: &Adjudication) {
        let cp = score.map(centipawns);
        if let Some((_, s)) = adj.resign {
            self.low[side] = if cp.is_some_and(|c| c <= -s) {
                self.low[side] + 1
            } else {
                0
            };
            self.high[side] = if cp.is_some_and(|c| c >= s) {
                self.high[side] + 1
            } else {
                0
            };
        }
        if let Some((_, _, s)) = adj.draw {
            self.quiet[side] = if cp.is_some_and(|c| c.abs() <= s) {
                self.quiet[side] + 1
            } else {
                0
            };
        }
    }
}

/// The runner's own ending (the referee saw none).
pub(super) struct RunnerEnd {
    pub(super) result: Outcome,
    pub(super) code: &'static str,
    pub(super) explanation: String,
}

/// Adjudication by Syzygy tablebases of the position after a move (chess only).
pub(super) fn tablebase<G: Game>(adj: &Adjudication, pos: &G) -> Option<RunnerEnd> {
    let tables = adj.tablebase.as_deref()?;
    let pos = (pos as &dyn Any).downcast_ref::<chess::Position>()?;
    let verdict = tables.adjudicate(pos.inner())?;
    Some(RunnerEnd {
        result: match verdict.winner {
            Some(chess::shakmaty::Color::White) => Outcome::FirstWins,
            Some(chess::shakmaty::Color::Black) => Outcome::SecondWins,
            None => Outcome::Draw,
        },
        code: "adjudicated_tablebase",
        explanation: verdict.explanation(),
    })
}

/// Adjudication after `mover`'s move at `ply` (of the game from the opening's root).
pub(super) fn adjudicate<G: Game>(
    scores: &Scores,
    setup: &GameSetup<'_, G>,
    ply: u32,
    mover: Side,
    kind: Kind,
) -> Option<RunnerEnd> {
    let adj = setup.adjudication;
    if let Some((count, score)) = adj.resign {
        for loser in [mover, !mover] {
            if scores.low[loser] >= count && scores.high[!loser] >= count {
                return Some(RunnerEnd {
                    result: Outcome::win(!loser),
                    code: "adjudicated_resign",
                    explanation: format!(
                        "adjudicated: {} resigns (score ≤ -{score} for {count} moves, confirmed by the opponent)",
                        loser.name(kind)
                    ),
                });
            }
        }
    }
    let total = ply;
    if let Some((number, count, score)) = adj.draw {
        if total / 2 + 1 >= number && scores.quiet.first >= count && scores.quiet.second >= count {
            return Some(RunnerEnd {
                result: Outcome::Draw,
                code: "adjudicated_draw",
                explanation: format!("adjudicated: draw (both scores within ±{score} for {count} moves)"),
            });
        }
    }
    if let Some(n) = adj.max_moves {
        if total >= 2 * n {
            return Some(RunnerEnd {
                result: Outcome::Draw,
                code: "max_moves",
                explanation: format!("adjudicated: max moves ({n})"),
            });
        }
    }
    None
}

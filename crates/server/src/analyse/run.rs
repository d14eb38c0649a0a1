//! One analysis: a game's positions searched in turn by one engine process, on a thread of its
//! own (the engine crate blocks on the engine's pipes), each answer sent on as it comes.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use engine::{Coordinates, Engine, EngineConfig, Go, Limits, MoveText, Score};
use game::{Game, Side};
use serde_json::{json, Value};
use tokio::sync::mpsc;

use crate::error::Problem;

/// Each position's search: this long, or this deep if that comes first (a mate or a forced
/// line is seen at once). Short enough that a long game is analysed in a minute.
pub const MOVETIME_MS: u64 = 150;
pub const MAX_DEPTH: u32 = 24;
/// Past a search's time, how long the engine may take before it counts as failed.
const GRACE: Duration = Duration::from_secs(5);

/// A game to analyse: its start and its moves, already checked legal.
pub struct Line<G: Game> {
    pub start: G,
    pub moves: Vec<G::Move>,
}

/// Searches every position of `line` (the start, then after each move) with the engine at
/// `program`, sending one JSON object a position to `out`; a failure is sent as an `error`
/// object and ends the analysis. Returns when done, or when `out` is closed (the client left).
pub fn analyse<G: Game>(
    line: Line<G>,
    program: PathBuf,
    wxf: impl Fn(&G, G::Move) -> Option<String>,
    out: mpsc::Sender<Value>,
) {
    let mut config = EngineConfig::new("analysis", program);
    config.coordinates = Coordinates::Detect;
    config.options = vec![("Threads".into(), "1".into()), ("Hash".into(), "32".into())];
    let mut engine = match Engine::<G>::start(&config).and_then(|mut e| e.new_game().map(|()| e)) {
        Ok(e) => e,
        Err(e) => {
            let _ = out.blocking_send(json!({
                "error": format!("the engine did not start: {e}"),
                "why": Problem::EngineDidNotStart.code(),
                "args": { "detail": e.to_string() },
            }));
            return;
        }
    };
    let start_fen = line.start.fen();
    let mut pos = line.start.clone();
    let coordinates: Vec<String> = line
        .moves
        .iter()
        .map(|&m| {
            let c = pos.coordinate(m);
            pos.play(m);
            c
        })
        .collect();
    let mut pos = line.start;
    for ply in 0..=line.moves.len() {
        let answer = if pos.count_legal() == 0 {
            // The game is over here: nothing to search.
            json!({ "ply": ply, "over": true, "check": pos.is_check() })
        } else {
            let go = Go {
                start_fen: Some(&start_fen),
                moves: &coordinates[..ply],
                limits: Limits {
                    movetime: Some(MOVETIME_MS),
                    depth: Some(MAX_DEPTH),
                    ..Limits::default()
                },
                checked: true,
                pv: true,
                ..Go::default()
            };
            let deadline = Instant::now() + Duration::from_millis(MOVETIME_MS) + GRACE;
            match engine.go(&go, deadline) {
                Ok(reply) => {
                    let mut answer = json!({
                        "ply": ply,
                        "depth": reply.depth,
                        "score": reply.score.map(|s| first_side_view(s, pos.turn())),
                    });
                    let pv = written(&pos, &reply.pv, &wxf);
                    answer["best"] = pv.first().cloned().unwrap_or(Value::Null);
                    answer["pv"] = pv.into();
                    answer
                }
                Err(e) => {
                    let _ = out.blocking_send(json!({
                        "ply": ply,
                        "error": format!("the engine failed: {e}"),
                        "why": Problem::EngineFailed.code(),
                        "args": { "ply": ply, "detail": e.to_string() },
                    }));
                    return;
                }
            }
        };
        if out.blocking_send(answer).is_err() {
            return;
        }
        if let Some(&m) = line.moves.get(ply) {
            pos.play(m);
        }
    }
}

/// A score as the first side (Red, White) sees it: the engine gives it for the side to move.
pub fn first_side_view(score: Score, turn: Side) -> Value {
    let sign = if turn == Side::First { 1 } else { -1 };
    match score {
        Score::Cp(n) => json!({ "cp": sign * n }),
        Score::Mate(n) => json!({ "mate": sign * n }),
    }
}

/// The moves of a principal variation played from `pos`, each as coordinates and the game's
/// notation (and WXF for Xiangqi), up to the first the rules do not allow there.
fn written<G: Game>(pos: &G, pv: &[MoveText], wxf: &impl Fn(&G, G::Move) -> Option<String>) -> Vec<Value> {
    let mut pos = pos.clone();
    let mut out = Vec::with_capacity(pv.len());
    for text in pv {
        let Ok(m) = pos.parse_move(text) else { break };
        if !pos.is_legal(m) {
            break;
        }
        let mut mv = json!({ "coordinate": pos.coordinate(m), "notation": pos.notation(m) });
        if let Some(w) = wxf(&pos, m) {
            mv["wxf"] = w.into();
        }
        out.push(mv);
        pos.play(m);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_from_the_first_sides_view() {
        assert_eq!(first_side_view(Score::Cp(30), Side::First), json!({ "cp": 30 }));
        assert_eq!(first_side_view(Score::Cp(30), Side::Second), json!({ "cp": -30 }));
        assert_eq!(first_side_view(Score::Mate(2), Side::Second), json!({ "mate": -2 }));
        assert_eq!(first_side_view(Score::Mate(-1), Side::First), json!({ "mate": -1 }));
    }

    #[test]
    fn a_line_is_written_until_a_move_that_is_not_legal() {
        let pos = <xiangqi::Position as Game>::start();
        let pv: Vec<MoveText> = ["h2e2", "h9g7", "h2e2"]
            .iter()
            .filter_map(|m| MoveText::new(m))
            .collect();
        let wxf = |p: &xiangqi::Position, m| Some(xiangqi::notation::Notation::Wxf.write(p, m));
        let line = written(&pos, &pv, &wxf);
        assert_eq!(line.len(), 2);
        assert_eq!(
            line[0],
            json!({ "coordinate": "h2e2", "notation": "炮二平五", "wxf": "C2.5" })
        );
        assert_eq!(line[1]["notation"], "马８进７");
    }
}

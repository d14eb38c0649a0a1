//! Before a match: does each engine play the match's game, in the coordinates it was given?
//! Asked of the engine itself: a shallow search from the first game's start (its opening
//! played), whose move must be legal there. A chess engine asked for a Xiangqi move answers a chess one (and the
//! other way round), and a Xiangqi engine that counts ranks 1–10 taken for one that counts
//! 0–9 answers a move from the wrong squares: either would lose every game at its first move.

use std::time::{Duration, Instant};

use engine::{Coordinates, Engine, Go, Limits, Protocol};
use game::{Game, Kind};

/// Checks that `engine` answers the position after `moves` from `root` with a legal move.
/// `Err(Some(why))`: it did not, and `why` says what the engine seems to be and which setting
/// fixes it; `Err(None)`: it gave no answer (it crashed or hung), which its games will rule.
pub fn first_move<G: Game>(
    engine: &mut Engine<G>,
    root: &G,
    moves: &[String],
    wait: Duration,
) -> Result<(), Option<String>> {
    let fen = root.fen();
    let standard = fen == G::start().fen();
    let go: Go<'_, String> = Go {
        start_fen: (!standard).then_some(fen.as_str()),
        moves,
        limits: Limits {
            depth: Some(1),
            ..Limits::default()
        },
        ..Go::default()
    };
    let who = match engine.id_name() {
        Some(id) => format!("engine {} ({id})", engine.name()),
        None => format!("engine {}", engine.name()),
    };
    let (game, other) = match G::KIND {
        Kind::Xiangqi => ("Xiangqi", "chess"),
        Kind::Chess => ("chess", "xiangqi"),
    };
    let Ok(reply) = engine.go(&go, Instant::now() + wait) else {
        return Err(None);
    };
    let Some(best) = reply.best else { return Err(None) };
    let mut position = root.clone();
    for m in moves {
        match position.parse_move(m) {
            Ok(m) => position.play(m),
            Err(_) => return Ok(()),
        }
    }
    if position.parse_move(&best).is_ok() {
        return Ok(());
    }
    let start = if standard && moves.is_empty() {
        "start position"
    } else {
        "first game's start"
    };
    let mut why = format!("{who} answered the {game} {start} with {best}, not a legal {game} move there.");
    let chess_move = <chess::Position as Game>::start().parse_move(&best).is_ok();
    let xiangqi_move = <xiangqi::Position as Game>::start().parse_move(&best).is_ok();
    match G::KIND {
        Kind::Xiangqi if chess_move => {
            why.push_str(&format!(
                " It plays chess: for chess engines, add --game chess (not {other})."
            ));
        }
        Kind::Chess if xiangqi_move => {
            why.push_str(" It plays Xiangqi: for Xiangqi engines, use --game xiangqi.");
        }
        Kind::Xiangqi if engine.protocol() == Protocol::Uci => {
            let (now, other) = match engine.coordinates() {
                Coordinates::Fsf => (
                    "1-10 (coords=fsf)",
                    "coords=iccs, for ranks 0-9 as ICCS and Pikafish write them",
                ),
                _ => (
                    "0-9 (coords=iccs)",
                    "coords=fsf, for ranks 1-10 as Fairy-Stockfish writes them",
                ),
            };
            why.push_str(&format!(
                " Its moves were read with ranks {now}; if it numbers ranks the other way, set {other}."
            ));
        }
        _ => {}
    }
    Err(Some(why))
}

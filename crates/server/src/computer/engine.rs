//! One computer seat's engine process, on a thread of its own (the engine crate blocks on the
//! engine's pipes), beside its copy of the judge that says which moves are banned now.

use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use engine::{Coordinates, Engine, EngineConfig, Go};
use game::{Game, Kind};
use judge::chess::{ChessJudge, ChessRules};
use judge::xiangqi::{Rules, XiangqiJudge};
use judge::{forbidden_moves, Judge};
use tokio::sync::oneshot;

use super::Level;
use crate::error::ApiError;

/// Past the level's time a move, how long the engine may take before it counts as failed.
const GRACE: Duration = Duration::from_secs(10);

type Answer = Result<Option<String>, String>;

/// The game's moves so far; the engine's move (`None`: it has none) or why it failed.
struct Ask {
    moves: Vec<String>,
    reply: oneshot::Sender<Answer>,
}

pub(super) struct Seat {
    asks: mpsc::Sender<Ask>,
}

impl Seat {
    /// Starts the engine for a game of `kind` under the judge's `rules` and waits until it is
    /// ready.
    pub async fn start(kind: Kind, rules: &str, program: PathBuf, level: Level) -> Result<Seat, ApiError> {
        let mut config = EngineConfig::new("computer", program);
        config.coordinates = Coordinates::Detect;
        config.if_declared.push(("Skill Level".into(), level.skill().into()));
        let (asks, queue) = mpsc::channel();
        let (ready, started) = oneshot::channel();
        let rules = rules.to_string();
        let thread = std::thread::Builder::new().name("computer".into());
        let spawned = match kind {
            Kind::Xiangqi => {
                let rules = Rules::parse(&rules).map_err(crate::live::bad_rules)?;
                let judge = XiangqiJudge::new(xiangqi::Position::start(), rules);
                thread.spawn(move || run(judge, config, level, queue, ready))
            }
            Kind::Chess => {
                let rules = ChessRules::by_name(&rules)
                    .ok_or_else(|| ApiError::bad_request(format!("unknown chess rules {rules:?}")))?;
                let judge = ChessJudge::new(<chess::Position as Game>::start(), rules);
                thread.spawn(move || run(judge, config, level, queue, ready))
            }
        };
        spawned.map_err(|e| super::internal(format!("cannot start the computer's thread: {e}")))?;
        match started.await {
            Ok(Ok(())) => Ok(Seat { asks }),
            Ok(Err(e)) => Err(super::internal(format!("the engine did not start: {e}"))),
            Err(_) => Err(super::internal("the engine did not start")),
        }
    }

    /// The engine's move after `moves` (the whole game so far, in coordinates).
    pub async fn choose(&mut self, moves: Vec<String>) -> Answer {
        let (reply, answer) = oneshot::channel();
        self.asks
            .send(Ask { moves, reply })
            .map_err(|_| "the engine's thread has ended".to_string())?;
        answer.await.map_err(|_| "the engine's thread has ended".to_string())?
    }
}

fn run<J>(
    mut judge: J,
    config: EngineConfig,
    level: Level,
    queue: mpsc::Receiver<Ask>,
    ready: oneshot::Sender<Result<(), String>>,
) where
    J: Judge + Clone,
{
    let mut engine = match Engine::<J::Game>::start(&config).and_then(|mut e| e.new_game().map(|()| e)) {
        Ok(e) => e,
        Err(e) => {
            let _ = ready.send(Err(e.to_string()));
            return;
        }
    };
    let _ = ready.send(Ok(()));
    let mut pushed = 0;
    // Ends when the seat is dropped (the game is over): the engine is closed with it.
    while let Ok(ask) = queue.recv() {
        let answer = follow(&mut judge, &mut pushed, &ask.moves).and_then(|()| {
            let banned = banned(&judge);
            let banned: Vec<&str> = banned.iter().map(String::as_str).collect();
            let limits = level.limits();
            let go = Go {
                moves: &ask.moves,
                banned: &banned,
                limits,
                // The referee accepted each move and wrote it in coordinates.
                checked: true,
                ..Go::default()
            };
            let deadline = Instant::now() + Duration::from_millis(limits.movetime.unwrap_or(0)) + GRACE;
            engine
                .go(&go, deadline)
                .map(|r| r.best.map(|m| m.as_str().to_string()))
                .map_err(|e| e.to_string())
        });
        let _ = ask.reply.send(answer);
    }
}

/// Brings the judge's copy up to `moves`.
fn follow<J: Judge>(judge: &mut J, pushed: &mut usize, moves: &[String]) -> Result<(), String> {
    if moves.len() < *pushed {
        return Err("the game's moves went back (a correction): the computer cannot follow".into());
    }
    for text in &moves[*pushed..] {
        let m = judge.parse_move(text).map_err(|e| format!("move {text}: {e}"))?;
        judge.push(m).map_err(|e| format!("move {text}: {e:?}"))?;
        *pushed += 1;
    }
    Ok(())
}

/// The moves the rules forbid now, unless they are all the moves there are (then the side
/// must make one of them, and the engine is told nothing).
fn banned<J: Judge + Clone>(judge: &J) -> Vec<String> {
    let forbidden = forbidden_moves(judge);
    let pos = judge.position();
    let legal = judge.legal_moves_now().map_or_else(|| pos.count_legal(), <[_]>::len);
    if forbidden.is_empty() || forbidden.len() >= legal {
        return Vec::new();
    }
    forbidden.into_iter().map(|m| pos.coordinate(m)).collect()
}

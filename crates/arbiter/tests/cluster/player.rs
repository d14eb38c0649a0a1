//! A scripted player: one seat of one game over a game socket, on one of the cluster's nodes.
//! It plays moves picked from the legal ones the events list, ends the game after a set number
//! of plies (resigning, or offering a draw the other side accepts), and when its node dies it
//! reconnects to the next node and resumes from the last version it saw. A command left
//! without an answer (its node died, or it was answered 503) may have been taken: before its
//! next one the player reads the game whole, as a careful client would, rather than send it
//! again blind.
//!
//! It holds every node to read-your-writes: whatever node it is on, its moves are chosen on
//! the lines that node gives (a resume's come before the answer to its hello, a command's
//! before its answer), so a move refused is a failure — that node's view was older than a
//! command already acknowledged.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

/// How a game is brought to its end once its plies are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    Resign,
    Draw,
}

pub struct Seat {
    pub game: usize,
    pub id: String,
    pub token: String,
    /// 0: the first side, 1: the second.
    pub side: usize,
    pub plies: usize,
    pub finish: Finish,
    /// The node it connects to first, an index into `bases`.
    pub node: usize,
}

/// What every player shares: the nodes, the moves acknowledged so far, when the kill came.
pub struct Shared {
    pub bases: Vec<String>,
    pub acked: AtomicUsize,
    pub killed_at: OnceLock<Instant>,
}

/// What a seat saw.
pub struct Played {
    pub seat: Seat,
    /// The moves acknowledged to this seat: the version the ack named, and the move.
    pub acked: Vec<(u64, String)>,
    /// The last state it saw: the game over.
    pub last: Value,
    pub reconnects: usize,
    /// When its first command after the kill was acknowledged.
    pub first_ack_after_kill: Option<Instant>,
    /// Refusals (4xx) and retryable errors (503) it was answered.
    pub refused: Vec<Value>,
    pub retried: usize,
}

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Before each move: a player is not a machine gun, and the kill lands mid-game.
const THINK: Duration = Duration::from_millis(150);
/// After a retryable error, before the next command.
const BACK_OFF: Duration = Duration::from_millis(100);

fn over(state: &Value) -> bool {
    !matches!(state["status"].as_str(), Some("created" | "started") | None)
}

/// A pick among `n` that varies with the game and the ply, the same on every run.
fn pick(game: usize, ply: usize, n: usize) -> usize {
    (game.wrapping_mul(2_654_435_761) ^ ply.wrapping_mul(40_503)).wrapping_add(ply * 7 + game) % n
}

pub async fn play(seat: Seat, shared: Arc<Shared>) -> Played {
    let n = shared.bases.len();
    let mut node = seat.node;
    let mut since: Option<i64> = None;
    let mut state = Value::Null;
    // The version `state` is at.
    let mut at: i64 = -1;
    // A command went unanswered (its node died, or the answer was a 503): it may have been
    // taken, so the game whole is read before the next one.
    let mut unsure = false;
    let mut name: Option<String> = None;
    let mut out = Played {
        acked: Vec::new(),
        last: Value::Null,
        reconnects: 0,
        first_ack_after_kill: None,
        refused: Vec::new(),
        retried: 0,
        seat,
    };
    let seat = &out.seat;
    let (game, id, token) = (seat.game, seat.id.clone(), seat.token.clone());
    let (side, plies, finish) = (seat.side, seat.plies, seat.finish);
    let give_up = Instant::now() + Duration::from_secs(45);
    'connect: loop {
        assert!(
            Instant::now() < give_up,
            "game {game} side {side}: no end after 45 s; last state {state}"
        );
        let base = shared.bases[node].replacen("http", "ws", 1);
        let query = since
            .filter(|v| *v >= 0)
            .map(|v| format!("?since={v}"))
            .unwrap_or_default();
        let url = format!("{base}/api/socket/game/{id}{query}");
        let mut ws: Ws = match tokio::time::timeout(Duration::from_secs(5), tokio_tungstenite::connect_async(url)).await
        {
            Ok(Ok((ws, _))) => ws,
            _ => {
                node = (node + 1) % n;
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        if ws
            .send(Message::text(json!({"t": "hello", "token": token}).to_string()))
            .await
            .is_err()
        {
            node = (node + 1) % n;
            continue;
        }
        // What this seat sent and has no answer to: the move, if it was one.
        let mut pending: Option<Option<String>> = None;
        // This socket's hello answered: the lines of its resume are in.
        let mut greeted = false;
        let mut ready_at = Instant::now() + THINK;
        loop {
            if unsure && name.is_some() {
                let (full, version) = whole(&shared.bases[node], &id).await;
                if version >= at {
                    (state, at) = (full, version);
                }
                unsure = false;
            }
            let turn = greeted && name.is_some() && state["turn"].as_str() == name.as_deref() && !over(&state);
            if turn && pending.is_none() && Instant::now() >= ready_at {
                let made = state["moves"].as_str().map_or(0, |m| m.split_whitespace().count());
                let offered = state[if side == 0 { "bdraw" } else { "wdraw" }].as_bool() == Some(true);
                let (message, mv) = if made >= plies && finish == Finish::Resign {
                    (json!({"t": "resign"}), None)
                } else if made >= plies && offered {
                    (json!({"t": "draw-accept"}), None)
                } else {
                    let legal = state["legal"].as_array().cloned().unwrap_or_default();
                    assert!(
                        !legal.is_empty(),
                        "game {game}: my turn, no legal move, not over: {state}"
                    );
                    let mv = legal[pick(game, made, legal.len())].as_str().unwrap().to_string();
                    let draw = made >= plies;
                    (json!({"t": "move", "move": mv, "draw": draw}), Some(mv))
                };
                if ws.send(Message::text(message.to_string())).await.is_err() {
                    out.reconnects += 1;
                    unsure = true;
                    node = (node + 1) % n;
                    continue 'connect;
                }
                pending = Some(mv);
            }
            let wait = if turn && pending.is_none() {
                ready_at.saturating_duration_since(Instant::now())
            } else {
                Duration::from_secs(20)
            };
            let frame = tokio::time::timeout(wait, ws.next()).await;
            let frame = match frame {
                Err(_) if turn && pending.is_none() => continue,
                Err(_) => panic!("game {game} side {side}: nothing heard for 20 s on node {node}; state {state}"),
                Ok(f) => f,
            };
            let text = match frame {
                Some(Ok(Message::Text(t))) => t,
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => {
                    if over(&state) {
                        out.last = state;
                        return out;
                    }
                    // The node went away: the next one, resuming after the last version seen.
                    out.reconnects += 1;
                    unsure |= pending.is_some();
                    node = (node + 1) % n;
                    continue 'connect;
                }
                Some(Ok(_)) => continue,
            };
            let v: Value = serde_json::from_str(&text).unwrap();
            match v["t"].as_str() {
                Some("hello") => {
                    name = v["side"].as_str().map(str::to_string);
                    greeted = true;
                }
                Some("ack") => {
                    let version = v["version"].as_i64().unwrap();
                    assert!(
                        since.is_some_and(|s| s >= version),
                        "game {game} side {side}: ack of version {version} on node {node} before its line (last seen {since:?})"
                    );
                    if let Some(Some(mv)) = pending.take() {
                        out.acked.push((v["version"].as_u64().unwrap(), mv));
                        shared.acked.fetch_add(1, Ordering::Relaxed);
                    }
                    if out.first_ack_after_kill.is_none() && shared.killed_at.get().is_some() {
                        out.first_ack_after_kill = Some(Instant::now());
                    }
                    ready_at = Instant::now() + THINK;
                }
                Some("error") => {
                    pending = None;
                    ready_at = Instant::now() + BACK_OFF;
                    match v["code"].as_u64() {
                        Some(429) => out.retried += 1,
                        // Retryable, but the command may have been taken: the game whole again
                        // (from the node that runs it now) says where it stands.
                        Some(503) => {
                            out.retried += 1;
                            unsure = true;
                        }
                        // A failure (see the top); the game whole is read again to go on.
                        _ => {
                            out.refused.push(json!({
                                "error": v, "node": node, "reconnects": out.reconnects, "at": at, "since": since,
                            }));
                            unsure = true;
                        }
                    }
                }
                Some(_) => {}
                None => {
                    if let Some(version) = v["version"].as_i64() {
                        since = Some(since.map_or(version, |s| s.max(version)));
                    }
                    let version = v["version"].as_i64().unwrap_or(-1);
                    match v["type"].as_str() {
                        Some("gameFull") if version >= at => (state, at) = (v["state"].clone(), version),
                        Some("gameState") if version >= at => (state, at) = (v, version),
                        _ => {}
                    }
                }
            }
            if over(&state) && pending.is_none() {
                out.last = state;
                return out;
            }
        }
    }
}

/// The game whole as the node that runs it says now (the NDJSON stream's first line, which
/// waits for a takeover): its state and version.
async fn whole(base: &str, id: &str) -> (Value, i64) {
    let mut r = reqwest::get(format!("{base}/api/board/game/stream/{id}"))
        .await
        .unwrap();
    let mut text = String::new();
    while !text.contains('\n') {
        match r.chunk().await.unwrap() {
            Some(c) => text.push_str(&String::from_utf8_lossy(&c)),
            None => break,
        }
    }
    let full: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    (full["state"].clone(), full["version"].as_i64().unwrap_or(-1))
}

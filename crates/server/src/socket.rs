//! WebSocket play beside the Board API: `GET /api/socket/game/{id}`, one socket per player or
//! spectator. Out go the game's versioned events — the very lines of the NDJSON stream, one a
//! text frame — and an answer to each command; in come small JSON commands (`protocol`), run
//! through the same table as the HTTP routes, so each is logged before it is acknowledged.
//!
//! The seat: a bot's `Authorization: Bearer` header at the upgrade, or (browsers cannot set
//! headers on a socket) a `hello` message's token; without one the socket only watches.
//! Where the stream starts: `since=VERSION` (query or hello) resumes after that version;
//! without it the socket starts with `gameFull`, as the NDJSON stream does. The stream starts
//! at once when the upgrade carries a header or `since`, else with the first message (the
//! hello), or after `HELLO_WAIT` for a silent spectator.
//!
//! Lag: the server pings every `PING_EVERY` with its own time in the payload; the pongs give
//! the socket's round trips, and half the shortest recent one is the network delay a move is
//! credited (`table`'s quota bounds it, and the credit is logged with the move, `lag=N`), as
//! lichess credits its players' lag.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use futures_util::SinkExt;
use game::Side;
use serde_json::{json, Value};
use tokio::sync::watch;

use crate::app::{bearer_of, App};
use crate::error::ApiError;
use crate::players::seated::Seated;
use crate::protocol::{Incoming, Parsed};
use crate::table::Table;

/// How often the server pings (its keepalive too, as the stream's blank line).
const PING_EVERY: Duration = Duration::from_secs(5);
/// A socket heard nothing from (not even a pong) for this long is closed.
const SILENT_FOR: Duration = Duration::from_secs(30);
/// How long a socket without header or `since` waits for its hello before it watches.
const HELLO_WAIT: Duration = Duration::from_secs(2);
/// A client that reads nothing for this long while the server writes is dropped.
const SEND_WAIT: Duration = Duration::from_secs(10);
/// Commands are small; a bigger message closes the socket.
const MESSAGE_LIMIT: usize = 4 * 1024;
/// The socket library zero-fills this much of its read buffer before every read (128 KiB by
/// default, the most of a move's CPU time), and every open socket keeps it: commands fit in
/// far less (a bigger message takes more reads), and an idle spectator costs a third less
/// memory at 1 KiB than at 4 (BENCHMARKS.md).
const READ_BUFFER: usize = 1024;
/// Round trips kept for the lag estimate.
const ROUND_TRIPS: usize = 4;

pub fn routes() -> Router<Arc<App>> {
    Router::new().route("/api/socket/game/{id}", get(upgrade))
}

async fn upgrade(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(q): Query<crate::api::StreamQuery>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    // Refused before the upgrade, as HTTP answers: no such game, a header holding no seat.
    let table = app.game(&id).await?;
    let side = match headers.get(axum::http::header::AUTHORIZATION) {
        None => None,
        Some(_) => {
            let token = bearer_of(&headers).ok_or(ApiError::Unauthorized)?;
            Some(table.seat(token).ok_or(ApiError::Forbidden)?)
        }
    };
    let start_now = side.is_some() || q.since.is_some();
    let owner = crate::api::game_headers(&app, &table).await;
    let session = Session {
        progress: table.watch(),
        app,
        table,
        side,
        sent: None,
        epoch: Instant::now(),
        round_trips: VecDeque::with_capacity(ROUND_TRIPS),
        heard: Instant::now(),
        out: Vec::new(),
    };
    let mut response = ws
        .read_buffer_size(READ_BUFFER)
        .max_message_size(MESSAGE_LIMIT)
        .max_frame_size(MESSAGE_LIMIT)
        .on_upgrade(move |socket| session.run(socket, start_now.then_some(q.since)));
    response.headers_mut().extend(owner);
    Ok(response)
}

/// One socket's state.
struct Session {
    app: Arc<App>,
    table: Arc<Table>,
    side: Option<Side>,
    /// The next version to send; `None` until the stream has started.
    sent: Option<u64>,
    progress: watch::Receiver<(u64, bool)>,
    /// The time pings carry is counted from here.
    epoch: Instant,
    /// Recent round trips, ms.
    round_trips: VecDeque<u64>,
    /// When the client was last heard from.
    heard: Instant,
    /// Frames to send at the next flush.
    out: Vec<Message>,
}

/// What woke the socket.
enum Wake {
    Frame(Option<Result<Message, axum::Error>>),
    Progress(bool),
    Ping,
    HelloTimeout,
    Closing,
}

impl Session {
    /// `start`: `Some(since)` starts the stream at once.
    async fn run(mut self, mut socket: WebSocket, start: Option<Option<u64>>) {
        let _open = crate::metrics::SocketGuard::new(self.app.metrics());
        let mut closing = self.app.closing();
        let mut ping = tokio::time::interval(PING_EVERY);
        ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let hello_by = tokio::time::Instant::now() + HELLO_WAIT;
        if let Some(since) = start {
            if let Err(e) = self.start(since).await {
                self.error(None, &e);
            }
        }
        loop {
            let over = self.take_lines();
            if self.flush(&mut socket).await.is_err() {
                return;
            }
            if over {
                let _ = close(&mut socket, 1000, "the game is over").await;
                return;
            }
            let waiting = self.sent.is_none();
            // Each branch only yields what happened; the socket is used again after.
            let wake = tokio::select! {
                frame = socket.recv() => Wake::Frame(frame),
                changed = self.progress.changed(), if !waiting => Wake::Progress(changed.is_ok()),
                _ = ping.tick() => Wake::Ping,
                _ = tokio::time::sleep_until(hello_by), if waiting => Wake::HelloTimeout,
                _ = closing.wait_for(|c| *c) => Wake::Closing,
            };
            match wake {
                Wake::Frame(None | Some(Err(_))) | Wake::Progress(false) => return,
                Wake::Frame(Some(Ok(message))) => {
                    self.heard = Instant::now();
                    if !self.message(message).await {
                        return;
                    }
                }
                Wake::Progress(true) => {}
                Wake::Ping => {
                    if self.heard.elapsed() > SILENT_FOR {
                        let _ = close(&mut socket, 1001, "no answer to pings").await;
                        return;
                    }
                    let now = self.epoch.elapsed().as_micros() as u64;
                    self.out.push(Message::Ping(now.to_be_bytes().to_vec().into()));
                }
                Wake::HelloTimeout => {
                    if let Err(e) = self.start(None).await {
                        // The game's task is gone (the server is stopping): said, and closed.
                        self.error(None, &e);
                        let _ = self.flush(&mut socket).await;
                        let _ = close(&mut socket, 1011, "the game is unavailable").await;
                        return;
                    }
                }
                Wake::Closing => {
                    let _ = self.flush(&mut socket).await;
                    let _ = close(&mut socket, 1001, "the server is shutting down").await;
                    return;
                }
            }
        }
    }

    /// Handles one frame from the client; `false` ends the socket.
    async fn message(&mut self, message: Message) -> bool {
        match message {
            Message::Text(text) => {
                let Parsed { id, incoming } = crate::protocol::parse(text.as_str());
                match incoming {
                    Ok(incoming) => self.incoming(id, incoming).await,
                    Err(e) => self.error(id, &e),
                }
            }
            Message::Pong(payload) => {
                if let Ok(bytes) = <[u8; 8]>::try_from(payload.as_ref()) {
                    let sent = u64::from_be_bytes(bytes);
                    let now = self.epoch.elapsed().as_micros() as u64;
                    if let Some(rtt) = now.checked_sub(sent) {
                        if self.round_trips.len() == ROUND_TRIPS {
                            self.round_trips.pop_front();
                        }
                        self.round_trips.push_back(rtt / 1000);
                    }
                }
            }
            Message::Binary(_) => self.error(None, &ApiError::bad_request("text frames of JSON only")),
            // The library answers pings itself.
            Message::Ping(_) => {}
            Message::Close(_) => return false,
        }
        true
    }

    async fn incoming(&mut self, id: Option<Value>, incoming: Incoming) {
        if self.sent.is_none() && !matches!(incoming, Incoming::Hello { .. }) {
            // Anything before a hello starts the stream as a spectator's would.
            if let Err(e) = self.start(None).await {
                return self.error(id, &e);
            }
        }
        let answer = match incoming {
            Incoming::Ping => Ok(json!({ "t": "pong" })),
            Incoming::Hello { token, since } => self.hello(token, since).await,
            Incoming::Command(command) => self.command(command).await,
        };
        match answer {
            Ok(mut v) => {
                if let Some(id) = id {
                    v["id"] = id;
                }
                // The events a command caused go out before its answer.
                self.take_lines();
                self.out.push(text(v.to_string()));
            }
            Err(e) => {
                self.take_lines();
                self.error(id, &e)
            }
        }
    }

    async fn hello(&mut self, token: Option<String>, since: Option<u64>) -> Result<Value, ApiError> {
        if let Some(token) = token {
            let side = self.table.seat(&token).ok_or(ApiError::Forbidden)?;
            if self.side.is_some_and(|s| s != side) {
                return Err(ApiError::bad_request("this socket already holds the other seat"));
            }
            self.side = Some(side);
        }
        if self.sent.is_none() {
            self.start(since).await?;
        } else if since.is_some() {
            return Err(ApiError::bad_request(
                "since: the stream has already started; open a new socket to resume",
            ));
        }
        let side = self.side.map(|s| s.name(self.table.spec.kind));
        Ok(json!({ "t": "hello", "side": side }))
    }

    async fn command(&mut self, command: crate::protocol::Command) -> Result<Value, ApiError> {
        let side = self.side.ok_or(ApiError::Unauthorized)?;
        self.app.may_act(&self.table.id, side)?;
        let is_move = command.is_move();
        let command = command.into_referee(self.table.spec.kind)?;
        let lag = if is_move { self.lag() } else { 0 };
        let ack = self.table.act(side, command, lag).await?;
        let mut v = crate::api::answer(&ack);
        v["t"] = "ack".into();
        Ok(v)
    }

    /// The network delay credited to a move: half the shortest recent round trip (the
    /// shortest, as the client's own delays in answering are not network).
    fn lag(&self) -> u64 {
        self.round_trips.iter().min().map_or(0, |rtt| rtt / 2)
    }

    async fn start(&mut self, since: Option<u64>) -> Result<(), ApiError> {
        match since {
            None => {
                let (full, n) = self.table.full().await?;
                let full = Seated::of(&self.app, &self.table).await?.into_full(full);
                self.out.push(text(full));
                self.sent = Some(n);
            }
            Some(v) => {
                // Resumed on a node following the game: its lines hold every command answered.
                self.table.settle().await?;
                self.sent = Some(v.saturating_add(1));
            }
        }
        Ok(())
    }

    /// Queues the lines published since the last; whether the game is over with all sent.
    fn take_lines(&mut self) -> bool {
        let Some(sent) = self.sent else {
            return false;
        };
        let (count, over) = *self.progress.borrow_and_update();
        if count <= sent {
            return over;
        }
        let lines = self.table.lines_from(sent);
        self.sent = Some(sent + lines.len() as u64);
        self.out.extend(lines.iter().map(|l| text(l.to_string())));
        over
    }

    fn error(&mut self, id: Option<Value>, e: &ApiError) {
        let mut v = e.body();
        v["t"] = "error".into();
        v["code"] = e.status().as_u16().into();
        if let Some(id) = id {
            v["id"] = id;
        }
        self.out.push(text(v.to_string()));
    }

    /// Sends what is queued, in one write where it fits.
    async fn flush(&mut self, socket: &mut WebSocket) -> Result<(), ()> {
        if self.out.is_empty() {
            return Ok(());
        }
        let frames = std::mem::take(&mut self.out);
        let send = async {
            for f in frames {
                socket.feed(f).await?;
            }
            socket.flush().await
        };
        match tokio::time::timeout(SEND_WAIT, send).await {
            Ok(Ok(())) => Ok(()),
            _ => Err(()),
        }
    }
}

fn text(s: String) -> Message {
    Message::Text(s.into())
}

async fn close(socket: &mut WebSocket, code: u16, reason: &'static str) -> Result<(), axum::Error> {
    let frame = CloseFrame {
        code,
        reason: reason.into(),
    };
    tokio::time::timeout(SEND_WAIT, socket.send(Message::Close(Some(frame))))
        .await
        .unwrap_or(Ok(()))
}

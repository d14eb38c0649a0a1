//! One game's owner: a task holding the referee, fed by a channel, that writes every command
//! to the database before applying it, and wakes itself when a flag could fall.
//!
//! Time: a game's clock is the referee's millisecond count, `base + elapsed since the task
//! started`. A fresh game starts at 0; a game rebuilt after a restart resumes at the time of
//! its last logged command, so the server's downtime (and the unlogged moments before a crash)
//! is charged to no one — as lichess does not charge players for its own downtime.

use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use game::Side;
use referee::clock::Millis;
use referee::{Command, EventKind};
use tokio::sync::{mpsc, oneshot, watch};

use crate::codec::{decode, encode};
use crate::db::{Db, Stored};
use crate::error::ApiError;
use crate::live::{Live, Spec};
use crate::view::View;

/// What a command came to.
#[derive(Debug)]
pub struct Ack {
    /// The version of the last event it caused.
    pub version: u64,
}

enum Msg {
    Act {
        side: Side,
        command: Command,
        reply: oneshot::Sender<Result<Ack, ApiError>>,
    },
    Full(oneshot::Sender<(String, u64)>),
    Pgn(oneshot::Sender<String>),
}

/// A game as the rest of the server holds it.
pub struct Table {
    pub id: String,
    pub spec: Spec,
    token_hashes: [String; 2],
    tx: mpsc::Sender<Msg>,
    /// Every event's NDJSON line; `lines[v]` has version `v`.
    lines: RwLock<Vec<Arc<str>>>,
    /// Lines so far, and whether the game is over: streams wait on it.
    progress: watch::Sender<(u64, bool)>,
}

impl Table {
    /// Rebuilds a stored game by replaying its log, and starts its task.
    pub fn restore(id: String, stored: Stored, db: Db) -> Result<Arc<Table>, ApiError> {
        let mut live = Live::new(&stored.spec)?;
        let mut view = View::default();
        let mut lines = Vec::new();
        for (at, side, text) in &stored.commands {
            let command = decode(text)
                .ok_or_else(|| ApiError::BadRequest(format!("game {id}: unreadable logged command {text:?}")))?;
            let events = live.apply(*at, *side, command);
            lines.extend(view.follow(&live, &events));
        }
        let over = live.ending().is_some();
        let (tx, rx) = mpsc::channel(64);
        let table = Arc::new(Table {
            id: id.clone(),
            spec: stored.spec.clone(),
            token_hashes: stored.token_hashes,
            tx,
            progress: watch::Sender::new((lines.len() as u64, over)),
            lines: RwLock::new(lines),
        });
        let actor = Actor {
            base: live.last_at(),
            epoch: Instant::now(),
            live,
            view,
            db,
            table: Arc::downgrade(&table),
            id,
            spec: stored.spec,
            last_tick: None,
        };
        tokio::spawn(actor.run(rx, over));
        Ok(table)
    }

    /// Which side this bearer token seats, if any.
    pub fn seat(&self, token: &str) -> Option<Side> {
        let h = crate::codec::token_hash(token);
        [Side::First, Side::Second]
            .into_iter()
            .find(|&s| self.token_hashes[s as usize] == h)
    }

    pub async fn act(&self, side: Side, command: Command) -> Result<Ack, ApiError> {
        let (reply, rx) = oneshot::channel();
        self.tx
            .send(Msg::Act { side, command, reply })
            .await
            .map_err(|_| ApiError::Gone)?;
        rx.await.map_err(|_| ApiError::Gone)?
    }

    /// The `gameFull` line now, and how many event lines it covers.
    pub async fn full(&self) -> Result<(String, u64), ApiError> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Msg::Full(reply)).await.map_err(|_| ApiError::Gone)?;
        rx.await.map_err(|_| ApiError::Gone)
    }

    pub async fn pgn(&self) -> Result<String, ApiError> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Msg::Pgn(reply)).await.map_err(|_| ApiError::Gone)?;
        rx.await.map_err(|_| ApiError::Gone)
    }

    /// Lines from version `from` on.
    pub fn lines_from(&self, from: u64) -> Vec<Arc<str>> {
        let lines = self.lines.read().unwrap_or_else(|e| e.into_inner());
        lines.get(from as usize..).map(<[_]>::to_vec).unwrap_or_default()
    }

    pub fn watch(&self) -> watch::Receiver<(u64, bool)> {
        self.progress.subscribe()
    }
}

struct Actor {
    id: String,
    spec: Spec,
    live: Live,
    view: View,
    db: Db,
    /// Weak, so the task ends when the server drops the game.
    table: std::sync::Weak<Table>,
    base: Millis,
    epoch: Instant,
    /// The wake time last ticked at, so a tick that rules nothing is not repeated at once.
    last_tick: Option<Millis>,
}

impl Actor {
    fn now(&self) -> Millis {
        self.base + self.epoch.elapsed().as_millis() as Millis
    }

    async fn run(mut self, mut rx: mpsc::Receiver<Msg>, mut finished: bool) {
        loop {
            let wake = self.live.wake_at().filter(|&w| Some(w) != self.last_tick);
            let deadline = wake.map(|w| self.epoch + Duration::from_millis(w.saturating_sub(self.base) + 1));
            let sleep = async {
                match deadline {
                    Some(d) => tokio::time::sleep_until(d.into()).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                msg = rx.recv() => match msg {
                    None => return,
                    Some(Msg::Act { side, command, reply }) => {
                        let r = self.act(side, command, &mut finished).await;
                        let _ = reply.send(r);
                    }
                    Some(Msg::Full(reply)) => {
                        let full = self.view.full(&self.id, &self.live, &self.spec, self.now());
                        let _ = reply.send((full.to_string(), self.view.count));
                    }
                    Some(Msg::Pgn(reply)) => {
                        let _ = reply.send(self.live.pgn());
                    }
                },
                _ = sleep => {
                    self.last_tick = wake;
                    let side = self.live.turn();
                    if let Err(e) = self.act(side, Command::Tick, &mut finished).await {
                        eprintln!("game {}: flag check failed: {e}", self.id);
                    }
                }
            }
        }
    }

    /// Hands new lines to the streams.
    fn publish(&self, lines: Vec<Arc<str>>) {
        if let Some(table) = self.table.upgrade() {
            table.lines.write().unwrap_or_else(|e| e.into_inner()).extend(lines);
            table
                .progress
                .send_replace((self.view.count, self.live.ending().is_some()));
        }
    }

    async fn act(&mut self, side: Side, command: Command, finished: &mut bool) -> Result<Ack, ApiError> {
        let version = self.view.count.saturating_sub(1);
        if self.live.ending().is_some() {
            return Err(ApiError::Refused {
                reason: "the game is over".into(),
                version,
            });
        }
        if command == Command::Abort && self.view.moves.len() >= 2 {
            return Err(ApiError::BadRequest(
                "too late to abort: both sides have moved; resign instead".into(),
            ));
        }
        // An offer while the other side's offer stands is lichess's `draw/yes`: an acceptance.
        let command = match command {
            Command::OfferDraw if self.view.offer == Some(!side) => Command::AcceptDraw,
            c => c,
        };
        let text = encode(&command).ok_or_else(|| ApiError::BadRequest("not a command the API takes".into()))?;
        let at = self.now().max(self.live.last_at());
        if self.live.commands() == 0 {
            // The clocks start with the first thing a player does, not at creation: a game
            // created and then shared costs no one time while the other player arrives.
            self.db.append(&self.id, 0, at, Side::First, "start").await?;
            let started = self.live.apply(at, Side::First, Command::Start);
            // Rendered and published before the next command applies, as a replay renders it
            // (and so streams stay whole if that command's write fails).
            let lines = self.view.follow(&self.live, &started);
            self.publish(lines);
        }
        // Durable first: a command the database did not take never happened.
        self.db.append(&self.id, self.live.commands(), at, side, &text).await?;
        let events = self.live.apply(at, side, command);
        let lines = self.view.follow(&self.live, &events);
        self.publish(lines);
        let over = self.live.ending().is_some();
        if over && !*finished {
            *finished = true;
            let end = self.live.ending().map(referee::reason_code).unwrap_or_default();
            if let Err(e) = self.db.finish(&self.id, end).await {
                eprintln!("game {}: could not mark finished: {e}", self.id);
            }
        }
        let refusal = events.iter().find_map(|e| match &e.kind {
            EventKind::MoveRejected { reason, .. }
            | EventKind::Refused { reason, .. }
            | EventKind::OfferRefused { reason, .. }
            | EventKind::ClaimRejected { reason, .. } => Some(reason.clone()),
            _ => None,
        });
        let version = self.view.count.saturating_sub(1);
        match refusal {
            Some(reason) => Err(ApiError::Refused { reason, version }),
            None => Ok(Ack { version }),
        }
    }
}

//! One game's owner: a task holding the referee, fed by a channel, that writes every command
//! to the database before applying it, and wakes itself when a flag could fall.
//!
//! Time: a game's clock is the referee's millisecond count, `base + elapsed since the task
//! started`. A fresh game starts at 0; a game rebuilt after a restart (or taken over by another
//! node of a cluster) resumes at the time of its last logged command, so the server's downtime
//! (and the unlogged moments before a crash) is charged to no one — as lichess does not charge
//! players for its own downtime.
//!
//! In a cluster (`crate::cluster`) a node holds each game it knows of as a table: the node
//! that owns the game runs its task here; every other node *follows* it, its lines appended
//! from the owner's messages, and its commands forwarded to the owner ([`route`]).

mod actor;
mod lag;
mod route;

pub use route::{Op, Reply};

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use game::{BySide, Side};
use referee::clock::Millis;
use referee::Command;
use tokio::sync::{mpsc, oneshot, watch};

use crate::cluster::Node;
use crate::codec::{decode, encode};
use crate::db::{Db, Stored};
use crate::error::ApiError;
use crate::live::{Live, Spec};
use crate::view::View;
use actor::Actor;
use lag::LagQuota;

/// What a command came to.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Ack {
    /// The version of the last event it caused.
    pub version: u64,
    /// Where the game stands after it: lichess's status name (`started`, `mate`, …), and,
    /// once it is over, arbiter's exact reason and the winner (`None`: a draw or no result).
    pub status: std::borrow::Cow<'static, str>,
    pub reason: Option<std::borrow::Cow<'static, str>>,
    pub winner: Option<std::borrow::Cow<'static, str>>,
}

enum Msg {
    Act {
        side: Side,
        command: Command,
        /// The network delay the client reports for this command (ms), credited within quota.
        lag: Millis,
        reply: oneshot::Sender<Result<Ack, ApiError>>,
    },
    Full(oneshot::Sender<(String, u64)>),
    /// The record, with the players' names (first, second).
    Pgn([Option<String>; 2], oneshot::Sender<String>),
    /// The task ends once the messages before this one are answered (a node handing the game
    /// over, or fenced out of it).
    Stop(oneshot::Sender<()>),
}

/// A game as the rest of the server holds it.
pub struct Table {
    pub id: String,
    pub spec: Spec,
    /// The seat the computer plays, if it plays one ([`crate::computer`]).
    pub computer: Option<crate::computer::ComputerSeat>,
    token_hashes: BySide<String>,
    arbiter_hash: Option<String>,
    /// The board device's token hash: the arbiter may make a new one at any time.
    device_hash: RwLock<Option<String>>,
    /// The game's task, while this node runs it (always, on a single server).
    tx: RwLock<Option<mpsc::Sender<Msg>>>,
    /// Every event's NDJSON line; `lines[v]` has version `v`.
    lines: RwLock<Vec<Arc<str>>>,
    /// How many logged commands the lines render, moved with them under their lock: a
    /// follower compares it with the log's to know it is behind ([`route`]).
    logged: AtomicU64,
    /// Lines so far, and whether the game is over: streams wait on it.
    progress: watch::Sender<(u64, bool)>,
    /// The cluster this node is part of, if any: where commands go when the game runs on
    /// another node, and where its lines are sent to the others.
    cluster: Option<Arc<Node>>,
    /// A follower's catch-up from the log.
    gap: route::Gap,
}

/// A stored game replayed: the referee, the view and its lines, the lag quotas.
struct Replayed {
    live: Live,
    view: View,
    lines: Vec<Arc<str>>,
    lag: LagQuota,
}

fn replay(id: &str, stored: &Stored) -> Result<Replayed, ApiError> {
    let mut live = Live::new(&stored.spec)?;
    let mut view = View::default();
    let mut lines = Vec::new();
    let mut lag = LagQuota::new(live.time_control());
    for (at, side, text) in &stored.commands {
        let command = decode(text)
            .ok_or_else(|| ApiError::bad_request(format!("game {id}: unreadable logged command {text:?}")))?;
        // The quotas as they were: the logged credits are what was granted.
        match &command {
            Command::Move(_) | Command::MoveOfferingDraw(_) if lag.applies(&live, *side) => {
                lag.credit(*side, 0, 0);
            }
            Command::LaggedMove { lag: credit, .. } if lag.applies(&live, *side) => {
                lag.credit(*side, *credit, *credit);
            }
            _ => {}
        }
        let events = live.apply(*at, *side, command);
        lines.extend(view.follow(&live, &events));
    }
    Ok(Replayed { live, view, lines, lag })
}

impl Table {
    /// Rebuilds a stored game by replaying its log, and starts its task.
    /// A game no side has moved in for `abandon` before both have moved is aborted.
    pub fn restore(id: String, stored: Stored, db: Db, abandon: Option<Duration>) -> Result<Arc<Table>, ApiError> {
        Table::open(id, stored, Some((db, abandon)), None)
    }

    /// A stored game replayed: run here (`run`: with the database to log to and the abandon
    /// time) or followed, a node of `cluster`.
    pub(crate) fn open(
        id: String,
        stored: Stored,
        run: Option<(Db, Option<Duration>)>,
        cluster: Option<Arc<Node>>,
    ) -> Result<Arc<Table>, ApiError> {
        let replayed = replay(&id, &stored)?;
        let over = replayed.live.ending().is_some();
        // A finished game writes nothing more: it runs on any node (its owner may be gone).
        let run = match run {
            None if over => cluster.as_ref().and_then(|node| node.pinned_db()).map(|db| (db, None)),
            run => run,
        };
        let table = Arc::new(Table {
            id: id.clone(),
            spec: stored.spec.clone(),
            computer: stored.computer,
            token_hashes: stored.token_hashes.clone(),
            arbiter_hash: stored.arbiter_hash.clone(),
            device_hash: RwLock::new(stored.device_hash.clone()),
            tx: RwLock::new(None),
            progress: watch::Sender::new((replayed.lines.len() as u64, over)),
            lines: RwLock::new(Vec::new()),
            logged: AtomicU64::new(stored.commands.len() as u64),
            cluster,
            gap: route::Gap::default(),
        });
        match run {
            Some((db, abandon)) => {
                let tx = table.start(replayed, &stored, db, abandon);
                *table.tx.write().unwrap_or_else(|e| e.into_inner()) = Some(tx);
            }
            None => *table.lines.write().unwrap_or_else(|e| e.into_inner()) = replayed.lines,
        }
        Ok(table)
    }

    /// Starts the game's task here from `replayed`, its lines now the table's; returns the
    /// task's queue, for the caller to keep.
    fn start(
        self: &Arc<Self>,
        replayed: Replayed,
        stored: &Stored,
        db: Db,
        abandon: Option<Duration>,
    ) -> mpsc::Sender<Msg> {
        let Replayed { live, view, lines, lag } = replayed;
        let over = live.ending().is_some();
        let (tx, rx) = mpsc::channel(64);
        {
            let mut held = self.lines.write().unwrap_or_else(|e| e.into_inner());
            // What it followed is a prefix of what the log holds: the log is whole.
            *held = lines;
            self.logged.store(stored.commands.len() as u64, Ordering::Release);
            self.progress.send_replace((held.len() as u64, over));
        }
        let actor = Actor {
            base: live.last_at(),
            epoch: Instant::now(),
            live,
            view,
            db,
            table: Arc::downgrade(self),
            id: Arc::from(self.id.as_str()),
            spec: stored.spec.clone(),
            last_tick: None,
            lag,
            abandon,
            created: std::time::UNIX_EPOCH + Duration::from_millis(stored.created_unix_ms.max(0) as u64),
            fanout: self.cluster.clone(),
        };
        tokio::spawn(actor.run(rx, over));
        tx
    }

    /// Which side this bearer token seats, if any.
    pub fn seat(&self, token: &str) -> Option<Side> {
        let h = crate::codec::token_hash(token);
        self.token_hashes
            .iter()
            .find(|(_, hash)| **hash == h)
            .map(|(side, _)| side)
    }

    /// Whether this bearer token is the game's arbiter's (a game made without one has none).
    pub fn is_arbiter(&self, token: &str) -> bool {
        self.arbiter_hash
            .as_deref()
            .is_some_and(|h| h == crate::codec::token_hash(token))
    }

    /// Whether this bearer token is the game's board device's.
    pub fn is_device(&self, token: &str) -> bool {
        let h = crate::codec::token_hash(token);
        self.device_hash
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .as_deref()
            .is_some_and(|d| d == h)
    }

    /// The board device's token is now the one with this hash (stored by the caller first):
    /// the device that held the one before holds nothing.
    pub fn set_device(&self, hash: String) {
        *self.device_hash.write().unwrap_or_else(|e| e.into_inner()) = Some(hash);
    }

    /// Lines from version `from` on.
    pub fn lines_from(&self, from: u64) -> Vec<Arc<str>> {
        let lines = self.lines.read().unwrap_or_else(|e| e.into_inner());
        lines.get(from as usize..).map(<[_]>::to_vec).unwrap_or_default()
    }

    /// [`Table::lines_from`], and how many logged commands the lines held render: read
    /// together, so the count never claims a line not given.
    pub(crate) fn lines_logged_from(&self, from: u64) -> (Vec<Arc<str>>, u64) {
        let lines = self.lines.read().unwrap_or_else(|e| e.into_inner());
        let logged = self.logged.load(Ordering::Acquire);
        (
            lines.get(from as usize..).map(<[_]>::to_vec).unwrap_or_default(),
            logged,
        )
    }

    pub fn watch(&self) -> watch::Receiver<(u64, bool)> {
        self.progress.subscribe()
    }

    /// How many logged commands the lines held render.
    pub(crate) fn logged(&self) -> u64 {
        self.logged.load(Ordering::Acquire)
    }
}

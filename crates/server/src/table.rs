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

mod lag;
mod route;

pub use route::{Op, Reply};

use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use game::{BySide, Side};
use referee::clock::Millis;
use referee::{Command, EventKind};
use tokio::sync::{mpsc, oneshot, watch};

use crate::cluster::Node;
use crate::codec::{decode, encode};
use crate::db::{Db, Stored};
use crate::error::{ApiError, End};
use crate::live::{Live, Spec};
use crate::view::View;
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
    Pgn(oneshot::Sender<String>),
    /// The task ends once the messages before this one are answered (a node handing the game
    /// over, or fenced out of it).
    Stop(oneshot::Sender<()>),
}

/// A game as the rest of the server holds it.
pub struct Table {
    pub id: String,
    pub spec: Spec,
    token_hashes: BySide<String>,
    arbiter_hash: Option<String>,
    /// The board device's token hash: the arbiter may make a new one at any time.
    device_hash: RwLock<Option<String>>,
    /// The game's task, while this node runs it (always, on a single server).
    tx: RwLock<Option<mpsc::Sender<Msg>>>,
    /// Every event's NDJSON line; `lines[v]` has version `v`.
    lines: RwLock<Vec<Arc<str>>>,
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
            .ok_or_else(|| ApiError::BadRequest(format!("game {id}: unreadable logged command {text:?}")))?;
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
            token_hashes: stored.token_hashes.clone(),
            arbiter_hash: stored.arbiter_hash.clone(),
            device_hash: RwLock::new(stored.device_hash.clone()),
            tx: RwLock::new(None),
            progress: watch::Sender::new((replayed.lines.len() as u64, over)),
            lines: RwLock::new(Vec::new()),
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

    pub fn watch(&self) -> watch::Receiver<(u64, bool)> {
        self.progress.subscribe()
    }
}

struct Actor {
    id: Arc<str>,
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
    lag: LagQuota,
    abandon: Option<Duration>,
    /// Wall-clock creation time: a game never started is abandoned by it, across restarts.
    created: std::time::SystemTime,
    /// In a cluster: where each new line goes for the other nodes.
    fanout: Option<Arc<Node>>,
}

impl Actor {
    fn now(&self) -> Millis {
        self.base + self.epoch.elapsed().as_millis() as Millis
    }

    /// When the server must act by itself: a flag may fall (`false`) or the game is abandoned
    /// (`true`).
    fn deadline(&self, finished: bool) -> Option<(Instant, bool)> {
        if finished {
            return None;
        }
        let wake = self.live.wake_at().filter(|&w| Some(w) != self.last_tick);
        // A flag falls only once the mover's lag credit could no longer save the move (at most
        // 2 s later, as lichess's grace).
        let grace = self.lag.grace(self.live.turn());
        let flag = wake.map(|w| (self.game_instant(w + grace + 1), false));
        let abandon = self.abandon.filter(|_| self.view.moves.len() < 2).map(|after| {
            let at = if self.live.commands() == 0 {
                let left = (self.created + after)
                    .duration_since(std::time::SystemTime::now())
                    .unwrap_or_default();
                Instant::now() + left
            } else {
                self.game_instant(self.live.last_at() + after.as_millis() as Millis)
            };
            (at, true)
        });
        match (flag, abandon) {
            (Some(f), Some(a)) => Some(if a.0 < f.0 { a } else { f }),
            (f, a) => f.or(a),
        }
    }

    fn game_instant(&self, at: Millis) -> Instant {
        self.epoch + Duration::from_millis(at.saturating_sub(self.base))
    }

    async fn run(mut self, mut rx: mpsc::Receiver<Msg>, mut finished: bool) {
        loop {
            let deadline = self.deadline(finished);
            let sleep = async {
                match deadline {
                    Some((d, _)) => tokio::time::sleep_until(d.into()).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                msg = rx.recv() => match msg {
                    None => return,
                    Some(Msg::Act { side, command, lag, reply }) => {
                        let r = self.act(side, command, lag, &mut finished).await;
                        let fenced = fenced(&r);
                        let _ = reply.send(r);
                        if fenced {
                            return self.fenced_out();
                        }
                    }
                    Some(Msg::Full(reply)) => {
                        let full = self.view.full(&self.id, &self.live, &self.spec, self.now());
                        let _ = reply.send((full.to_string(), self.view.count));
                    }
                    Some(Msg::Pgn(reply)) => {
                        let _ = reply.send(self.live.pgn(&self.id, self.created));
                    }
                    Some(Msg::Stop(done)) => {
                        let _ = done.send(());
                        return;
                    }
                },
                _ = sleep => {
                    let side = self.live.turn();
                    let command = match deadline {
                        Some((_, true)) => Command::Abort,
                        _ => {
                            self.last_tick = self.live.wake_at();
                            Command::Tick
                        }
                    };
                    let r = self.act(side, command.clone(), 0, &mut finished).await;
                    if fenced(&r) {
                        return self.fenced_out();
                    }
                    if let Err(e) = r {
                        tracing::error!(game = %self.id, ?command, error = %e, "the server's own command failed");
                    }
                }
            }
        }
    }

    /// The node's lease no longer covers this game (another node took it over): the task
    /// ends, writing nothing more, and the table follows the new owner.
    fn fenced_out(self) {
        tracing::warn!(game = %self.id, "fenced: another node runs this game now; it is dropped here");
    }

    /// Hands new lines to the streams, and in a cluster to the other nodes.
    fn publish(&self, lines: Vec<Arc<str>>) {
        if lines.is_empty() {
            return;
        }
        let over = self.live.ending().is_some();
        if let Some(node) = &self.fanout {
            node.fanout(&self.id, self.view.count - lines.len() as u64, &lines, over);
        }
        if let Some(table) = self.table.upgrade() {
            table.lines.write().unwrap_or_else(|e| e.into_inner()).extend(lines);
            table.progress.send_replace((self.view.count, over));
        }
    }

    async fn act(&mut self, side: Side, command: Command, lag: Millis, finished: &mut bool) -> Result<Ack, ApiError> {
        let version = self.view.count.saturating_sub(1);
        if self.live.ending().is_some() {
            return Err(ApiError::Refused {
                reason: "the game is over".into(),
                version,
                end: None,
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
        let at = self.now().max(self.live.last_at());
        // Lag compensation: the side to move is credited the delay its client reports, within
        // its quota; the referee charges its clock up to when the move was made (never before
        // its turn began) and starts the other side's on arrival. The credit is logged with
        // the move, so a replay rules the same.
        let own_move =
            matches!(command, Command::Move(_) | Command::MoveOfferingDraw(_)) && self.lag.applies(&self.live, side);
        let command = if own_move {
            let credit = self.lag.credit(side, lag, at - self.live.last_at());
            match command {
                Command::Move(text) if credit > 0 => Command::LaggedMove {
                    text: text.into(),
                    offering: false,
                    lag: credit,
                },
                Command::MoveOfferingDraw(text) if credit > 0 => Command::LaggedMove {
                    text: text.into(),
                    offering: true,
                    lag: credit,
                },
                c => c,
            }
        } else {
            command
        };
        let text = encode(&command).ok_or_else(|| ApiError::BadRequest("not a command the API takes".into()))?;
        // The clocks start with the first move, not at creation: a game created and then
        // shared costs no one time while the other player arrives. Before it, only resigning
        // or aborting (which end the game) are taken, and the arbiter's starting the clocks
        // (over the board, lateness runs from it); anything else — a move out of turn, an
        // offer, a claim — is refused unlogged and starts no clock.
        let starting = self.live.commands() == 0;
        if command == Command::Start {
            if !starting {
                return Err(ApiError::Refused {
                    reason: "the game has already started".into(),
                    version,
                    end: None,
                });
            }
            self.db.append(vec![(self.id.clone(), 0, at, side, text)]).await?;
            let events = self.live.apply(at, side, Command::Start);
            let lines = self.view.follow(&self.live, &events);
            self.publish(lines);
            return Ok(Ack {
                version: self.view.count.saturating_sub(1),
                status: "started".into(),
                reason: None,
                winner: None,
            });
        }
        let first_move = side == self.live.turn()
            && matches!(
                command,
                Command::Move(_) | Command::MoveOfferingDraw(_) | Command::LaggedMove { .. }
            );
        if starting && !first_move && !matches!(command, Command::Resign | Command::Abort | Command::Decide { .. }) {
            let first = self.live.turn().name(self.live.kind());
            let reason = if side == self.live.turn() {
                format!("the game has not started: it starts with {first}'s first move")
            } else {
                format!("not this side's turn: the game starts with {first}'s first move")
            };
            return Err(ApiError::Refused {
                reason,
                version,
                end: None,
            });
        }
        let mut entries = Vec::with_capacity(2);
        if starting {
            entries.push((self.id.clone(), 0, at, Side::First, "start".to_string()));
        }
        entries.push((
            self.id.clone(),
            self.live.commands() + usize::from(starting),
            at,
            side,
            text,
        ));
        // Durable first: a command the database did not take never happened.
        self.db.append(entries).await?;
        if starting {
            let started = self.live.apply(at, Side::First, Command::Start);
            // Rendered and published before the command applies, as a replay renders it.
            let lines = self.view.follow(&self.live, &started);
            self.publish(lines);
        }
        let events = self.live.apply(at, side, command);
        let lines = self.view.follow(&self.live, &events);
        self.publish(lines);
        let over = self.live.ending().is_some();
        if over && !*finished {
            *finished = true;
            let end = self.live.ending().map(referee::rule_code).unwrap_or_default();
            if let Err(e) = self.db.finish(&self.id, end).await {
                tracing::error!(game = %self.id, error = %e, "could not mark the game finished");
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
            Some(reason) => Err(ApiError::Refused {
                reason,
                version,
                end: self.end(),
            }),
            None => Ok(match self.end() {
                None => Ack {
                    version,
                    status: "started".into(),
                    reason: None,
                    winner: None,
                },
                Some(end) => Ack {
                    version,
                    status: end.status.into(),
                    reason: Some(end.reason.into()),
                    winner: end.winner.map(Into::into),
                },
            }),
        }
    }

    /// How the game ended, if it has.
    fn end(&self) -> Option<End> {
        let end = self.live.ending()?;
        let reason = referee::rule_code(end);
        let winner = match end.result {
            judge::Outcome::FirstWins => Some(Side::First.name(self.live.kind())),
            judge::Outcome::SecondWins => Some(Side::Second.name(self.live.kind())),
            _ => None,
        };
        Some(End {
            status: crate::view::lichess_status(reason, winner.is_some()),
            reason,
            winner,
        })
    }
}

/// Whether a command failed because the node's lease is gone (see `store::lease`).
fn fenced<T>(r: &Result<T, ApiError>) -> bool {
    matches!(r, Err(ApiError::Storage(e)) if store::lease::is_fenced(e))
}

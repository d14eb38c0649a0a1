//! Where a table's commands go: to the game's task when this node runs it, else — a follower
//! on a node of a cluster — to the node that does (`crate::cluster`); and how a follower's
//! lines keep up with the owner's.

use std::sync::atomic::Ordering;

use serde::{Deserialize, Serialize};

use super::*;

/// What a node asks of a game's task, here or on another node.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "kebab-case")]
pub enum Op {
    /// A command as the log writes it (`codec`), for side `first` or `second`.
    Act {
        side: String,
        command: String,
        lag: Millis,
    },
    Full,
    /// The record, with the players' names as the asking node read them.
    Pgn {
        #[serde(default)]
        names: [Option<String>; 2],
    },
    /// Run the game here: a node handing it over asks its new owner.
    Load,
}

/// What came of an [`Op`].
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reply {
    Ack(Ack),
    Full {
        line: String,
        count: u64,
    },
    Pgn(String),
    Loaded,
    /// The game does not run on the node asked (any more): ask its owner again.
    Moved,
    /// The error the command met, as HTTP gives it.
    Error {
        status: u16,
        body: serde_json::Value,
    },
}

impl Reply {
    /// The answer the owner gave, as this node's error when it was one.
    pub fn of(r: Result<Reply, ApiError>) -> Reply {
        match r {
            Ok(reply) => reply,
            Err(ApiError::Moved) => Reply::Moved,
            Err(e) => Reply::Error {
                status: e.status().as_u16(),
                body: e.body(),
            },
        }
    }
}

fn unexpected(r: Reply) -> ApiError {
    match r {
        Reply::Error { status, body } => ApiError::Remote { status, body },
        Reply::Moved => ApiError::Moved,
        other => ApiError::bad_request(format!("a node answered out of turn: {other:?}")),
    }
}

fn side_code(side: Side) -> &'static str {
    match side {
        Side::First => "first",
        Side::Second => "second",
    }
}

impl Table {
    /// Whether this node runs the game's task.
    pub fn is_local(&self) -> bool {
        self.tx
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
            .is_some_and(|tx| !tx.is_closed())
    }

    fn sender(&self) -> Result<mpsc::Sender<Msg>, ApiError> {
        let tx = self.tx.read().unwrap_or_else(|e| e.into_inner()).clone();
        tx.ok_or_else(|| self.not_here())
    }

    /// A single server's game task is gone only when it stops; a cluster's may have moved.
    fn not_here(&self) -> ApiError {
        if self.cluster.is_some() {
            ApiError::Moved
        } else {
            ApiError::Gone
        }
    }

    /// Runs a command for `side`; `lag` is the client's estimate of its network delay (ms).
    pub async fn act(&self, side: Side, command: Command, lag: Millis) -> Result<Ack, ApiError> {
        let Some(node) = &self.cluster else {
            return self.act_here(side, command, lag).await;
        };
        let command = encode(&command).ok_or_else(|| ApiError::bad_request("not a command the API takes"))?;
        let op = Op::Act {
            side: side_code(side).into(),
            command,
            lag,
        };
        let reply = node.run(self, op).await?;
        // An answer, taken or refused, goes out after the lines the command made (its move, a
        // rejection, a foul, the end) on a follower too.
        let version = match &reply {
            Reply::Ack(ack) => Some(ack.version),
            Reply::Error { body, .. } => body.get("version").and_then(serde_json::Value::as_u64),
            _ => None,
        };
        if let Some(version) = version.filter(|_| !self.is_local()) {
            node.reach(self, version).await;
        }
        match reply {
            Reply::Ack(ack) => Ok(ack),
            other => Err(unexpected(other)),
        }
    }

    /// Before lines are given from a version on (a stream or socket resumed): a follower's
    /// lines are brought up to every command logged now, so they hold every acknowledged one
    /// (`cluster::fresh`). Nothing to do where the game runs, or once it is over (the lines
    /// that ended it came whole).
    pub async fn settle(&self) -> Result<(), ApiError> {
        match &self.cluster {
            Some(node) if !self.is_local() && !self.progress.borrow().1 => node.settle(self).await,
            _ => Ok(()),
        }
    }

    /// The `gameFull` line now, and how many event lines it covers.
    pub async fn full(&self) -> Result<(String, u64), ApiError> {
        let Some(node) = &self.cluster else {
            return self.full_here().await;
        };
        match node.run(self, Op::Full).await? {
            Reply::Full { line, count } => Ok((line, count)),
            other => Err(unexpected(other)),
        }
    }

    pub async fn pgn(&self, names: [Option<String>; 2]) -> Result<String, ApiError> {
        let Some(node) = &self.cluster else {
            return self.pgn_here(names).await;
        };
        match node.run(self, Op::Pgn { names }).await? {
            Reply::Pgn(text) => Ok(text),
            other => Err(unexpected(other)),
        }
    }

    /// Runs `op` on this node's task: [`ApiError::Moved`] when it does not run here.
    pub(crate) async fn here(&self, op: Op) -> Result<Reply, ApiError> {
        match op {
            Op::Act { side, command, lag } => {
                let side = match side.as_str() {
                    "first" => Side::First,
                    "second" => Side::Second,
                    _ => {
                        return Err(ApiError::bad_request(format!(
                            "side: expected first or second, found {side:?}"
                        )))
                    }
                };
                let command =
                    decode(&command).ok_or_else(|| ApiError::bad_request(format!("not a command: {command:?}")))?;
                self.act_here(side, command, lag).await.map(Reply::Ack)
            }
            Op::Full => self.full_here().await.map(|(line, count)| Reply::Full { line, count }),
            Op::Pgn { names } => self.pgn_here(names).await.map(Reply::Pgn),
            Op::Load if self.is_local() => Ok(Reply::Loaded),
            Op::Load => Err(ApiError::Moved),
        }
    }

    async fn act_here(&self, side: Side, command: Command, lag: Millis) -> Result<Ack, ApiError> {
        let (reply, rx) = oneshot::channel();
        let msg = Msg::Act {
            side,
            command,
            lag,
            reply,
        };
        self.sender()?.send(msg).await.map_err(|_| self.not_here())?;
        rx.await.map_err(|_| self.not_here())?
    }

    async fn full_here(&self) -> Result<(String, u64), ApiError> {
        let (reply, rx) = oneshot::channel();
        self.sender()?
            .send(Msg::Full(reply))
            .await
            .map_err(|_| self.not_here())?;
        rx.await.map_err(|_| self.not_here())
    }

    async fn pgn_here(&self, names: [Option<String>; 2]) -> Result<String, ApiError> {
        let (reply, rx) = oneshot::channel();
        self.sender()?
            .send(Msg::Pgn(names, reply))
            .await
            .map_err(|_| self.not_here())?;
        rx.await.map_err(|_| self.not_here())
    }

    /// Runs the game here from its log (`stored`, read after this node became its owner), unless
    /// it already runs here.
    pub(crate) fn localize(
        self: &Arc<Self>,
        stored: &Stored,
        db: Db,
        abandon: Option<Duration>,
    ) -> Result<(), ApiError> {
        // Held throughout, so two callers cannot both start a task.
        let mut tx = self.tx.write().unwrap_or_else(|e| e.into_inner());
        if tx.as_ref().is_some_and(|t| !t.is_closed()) {
            return Ok(());
        }
        let replayed = replay(&self.id, stored)?;
        *tx = Some(self.start(replayed, stored, db, abandon));
        Ok(())
    }

    /// Stops running the game here; returns once every command asked before is answered and
    /// the task has ended. The table follows the game's new owner from then on.
    pub(crate) async fn stop(&self) {
        let tx = self.tx.write().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(tx) = tx {
            let (done, ended) = oneshot::channel();
            if tx.send(Msg::Stop(done)).await.is_ok() {
                let _ = ended.await;
            }
        }
    }

    /// Lines the owner sent, the first with version `first`, rendering its first `logged`
    /// commands: appended where they follow on from the lines held. False on a gap (some
    /// were missed: read the log again).
    pub(crate) fn follow(&self, first: u64, lines: Vec<Arc<str>>, over: bool, logged: u64) -> bool {
        if self.is_local() {
            return true;
        }
        let mut held = self.lines.write().unwrap_or_else(|e| e.into_inner());
        let have = held.len() as u64;
        if first > have {
            return false;
        }
        let new = lines.into_iter().skip((have - first) as usize);
        held.extend(new);
        self.logged.fetch_max(logged, Ordering::AcqRel);
        let was_over = self.progress.borrow().1;
        self.progress.send_replace((held.len() as u64, over || was_over));
        true
    }

    /// Brings a follower's lines up to the log (`stored`, read now): a new follower, or one
    /// that missed some.
    pub(crate) fn catch_up(&self, stored: &Stored) -> Result<(), ApiError> {
        let replayed = replay(&self.id, stored)?;
        if self.is_local() {
            return Ok(());
        }
        let mut held = self.lines.write().unwrap_or_else(|e| e.into_inner());
        if replayed.lines.len() > held.len() {
            let from = held.len();
            held.extend_from_slice(&replayed.lines[from..]);
        }
        self.logged.fetch_max(stored.commands.len() as u64, Ordering::AcqRel);
        let over = replayed.live.ending().is_some() || self.progress.borrow().1;
        self.progress.send_replace((held.len() as u64, over));
        Ok(())
    }

    /// Whether a catch-up should start now (none runs): the caller runs it, then asks
    /// [`Table::caught_up`] whether to go again.
    pub(crate) fn begin_catch_up(&self) -> bool {
        if self.gap.running.swap(true, Ordering::AcqRel) {
            self.gap.dirty.store(true, Ordering::Release);
            return false;
        }
        true
    }

    /// After a catch-up: false when lines were missed meanwhile (run it again).
    pub(crate) fn caught_up(&self) -> bool {
        if self.gap.dirty.swap(false, Ordering::AcqRel) {
            return false;
        }
        self.gap.running.store(false, Ordering::Release);
        // A gap seen between the two stores above would otherwise wait for the next one: it
        // is done (true) unless there was one and this caller takes the next round.
        let missed = self.gap.dirty.load(Ordering::Acquire);
        !missed || self.gap.running.swap(true, Ordering::AcqRel)
    }
}

/// A follower's catch-up: one runs at a time; `dirty` says a gap was seen since it began.
#[derive(Default)]
pub(crate) struct Gap {
    running: std::sync::atomic::AtomicBool,
    dirty: std::sync::atomic::AtomicBool,
}

//! Commands for a game another node runs, forwarded to it by NATS request and reply on
//! `PREFIX.node.NODE.act`; and this node's answers to the others' forwards.
//!
//! A forward that finds no node listening (its owner died) or is told the game moved reads the
//! owner again and retries, for a bounded time, so a command during a takeover waits for the
//! new owner rather than fails. A command whose answer did not come in time is not sent again
//! — the owner may have run it — and the client is told to look (a 503 and the stream).

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use serde::{Deserialize, Serialize};

use crate::error::ApiError;
use crate::table::{Op, Reply, Table};

use super::Node;

/// How long a node waits for another's answer.
pub(crate) const ANSWER_WAIT: Duration = Duration::from_secs(2);
/// Between tries while a game has no node running it.
const RETRY_AFTER: Duration = Duration::from_millis(100);

/// A forward on the wire.
#[derive(Serialize, Deserialize)]
struct Request {
    game: String,
    #[serde(flatten)]
    op: Op,
}

pub(crate) enum Asked {
    Answered(Reply),
    /// Nobody listens on that node's subject: it is gone, the request was not delivered.
    NoOne,
    /// No answer in time: the request may have been run.
    NoAnswer,
}

impl Node {
    /// Runs `op` on game `table` where it runs: here, or on its owner.
    pub(crate) async fn run(&self, table: &Table, op: Op) -> Result<Reply, ApiError> {
        // A dead owner's lease runs out, then the next renewal takes its games over.
        let give_up = Instant::now() + self.ttl * 2 + ANSWER_WAIT * 2;
        // A finished game writes nothing more: any node answers for it (its owner may be
        // long gone, as finished games are not taken over).
        if !table.is_local() && table.watch().borrow().1 {
            if let Some(app) = self.app() {
                return app.localize(&table.id).await?.here(op).await;
            }
        }
        loop {
            if table.is_local() {
                match table.here(op.clone()).await {
                    Err(ApiError::Moved) => {}
                    r => return r,
                }
            }
            let owner = self.owner_of(&table.id).await?;
            let asked = match owner.as_deref() {
                // Ours now (a takeover, a hand-over to us), or no one's: run it here.
                Some(o) if o == self.name => self.here(&table.id, op.clone()).await,
                None => self.here(&table.id, op.clone()).await,
                Some(o) => {
                    self.metrics.forwards.fetch_add(1, Ordering::Relaxed);
                    self.ask(o, &table.id, &op).await
                }
            };
            match asked {
                Asked::Answered(Reply::Moved) => self.forget(&table.id),
                Asked::Answered(reply) => return Ok(reply),
                Asked::NoOne => {
                    self.metrics.forward_failures.fetch_add(1, Ordering::Relaxed);
                    self.forget(&table.id);
                }
                Asked::NoAnswer => {
                    self.metrics.forward_failures.fetch_add(1, Ordering::Relaxed);
                    self.forget(&table.id);
                    if matches!(op, Op::Act { .. }) {
                        return Err(ApiError::of(
                            axum::http::StatusCode::SERVICE_UNAVAILABLE,
                            crate::problem::Problem::NodeTimeout,
                            "the game's server node did not answer in time: the command may or may not have been taken; read the game's stream, then try again",
                        ));
                    }
                }
            }
            if Instant::now() >= give_up {
                return Err(ApiError::Moved);
            }
            tokio::time::sleep(RETRY_AFTER).await;
        }
    }

    /// Runs `op` on the game here if this node owns it (starting its task if need be).
    async fn here(&self, id: &str, op: Op) -> Asked {
        let Some(app) = self.app() else {
            return Asked::Answered(Reply::Moved);
        };
        Asked::Answered(Reply::of(self.answer_here(&app, id, op).await))
    }

    /// The game's owner, as last read (read again once forgotten).
    pub(super) async fn owner_of(&self, id: &str) -> Result<Option<String>, ApiError> {
        if let Some(o) = self.owners.lock().unwrap_or_else(|e| e.into_inner()).get(id) {
            return Ok(Some(o.clone()));
        }
        let owner = self.store.owner(id).await?;
        if let Some(o) = &owner {
            let mut owners = self.owners.lock().unwrap_or_else(|e| e.into_inner());
            // Bounded: past this many games it starts again from the database.
            if owners.len() >= 1 << 16 {
                owners.clear();
            }
            owners.insert(id.to_string(), o.clone());
        }
        Ok(owner)
    }

    fn forget(&self, id: &str) {
        self.owners.lock().unwrap_or_else(|e| e.into_inner()).remove(id);
    }

    /// Asks node `to` to run `op` on game `id`.
    pub(crate) async fn ask(&self, to: &str, id: &str, op: &Op) -> Asked {
        let request = Request {
            game: id.to_string(),
            op: op.clone(),
        };
        let Ok(payload) = serde_json::to_vec(&request) else {
            return Asked::NoOne;
        };
        match self.client.request(self.node_subject(to), payload.into()).await {
            Ok(message) => match serde_json::from_slice::<Reply>(&message.payload) {
                Ok(reply) => Asked::Answered(reply),
                Err(e) => Asked::Answered(Reply::of(Err(ApiError::bad_request(format!(
                    "node {to} answered unreadably: {e}"
                ))))),
            },
            Err(e) => match e.kind() {
                async_nats::client::RequestErrorKind::NoResponders => Asked::NoOne,
                async_nats::client::RequestErrorKind::TimedOut => Asked::NoAnswer,
                async_nats::client::RequestErrorKind::Other => {
                    tracing::warn!(node = %to, error = %e, "forward failed");
                    Asked::NoAnswer
                }
            },
        }
    }
}

/// Answers the other nodes' forwards, each in a task of its own.
pub(crate) async fn answer(node: Arc<Node>, mut asks: async_nats::Subscriber) {
    while let Some(message) = asks.next().await {
        let node = node.clone();
        tokio::spawn(async move {
            let Some(to) = message.reply.clone() else { return };
            let reply = match serde_json::from_slice::<Request>(&message.payload) {
                Err(e) => Reply::of(Err(ApiError::bad_request(format!("unreadable forward: {e}")))),
                Ok(Request { game, op }) => match node.app() {
                    None => Reply::Moved,
                    Some(app) => Reply::of(node.answer_here(&app, &game, op).await),
                },
            };
            let payload = serde_json::to_vec(&reply).unwrap_or_default();
            if let Err(e) = node.client.publish(to, payload.into()).await {
                tracing::warn!(error = %e, "could not answer a forward");
            }
        });
    }
}

impl Node {
    /// A forward's answer: the game runs here, or it is said to have moved.
    async fn answer_here(&self, app: &crate::App, id: &str, op: Op) -> Result<Reply, ApiError> {
        let table = app.game(id).await?;
        if table.is_local() {
            return table.here(op).await;
        }
        if self.runs_here(id).await? {
            return app.localize(id).await?.here(op).await;
        }
        Err(ApiError::Moved)
    }
}

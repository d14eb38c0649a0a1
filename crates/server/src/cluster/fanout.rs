//! Each game's new event lines, sent by the node that runs it on `PREFIX.game.ID` with the
//! first one's version, and followed by every other node that holds the game (its streams and
//! sockets read the same lines as on the owner, so a client resumes from a version on any
//! node). A node subscribes to a game's subject only while it holds the game without running
//! it, so the NATS server sends each line only to the nodes that want it. A follower that
//! sees a gap in the versions reads the game's log again.
//!
//! A message: `VERSION OVER LOGGED\n` (`OVER` 1 once the game is over; `LOGGED` how many
//! logged commands the game's lines render with these, which a follower keeps to know when
//! the log is ahead of it, [`super::fresh`]) then the lines, one a line.

use std::sync::Arc;

use axum::http::StatusCode;
use bytes::Bytes;
use futures_util::StreamExt;
use tokio::sync::mpsc;

use super::Node;
use crate::error::ApiError;

/// Between readings of a game's log while a follower has not caught up.
const CATCH_UP_RETRY: std::time::Duration = std::time::Duration::from_millis(50);

impl Node {
    /// Sends game `id`'s new `lines`, the first with version `first`, its lines so far
    /// rendering `logged` commands (in order with the game's earlier ones: one task sends
    /// them all).
    pub(crate) fn fanout(&self, id: &str, first: u64, lines: &[Arc<str>], over: bool, logged: u64) {
        let mut text = format!("{first} {} {logged}\n", u8::from(over));
        for l in lines {
            text.push_str(l);
            text.push('\n');
        }
        let _ = self.out.send((self.game_subject(id), Bytes::from(text)));
    }
}

/// The task that sends the lines, in the order they were made.
pub(crate) async fn send(client: async_nats::Client, mut queue: mpsc::UnboundedReceiver<(String, Bytes)>) {
    while let Some((subject, payload)) = queue.recv().await {
        if let Err(e) = client.publish(subject, payload).await {
            tracing::warn!(error = %e, "could not send a game's lines to the other nodes");
        }
    }
}

/// A message read.
struct Lines {
    first: u64,
    over: bool,
    logged: u64,
    lines: Vec<Arc<str>>,
}

fn parse(payload: &[u8]) -> Option<Lines> {
    let text = std::str::from_utf8(payload).ok()?;
    let (head, rest) = text.split_once('\n')?;
    let mut head = head.split(' ');
    let (first, over, logged) = (head.next()?, head.next()?, head.next()?);
    Some(Lines {
        first: first.parse().ok()?,
        over: over == "1",
        logged: logged.parse().ok()?,
        lines: rest.lines().map(Arc::from).collect(),
    })
}

impl Node {
    /// Follows game `id`'s lines from now on (once however often asked), until
    /// [`Node::unfollow_game`]. Returns once the subscription is on the NATS server: a
    /// line sent after that reaches it, so a log read after this misses nothing.
    pub(crate) async fn follow_game(self: &Arc<Self>, id: &str) -> Result<(), ApiError> {
        if self.follows().contains_key(id) {
            return Ok(());
        }
        let unreachable = |e: String| {
            ApiError::of(
                StatusCode::SERVICE_UNAVAILABLE,
                crate::problem::Problem::CannotFollow,
                format!("cannot follow the game on NATS: {e}"),
            )
        };
        let mut lines = self
            .client
            .subscribe(self.game_subject(id))
            .await
            .map_err(|e| unreachable(e.to_string()))?;
        self.client.flush().await.map_err(|e| unreachable(e.to_string()))?;
        let node = self.clone();
        let game = id.to_string();
        let task = tokio::spawn(async move {
            while let Some(message) = lines.next().await {
                node.lines_came(&game, &message.payload);
            }
        });
        // Two callers at once: the first one's subscription stays.
        let mut follows = self.follows();
        if follows.contains_key(id) {
            task.abort();
        } else {
            follows.insert(id.to_string(), task);
        }
        Ok(())
    }

    /// Stops following game `id` (its table was dropped, or it runs here now).
    pub(crate) fn unfollow_game(&self, id: &str) {
        // The task's subscriber, dropped with it, unsubscribes.
        if let Some(task) = self.follows().remove(id) {
            task.abort();
        }
    }

    /// How many games this node follows.
    pub fn followed(&self) -> usize {
        self.follows().len()
    }

    fn follows(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<String, tokio::task::JoinHandle<()>>> {
        self.follows.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Lines another node sent for game `id`, for its table here.
    fn lines_came(&self, id: &str, payload: &[u8]) {
        let Some(app) = self.app() else { return };
        let Some(table) = app.held(id) else { return };
        let Some(Lines {
            first,
            over,
            logged,
            lines,
        }) = parse(payload)
        else {
            tracing::warn!(game = %id, "unreadable lines from another node");
            return;
        };
        if !table.follow(first, lines, over, logged) && table.begin_catch_up() {
            tokio::spawn(async move {
                loop {
                    app.reread(&table).await;
                    if table.caught_up() {
                        return;
                    }
                    // The database may be down for a while: no busy loop against it.
                    tokio::time::sleep(CATCH_UP_RETRY).await;
                }
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_back() {
        let m = parse(b"7 1 12\n{\"a\":1}\n{\"b\":2}\n").unwrap();
        assert_eq!((m.first, m.over, m.logged), (7, true, 12));
        assert_eq!(m.lines, vec![Arc::from("{\"a\":1}"), Arc::from("{\"b\":2}")]);
        // A command that rendered no line still moves the count on.
        let m = parse(b"9 0 13\n").unwrap();
        assert_eq!((m.first, m.over, m.logged, m.lines.len()), (9, false, 13, 0));
        assert!(parse(b"x 0 1\n").is_none());
        assert!(parse(b"7 0\n").is_none());
        assert!(parse(b"no head").is_none());
    }
}

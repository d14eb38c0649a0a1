//! Events changed on one node, told to the others: a node that saves a change of an event
//! sends its new version on `PREFIX.event.ID`, and every node's streams of that event read
//! the change from the database at once (without it they would find it at their next
//! keepalive, seconds later). The change itself is the database's, never the message's.

use std::sync::Arc;

use futures_util::StreamExt;

use super::Node;

impl Node {
    /// Tells the other nodes that event `id` was saved at `version`.
    pub(crate) fn event_saved(&self, id: &str, version: u64) {
        let _ = self
            .out
            .send((format!("{}.event.{id}", self.prefix), version.to_string().into()));
    }

    pub(super) fn events_subject(&self) -> String {
        format!("{}.event.*", self.prefix)
    }
}

/// Wakes this node's streams of each event another node saved.
pub(crate) async fn follow(node: Arc<Node>, mut saved: async_nats::Subscriber) {
    while let Some(message) = saved.next().await {
        let Some(app) = node.app() else { return };
        let Some(id) = message.subject.rsplit('.').next() else {
            continue;
        };
        let version = std::str::from_utf8(&message.payload).ok().and_then(|v| v.parse().ok());
        match version {
            Some(version) => app.events.saved(id, version),
            None => tracing::warn!(event = %id, "unreadable event version from another node"),
        }
    }
}

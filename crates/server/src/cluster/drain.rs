//! A node leaving on SIGTERM: it reports not ready, hands each game it runs to another live
//! node (telling it to load the game at once), then ends its lease.

use std::sync::atomic::Ordering;

use crate::app::App;
use crate::table::Op;

use super::Node;

/// Hands every game over and leaves; logs what it could not do (the games left are taken
/// over when the lease runs out, as a dead node's).
pub async fn drain(node: &Node, app: &App) {
    node.draining.store(true, Ordering::Release);
    let lease = node.lease();
    let others: Vec<String> = match node.store.live_nodes().await {
        Ok(live) => live.into_iter().filter(|n| *n != node.name).collect(),
        Err(e) => {
            tracing::warn!(error = %e, "drain: cannot list the live nodes");
            Vec::new()
        }
    };
    // Stopped first: a command answered here from now on would be lost to the new owner.
    for table in app.local_tables() {
        table.stop().await;
    }
    let owned = node.store.owned_games(&node.name).await.unwrap_or_default();
    let mut handed = 0;
    if !others.is_empty() {
        for id in &owned {
            let to = &others[node.next.fetch_add(1, Ordering::Relaxed) % others.len()];
            match node.store.hand_over(&lease, id, to).await {
                Ok(true) => {
                    handed += 1;
                    // The new owner starts its clock now rather than on the next command.
                    let _ = node.ask(to, id, &Op::Load).await;
                }
                Ok(false) => {}
                Err(e) => tracing::warn!(game = %id, error = %e, "drain: could not hand the game over"),
            }
        }
    }
    if let Err(e) = node.store.leave(&lease).await {
        tracing::warn!(error = %e, "drain: could not end the lease; it runs out by itself");
    }
    tracing::info!(node = %node.name, handed, left = owned.len() - handed, to = others.len(), "drained: games handed over, lease ended");
}

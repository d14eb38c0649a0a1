//! The node's lease, kept alive; what happens when it is lost; and the takeover of the games
//! of nodes whose leases ended.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use store::{Lease, LeaseError, Store};

use super::Node;

/// Takes node `name`'s lease; a lease of that name still running (a process of the same
/// name that died) is waited out, for at most twice the lease's time.
pub(crate) async fn take(store: &Store, name: &str, ttl: Duration) -> Result<Lease, LeaseError> {
    let give_up = Instant::now() + ttl * 2 + Duration::from_secs(1);
    loop {
        match store.join(name, ttl.as_millis() as i64).await {
            Err(LeaseError::Held(_)) if Instant::now() < give_up => tokio::time::sleep(ttl / 4).await,
            r => return r,
        }
    }
}

/// Renews the lease every third of its time, and after each renewal takes over the games of
/// nodes whose leases ended. A renewal refused means the lease ended (this node was paused or
/// cut off for longer than it lasts, and another node may have its games): every game stops
/// running here, the node reports not ready, and joins again under a new epoch.
pub(crate) async fn keep(node: Arc<Node>) {
    let mut every = tokio::time::interval(node.ttl / 3);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        if node.draining() {
            return;
        }
        let lease = node.lease();
        match node.store.renew(&lease, node.ttl.as_millis() as i64).await {
            Ok(()) => {
                node.ready.store(true, Ordering::Release);
                let took = take_over(&node, &lease).await.unwrap_or_else(|e| {
                    tracing::warn!(error = %e, "takeover failed; tried again at the next renewal");
                    false
                });
                let lost = lost_members(&node).await;
                if took || lost {
                    follow_events(&node);
                }
            }
            Err(LeaseError::Lost(_)) => rejoin(&node).await,
            Err(e) => tracing::warn!(error = %e, "lease renewal failed; tried again"),
        }
    }
}

async fn rejoin(node: &Arc<Node>) {
    node.ready.store(false, Ordering::Release);
    tracing::warn!(node = %node.name, "lease lost: this node's games stop here; joining again");
    let Some(app) = node.app() else { return };
    for table in app.local_tables() {
        table.stop().await;
    }
    let lease = loop {
        match take(&node.store, &node.name, node.ttl).await {
            Ok(lease) => break lease,
            Err(e) => {
                tracing::warn!(error = %e, "joining again failed; tried again");
                tokio::time::sleep(node.ttl / 3).await;
            }
        }
    };
    app.db().set_log(node.store.fenced_command_log(lease.clone()));
    *node.lease.write().unwrap_or_else(|e| e.into_inner()) = lease.clone();
    node.owners.lock().unwrap_or_else(|e| e.into_inner()).clear();
    tracing::info!(node = %node.name, epoch = lease.epoch, "joined the cluster again");
    // Games still recorded as this node's (none was taken while it was away) run here again.
    if let Err(e) = node.restore_owned(&app).await {
        tracing::warn!(error = %e, "could not restore this node's games after joining again");
    }
    // The others follow their new owners from now on; what those sent while this node still
    // ran them went by, so each reads its log once.
    for table in app.held_tables().into_iter().filter(|t| !t.is_local()) {
        if let Err(e) = node.follow_game(&table.id).await {
            tracing::warn!(game = %table.id, error = %e, "cannot follow the game's new owner; its log is read at its next gap");
        }
        app.reread(&table).await;
    }
    node.ready.store(true, Ordering::Release);
}

/// Takes over the unfinished games of every node whose lease ended, each game rebuilt from
/// its log; counted, and logged with how long it took. Whether it took any.
async fn take_over(node: &Node, lease: &Lease) -> Result<bool, LeaseError> {
    let dead = node.store.dead_owners().await?;
    let Some(app) = node.app() else { return Ok(false) };
    let mut took_any = false;
    for d in dead.iter().filter(|d| **d != node.name) {
        let started = Instant::now();
        let games = node.store.take_over(lease, d).await?;
        if games.is_empty() {
            continue;
        }
        let mut restored = 0;
        for id in &games {
            match app.localize(id).await {
                Ok(table) => {
                    restored += 1;
                    // The dead node may have logged lines it never sent: the followers take
                    // what they miss from these (the ones they hold are skipped).
                    let over = table.watch().borrow().1;
                    let (lines, logged) = table.lines_logged_from(0);
                    node.fanout(id, 0, &lines, over, logged);
                }
                Err(e) => tracing::error!(game = %id, error = %e, "could not rebuild a game taken over"),
            }
        }
        took_any = true;
        node.metrics.takeovers.fetch_add(games.len() as u64, Ordering::Relaxed);
        let ms = started.elapsed().as_millis() as u64;
        tracing::info!(dead = %d, games = games.len(), restored, ms, "took over a dead node's games");
    }
    Ok(took_any)
}

/// Whether a node has left the cluster (died or drained) since the last look, and this node
/// is the first of those left by name: the one to pick up what the lost node was following.
/// A node that owned no games is noticed here too, not only through a takeover.
async fn lost_members(node: &Node) -> bool {
    let Some(live) = read_members(node).await else {
        return false;
    };
    let mut members = node.members.lock().unwrap_or_else(|e| e.into_inner());
    let lost = members.iter().any(|m| !live.contains(m));
    *members = live;
    lost && members.first() == Some(&node.name)
}

/// The live nodes by name, their advertised URLs kept for the games' answers; none when the
/// database did not answer (the URLs last read stay).
pub(super) async fn read_members(node: &Node) -> Option<Vec<String>> {
    let live = node.store.node_urls().await.ok()?;
    let urls = live
        .iter()
        .filter_map(|(name, url)| Some((name.clone(), url.clone()?)))
        .collect();
    *node.urls.write().unwrap_or_else(|e| e.into_inner()) = urls;
    Some(live.into_iter().map(|(name, _)| name).collect())
}

/// Follows every event game whose result is not entered: the node lost may have been the one
/// following them (it made their round), wherever they run.
fn follow_events(node: &Node) {
    let Some(app) = node.app() else { return };
    tokio::spawn(async move {
        if let Err(e) = crate::event::reconcile(&app).await {
            tracing::warn!(error = %e, "events after a node left: results not all followed (again when the next node leaves, or at a start)");
        }
    });
}

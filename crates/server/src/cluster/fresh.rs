//! Read-your-writes on a follower: what a node answers from the lines it follows — a stream
//! or socket resumed after a version, a command's answer — is never older than any command
//! acknowledged before it was asked. Without it a player on a follower is answered before
//! its command's line arrives, and one whose node died resumes on a follower still missing
//! the lines the dead owner logged but never sent: either plays a move chosen on an old state,
//! and is refused.
//!
//! The check is against the log, not the owner. Every command is logged before it is
//! applied, answered or sent on, so the log's length bounds every acknowledgement; a
//! follower counts the logged commands its lines render (each fanned-out message carries
//! the owner's count), and a resume compares that with the log's — one probe of the end of
//! the log's primary key (`Store::logged_commands`, ~0.1 ms, BENCHMARKS.md), a round trip
//! as asking the owner would be, but answered at once while the owner is dead, where a
//! forward waits out the lease for the takeover. Only a follower behind the log reads the
//! game again, as a gap in the versions does; the game's own node and a finished game need
//! no probe. The game whole (`gameFull`) needs none either: it is the owner's own answer,
//! forwarded as commands are.
//!
//! A command's answer: the owner sends the command's lines before it answers, but on other
//! subjects (the game's fan-out, the request's reply), so the answer may reach a follower
//! first. The follower waits for the line before it answers — on a socket the lines a command
//! caused go out before its answer, on every node — and past [`FANOUT_WAIT`] reads the log,
//! which holds the command.

use std::time::Duration;

use super::Node;
use crate::error::ApiError;
use crate::table::Table;

/// How long a follower waits for a command's line after its answer before reading the log
/// (the line is lost when its owner died between answering and sending it).
const FANOUT_WAIT: Duration = Duration::from_millis(200);

impl Node {
    /// Brings follower `table` up to every command logged now, reading the log again when its
    /// lines render fewer.
    pub(crate) async fn settle(&self, table: &Table) -> Result<(), ApiError> {
        let logged = self.store.logged_commands(&table.id).await?;
        if table.logged() >= logged {
            return Ok(());
        }
        // The server is stopping: nothing to read the game with.
        let app = self.app().ok_or(ApiError::Moved)?;
        let stored = app.db().load(&table.id).await?.ok_or(ApiError::NotFound)?;
        table.catch_up(&stored)
    }

    /// Returns once follower `table` holds line `version`, a command's last, acknowledged by
    /// the game's owner. Never fails: the command was taken, and its answer must go out.
    pub(crate) async fn reach(&self, table: &Table, version: u64) {
        let mut progress = table.watch();
        let came = tokio::time::timeout(FANOUT_WAIT, progress.wait_for(|(count, _)| *count > version))
            .await
            .is_ok_and(|r| r.is_ok());
        if came {
            return;
        }
        if let Err(e) = self.settle(table).await {
            tracing::warn!(game = %table.id, version, error = %e, "a command's line neither came nor was read from the log");
        }
    }
}

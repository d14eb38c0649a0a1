//! The version check every owned document shares (an event, a rating list): an update applies
//! only where the row is still at the version it was read at, and when none is, whether the row
//! is missing or has moved on tells the caller which error to give.

use sqlx::any::{AnyArguments, AnyRow};
use sqlx::query::Query;
use sqlx::{Any, Transaction};

/// Why a version-checked update changed nothing.
pub(crate) enum Stale {
    /// No row has that name.
    Missing,
    /// The row is at another version than the one read.
    MovedOn,
}

/// Runs `update` — an `UPDATE … WHERE name = … AND version = read RETURNING …` of `table` — in
/// `tx`: the row it returns, or, rolling `tx` back, the error `stale` makes of why there was
/// none. The update takes the write lock first (SQLite) or the row's lock (PostgreSQL), so two
/// writers take turns, and the later finds the version moved on.
pub(crate) async fn update<'c, 'q, E: From<sqlx::Error>>(
    mut tx: Transaction<'c, Any>,
    update: Query<'q, Any, AnyArguments<'q>>,
    table: &str,
    name: &str,
    stale: impl FnOnce(Stale) -> E,
) -> Result<(Transaction<'c, Any>, AnyRow), E> {
    if let Some(row) = update.fetch_optional(&mut *tx).await? {
        return Ok((tx, row));
    }
    let exists = sqlx::query(&format!("SELECT 1 FROM {table} WHERE name = $1"))
        .bind(name)
        .fetch_optional(&mut *tx)
        .await?
        .is_some();
    tx.rollback().await?;
    Err(stale(if exists { Stale::MovedOn } else { Stale::Missing }))
}

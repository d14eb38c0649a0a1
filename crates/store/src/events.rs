//! Events: each kept as one text — a Swiss event as its TRF (the exchange format FIDE's tools
//! read and write), an event of any other format as its JSON document — with a version that every change raises and a log of the
//! changes (what, when, the version it made) — the same "one owner, versioned" shape the live
//! games have. Every change is one transaction: a failed one changes nothing.

use std::fmt;

use sqlx::Row;

use crate::versioned::{self, Stale};
use crate::Store;

#[derive(Debug)]
pub enum EventError {
    Database(sqlx::Error),
    NoEvent(String),
    Exists(String),
    /// The event was changed since it was read (at version `read`); nothing was saved.
    Changed {
        name: String,
        read: u64,
    },
}

impl fmt::Display for EventError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EventError::Database(e) => write!(f, "database: {e}"),
            EventError::NoEvent(name) => write!(f, "no event named {name:?}"),
            EventError::Exists(name) => write!(f, "an event named {name:?} already exists"),
            EventError::Changed { name, read } => write!(
                f,
                "{name:?} was changed by someone else since version {read}; nothing was saved, try again"
            ),
        }
    }
}

impl std::error::Error for EventError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EventError::Database(e) => Some(e),
            _ => None,
        }
    }
}

impl From<sqlx::Error> for EventError {
    fn from(e: sqlx::Error) -> Self {
        EventError::Database(e)
    }
}

/// One change of an event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub version: u64,
    pub action: String,
    /// UTC, `YYYY-MM-DD HH:MM:SS`.
    pub at: String,
}

impl Store {
    /// A new event at version 1, its creation logged.
    pub async fn create_event(&self, name: &str, body: &str) -> Result<(), EventError> {
        let mut tx = self.pool.begin().await?;
        let made =
            sqlx::query("INSERT INTO events (name, body, version) VALUES ($1, $2, 1) ON CONFLICT (name) DO NOTHING")
                .bind(name)
                .bind(body)
                .execute(&mut *tx)
                .await?;
        if made.rows_affected() == 0 {
            return Err(EventError::Exists(name.into()));
        }
        sqlx::query("INSERT INTO changes (event, version, action) VALUES ($1, 1, 'create')")
            .bind(name)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The event as kept (a Swiss event's TRF, or any event's JSON) and its version.
    pub async fn event(&self, name: &str) -> Result<Option<(String, u64)>, EventError> {
        let row = sqlx::query("SELECT body, version FROM events WHERE name = $1")
            .bind(name)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => Some((r.try_get(0)?, r.try_get::<i64, _>(1)? as u64)),
            None => None,
        })
    }

    /// Stores a new state of the event read at version `read`, with what changed; returns
    /// the new version. Refused, changing nothing, when the event has moved on since `read`.
    pub async fn save_event(&self, name: &str, read: u64, body: &str, action: &str) -> Result<u64, EventError> {
        let (tx, version) = save_in(self.pool.begin().await?, name, read, body, action).await?;
        tx.commit().await?;
        Ok(version)
    }

    /// The version event `name` is at, without its document (to tell whether a copy of it
    /// read before is still the event).
    pub async fn event_version(&self, name: &str) -> Result<Option<u64>, EventError> {
        let row = sqlx::query("SELECT version FROM events WHERE name = $1")
            .bind(name)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => Some(r.try_get::<i64, _>(0)? as u64),
            None => None,
        })
    }

    /// The event's changes, oldest first.
    pub async fn event_log(&self, name: &str) -> Result<Vec<Change>, EventError> {
        // SQLite keeps the time as it writes `datetime('now')`; PostgreSQL's is a timestamp.
        let at = if self.postgres {
            "to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')"
        } else {
            "at"
        };
        let rows = sqlx::query(&format!(
            "SELECT version, action, {at} FROM changes WHERE event = $1 ORDER BY version"
        ))
        .bind(name)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(Change {
                    version: r.try_get::<i64, _>(0)? as u64,
                    action: r.try_get(1)?,
                    at: r.try_get(2)?,
                })
            })
            .collect()
    }

    /// Every event's name and version, by name.
    pub async fn events(&self) -> Result<Vec<(String, u64)>, EventError> {
        let rows = sqlx::query("SELECT name, version FROM events ORDER BY name")
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get::<i64, _>(1)? as u64)))
            .collect()
    }

    /// Removes an event and its changes.
    pub async fn delete_event(&self, name: &str) -> Result<(), EventError> {
        let mut tx = self.pool.begin().await?;
        for sql in [
            "DELETE FROM event_games WHERE event = $1",
            "DELETE FROM event_tokens WHERE event = $1",
            "DELETE FROM served_events WHERE event = $1",
            "DELETE FROM changes WHERE event = $1",
            "DELETE FROM events WHERE name = $1",
        ] {
            sqlx::query(sql).bind(name).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }
}

/// [`Store::save_event`] inside a transaction, for changes that must be saved with the event's
/// (the server's tokens and game links): the transaction, to go on with, and the new version;
/// or the error, the transaction rolled back.
pub(crate) async fn save_in(
    tx: sqlx::Transaction<'static, sqlx::Any>,
    name: &str,
    read: u64,
    body: &str,
    action: &str,
) -> Result<(sqlx::Transaction<'static, sqlx::Any>, u64), EventError> {
    save_many_in(tx, name, read, body, &[action]).await
}

/// [`save_in`] for several changes made one after another on the state read at `read`, saved
/// as one: each its own version and line in the change log (the last version's state is
/// `body`). No action, no change: refused as a stale read would be, so nothing is saved.
pub(crate) async fn save_many_in(
    tx: sqlx::Transaction<'static, sqlx::Any>,
    name: &str,
    read: u64,
    body: &str,
    actions: &[&str],
) -> Result<(sqlx::Transaction<'static, sqlx::Any>, u64), EventError> {
    if actions.is_empty() {
        tx.rollback().await?;
        return Err(EventError::Changed {
            name: name.into(),
            read,
        });
    }
    let query = sqlx::query(
        "UPDATE events SET body = $1, version = version + $2 WHERE name = $3 AND version = $4 RETURNING version",
    )
    .bind(body)
    .bind(actions.len() as i64)
    .bind(name)
    .bind(read as i64);
    let (mut tx, row) = versioned::update(tx, query, "events", name, |stale| match stale {
        Stale::Missing => EventError::NoEvent(name.into()),
        Stale::MovedOn => EventError::Changed {
            name: name.into(),
            read,
        },
    })
    .await?;
    let version: i64 = row.try_get(0)?;
    let first = version - actions.len() as i64 + 1;
    for (k, action) in actions.iter().enumerate() {
        sqlx::query("INSERT INTO changes (event, version, action) VALUES ($1, $2, $3)")
            .bind(name)
            .bind(first + k as i64)
            .bind(*action)
            .execute(&mut *tx)
            .await?;
    }
    Ok((tx, version as u64))
}

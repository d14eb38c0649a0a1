//! Rating lists: a list is a name, a rating system and each player's current standing, with a
//! version every update raises and a history of what each update changed (who, from which
//! state to which, by which source). The store keeps a standing as the system's state in JSON
//! text and does not read it: the rating systems are the caller's.
//!
//! An update is one transaction, saved only if the list is still at the version it was read
//! at: two updates computed from the same list cannot both be saved, and a failed one changes
//! nothing.

use std::fmt;
use std::str::FromStr;

use sqlx::Row;

use crate::versioned::{self, Stale};
use crate::Store;

/// A list's rating system.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum System {
    /// Seed 001's levels and points.
    Levels,
    /// FIDE Elo.
    Elo,
    /// Glicko-2.
    Glicko2,
}

impl System {
    /// The name the database and the command line use.
    pub fn as_str(self) -> &'static str {
        match self {
            System::Levels => "levels",
            System::Elo => "elo",
            System::Glicko2 => "glicko2",
        }
    }
}

impl fmt::Display for System {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for System {
    type Err = String;
    fn from_str(s: &str) -> Result<System, String> {
        match s {
            "levels" => Ok(System::Levels),
            "elo" => Ok(System::Elo),
            "glicko2" => Ok(System::Glicko2),
            other => Err(format!("unknown rating system {other:?}: levels, elo or glicko2")),
        }
    }
}

#[derive(Debug)]
pub enum RatingError {
    Database(sqlx::Error),
    NoList(String),
    /// A list of that name exists (with this system).
    Exists {
        name: String,
        system: String,
    },
    /// The list was updated since it was read (at version `read`); nothing was saved.
    Changed {
        name: String,
        read: u64,
    },
    /// The list keeps another system than the update's.
    OtherSystem {
        name: String,
        list: String,
        update: System,
    },
    /// The list holds a system this version does not know (a newer version wrote it).
    UnknownSystem(String),
}

impl fmt::Display for RatingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RatingError::Database(e) => write!(f, "database: {e}"),
            RatingError::NoList(name) => write!(f, "no rating list named {name:?}"),
            RatingError::Exists { name, system } => {
                write!(f, "a rating list named {name:?} already exists ({system})")
            }
            RatingError::Changed { name, read } => write!(
                f,
                "rating list {name:?} was updated by someone else since version {read}; nothing was saved, try again"
            ),
            RatingError::OtherSystem { name, list, update } => write!(
                f,
                "rating list {name:?} keeps {list} ratings, not {update}; nothing was saved"
            ),
            RatingError::UnknownSystem(s) => write!(f, "unknown rating system {s:?} in the database"),
        }
    }
}

impl std::error::Error for RatingError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RatingError::Database(e) => Some(e),
            _ => None,
        }
    }
}

impl From<sqlx::Error> for RatingError {
    fn from(e: sqlx::Error) -> Self {
        RatingError::Database(e)
    }
}

/// A list as read: its system, its version and every player's standing, by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatingList {
    pub name: String,
    pub system: System,
    pub version: u64,
    /// Player and state (JSON text), by player.
    pub standings: Vec<(String, String)>,
}

/// Where the state a player was rated from came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The list itself.
    List,
    /// Starting values given for a player not yet in the list.
    Start,
    /// The system's default for a new player.
    New,
}

impl Origin {
    pub fn as_str(self) -> &'static str {
        match self {
            Origin::List => "list",
            Origin::Start => "start",
            Origin::New => "new",
        }
    }

    fn parse(s: &str) -> Origin {
        match s {
            "list" => Origin::List,
            "start" => Origin::Start,
            _ => Origin::New,
        }
    }
}

/// One player's change in an update.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rated {
    pub player: String,
    pub origin: Origin,
    /// The state the player was rated from, JSON text.
    pub before: String,
    /// The new state, JSON text.
    pub after: String,
}

/// One row of a list's history: a player's change in the update that made `version`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryRow {
    pub version: u64,
    pub source: String,
    /// UTC, `YYYY-MM-DD HH:MM:SS`.
    pub at: String,
    pub rated: Rated,
}

impl Store {
    /// A new empty list at version 1.
    pub async fn create_rating_list(&self, name: &str, system: System) -> Result<(), RatingError> {
        let mut tx = self.pool.begin().await?;
        insert_list(&mut tx, name, system).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The list, or `None` when there is none of that name.
    pub async fn rating_list(&self, name: &str) -> Result<Option<RatingList>, RatingError> {
        self.read_list(name, None).await
    }

    /// The list with the standings of `players` only (those it holds): what rating one game
    /// needs, read in the time of two rows however long the list.
    pub async fn rating_list_of(&self, name: &str, players: &[&str]) -> Result<Option<RatingList>, RatingError> {
        self.read_list(name, Some(players)).await
    }

    async fn read_list(&self, name: &str, players: Option<&[&str]>) -> Result<Option<RatingList>, RatingError> {
        let mut tx = self.pool.begin().await?;
        // One transaction: the standings are those of the version read.
        let Some(row) = sqlx::query("SELECT system, version FROM rating_lists WHERE name = $1")
            .bind(name)
            .fetch_optional(&mut *tx)
            .await?
        else {
            return Ok(None);
        };
        let system: String = row.try_get(0)?;
        let system = system.parse().map_err(|_| RatingError::UnknownSystem(system))?;
        let version = row.try_get::<i64, _>(1)? as u64;
        let standings = match players {
            None => {
                let rows = sqlx::query("SELECT player, state FROM ratings WHERE list = $1 ORDER BY player")
                    .bind(name)
                    .fetch_all(&mut *tx)
                    .await?;
                rows.iter()
                    .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
                    .collect::<Result<_, sqlx::Error>>()?
            }
            Some(players) => {
                let mut players = players.to_vec();
                players.sort_unstable();
                players.dedup();
                let mut standings = Vec::with_capacity(players.len());
                for player in players {
                    let state: Option<String> =
                        sqlx::query_scalar("SELECT state FROM ratings WHERE list = $1 AND player = $2")
                            .bind(name)
                            .bind(player)
                            .fetch_optional(&mut *tx)
                            .await?;
                    if let Some(state) = state {
                        standings.push((player.to_string(), state));
                    }
                }
                standings
            }
        };
        tx.commit().await?;
        Ok(Some(RatingList {
            name: name.into(),
            system,
            version,
            standings,
        }))
    }

    /// Every list's name, system and version, by name.
    pub async fn rating_lists(&self) -> Result<Vec<(String, String, u64)>, RatingError> {
        let rows = sqlx::query("SELECT name, system, version FROM rating_lists ORDER BY name")
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get::<i64, _>(2)? as u64)))
            .collect()
    }

    /// Saves the players' new states, computed from the list as read at version `read`
    /// (0: the list did not exist, and is created by this update), with their history under
    /// `source`; returns the new version. Refused, changing nothing, when the list has moved
    /// on since `read` or keeps another system.
    pub async fn update_ratings(
        &self,
        name: &str,
        system: System,
        read: u64,
        source: &str,
        rated: &[Rated],
    ) -> Result<u64, RatingError> {
        let mut tx = self.pool.begin().await?;
        let version = if read == 0 {
            insert_list(&mut tx, name, system).await.map_err(|e| match e {
                RatingError::Exists { .. } => RatingError::Changed {
                    name: name.into(),
                    read,
                },
                e => e,
            })?;
            1
        } else {
            let query = sqlx::query(
                "UPDATE rating_lists SET version = version + 1 WHERE name = $1 AND version = $2 \
                 RETURNING version, system",
            )
            .bind(name)
            .bind(read as i64);
            let row;
            (tx, row) = versioned::update(tx, query, "rating_lists", name, |stale| match stale {
                Stale::Missing => RatingError::NoList(name.into()),
                Stale::MovedOn => RatingError::Changed {
                    name: name.into(),
                    read,
                },
            })
            .await?;
            let list: String = row.try_get(1)?;
            if list != system.as_str() {
                tx.rollback().await?;
                return Err(RatingError::OtherSystem {
                    name: name.into(),
                    list,
                    update: system,
                });
            }
            row.try_get::<i64, _>(0)?
        };
        for r in rated {
            sqlx::query(
                "INSERT INTO ratings (list, player, state) VALUES ($1, $2, $3) \
                 ON CONFLICT (list, player) DO UPDATE SET state = excluded.state",
            )
            .bind(name)
            .bind(&r.player)
            .bind(&r.after)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "INSERT INTO rating_history (list, version, player, source, origin, state_before, state_after) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(name)
            .bind(version)
            .bind(&r.player)
            .bind(source)
            .bind(r.origin.as_str())
            .bind(&r.before)
            .bind(&r.after)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(version as u64)
    }

    /// The list's history, oldest update first, each update's players by name.
    pub async fn rating_history(&self, name: &str) -> Result<Vec<HistoryRow>, RatingError> {
        self.history_where(name, None).await
    }

    /// When `player` was last rated in list `name` (Unix seconds, UTC), if ever.
    pub async fn last_rated(&self, name: &str, player: &str) -> Result<Option<i64>, RatingError> {
        let at = if self.postgres {
            "CAST(EXTRACT(EPOCH FROM max(at)) AS BIGINT)"
        } else {
            "CAST(strftime('%s', max(at)) AS INTEGER)"
        };
        let sql = format!("SELECT {at} FROM rating_history WHERE list = $1 AND player = $2");
        let at: Option<i64> = sqlx::query_scalar(&sql)
            .bind(name)
            .bind(player)
            .fetch_one(&self.pool)
            .await?;
        Ok(at)
    }

    /// The rows of the list's history that updates with source `source` made (an event's).
    pub async fn rating_history_of(&self, name: &str, source: &str) -> Result<Vec<HistoryRow>, RatingError> {
        self.history_where(name, Some(source)).await
    }

    async fn history_where(&self, name: &str, source: Option<&str>) -> Result<Vec<HistoryRow>, RatingError> {
        // SQLite keeps the time as it writes `datetime('now')`; PostgreSQL's is a timestamp.
        let at = if self.postgres {
            "to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')"
        } else {
            "at"
        };
        let only = if source.is_some() { "AND source = $2" } else { "" };
        let sql = format!(
            "SELECT version, player, source, origin, state_before, state_after, {at} \
             FROM rating_history WHERE list = $1 {only} ORDER BY version, player"
        );
        let mut query = sqlx::query(&sql).bind(name);
        if let Some(source) = source {
            query = query.bind(source);
        }
        let rows = query.fetch_all(&self.pool).await?;
        rows.iter()
            .map(|r| {
                Ok(HistoryRow {
                    version: r.try_get::<i64, _>(0)? as u64,
                    source: r.try_get(2)?,
                    at: r.try_get(6)?,
                    rated: Rated {
                        player: r.try_get(1)?,
                        origin: Origin::parse(&r.try_get::<String, _>(3)?),
                        before: r.try_get(4)?,
                        after: r.try_get(5)?,
                    },
                })
            })
            .collect()
    }
}

async fn insert_list(tx: &mut sqlx::Transaction<'_, sqlx::Any>, name: &str, system: System) -> Result<(), RatingError> {
    let made = sqlx::query(
        "INSERT INTO rating_lists (name, system, version) VALUES ($1, $2, 1) ON CONFLICT (name) DO NOTHING",
    )
    .bind(name)
    .bind(system.as_str())
    .execute(&mut **tx)
    .await?;
    if made.rows_affected() == 0 {
        let row = sqlx::query("SELECT system FROM rating_lists WHERE name = $1")
            .bind(name)
            .fetch_one(&mut **tx)
            .await?;
        return Err(RatingError::Exists {
            name: name.into(),
            system: row.try_get(0)?,
        });
    }
    Ok(())
}

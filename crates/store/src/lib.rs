//! Where events live: an SQLite file by default, PostgreSQL when given a `postgres://` URL
//! (the server's `DATABASE_URL`). An event is kept as its TRF (the exchange
//! format FIDE's tools read and write, so an event can always be exported whole), with a
//! version that every change raises and a log of the changes (what, when, the version it made)
//! — the same "one owner, versioned events" shape the live games have.
//!
//! ```
//! let store = store::Store::memory().unwrap();
//! store.create("Open", "XXR 9\n").unwrap();
//! let v = store.save("Open", "XXR 9\n001    1      A                                 2000\n", "register A").unwrap();
//! assert_eq!(v, 2);
//! assert_eq!(store.log("Open").unwrap().len(), 2);
//! ```

use rusqlite::{params, Connection, OptionalExtension};
use std::cell::RefCell;
use std::path::Path;

#[derive(Debug)]
pub enum StoreError {
    Database(rusqlite::Error),
    Postgres(postgres::Error),
    NoEvent(String),
    Exists(String),
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Database(e) => write!(f, "database: {e}"),
            StoreError::Postgres(e) => write!(f, "PostgreSQL: {e}"),
            StoreError::NoEvent(name) => write!(f, "no event named {name:?}"),
            StoreError::Exists(name) => write!(f, "an event named {name:?} already exists"),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<postgres::Error> for StoreError {
    fn from(e: postgres::Error) -> Self {
        StoreError::Postgres(e)
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError::Database(e)
    }
}

/// One change of an event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub version: u64,
    pub action: String,
    /// UTC, as SQLite writes `datetime('now')`.
    pub at: String,
}

pub struct Store {
    db: Db,
}

// One per store, so the variants' sizes do not matter (the PostgreSQL client grows when the
// workspace's other crates turn on more tokio features).
#[allow(clippy::large_enum_variant)]
enum Db {
    Sqlite(Connection),
    Postgres(RefCell<postgres::Client>),
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS events (
    name TEXT PRIMARY KEY,
    trf TEXT NOT NULL,
    version INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS changes (
    event TEXT NOT NULL REFERENCES events(name),
    version INTEGER NOT NULL,
    action TEXT NOT NULL,
    at TEXT NOT NULL DEFAULT (datetime('now')),
    PRIMARY KEY (event, version)
);
";

const PG_SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS events (
    name TEXT PRIMARY KEY,
    trf TEXT NOT NULL,
    version BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS changes (
    event TEXT NOT NULL REFERENCES events(name),
    version BIGINT NOT NULL,
    action TEXT NOT NULL,
    at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (event, version)
);
";

impl Store {
    /// A `postgres://` (or `postgresql://`) URL, or the path of an SQLite file (created if
    /// needed).
    pub fn connect(target: &str) -> Result<Store, StoreError> {
        if target.starts_with("postgres://") || target.starts_with("postgresql://") {
            let mut client = postgres::Client::connect(target, postgres::NoTls)?;
            client.batch_execute(PG_SCHEMA)?;
            Ok(Store {
                db: Db::Postgres(RefCell::new(client)),
            })
        } else {
            Store::open(Path::new(target))
        }
    }

    /// Opens (and if needed creates) the database file.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        Store::with(Connection::open(path)?)
    }

    /// A database in memory (tests, one-off work).
    pub fn memory() -> Result<Store, StoreError> {
        Store::with(Connection::open_in_memory()?)
    }

    fn with(db: Connection) -> Result<Store, StoreError> {
        db.execute_batch(SCHEMA)?;
        Ok(Store { db: Db::Sqlite(db) })
    }

    pub fn create(&self, name: &str, trf: &str) -> Result<(), StoreError> {
        if self.get(name)?.is_some() {
            return Err(StoreError::Exists(name.into()));
        }
        match &self.db {
            Db::Sqlite(db) => {
                let tx = db.unchecked_transaction()?;
                tx.execute(
                    "INSERT INTO events (name, trf, version) VALUES (?1, ?2, 1)",
                    params![name, trf],
                )?;
                tx.execute(
                    "INSERT INTO changes (event, version, action) VALUES (?1, 1, 'create')",
                    params![name],
                )?;
                tx.commit()?;
            }
            Db::Postgres(db) => {
                let mut db = db.borrow_mut();
                let mut tx = db.transaction()?;
                tx.execute(
                    "INSERT INTO events (name, trf, version) VALUES ($1, $2, 1)",
                    &[&name, &trf],
                )?;
                tx.execute(
                    "INSERT INTO changes (event, version, action) VALUES ($1, 1, 'create')",
                    &[&name],
                )?;
                tx.commit()?;
            }
        }
        Ok(())
    }

    /// The event's TRF and version.
    pub fn get(&self, name: &str) -> Result<Option<(String, u64)>, StoreError> {
        match &self.db {
            Db::Sqlite(db) => Ok(db
                .query_row("SELECT trf, version FROM events WHERE name = ?1", params![name], |r| {
                    Ok((r.get(0)?, r.get::<_, i64>(1)? as u64))
                })
                .optional()?),
            Db::Postgres(db) => {
                let row = db
                    .borrow_mut()
                    .query_opt("SELECT trf, version FROM events WHERE name = $1", &[&name])?;
                Ok(row.map(|r| (r.get(0), r.get::<_, i64>(1) as u64)))
            }
        }
    }

    /// Stores a new state of the event with what changed; returns the new version.
    pub fn save(&self, name: &str, trf: &str, action: &str) -> Result<u64, StoreError> {
        let no_event = || StoreError::NoEvent(name.into());
        match &self.db {
            Db::Sqlite(db) => {
                let tx = db.unchecked_transaction()?;
                let version: Option<i64> = tx
                    .query_row("SELECT version FROM events WHERE name = ?1", params![name], |r| {
                        r.get(0)
                    })
                    .optional()?;
                let version = version.ok_or_else(no_event)? + 1;
                tx.execute(
                    "UPDATE events SET trf = ?2, version = ?3 WHERE name = ?1",
                    params![name, trf, version],
                )?;
                tx.execute(
                    "INSERT INTO changes (event, version, action) VALUES (?1, ?2, ?3)",
                    params![name, version, action],
                )?;
                tx.commit()?;
                Ok(version as u64)
            }
            Db::Postgres(db) => {
                let mut db = db.borrow_mut();
                let mut tx = db.transaction()?;
                // FOR UPDATE: two writers of one event take turns, each from the other's version.
                let row = tx.query_opt("SELECT version FROM events WHERE name = $1 FOR UPDATE", &[&name])?;
                let version = row.map(|r| r.get::<_, i64>(0)).ok_or_else(no_event)? + 1;
                tx.execute(
                    "UPDATE events SET trf = $2, version = $3 WHERE name = $1",
                    &[&name, &trf, &version],
                )?;
                tx.execute(
                    "INSERT INTO changes (event, version, action) VALUES ($1, $2, $3)",
                    &[&name, &version, &action],
                )?;
                tx.commit()?;
                Ok(version as u64)
            }
        }
    }

    pub fn log(&self, name: &str) -> Result<Vec<Change>, StoreError> {
        match &self.db {
            Db::Sqlite(db) => {
                let mut q = db.prepare("SELECT version, action, at FROM changes WHERE event = ?1 ORDER BY version")?;
                let rows = q.query_map(params![name], |r| {
                    Ok(Change {
                        version: r.get::<_, i64>(0)? as u64,
                        action: r.get(1)?,
                        at: r.get(2)?,
                    })
                })?;
                Ok(rows.collect::<Result<_, _>>()?)
            }
            Db::Postgres(db) => {
                let rows = db.borrow_mut().query(
                    "SELECT version, action, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') \
                     FROM changes WHERE event = $1 ORDER BY version",
                    &[&name],
                )?;
                Ok(rows
                    .iter()
                    .map(|r| Change {
                        version: r.get::<_, i64>(0) as u64,
                        action: r.get(1),
                        at: r.get(2),
                    })
                    .collect())
            }
        }
    }

    pub fn events(&self) -> Result<Vec<(String, u64)>, StoreError> {
        match &self.db {
            Db::Sqlite(db) => {
                let mut q = db.prepare("SELECT name, version FROM events ORDER BY name")?;
                let rows = q.query_map([], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as u64)))?;
                Ok(rows.collect::<Result<_, _>>()?)
            }
            Db::Postgres(db) => {
                let rows = db
                    .borrow_mut()
                    .query("SELECT name, version FROM events ORDER BY name", &[])?;
                Ok(rows.iter().map(|r| (r.get(0), r.get::<_, i64>(1) as u64)).collect())
            }
        }
    }

    /// Removes an event and its changes.
    pub fn delete(&self, name: &str) -> Result<(), StoreError> {
        match &self.db {
            Db::Sqlite(db) => {
                db.execute("DELETE FROM changes WHERE event = ?1", params![name])?;
                db.execute("DELETE FROM events WHERE name = ?1", params![name])?;
            }
            Db::Postgres(db) => {
                let mut db = db.borrow_mut();
                db.execute("DELETE FROM changes WHERE event = $1", &[&name])?;
                db.execute("DELETE FROM events WHERE name = $1", &[&name])?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_keep_their_versions_and_changes_in_a_file() {
        let path = std::env::temp_dir().join(format!("arbiter-store-{}.db", std::process::id()));
        std::fs::remove_file(&path).ok();
        {
            let s = Store::open(&path).unwrap();
            s.create("A", "XXR 5\n").unwrap();
            assert!(matches!(s.create("A", ""), Err(StoreError::Exists(_))));
            assert_eq!(s.save("A", "XXR 7\n", "rounds 7").unwrap(), 2);
            assert!(matches!(s.save("B", "", "x"), Err(StoreError::NoEvent(_))));
        }
        let s = Store::open(&path).unwrap();
        assert_eq!(s.get("A").unwrap(), Some(("XXR 7\n".into(), 2)));
        let log = s.log("A").unwrap();
        assert_eq!(
            log.iter().map(|c| c.action.as_str()).collect::<Vec<_>>(),
            ["create", "rounds 7"]
        );
        assert_eq!(s.events().unwrap(), [("A".to_string(), 2)]);
        std::fs::remove_file(&path).ok();
    }

    /// The same on PostgreSQL: `DATABASE_URL`, else the server these machines run at
    /// 127.0.0.1:5432; skipped (and says so) when there is none.
    #[test]
    fn events_on_postgresql() {
        let url =
            std::env::var("DATABASE_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
        let s = match Store::connect(&url) {
            Ok(s) => s,
            Err(e) => {
                testdata::skip(format!("no PostgreSQL at {url}: {e}"));
                return;
            }
        };
        let name = format!("test-{}-{}", std::process::id(), line!());
        s.delete(&name).unwrap();
        s.create(&name, "XXR 5\n").unwrap();
        assert!(matches!(s.create(&name, ""), Err(StoreError::Exists(_))));
        assert_eq!(s.save(&name, "XXR 7\n", "rounds 7").unwrap(), 2);
        assert_eq!(s.get(&name).unwrap(), Some(("XXR 7\n".into(), 2)));
        let log = s.log(&name).unwrap();
        assert_eq!(
            log.iter().map(|c| c.action.as_str()).collect::<Vec<_>>(),
            ["create", "rounds 7"]
        );
        assert_eq!(log[0].at.len(), 19, "{:?}", log[0].at);
        assert!(s.events().unwrap().contains(&(name.clone(), 2)));
        s.delete(&name).unwrap();
        assert_eq!(s.get(&name).unwrap(), None);
    }
}

//! The database: Swiss events and live games in one SQLite file (the default, `arbiter.db`) or
//! one PostgreSQL database, through sqlx's `Any` driver (runtime queries, so nothing needs a
//! database at build time). Each backend has one set of migrations (`migrations/sqlite`,
//! `migrations/postgres`), run on opening, which also bring forward the files earlier
//! versions wrote.
//!
//! - [`target`]: which database a command uses (`--db`, `$DATABASE_URL`, `$ARBITER_DB`,
//!   `arbiter.db`), the one rule for every command.
//! - [`events`]: an event is its TRF text with a version every change raises and a log of the
//!   changes.
//! - [`games`]: a game is its row and its command log; the log is written before a command is
//!   acknowledged, many games' commands sharing one commit.
//! - [`lease`]: several servers on one database: each node's lease, renewed by the database's
//!   clock, which node owns each live game, and the fencing that keeps a node whose games were
//!   taken over from writing.
//! - [`served`]: what the server keeps of the events it runs beside their documents: the
//!   games' settings and token hashes; [`event_games`]: which live game each pairing's game
//!   is.
//! - [`players`]: sessions (one a browser), accounts, and the seats each holds.
//! - [`watching`]: the games being played now, for the lobby's list to watch.
//! - [`seeks`]: finding an opponent: lobby seeks, challenges by link, rematch offers.
//! - [`ratings`]: rating lists: each player's standing under one system, a version every
//!   update raises and the history of what each update changed.
//!
//! ```
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! let store = store::Store::memory().await.unwrap();
//! store.create_event("Open", "XXR 9\n").await.unwrap();
//! let v = store.save_event("Open", 1, "XXR 9\n001    1      A                                 2000\n", "register A").await.unwrap();
//! assert_eq!(v, 2);
//! assert_eq!(store.event_log("Open").await.unwrap().len(), 2);
//! # });
//! ```

pub mod event_games;
pub mod events;
pub mod games;
pub mod lease;
pub mod players;
pub mod ratings;
#[cfg(feature = "scratch")]
pub mod scratch;
pub mod seeks;
pub mod served;
pub mod target;
mod versioned;
pub mod watching;

pub use event_games::EventGame;
pub use events::{Change, EventError};
pub use games::{CommandLog, Entry, NewEventGame, NewGame, StoredGame};
pub use lease::{Lease, LeaseError};
pub use players::{AccountError, HeldSeat, PlayedGame, PlayerRating, Session};
pub use ratings::RatingError;
pub use seeks::{NewSeek, Seek};
pub use served::{Also, ServedEvent};
pub use sqlx;
pub use target::{resolve, Resolved, Target};
pub use watching::LiveGame;

use sqlx::any::AnyPoolOptions;
use sqlx::AnyPool;

/// The open database, shared by clones (one pool).
#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
    postgres: bool,
}

impl Store {
    /// Opens (an SQLite file is created when missing) and migrates the database.
    pub async fn open(target: &Target) -> Result<Store, sqlx::Error> {
        Store::connect(&target.url()).await
    }

    /// Opens a `postgres://`, `postgresql://` or `sqlite:` URL and migrates the database.
    pub async fn connect(url: &str) -> Result<Store, sqlx::Error> {
        sqlx::any::install_default_drivers();
        let sqlite = url.starts_with("sqlite:");
        // One connection for a database in memory: each would have its own otherwise.
        let memory = sqlite && (url.contains(":memory:") || url.contains("mode=memory"));
        let mut options = AnyPoolOptions::new().max_connections(match (sqlite, memory) {
            (_, true) => 1,
            (true, false) => 4,
            (false, _) => 16,
        });
        if memory {
            options = options.idle_timeout(None).max_lifetime(None);
        }
        let pool = options
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if sqlite {
                        // Said, not assumed: a commit is on disk before a move is acknowledged.
                        sqlx::query("PRAGMA synchronous = FULL").execute(&mut *conn).await?;
                    }
                    Ok(())
                })
            })
            .connect(url)
            .await?;
        if sqlite {
            if !memory {
                // WAL lets readers and the games' writers go on at once.
                sqlx::query("PRAGMA journal_mode = WAL").execute(&pool).await?;
            }
            sqlx::migrate!("./migrations/sqlite").run(&pool).await?;
        } else {
            sqlx::migrate!("./migrations/postgres").run(&pool).await?;
        }
        Ok(Store {
            pool,
            postgres: !sqlite,
        })
    }

    /// A database in memory (tests, one-off work).
    pub async fn memory() -> Result<Store, sqlx::Error> {
        Store::connect("sqlite::memory:").await
    }

    /// The pool, for a query the store does not offer (tests count rows with it).
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    pub fn is_postgres(&self) -> bool {
        self.postgres
    }

    /// Waits for the connections to close (an SQLite file's write-ahead log is folded back into
    /// it when the last one does).
    pub async fn close(&self) {
        self.pool.close().await
    }
}

//! The database every command uses, by one rule ([`store::resolve`]): `--db`, else
//! `$DATABASE_URL`, else `$ARBITER_DB`, else `arbiter.db`.

use std::future::Future;

use anyhow::{Context, Result};
use store::{Resolved, Store};

/// The database named by `--db` or, without it, by the environment.
pub(crate) fn resolve(flag: Option<&str>) -> Result<Resolved> {
    Ok(store::resolve(flag)?)
}

/// The store for a command that is not async itself: its own small runtime runs each call.
pub(crate) struct Blocking {
    runtime: tokio::runtime::Runtime,
    pub store: Store,
}

impl Blocking {
    pub fn open(flag: Option<&str>) -> Result<Blocking> {
        let db = resolve(flag)?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .context("cannot start the async runtime")?;
        let store = runtime
            .block_on(Store::open(&db.target))
            .with_context(|| format!("cannot open the database ({db})"))?;
        Ok(Blocking { runtime, store })
    }

    /// Runs one of the store's calls to its end.
    pub fn run<F: Future>(&self, call: F) -> F::Output {
        self.runtime.block_on(call)
    }
}

impl Drop for Blocking {
    fn drop(&mut self) {
        // Closed, not just dropped: SQLite folds its write-ahead log back into the file.
        self.runtime.block_on(self.store.close());
    }
}

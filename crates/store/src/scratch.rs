//! For tests: a fresh PostgreSQL database each, so tests run in parallel without seeing each
//! other's rows, dropped afterwards (even when the test fails).
//!
//! The server is the one at `$DATABASE_URL` when that is a `postgres://` URL, else the one these
//! machines run at 127.0.0.1:5432. Without one, [`Scratch::postgres`] prints a line with
//! `SKIPPED` and gives `None` — unless `CI=true`, where a test that cannot run must fail.

use std::sync::atomic::{AtomicUsize, Ordering};

use sqlx::Connection;

/// A database created for one test; dropped with it.
pub struct Scratch {
    admin: String,
    name: String,
    /// `postgres://…/NAME`, for `--db` or [`crate::Store::connect`].
    pub url: String,
}

static SEQ: AtomicUsize = AtomicUsize::new(0);

fn admin_url() -> String {
    std::env::var("DATABASE_URL")
        .ok()
        .filter(|u| u.starts_with("postgres://") || u.starts_with("postgresql://"))
        .unwrap_or_else(|| "postgres://postgres@127.0.0.1:5432/postgres".into())
}

/// Runs `sql` on the server's admin database, on a thread of its own (so it works from async
/// tests and plain ones alike).
fn admin(url: String, sql: String) -> Result<(), sqlx::Error> {
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
        rt.block_on(async {
            let mut conn = sqlx::PgConnection::connect(&url).await?;
            sqlx::raw_sql(&sql).execute(&mut conn).await?;
            conn.close().await
        })
    })
    .join()
    .unwrap_or_else(|_| Err(sqlx::Error::PoolClosed))
}

impl Scratch {
    /// A new empty database, or `None` (said with `SKIPPED`) when no server answers.
    ///
    /// # Panics
    /// When no server answers and `CI=true`.
    pub fn postgres(test: &str) -> Option<Scratch> {
        let admin_url = admin_url();
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let name = format!(
            "arbiter_test_{}_{}_{nanos}",
            std::process::id(),
            SEQ.fetch_add(1, Ordering::Relaxed)
        );
        if let Err(e) = admin(admin_url.clone(), format!("CREATE DATABASE {name}")) {
            if std::env::var("CI").as_deref() == Ok("true") {
                panic!("{test}: no PostgreSQL at {admin_url} ({e}), and CI=true: it must run");
            }
            println!("SKIPPED: {test}: no PostgreSQL at {admin_url} ({e}); set DATABASE_URL to run it");
            return None;
        }
        let base = admin_url.rsplit_once('/').map_or(admin_url.as_str(), |(b, _)| b);
        let url = format!("{base}/{name}");
        Some(Scratch {
            admin: admin_url,
            name,
            url,
        })
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = admin(
            self.admin.clone(),
            format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name),
        );
    }
}

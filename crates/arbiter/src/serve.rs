//! `arbiter serve`: the game server (crates/server) on a tokio runtime.

use std::io::Write;

use anyhow::{Context, Result};

/// The database URL: `--db` (a file or a URL), else a postgres `DATABASE_URL`, else `arbiter.db`.
pub(crate) fn database_url(db: Option<&str>) -> (String, String) {
    let env = std::env::var("DATABASE_URL")
        .ok()
        .filter(|u| u.starts_with("postgres://") || u.starts_with("postgresql://"));
    match (db, env) {
        (Some(d), _) if d.contains("://") => (d.to_string(), "database at --db".into()),
        (Some(file), _) => (format!("sqlite://{file}?mode=rwc"), format!("SQLite file {file}")),
        (None, Some(url)) => (url, "PostgreSQL at DATABASE_URL".into()),
        (None, None) => ("sqlite://arbiter.db?mode=rwc".into(), "SQLite file arbiter.db".into()),
    }
}

pub fn run(addr: &str, db: Option<&str>, limits: server::Limits) -> Result<()> {
    let (url, what) = database_url(db);
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime
        .block_on(server::serve(addr, &url, limits, |bound, restored| {
            // Tests and scripts read this line to learn the port.
            println!("arbiter serve: listening on http://{bound} ({what}; {restored} unfinished games restored)");
            let _ = std::io::stdout().flush();
        }))
        .context("arbiter serve")
}

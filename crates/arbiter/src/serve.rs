//! `arbiter serve`: the game server (crates/server) on a tokio runtime.

use std::io::Write;

use anyhow::{Context, Result};

/// How the server's log lines are written (to standard error).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// One readable line an event.
    Text,
    /// One JSON object a line, for a log collector.
    Json,
}

pub fn run(
    addr: &str,
    db: Option<&str>,
    cluster: Option<server::cluster::Options>,
    limits: server::Limits,
    log: LogFormat,
) -> Result<()> {
    logging(log);
    let db = crate::db::resolve(db)?;
    if cluster.is_some() && !db.target.url().starts_with("postgres") {
        anyhow::bail!("arbiter serve --cluster: the nodes share their games in PostgreSQL, so --db (or $DATABASE_URL) must be a postgres:// URL; found {db}");
    }
    let node = cluster
        .as_ref()
        .map(|c| format!("; node {} of the cluster at {}", c.node, c.nats));
    let url = db.target.url();
    // Each socket and stream is a descriptor: as many as the system lets this process have.
    let _ = crate::nofile::raise();
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime
        .block_on(server::serve_node(addr, &url, limits, cluster, |bound, restored| {
            // Tests and scripts read this line to learn the port.
            let node = node.unwrap_or_default();
            println!("arbiter serve: listening on http://{bound} ({db}; {restored} unfinished games restored{node})");
            let _ = std::io::stdout().flush();
        }))
        .context("arbiter serve")
}

/// Structured logs on standard error, filtered by `RUST_LOG` (default `info`, the database driver's notices left out; `debug` adds a
/// line a request).
fn logging(format: LogFormat) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false);
    // A second call (tests running the command in process) keeps the first subscriber.
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().try_init(),
    };
}

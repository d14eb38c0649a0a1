//! `arbiter serve`: the game server (crates/server) on a tokio runtime.

use std::io::Write;

use anyhow::{Context, Result};

pub fn run(addr: &str, db: Option<&str>, limits: server::Limits) -> Result<()> {
    let db = crate::db::resolve(db)?;
    let url = db.target.url();
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime
        .block_on(server::serve(addr, &url, limits, |bound, restored| {
            // Tests and scripts read this line to learn the port.
            println!("arbiter serve: listening on http://{bound} ({db}; {restored} unfinished games restored)");
            let _ = std::io::stdout().flush();
        }))
        .context("arbiter serve")
}

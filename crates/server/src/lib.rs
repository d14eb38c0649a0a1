//! The game server: live refereed games of Xiangqi and chess over an HTTP API shaped like
//! lichess's Board API, every command stored before it is acknowledged.
//!
//! - [`db`]: SQLite (default) or PostgreSQL; a game is its row and its command log.
//! - [`table`]: one task owns each game (its referee), logs then applies, wakes for flags.
//! - [`view`]: each event as the NDJSON line streams show.
//! - [`api`]: the routes; [`error`]: JSON errors with 4xx statuses.
//! - [`socket`]: the same play over a WebSocket, its messages in [`protocol`].
//! - [`console`]: the arbiter's routes, with the game's arbiter token.
//! - [`event`]: events run on the server: their routes, rounds played as live games, results
//!   entered as games end.
//! - [`players`]: sessions from the first visit, display names, accounts, the seats each
//!   holds, and a player's games.
//! - [`create`]: `POST /api/game`; [`seeks`]: finding an opponent (lobby seeks, challenges by
//!   link, rematches).
//! - [`review`]: a game record in, its moves and the judge's verdict out.
//! - [`cluster`]: several nodes on one PostgreSQL and a NATS server: each game runs on one,
//!   commands forwarded to it, its lines followed by the others; a dead node's games taken over.
//! - [`metrics`]: `/metrics` (Prometheus) and the liveness and readiness probes.
//! - [`openapi`]: the API described (OpenAPI 3.1), served at `/api/openapi.json`.
//! - [`web`]: the page (lobby and board), embedded in the binary.

pub mod analyse;
pub mod api;
pub mod app;
pub mod cluster;
pub mod codec;
pub mod computer;
pub mod console;
pub mod create;
pub mod db;
pub mod device;
pub mod error;
pub mod event;
pub mod limits;
pub mod live;
pub mod metrics;
pub mod openapi;
pub mod players;
pub mod problem;
pub mod protocol;
pub mod review;
pub mod seeks;
pub mod socket;
pub mod table;
pub mod view;
pub mod watching;
pub mod web;

use std::net::SocketAddr;
use std::sync::Arc;

pub use app::App;
pub use db::Db;
pub use error::ApiError;
pub use limits::Limits;

/// How often finished games leave memory (they stay in the database).
const EVICT_EVERY: std::time::Duration = std::time::Duration::from_secs(300);
/// How often sessions nobody uses any more are forgotten.
const FORGET_SESSIONS_EVERY: std::time::Duration = std::time::Duration::from_secs(3600);

/// Why the server could not run.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
    #[error("restoring games: {0}")]
    Restore(#[from] ApiError),
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("cluster: {0}")]
    Cluster(#[from] cluster::ClusterError),
}

/// How long a shutdown waits for requests in flight before it gives up on them.
const DRAIN: std::time::Duration = std::time::Duration::from_secs(10);

/// Opens the database at `db_url`, rebuilds every unfinished game, listens on `addr`, calls
/// `ready` with the address bound (port 0 picks one) and the games restored, then serves until
/// SIGTERM or SIGINT: then it takes no new connection, ends the streams, lets the requests in
/// flight finish (their commands written and answered, for at most `DRAIN`) and returns.
pub async fn serve(
    addr: &str,
    db_url: &str,
    limits: Limits,
    ready: impl FnOnce(SocketAddr, usize),
) -> Result<(), ServeError> {
    serve_node(addr, db_url, limits, None, ready).await
}

/// [`serve`], as a node of a cluster when `cluster` is given: it joins (PostgreSQL only),
/// rebuilds only the games it owns, and on SIGTERM hands its games to the other nodes before
/// it stops.
pub async fn serve_node(
    addr: &str,
    db_url: &str,
    limits: Limits,
    cluster: Option<cluster::Options>,
    ready: impl FnOnce(SocketAddr, usize),
) -> Result<(), ServeError> {
    let db = Db::connect(db_url).await?;
    // Bound first: a node advertises the address it listens on unless told another.
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let mut cluster = cluster;
    if let Some(options) = cluster.as_mut() {
        let bound = listener.local_addr()?;
        options.advertise.get_or_insert_with(|| format!("http://{bound}"));
    }
    let node = match cluster {
        Some(options) => Some(cluster::Node::join(options, &db).await?),
        None => None,
    };
    let app = Arc::new(App::with_limits(db, limits));
    let restored = match &node {
        None => app.restore_all().await?,
        Some(node) => {
            app.set_cluster(node.clone());
            node.attach(&app).await?;
            node.restore_owned(&app).await?
        }
    };
    event::reconcile(&app).await?;
    tracing::info!(addr = %listener.local_addr()?, restored, "serving");
    ready(listener.local_addr()?, restored);
    let forgetter = app.clone();
    tokio::spawn(async move {
        let mut every = tokio::time::interval(FORGET_SESSIONS_EVERY);
        loop {
            every.tick().await;
            match players::forget_unused(&forgetter).await {
                Ok(0) => {}
                Ok(n) => tracing::info!(sessions = n, "forgot sessions nobody uses"),
                Err(e) => tracing::warn!(error = %e, "could not forget unused sessions"),
            }
        }
    });
    let janitor = app.clone();
    tokio::spawn(async move {
        let mut every = tokio::time::interval(EVICT_EVERY);
        loop {
            every.tick().await;
            janitor.evict_finished();
            janitor.sweep_limits();
        }
    });
    // The client's address is what game creation is limited by.
    let service = api::router(app.clone()).into_make_service_with_connect_info::<SocketAddr>();
    let (stopped_tx, mut stopped) = tokio::sync::watch::channel(false);
    let signalled = async move {
        stop_signal().await;
        if let Some(node) = &node {
            tracing::info!("draining: handing this node's games to the others");
            cluster::drain::drain(node, &app).await;
        }
        tracing::info!("stopping: no new connections, streams end, requests in flight finish");
        // Streams last as long as their games: they end now, or the drain would wait on them.
        app.close();
        let _ = stopped_tx.send(true);
    };
    // Without Nagle's algorithm: a game socket writes an event to a player who is not
    // answering on that connection, and the next write (its move's answer) would otherwise
    // wait for the client's delayed ACK of the first, up to 40 ms.
    use axum::serve::ListenerExt;
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    let server = axum::serve(listener, service).with_graceful_shutdown(signalled);
    tokio::select! {
        r = server => r?,
        _ = async {
            let _ = stopped.wait_for(|s| *s).await;
            tokio::time::sleep(DRAIN).await;
        } => tracing::warn!(drain_s = DRAIN.as_secs(), "requests still open after the drain; stopping anyway"),
    }
    Ok(())
}

/// SIGTERM (a service manager stopping the server) or SIGINT (Ctrl-C).
async fn stop_signal() {
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    tokio::select! {
        _ = term => {}
        _ = tokio::signal::ctrl_c() => {}
    }
}

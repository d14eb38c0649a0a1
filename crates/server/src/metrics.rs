//! What an operator watches: `/metrics` in Prometheus's text format, and the liveness and
//! readiness probes a service manager or load balancer asks (`/health/live`, `/health/ready`).
//!
//! Counters are plain atomics bumped where the work happens (the command log's writes, each
//! HTTP response); gauges are read when scraped. Rates (moves a second) are Prometheus's to
//! compute from the counters, as it does for any counter.

use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use crate::app::App;

/// Upper bounds (seconds) of the command log's write-latency buckets: a commit is a disk
/// flush (SQLite) or a round trip and a flush (PostgreSQL), shared by the moves queued behind it.
const WRITE_BOUNDS: [f64; 12] = [
    0.0005, 0.001, 0.002, 0.004, 0.008, 0.016, 0.032, 0.064, 0.128, 0.256, 0.512, 1.024,
];

/// The server's counters, shared by everything that bumps them.
#[derive(Default)]
pub struct Metrics {
    /// Commands written to the command log (every move, offer, claim, arbiter's command…).
    pub commands: AtomicU64,
    /// Of which moves.
    pub moves: AtomicU64,
    /// Appends the database refused (a move then not acknowledged).
    pub write_errors: AtomicU64,
    /// HTTP responses by class: 1xx … 5xx.
    pub responses: [AtomicU64; 5],
    /// Streams (NDJSON) open now.
    pub streams: AtomicU64,
    /// Game sockets (WebSocket) open now.
    pub sockets: AtomicU64,
    /// Live games taken over from a node whose lease ended.
    pub takeovers: AtomicU64,
    /// Commands and reads forwarded to the node that runs their game (a cluster).
    pub forwards: AtomicU64,
    /// Forwards that found no node answering (it died or was handing over), each retried
    /// or refused.
    pub forward_failures: AtomicU64,
    /// How long each append waited for its commit.
    pub write_latency: Histogram,
}

#[derive(Default)]
pub struct Histogram {
    buckets: [AtomicU64; WRITE_BOUNDS.len()],
    count: AtomicU64,
    sum_micros: AtomicU64,
}

impl Histogram {
    pub fn observe(&self, d: Duration) {
        let s = d.as_secs_f64();
        if let Some(i) = WRITE_BOUNDS.iter().position(|&b| s <= b) {
            self.buckets[i].fetch_add(1, Ordering::Relaxed);
        }
        self.count.fetch_add(1, Ordering::Relaxed);
        self.sum_micros.fetch_add(d.as_micros() as u64, Ordering::Relaxed);
    }

    fn write(&self, out: &mut String, name: &str, help: &str) {
        let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} histogram");
        let mut cumulative = 0;
        for (b, n) in WRITE_BOUNDS.iter().zip(&self.buckets) {
            cumulative += n.load(Ordering::Relaxed);
            let _ = writeln!(out, "{name}_bucket{{le=\"{b}\"}} {cumulative}");
        }
        let count = self.count.load(Ordering::Relaxed);
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {count}");
        let sum = self.sum_micros.load(Ordering::Relaxed) as f64 / 1e6;
        let _ = writeln!(out, "{name}_sum {sum}\n{name}_count {count}");
    }
}

/// Counts an open stream while it lives.
pub struct StreamGuard(Arc<Metrics>);

impl StreamGuard {
    pub fn new(m: Arc<Metrics>) -> StreamGuard {
        m.streams.fetch_add(1, Ordering::Relaxed);
        StreamGuard(m)
    }
}

impl Drop for StreamGuard {
    fn drop(&mut self) {
        self.0.streams.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Counts an open socket while it lives.
pub struct SocketGuard(Arc<Metrics>);

impl SocketGuard {
    pub fn new(m: Arc<Metrics>) -> SocketGuard {
        m.sockets.fetch_add(1, Ordering::Relaxed);
        SocketGuard(m)
    }
}

impl Drop for SocketGuard {
    fn drop(&mut self) {
        self.0.sockets.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Metrics {
    /// The text a scrape gets (Prometheus exposition format 0.0.4).
    pub fn render(&self, games_live: usize, games_loaded: usize) -> String {
        let mut out = String::new();
        let mut one = |name: &str, kind: &str, help: &str, value: f64| {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}");
        };
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed) as f64;
        one(
            "arbiter_games_live",
            "gauge",
            "Games being played on this server.",
            games_live as f64,
        );
        one(
            "arbiter_commands_total",
            "counter",
            "Commands written to the command log.",
            get(&self.commands),
        );
        one(
            "arbiter_moves_total",
            "counter",
            "Moves written to the command log.",
            get(&self.moves),
        );
        one(
            "arbiter_log_write_errors_total",
            "counter",
            "Command log appends the database refused.",
            get(&self.write_errors),
        );
        one(
            "arbiter_games_loaded",
            "gauge",
            "Games in memory (live, or finished and not yet evicted).",
            games_loaded as f64,
        );
        one(
            "arbiter_streams_open",
            "gauge",
            "Game streams (NDJSON) open now.",
            get(&self.streams),
        );
        one(
            "arbiter_sockets_open",
            "gauge",
            "Game sockets (WebSocket) open now.",
            get(&self.sockets),
        );
        one(
            "arbiter_lease_takeovers_total",
            "counter",
            "Live games taken over from a node whose lease ended.",
            get(&self.takeovers),
        );
        one(
            "arbiter_forwards_total",
            "counter",
            "Requests forwarded to the node that runs their game.",
            get(&self.forwards),
        );
        one(
            "arbiter_forward_failures_total",
            "counter",
            "Forwards no node answered (retried or refused).",
            get(&self.forward_failures),
        );
        if let Some((cpu, rss)) = process() {
            one("process_cpu_seconds_total", "counter", "User and system CPU time.", cpu);
            one("process_resident_memory_bytes", "gauge", "Resident memory.", rss);
        }
        let _ = writeln!(
            out,
            "# HELP arbiter_http_responses_total HTTP responses by status class.\n# TYPE arbiter_http_responses_total counter"
        );
        for (i, n) in self.responses.iter().enumerate() {
            let _ = writeln!(out, "arbiter_http_responses_total{{code=\"{}xx\"}} {}", i + 1, get(n));
        }
        self.write_latency.write(
            &mut out,
            "arbiter_log_write_seconds",
            "Time from a command's append to its commit.",
        );
        out
    }

    /// Counts a response by its status.
    pub fn responded(&self, status: StatusCode) {
        let class = (status.as_u16() / 100).clamp(1, 5) as usize - 1;
        self.responses[class].fetch_add(1, Ordering::Relaxed);
    }
}

/// This process's CPU seconds and resident bytes, from /proc (Linux; none elsewhere).
fn process() -> Option<(f64, f64)> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may hold spaces) start at its closing parenthesis.
    let after = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = after.split(' ').collect();
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    let ticks = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: f64 = statm.split(' ').nth(1)?.parse().ok()?;
    // The kernel's USER_HZ is 100 and its pages 4 KiB on every Linux this runs on.
    Some((ticks / 100.0, pages * 4096.0))
}

pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/metrics", get(scrape))
        .route("/health/live", get(|| async { "ok\n" }))
        .route("/health/ready", get(ready))
}

async fn scrape(State(app): State<Arc<App>>) -> Response {
    let mut text = app.metrics().render(app.games_live(), app.loaded());
    if let Some(node) = app.cluster() {
        let name = "arbiter_games_followed";
        let help = "Games held here that another node runs: each a NATS subscription to its lines.";
        let _ = writeln!(
            text,
            "# HELP {name} {help}\n# TYPE {name} gauge\n{name} {}",
            node.followed()
        );
    }
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], text).into_response()
}

/// Ready while the server takes games: its database answers and it is not shutting down.
async fn ready(State(app): State<Arc<App>>) -> Response {
    if *app.closing().borrow() {
        return (StatusCode::SERVICE_UNAVAILABLE, "draining\n").into_response();
    }
    if let Some(node) = app.cluster() {
        if !node.is_ready() {
            return (StatusCode::SERVICE_UNAVAILABLE, "cluster: no lease held, or draining\n").into_response();
        }
    }
    match app.db().ping().await {
        Ok(()) => "ready\n".into_response(),
        Err(e) => (StatusCode::SERVICE_UNAVAILABLE, format!("database: {e}\n")).into_response(),
    }
}

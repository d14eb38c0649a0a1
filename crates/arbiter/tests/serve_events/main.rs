//! Events on the server through real HTTP: an organiser's client creates an event, registers
//! players and starts rounds; each player's client finds its game through its own token and
//! plays it move by move; results flow into the standings; a `kill -9` in the middle of a
//! round loses nothing. An 8-player round robin and a 16-player knockout of best-of-3 matches
//! (tied matches going to a play-off game), on SQLite always and on PostgreSQL at
//! `$DATABASE_URL` or 127.0.0.1:5432 in a fresh database (SKIPPED without one, failing under
//! `CI=true`).

#[path = "../common/mod.rs"]
mod common;
mod knockout;
mod lifecycle;
mod round_robin;
mod support;

use support::sqlite;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn round_robin_on_sqlite() {
    let (dir, db) = sqlite("rr");
    round_robin::round_robin(&db).await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn knockout_on_sqlite() {
    let (dir, db) = sqlite("ko");
    knockout::knockout(&db).await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn round_robin_on_postgresql() {
    let Some(db) = store::scratch::Scratch::postgres("serve_events_rr") else {
        return;
    };
    round_robin::round_robin(&db.url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn knockout_on_postgresql() {
    let Some(db) = store::scratch::Scratch::postgres("serve_events_ko") else {
        return;
    };
    knockout::knockout(&db.url).await;
}

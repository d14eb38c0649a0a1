//! What an organiser does to a served event beyond pairing and results, through real HTTP
//! against `arbiter serve`: the event's games rated into its rating list when it ends (once,
//! whatever restarts), pausing and resuming a round, publishing standings, and the arbiter's
//! console at an event's board, team events, live games ended when the organiser's results
//! leave the event no use for them. SQLite always; PostgreSQL at `$DATABASE_URL` or
//! 127.0.0.1:5432 in a fresh database where the test says so (SKIPPED without one, failing
//! under `CI=true`).

#[path = "../common/mod.rs"]
mod common;
mod console;
mod control;
mod decided;
mod device;
mod http;
mod lineups;
mod ratings;
// The served-events suite's client helpers, shared (this suite uses only part of them).
#[allow(dead_code)]
#[path = "../serve_events/support.rs"]
mod support;
mod team_knockout;
mod teams;

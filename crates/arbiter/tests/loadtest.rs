//! `arbiter loadtest`, bounded and short: it must keep working (its figures are in
//! BENCHMARKS.md), every move it sends must be accepted, and the games it played must be in the
//! database afterwards, move for move. On SQLite always; on PostgreSQL when one is reachable.

use std::process::Command;

use serde_json::Value;

fn loadtest(db: &str, transport: &str) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "loadtest",
            "--db",
            db,
            "--games",
            "16",
            "--seconds",
            "1.5",
            "--watch",
            "--transport",
            transport,
            "--json",
        ])
        .env_remove("DATABASE_URL")
        .output()
        .expect("run arbiter loadtest");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "loadtest failed: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    assert_eq!(report["errors"], 0, "{report}");
    assert!(report["moves"].as_u64().unwrap() > 100, "{report}");
    assert!(report["p99_ms"].as_f64().unwrap() >= report["p50_ms"].as_f64().unwrap());
    assert_eq!(report["transport"], transport, "{report}");
    // The server ran here: its CPU time a move is measured (Linux's per-thread schedstat).
    assert!(report["server_cpu_us_per_move"].as_f64().unwrap() > 0.0, "{report}");
    report
}

/// The moves the database holds, counted through the store.
fn moves_logged(target: store::Target) -> u64 {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let s = store::Store::open(&target).await.unwrap();
        let n: i64 = store::sqlx::query_scalar("SELECT count(*) FROM commands WHERE command LIKE 'move %'")
            .fetch_one(s.pool())
            .await
            .unwrap();
        s.close().await;
        n as u64
    })
}

#[test]
fn loadtest_on_sqlite_logs_every_move() {
    let dir = std::env::temp_dir().join(format!("arbiter-loadtest-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("load.db");
    let report = loadtest(file.to_str().unwrap(), "http");
    // Every acknowledged move is a logged command.
    let moves = report["moves"].as_u64().unwrap();
    let logged = moves_logged(store::Target::File(file));
    assert!(logged >= moves, "{logged} moves logged, {moves} acknowledged");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The same over the game sockets, one per seat and a spectator's per game: every move
/// acknowledged over a socket is logged too.
#[test]
fn loadtest_over_websockets_logs_every_move() {
    let dir = std::env::temp_dir().join(format!("arbiter-loadtest-ws-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("load.db");
    let report = loadtest(file.to_str().unwrap(), "ws");
    let moves = report["moves"].as_u64().unwrap();
    let logged = moves_logged(store::Target::File(file));
    assert!(logged >= moves, "{logged} moves logged, {moves} acknowledged");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn loadtest_on_postgres() {
    let Some(db) = store::scratch::Scratch::postgres("loadtest_on_postgres") else {
        return;
    };
    let report = loadtest(&db.url, "http");
    let logged = moves_logged(store::Target::Url(db.url.clone()));
    assert!(logged >= report["moves"].as_u64().unwrap(), "{report}");
}

/// The event mode, small: its round is played through and every result reaches the event, and
/// an event it cannot run is refused before anything starts.
#[test]
fn loadtest_event_mode_plays_a_round_and_refuses_bad_sizes() {
    let dir = std::env::temp_dir().join(format!("arbiter-loadtest-event-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("event.db");
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["loadtest", "--db", file.to_str().unwrap()])
            .args(args)
            .env_remove("DATABASE_URL")
            .output()
            .expect("run arbiter loadtest")
    };
    let out = run(&["--event-players", "7", "--json"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    // Seven players: three games and a bye.
    assert_eq!(report["games"], 3, "{report}");
    assert_eq!(report["errors"], 0, "{report}");
    assert!(report["moves"].as_u64().unwrap() > 3, "{report}");
    assert!(report["round_start_playable_s"].as_f64().unwrap() >= report["round_start_request_s"].as_f64().unwrap());
    let logged = moves_logged(store::Target::File(file.clone()));
    assert!(logged >= report["moves"].as_u64().unwrap(), "{logged} logged: {report}");
    for bad in [
        &["--event-players", "1"][..],
        &["--event-players", "0"],
        &["--event-players", "20001"],
        &["--event-players", "many"],
        &["--event-players", "10", "--games", "4"],
        &["--event-rate", "100"],
        &["--event-players", "4", "--event-rate", "0"],
        &["--event-players", "4", "--event-rate=-5"],
        &["--event-players", "4", "--event-rate", "NaN"],
        &["--event-players", "4", "--transport", "ws"],
    ] {
        let out = run(bad);
        assert!(!out.status.success(), "{bad:?} accepted");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("--event-"), "{bad:?}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Many watch-only sockets at once (issue 29 asks for 20,000 on one node; 2,000 here, with
/// the server in the same process holding the other ends): every one opens, reads its
/// `gameFull`, and sees the move then made in its game; the server's memory is read before
/// and with them open.
#[test]
fn loadtest_spectators_all_open_and_all_see_the_move() {
    let dir = std::env::temp_dir().join(format!("arbiter-loadtest-spectators-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("watch.db");
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["loadtest", "--db", file.to_str().unwrap()])
            .args(args)
            .env_remove("DATABASE_URL")
            .output()
            .expect("run arbiter loadtest")
    };
    let out = run(&["--spectators", "2000", "--games", "4", "--json"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    assert_eq!(report["opened"], 2000, "{report}");
    assert_eq!(report["saw_move"], 2000, "{report}");
    assert_eq!(report["failed"], 0, "{report}");
    assert_eq!(report["games"], 4, "{report}");
    let (before, open) = (
        report["rss_before_bytes"].as_u64().unwrap(),
        report["rss_open_bytes"].as_u64().unwrap(),
    );
    assert!(before > 0 && open > before, "{report}");
    // One move a game, each logged before every socket saw it.
    assert_eq!(moves_logged(store::Target::File(file.clone())), 4);
    for bad in [
        &["--spectators", "0"][..],
        &["--spectators", "many"],
        &["--spectators", "10", "--transport", "ws"],
        &["--spectators", "10", "--event-players", "4"],
    ] {
        let out = run(bad);
        assert!(!out.status.success(), "{bad:?} was taken");
        assert!(!out.stderr.is_empty(), "{bad:?}: no error said");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

//! `arbiter loadtest`, bounded and short: it must keep working (its figures are in
//! BENCHMARKS.md), every move it sends must be accepted, and the games it played must be in the
//! database afterwards, move for move. On SQLite always; on PostgreSQL when one is reachable.

use std::process::Command;

use serde_json::Value;

fn loadtest(db: &str) -> Value {
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
    report
}

#[test]
fn loadtest_on_sqlite_logs_every_move() {
    let dir = std::env::temp_dir().join(format!("arbiter-loadtest-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("load.db");
    let report = loadtest(file.to_str().unwrap());
    // Every acknowledged move is a logged command: count them through SQLite itself.
    let moves = report["moves"].as_u64().unwrap();
    let out = Command::new("python3")
        .arg("-c")
        .arg(
            "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); \
             print(c.execute(\"select count(*) from commands where command like 'move %'\").fetchone()[0])",
        )
        .arg(&file)
        .output();
    match out {
        Ok(o) if o.status.success() => {
            let logged: u64 = String::from_utf8_lossy(&o.stdout).trim().parse().unwrap();
            assert!(logged >= moves, "{logged} moves logged, {moves} acknowledged");
        }
        _ => testdata::skip("counting the logged moves needs python3's sqlite3"),
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn loadtest_on_postgres() {
    let base = std::env::var("DATABASE_URL")
        .ok()
        .filter(|u| u.starts_with("postgres"))
        .unwrap_or_else(|| "postgres://postgres@127.0.0.1:5432/postgres".into());
    let Ok(mut admin) = postgres::Client::connect(&base, postgres::NoTls) else {
        testdata::skip(format!(
            "no PostgreSQL at {base}; set DATABASE_URL to run the load test on it"
        ));
        return;
    };
    let name = format!("arbiter_loadtest_{}", std::process::id());
    admin.batch_execute(&format!("DROP DATABASE IF EXISTS {name}")).unwrap();
    admin.batch_execute(&format!("CREATE DATABASE {name}")).unwrap();
    let url = format!("{}/{name}", base.rsplit_once('/').map_or(base.as_str(), |(b, _)| b));
    let report = loadtest(&url);
    let mut db = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let logged: i64 = db
        .query_one("SELECT count(*) FROM commands WHERE command LIKE 'move %'", &[])
        .unwrap()
        .get(0);
    assert!(logged as u64 >= report["moves"].as_u64().unwrap(), "{report}");
    drop(db);
    let _ = admin.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
}

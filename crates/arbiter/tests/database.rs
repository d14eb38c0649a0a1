//! One database for every command: `serve` and `tournament` find it by the same rule (`--db`,
//! else `$DATABASE_URL`, else `$ARBITER_DB`, else `arbiter.db`), and files earlier versions
//! wrote (crates/store/tests/data) go on from the command line.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use reqwest::StatusCode;
use serde_json::Value;

mod common;

fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-database-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `arbiter ARGS` in `dir` with exactly the database variables given.
fn arbiter(dir: &Path, env: &[(&str, &str)], args: &[&str]) -> (bool, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_arbiter"));
    cmd.current_dir(dir)
        .args(args)
        .env_remove("DATABASE_URL")
        .env_remove("ARBITER_DB");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run arbiter");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `arbiter serve` in `dir` with the variables given; its first line (where it listens, on
/// which database).
fn serve(dir: &Path, env: &[(&str, &str)]) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_arbiter"));
    cmd.current_dir(dir)
        .args(["serve", "--addr", "127.0.0.1:0"])
        .env_remove("DATABASE_URL")
        .env_remove("ARBITER_DB")
        .stdout(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("spawn arbiter serve");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    line
}

fn events(dir: &Path, env: &[(&str, &str)], db: Option<&str>) -> String {
    let mut args = vec!["tournament", "list"];
    args.extend(db.iter().flat_map(|d| ["--db", d]));
    let (ok, out, err) = arbiter(dir, env, &args);
    assert!(ok, "{err}");
    out
}

#[test]
fn point_two_serve_and_tournament_find_the_database_by_one_rule() {
    let dir = temp_dir("rule");
    let create = |env: &[(&str, &str)], name: &str| {
        let (ok, _, err) = arbiter(&dir, env, &["tournament", "create", name, "--rounds", "3"]);
        assert!(ok, "{err}");
    };
    // Nothing named: arbiter.db here, for both.
    create(&[], "Default");
    assert!(dir.join("arbiter.db").exists());
    let line = serve(&dir, &[]);
    assert!(line.contains("(SQLite file arbiter.db;"), "{line}");
    // $ARBITER_DB, for both (serve ignored it before).
    let by_env = [("ARBITER_DB", "env.db")];
    create(&by_env, "Env");
    assert_eq!(events(&dir, &by_env, None), "Env\t1\n");
    let line = serve(&dir, &by_env);
    assert!(line.contains("(SQLite file env.db, from $ARBITER_DB;"), "{line}");
    // $DATABASE_URL before $ARBITER_DB, for both.
    let both = [("DATABASE_URL", "sqlite:url.db?mode=rwc"), ("ARBITER_DB", "env.db")];
    create(&both, "Url");
    assert_eq!(events(&dir, &both, None), "Url\t1\n");
    let line = serve(&dir, &both);
    assert!(line.contains("(SQLite, from $DATABASE_URL;"), "{line}");
    // --db before all.
    assert_eq!(events(&dir, &both, Some("arbiter.db")), "Default\t1\n");
    // A DATABASE_URL that is no database is said, not ignored.
    let (ok, _, err) = arbiter(&dir, &[("DATABASE_URL", "mysql://x/y")], &["tournament", "list"]);
    assert!(!ok && err.contains("DATABASE_URL"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

fn old_file(name: &str, dir: &Path) -> String {
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../store/tests/data")
        .join(name);
    let to = dir.join(name);
    std::fs::copy(from, &to).unwrap();
    to.to_str().unwrap().to_string()
}

async fn next_move(base: &str, game: &str, token: &str, mv: &str) -> Value {
    let c = reqwest::Client::new();
    let r = c
        .post(format!("{base}/api/board/game/{game}/move/{mv}"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    let mut r = c
        .get(format!("{base}/api/board/game/stream/{game}"))
        .send()
        .await
        .unwrap();
    let mut buf = Vec::new();
    while !buf.contains(&b'\n') {
        buf.extend_from_slice(&r.chunk().await.unwrap().unwrap());
    }
    let line = buf.split(|&b| b == b'\n').next().unwrap();
    serde_json::from_slice(line).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn point_three_old_files_go_on_from_the_command_line() {
    let dir = temp_dir("old");
    // The old store's file: the event pairs its next round.
    let events = old_file("events.db", &dir);
    let (ok, out, err) = arbiter(&dir, &[], &["tournament", "pair", "Open", "--db", &events]);
    assert!(ok && out.starts_with("round 2"), "{out}{err}");
    let (_, log, _) = arbiter(&dir, &[], &["tournament", "log", "Open", "--db", &events]);
    assert_eq!(log.lines().count(), 10, "{log}");
    assert!(log.lines().last().unwrap().ends_with("pair round 2"), "{log}");

    // The old server's file: its game in play is restored and takes the next move.
    let games = old_file("games.db", &dir);
    let s = common::Server::start_with(&games, &[]);
    let full = next_move(&s.base, "BnL31per", "tbg7fuZycaLuFsdu3psGWrska2JHHcpF", "i0h0").await;
    assert_eq!(full["state"]["moves"], "h2e2 h9g7 h0g2 i9h9 i0h0", "{full}");
    drop(s);

    // One file both wrote: the server goes on with its game while the event goes on beside it.
    let both = old_file("both.db", &dir);
    let s = common::Server::start_with(&both, &[]);
    let full = next_move(&s.base, "bcrivZpQ", "KuQJKgmXWaTY3289icd5dwK3ljL8h5SW", "h0g2").await;
    assert_eq!(full["state"]["moves"], "b2e2 b9c7 h0g2", "{full}");
    let late = [
        "tournament",
        "register",
        "Club",
        "Cid",
        "--rating",
        "1800",
        "--db",
        &both,
    ];
    let (ok, out, err) = arbiter(&dir, &[], &late);
    assert!(ok && out.contains("(version 6)"), "{out}{err}");
    drop(s);
    let _ = std::fs::remove_dir_all(&dir);
}

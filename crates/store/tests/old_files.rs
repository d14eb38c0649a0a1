//! SQLite files written before the one database layer (tests/data/README.md says how each was
//! made) open, are migrated forward, keep every event, change, game and command, and take new
//! ones. Each test works on a copy: the files in the repository stay as they were made.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use game::{Kind, Side};
use store::{Store, Target};

fn copy(name: &str) -> PathBuf {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name);
    let dir = std::env::temp_dir().join(format!("arbiter-old-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let to = dir.join(name);
    std::fs::copy(&from, &to).unwrap();
    to
}

async fn migrations_applied(s: &Store) -> Vec<i64> {
    store::sqlx::query_scalar("SELECT version FROM _sqlx_migrations ORDER BY version")
        .fetch_all(s.pool())
        .await
        .unwrap()
}

fn actions(log: &[store::Change]) -> Vec<&str> {
    log.iter().map(|c| c.action.as_str()).collect()
}

/// The file `arbiter tournament` wrote with rusqlite and its inline schema: no migrations table,
/// no games tables.
#[tokio::test]
async fn point_three_an_events_file_of_the_old_store_opens_and_goes_on() {
    let path = copy("events.db");
    let s = Store::open(&Target::File(path.clone())).await.unwrap();
    assert_eq!(
        migrations_applied(&s).await,
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
    );
    assert_eq!(s.events().await.unwrap(), [("Open".to_string(), 9)]);
    let log = s.event_log("Open").await.unwrap();
    assert_eq!(log.len(), 9);
    assert_eq!(log[0].at, "2026-12-01 20:52:45");
    assert_eq!(
        actions(&log)[6..],
        ["pair round 1", "result round 1 1-3 1-0", "result round 1 4-2 1/2"]
    );
    let (trf, version) = s.event("Open").await.unwrap().unwrap();
    assert_eq!(version, 9);
    assert!(trf.contains("001    1      Bob"), "{trf}");
    // It goes on: a change raises the version and is logged; the games' tables are there too.
    assert_eq!(s.save_event("Open", 9, &trf, "pair round 2").await.unwrap(), 10);
    assert_eq!(s.event_log("Open").await.unwrap().len(), 10);
    assert!(s.unfinished_games().await.unwrap().is_empty());
    s.close().await;
    // Opened again: nothing migrated twice.
    let s = Store::open(&Target::File(path.clone())).await.unwrap();
    assert_eq!(s.event("Open").await.unwrap().unwrap().1, 10);
    s.close().await;
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

/// The file `arbiter serve` wrote through sqlx: migration 1 applied (its checksum must still
/// match), the events tables missing.
#[tokio::test]
async fn point_three_a_games_file_of_the_old_server_opens_and_goes_on() {
    let path = copy("games.db");
    let s = Store::open(&Target::File(path.clone())).await.unwrap();
    assert_eq!(
        migrations_applied(&s).await,
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
    );
    assert_eq!(s.unfinished_games().await.unwrap(), ["BnL31per"]);
    let g = s.game("BnL31per").await.unwrap().unwrap();
    // Made before games had arbiters: it has none.
    assert_eq!(g.arbiter_hash, None);
    assert_eq!(
        (g.kind, g.ruleset.as_str(), g.rules.as_str(), g.clock),
        (Kind::Xiangqi, "online", "cxa", Some((0, 0)))
    );
    let commands: Vec<&str> = g.commands.iter().map(|c| c.2.as_str()).collect();
    assert_eq!(commands, ["start", "move h2e2", "move h9g7", "move h0g2", "move i9h9"]);
    assert_eq!(g.commands[4].1, Side::Second);
    let over = s.game("rpA9OssK").await.unwrap().unwrap();
    assert_eq!(over.kind, Kind::Chess);
    assert_eq!(over.commands.last().unwrap().2, "resign");
    // It goes on: the next command of the game in play, and an event beside the games.
    let id: Arc<str> = "BnL31per".into();
    s.command_log()
        .append(vec![(id, 5, 2400, Side::First, "move i0h0".into())])
        .await
        .unwrap();
    assert_eq!(s.game("BnL31per").await.unwrap().unwrap().commands.len(), 6);
    s.create_event("New", "XXR 5\n").await.unwrap();
    assert_eq!(s.events().await.unwrap(), [("New".to_string(), 1)]);
    s.close().await;
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

/// One file both wrote (`--db both.db` to each): everything of both kinds is there.
#[tokio::test]
async fn point_three_a_file_both_wrote_opens_with_both() {
    let path = copy("both.db");
    let s = Store::open(&Target::File(path.clone())).await.unwrap();
    assert_eq!(
        migrations_applied(&s).await,
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
    );
    assert_eq!(s.events().await.unwrap(), [("Club".to_string(), 5)]);
    assert_eq!(
        actions(&s.event_log("Club").await.unwrap()),
        [
            "create",
            "register 1 Ann",
            "register 2 Bob",
            "pair round 1",
            "result round 1 1-2 0-1"
        ]
    );
    assert_eq!(s.unfinished_games().await.unwrap(), ["bcrivZpQ"]);
    let g = s.game("bcrivZpQ").await.unwrap().unwrap();
    let commands: Vec<&str> = g.commands.iter().map(|c| c.2.as_str()).collect();
    assert_eq!(commands, ["start", "move b2e2", "move b9c7"]);
    s.close().await;
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

/// A PostgreSQL database the old store wrote (its inline schema, as it was, with a row) opens
/// and is migrated forward the same way.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn point_three_a_postgresql_database_of_the_old_store_opens_and_goes_on() {
    let Some(db) = store::scratch::Scratch::postgres("point_three_a_postgresql_database_of_the_old_store") else {
        return;
    };
    {
        use store::sqlx::Connection;
        let mut conn = store::sqlx::PgConnection::connect(&db.url).await.unwrap();
        store::sqlx::raw_sql(
            "CREATE TABLE IF NOT EXISTS events (name TEXT PRIMARY KEY, trf TEXT NOT NULL, version BIGINT NOT NULL);
             CREATE TABLE IF NOT EXISTS changes (
                 event TEXT NOT NULL REFERENCES events(name), version BIGINT NOT NULL, action TEXT NOT NULL,
                 at TIMESTAMPTZ NOT NULL DEFAULT now(), PRIMARY KEY (event, version));
             INSERT INTO events VALUES ('Old', 'XXR 5', 1);
             INSERT INTO changes (event, version, action) VALUES ('Old', 1, 'create');",
        )
        .execute(&mut conn)
        .await
        .unwrap();
        conn.close().await.unwrap();
    }
    let s = Store::connect(&db.url).await.unwrap();
    assert_eq!(
        migrations_applied(&s).await,
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
    );
    assert_eq!(s.event("Old").await.unwrap(), Some(("XXR 5".into(), 1)));
    assert_eq!(s.save_event("Old", 1, "XXR 7", "rounds 7").await.unwrap(), 2);
    assert_eq!(actions(&s.event_log("Old").await.unwrap()), ["create", "rounds 7"]);
    assert!(s.unfinished_games().await.unwrap().is_empty());
    s.close().await;
}

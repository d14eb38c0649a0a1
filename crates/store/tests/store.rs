//! Events and games in one database, the same on SQLite (always) and on PostgreSQL (a fresh
//! database per test, SKIPPED without a server unless CI=true).

use std::sync::Arc;

use game::{Kind, Side};
use store::scratch::Scratch;
use store::{EventError, NewEventGame, NewGame, Store};

fn temp_file(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-store-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("test.db")
}

/// Every change raises the version and is logged; a failed change (a name taken, a stale
/// version, no such event) changes nothing.
async fn events_keep_their_versions_and_changes(s: &Store) {
    s.create_event("A", "XXR 5\n").await.unwrap();
    assert!(matches!(s.create_event("A", "other").await, Err(EventError::Exists(_))));
    assert_eq!(s.event("A").await.unwrap(), Some(("XXR 5\n".into(), 1)));
    assert_eq!(s.save_event("A", 1, "XXR 7\n", "rounds 7").await.unwrap(), 2);
    // Saved from version 1 again: someone else's change came first.
    let stale = s.save_event("A", 1, "XXR 9\n", "rounds 9").await;
    assert!(matches!(stale, Err(EventError::Changed { read: 1, .. })), "{stale:?}");
    assert!(matches!(
        s.save_event("B", 1, "", "x").await,
        Err(EventError::NoEvent(_))
    ));
    assert_eq!(s.event("A").await.unwrap(), Some(("XXR 7\n".into(), 2)));
    let log = s.event_log("A").await.unwrap();
    assert_eq!(
        log.iter().map(|c| (c.version, c.action.as_str())).collect::<Vec<_>>(),
        [(1, "create"), (2, "rounds 7")]
    );
    assert_eq!(log[0].at.len(), 19, "{:?}", log[0].at);
    assert_eq!(s.events().await.unwrap(), [("A".to_string(), 2)]);
    s.delete_event("A").await.unwrap();
    assert_eq!(s.event("A").await.unwrap(), None);
    assert!(s.event_log("A").await.unwrap().is_empty());
}

/// Two writers saving from the same version: one wins, the other is told and saved nothing.
async fn concurrent_changes_take_turns(s: &Store) {
    s.create_event("C", "v1").await.unwrap();
    let (a, b) = tokio::join!(s.save_event("C", 1, "a", "by a"), s.save_event("C", 1, "b", "by b"));
    let won = [&a, &b].iter().filter(|r| r.is_ok()).count();
    assert_eq!(won, 1, "{a:?} {b:?}");
    let lost = if a.is_ok() { &b } else { &a };
    assert!(matches!(lost, Err(EventError::Changed { .. })), "{lost:?}");
    let (text, version) = s.event("C").await.unwrap().unwrap();
    assert_eq!(version, 2);
    assert_eq!(s.event_log("C").await.unwrap().len(), 2);
    assert_eq!(text, if a.is_ok() { "a" } else { "b" });
}

/// A game's row and log, beside the events: created, commands logged (a bad append fails
/// alone), finished, read back in order.
async fn games_keep_their_command_logs(s: &Store) {
    let hashes = ["h1".to_string(), "h2".to_string()];
    let new = |id| NewGame {
        id,
        kind: Kind::Xiangqi,
        ruleset: "online",
        rules: "cxa",
        clock: Some((60_000, 2_000)),
        per_move: None,
        token_hashes: &hashes,
        arbiter_hash: (id == "g1").then_some("ha"),
        created_unix_ms: 1_700_000_000_000,
        computer: None,
    };
    s.create_game(&new("g1")).await.unwrap();
    s.create_game(&new("g2")).await.unwrap();
    assert!(s.create_game(&new("g1")).await.is_err(), "ids are unique");
    let log = s.command_log();
    let id: Arc<str> = "g1".into();
    let entry = |seq, side, cmd: &str| (id.clone(), seq, seq as u64 * 10, side, cmd.to_string());
    let (ok, dup) = tokio::join!(
        log.append(vec![entry(0, Side::First, "start"), entry(1, Side::First, "move h2e2")]),
        log.append(vec![entry(1, Side::Second, "move h9g7")]),
    );
    assert!(ok.is_ok(), "{ok:?}");
    assert!(dup.is_err(), "seq 1 is taken: all or none");
    log.append(vec![entry(2, Side::Second, "move h9g7")]).await.unwrap();
    s.finish_game("g2", "aborted").await.unwrap();
    assert_eq!(s.unfinished_games().await.unwrap(), ["g1"]);
    let g = s.game("g1").await.unwrap().unwrap();
    assert_eq!(
        (g.kind, g.ruleset.as_str(), g.rules.as_str()),
        (Kind::Xiangqi, "online", "cxa")
    );
    assert_eq!(
        (g.clock, g.token_hashes, g.created_unix_ms),
        (Some((60_000, 2_000)), hashes.clone(), 1_700_000_000_000)
    );
    // The arbiter's token hash where the game has an arbiter, none where it has not.
    assert_eq!(g.arbiter_hash.as_deref(), Some("ha"));
    assert_eq!(s.game("g2").await.unwrap().unwrap().arbiter_hash, None);
    assert_eq!(
        g.commands,
        [
            (0, Side::First, "start".to_string()),
            (10, Side::First, "move h2e2".to_string()),
            (20, Side::Second, "move h9g7".to_string())
        ]
    );
    assert!(s.game("nope").await.unwrap().is_none());
    // How long each log is, from its end: none for a game without commands or no game.
    assert_eq!(s.logged_commands("g1").await.unwrap(), 3);
    assert_eq!(s.logged_commands("g2").await.unwrap(), 0);
    assert_eq!(s.logged_commands("nope").await.unwrap(), 0);
}

/// A round's games, their first commands and their links to the event's pairings are made
/// together (more than one INSERT's worth of rows), or none of them is.
async fn a_round_is_made_all_or_none(s: &Store) {
    const HASHES: &[String; 2] = &[String::new(), String::new()];
    fn round(ids: &[String], first: usize) -> Vec<NewEventGame<'_>> {
        ids.iter()
            .enumerate()
            .map(|(n, id)| NewEventGame {
                game: NewGame {
                    id,
                    kind: Kind::Chess,
                    ruleset: "online",
                    rules: "fide",
                    clock: None,
                    per_move: None,
                    token_hashes: HASHES,
                    arbiter_hash: Some("org"),
                    created_unix_ms: 5,
                    computer: None,
                },
                event: "C",
                pairing: "1",
                number: (first + n) as u32,
            })
            .collect()
    }
    let starts = |ids: &[String]| {
        ids.iter()
            .map(|id| (Arc::from(id.as_str()), 0, 0, Side::First, "start".to_string()))
            .collect::<Vec<_>>()
    };
    let ids: Vec<String> = (1..=130).map(|n| format!("r{n}")).collect();
    s.create_event_games(&round(&ids, 1), &starts(&ids)).await.unwrap();
    let linked = s.event_games("C").await.unwrap();
    assert_eq!(linked.len(), 130);
    assert!(linked.iter().all(|g| g.game_id == format!("r{}", g.game) && !g.entered));
    let g = s.game("r130").await.unwrap().unwrap();
    assert_eq!((g.arbiter_hash.as_deref(), g.created_unix_ms), (Some("org"), 5));
    assert_eq!(g.commands, [(0, Side::First, "start".to_string())]);
    // Game 130 of the pairing is linked already: the whole round fails, none of it is made.
    let again: Vec<String> = (1..=3).map(|n| format!("x{n}")).collect();
    assert!(s
        .create_event_games(&round(&again, 128), &starts(&again))
        .await
        .is_err());
    for id in &again {
        assert!(s.game(id).await.unwrap().is_none(), "{id} was made");
    }
    assert_eq!(s.event_games("C").await.unwrap().len(), 130);
}

async fn everything(s: &Store) {
    events_keep_their_versions_and_changes(s).await;
    concurrent_changes_take_turns(s).await;
    games_keep_their_command_logs(s).await;
    a_round_is_made_all_or_none(s).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_and_games_in_one_sqlite_file() {
    let path = temp_file("one-file");
    {
        let s = Store::open(&store::Target::File(path.clone())).await.unwrap();
        everything(&s).await;
        s.close().await;
    }
    // Reopened: all there, the migrations not run twice.
    let s = Store::open(&store::Target::File(path.clone())).await.unwrap();
    assert_eq!(s.events().await.unwrap(), [("C".to_string(), 2)]);
    assert_eq!(s.game("g1").await.unwrap().unwrap().commands.len(), 3);
    s.close().await;
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_and_games_in_memory() {
    everything(&Store::memory().await.unwrap()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_and_games_in_one_postgresql_database() {
    let Some(db) = Scratch::postgres("events_and_games_in_one_postgresql_database") else {
        return;
    };
    let s = Store::connect(&db.url).await.unwrap();
    assert!(s.is_postgres());
    everything(&s).await;
    s.close().await;
    // Reopened: the migrations are recorded, not run twice.
    let s = Store::connect(&db.url).await.unwrap();
    assert_eq!(s.events().await.unwrap(), [("C".to_string(), 2)]);
    s.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_name_a_url_would_misread_opens() {
    let path = temp_file("odd-name").with_file_name("a b?#%.db");
    let s = Store::open(&store::Target::File(path.clone())).await.unwrap();
    s.create_event("A", "x").await.unwrap();
    s.close().await;
    assert!(path.exists(), "{}", path.display());
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

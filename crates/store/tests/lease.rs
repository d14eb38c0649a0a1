//! Several servers on one database: node leases, game owners, takeover and fencing, the same
//! on SQLite and on PostgreSQL (a fresh database per test, SKIPPED without a server unless
//! CI=true).

use std::sync::Arc;
use std::time::Duration;

use game::{Kind, Side};
use store::lease::is_fenced;
use store::scratch::Scratch;
use store::{LeaseError, NewGame, Store};

async fn game(s: &Store, id: &str) {
    let hashes = [String::from("h1"), String::from("h2")];
    s.create_game(&NewGame {
        id,
        kind: Kind::Xiangqi,
        ruleset: "online",
        rules: "cxa",
        clock: None,
        per_move: None,
        token_hashes: &hashes,
        arbiter_hash: None,
        created_unix_ms: 1_700_000_000_000,
        computer: None,
    })
    .await
    .unwrap();
}

fn entry(id: &str, seq: usize, command: &str) -> store::Entry {
    (Arc::from(id), seq, 0, Side::First, command.into())
}

/// A name is one live node's; an ended lease can be taken again, at a higher epoch.
async fn a_lease_is_one_nodes(s: &Store) {
    let a = s.join("a", 60_000).await.unwrap();
    assert!(matches!(s.join("a", 60_000).await, Err(LeaseError::Held(_))));
    s.renew(&a, 60_000).await.unwrap();
    let b = s.join("b", 60_000).await.unwrap();
    assert_eq!(s.live_nodes().await.unwrap(), ["a", "b"]);
    s.advertise(&a, "http://10.0.0.1:8080").await.unwrap();
    let urls = s.node_urls().await.unwrap();
    assert_eq!(
        urls,
        [("a".into(), Some("http://10.0.0.1:8080".into())), ("b".into(), None)]
    );
    s.leave(&a).await.unwrap();
    assert_eq!(s.live_nodes().await.unwrap(), ["b"]);
    assert!(matches!(s.renew(&a, 60_000).await, Err(LeaseError::Lost(_))));
    assert!(
        matches!(s.advertise(&a, "http://x").await, Err(LeaseError::Lost(_))),
        "an ended lease advertises nothing"
    );
    let a2 = s.join("a", 60_000).await.unwrap();
    assert!(a2.epoch > a.epoch, "{a2:?} after {a:?}");
    assert_eq!(
        s.node_urls().await.unwrap()[0].1.as_deref(),
        Some("http://10.0.0.1:8080"),
        "kept across leases"
    );
    s.leave(&a2).await.unwrap();
    s.leave(&b).await.unwrap();
}

/// A node pauses (its lease runs out); another takes its games over; the paused node wakes and
/// cannot write a command, nor renew, nor move a game — and what it committed before the
/// takeover is in the log the new owner reads.
async fn a_paused_owner_cannot_write_after_a_takeover(s: &Store) {
    let old = s.join("old", 300).await.unwrap();
    let new = s.join("new", 60_000).await.unwrap();
    for id in ["t1", "t2"] {
        game(s, id).await;
        s.own_game(&old, id).await.unwrap();
    }
    let old_log = s.fenced_command_log(old.clone());
    old_log.append(vec![entry("t1", 0, "start")]).await.unwrap();
    assert!(s.take_over(&new, "old").await.unwrap().is_empty(), "its lease is alive");
    assert_eq!(s.owner("t1").await.unwrap().as_deref(), Some("old"));

    // The old node is paused past its lease.
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(s.dead_owners().await.unwrap(), ["old"]);
    let mut taken = s.take_over(&new, "old").await.unwrap();
    taken.sort();
    assert_eq!(taken, ["t1", "t2"]);
    assert!(s.take_over(&new, "old").await.unwrap().is_empty(), "taken once");
    assert!(s.dead_owners().await.unwrap().is_empty());
    assert_eq!(s.owned_games("new").await.unwrap(), ["t1", "t2"]);
    let read = s.game("t1").await.unwrap().unwrap();
    assert_eq!(read.commands.len(), 1, "the commit before the takeover is kept");

    // The old node wakes: it was not told, and tries to go on.
    let e = old_log.append(vec![entry("t1", 1, "move h2e2")]).await.unwrap_err();
    assert!(is_fenced(&e), "{e}");
    assert!(matches!(s.renew(&old, 60_000).await, Err(LeaseError::Lost(_))));
    assert!(matches!(s.hand_over(&old, "t1", "old").await, Err(LeaseError::Lost(_))));
    // Even a new lease under the old name writes with the new epoch only: the old log stays
    // fenced.
    let again = s.join("old", 60_000).await.unwrap();
    assert!(is_fenced(
        &old_log.append(vec![entry("t1", 1, "move h2e2")]).await.unwrap_err()
    ));
    let read = s.game("t1").await.unwrap().unwrap();
    assert_eq!(read.commands.len(), 1, "nothing of the fenced node's was written");

    // The new owner writes on.
    let new_log = s.fenced_command_log(new.clone());
    new_log.append(vec![entry("t1", 1, "move b2e2")]).await.unwrap();
    assert_eq!(s.game("t1").await.unwrap().unwrap().commands.len(), 2);

    // A draining node hands a game over; a game not its own is refused.
    assert!(s.hand_over(&new, "t2", "old").await.unwrap());
    assert!(!s.hand_over(&new, "t2", "new").await.unwrap(), "t2 is old's now");
    assert_eq!(s.owner("t2").await.unwrap().as_deref(), Some("old"));
    s.leave(&again).await.unwrap();
    s.leave(&new).await.unwrap();
}

/// Commits and a takeover racing: every append acknowledged is in the log afterwards, every
/// one refused is not, and after the takeover nothing more gets in.
async fn commits_racing_a_takeover_lose_nothing(s: &Store) {
    let old = s.join("racer", 500).await.unwrap();
    let new = s.join("taker", 60_000).await.unwrap();
    game(s, "r1").await;
    s.own_game(&old, "r1").await.unwrap();
    let log = s.fenced_command_log(old.clone());
    let writer = tokio::spawn(async move {
        let mut acked = Vec::new();
        for seq in 0..2_000 {
            match log.append(vec![entry("r1", seq, &format!("move {seq}"))]).await {
                Ok(()) => acked.push(seq),
                Err(e) => {
                    assert!(is_fenced(&e), "{e}");
                    break;
                }
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        acked
    });
    let taken = loop {
        let t = s.take_over(&new, "racer").await.unwrap();
        if !t.is_empty() {
            break t;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(taken, ["r1"]);
    let acked = writer.await.unwrap();
    let logged = s.game("r1").await.unwrap().unwrap().commands;
    assert_eq!(
        logged.len(),
        acked.len(),
        "acknowledged {} logged {}",
        acked.len(),
        logged.len()
    );
    assert!(!acked.is_empty());
    s.leave(&new).await.unwrap();
}

/// A game no node owns is placed once: a second claim finds it owned; a node whose lease
/// ended places nothing.
async fn a_game_is_placed_once(s: &Store) {
    let a = s.join("pa", 60_000).await.unwrap();
    let b = s.join("pb", 60_000).await.unwrap();
    game(s, "p1").await;
    assert_eq!(s.owner("p1").await.unwrap(), None);
    assert!(s.place_game(&a, "p1", "pb").await.unwrap(), "placed by a on b");
    assert!(!s.place_game(&b, "p1", "pb").await.unwrap(), "already b's");
    assert!(!s.place_game(&a, "p1", "pa").await.unwrap(), "already b's");
    assert_eq!(s.owner("p1").await.unwrap().as_deref(), Some("pb"));
    game(s, "p2").await;
    s.leave(&a).await.unwrap();
    assert!(matches!(s.place_game(&a, "p2", "pa").await, Err(LeaseError::Lost(_))));
    assert_eq!(s.owner("p2").await.unwrap(), None, "a failed placement changes nothing");
    // Over, so that b, gone, leaves no game to take over in the tests after this one.
    s.finish_game("p1", "resignation").await.unwrap();
    s.leave(&b).await.unwrap();
}

async fn all(s: &Store) {
    a_lease_is_one_nodes(s).await;
    a_game_is_placed_once(s).await;
    a_paused_owner_cannot_write_after_a_takeover(s).await;
    commits_racing_a_takeover_lose_nothing(s).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leases_on_sqlite() {
    let dir = std::env::temp_dir().join(format!("arbiter-store-lease-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let s = Store::connect(&format!("sqlite:{}?mode=rwc", dir.join("l.db").display()))
        .await
        .unwrap();
    all(&s).await;
    s.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leases_on_postgresql() {
    let Some(db) = Scratch::postgres("leases_on_postgresql") else {
        return;
    };
    let s = Store::connect(&db.url).await.unwrap();
    all(&s).await;
    s.close().await;
}

//! In-process checks of what the API tests cannot see: the parsed event a server keeps is
//! never read in place of a newer stored one, and results that end together go in together,
//! each its own change.

use std::sync::Arc;
use std::time::Duration;

use game::Side;
use referee::Command;
use tournament::competition::Verdict;

use super::create::CreateEvent;
use super::{change_locked, load, rounds, Done, Extra};
use crate::app::App;
use crate::codec::token_hash;
use crate::db::Db;

/// A served round robin of `players`, registered with tokens `t1`, `t2`, …
async fn round_robin(players: u32) -> (Arc<App>, &'static str) {
    let app = Arc::new(App::new(Db::connect("sqlite::memory:").await.unwrap()));
    let req: CreateEvent = serde_json::from_value(serde_json::json!({
        "name": "Club", "format": "round-robin", "kind": "xiangqi",
        "clock": {"limit": 0, "increment": 0},
    }))
    .unwrap();
    let (event, served) = super::create::event_of(&req).unwrap();
    let id = "T";
    app.db()
        .store()
        .create_served_event(id, &event.to_text(), &served, &token_hash("org"))
        .await
        .unwrap();
    let lock = app.events.lock(id);
    let held = lock.lock().await;
    for n in 1..=players {
        change_locked(&app, id, &held, |e, _| {
            let n = e.register(&format!("P{n}"), 0, "", &[]).unwrap();
            Ok(Done::new(format!("register {n}"), ()).with(Extra::Token {
                hash: token_hash(&format!("t{n}")),
                entrant: n,
            }))
        })
        .await
        .unwrap();
    }
    drop(held);
    (app, id)
}

/// Reads come from the kept state only while the store is at its version: a change made
/// past this server (the command line's) is read at once, and a change of the server's is
/// the stored one.
#[tokio::test]
async fn the_kept_event_is_never_stale() {
    let (app, id) = round_robin(4).await;
    let store = app.db().store();
    let (first, v, _) = load(&app, id).await.unwrap();
    let (again, _, _) = load(&app, id).await.unwrap();
    assert!(Arc::ptr_eq(&first, &again), "read again from what is kept");
    // The command line registers a fifth player, straight into the store.
    let mut cli = tournament::competition::Event::clone(&first);
    cli.register("Cli", 0, "", &[]).unwrap();
    store.save_event(id, v, &cli.to_text(), "register 5 Cli").await.unwrap();
    let (read, read_v, _) = load(&app, id).await.unwrap();
    assert_eq!((read.entrants.len(), read_v), (5, v + 1));
    // A change of the server's: what it keeps is what the store holds.
    let lock = app.events.lock(id);
    let held = lock.lock().await;
    let (saved, saved_v, ()) = change_locked(&app, id, &held, |e, _| {
        e.register("Six", 0, "", &[]).unwrap();
        Ok(Done::new("register 6 Six", ()))
    })
    .await
    .unwrap();
    drop(held);
    let (read, read_v, _) = load(&app, id).await.unwrap();
    assert!(Arc::ptr_eq(&saved, &read) && read_v == saved_v);
    let (text, _) = store.event(id).await.unwrap().unwrap();
    assert_eq!(tournament::competition::Event::from_text(&text).unwrap(), *read);
}

/// Four games of a round end at once: every result is entered, each as its own change with
/// its own version, and every game is marked entered.
#[tokio::test]
async fn results_that_end_together_all_go_in() {
    let (app, id) = round_robin(8).await;
    let (round, _) = rounds::start(&app, id).await.unwrap();
    assert_eq!(round.pairings.len(), 4);
    let store = app.db().store();
    let links = store.event_games(id).await.unwrap();
    assert_eq!(links.len(), 4);
    let before = store.event_version(id).await.unwrap().unwrap();
    let mut tables = Vec::new();
    for g in &links {
        tables.push(app.game(&g.game_id).await.unwrap());
    }
    // Black resigns on every board at once.
    let resigned = tables.iter().map(|t| t.act(Side::Second, Command::Resign, 0));
    for r in futures_util::future::join_all(resigned).await {
        r.unwrap();
    }
    let mut version = app.events.watch(id);
    tokio::time::timeout(Duration::from_secs(10), version.wait_for(|v| *v >= before + 4))
        .await
        .expect("all four results entered")
        .unwrap();
    let (event, v, _) = load(&app, id).await.unwrap();
    assert_eq!(v, before + 4);
    assert!(event.open_pairing_ids().is_empty());
    for p in &round.pairings {
        assert_eq!(
            event.verdict(&p.id),
            Some(Verdict::Won(tournament::competition::Side::First)),
            "{}",
            p.id
        );
    }
    let log = store.event_log(id).await.unwrap();
    let results: Vec<u64> = log
        .iter()
        .filter(|c| c.action.starts_with("result "))
        .map(|c| c.version)
        .collect();
    assert_eq!(results, (before + 1..=before + 4).collect::<Vec<_>>(), "{log:?}");
    assert!(store.unentered_event_games().await.unwrap().is_empty());
}

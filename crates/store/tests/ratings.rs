//! Rating lists, the same on SQLite (a file and memory) and on PostgreSQL (a fresh database per
//! test, SKIPPED without a server unless CI=true).

use store::ratings::{Origin, Rated, System};
use store::scratch::Scratch;
use store::{RatingError, Store};

fn rated(player: &str, origin: Origin, before: &str, after: &str) -> Rated {
    Rated {
        player: player.into(),
        origin,
        before: before.into(),
        after: after.into(),
    }
}

fn standings(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
}

/// A list created by its first update, then updated from the version read; every update's
/// changes are in the history; a stale, misdirected or unknown update changes nothing.
async fn a_list_keeps_standings_versions_and_history(s: &Store) {
    assert_eq!(s.rating_list("Club").await.unwrap(), None);
    let first = [
        rated("A", Origin::New, r#"{"p":0}"#, r#"{"p":10}"#),
        rated("B", Origin::Start, r#"{"p":50}"#, r#"{"p":40}"#),
    ];
    assert_eq!(
        s.update_ratings("Club", System::Levels, 0, "event 1", &first)
            .await
            .unwrap(),
        1
    );
    let list = s.rating_list("Club").await.unwrap().unwrap();
    assert_eq!((list.system, list.version), (System::Levels, 1));
    assert_eq!(list.standings, standings(&[("A", r#"{"p":10}"#), ("B", r#"{"p":40}"#)]));
    // Created again from "nothing": someone else's came first.
    let again = s.update_ratings("Club", System::Levels, 0, "event 1", &first).await;
    assert!(matches!(again, Err(RatingError::Changed { read: 0, .. })), "{again:?}");
    let second = [
        rated("B", Origin::List, r#"{"p":40}"#, r#"{"p":52}"#),
        rated("C", Origin::New, r#"{"p":0}"#, r#"{"p":-12}"#),
    ];
    assert_eq!(
        s.update_ratings("Club", System::Levels, 1, "event 2", &second)
            .await
            .unwrap(),
        2
    );
    // Some players' standings only (one not in the list, one named twice), at the same version.
    let some = s.rating_list_of("Club", &["C", "Z", "A", "C"]).await.unwrap().unwrap();
    assert_eq!((some.system, some.version), (System::Levels, 2));
    assert_eq!(
        some.standings,
        standings(&[("A", r#"{"p":10}"#), ("C", r#"{"p":-12}"#)])
    );
    assert_eq!(s.rating_list_of("Nope", &["A"]).await.unwrap(), None);
    // When a player was last rated: now, in Unix seconds; never, for one not in the history.
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    let at = s.last_rated("Club", "C").await.unwrap().expect("C was rated");
    assert!((at - now).abs() < 120, "{at} vs {now}");
    assert_eq!(s.last_rated("Club", "Z").await.unwrap(), None);
    // Stale, another system, no such list: all refused.
    let stale = s.update_ratings("Club", System::Levels, 1, "late", &second[..1]).await;
    assert!(matches!(stale, Err(RatingError::Changed { read: 1, .. })), "{stale:?}");
    let other = s.update_ratings("Club", System::Elo, 2, "elo", &second[..1]).await;
    assert!(matches!(other, Err(RatingError::OtherSystem { .. })), "{other:?}");
    let none = s.update_ratings("Nope", System::Elo, 3, "x", &second[..1]).await;
    assert!(matches!(none, Err(RatingError::NoList(_))), "{none:?}");
    let list = s.rating_list("Club").await.unwrap().unwrap();
    assert_eq!(list.version, 2);
    assert_eq!(
        list.standings,
        standings(&[("A", r#"{"p":10}"#), ("B", r#"{"p":52}"#), ("C", r#"{"p":-12}"#)])
    );
    let history = s.rating_history("Club").await.unwrap();
    let rows: Vec<_> = history
        .iter()
        .map(|h| (h.version, h.source.as_str(), h.rated.player.as_str(), h.rated.origin))
        .collect();
    assert_eq!(
        rows,
        [
            (1, "event 1", "A", Origin::New),
            (1, "event 1", "B", Origin::Start),
            (2, "event 2", "B", Origin::List),
            (2, "event 2", "C", Origin::New),
        ]
    );
    assert_eq!(history[2].rated, second[0]);
    assert_eq!(history[0].at.len(), 19, "{:?}", history[0].at);
    assert_eq!(
        s.rating_lists().await.unwrap(),
        [("Club".to_string(), "levels".to_string(), 2)]
    );
}

/// An empty list made first, then one update; the name is taken after.
async fn a_list_created_empty(s: &Store) {
    s.create_rating_list("Elo list", System::Elo).await.unwrap();
    let taken = s.create_rating_list("Elo list", System::Glicko2).await;
    assert!(
        matches!(&taken, Err(RatingError::Exists { system, .. }) if system == "elo"),
        "{taken:?}"
    );
    let list = s.rating_list("Elo list").await.unwrap().unwrap();
    assert_eq!((list.system, list.version, list.standings.len()), (System::Elo, 1, 0));
    let v = s
        .update_ratings("Elo list", System::Elo, 1, "x", &[rated("A", Origin::New, "{}", "{}")])
        .await
        .unwrap();
    assert_eq!(v, 2);
}

/// Two updates computed from the same version: one is saved whole, the other is told and
/// saved nothing (no standing, no history row of its).
async fn concurrent_updates_take_turns(s: &Store) {
    s.create_rating_list("Race", System::Glicko2).await.unwrap();
    let a = [rated("P", Origin::New, "0", "a1"), rated("Q", Origin::New, "0", "a2")];
    let b = [rated("P", Origin::New, "0", "b1"), rated("R", Origin::New, "0", "b2")];
    let (ra, rb) = tokio::join!(
        s.update_ratings("Race", System::Glicko2, 1, "a", &a),
        s.update_ratings("Race", System::Glicko2, 1, "b", &b)
    );
    assert_eq!([&ra, &rb].iter().filter(|r| r.is_ok()).count(), 1, "{ra:?} {rb:?}");
    let lost = if ra.is_ok() { &rb } else { &ra };
    assert!(matches!(lost, Err(RatingError::Changed { read: 1, .. })), "{lost:?}");
    let won = if ra.is_ok() { &a } else { &b };
    let list = s.rating_list("Race").await.unwrap().unwrap();
    assert_eq!(list.version, 2);
    let expected: Vec<(String, String)> = won.iter().map(|r| (r.player.clone(), r.after.clone())).collect();
    assert_eq!(list.standings, expected);
    let history = s.rating_history("Race").await.unwrap();
    assert_eq!(history.len(), 2);
    assert!(history.iter().all(|h| h.source == if ra.is_ok() { "a" } else { "b" }));
}

async fn everything(s: &Store) {
    a_list_keeps_standings_versions_and_history(s).await;
    a_list_created_empty(s).await;
    concurrent_updates_take_turns(s).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rating_lists_in_memory() {
    everything(&Store::memory().await.unwrap()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rating_lists_in_one_sqlite_file() {
    let dir = std::env::temp_dir().join(format!("arbiter-store-ratings-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("ratings.db");
    {
        let s = Store::open(&store::Target::File(path.clone())).await.unwrap();
        everything(&s).await;
        s.close().await;
    }
    // Reopened: all there.
    let s = Store::open(&store::Target::File(path)).await.unwrap();
    assert_eq!(s.rating_list("Club").await.unwrap().unwrap().standings.len(), 3);
    s.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rating_lists_in_postgresql() {
    let Some(db) = Scratch::postgres("rating_lists_in_postgresql") else {
        return;
    };
    let s = Store::connect(&db.url).await.unwrap();
    assert!(s.is_postgres());
    everything(&s).await;
    s.close().await;
}

//! The seeks table: a seek not asked after is dropped from the lobby, one taker of two, a taken
//! seek given back, cancelling only one's own and only while open, one rematch offer a game.

use store::{NewSeek, Store};

fn seek<'a>(id: &'a str, holder: &'a str, source_game: Option<&'a str>, now: i64) -> NewSeek<'a> {
    NewSeek {
        id,
        mode: if source_game.is_some() { "rematch" } else { "seek" },
        holder,
        name: Some("Ann"),
        kind: "xiangqi",
        time_control: "3+2",
        rated: true,
        colour: "first",
        source_game,
        game: None,
        now_unix_ms: now,
    }
}

#[tokio::test]
async fn seeks_are_listed_while_asked_after_and_taken_once() {
    let s = Store::memory().await.unwrap();
    assert!(s.create_seek(&seek("a", "session:ann", None, 1_000)).await.unwrap());
    assert!(s.create_seek(&seek("b", "session:bob", None, 1_000)).await.unwrap());
    // Ann's lobby asks at 20 s: hers is seen again; Bob's is not.
    let listed = s.lobby_seeks("session:ann", 0, 20_000).await.unwrap();
    assert_eq!(listed.len(), 2);
    // At 40 s, with 30 s to live, Bob's is gone and Ann's stays.
    let listed = s.lobby_seeks("session:cid", 10_000, 40_000).await.unwrap();
    let ids: Vec<&str> = listed.iter().map(|x| x.id.as_str()).collect();
    assert_eq!(ids, ["a"]);
    assert!(s.seek("b").await.unwrap().is_none());
    // Her own is not hers to take; of two takers one gets it.
    assert!(!s.take_seek("a", "session:ann", 10_000).await.unwrap());
    assert!(s.take_seek("a", "session:cid", 10_000).await.unwrap());
    assert!(!s.take_seek("a", "session:dan", 10_000).await.unwrap());
    // Taken: not cancelled; given back: open again, and cancelled by its seeker only.
    assert!(!s.cancel_seek("a", "session:ann").await.unwrap());
    s.release_seek("a", "session:cid").await.unwrap();
    assert!(!s.cancel_seek("a", "session:cid").await.unwrap());
    assert!(s.cancel_seek("a", "session:ann").await.unwrap());
    assert!(s.seek("a").await.unwrap().is_none());
    // One rematch offer a game.
    assert!(s.create_seek(&seek("r1", "session:ann", Some("g1"), 0)).await.unwrap());
    assert!(!s.create_seek(&seek("r2", "session:bob", Some("g1"), 0)).await.unwrap());
    assert_eq!(s.rematch_of("g1").await.unwrap().unwrap().holder, "session:ann");
}

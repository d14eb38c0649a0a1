//! Sessions nobody uses any more are forgotten: after a year unused, with the seats they held
//! alone; after a month, one that never did anything (no name, account or seat). A session in
//! use, or holding something, stays.

use game::Kind;
use store::{NewGame, Store};

const DAY: i64 = 24 * 3600 * 1000;

async fn game(s: &Store, id: &str) {
    s.create_game(&NewGame {
        id,
        kind: Kind::Xiangqi,
        ruleset: "online",
        rules: "cxa",
        clock: None,
        per_move: None,
        token_hashes: &["a".into(), "b".into()],
        arbiter_hash: None,
        created_unix_ms: 0,
        computer: None,
    })
    .await
    .unwrap();
}

#[tokio::test]
async fn sessions_nobody_uses_are_forgotten() {
    let s = Store::memory().await.unwrap();
    game(&s, "g").await;
    let now = 400 * DAY;
    // Made 400 days ago: one with a seat, one named, one that did nothing; one made then but
    // used yesterday; and three made 40 days ago in the same ways.
    for hash in ["old-seat", "old-name", "old-empty", "old-used"] {
        s.create_session(hash, 0).await.unwrap();
    }
    s.touch_session("old-used", now - DAY).await.unwrap();
    for hash in ["month-seat", "month-name", "month-empty", "new-empty"] {
        let made = if hash == "new-empty" { now - DAY } else { now - 40 * DAY };
        s.create_session(hash, made).await.unwrap();
    }
    for hash in ["old-name", "month-name"] {
        s.set_display_name(hash, "Ann").await.unwrap();
    }
    for (hash, token) in [("old-seat", "t1"), ("month-seat", "t2")] {
        let session = s.session(hash).await.unwrap().unwrap();
        s.hold_seat((hash, &session), "g", "first", token, 0).await.unwrap();
    }
    assert_eq!(s.session("old-used").await.unwrap().unwrap().seen_unix_ms, now - DAY);

    let forgotten = s.forget_sessions(now - 365 * DAY, now - 30 * DAY).await.unwrap();
    assert_eq!(forgotten, 4, "three a year unused, one a month unused and empty");
    for (hash, kept) in [
        ("old-seat", false),
        ("old-name", false),
        ("old-empty", false),
        ("old-used", true),
        ("month-seat", true),
        ("month-name", true),
        ("month-empty", false),
        ("new-empty", true),
    ] {
        assert_eq!(s.session(hash).await.unwrap().is_some(), kept, "{hash}");
    }
    // The forgotten session's seat went with it; the kept one's stays.
    let holders = s.seat_holders("g").await.unwrap();
    assert_eq!(holders, [("session:month-seat".to_string(), "first".to_string())]);
    // Again: nothing more to forget.
    assert_eq!(s.forget_sessions(now - 365 * DAY, now - 30 * DAY).await.unwrap(), 0);
}

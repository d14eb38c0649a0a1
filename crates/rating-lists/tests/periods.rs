//! An event is one rating period for the whole list; a site's game is one for its two players
//! only: under Glicko-2 the players of the list who did not play widen after an event, and stay
//! as they were after somebody else's game.

use std::time::{Duration, SystemTime};

use rating_lists::{rate_game_into, rate_into, Game, State};
use store::ratings::System;
use store::Store;

fn game(first: &str, second: &str, score: f64) -> Game {
    Game {
        first: first.into(),
        second: second.into(),
        score,
    }
}

async fn standing(s: &Store, list: &str, player: &str) -> State {
    let l = s.rating_list(list).await.unwrap().unwrap();
    let (_, text) = l.standings.iter().find(|(p, _)| p == player).unwrap();
    State::from_json(l.system, text).unwrap()
}

fn deviation(state: State) -> f64 {
    match state {
        State::Glicko2 { rating, .. } => rating.deviation,
        other => panic!("not Glicko-2: {other:?}"),
    }
}

#[tokio::test]
async fn a_game_rates_its_two_players_and_no_one_else() {
    let s = Store::memory().await.unwrap();
    // Carol plays once so the list holds her.
    let start = [game("Ann", "Bob", 1.0), game("Carol", "Dan", 0.5)];
    rate_into(&s, "site", Some(System::Glicko2), &start, "start", &Default::default())
        .await
        .unwrap();
    let carol = standing(&s, "site", "Carol").await;
    let ann = standing(&s, "site", "Ann").await;

    let report = rate_game_into(&s, "site", None, &game("Ann", "Bob", 0.0), "game 1", SystemTime::now())
        .await
        .unwrap();
    assert_eq!(report.version, 2);
    let players: Vec<&str> = report.rows.iter().map(|r| r.player.as_str()).collect();
    assert_eq!(players.len(), 2, "{players:?}");
    assert!(players.contains(&"Ann") && players.contains(&"Bob"), "{players:?}");
    assert_eq!(standing(&s, "site", "Carol").await, carol, "Carol did not play");
    let after = standing(&s, "site", "Ann").await;
    assert_ne!(after, ann, "Ann played and lost");
    assert!(deviation(after) < deviation(ann), "a game played narrows the deviation");
    let history = s.rating_history_of("site", "game 1").await.unwrap();
    assert_eq!(history.len(), 2);

    // A newcomer rated in a game of their own joins the list; nobody else moves.
    rate_game_into(&s, "site", None, &game("Eve", "Ann", 1.0), "game 2", SystemTime::now())
        .await
        .unwrap();
    assert_eq!(standing(&s, "site", "Carol").await, carol);
    assert!(matches!(
        standing(&s, "site", "Eve").await,
        State::Glicko2 { games: 1, .. }
    ));

    // An event, by contrast, is a period for the whole list: Carol, absent, widens.
    rate_into(
        &s,
        "site",
        None,
        &[game("Ann", "Bob", 0.5)],
        "event",
        &Default::default(),
    )
    .await
    .unwrap();
    assert!(deviation(standing(&s, "site", "Carol").await) > deviation(carol));
}

/// Time away widens a Glicko-2 deviation before the next game is rated: a game a year and a
/// half later is rated from a wider deviation than the stored one (and so moves the rating
/// more); one at once, from the stored one.
#[tokio::test]
async fn time_away_widens_the_deviation() {
    let s = Store::memory().await.unwrap();
    let now = SystemTime::now();
    for i in 0..10 {
        let g = game("Ann", "Bob", if i % 2 == 0 { 1.0 } else { 0.0 });
        rate_game_into(&s, "site", Some(System::Glicko2), &g, &format!("g{i}"), now)
            .await
            .unwrap();
    }
    let stored = deviation(standing(&s, "site", "Ann").await);
    let at_once = rate_game_into(&s, "site", None, &game("Ann", "Bob", 1.0), "soon", now)
        .await
        .unwrap();
    let before = |r: &rating_lists::Report| deviation(r.rows.iter().find(|r| r.player == "Ann").unwrap().before);
    assert!(
        (before(&at_once) - stored).abs() < 1.0,
        "{} vs {stored}",
        before(&at_once)
    );

    let stored = deviation(standing(&s, "site", "Ann").await);
    let later = now + Duration::from_secs(86_400 * 466);
    let back = rate_game_into(&s, "site", None, &game("Ann", "Bob", 1.0), "later", later)
        .await
        .unwrap();
    let widened = before(&back);
    assert!(widened > stored + 30.0, "{widened} after time away, {stored} stored");
    assert!(widened <= 350.0);
}

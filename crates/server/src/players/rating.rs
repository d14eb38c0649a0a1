//! Rated games played on the site: when one ends with a result, it is rated at once into the
//! site's rating list for its game (`online-xiangqi`, `online-chess`), Glicko-2 as lichess
//! rates: each game a rating period of its own in which only its two players change, by the same code as `arbiter rate` and an event's rating. Each game is rated once:
//! the list's history records the game's id as the update's source. Only accounts are rated
//! (a seek or challenge that is rated needs one at both seats); a rated game with a seat not
//! held by an account, or held by the same account twice, is left unrated and logged.

use std::time::SystemTime;

use game::{Kind, Outcome};
use rating_lists::Game;
use store::ratings::System;
use store::Store;

/// The site's rating list for games of `kind`.
pub fn list_of(kind: Kind) -> &'static str {
    match kind {
        Kind::Xiangqi => "online-xiangqi",
        Kind::Chess => "online-chess",
    }
}

/// The first player's score; `None` for no result.
fn first_score(outcome: Outcome) -> Option<f64> {
    match outcome {
        Outcome::FirstWins => Some(1.0),
        Outcome::SecondWins => Some(0.0),
        Outcome::Draw => Some(0.5),
        Outcome::Ongoing => None,
    }
}

/// The account holding each seat of `game_id` (first, second), if one does.
async fn accounts(store: &Store, game_id: &str) -> Result<[Option<String>; 2], sqlx::Error> {
    let mut out = [None, None];
    for (holder, side) in store.seat_holders(game_id).await? {
        let Some(name) = holder.strip_prefix("account:") else {
            continue;
        };
        let slot = if side == "first" { 0 } else { 1 };
        out[slot].get_or_insert_with(|| name.to_string());
    }
    Ok(out)
}

/// Rates game `game_id` of `kind`, just over with `outcome`, if it was rated; what it did, for
/// the log.
pub async fn rate_game(store: &Store, game_id: &str, kind: Kind, outcome: Outcome) -> Result<Rated, String> {
    let rated = store.game_terms(game_id).await.map_err(|e| e.to_string())?;
    if !matches!(rated, Some((_, true))) {
        return Ok(Rated::Casual);
    }
    let Some(score) = first_score(outcome) else {
        return Ok(Rated::Skipped("no result".into()));
    };
    let [Some(first), Some(second)] = accounts(store, game_id).await.map_err(|e| e.to_string())? else {
        return Ok(Rated::Skipped("a seat not held by an account".into()));
    };
    if first == second {
        return Ok(Rated::Skipped(format!("{first} held both seats")));
    }
    let list = list_of(kind);
    if !store
        .rating_history_of(list, game_id)
        .await
        .map_err(|e| e.to_string())?
        .is_empty()
    {
        return Ok(Rated::Already);
    }
    let game = Game { first, second, score };
    let report = rating_lists::rate_game_into(store, list, Some(System::Glicko2), &game, game_id, SystemTime::now())
        .await
        .map_err(|e| e.to_string())?;
    Ok(Rated::Into {
        list,
        version: report.version,
    })
}

/// What [`rate_game`] did.
#[derive(Debug, PartialEq)]
pub enum Rated {
    Casual,
    Already,
    Skipped(String),
    Into { list: &'static str, version: u64 },
}

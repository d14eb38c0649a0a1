//! Ratings when an event ends: its games played over the board are rated into the rating list
//! it named at creation (as `arbiter rate --list L --event E` rates them, by the same code),
//! once. The rating's update is recorded in the list's history under the event's name as its
//! source, in the update's own transaction; that record is what says the event was rated, so
//! neither a restart nor the command line rating it too rates it twice.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use rating_lists::{Game, State};
use serde_json::{json, Value};
use store::ratings::System;
use store::{RatingError, ServedEvent};
use tournament::competition::Event;

use crate::app::App;
use crate::error::ApiError;

fn rating_error(e: RatingError) -> ApiError {
    match e {
        RatingError::Database(e) => ApiError::Storage(e),
        e => ApiError::not_accepted(e.to_string()),
    }
}

fn system_of(name: Option<&str>) -> Result<Option<System>, ApiError> {
    name.map(|s| s.parse::<System>().map_err(ApiError::not_accepted))
        .transpose()
}

/// At creation: the list named exists under the system named, or there is a system to start
/// it with.
pub async fn check_list(app: &App, served: &ServedEvent) -> Result<(), ApiError> {
    let Some((list, system)) = &served.rating_list else {
        return Ok(());
    };
    let system = system_of(system.as_deref())?;
    let stored = app.db().store().rating_list(list).await.map_err(rating_error)?;
    match (stored, system) {
        (Some(l), Some(s)) if l.system != s => Err(ApiError::not_accepted(format!(
            "rating list {list:?} keeps {} ratings, not {s}",
            l.system
        ))),
        (None, None) => Err(ApiError::not_accepted(format!(
            "no rating list named {list:?}: give ratingSystem to start one"
        ))),
        _ => Ok(()),
    }
}

/// Rates event `id` into its list if it is over and not rated yet; the list's new version,
/// if this rated it. The caller holds the event's lock.
pub async fn rate_if_finished(
    app: &Arc<App>,
    id: &str,
    event: &Event,
    served: &ServedEvent,
) -> Result<Option<u64>, ApiError> {
    let Some((list, system)) = &served.rating_list else {
        return Ok(None);
    };
    if !event.finished() {
        return Ok(None);
    }
    let store = app.db().store();
    if !store
        .rating_history_of(list, id)
        .await
        .map_err(rating_error)?
        .is_empty()
    {
        return Ok(None);
    }
    let games: Vec<Game> = event
        .played_games()
        .into_iter()
        .map(|g| Game {
            first: g.red,
            second: g.black,
            score: g.score.points(),
        })
        .collect();
    // Forfeits and byes only: nothing to rate.
    if games.is_empty() {
        return Ok(None);
    }
    let report = rating_lists::rate_into(store, list, system_of(system.as_deref())?, &games, id, &BTreeMap::new())
        .await
        .map_err(|e| ApiError::not_accepted(format!("rating event {id} into {list:?}: {e}")))?;
    Ok(Some(report.version))
}

/// What the event's rating did to each player, by name: their standing before and after
/// and the change; empty until the event is rated.
pub async fn changes(app: &App, id: &str, served: &ServedEvent) -> Result<HashMap<String, Value>, ApiError> {
    let Some((list, _)) = &served.rating_list else {
        return Ok(HashMap::new());
    };
    let store = app.db().store();
    let Some(l) = store.rating_list(list).await.map_err(rating_error)? else {
        return Ok(HashMap::new());
    };
    let rows = store.rating_history_of(list, id).await.map_err(rating_error)?;
    let mut out = HashMap::new();
    for h in rows {
        let read = |text: &str| State::from_json(l.system, text).map_err(|e| ApiError::not_accepted(e.to_string()));
        let (before, after) = (read(&h.rated.before)?, read(&h.rated.after)?);
        out.insert(
            h.rated.player,
            json!({
                "before": before.shown(),
                "after": after.shown(),
                "change": after.change_from(&before),
                "version": h.version,
            }),
        );
    }
    Ok(out)
}

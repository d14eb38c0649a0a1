//! A round on the server: the event pairs it (or draws the bracket), and every game still to
//! play in it becomes a live refereed game, its seats held by the two entrants' own tokens,
//! its clocks running from then (a player who does not come loses by the ruleset's lateness
//! rule, where it has one).
//!
//! Which games should exist is read from the event itself: every open pairing of the current
//! stage needs a live game for its next game (`games entered + 1`, colours alternating as the
//! model gives them), a team pairing one for each board (colours alternating board by board),
//! and after a tie one for each board of its play-off match. So making them is one idempotent step, taken after a round is paired,
//! after each result (the next game of a match, a play-off game) and at startup (a round
//! paired just before a crash whose games were not all made).

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use game::BySide;
use tournament::competition::{Event, Round};

use super::{change_locked, event_error, load, model_error, spec_of, Done};
use crate::app::App;
use crate::error::ApiError;

/// Pairs the next round of event `id` and makes its games; returns the round.
pub async fn start(app: &Arc<App>, id: &str) -> Result<(Round, u64), ApiError> {
    settle(app, id).await?;
    let lock = app.events.lock(id);
    let held = lock.lock().await;
    let (event, version, round) = change_locked(app, id, &held, |e, _| {
        let open = e.open_pairing_ids();
        if !open.is_empty() {
            let open = open.join(", ");
            return Err(ApiError::bad(
                crate::error::Problem::RoundNotOver,
                format!("the round is not over: {open} still to play"),
            )
            .arg("pairings", open));
        }
        let round = e.pair().map_err(model_error)?;
        let stage = e.stages.len();
        let playoff = e.stages[stage - 1].playoffs.last() == Some(&round);
        let what = if playoff { "play-off" } else { "round" };
        let action = if e.plan.len() > 1 {
            format!("pair {what} {} of stage {stage}", round.number)
        } else {
            format!("pair {what} {}", round.number)
        };
        // A round paused and then decided (the organiser's results) is over: the new one plays.
        Ok(Done::new(action, round).with(super::Extra::Paused(false)))
    })
    .await?;
    make_games(app, id, &event).await?;
    drop(held);
    Ok((round, version))
}

/// How long a round's start waits for the results of games that have just ended.
const SETTLE: Duration = Duration::from_secs(2);

/// Waits, briefly, while a game of the event has ended but its result is not yet entered (its
/// entry runs on its own, a moment after the game ends): an organiser who starts the next
/// round the instant the last game ends finds the round over, not "still to play".
async fn settle(app: &Arc<App>, id: &str) -> Result<(), ApiError> {
    let give_up = Instant::now() + SETTLE;
    let mut saved = app.events.watch(id);
    loop {
        let games = app.db().store().event_games(id).await.map_err(event_error)?;
        let mut ended = false;
        for g in games.iter().filter(|g| !g.entered) {
            if let Ok(table) = app.game(&g.game_id).await {
                ended |= table.watch().borrow().1;
            }
        }
        if !ended || Instant::now() >= give_up {
            return Ok(());
        }
        let _ = tokio::time::timeout(Duration::from_millis(100), saved.changed()).await;
    }
}

/// Makes a live game for the next game of every open pairing that has none yet, and rates
/// the event if it is over. The caller holds the event's lock.
pub async fn make_games(app: &Arc<App>, id: &str, event: &Event) -> Result<usize, ApiError> {
    let store = app.db().store();
    let served = store
        .served_event(id)
        .await
        .map_err(event_error)?
        .ok_or_else(super::not_found)?;
    let linked: HashSet<(String, u32)> = store
        .event_games(id)
        .await
        .map_err(event_error)?
        .into_iter()
        .map(|g| (g.pairing, g.game))
        .collect();
    let mut tokens = store.token_hashes(id).await.map_err(event_error)?;
    // The organiser is the arbiter of every game of the event: their token opens its console.
    let organiser = tokens.remove(&super::tokens::ORGANISER);
    let token = |entrant: u32| {
        tokens
            .get(&entrant)
            .cloned()
            .ok_or_else(|| ApiError::not_accepted(format!("entrant {entrant} of {id} holds no token")))
    };
    let mut wanted = Vec::new();
    for pid in event.open_pairing_ids() {
        let Some(p) = event.pairing(&pid) else { continue };
        let Some(second) = p.second else { continue };
        // A match's next game; a team pairing's every board at once (of the play-off match on
        // the boards, after a tie).
        let due = event.games_due(&pid).unwrap_or(0);
        for game in p.games.len() as u32 + 1..=due {
            if linked.contains(&(p.id.clone(), game)) {
                continue;
            }
            // Who has red (white) as the model says: games 1, 3, 5 … of a match to the
            // first-named, boards 1, 3, 5 … of a team pairing (its team's token seats the
            // board's player), turned round in a play-off match on the boards.
            let (red, black) = if event.first_red(game) {
                (p.first, second)
            } else {
                (second, p.first)
            };
            let seats = BySide {
                first: token(red)?,
                second: token(black)?,
            };
            wanted.push((p.id.clone(), game, seats));
        }
    }
    let made = wanted.len();
    if made > 0 {
        let pairings: Vec<(String, u32)> = wanted.iter().map(|(p, g, _)| (p.clone(), *g)).collect();
        let ids = app
            .create_round_games(id, &spec_of(&served), organiser.as_deref(), wanted)
            .await?;
        for ((pairing, game), gid) in pairings.into_iter().zip(ids) {
            if served.paused {
                // The round is paused: its new game too, until the organiser resumes it.
                app.game(&gid)
                    .await?
                    .act(game::Side::First, referee::Command::Adjourn, 0)
                    .await?;
            }
            super::results::follow(
                app.clone(),
                store::EventGame {
                    event: id.to_string(),
                    pairing,
                    game,
                    game_id: gid,
                    entered: false,
                },
            );
        }
    }
    // The same step rates the event once it is over: after its last result, or at startup
    // for one that ended as the server stopped. A rating that fails (the list's system
    // changed meanwhile, the database away) leaves the results as they are and is tried again
    // at the next change or start.
    if let Err(e) = super::rating::rate_if_finished(app, id, event, &served).await {
        tracing::warn!(event = %id, error = %e, "event not rated");
    }
    Ok(made)
}

/// Makes the missing games of event `id` under its lock (startup).
pub async fn make_missing(app: &Arc<App>, id: &str) -> Result<usize, ApiError> {
    let lock = app.events.lock(id);
    let _held = lock.lock().await;
    let (event, _, _) = load(app, id).await?;
    make_games(app, id, &event).await
}

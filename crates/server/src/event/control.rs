//! The organiser's control of play and of what the public sees.
//!
//! Pausing the round in play adjourns every one of its live games through the referee's
//! `Adjourn` (each game's clocks stop, and the time adjourned is not counted against the
//! lateness limit); resuming resumes them (`Resume`). The pause is a change of the event, in
//! its log and on its stream, made before the games are adjourned: a server stopped half way
//! leaves a paused event whose remaining games the organiser's repeated pause adjourns (an
//! adjourned game's `Adjourn` is nothing to the referee). A game made while the round is
//! paused (a match's next game, after the organiser entered a result) is adjourned as it is
//! made; a new round cannot start before the paused one is over.
//!
//! Publishing standings keeps them as they are at the event's version then: an event created
//! with `publishStandings` shows the public those, and its pairings and results live; the
//! organiser always sees the live standings too.

use std::sync::Arc;

use game::Side;
use referee::Command;
use serde_json::{json, Value};
use tournament::competition::Event;

use super::{change_locked, event_error, load, Done, Extra};
use crate::app::App;
use crate::error::{ApiError, Problem};

/// The number of the round in play (of the current stage, play-offs included).
fn round_in_play(e: &Event) -> Option<u32> {
    let open = e.open_pairing_ids();
    let stage = e.stages.last()?;
    stage
        .rounds
        .iter()
        .chain(&stage.playoffs)
        .rfind(|r| r.pairings.iter().any(|p| open.contains(&p.id)))
        .map(|r| r.number)
}

/// Pauses (`pause`) or resumes the round in play: every live game of it whose result is not
/// in is adjourned or resumed. Each game's state after it, and the event's version.
pub async fn pause(app: &Arc<App>, id: &str, pause: bool) -> Result<Value, ApiError> {
    let lock = app.events.lock(id);
    let held = lock.lock().await;
    let (event, version, round) = change_locked(app, id, &held, |e, served| {
        let round = round_in_play(e).ok_or_else(|| ApiError::bad(Problem::NoRoundInPlay, "no round is in play"))?;
        if !pause && !served.paused {
            return Err(
                ApiError::bad(Problem::RoundNotPaused, format!("round {round} is not paused")).arg("round", round),
            );
        }
        let what = if pause { "pause" } else { "resume" };
        Ok(Done::new(format!("{what} round {round}"), round).with(Extra::Paused(pause)))
    })
    .await?;
    let open = event.open_pairing_ids();
    let links = app.db().store().event_games(id).await.map_err(event_error)?;
    let mut games = Vec::new();
    // The games still to be played: a match's current game, a team pairing's boards not in
    // yet (an earlier game whose result the organiser entered is no longer played).
    let teams = event.settings.boards > 0;
    let current = |g: &&store::EventGame| {
        let next = event.pairing(&g.pairing).map_or(0, |p| p.games.len() as u32 + 1);
        !g.entered && open.contains(&g.pairing) && if teams { g.game >= next } else { g.game == next }
    };
    for g in links.iter().filter(current) {
        let table = app.game(&g.game_id).await?;
        // Over, its result on its way into the event: nothing to adjourn.
        if table.watch().borrow().1 {
            continue;
        }
        let command = if pause { Command::Adjourn } else { Command::Resume };
        // About the board, not a side: entered as the first side's, as the console does.
        let ack = table.act(Side::First, command, 0).await?;
        games.push(json!({"id": g.game_id, "pairing": g.pairing, "status": ack.status, "reason": ack.reason}));
    }
    drop(held);
    Ok(json!({"round": round, "paused": pause, "games": games, "version": version}))
}

/// Publishes the event's standings as they are now; the version they are of.
pub async fn publish(app: &Arc<App>, id: &str) -> Result<Value, ApiError> {
    let lock = app.events.lock(id);
    let held = lock.lock().await;
    // The standings of the version read under the lock; the publication is the next change,
    // which leaves the document as it is.
    let (read_event, read, _) = load(app, id).await?;
    let standings = read_event
        .standings()
        .map_err(super::model_error)
        .and_then(|t| serde_json::to_string(&t).map_err(|e| ApiError::not_accepted(e.to_string())))?;
    let (_, version, ()) = change_locked(app, id, &held, |e, _| {
        if e.to_text() != read_event.to_text() {
            return Err(ApiError::of(
                axum::http::StatusCode::CONFLICT,
                crate::problem::Problem::EventChanged,
                "the event changed meanwhile; publish again",
            ));
        }
        Ok(
            Done::new(format!("publish standings of version {read}"), ()).with(Extra::Published {
                version: read,
                standings: standings.clone(),
            }),
        )
    })
    .await?;
    drop(held);
    Ok(json!({"published": read, "version": version}))
}

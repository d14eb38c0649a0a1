//! The organiser's results: entered or corrected with a reason (logged), and the live games
//! they leave without a purpose ended on the server. A game given a result ends with it as the
//! arbiter's decision; a game given a double forfeit (`--`, neither side credited), and a game
//! the results decided the pairing without (a match of N won in fewer games after a
//! correction, a play-off game after the tie it broke was corrected away), is called off by
//! the arbiter without a result. Either way its clocks stop, its players see why, and its
//! result is not entered again (the pairing has the organiser's).

use std::sync::Arc;

use game::Side;
use judge::Outcome;
use serde_json::Value;
use tournament::competition::{parse_game, Event};
use tournament::result::Score;

use super::results::{team_sheet, wanted};
use super::rounds::make_games;
use super::{change_locked, event_error, Done};
use crate::app::App;
use crate::error::ApiError;

/// The organiser enters or corrects a pairing's results, with a reason for the change log.
pub async fn organiser_result(
    app: &Arc<App>,
    id: &str,
    pairing: &str,
    results: &[String],
    replace: bool,
    reason: &str,
) -> Result<(Value, u64), ApiError> {
    if reason.trim().is_empty() {
        return Err(ApiError::bad(
            crate::error::Problem::ReasonNeeded,
            "a reason is needed (it goes in the change log)",
        ));
    }
    let lock = app.events.lock(id);
    let held = lock.lock().await;
    let (event, version, (entered, first)) = change_locked(app, id, &held, |e, _| {
        // The number of the first game (board) these results are for.
        let first = if replace {
            1
        } else {
            e.pairing(pairing).map_or(1, |p| p.games.len() as u32 + 1)
        };
        let results: Vec<&str> = results.iter().map(String::as_str).collect();
        let entered = e.result(pairing, &results, replace).map_err(super::model_error)?;
        let mut action = format!(
            "result {} {}{} by the organiser: {}",
            entered.id,
            results.join(" "),
            if replace { " (replacing)" } else { "" },
            reason.trim()
        );
        if let Some(lot) = &entered.lot {
            action.push_str(&format!("; {}", lot.how));
        }
        Ok(Done::new(action, (entered, first)))
    })
    .await?;
    end_decided_games(app, id, &event, &entered.id, first, results, reason.trim()).await?;
    make_games(app, id, &event).await?;
    let answer = serde_json::json!({
        "pairing": entered.id,
        "verdict": entered.verdict,
        "lot": entered.lot.map(|l| serde_json::json!({"winner": l.winner, "how": l.how})),
        "version": version,
    });
    Ok((answer, version))
}

/// What the organiser's `results` for `pairing` (game or board `first` onwards, as entered)
/// make of its live game `game`, the event being `event` after them: the arbiter's decision
/// and its reason, or `None` when the game goes on (the event still wants it). A decision
/// without a result ([`Outcome::Ongoing`]) calls the game off.
fn decision(
    event: &Event,
    pairing: &str,
    game: u32,
    first: u32,
    results: &[String],
    reason: &str,
) -> Option<(Outcome, String)> {
    let given = game.checked_sub(first).and_then(|k| results.get(k as usize));
    let Some(given) = given else {
        if wanted(event, pairing, game) {
            return None;
        }
        return Some((
            Outcome::Ongoing,
            format!(
                "the organiser's result {} decided the pairing without this game: {reason}",
                results.join(" ")
            ),
        ));
    };
    // Refused by the model before it got here: nothing to decide.
    let entered = parse_game(given).ok()?;
    if entered.double_forfeit {
        return Some((
            Outcome::Ongoing,
            format!("the organiser entered {given}, neither side credited: {reason}"),
        ));
    }
    let sheet = match entered.score {
        Score::Win => "1-0",
        Score::Loss => "0-1",
        Score::Draw => "1/2",
    };
    // The game's own scoresheet: a team's result reads from the first-named team's side.
    let sheet = if event.settings.boards > 0 {
        team_sheet(event.first_red(game), sheet)
    } else {
        sheet
    };
    let result = match sheet {
        "1-0" => Outcome::FirstWins,
        "0-1" => Outcome::SecondWins,
        _ => Outcome::Draw,
    };
    Some((result, format!("the organiser entered {given}: {reason}")))
}

/// Ends the live games of `pairing` still in play that the organiser's `results` (game or
/// board `first` onwards, as entered) decided or left without a purpose, each by the arbiter
/// ([`decision`]). A game over meanwhile is left as it ended.
async fn end_decided_games(
    app: &Arc<App>,
    id: &str,
    event: &Event,
    pairing: &str,
    first: u32,
    results: &[String],
    reason: &str,
) -> Result<(), ApiError> {
    let links = app.db().store().pairing_games(id, pairing).await.map_err(event_error)?;
    for g in links.iter().filter(|g| g.pairing == pairing && !g.entered) {
        let Some((result, reason)) = decision(event, pairing, g.game, first, results, reason) else {
            continue;
        };
        let table = app.game(&g.game_id).await?;
        if table.watch().borrow().1 {
            continue;
        }
        let command = referee::Command::Decide { result, reason };
        // About the board, not a side: entered as the first side's, as the console does. A
        // game that ended meanwhile refuses it, and stays as it ended.
        if let Err(e) = table.act(Side::First, command, 0).await {
            if !matches!(e, ApiError::Refused { .. }) {
                return Err(e);
            }
        }
    }
    Ok(())
}

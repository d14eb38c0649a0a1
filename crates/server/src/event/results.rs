//! Results into the event: when an event's live game ends, its result is entered into the
//! pairing — as its scoresheet reads, red's (white's) side first, which the model turns to the
//! first-named's — and the pairing's next game is made if the match goes on (the model
//! decides: clinched, tied into a play-off game, or lots). A team pairing's boards go in in
//! board order, from the first-named team's side (a tie's play-off match on the boards too).
//! A game whose result was not yet entered when the server stopped is entered at startup
//! ([`reconcile`]).

use std::sync::Arc;

use axum::http::StatusCode;
use game::{Kind, Side};
use serde_json::Value;
use store::{Also, EventGame};
use tokio::sync::oneshot;
use tournament::competition::{Event, Verdict};

use super::rounds::{make_games, make_missing};
use super::{event_error, load, saved_as};
use crate::app::App;
use crate::error::ApiError;

/// What a finished game comes to on the scoresheet (`1-0`, `0-1`, `1/2`, a forfeit `+-` or
/// `-+`), from the `state` of its `gameFull` line; `aborted_by` is the side whose abort ended
/// it, if one did.
pub fn scoresheet(kind: Kind, state: &Value, aborted_by: Option<Side>) -> Option<&'static str> {
    let winner = state["winner"].as_str();
    let first = Side::First.name(kind);
    let second = Side::Second.name(kind);
    match (state["reason"].as_str()?, winner) {
        // The referee's lateness rule: the absent side forfeits (not a game played).
        ("lateness", Some(w)) if w == first => Some("+-"),
        ("lateness", Some(w)) if w == second => Some("-+"),
        // Aborted before both sides moved: by a player, who refused to play, or by the server
        // for the side to move, who did not come (its abort is logged as theirs).
        ("aborted", _) => match aborted_by? {
            Side::First => Some("-+"),
            Side::Second => Some("+-"),
        },
        (_, Some(w)) if w == first => Some("1-0"),
        (_, Some(w)) if w == second => Some("0-1"),
        (_, None) => Some("1/2"),
        _ => None,
    }
}

/// Follows an event's live game until it ends, then enters its result. A failure (the event
/// changed by the command line at that moment, the database away) is tried again a few times;
/// a result still not entered is entered at the next start.
/// A game already followed here is not followed twice.
pub fn follow(app: Arc<App>, g: EventGame) {
    if !app.events.start_following(&g.game_id) {
        return;
    }
    tokio::spawn(async move {
        for attempt in 1..=TRIES {
            match await_and_enter(&app, &g).await {
                Ok(()) => break,
                Err(e) if attempt == TRIES => tracing::error!(
                    event = %g.event, pairing = %g.pairing, game = g.game, live_game = %g.game_id, error = %e,
                    "a game's result was not entered"
                ),
                Err(_) => tokio::time::sleep(std::time::Duration::from_millis(200 * attempt)).await,
            }
        }
        app.events.stop_following(&g.game_id);
    });
}

/// How many times a finished game's result is tried before it waits for the next start.
const TRIES: u64 = 4;

async fn await_and_enter(app: &Arc<App>, g: &EventGame) -> Result<(), ApiError> {
    let table = app.game(&g.game_id).await?;
    let mut rx = table.watch();
    let mut closing = app.closing();
    tokio::select! {
        r = rx.wait_for(|(_, over)| *over) => { r.map_err(|_| ApiError::Gone)?; }
        // The server stops: the result is entered at the next start.
        _ = closing.wait_for(|c| *c) => return Ok(()),
    }
    drop(rx);
    let (full, _) = table.full().await?;
    drop(table);
    enter_finished(app, g, &full).await
}

/// What finished live game `game_id` comes to on the scoresheet, and the referee's reason,
/// from its `gameFull` line `full`: no result for a game the arbiter called off.
async fn sheet_of(app: &Arc<App>, game_id: &str, full: &str) -> Result<(Option<&'static str>, String), ApiError> {
    let full: Value = serde_json::from_str(full).map_err(|e| ApiError::not_accepted(e.to_string()))?;
    let kind: Kind = full["kind"]
        .as_str()
        .unwrap_or("")
        .parse()
        .map_err(ApiError::not_accepted)?;
    let reason = full["state"]["reason"].as_str().unwrap_or("").to_string();
    if reason == CALLED_OFF {
        return Ok((None, reason));
    }
    let aborted_by = match full["state"]["reason"].as_str() {
        Some("aborted") => app.db().load(game_id).await?.and_then(|stored| {
            stored
                .commands
                .iter()
                .rev()
                .find(|(_, _, c)| c == "abort")
                .map(|(_, side, _)| *side)
        }),
        _ => None,
    };
    let result = scoresheet(kind, &full["state"], aborted_by)
        .ok_or_else(|| ApiError::not_accepted(format!("game {game_id} has no result")))?;
    Ok((Some(result), reason))
}

/// The referee's reason for a game the arbiter called off without a result.
pub(super) const CALLED_OFF: &str = "called_off";

/// Whether the event still wants the result of game (board) `game` of `pairing`: the pairing
/// is still to be decided and the game is its next (for teams, one of the boards of the match
/// now played). A game not wanted was overtaken: by a withdrawal, or by the organiser's result.
pub(super) fn wanted(event: &Event, pairing: &str, game: u32) -> bool {
    let next = event.pairing(pairing).map_or(0, |p| p.games.len() as u32 + 1);
    let pending = event.verdict(pairing) == Some(Verdict::Pending);
    let due = event.games_due(pairing).unwrap_or(0);
    pending
        && if event.settings.boards > 0 {
            (next..=due).contains(&game)
        } else {
            game == next
        }
}

/// A board's result as a team match sheet lists it, from the first-named team's side: its
/// scoresheet turned on the boards where that team has black (2, 4, …, and 1, 3, … of a
/// play-off match).
pub(super) fn team_sheet(first_red: bool, sheet: &'static str) -> &'static str {
    if first_red {
        return sheet;
    }
    match sheet {
        "1-0" => "0-1",
        "0-1" => "1-0",
        "+-" => "-+",
        "-+" => "+-",
        other => other,
    }
}

/// Who waits for a result to be entered, told whether it was (or why not).
type Waiter = oneshot::Sender<Result<(), String>>;

/// A finished game whose result waits to be entered, and who waits for it to be.
pub(super) struct Finished {
    g: EventGame,
    /// Its scoresheet result (none when the arbiter called it off) and the referee's reason.
    result: Option<&'static str>,
    reason: String,
    done: Waiter,
}

/// Enters the result of `g`, finished as its `gameFull` line `full` says; returns once it is
/// saved (or not wanted). The results of games that end while the event's lock is held go in
/// together when it is free: one read of the event and one transaction for all of them, each
/// its own line in the change log.
async fn enter_finished(app: &Arc<App>, g: &EventGame, full: &str) -> Result<(), ApiError> {
    let (result, reason) = sheet_of(app, &g.game_id, full).await?;
    let (done, entered) = oneshot::channel();
    app.events.queue_finished(
        &g.event,
        Finished {
            g: g.clone(),
            result,
            reason,
            done,
        },
    );
    {
        let lock = app.events.lock(&g.event);
        let held = lock.lock().await;
        // Empty when the holder before took this result in with its own.
        let batch = app.events.take_finished(&g.event);
        if !batch.is_empty() {
            enter_batch(app, &g.event, &held, batch).await;
        }
    }
    match entered.await {
        Ok(r) => r.map_err(|e| ApiError::malformed(StatusCode::SERVICE_UNAVAILABLE, e)),
        Err(_) => Err(ApiError::Gone),
    }
}

/// Enters `batch`, results of event `id`'s games, under its lock (`_held`), and tells each
/// waiter how it went: a result the model refuses fails alone; a failure to read or save the
/// event fails them all (each is tried again).
async fn enter_batch(app: &Arc<App>, id: &str, held: &tokio::sync::MutexGuard<'_, ()>, batch: Vec<Finished>) {
    let mut answers: Vec<(Waiter, Result<(), String>)> = Vec::new();
    let mut waiting = Vec::new();
    match apply_batch(app, id, held, batch, &mut answers, &mut waiting).await {
        Ok(()) => answers.extend(waiting.into_iter().map(|w| (w, Ok(())))),
        Err(e) => {
            let e = e.to_string();
            answers.extend(waiting.into_iter().map(|w| (w, Err(e.clone()))));
        }
    }
    for (waiter, answer) in answers {
        // A waiter gone (the server stopping) has nothing to be told.
        let _ = waiter.send(answer);
    }
}

/// Applies `batch` to the event and saves it; `answers` gets the results settled on their own
/// (refused by the model, or waiting for a board above), `waiting` those whose fate is the
/// save's.
async fn apply_batch(
    app: &Arc<App>,
    id: &str,
    _held: &tokio::sync::MutexGuard<'_, ()>,
    batch: Vec<Finished>,
    answers: &mut Vec<(Waiter, Result<(), String>)>,
    waiting: &mut Vec<Waiter>,
) -> Result<(), ApiError> {
    let store = app.db().store();
    let (read_event, read, _) = match load(app, id).await {
        Ok(loaded) => loaded,
        Err(e) => {
            waiting.extend(batch.into_iter().map(|f| f.done));
            return Err(e);
        }
    };
    let mut event = Event::clone(&read_event);
    drop(read_event);
    let teams = event.settings.boards > 0;
    let mut links: Option<Vec<EventGame>> = None;
    let mut actions = Vec::new();
    // Games marked entered with the save: those entered, and those not wanted.
    let mut marks: Vec<(String, u32)> = Vec::new();
    let mut rest = batch.into_iter();
    while let Some(f) = rest.next() {
        let g = &f.g;
        // Entered already, or not wanted: the pairing was decided meanwhile (a withdrawal, the
        // organiser's entry) or it has moved past this game.
        if !wanted(&event, &g.pairing, g.game) {
            marks.push((g.pairing.clone(), g.game));
            waiting.push(f.done);
            continue;
        }
        let Some(result) = f.result else {
            // Called off by the arbiter while the event still wants it (the organiser's later
            // correction reopened its match): it has no result to give; the organiser enters
            // the game's result.
            tracing::warn!(
                event = %id, pairing = %g.pairing, game = g.game, live_game = %g.game_id,
                "called off while the event wants it: its result waits for the organiser"
            );
            marks.push((g.pairing.clone(), g.game));
            waiting.push(f.done);
            continue;
        };
        // (game, result, the referee's reason, live game): this game, or the boards from the
        // next to go in down to the first still in play.
        let mut sheet = Vec::new();
        if !teams {
            sheet.push((g.game, result, f.reason.clone(), g.game_id.clone()));
        } else {
            if links.is_none() {
                match store.event_games(id).await {
                    Ok(l) => links = Some(l),
                    Err(e) => {
                        waiting.push(f.done);
                        waiting.extend(rest.map(|f| f.done));
                        return Err(event_error(e));
                    }
                }
            }
            match board_sheet(app, &event, g, result, &f.reason, links.as_deref().unwrap_or_default()).await {
                Ok(s) => sheet = s,
                Err(e) => {
                    waiting.push(f.done);
                    waiting.extend(rest.map(|f| f.done));
                    return Err(e);
                }
            }
            if !sheet.iter().any(|s| s.0 == g.game) {
                // A board above is still in play: this one goes in with it.
                answers.push((f.done, Ok(())));
                continue;
            }
        }
        let results: Vec<&str> = sheet.iter().map(|s| s.1).collect();
        let entered = match event.result(&g.pairing, &results, false) {
            Ok(entered) => entered,
            Err(e) => {
                answers.push((f.done, Err(e.message)));
                continue;
            }
        };
        let games: Vec<String> = sheet
            .iter()
            .map(|(n, r, why, live)| format!("{r} (game {n}, live game {live}: {why})"))
            .collect();
        let mut action = format!("result {} {}", entered.id, games.join(", "));
        if let Some(lot) = &entered.lot {
            action.push_str(&format!("; {}", lot.how));
        }
        actions.push(action);
        marks.extend(sheet.iter().map(|(n, ..)| (g.pairing.clone(), *n)));
        waiting.push(f.done);
    }
    if actions.is_empty() {
        let marks: Vec<(&str, u32)> = marks.iter().map(|(p, n)| (p.as_str(), *n)).collect();
        if !marks.is_empty() {
            store.mark_entered(id, &marks).await.map_err(event_error)?;
        }
        return Ok(());
    }
    let actions: Vec<&str> = actions.iter().map(String::as_str).collect();
    let also: Vec<Also<'_>> = marks
        .iter()
        .map(|(pairing, game)| Also::Entered { pairing, game: *game })
        .collect();
    let version = store
        .save_event_changes(id, read, &event.to_text(), &actions, &also)
        .await
        .map_err(event_error)?;
    let event = Arc::new(event);
    saved_as(app, id, version, &event);
    make_games(app, id, &event).await?;
    Ok(())
}

/// A team pairing's boards that go in with board `g`: from the next to go in down to the
/// first still in play, each as the first-named team's match sheet lists it.
async fn board_sheet(
    app: &Arc<App>,
    event: &Event,
    g: &EventGame,
    result: &'static str,
    reason: &str,
    links: &[EventGame],
) -> Result<Vec<(u32, &'static str, String, String)>, ApiError> {
    let next = event.pairing(&g.pairing).map_or(0, |p| p.games.len() as u32 + 1);
    let due = event.games_due(&g.pairing).unwrap_or(0);
    let mut sheet = Vec::new();
    for board in next..=due {
        if board == g.game {
            sheet.push((
                board,
                team_sheet(event.first_red(board), result),
                reason.to_string(),
                g.game_id.clone(),
            ));
            continue;
        }
        let Some(link) = links.iter().find(|l| l.pairing == g.pairing && l.game == board) else {
            break;
        };
        let table = app.game(&link.game_id).await?;
        if !table.watch().borrow().1 {
            break;
        }
        let (full, _) = table.full().await?;
        drop(table);
        // A board called off waits for the organiser's result, as one still in play.
        let (Some(r), why) = sheet_of(app, &link.game_id, &full).await? else {
            break;
        };
        sheet.push((board, team_sheet(event.first_red(board), r), why, link.game_id.clone()));
    }
    Ok(sheet)
}

/// At startup: every event game whose result is not entered is entered now if it is over, or
/// followed until it is; then every served event gets the games it should have.
pub async fn reconcile(app: &Arc<App>) -> Result<usize, ApiError> {
    let store = app.db().store();
    let open = store.unentered_event_games().await.map_err(event_error)?;
    let mut entered = 0;
    for g in open {
        let table = app.game(&g.game_id).await?;
        let over = table.watch().borrow().1;
        if over {
            let (full, _) = table.full().await?;
            drop(table);
            enter_finished(app, &g, &full).await?;
            entered += 1;
        } else {
            drop(table);
            follow(app.clone(), g);
        }
    }
    for id in store.served_events().await.map_err(event_error)? {
        make_missing(app, &id).await?;
    }
    Ok(entered)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn outcomes_read_as_scoresheets() {
        let x = Kind::Xiangqi;
        let sheet = |state: Value| scoresheet(x, &state, None);
        assert_eq!(sheet(json!({"reason": "checkmate", "winner": "red"})), Some("1-0"));
        assert_eq!(sheet(json!({"reason": "resignation", "winner": "black"})), Some("0-1"));
        assert_eq!(sheet(json!({"reason": "agreement", "winner": null})), Some("1/2"));
        assert_eq!(sheet(json!({"reason": "lateness", "winner": "black"})), Some("-+"));
        let white_on_time = json!({"reason": "lateness", "winner": "white"});
        assert_eq!(scoresheet(Kind::Chess, &white_on_time, None), Some("+-"));
        let aborted = json!({"reason": "aborted", "winner": null});
        assert_eq!(scoresheet(x, &aborted, Some(Side::First)), Some("-+"));
        assert_eq!(scoresheet(x, &aborted, Some(Side::Second)), Some("+-"));
        assert_eq!(sheet(json!({"reason": null})), None, "not over");
    }

    /// A no-show under a ruleset with a lateness limit (`cxa`: 15 minutes): the game started
    /// with the round, the side to move never moved, the referee rules lateness when the server
    /// ticks, and the scoresheet reads a forfeit against them.
    #[test]
    fn a_no_show_forfeits_by_the_lateness_rule() {
        use crate::live::{Live, Spec};
        use referee::Command;
        let spec = Spec {
            kind: Kind::Xiangqi,
            ruleset: "cxa".into(),
            rules: "cxa".into(),
            clock: None,
            per_move: None,
            rated: false,
            event: false,
        };
        let mut live = Live::new(&spec).unwrap();
        live.apply(0, Side::First, Command::Start);
        let wake = live.wake_at().expect("the lateness limit wakes the server");
        assert_eq!(wake, 900_000);
        live.apply(wake + 1, Side::First, Command::Tick);
        let end = live.ending().expect("ruled late");
        let state = json!({"reason": referee::rule_code(end), "winner": end.result.name(Kind::Xiangqi)});
        assert_eq!(scoresheet(Kind::Xiangqi, &state, None), Some("-+"), "{state}");
    }
}

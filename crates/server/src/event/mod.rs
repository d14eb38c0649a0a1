//! Events run on the server: an event of any format (the competition model of
//! [`tournament::competition`]) kept as its versioned document in the store, its pairings'
//! games played as live refereed games, their results entered as they end.
//!
//! - [`tokens`]: who a bearer token is in an event (the organiser, an entrant, nobody).
//! - [`routes`]: the API; [`create`]: what an event is created from.
//! - [`rounds`]: pairing a round and making every game of it a live game.
//! - [`results`]: a finished game's result into its event, at once or at startup.
//! - [`rating`]: a finished event's games into its rating list, once.
//! - [`control`]: pausing and resuming the round in play, publishing standings.
//! - [`lineup`]: a team's players board by board, set by the organiser or its captain.
//! - [`refusals`]: the model's refusals, coded for the pages.
//!
//! Every change is one step under the event's lock: load, apply, save with the version read
//! (so the command line's changes, made meanwhile, are never overwritten) — the document and
//! what the server keeps beside it in one transaction — and only then answered.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use store::{Also, EventError, ServedEvent};
use tokio::sync::watch;
use tournament::competition::Event;

use crate::app::App;
use crate::error::ApiError;
use crate::live::Spec;

mod control;
mod create;
mod decide;
mod lineup;
mod rating;
mod refusals;
mod results;
mod rounds;
mod routes;
mod stream;
#[cfg(test)]
mod tests;
mod tokens;
mod views;

pub use results::reconcile;
pub use routes::routes;

/// The events in play: a lock each, so one change at a time, the version each is at for its
/// streams, the last state of each read or saved (parsed), and the finished games whose
/// results wait for the lock.
#[derive(Default)]
pub struct Events {
    locks: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    versions: Mutex<HashMap<String, watch::Sender<u64>>>,
    parsed: Mutex<HashMap<String, (u64, Arc<Event>)>>,
    finished: Mutex<HashMap<String, Vec<results::Finished>>>,
    /// The live games whose results this server follows (see [`results::follow`]).
    following: Mutex<std::collections::HashSet<String>>,
}

/// How many events' parsed states are kept (past it, the cache starts again).
const PARSED_KEPT: usize = 64;

impl Events {
    /// The event's lock: held across a whole change.
    fn lock(&self, id: &str) -> Arc<tokio::sync::Mutex<()>> {
        let mut locks = self.locks.lock().unwrap_or_else(|e| e.into_inner());
        locks.entry(id.to_string()).or_default().clone()
    }

    fn version_sender(&self, id: &str) -> watch::Sender<u64> {
        let mut versions = self.versions.lock().unwrap_or_else(|e| e.into_inner());
        versions
            .entry(id.to_string())
            .or_insert_with(|| watch::Sender::new(0))
            .clone()
    }

    /// The event's version as this server last saved it, to wait on.
    fn watch(&self, id: &str) -> watch::Receiver<u64> {
        self.version_sender(id).subscribe()
    }

    /// The event as it was at `version`, if that is the state kept.
    fn parsed(&self, id: &str, version: u64) -> Option<Arc<Event>> {
        let parsed = self.parsed.lock().unwrap_or_else(|e| e.into_inner());
        parsed.get(id).filter(|(v, _)| *v == version).map(|(_, e)| e.clone())
    }

    /// Keeps `event` as the event's state at `version` (read from the store or saved to it by
    /// this server): a later read finds it if the store is still at that version. Only newer
    /// than what is kept replaces it.
    fn keep(&self, id: &str, version: u64, event: Arc<Event>) {
        let mut parsed = self.parsed.lock().unwrap_or_else(|e| e.into_inner());
        if parsed.len() >= PARSED_KEPT && !parsed.contains_key(id) {
            parsed.clear();
        }
        match parsed.get(id) {
            Some((v, _)) if *v >= version => {}
            _ => {
                parsed.insert(id.to_string(), (version, event));
            }
        }
    }

    /// Whether game `id` was not followed yet (it is now).
    fn start_following(&self, id: &str) -> bool {
        self.following
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id.to_string())
    }

    fn stop_following(&self, id: &str) {
        self.following.lock().unwrap_or_else(|e| e.into_inner()).remove(id);
    }

    /// Queues a finished game's result for the next holder of the event's lock.
    fn queue_finished(&self, id: &str, f: results::Finished) {
        let mut finished = self.finished.lock().unwrap_or_else(|e| e.into_inner());
        finished.entry(id.to_string()).or_default().push(f);
    }

    /// Every result queued for the event, to enter now (the caller holds its lock).
    fn take_finished(&self, id: &str) -> Vec<results::Finished> {
        let mut finished = self.finished.lock().unwrap_or_else(|e| e.into_inner());
        finished.remove(id).unwrap_or_default()
    }

    /// Event `id` is saved at `version` (here, or on another node of a cluster): its streams
    /// read the change.
    pub(crate) fn saved(&self, id: &str, version: u64) {
        self.version_sender(id).send_if_modified(|v| {
            let newer = version > *v;
            if newer {
                *v = version;
            }
            newer
        });
    }
}

/// What is saved with a change besides the document (see [`store::Also`]).
enum Extra {
    Token { hash: String, entrant: u32 },
    Published { version: u64, standings: String },
    Paused(bool),
}

impl Extra {
    fn borrowed(&self) -> Also<'_> {
        match self {
            Extra::Token { hash, entrant } => Also::Token {
                hash,
                entrant: *entrant,
            },
            Extra::Paused(p) => Also::Paused(*p),
            Extra::Published { version, standings } => Also::Published {
                version: *version,
                standings,
            },
        }
    }
}

/// What a change did: its words for the change log, what to save beside the document, and
/// what to answer.
struct Done<T> {
    action: String,
    extra: Vec<Extra>,
    value: T,
}

impl<T> Done<T> {
    fn new(action: impl Into<String>, value: T) -> Done<T> {
        Done {
            action: action.into(),
            extra: Vec::new(),
            value,
        }
    }

    fn with(mut self, extra: Extra) -> Done<T> {
        self.extra.push(extra);
        self
    }
}

fn not_found() -> ApiError {
    ApiError::of(
        axum::http::StatusCode::NOT_FOUND,
        crate::problem::Problem::NoSuchEvent,
        "no such event",
    )
}

fn event_error(e: EventError) -> ApiError {
    use axum::http::StatusCode;
    match e {
        EventError::Database(e) => ApiError::Storage(e),
        EventError::NoEvent(_) => not_found(),
        e @ (EventError::Exists(_) | EventError::Changed { .. }) => {
            let detail = e.to_string();
            ApiError::of(
                StatusCode::CONFLICT,
                crate::problem::Problem::EventConflict,
                detail.clone(),
            )
            .arg("detail", detail)
        }
    }
}

use refusals::model_error;

/// How a served event's games are played; 404 for an id that is not one. Cheaper than
/// [`load`] (one row, no event document), for a route that only needs the event to exist.
async fn served(app: &App, id: &str) -> Result<ServedEvent, ApiError> {
    if id.is_empty() || id.len() > 16 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(not_found());
    }
    app.db()
        .store()
        .served_event(id)
        .await
        .map_err(event_error)?
        .ok_or_else(not_found)
}

/// A served event as stored, its version and how its games are played; 404 for an id that is
/// not one. The document is read and parsed only when the store's version is not the one whose
/// state this server keeps (every change of the event bumps its version, the command line's
/// too, so a kept state at the store's version is the stored one).
async fn load(app: &App, id: &str) -> Result<(Arc<Event>, u64, ServedEvent), ApiError> {
    let served = served(app, id).await?;
    let store = app.db().store();
    let version = store
        .event_version(id)
        .await
        .map_err(event_error)?
        .ok_or_else(not_found)?;
    if let Some(event) = app.events.parsed(id, version) {
        return Ok((event, version, served));
    }
    let (text, version) = store.event(id).await.map_err(event_error)?.ok_or_else(not_found)?;
    let event = Arc::new(Event::from_text(&text).map_err(model_error)?);
    app.events.keep(id, version, event.clone());
    Ok((event, version, served))
}

/// Changes event `id` with `f` under its lock and saves it with what `f` says; nothing is
/// saved when `f` fails. The caller holds the lock (`_held`) for as long as what follows the
/// change must not interleave with another (making the games of a round).
async fn change_locked<T>(
    app: &App,
    id: &str,
    _held: &tokio::sync::MutexGuard<'_, ()>,
    f: impl FnOnce(&mut Event, &ServedEvent) -> Result<Done<T>, ApiError>,
) -> Result<(Arc<Event>, u64, T), ApiError> {
    let (event, read, served) = load(app, id).await?;
    let mut event = Event::clone(&event);
    let done = f(&mut event, &served)?;
    let also: Vec<Also<'_>> = done.extra.iter().map(Extra::borrowed).collect();
    let version = app
        .db()
        .store()
        .save_event_with(id, read, &event.to_text(), &done.action, &also)
        .await
        .map_err(event_error)?;
    let event = Arc::new(event);
    saved_as(app, id, version, &event);
    Ok((event, version, done.value))
}

/// `event` is the event saved at `version`: kept for the next read, told to its streams.
fn saved_as(app: &App, id: &str, version: u64, event: &Arc<Event>) {
    app.events.keep(id, version, event.clone());
    app.events.saved(id, version);
    if let Some(node) = app.cluster() {
        node.event_saved(id, version);
    }
}

/// The live games' spec for an event's games.
fn spec_of(served: &ServedEvent) -> Spec {
    Spec {
        kind: served.kind,
        ruleset: served.ruleset.clone(),
        rules: served.rules.clone(),
        clock: served.clock,
        per_move: None,
        rated: false,
        event: true,
    }
}

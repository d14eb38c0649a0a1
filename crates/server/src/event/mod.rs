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
mod rating;
mod results;
mod rounds;
mod routes;
mod tokens;

pub use results::reconcile;
pub use routes::routes;

/// The events in play: a lock each, so one change at a time, and the version each is at for
/// its streams.
#[derive(Default)]
pub struct Events {
    locks: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    versions: Mutex<HashMap<String, watch::Sender<u64>>>,
}

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

    fn saved(&self, id: &str, version: u64) {
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
    Entered { pairing: String, game: u32 },
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
            Extra::Entered { pairing, game } => Also::Entered { pairing, game: *game },
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
    ApiError::Status(axum::http::StatusCode::NOT_FOUND, "no such event".into())
}

fn event_error(e: EventError) -> ApiError {
    use axum::http::StatusCode;
    match e {
        EventError::Database(e) => ApiError::Storage(e),
        EventError::NoEvent(_) => not_found(),
        e @ (EventError::Exists(_) | EventError::Changed { .. }) => {
            ApiError::Status(StatusCode::CONFLICT, e.to_string())
        }
    }
}

fn model_error(e: tournament::competition::Error) -> ApiError {
    ApiError::BadRequest(e.0)
}

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
/// not one.
async fn load(app: &App, id: &str) -> Result<(Event, u64, ServedEvent), ApiError> {
    let served = served(app, id).await?;
    let (text, version) = app
        .db()
        .store()
        .event(id)
        .await
        .map_err(event_error)?
        .ok_or_else(not_found)?;
    let event = Event::from_text(&text).map_err(model_error)?;
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
) -> Result<(Event, u64, T), ApiError> {
    let (mut event, read, served) = load(app, id).await?;
    let done = f(&mut event, &served)?;
    let also: Vec<Also<'_>> = done.extra.iter().map(Extra::borrowed).collect();
    let version = app
        .db()
        .store()
        .save_event_with(id, read, &event.to_text(), &done.action, &also)
        .await
        .map_err(event_error)?;
    app.events.saved(id, version);
    Ok((event, version, done.value))
}

/// The live games' spec for an event's games.
fn spec_of(served: &ServedEvent) -> Spec {
    Spec {
        kind: served.kind,
        ruleset: served.ruleset.clone(),
        rules: served.rules.clone(),
        clock: served.clock,
    }
}

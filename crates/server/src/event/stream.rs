//! The event's stream: one NDJSON line per change of it, as its change log has them.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use futures_util::stream;
use serde::Deserialize;
use serde_json::json;

use super::load;
use crate::app::App;
use crate::error::ApiError;

/// A blank line this often keeps an idle stream open through proxies.
const KEEPALIVE: Duration = Duration::from_secs(7);

#[derive(Deserialize)]
pub(super) struct StreamQuery {
    since: Option<u64>,
}

type StreamState = (
    Arc<App>,
    String,
    tokio::sync::watch::Receiver<u64>,
    u64,
    VecDeque<String>,
    tokio::sync::watch::Receiver<bool>,
);

/// One NDJSON line per change of the event, with its version: without `since`, from the
/// latest change on; with it, every change after that version.
pub(super) async fn stream_event(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(q): Query<StreamQuery>,
) -> Result<Response, ApiError> {
    let (_, version, _) = load(&app, &id).await?;
    let rx = app.events.watch(&id);
    let sent = q.since.unwrap_or(version.saturating_sub(1));
    let closing = app.closing();
    let lines = stream::unfold((app, id, rx, sent, VecDeque::new(), closing), next_change);
    Ok((
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        Body::from_stream(lines),
    )
        .into_response())
}

async fn next_change(
    (app, id, mut rx, mut sent, mut pending, mut closing): StreamState,
) -> Option<(Result<String, Infallible>, StreamState)> {
    loop {
        if *closing.borrow_and_update() {
            return None;
        }
        if let Some(line) = pending.pop_front() {
            return Some((Ok(line + "\n"), (app, id, rx, sent, pending, closing)));
        }
        rx.borrow_and_update();
        let log = app.db().store().event_log(&id).await.ok()?;
        let from = sent;
        for c in log.into_iter().filter(|c| c.version > from) {
            sent = c.version;
            pending.push_back(json!({"version": c.version, "action": c.action, "at": c.at}).to_string());
        }
        if !pending.is_empty() {
            continue;
        }
        tokio::select! {
            changed = tokio::time::timeout(KEEPALIVE, rx.changed()) => match changed {
                Ok(Ok(())) => {}
                Ok(Err(_)) => return None,
                Err(_) => return Some((Ok("\n".into()), (app, id, rx, sent, pending, closing))),
            },
            _ = closing.changed() => return None,
        }
    }
}

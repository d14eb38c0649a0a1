//! `POST /api/analyse`: a game's positions searched by an engine on the server, on demand.
//!
//! The body is the game as the review gives it (`{"kind", "fen", "moves"}`: the start FEN and
//! the moves in coordinates); the answer is a stream of JSON lines (`application/x-ndjson`):
//! first `{"positions": N, "queued": K}` (K requests were ahead of this one; 0 when it runs at
//! once), then one line a position as each is searched — the start position is `ply` 0 — and
//! last `{"done": true}`, or `{"error": …}` where the engine failed. Scores are the first
//! side's (Red's, White's) view: `{"cp": n}` or `{"mate": n}`, positive when the first side
//! stands better or mates.
//!
//! An engine search is a core's work, so the server runs a bounded number at once
//! ([`Places`]); a request beyond them and a bounded queue is refused with 503, and each
//! position gets a fixed budget ([`run::MOVETIME_MS`]) over at most [`MAX_PLIES`] moves.

mod places;
mod run;

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use game::{Game, Kind};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::mpsc;

use crate::app::App;
use crate::error::{ApiError, Problem};
use crate::problem;

pub use places::Places;
use places::Turn;
use run::Line;

/// How often a request waiting in the queue is told it still waits.
const QUEUE_KEEPALIVE: std::time::Duration = std::time::Duration::from_secs(1);

/// The most moves one request may ask about: a long game, not an engine held for an hour.
pub const MAX_PLIES: usize = 300;

pub fn routes() -> Router<Arc<App>> {
    Router::new().route("/api/analyse", post(analyse))
}

#[derive(Debug, Deserialize)]
pub struct AnalyseRequest {
    /// `xiangqi` or `chess`.
    pub kind: String,
    /// The start position; the game's standard start when absent.
    #[serde(default)]
    pub fen: Option<String>,
    /// The moves from the start, in coordinates (ICCS, UCI), separated by spaces.
    #[serde(default)]
    pub moves: String,
}

async fn analyse(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    body: Result<Json<AnalyseRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    app.may_review(client.ip())?;
    let Json(request) = body.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let kind = crate::seeks::kind_of(&request.kind)?;
    let plies = request.moves.split_whitespace().count();
    if plies > MAX_PLIES {
        return Err(ApiError::bad(
            Problem::TooManyMoves,
            format!("{plies} moves: at most {MAX_PLIES} are analysed a request"),
        )
        .arg("moves", plies)
        .arg("max", MAX_PLIES));
    }
    let program = app.engines().program(kind).ok_or_else(|| {
        ApiError::of(
            StatusCode::SERVICE_UNAVAILABLE,
            Problem::NoAnalysisEngine,
            "no engine to analyse with on this server: install Fairy-Stockfish (Debian: apt-get install fairy-stockfish) or start it with ARBITER_ENGINE=PATH",
        )
    })?;
    // Checked before a place is taken: a bad request costs no one a wait.
    let (tx, rx) = mpsc::channel::<Value>(16);
    let job: Box<dyn FnOnce() + Send> = match kind {
        Kind::Xiangqi => {
            let line = checked::<xiangqi::Position>(&request)?;
            let wxf = |p: &xiangqi::Position, m| Some(xiangqi::notation::Notation::Wxf.write(p, m));
            Box::new(move || run::analyse(line, program, wxf, tx))
        }
        Kind::Chess => {
            let line = checked::<chess::Position>(&request)?;
            Box::new(move || run::analyse(line, program, |_, _| None, tx))
        }
    };
    let turn = app.analyses().enter().ok_or_else(|| {
        ApiError::of(
            StatusCode::SERVICE_UNAVAILABLE,
            Problem::AnalysisBusy,
            "the server is analysing as many games as it can and more are waiting: try again in a minute",
        )
    })?;
    let queued = match &turn {
        Turn::Now(_) => 0,
        Turn::Later(t) => t.ahead + 1,
    };
    let (lines, stream) = mpsc::channel::<Value>(4);
    let _ = lines.try_send(json!({ "positions": plies + 1, "queued": queued }));
    tokio::spawn(async move {
        let place = match turn {
            Turn::Now(p) => Some(p),
            Turn::Later(ticket) => {
                let wait = ticket.wait();
                tokio::pin!(wait);
                loop {
                    tokio::select! {
                        p = &mut wait => break p,
                        // A client gone is seen only when a write to it fails: one that left
                        // while waiting gives its place in the queue back within a second or two.
                        () = tokio::time::sleep(QUEUE_KEEPALIVE) => {
                            if lines.send(json!({ "queued": queued })).await.is_err() {
                                break None;
                            }
                        }
                    }
                }
            }
        };
        let Some(place) = place else { return };
        let started = tokio::task::spawn_blocking(job);
        let mut rx = rx;
        let mut failed = false;
        while let Some(v) = rx.recv().await {
            failed |= v.get("error").is_some();
            if lines.send(v).await.is_err() {
                break;
            }
        }
        // Dropping `rx` above (the client left) stops the engine at its next position.
        drop(rx);
        let ended = started.await;
        drop(place);
        let last = match ended {
            _ if failed => None,
            Ok(()) => Some(json!({ "done": true })),
            // The thread panicked: the positions sent stand, the rest is missing.
            Err(_) => Some(json!({ "error": "the analysis failed", "why": Problem::AnalysisFailed.code() })),
        };
        if let Some(last) = last {
            let _ = lines.send(last).await;
        }
    });
    let body = futures_util::stream::unfold(stream, |mut stream| async move {
        let v = stream.recv().await?;
        let mut text = v.to_string();
        text.push('\n');
        Some((Ok::<_, Infallible>(Bytes::from(text)), stream))
    });
    Ok((
        [
            (header::CONTENT_TYPE, "application/x-ndjson"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        Body::from_stream(body),
    )
        .into_response())
}

/// The request's game read and every move checked legal, or why not.
fn checked<G: Game>(request: &AnalyseRequest) -> Result<Line<G>, ApiError> {
    let start = match request.fen.as_deref().map(str::trim).filter(|f| !f.is_empty()) {
        Some(fen) => G::from_fen(fen).map_err(|e| {
            let english = format!("fen: {e}");
            let typed = match G::KIND {
                Kind::Chess => problem::chess_fen(fen, |_| english.clone()),
                Kind::Xiangqi => problem::xiangqi_fen(fen, |_| english.clone()),
            };
            typed.unwrap_or_else(|| ApiError::bad_request(english))
        })?,
        None => G::start(),
    };
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for (i, text) in request.moves.split_whitespace().enumerate() {
        let m = pos.parse_move(text).ok().filter(|&m| pos.is_legal(m)).ok_or_else(|| {
            ApiError::bad(Problem::IllegalMove, format!("move {} ({text}) is not legal", i + 1))
                .arg("ply", i + 1)
                .arg("text", text)
        })?;
        pos.play(m);
        moves.push(m);
    }
    Ok(Line { start, moves })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(kind: &str, fen: Option<&str>, moves: &str) -> AnalyseRequest {
        AnalyseRequest {
            kind: kind.into(),
            fen: fen.map(String::from),
            moves: moves.into(),
        }
    }

    #[test]
    fn moves_are_checked_before_any_engine_runs() {
        let line = checked::<xiangqi::Position>(&request("xiangqi", None, "h2e2 h9g7")).unwrap();
        assert_eq!(line.moves.len(), 2);
        let bad = checked::<xiangqi::Position>(&request("xiangqi", None, "h2e2 h2e2"));
        assert!(matches!(bad, Err(e) if e.to_string().contains("move 2 (h2e2)")));
        let bad = checked::<chess::Position>(&request("chess", Some("not a fen"), ""));
        assert_eq!(bad.err().and_then(|e| e.why()), Some("chess_fen_board"));
        let bad = checked::<xiangqi::Position>(&request("xiangqi", Some("9/9 w"), ""));
        assert_eq!(bad.err().map(|e| e.body()["args"].clone()), Some(json!({"ranks": 2})));
        let mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
        assert!(checked::<chess::Position>(&request("chess", Some(mate), "")).is_ok());
    }
}

//! The arbiter's console: what happens at the board that only an arbiter sees — a touch, a
//! technical foul, a clock pressed without a move, a refusal of the rules, an illegal move or a
//! false claim as the player made it, adjournment, a time correction, a correction of the
//! board — entered with the game's arbiter token (bearer), for the side named in the path.
//! Each is a referee command, logged before it is acknowledged as every command is, and the
//! referee rules it under the game's ruleset (its thresholds: the second technical foul under
//! `casual`, the first illegal move under `cxa` …); the rulings go to the game's stream and
//! into its result.
//!
//! Lateness: the arbiter starts the clocks (`start`) when the round begins; a side that has
//! not made its first move within the ruleset's lateness limit (seed 000 §4.1.7) loses when
//! the limit runs out, by the referee's own timer.

use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use axum::{Json, Router};
use game::Side;
use referee::touch::Touch;
use referee::{Command, Correction, Straightening};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::app::App;
use crate::codec::parse_move;
use crate::error::ApiError;
use crate::table::Table;

/// Free text (a foul's description, a correction's reason) is short.
const TEXT_LIMIT: usize = 200;

pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/arbiter/game/{id}/start", post(start))
        .route("/api/arbiter/game/{id}/adjourn", post(adjourn))
        .route("/api/arbiter/game/{id}/resume", post(resume))
        .route("/api/arbiter/game/{id}/correct", post(correct))
        .route("/api/arbiter/game/{id}/device", post(device))
        .route("/api/arbiter/game/{id}/{side}/touch", post(touch))
        .route("/api/arbiter/game/{id}/{side}/straighten", post(straighten))
        .route("/api/arbiter/game/{id}/{side}/foul", post(foul))
        .route("/api/arbiter/game/{id}/{side}/press-clock", post(press_clock))
        .route("/api/arbiter/game/{id}/{side}/refuses-rules", post(refuses_rules))
        .route("/api/arbiter/game/{id}/{side}/move/{mv}", post(enter_move))
        .route("/api/arbiter/game/{id}/{side}/claim-draw", post(claim_draw))
        .route("/api/arbiter/game/{id}/{side}/resign", post(resign))
        .route("/api/arbiter/game/{id}/{side}/time", post(time))
}

/// The game, once the request's bearer token is its arbiter's: 401 without a token, 403 with
/// any other (a seat token included).
async fn arbiter(app: &App, id: &str, headers: &HeaderMap) -> Result<Arc<Table>, ApiError> {
    let table = app.game(id).await?;
    let token = crate::app::bearer_of(headers).ok_or(ApiError::Unauthorized)?;
    if !table.is_arbiter(token) {
        return Err(ApiError::of(
            StatusCode::FORBIDDEN,
            crate::problem::Problem::NotTheArbiter,
            "this token is not this game's arbiter's",
        ));
    }
    Ok(table)
}

/// The side named in a path: the game's own name for it (`red`, `white`, `black`), or
/// `first`/`second`.
pub(crate) fn side_of(table: &Table, name: &str) -> Result<Side, ApiError> {
    let kind = table.spec.kind;
    [Side::First, Side::Second]
        .into_iter()
        .find(|&s| name == s.name(kind) || name == if s == Side::First { "first" } else { "second" })
        .ok_or_else(|| {
            ApiError::not_accepted(format!(
                "no side {name:?}: {} or {}",
                Side::First.name(kind),
                Side::Second.name(kind)
            ))
        })
}

/// Runs `command` for `side` as the game's arbiter.
async fn run(
    app: &App,
    id: &str,
    headers: &HeaderMap,
    side: Option<&str>,
    command: impl FnOnce(&Table) -> Result<Command, ApiError>,
) -> Result<Json<Value>, ApiError> {
    let table = arbiter(app, id, headers).await?;
    // A command about the board (start, adjournment, a correction) is entered as the first
    // side's, as the server's own are.
    let side = side.map_or(Ok(Side::First), |s| side_of(&table, s))?;
    app.may_act(id, side)?;
    let command = command(&table)?;
    let ack = table.act(side, command, 0).await?;
    Ok(Json(json!({
        "ok": true,
        "version": ack.version,
        "status": ack.status,
        "reason": ack.reason,
        "winner": ack.winner,
    })))
}

fn body<T>(body: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    body.map(|Json(b)| b)
        .map_err(|e| ApiError::malformed(e.status(), e.body_text()))
}

/// Free text as the log keeps it: one line, not empty, short.
fn text(field: &str, t: &str) -> Result<String, ApiError> {
    let t = t.trim();
    if t.is_empty() || t.chars().count() > TEXT_LIMIT || t.contains(['\n', '\r']) {
        return Err(ApiError::not_accepted(format!(
            "{field}: one line of 1 to {TEXT_LIMIT} characters"
        )));
    }
    Ok(t.to_string())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PieceRequest {
    /// The piece's square in coordinates (`h2`, `e4`).
    square: String,
    /// `own` (the side's) or `opponent`.
    piece: String,
    /// For straightening: `notice`, `accidental` or `unannounced`.
    how: Option<String>,
}

fn piece(table: &Table, req: &PieceRequest) -> Result<Touch, ApiError> {
    let sq = req.square.to_ascii_lowercase();
    let b = sq.as_bytes();
    let (files, ranks) = match table.spec.kind {
        game::Kind::Xiangqi => (b'a'..=b'i', 0..=9),
        game::Kind::Chess => (b'a'..=b'h', 1..=8),
    };
    let on_board = b.len() == 2 && files.contains(&b[0]) && b[1].is_ascii_digit() && ranks.contains(&(b[1] - b'0'));
    if !on_board {
        return Err(ApiError::not_accepted(format!(
            "square: {:?} is no square of this board",
            req.square.chars().take(8).collect::<String>()
        )));
    }
    match req.piece.as_str() {
        "own" => Ok(Touch::Own(sq)),
        "opponent" => Ok(Touch::Opponent(sq)),
        _ => Err(ApiError::not_accepted("piece: own or opponent")),
    }
}

/// A board device for the table: a new token that plays both sides' moves, offers, claims and
/// resignations (nothing of the arbiter's), replacing the device made before. In the link's
/// fragment, as seat links are.
async fn device(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let table = arbiter(&app, &id, &headers).await?;
    let token = crate::codec::random_id(32);
    let hash = crate::codec::token_hash(&token);
    // Stored first: a token the database did not keep would open nothing after a restart.
    if !app.db().set_device(&id, &hash).await? {
        return Err(ApiError::NotFound);
    }
    table.set_device(hash);
    Ok(Json(json!({
        "token": token,
        "url": format!("/game/{id}#device={token}"),
    })))
}

async fn start(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    run(&app, &id, &headers, None, |_| Ok(Command::Start)).await
}

async fn adjourn(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    run(&app, &id, &headers, None, |_| Ok(Command::Adjourn)).await
}

async fn resume(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    run(&app, &id, &headers, None, |_| Ok(Command::Resume)).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CorrectRequest {
    /// `restore` (seed 000 5.8: back to the position after `ply` plies), `board` (seed 001
    /// 纠正失误 (1): the board turned), `colours` (纠正失误 (2): colours swapped).
    correction: String,
    ply: Option<usize>,
}

async fn correct(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    req: Result<Json<CorrectRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    run(&app, &id, &headers, None, |_| {
        let req = body(req)?;
        let c = match (req.correction.as_str(), req.ply) {
            ("restore", Some(ply)) => Correction::RestoreTo(ply),
            ("board", None) => Correction::BoardTurned,
            ("colours" | "colors", None) => Correction::ColoursSwapped,
            _ => {
                return Err(ApiError::not_accepted(
                    "correction: restore (with ply), board or colours",
                ))
            }
        };
        Ok(Command::Correct(c))
    })
    .await
}

async fn touch(
    State(app): State<Arc<App>>,
    Path((id, side)): Path<(String, String)>,
    headers: HeaderMap,
    req: Result<Json<PieceRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    run(&app, &id, &headers, Some(&side), |t| {
        let req = body(req)?;
        if req.how.is_some() {
            return Err(ApiError::not_accepted("touch: `how` is for straightening"));
        }
        Ok(Command::Touch(piece(t, &req)?))
    })
    .await
}

async fn straighten(
    State(app): State<Arc<App>>,
    Path((id, side)): Path<(String, String)>,
    headers: HeaderMap,
    req: Result<Json<PieceRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    run(&app, &id, &headers, Some(&side), |t| {
        let req = body(req)?;
        let how = req
            .how
            .as_deref()
            .and_then(Straightening::from_code)
            .ok_or_else(|| ApiError::not_accepted("how: notice, accidental or unannounced"))?;
        Ok(Command::Straighten {
            touch: piece(t, &req)?,
            how,
        })
    })
    .await
}

/// Seed 000 §8's technical fouls, by article.
const SECTION_8: [(&str, &str); 5] = [
    ("8.1", "连续提和，干扰对方 (§8 (一))"),
    ("8.2", "一方提出“自然限著”经裁判审查后不属实 (§8 (二))"),
    ("8.3", "触摸己方之棋子而不能走该子 (§8 (三))"),
    ("8.4", "触摸对方之棋子而不能吃该子 (§8 (四))"),
    ("8.5", "一方多走一步或棋子走往不能去的位置 (§8 (五))"),
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FoulRequest {
    /// One of seed 000 §8's fouls by article (`8.1` … `8.5`), or
    kind: Option<String>,
    /// the foul in words.
    what: Option<String>,
}

async fn foul(
    State(app): State<Arc<App>>,
    Path((id, side)): Path<(String, String)>,
    headers: HeaderMap,
    req: Result<Json<FoulRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    run(&app, &id, &headers, Some(&side), |_| {
        let what = match body(req)? {
            FoulRequest {
                kind: Some(k),
                what: None,
            } => SECTION_8
                .iter()
                .find(|(a, _)| *a == k)
                .map(|(_, w)| w.to_string())
                .ok_or_else(|| ApiError::not_accepted("kind: 8.1 to 8.5 (seed 000 §8)"))?,
            FoulRequest {
                kind: None,
                what: Some(w),
            } => text("what", &w)?,
            _ => return Err(ApiError::not_accepted("foul: either kind or what")),
        };
        Ok(Command::TechnicalFoul(what))
    })
    .await
}

async fn press_clock(
    State(app): State<Arc<App>>,
    Path((id, side)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    run(&app, &id, &headers, Some(&side), |_| Ok(Command::PressClock)).await
}

async fn refuses_rules(
    State(app): State<Arc<App>>,
    Path((id, side)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    run(&app, &id, &headers, Some(&side), |_| Ok(Command::RefusesRules)).await
}

/// A move as the player made it at the board: an illegal one is ruled as the ruleset says.
async fn enter_move(
    State(app): State<Arc<App>>,
    Path((id, side, mv)): Path<(String, String, String)>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    run(&app, &id, &headers, Some(&side), |t| {
        Ok(Command::Move(parse_move(t.spec.kind, &mv)?))
    })
    .await
}

/// A draw claimed at the board: a false one costs what the ruleset says.
async fn claim_draw(
    State(app): State<Arc<App>>,
    Path((id, side)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    run(&app, &id, &headers, Some(&side), |_| Ok(Command::ClaimDraw)).await
}

async fn resign(
    State(app): State<Arc<App>>,
    Path((id, side)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    run(&app, &id, &headers, Some(&side), |_| Ok(Command::Resign)).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TimeRequest {
    /// Seconds to add to the side's main time, or
    add: Option<f64>,
    /// the seconds its main time is set to;
    set: Option<f64>,
    /// and why (logged, and shown in the stream).
    reason: String,
}

async fn time(
    State(app): State<Arc<App>>,
    Path((id, side)): Path<(String, String)>,
    headers: HeaderMap,
    req: Result<Json<TimeRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    run(&app, &id, &headers, Some(&side), |_| {
        let req = body(req)?;
        let reason = text("reason", &req.reason)?;
        let ms = |s: f64| -> Result<u64, ApiError> {
            if !(0.0..=86_400.0).contains(&s) {
                return Err(ApiError::not_accepted("time: 0 to 86400 s"));
            }
            Ok((s * 1000.0).round() as u64)
        };
        match (req.add, req.set) {
            (Some(a), None) => Ok(Command::AddTime { ms: ms(a)?, reason }),
            (None, Some(s)) => Ok(Command::SetTime { ms: ms(s)?, reason }),
            _ => Err(ApiError::not_accepted("time: either add or set")),
        }
    })
    .await
}

#[cfg(test)]
mod tests {
    use game::BySide;
    use referee::{EndReason, EventKind};

    use super::*;
    use crate::db::Db;
    use crate::live::{Live, Spec};

    fn spec(ruleset: &str) -> Spec {
        Spec {
            kind: game::Kind::Xiangqi,
            ruleset: ruleset.into(),
            rules: "cxa".into(),
            clock: None,
            per_move: None,
            rated: false,
            event: false,
        }
    }

    /// Only the game's arbiter token is the arbiter's; a game stored without one (made before
    /// there were arbiter tokens) has no arbiter at all.
    #[tokio::test]
    async fn the_arbiter_token_and_games_without_one() {
        let db = Db::connect("sqlite::memory:").await.unwrap();
        let app = App::new(db.clone());
        let created = app.create(spec("cxa")).await.unwrap();
        let table = app.game(&created.id).await.unwrap();
        assert!(table.is_arbiter(&created.arbiter));
        assert!(!table.is_arbiter(&created.tokens.first) && !table.is_arbiter(&created.tokens.second));
        assert_eq!(table.seat(&created.arbiter), None, "the arbiter holds no seat");
        let hashes = BySide::new(|_| crate::codec::token_hash("seat"));
        db.create("old", &spec("cxa"), &hashes, None, None).await.unwrap();
        let old = app.game("old").await.unwrap();
        assert!(!old.is_arbiter("") && !old.is_arbiter(&created.arbiter));
    }

    /// Lateness over the board (seed 000 §4.1.7, CXA's 15 minutes): the arbiter starts the
    /// clocks, red moves, black never does; the server's timer (`wake_at`) rules it at the limit.
    #[test]
    fn lateness_runs_from_the_arbiters_start() {
        let mut live = Live::new(&spec("cxa")).unwrap();
        live.apply(0, Side::First, Command::Start);
        live.apply(5_000, Side::First, Command::Move("h2e2".into()));
        assert_eq!(live.wake_at(), Some(900_000));
        let events = live.apply(900_001, Side::Second, Command::Tick);
        assert!(
            matches!(&events[..], [e] if matches!(&e.kind, EventKind::GameOver(end) if end.reason == EndReason::Lateness && end.at == 900_000)),
            "{events:?}"
        );
        assert!(live
            .pgn("g", std::time::UNIX_EPOCH, &[None, None])
            .contains("[Termination \"time forfeit\"]"));
    }

    /// A false claim under FIDE rules: two minutes to the opponent (9.5.3), in the stream as a
    /// warning, and no foul toward a loss.
    #[test]
    fn a_false_claim_under_fide_gives_the_opponent_two_minutes() {
        let mut live = Live::new(&Spec {
            kind: game::Kind::Chess,
            ruleset: "fide".into(),
            rules: "fide".into(),
            clock: None,
            per_move: None,
            rated: false,
            event: false,
        })
        .unwrap();
        live.apply(0, Side::First, Command::Start);
        live.apply(1_000, Side::First, Command::Move("e2e4".into()));
        let before = live.remaining(Side::First, 2_000).main;
        let events = live.apply(2_000, Side::Second, Command::ClaimDraw);
        assert!(events
            .iter()
            .any(|e| matches!(&e.kind, EventKind::Warning { what, .. } if what.contains("FIDE 9.5.3"))));
        assert_eq!(live.remaining(Side::First, 2_000).main, before + 120_000);
        assert!(live.ending().is_none());
    }
}

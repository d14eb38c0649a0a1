//! `POST /api/review`: a game record in, the game out — its tags, every ply of the main line
//! (coordinates, the game's notation, WXF for Xiangqi, the FEN after it, whether it gave check)
//! and the judge's verdict on the main line under the rules asked for, set beside the result
//! the record states.
//!
//! The body is the record file itself, in any format the records crate reads (PGN of either
//! game, XQF, CBR, CBL, DhtmlXQ, `position fen … moves …`), told from its bytes. Records are
//! bigger than the API's other requests, so this route has its own body limit.

use std::io::Cursor;
use std::path::Path;

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, Query};
use axum::http::StatusCode;
use axum::routing::post;
use axum::{Json, Router};
use game::Game;
use judge::chess::ChessRules;
use judge::record::{judge_record, Rulesets};
use judge::xiangqi::Rules;
use records::files::{detect_format, read_as, AnyRecord, Format};
use records::Record;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::app::App;
use crate::error::{ApiError, Problem};
use axum::extract::{ConnectInfo, State};
use std::net::SocketAddr;
use std::sync::Arc;

/// The largest record the route reads: a big PGN file of a few hundred games.
pub const BODY_LIMIT: usize = 1024 * 1024;

/// The route, with its own body limit (the router's is for small JSON requests).
pub fn routes() -> Router<Arc<App>> {
    Router::new().route("/api/review", post(review).layer(DefaultBodyLimit::max(BODY_LIMIT)))
}

#[derive(Debug, Default, Deserialize)]
pub struct ReviewQuery {
    /// Which game of a file of several (1-based); default the first.
    pub game: Option<usize>,
    /// The judge's rules: `cxa` (default), `axf`, `simplified` for Xiangqi, with an event's
    /// limits where wanted (`cxa,limit=40,temporary=20@80`); `fide` (default),
    /// `automatic-draws` for chess.
    pub rules: Option<String>,
    /// The format, when detection from the bytes is not wanted: `pgn`, `chess-pgn`, `xqf`,
    /// `cbr`, `cbl`, `dhtmlxq`, `moves`.
    pub format: Option<String>,
}

async fn review(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    query: Result<Query<ReviewQuery>, QueryRejection>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    // Up to a megabyte read and judged a request: limited per address as game creation is.
    app.may_review(client.ip())?;
    let Query(query) = query.map_err(|e| ApiError::malformed(e.status(), e.body_text()))?;
    let body = body.map_err(|e| ApiError::malformed(e.status(), e.body_text()))?;
    // Reading and judging are CPU work (a chase classification, a dead-position search): off
    // the async threads. A reader that panicked on a hostile file is a refused file, not a
    // dropped connection.
    match tokio::task::spawn_blocking(move || review_bytes(&body, &query)).await {
        Ok(r) => r.map(Json),
        Err(_) => Err(ApiError::of(
            StatusCode::UNPROCESSABLE_ENTITY,
            Problem::RecordUnreadable,
            "the record could not be read",
        )
        .arg("detail", "the reader stopped on it")),
    }
}

/// The format's name as the API shows it (the names `?format=` takes).
fn format_name(f: Format) -> &'static str {
    match f {
        Format::XiangqiPgn => "pgn",
        Format::ChessPgn => "chess-pgn",
        Format::Xqf => "xqf",
        Format::Cbr => "cbr",
        Format::Cbl => "cbl",
        Format::DhtmlXq => "dhtmlxq",
        Format::FenMoves => "moves",
    }
}

/// Reads the record in `bytes`, picks the game asked for and reviews it.
pub fn review_bytes(bytes: &[u8], query: &ReviewQuery) -> Result<Value, ApiError> {
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(ApiError::bad(
            Problem::EmptyRecord,
            "empty body: send the record file (PGN, XQF, CBR, CBL, DhtmlXQ or position … moves …) as the body",
        ));
    }
    let format = match &query.format {
        Some(f) => f
            .parse::<Format>()
            .map_err(|e: String| ApiError::bad(Problem::UnknownFormat, e.clone()).arg("detail", e))?,
        None => detect_format(Path::new(""), bytes),
    };
    let binary = matches!(format, Format::Xqf | Format::Cbr | Format::Cbl);
    if !binary && bytes.contains(&0) {
        return Err(ApiError::bad(
            Problem::BinaryRecord,
            "the body is binary but not XQF, CBR or CBL (text records hold no NUL bytes)",
        ));
    }
    let wanted = query.game.unwrap_or(1);
    if wanted == 0 {
        return Err(ApiError::bad(Problem::GamesFromOne, "game: games are counted from 1"));
    }
    let games = read_as(Path::new("body"), format, Cursor::new(bytes.to_vec())).map_err(|e| {
        ApiError::bad(Problem::RecordUnreadable, format!("the record could not be read: {e}"))
            .arg("detail", e.to_string())
    })?;
    let mut chosen = None;
    let mut count = 0;
    for game in games {
        // CBL reports library-level problems as game 0; they are not games.
        if matches!(&game, Err(e) if e.game == 0) {
            continue;
        }
        // Text with no tag and no move in it (prose, binary noise read as PGN) is no game.
        if format != Format::FenMoves && matches!(&game, Ok(r) if is_blank(r)) {
            continue;
        }
        count += 1;
        if count == wanted {
            chosen = Some(game);
        }
    }
    let record = match chosen {
        Some(Ok(r)) => r,
        Some(Err(e)) => {
            return Err(unreadable_game(bytes, format, wanted, &e));
        }
        None if count == 0 => {
            let format = format_name(format);
            return Err(ApiError::bad(
                Problem::NoGameInRecord,
                format!("no game found in the body (read as {format})"),
            )
            .arg("format", format));
        }
        None => {
            return Err(ApiError::bad(
                Problem::RecordGameCount,
                format!(
                    "game {wanted}: the record holds {count} game{}",
                    if count == 1 { "" } else { "s" }
                ),
            )
            .arg("game", wanted)
            .arg("count", count))
        }
    };
    let mut out = review_record(&record, query.rules.as_deref())?;
    out["format"] = format_name(format).into();
    out["game"] = wanted.into();
    out["games"] = count.into();
    Ok(out)
}

/// Why game `wanted` of the record does not read: where a `position …` line's FEN does not,
/// what is wrong with it.
fn unreadable_game(bytes: &[u8], format: Format, wanted: usize, e: &records::files::ReadError) -> ApiError {
    let at = e.ply.map(|p| format!(", ply {p}")).unwrap_or_default();
    let name = format_name(format);
    let english = format!("game {wanted}{at}: {} (read as {name})", e.message);
    if format == Format::FenMoves && e.ply.is_none() {
        let text = String::from_utf8_lossy(bytes);
        let line = text.lines().filter(|l| !l.trim().is_empty()).nth(wanted - 1);
        if let Some(said) = line.and_then(|l| crate::problem::fen_moves_start(l, english.clone())) {
            return said;
        }
    }
    let said = match e.ply {
        Some(ply) => ApiError::bad(Problem::RecordPly, english).arg("ply", ply),
        None => ApiError::bad(Problem::RecordGame, english),
    };
    said.arg("game", wanted)
        .arg("detail", e.message.as_str())
        .arg("format", name)
}

/// No move and no tag but the result a reader adds from a game-end marker.
fn is_blank(record: &AnyRecord) -> bool {
    fn blank<M>(r: &Record<M>) -> bool {
        r.tree.is_empty() && r.tags.iter().all(|(n, _)| n.eq_ignore_ascii_case("Result"))
    }
    match record {
        AnyRecord::Xiangqi(r) => blank(r),
        AnyRecord::Chess(r) => blank(r),
    }
}

/// Reviews one record's main line under the rules named (the game's default when `None`).
pub fn review_record(record: &AnyRecord, rules: Option<&str>) -> Result<Value, ApiError> {
    let unknown = |e: String| ApiError::bad(Problem::BadRules, format!("{e} (for this game)")).arg("detail", e);
    let mut sets = Rulesets::default();
    match record {
        AnyRecord::Xiangqi(r) => {
            if let Some(n) = rules {
                sets.xiangqi = Rules::parse(n).map_err(unknown)?;
            }
            let start = records::pgn::start_position(r);
            let moves: Vec<xiangqi::Move> = r.tree.main_line().copied().collect();
            Ok(review_line(record, r, &start, &moves, &sets, |pos, m| {
                Some(xiangqi::notation::Notation::Wxf.write(pos, m))
            }))
        }
        AnyRecord::Chess(r) => {
            if let Some(n) = rules {
                sets.chess = ChessRules::by_name(n).ok_or_else(|| {
                    unknown(format!(
                        "unknown chess ruleset {n:?}; known: {}",
                        ChessRules::NAMES.join(", ")
                    ))
                })?;
            }
            let mode = match r.tags.get("Variant") {
                Some(v) if v.contains("960") => chess::shakmaty::CastlingMode::Chess960,
                _ => chess::shakmaty::CastlingMode::Standard,
            };
            let start = chess::Position::new(records::chess::start_position(r), mode);
            let moves: Vec<chess::shakmaty::Move> = r.tree.main_line().copied().collect();
            Ok(review_line(record, r, &start, &moves, &sets, |_, _| None))
        }
    }
}

/// The review of one record: its plies from `start`, and the verdict the judge gives it (the
/// same judging, and words, as `arbiter judge`). `wxf` gives a move's WXF notation where the
/// game has one.
fn review_line<G: Game>(
    any: &AnyRecord,
    record: &Record<G::Move>,
    start: &G,
    moves: &[G::Move],
    rules: &Rulesets,
    wxf: impl Fn(&G, G::Move) -> Option<String>,
) -> Value {
    let kind = G::KIND;
    let judged = judge_record(any, rules);
    let mut pos = start.clone();
    let mut plies = Vec::with_capacity(moves.len());
    for (i, &m) in moves.iter().enumerate() {
        // The readers check every move; this only keeps a reader's slip from reaching `play`.
        if !pos.is_legal(m) {
            break;
        }
        let mut ply = json!({
            "ply": i + 1,
            "side": pos.turn().name(kind),
            "coordinate": pos.coordinate(m),
            "notation": pos.notation(m),
        });
        if let Some(w) = wxf(&pos, m) {
            ply["wxf"] = w.into();
        }
        pos.play(m);
        ply["fen"] = pos.fen().into();
        ply["check"] = pos.is_check().into();
        plies.push(ply);
    }

    // The moves the judge classified: those of a ruled (or pending) repetition cycle.
    let mut chases = Vec::new();
    let cycles = [Some(&judged.verdict), judged.pending.as_ref()];
    for cycle in cycles.into_iter().flatten().filter_map(|v| v.repetition.as_ref()) {
        for cm in &cycle.moves {
            if let Some(p) = cm.ply.checked_sub(1).and_then(|i| plies.get_mut(i)) {
                p["class"] = serde_json::to_value(&cm.class).unwrap_or(Value::Null);
            }
            if !cm.class.chases.is_empty() && !chases.iter().any(|c: &Value| c["ply"] == cm.ply) {
                chases.push(json!({ "ply": cm.ply, "pieces": cm.class.chases }));
            }
        }
    }
    let checks: Vec<usize> = plies
        .iter()
        .filter(|p| p["check"] == true)
        .filter_map(|p| p["ply"].as_u64().map(|n| n as usize))
        .collect();

    json!({
        "kind": kind.name(),
        "tags": record.tags.iter().map(|(n, v)| json!({ "name": n, "value": v })).collect::<Vec<_>>(),
        "initialFen": start.fen(),
        "plies": plies,
        "issues": record
            .issues
            .iter()
            .map(|i| {
                let mut issue = json!({ "ply": i.ply, "message": i.message });
                // A move the reader could not play, as facts a page words in its language.
                if let Some(r) = &i.refused {
                    issue["refused"] = json!({
                        "written": r.written,
                        "why": r.why.code(),
                        "selfCheck": r.self_check.is_some(),
                    });
                }
                issue
            })
            .collect::<Vec<_>>(),
        "verdict": judged.to_json(),
        "checks": checks,
        "chases": chases,
        "recordResult": judged.result_tag,
        "agrees": judged.agrees,
        "contradiction": judged.contradiction,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn review(text: &str, query: ReviewQuery) -> Result<Value, ApiError> {
        review_bytes(text.as_bytes(), &query)
    }

    fn ok(text: &str) -> Value {
        review(text, ReviewQuery::default()).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn chess_pgn_fools_mate() {
        let v = ok("[Event \"t\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n");
        assert_eq!(v["kind"], "chess");
        assert_eq!(v["format"], "chess-pgn");
        assert_eq!(v["games"], 1);
        assert_eq!(
            v["initialFen"],
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        let plies = v["plies"].as_array().unwrap();
        assert_eq!(plies.len(), 4);
        assert_eq!(plies[3]["coordinate"], "d8h4");
        assert_eq!(plies[3]["notation"], "Qh4#");
        assert_eq!(plies[3]["side"], "black");
        assert_eq!(plies[3]["check"], true);
        assert!(plies[3].get("wxf").is_none());
        assert_eq!(v["checks"], json!([4]));
        assert_eq!(v["verdict"]["result"], "black");
        assert_eq!(v["verdict"]["reason"], "checkmate");
        assert_eq!(v["verdict"]["ply"], 4);
        assert_eq!(v["recordResult"], "0-1");
        assert_eq!(v["agrees"], true);
        assert_eq!(v["tags"][0], json!({"name": "Event", "value": "t"}));
    }

    #[test]
    fn a_contradicted_result_is_flagged() {
        let v = ok("[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n");
        assert_eq!(v["agrees"], false);
        assert!(v["contradiction"].as_str().unwrap().contains("0-1"), "{v}");
        // A resignation: the board does not say.
        let v = ok("[Result \"1-0\"]\n\n1. e4 e5 1-0\n");
        assert_eq!(v["agrees"], Value::Null);
        assert_eq!(v["verdict"]["reason"], "not_over");
    }

    #[test]
    fn xiangqi_pgn_in_chinese_with_wxf() {
        let v = ok("[Game \"Chinese Chess\"]\n[Result \"*\"]\n\n1. 炮二平五 马8进7 2. 马二进三 *\n");
        assert_eq!(v["kind"], "xiangqi");
        assert_eq!(v["format"], "pgn");
        let plies = v["plies"].as_array().unwrap();
        assert_eq!(plies.len(), 3);
        assert_eq!(plies[0]["coordinate"], "h2e2");
        assert_eq!(plies[0]["notation"], "炮二平五");
        assert_eq!(plies[0]["wxf"], "C2.5");
        assert_eq!(plies[0]["side"], "red");
        assert_eq!(plies[1]["side"], "black");
        assert_eq!(v["verdict"]["ruleset"], "cxa");
        assert_eq!(v["agrees"], Value::Null);
    }

    #[test]
    fn perpetual_check_classified_and_rules_chosen() {
        // Red checks with the rook on every move: under the rulebook the offender is told to
        // vary; the cycle's moves carry their class.
        let text = "position fen 9/4k4/9/9/5R3/9/9/9/9/3K5 w - - 0 1 moves f5e5 e8f8 e5f5 f8e8 f5e5 e8f8 e5f5 f8e8\n";
        let v = ok(text);
        assert_eq!(v["format"], "moves");
        assert_eq!(v["checks"], json!([1, 3, 5, 7]));
        assert!(v["verdict"]["pending"]["explanation"]
            .as_str()
            .unwrap()
            .starts_with("red must vary"));
        assert!(v["plies"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["class"]["check"] == true));
        let axf = review(
            text,
            ReviewQuery {
                rules: Some("axf".into()),
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(axf["verdict"]["ruleset"], "axf");
        let bad = review(
            text,
            ReviewQuery {
                rules: Some("fide".into()),
                ..Default::default()
            },
        );
        assert!(matches!(bad, Err(e) if e.to_string().contains("cxa")));
    }

    #[test]
    fn point_19_an_events_limits_ride_on_the_rules_name() {
        let text = "position fen 3k5/9/9/9/9/9/2P6/9/9/4K4 w - - 0 1 moves e0e1 d9d8 e1e0 d8d9\n";
        let with = |rules: &str| {
            review(
                text,
                ReviewQuery {
                    rules: Some(rules.into()),
                    ..Default::default()
                },
            )
        };
        let v = with("cxa,limit=2").unwrap();
        assert_eq!(v["verdict"]["reason"], "natural_move_limit", "{v}");
        let v = with("simplified,temporary=1@2").unwrap();
        assert_eq!(
            (v["verdict"]["result"].as_str(), v["verdict"]["ply"].as_u64()),
            (Some("draw"), Some(4))
        );
        assert!(matches!(with("cxa,limit=99"), Err(e) if e.to_string().contains("1 to 60")));
    }

    #[test]
    fn point_02_a_refused_move_stops_the_review_where_it_stands() {
        let v = ok("[Game \"Chinese Chess\"]\n\n1. h2e2 h9g7 2. h2e2 *\n");
        assert_eq!(v["verdict"]["stopped_ply"], 3, "{v}");
        assert_eq!(
            v["issues"][0]["refused"],
            json!({ "written": "h2e2", "why": "illegal", "selfCheck": false }),
            "{v}"
        );
        assert!(v["verdict"]["stopped"].as_str().unwrap().contains("h2e2"), "{v}");
    }

    #[test]
    fn several_games_pick_one() {
        let text = "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4 d5 2. c4 *\n";
        let v = review(
            text,
            ReviewQuery {
                game: Some(2),
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!((v["game"].as_u64(), v["games"].as_u64()), (Some(2), Some(2)));
        assert_eq!(v["plies"].as_array().unwrap().len(), 3);
        let past = review(
            text,
            ReviewQuery {
                game: Some(3),
                ..Default::default()
            },
        );
        assert!(matches!(past, Err(e) if e.to_string().contains("holds 2 games")));
        let zero = review(
            text,
            ReviewQuery {
                game: Some(0),
                ..Default::default()
            },
        );
        assert!(zero.is_err());
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        assert!(review("", ReviewQuery::default()).is_err());
        assert!(review("  \n", ReviewQuery::default()).is_err());
        // XQF's magic with nothing after it.
        assert!(review_bytes(b"XQ\x0a\x00", &ReviewQuery::default()).is_err());
        assert!(review_bytes(&[0xff; 600], &ReviewQuery::default()).is_err());
        assert!(review("hello, world", ReviewQuery::default()).is_err());
        assert!(review("( ) * (", ReviewQuery::default()).is_err());
        let noise: Vec<u8> = (0..=255u8).cycle().take(5000).collect();
        assert!(review_bytes(&noise, &ReviewQuery::default()).is_err());
        assert!(review(
            "1. e4 e5",
            ReviewQuery {
                format: Some("nonsense".into()),
                ..Default::default()
            }
        )
        .is_err());
        // Garbage of every kind: an answer, whatever it is, and no panic.
        for junk in [
            "[Event",
            "1. Qxz9",
            "position fen x moves a",
            "[DhtmlXQ]",
            "1. 炮二平五 炮二平五",
        ] {
            let _ = review(junk, ReviewQuery::default());
        }
    }
}

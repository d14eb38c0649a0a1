//! Finding an opponent through the site rather than by passing seat links around:
//!
//! - [`routes`]: seeks in the lobby (`/api/seeks`: post one, list the others', accept one,
//!   cancel one's own) and challenges by link (`/api/challenge`).
//! - [`rematch`]: after a game, either player offers the same game again with colours swapped
//!   and the other accepts (`/api/game/{id}/rematch`).
//!
//! Everything is in the database (see `store::seeks`), so every node of a cluster lists the
//! same seeks, and every acceptance is one conditional UPDATE: of two accepters exactly one
//! gets the game. The games are made as `POST /api/game` makes them ([`crate::create::spec_of`],
//! [`App::create`]), each seat bound to its player's session (or account), so both players'
//! pages find their seats at `/game/ID` without a link.

pub mod rematch;
pub mod routes;

use axum::http::{HeaderMap, StatusCode};
use game::{Kind, Side};
use referee::clock::Millis;
use serde_json::{json, Value};

use crate::app::{App, Created};
use crate::db::now_unix_ms;
use crate::error::{ApiError, Problem};
use crate::live::Spec;

pub use routes::routes;

/// A seek is listed while its seeker's lobby asks for the list at least this often.
pub const SEEN_FOR_MS: i64 = 30_000;

/// A time control a seek may ask for: its name (as the API and the lobby give it), main time
/// and increment in seconds, and the limit on each single move.
pub struct Preset {
    pub name: &'static str,
    pub limit_s: u64,
    pub increment_s: u64,
    pub per_move_s: Option<u64>,
}

const fn preset(name: &'static str, limit_s: u64, increment_s: u64, per_move_s: Option<u64>) -> Preset {
    Preset {
        name,
        limit_s,
        increment_s,
        per_move_s,
    }
}

/// Bullet, blitz, rapid, classical, and the Chinese rules' limit per move (10 minutes, each
/// move within 60 seconds).
pub const PRESETS: [Preset; 8] = [
    preset("1+0", 60, 0, None),
    preset("3+2", 180, 2, None),
    preset("5+3", 300, 3, None),
    preset("10+5", 600, 5, None),
    preset("15+10", 900, 10, None),
    preset("30+0", 1800, 0, None),
    preset("60+30", 3600, 30, None),
    preset("10+0/60s", 600, 0, Some(60)),
];

pub fn preset_named(name: &str) -> Result<&'static Preset, ApiError> {
    PRESETS.iter().find(|p| p.name == name).ok_or_else(|| {
        let names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
        let known = names.join(", ");
        ApiError::bad(Problem::UnknownTime, format!("time: expected one of {known}")).arg("known", known)
    })
}

impl Preset {
    /// The game's settings for `kind` with this clock.
    pub fn spec(&self, kind: Kind) -> Spec {
        let ms = |s: u64| s as Millis * 1000;
        crate::create::spec_of(
            kind,
            None,
            None,
            Some((ms(self.limit_s), ms(self.increment_s))),
            self.per_move_s.map(ms),
        )
    }
}

/// The request's player: their holder name (`session:HASH` or `account:NAME`, as seats are
/// held) and the name others see; a request without a session is refused.
pub struct Player {
    pub holder: String,
    pub name: Option<String>,
}

pub async fn player(app: &App, headers: &HeaderMap) -> Result<Player, ApiError> {
    let v = crate::players::existing(app, headers).await?.ok_or_else(|| {
        ApiError::of(
            StatusCode::UNAUTHORIZED,
            Problem::NoSession,
            "no session: the request carries no session cookie (open a page of this server first)",
        )
    })?;
    Ok(Player {
        holder: store::players::holder_of(&v.hash, &v.session),
        name: v.session.display_name.or(v.session.account),
    })
}

impl Player {
    /// Rated games are for accounts, whose ratings the site keeps (as on lichess): a session
    /// alone may play casual games only.
    pub fn may_play_rated(&self, rated: bool) -> Result<(), ApiError> {
        if rated && !self.holder.starts_with("account:") {
            return Err(ApiError::of(
                StatusCode::FORBIDDEN,
                Problem::RatedNeedsAccount,
                "rated games are for accounts: sign in or make one (casual games need none)",
            ));
        }
        Ok(())
    }
}

pub(crate) fn side_code(side: Side) -> &'static str {
    match side {
        Side::First => "first",
        Side::Second => "second",
    }
}

pub(crate) fn side_of(code: &str) -> Side {
    if code == "first" {
        Side::First
    } else {
        Side::Second
    }
}

/// The game kind named `name`, or why it is none.
pub(crate) fn kind_of(name: &str) -> Result<Kind, ApiError> {
    name.parse()
        .map_err(|e: String| ApiError::bad(Problem::UnknownKind, e).arg("kind", name))
}

/// The holders of the seats (first, second) when `maker` plays `maker_side`.
pub(crate) fn seated<'a>(maker_side: Side, maker: &'a str, other: Option<&'a str>) -> [Option<&'a str>; 2] {
    match maker_side {
        Side::First => [Some(maker), other],
        Side::Second => [other, Some(maker)],
    }
}

/// Makes a game of `spec`, rated or not, its seats bound to `holders` (first, second; `None`
/// binds none), as `POST /api/game` makes one.
pub async fn make_game(app: &App, spec: Spec, rated: bool, holders: [Option<&str>; 2]) -> Result<Created, ApiError> {
    let created = app.create(Spec { rated, ..spec }).await?;
    let store = app.db().store();
    for (side, holder) in Side::BOTH.into_iter().zip(holders) {
        if let Some(holder) = holder {
            store
                .hold_seat_as(
                    holder,
                    &created.id,
                    side_code(side),
                    &created.tokens[side],
                    now_unix_ms(),
                )
                .await?;
        }
    }
    Ok(created)
}

/// A seek as the lobby lists it: what it asks for and who asks. The seeker's own come with the
/// game once one is made, and their side in it.
pub fn seek_json(s: &store::Seek, mine: bool) -> Value {
    let mut v = json!({
        "id": s.id,
        "kind": s.kind,
        "time": s.time_control,
        "rated": s.rated,
        "colour": s.colour,
        "name": s.name,
        "mine": mine,
    });
    if let (Some(game), Some(side)) = (&s.game_id, &s.holder_side) {
        let kind = s.kind.parse().unwrap_or(Kind::Chess);
        v["game"] = json!(game);
        v["side"] = json!(side_of(side).name(kind));
        v["url"] = json!(format!("/game/{game}"));
    }
    v
}

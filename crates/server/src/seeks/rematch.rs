//! Rematch: once a game is over, either seat's holder offers the same game again (same settings,
//! rated or not as it was, colours swapped); when the other holder accepts, it is made with both
//! seats bound, and both players' pages, which ask after the offer, go to it.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::get;
use axum::{Json, Router};
use game::{Kind, Side};
use serde_json::{json, Value};

use super::{make_game, player, seated, side_code, side_of, Player};
use crate::app::App;
use crate::codec::random_id;
use crate::db::now_unix_ms;
use crate::error::{ApiError, Problem};

pub fn routes() -> Router<Arc<App>> {
    Router::new().route("/api/game/{id}/rematch", get(state).post(offer).delete(withdraw))
}

/// A finished game's seats and its rematch offer, as one holder sees them.
struct Seen {
    kind: Kind,
    over: bool,
    rated: bool,
    /// The seat the asker holds, and who holds the other.
    mine: Option<Side>,
    other: Option<String>,
    offer: Option<store::Seek>,
}

async fn seen(app: &App, id: &str, me: Option<&Player>) -> Result<Seen, ApiError> {
    let store = app.db().store();
    let (over, rated) = store.game_terms(id).await?.ok_or(ApiError::NotFound)?;
    let stored = app.db().load(id).await?.ok_or(ApiError::NotFound)?;
    let holders = store.seat_holders(id).await?;
    let mine = me.and_then(|me| holders.iter().find(|(h, _)| *h == me.holder).map(|(_, s)| side_of(s)));
    let other = mine.and_then(|m| {
        holders
            .iter()
            .find(|(h, s)| side_of(s) != m && me.is_some_and(|me| *h != me.holder))
            .map(|(h, _)| h.clone())
    });
    Ok(Seen {
        kind: stored.spec.kind,
        over,
        rated,
        mine,
        other,
        offer: store.rematch_of(id).await?,
    })
}

fn answer(s: &Seen, me: Option<&Player>) -> Json<Value> {
    let offer = s.offer.as_ref().map(|o| {
        if me.is_some_and(|me| me.holder == o.holder) {
            "yours"
        } else {
            "theirs"
        }
    });
    Json(json!({
        "over": s.over,
        "rated": s.rated,
        "seat": s.mine.map(|m| m.name(s.kind)),
        // Whether there is someone to offer a rematch to.
        "opponent": s.other.is_some(),
        "offer": offer,
        "game": s.offer.as_ref().and_then(|o| o.game_id.clone()),
    }))
}

/// Where the rematch stands: the asker's seat, the offer (theirs or the other's), the new game
/// once made. Without a session: no seat.
async fn state(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let me = player(&app, &headers).await.ok();
    let s = seen(&app, &id, me.as_ref()).await?;
    Ok(answer(&s, me.as_ref()))
}

/// Offers a rematch, or accepts the other player's offer (then the game is made).
async fn offer(
    State(app): State<Arc<App>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let me = player(&app, &headers).await?;
    let mut s = seen(&app, &id, Some(&me)).await?;
    let Some(mine) = s.mine else {
        return Err(ApiError::of(
            StatusCode::FORBIDDEN,
            Problem::NoSeatInGame,
            "you hold no seat in this game",
        ));
    };
    if !s.over {
        return Err(ApiError::of(
            StatusCode::CONFLICT,
            Problem::GameNotOver,
            "the game is not over",
        ));
    }
    let Some(other) = s.other.clone() else {
        return Err(ApiError::of(
            StatusCode::CONFLICT,
            Problem::NoRematchPartner,
            "nobody else holds a seat in this game to play a rematch with",
        ));
    };
    let store = app.db().store();
    if s.offer.is_none() {
        let made = store
            .create_seek(&store::NewSeek {
                id: &random_id(12),
                mode: "rematch",
                holder: &me.holder,
                name: me.name.as_deref(),
                kind: s.kind.name(),
                time_control: "",
                rated: s.rated,
                // The offerer's seat in the rematch.
                colour: side_code(mine.other()),
                source_game: Some(&id),
                game: None,
                now_unix_ms: now_unix_ms(),
            })
            .await?;
        if made {
            s.offer = store.rematch_of(&id).await?;
            return Ok(answer(&s, Some(&me)));
        }
        // The other offered at the same moment: theirs stands, and this accepts it.
        s.offer = store.rematch_of(&id).await?;
    }
    let offer = s.offer.clone().ok_or(ApiError::NotFound)?;
    if offer.holder == me.holder || offer.taker.is_some() {
        return Ok(answer(&s, Some(&me)));
    }
    app.may_create(client.ip())?;
    if !store.take_seek(&offer.id, &me.holder, i64::MIN).await? {
        s.offer = store.rematch_of(&id).await?;
        return Ok(answer(&s, Some(&me)));
    }
    let spec = app.db().load(&id).await?.ok_or(ApiError::NotFound)?.spec;
    // Colours swapped: the seat each did not play.
    let holders = seated(mine.other(), &me.holder, Some(&other));
    let created = match make_game(&app, spec, s.rated, holders).await {
        Ok(c) => c,
        Err(e) => {
            store.release_seek(&offer.id, &me.holder).await?;
            return Err(e);
        }
    };
    store.seek_made(&offer.id, &created.id, side_code(mine)).await?;
    s.offer = store.rematch_of(&id).await?;
    Ok(answer(&s, Some(&me)))
}

/// Withdraws one's own offer while the other has not accepted it.
async fn withdraw(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let me = player(&app, &headers).await?;
    let mut s = seen(&app, &id, Some(&me)).await?;
    let offer = s.offer.clone().filter(|o| o.holder == me.holder).ok_or_else(|| {
        ApiError::of(
            StatusCode::NOT_FOUND,
            Problem::NoRematchOffered,
            "you have offered no rematch in this game",
        )
    })?;
    if !app.db().store().cancel_seek(&offer.id, &me.holder).await? {
        return Err(ApiError::of(
            StatusCode::CONFLICT,
            Problem::RematchAccepted,
            "the rematch was accepted already",
        ));
    }
    s.offer = None;
    Ok(answer(&s, Some(&me)))
}

//! The web page, served by the binary itself: the files of `web/`, embedded at build time, so
//! `arbiter serve` needs nothing beside it. The page is one document for the lobby (`/`) and
//! for every game (`/game/ID`); it draws itself from the game's stream. The review page
//! (`/review`) posts a record to `/api/review` and steps through the game it gets back. The
//! event page (`/event/new`, `/event/ID`) creates, runs and shows an event; a player's page
//! (`/player/NAME`) lists an account's games and ratings. Every page gives a browser without a
//! session one (see [`crate::players`]). The server's errors are written in the page's
//! language from `errors.json` (see [`crate::problem`]).

mod labels;

use std::sync::LazyLock;

use axum::extract::Path;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use crate::error::{ApiError, Problem};
use labels::{translated, Language, LABELS_JS};

const INDEX: &str = include_str!("../web/index.html");
/// The review page (`/review`): a record in, the game stepped through with the judge's verdict.
const REVIEW: &str = include_str!("../web/review.html");
/// The event pages: `/event/new` to create one, `/event/ID` to follow, run or play in it.
const EVENT: &str = include_str!("../web/event.html");

/// A player's page (`/player/NAME`): their games and ratings.
const PLAYER: &str = include_str!("../web/player.html");

/// Name, media type, contents.
const ASSETS: &[(&str, &str, &str)] = &[
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/app.js"),
    ),
    (
        "api.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/api.js"),
    ),
    (
        "socket.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/socket.js"),
    ),
    (
        "i18n.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/i18n.js"),
    ),
    (
        "lobby.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/lobby.js"),
    ),
    (
        "board.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/board.js"),
    ),
    (
        "event.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/event.js"),
    ),
    (
        "eventorg.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/eventorg.js"),
    ),
    (
        "eventtables.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/eventtables.js"),
    ),
    (
        "eventstrings.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/eventstrings.js"),
    ),
    (
        "console.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/console.js"),
    ),
    (
        "device.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/device.js"),
    ),
    (
        "notices.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/notices.js"),
    ),
    (
        "refereestrings.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/refereestrings.js"),
    ),
    (
        "actions.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/actions.js"),
    ),
    (
        "premove.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/premove.js"),
    ),
    (
        "movelist.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/movelist.js"),
    ),
    (
        "sound.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/sound.js"),
    ),
    (
        "minis.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/minis.js"),
    ),
    ("me.js", "text/javascript; charset=utf-8", include_str!("../web/me.js")),
    (
        "watching.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/watching.js"),
    ),
    (
        "seek.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/seek.js"),
    ),
    (
        "rematch.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/rematch.js"),
    ),
    (
        "seekstrings.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/seekstrings.js"),
    ),
    (
        "player.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/player.js"),
    ),
    (
        "playerstrings.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/playerstrings.js"),
    ),
    ("event.css", "text/css; charset=utf-8", include_str!("../web/event.css")),
    ("style.css", "text/css; charset=utf-8", include_str!("../web/style.css")),
    (
        "review.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/review.js"),
    ),
    (
        "reviewstrings.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/reviewstrings.js"),
    ),
    (
        "analysis.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/analysis.js"),
    ),
    (
        "errors.js",
        "text/javascript; charset=utf-8",
        include_str!("../web/errors.js"),
    ),
    // The sentences of the server's errors, fetched by errors.js once one is to be shown.
    (
        "errors.json",
        "application/json; charset=utf-8",
        include_str!("../web/errors.json"),
    ),
];

pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/", get(lobby))
        .route("/game/{id}", get(game_page))
        .route("/review", get(review))
        .route("/event/{id}", get(event))
        .route("/player/{name}", get(player))
        .route("/static/{file}", get(asset))
}

/// The lobby and the game page in each language: the lobby shown, the game page's lobby
/// hidden until its script has looked (a game page never shows it).
static PAGES: LazyLock<[[String; 2]; 2]> = LazyLock::new(|| {
    [Language::En, Language::Zh].map(|lang| {
        let page = translated(INDEX, lang);
        let lobby = page.replacen(r#"<main id="lobby" hidden>"#, r#"<main id="lobby">"#, 1);
        [lobby, page]
    })
});

async fn lobby(headers: HeaderMap) -> Response {
    page(&headers, 0)
}

async fn game_page(headers: HeaderMap) -> Response {
    page(&headers, 1)
}

fn page(headers: &HeaderMap, which: usize) -> Response {
    let lang = Language::of(headers) as usize;
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::VARY, "Cookie, Accept-Language"),
        ],
        PAGES[lang][which].as_str(),
    )
        .into_response()
}

async fn event() -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], EVENT).into_response()
}

async fn player() -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], PLAYER).into_response()
}

async fn review() -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], REVIEW).into_response()
}

async fn asset(Path(file): Path<String>) -> Response {
    if file == "labels.js" {
        return (
            [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
            LABELS_JS.as_str(),
        )
            .into_response();
    }
    match ASSETS.iter().find(|(name, _, _)| *name == file) {
        Some((_, media, body)) => ([(header::CONTENT_TYPE, *media)], *body).into_response(),
        None => ApiError::of(StatusCode::NOT_FOUND, Problem::NoSuchFile, format!("no file {file:?}"))
            .arg("file", file)
            .into_response(),
    }
}

//! Issue 30, at the board, in headless Chromium: the files' names as each player reads them
//! (Xiangqi's 一–九 along Red's edge and 1–9 along Black's, chess's a–h and 1–8), turned with
//! the board; the pieces in traditional or simplified characters; a sound for each move,
//! capture and end that reaches the page, none once the player turns sound off; and a game played with the keyboard alone, each point named for a
//! screen reader in the page's language and each move read out. Screenshots:
//! `target/e2e-screenshots/board-*.png`.

use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::key::Key;
use fantoccini::Client;
use serde_json::{json, Value};

mod common;
mod web;
use web::event::EventServer;
use web::*;

/// The coordinates along the top and the bottom edge, left to right, and down the left edge.
async fn edges(c: &Client) -> (String, String, String) {
    let v = js(
        c,
        "const ts = [...document.querySelectorAll('#board .coords text')].map((t) => { \
           const b = t.getBoundingClientRect(); return { s: t.textContent, x: b.left, y: b.top }; }); \
         const ys = ts.map((t) => t.y); const top = Math.min(...ys), bottom = Math.max(...ys); \
         const xs = ts.map((t) => t.x); const left = Math.min(...xs); \
         const row = (y) => ts.filter((t) => Math.abs(t.y - y) < 4).sort((a, b) => a.x - b.x).map((t) => t.s).join(''); \
         const col = ts.filter((t) => Math.abs(t.x - left) < 4).sort((a, b) => a.y - b.y).map((t) => t.s).join(''); \
         return [row(top), row(bottom), col];",
    )
    .await;
    let s = |i: usize| v[i].as_str().unwrap().to_string();
    (s(0), s(1), s(2))
}

/// The last sound the page made (`data-sound`: its kind and a count), or "".
async fn last_sound(c: &Client) -> String {
    js(c, "return document.documentElement.dataset.sound || '';")
        .await
        .as_str()
        .unwrap()
        .to_string()
}

async fn wait_sound(c: &Client, kind: &str, count: usize) {
    until(
        c,
        &format!("sound {kind} {count}"),
        &format!(
            "return document.documentElement.dataset.sound === {};",
            json!(format!("{kind} {count}"))
        ),
    )
    .await;
}

/// A command for seat `seat` of `game` through the Board API, as its player's program would.
async fn act(base: &str, game: &Value, seat: usize, path: &str) {
    let id = game["id"].as_str().unwrap();
    let token = game["seats"][seat]["token"].as_str();
    api(base, "POST", &format!("/api/board/game/{id}/{path}"), token, None).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn coordinates_and_sounds() {
    let server = EventServer::start("board-page");
    let base = server.base();
    let Some((_driver, red, black)) = desk_and_phone().await else {
        return;
    };
    let run = async {
        let (g, _) = seated(&base, "xiangqi", &red, &black).await;
        let (top, bottom, _) = edges(&red).await;
        assert_eq!((top.as_str(), bottom.as_str()), ("123456789", "九八七六五四三二一"));
        // Black at the bottom: each side still reads its own files from its right.
        let (top, bottom, _) = edges(&black).await;
        assert_eq!((top.as_str(), bottom.as_str()), ("一二三四五六七八九", "987654321"));

        // The first state makes no sound; each move after it does, seen from both seats.
        assert_eq!(last_sound(&black).await, "");
        act(&base, &g, 0, "move/h2e2").await;
        wait_sound(&black, "move", 1).await;
        wait_sound(&red, "move", 1).await;
        act(&base, &g, 1, "move/h9g7").await;
        wait_sound(&black, "move", 2).await;
        // 炮五进四: the cannon takes the central pawn over its own.
        act(&base, &g, 0, "move/e2e6").await;
        wait_sound(&black, "capture", 3).await;
        shot(&red, "board-xiangqi-1280").await;
        shot(&black, "board-xiangqi-390").await;

        // Red turns sound off: Black's page sounds the next move, Red's does not, and the
        // setting holds for Red's next page.
        click(&red, "#sound").await;
        act(&base, &g, 1, "move/g7e6").await;
        wait_sound(&black, "capture", 4).await;
        assert_eq!(last_sound(&red).await, "capture 3");
        act(&base, &g, 0, "resign").await;
        wait_sound(&black, "end", 5).await;
        assert_eq!(last_sound(&red).await, "capture 3");
        red.refresh().await.unwrap();
        until(
            &red,
            "the sound box read",
            "return document.getElementById('sound').checked === false;",
        )
        .await;

        // Simplified characters for the pieces, chosen on the page and kept for the next one.
        let glyphs = "return ['e0', 'b9', 'a0'].map((sq) => document.querySelector(`#board g.piece[data-square='${sq}'] text`).textContent).join('');";
        // The page reloaded draws its board once the game's stream has answered.
        until(
            &red,
            "the board drawn again",
            "return document.querySelector(\"#board g.piece[data-square='a0'] text\") !== null;",
        )
        .await;
        assert_eq!(js(&red, glyphs).await, json!("帥馬俥"));
        select(&red, "#pieces", "simplified").await;
        assert_eq!(js(&red, glyphs).await, json!("帅马车"));
        red.refresh().await.unwrap();
        until(
            &red,
            "the board in simplified characters",
            &format!("return (() => {{ try {{ {glyphs} }} catch (e) {{ return null; }} }})() === '帅马车';"),
        )
        .await;

        // Chess: a–h along the bottom and 1–8 up the left for White, turned for Black.
        seated(&base, "chess", &red, &black).await;
        let (_, bottom, left) = edges(&red).await;
        assert_eq!((bottom.as_str(), left.as_str()), ("abcdefgh", "87654321"));
        let (_, bottom, left) = edges(&black).await;
        assert_eq!((bottom.as_str(), left.as_str()), ("hgfedcba", "12345678"));
        shot(&black, "board-chess-390").await;
    };
    run.await;
    red.close().await.unwrap();
    black.close().await.unwrap();
}

/// A new game of `kind` through the API, its first seat's page opened in `first` and its
/// second's in `second`: the game and the second seat's link.
async fn seated(base: &str, kind: &str, first: &Client, second: &Client) -> (Value, String) {
    let g = api(base, "POST", "/api/game", None, Some(json!({ "kind": kind }))).await;
    let link = |i: usize| format!("{base}{}", g["seats"][i]["url"].as_str().unwrap());
    open_board(first, &link(0), kind).await;
    open_board(second, &link(1), kind).await;
    let second_link = link(1);
    (g, second_link)
}

/// Presses and releases each key in turn, wherever the focus is (no element is aimed at).
async fn press(c: &Client, keys: &[Key]) {
    let mut actions = KeyActions::new("keyboard".into());
    for k in keys {
        let value = char::from(*k);
        actions = actions.then(KeyAction::Down { value }).then(KeyAction::Up { value });
    }
    c.perform_actions(actions).await.unwrap();
    c.release_actions().await.unwrap();
}

/// The focused element's accessible name (its `aria-label`), or "".
async fn focused(c: &Client) -> String {
    js(
        c,
        "const e = document.activeElement; return (e && e.getAttribute('aria-label')) || '';",
    )
    .await
    .as_str()
    .unwrap_or_default()
    .to_string()
}

/// Tabs from the top of the page until a point of the board has the focus: its name.
async fn tab_to_board(c: &Client) -> String {
    for _ in 0..60 {
        press(c, &[Key::Tab]).await;
        let on_point = js(
            c,
            "return document.activeElement?.matches('#board rect.point') === true;",
        )
        .await;
        if on_point == json!(true) {
            return focused(c).await;
        }
    }
    panic!("the board's points are not in the tab order");
}

fn times(k: Key, n: usize) -> Vec<Key> {
    vec![k; n]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_by_keyboard_alone() {
    let server = EventServer::start("board-keys");
    let base = server.base();
    let Some((_driver, red, black)) = desk_and_phone().await else {
        return;
    };
    let run = async {
        // Black's page in Chinese, chosen in the header as a person would.
        let (_, black_link) = seated(&base, "xiangqi", &red, &black).await;
        select(&black, "#lang", "zh").await;
        open_board(&black, &black_link, "xiangqi").await;

        // Red starts on its general, walks to its right cannon, picks it up, lets it go with
        // Escape, picks it up again and puts it down in the middle: 炮二平五.
        assert_eq!(tab_to_board(&red).await, "e0 Red general");
        press(&red, &[&times(Key::Right, 3)[..], &times(Key::Up, 2)[..]].concat()).await;
        assert_eq!(focused(&red).await, "h2 Red cannon");
        press(&red, &[Key::Enter]).await;
        assert_eq!(focused(&red).await, "h2 Red cannon (picked up)");
        press(&red, &[Key::Escape]).await;
        assert_eq!(focused(&red).await, "h2 Red cannon");
        press(&red, &[Key::Space]).await;
        press(&red, &times(Key::Left, 3)).await;
        assert_eq!(focused(&red).await, "e2 empty (can move here)");
        press(&red, &[Key::Enter]).await;
        wait_plies(&red, 1).await;
        wait_plies(&black, 1).await;
        // The focus stays on the board, on the point moved to, now named by its piece.
        until(
            &red,
            "the focus on e2",
            "return document.activeElement?.getAttribute('aria-label') === 'e2 Red cannon';",
        )
        .await;

        // Black, turned and in Chinese, starts where the last move ended: 马８进７ by keyboard.
        assert_eq!(tab_to_board(&black).await, "e2 红炮");
        press(&black, &[&times(Key::Left, 3)[..], &times(Key::Down, 7)[..]].concat()).await;
        assert_eq!(focused(&black).await, "h9 黑马");
        press(&black, &[Key::Enter, Key::Right, Key::Up, Key::Up]).await;
        assert_eq!(focused(&black).await, "g7 空 (可走到这里)");
        press(&black, &[Key::Enter]).await;
        wait_plies(&red, 2).await;
        // Each move read out where a screen reader hears it, in the page's language.
        wait_text(&red, "#announce", "Black: 马８进７").await;
        until(
            &black,
            "the move read out",
            "return document.getElementById('announce').textContent === '黑方：马８进７';",
        )
        .await;
        shot(&red, "board-keyboard-1280").await;
        shot(&black, "board-keyboard-390-zh").await;
    };
    run.await;
    red.close().await.unwrap();
    black.close().await.unwrap();
}

/// A visitor on `c` plays the computer at level 1 to the end, with the page in `lang`;
/// screenshots `board-computer-{tag}-*`.
async fn play_the_computer(c: &Client, base: &str, lang: &str, tag: &str) {
    let (red_plays, red_to_move, computer) = match lang {
        "zh" => ("你执红方", "轮到红方走棋", "电脑，1级"),
        _ => ("You play Red", "Red to move", "The computer, level 1"),
    };
    // The lobby: the computer at level 1 as the opponent; the board opens at once.
    c.goto(&format!("{base}/")).await.unwrap();
    select(c, "#lang", lang).await;
    select(c, "#opponent", "1").await;
    click(c, "#start").await;
    until(
        c,
        "the board",
        "return document.querySelector('#board svg g.piece') !== null;",
    )
    .await;
    wait_text(c, "#seat", red_plays).await;
    // The computer is named beside its clock.
    wait_text(c, "#clock-black .who", computer).await;
    shot(c, &format!("board-computer-{tag}-start")).await;
    // Red plays as a person clicking at random would: a piece that can move, then one of the
    // points it can go to; the computer answers each move, until the game is over.
    let mut moves = 0;
    loop {
        let turn = until(
            c,
            "Red's turn or the end",
            &format!(
                "const s = document.getElementById('status'); \
                 return s.classList.contains('over') ? 'over' : s.textContent.startsWith({}) ? 'red' : null;",
                json!(red_to_move)
            ),
        )
        .await;
        if turn == "over" {
            break;
        }
        let pieces = js(
            c,
            "return [...document.querySelectorAll('#board g.piece.white')].map((p) => p.dataset.square).sort(() => Math.random() - 0.5);",
        )
        .await;
        let mut moved = false;
        for sq in pieces.as_array().unwrap() {
            click_at(c, &format!("#board g.piece[data-square='{}']", sq.as_str().unwrap())).await;
            let hints = js(
                c,
                "return [...document.querySelectorAll('#board circle.hint')].map((h) => h.dataset.square);",
            )
            .await;
            if let Some(to) = hints.as_array().and_then(|h| h.first()) {
                click_at(
                    c,
                    &format!("#board circle.hint[data-square='{}']", to.as_str().unwrap()),
                )
                .await;
                moved = true;
                break;
            }
        }
        assert!(moved, "Red to move with no piece that can move");
        moves += 1;
        // The computer's answer, unless Red's move ended the game.
        until(
            c,
            "the computer's answer",
            &format!(
                "return document.getElementById('status').classList.contains('over') \
                 || document.querySelectorAll('#moves .move').length === {};",
                moves * 2
            ),
        )
        .await;
        assert!(moves < 400, "no end after {moves} moves");
    }
    let status = text(c, "#status").await;
    shot(c, &format!("board-computer-{tag}-end")).await;
    eprintln!("{tag}: against the computer at level 1: {status} after {moves} moves of Red's");
    assert!(!status.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_visitor_plays_the_computer_to_the_end() {
    if testdata::fairy_stockfish("playing the computer").is_none() {
        return;
    }
    let server = EventServer::start("board-computer");
    let base = server.base();
    let Some((_driver, desk, phone)) = desk_and_phone().await else {
        return;
    };
    // Two visitors at once, each against the computer: on a desk in English, on a phone in
    // Chinese.
    tokio::join!(
        play_the_computer(&desk, &base, "en", "1280-en"),
        play_the_computer(&phone, &base, "zh", "390-zh"),
    );
    desk.close().await.unwrap();
    phone.close().await.unwrap();
}

/// The computer busy with as many games as the server allows (one here): a visitor asking for
/// one more is told so in the page's language, and nothing is made.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_busy_is_said_in_the_pages_language() {
    if testdata::fairy_stockfish("playing the computer").is_none() {
        return;
    }
    let db = std::env::temp_dir().join(format!("arbiter-computer-busy-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&db);
    let server = common::Server::start_with(db.to_str().unwrap(), &["--computer-games", "1"]);
    let base = server.base.clone();
    // The one place taken: a game against the computer, waiting for Red's first move.
    let taken = reqwest::Client::new()
        .post(format!("{base}/api/game"))
        .json(&json!({"kind": "xiangqi", "computer": {"level": 1}}))
        .send()
        .await
        .unwrap();
    assert!(taken.status().is_success(), "{}", taken.status());
    let Some((_driver, desk, phone)) = desk_and_phone().await else {
        return;
    };
    desk.close().await.unwrap();
    phone.goto(&format!("{base}/")).await.unwrap();
    select(&phone, "#lang", "zh").await;
    select(&phone, "#opponent", "1").await;
    click(&phone, "#start").await;
    wait_text(
        &phone,
        "#create-error",
        "电脑同时下的对局已达本服务器的上限，请过几分钟再试。",
    )
    .await;
    assert!(phone.current_url().await.unwrap().path() == "/", "still in the lobby");
    shot(&phone, "board-computer-busy-390-zh").await;
    phone.close().await.unwrap();
    let _ = std::fs::remove_file(&db);
}

//! Issue 30, at the board, in headless Chromium: two visitors play a chess game (`online`
//! rules), White on a desktop page in English (1280×900), Black on a phone page in Chinese
//! (390×844). Black premoves by keyboard while White thinks and the premove is played the moment
//! White's move arrives; a premove is cancelled by Escape; White asks to take back a move and
//! Black accepts; a premove not legal when its turn comes is dropped; a draw offer is declined and White's offer button then hides; a refusal and
//! the ending appear in each page's language, written from the referee's codes. Then a Xiangqi
//! game under CXA, where a draw is offered with one's own move: the button offers with the next
//! move, and there is no takeback button. Screenshots:
//! `target/e2e-screenshots/actions-*.png`.

use fantoccini::Client;
use serde_json::{json, Value};

mod common;
mod web;
use web::event::EventServer;
use web::*;

/// Presses `keys` on the board, one keydown each, as a keyboard does on the focused point.
async fn press(c: &Client, keys: &[&str]) {
    for key in keys {
        c.execute(
            "document.querySelector('#board svg').dispatchEvent(new KeyboardEvent('keydown', { key: arguments[0], bubbles: true }));",
            vec![json!(key)],
        )
        .await
        .unwrap();
    }
}

async fn premove_marks(c: &Client) -> u64 {
    js(c, "return document.querySelectorAll('#board .premove').length;")
        .await
        .as_u64()
        .unwrap()
}

/// Text in the Chinese page that is one of the referee's English sentences.
async fn no_english(c: &Client, css: &str) {
    let t = text(c, css).await;
    assert!(
        !t.chars().any(|ch| ch.is_ascii_alphabetic()),
        "{css} is in English: {t}"
    );
}

async fn run(base: &str, white: &Client, black: &Client) {
    let g: Value = api(base, "POST", "/api/game", None, Some(json!({ "kind": "chess" }))).await;
    let id = g["id"].as_str().unwrap().to_string();
    let link = |i: usize| format!("{base}{}", g["seats"][i]["url"].as_str().unwrap());
    open_board(white, &link(0), "chess").await;
    open_board(black, &link(1), "chess").await;
    select(black, "#lang", "zh").await;
    open_board(black, &link(1), "chess").await;
    // Nothing to take back yet, nothing offered: no takeback, accept or decline buttons.
    for c in [white, black] {
        for b in ["#takeback", "#takeback-accept", "#accept", "#decline"] {
            assert!(!visible(c, b).await, "{b} shows before it means anything");
        }
    }

    // Black, at the keyboard while White is to move: from the queen's square (where the
    // keyboard starts), to e7, picked up, two squares on to e5, put down: a premove.
    press(black, &["ArrowLeft", "ArrowUp", "Enter", "ArrowUp", "ArrowUp", "Enter"]).await;
    let note = wait_text(black, "#premove-note", "预走 e7e5").await;
    println!("premove: {note}");
    assert_eq!(premove_marks(black).await, 2, "the premove's squares are marked");
    shot(black, "actions-premove-390-zh").await;
    // White moves; Black's premove goes at once.
    play(white, "e2e4").await;
    for c in [white, black] {
        wait_plies(c, 2).await;
    }
    assert_eq!(moves(white).await, ["e4", "e5"]);
    assert_eq!(premove_marks(black).await, 0);
    assert!(!visible(black, "#premove-note").await);

    // A premove picked with the pointer, then let go with Escape.
    click_at(black, "#board g.piece[data-square='g8']").await;
    click_at(black, "#board rect.point[data-square='f6']").await;
    wait_text(black, "#premove-note", "g8f6").await;
    assert_eq!(premove_marks(black).await, 2);
    press(black, &["Escape"]).await;
    until(
        black,
        "the premove cancelled",
        "return document.querySelectorAll('#board .premove').length === 0 && document.getElementById('premove-note').hidden;",
    )
    .await;

    // White plays, then asks to take the move back; Black, asked in Chinese, accepts.
    play(white, "g1f3").await;
    wait_plies(black, 3).await;
    until(
        white,
        "the takeback button",
        "return !document.getElementById('takeback').hidden;",
    )
    .await;
    click(white, "#takeback").await;
    wait_text(white, "#takeback-note", "You asked to take back").await;
    wait_text(black, "#takeback-note", "白方请求悔棋").await;
    assert_eq!(text(black, "#takeback-accept").await, "同意悔棋");
    shot(black, "actions-takeback-asked-390-zh").await;
    click(black, "#takeback-accept").await;
    for c in [white, black] {
        wait_plies(c, 2).await;
    }
    let taken = wait_text(black, "#message", "已悔一着").await;
    println!("takeback: {taken}");
    no_english(black, "#message").await;
    wait_text(white, "#message", "Taken back: one move").await;
    assert!(!visible(black, "#takeback-accept").await);
    shot(white, "actions-taken-back-1280-en").await;

    // A premove that is not legal when its turn comes (the rook is blocked) is dropped.
    click_at(black, "#board g.piece[data-square='a8']").await;
    click_at(black, "#board rect.point[data-square='a5']").await;
    wait_text(black, "#premove-note", "a8a5").await;
    play(white, "d2d4").await;
    wait_plies(black, 3).await;
    until(
        black,
        "the illegal premove dropped",
        "return document.querySelectorAll('#board .premove').length === 0 && document.getElementById('premove-note').hidden;",
    )
    .await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(moves(white).await.len(), 3, "nothing was sent for Black");

    // White offers a draw, Black declines: White may not offer again until Black has.
    click(white, "#draw").await;
    until(
        black,
        "the decline button",
        "return !document.getElementById('decline').hidden;",
    )
    .await;
    click(black, "#decline").await;
    wait_text(white, "#message", "Black declined the draw offer").await;
    wait_text(black, "#message", "黑方拒绝了提和").await;
    until(
        white,
        "the offer button hidden",
        "return document.getElementById('draw').hidden;",
    )
    .await;
    assert!(visible(black, "#draw").await, "Black may still offer");
    assert!(!visible(black, "#accept").await);
    shot(white, "actions-draw-declined-1280-en").await;

    // A refusal the player can cause (answering a takeback nobody asked for), in each language.
    let token = g["seats"][1]["token"].as_str().unwrap();
    let r = reqwest::Client::new()
        .post(format!("{base}/api/board/game/{id}/takeback/no"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 400);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["why"], "no_takeback_pending", "{body}");
    let refused = wait_text(black, "#message", "对方并未请求悔棋").await;
    println!("refused: {refused}");
    no_english(black, "#message").await;
    wait_text(white, "#message", "Black: no takeback is asked for").await;
    shot(black, "actions-refused-390-zh").await;

    // Black resigns: the ending in the referee's words, in each page's language.
    click(black, "#resign").await;
    let ended = wait_text(black, "#explanation", "黑方认输").await;
    println!("ending: {ended}");
    no_english(black, "#explanation").await;
    wait_text(black, "#status", "白方胜").await;
    wait_text(white, "#explanation", "Black resigned").await;
    for c in [white, black] {
        for b in ["#draw", "#takeback", "#takeback-accept", "#accept", "#claim"] {
            assert!(!visible(c, b).await, "{b} shows after the end");
        }
    }
    shot(black, "actions-ended-390-zh").await;
    shot(white, "actions-ended-1280-en").await;
}

/// Under rules where a draw is offered with one's own move (CXA): the button offers with the
/// next move; no takeback button (competition rules take none).
async fn offer_with_move(base: &str, red: &Client, black: &Client) {
    let g: Value = api(
        base,
        "POST",
        "/api/game",
        None,
        Some(json!({ "kind": "xiangqi", "ruleset": "cxa" })),
    )
    .await;
    let id = g["id"].as_str().unwrap().to_string();
    let link = |i: usize| format!("{base}{}", g["seats"][i]["url"].as_str().unwrap());
    for (i, mv) in ["h2e2", "h9g7"].iter().enumerate() {
        let token = g["seats"][i]["token"].as_str();
        api(base, "POST", &format!("/api/board/game/{id}/move/{mv}"), token, None).await;
    }
    open_board(red, &link(0), "xiangqi").await;
    open_board(black, &link(1), "xiangqi").await;
    wait_plies(red, 2).await;
    assert_eq!(text(red, "#draw").await, "Offer a draw with my next move");
    assert!(!visible(red, "#takeback").await, "no takebacks under CXA");
    click(red, "#draw").await;
    wait_text(red, "#offer", "Your draw offer goes with your next move").await;
    shot(red, "actions-offer-with-move-1280-en").await;
    play(red, "b0c2").await;
    wait_plies(black, 3).await;
    wait_text(black, "#offer", "红方提和").await;
    assert!(visible(black, "#decline").await);
    click(black, "#decline").await;
    until(
        red,
        "the offer button hidden after the decline",
        "return document.getElementById('draw').hidden;",
    )
    .await;
    assert_eq!(text(red, "#offer").await, "");
    shot(black, "actions-offer-with-move-declined-390-zh").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn premoves_takebacks_and_draw_buttons_at_the_board() {
    let server = EventServer::start("actions-page");
    let base = server.base();
    let Some((_driver, white, black)) = desk_and_phone().await else {
        return;
    };
    run(&base, &white, &black).await;
    offer_with_move(&base, &white, &black).await;
    white.close().await.unwrap();
    black.close().await.unwrap();
}

//! A live game the event no longer needs, on the page: the organiser enters a double forfeit
//! (`--`) for a match's first game while it is in play; the game's page (a spectator's, at
//! 1280×900) and the event page's mini-board (a phone, 390×844) show it called off by the
//! arbiter, with the arbiter's reason — in English and in Chinese — and the crosstable scores
//! the double forfeit for neither player. Screenshots go to
//! `target/e2e-screenshots/called-off-*.png`.

use std::time::Duration;

use fantoccini::Locator;
use serde_json::json;

mod common;
mod web;
use web::event::*;
use web::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_called_off_by_the_arbiter_says_so() {
    let server = EventServer::start("called-off-page");
    let base = server.base();
    let (event, org) = new_event(
        &base,
        json!({"name": "Two-game matches", "format": "round-robin", "kind": "xiangqi", "games": 2,
        "clock": {"limit": 600, "increment": 0}}),
    )
    .await;
    let players = register(&base, &event, &org, &["Lü Qin", "Hong Zhi"]).await;
    let round = start_round(&base, &event, &org).await;
    let pairing = round["pairings"][0]["id"].as_str().unwrap().to_string();
    let me = api(&base, "GET", &format!("/api/event/{event}/me"), Some(&players[0]), None).await;
    let game = me["game"]["id"].as_str().unwrap().to_string();
    // Red's first move: the game is under way.
    let red = if me["game"]["side"] == "red" {
        &players[0]
    } else {
        &players[1]
    };
    api(
        &base,
        "POST",
        &format!("/api/board/game/{game}/move/h2e2"),
        Some(red),
        None,
    )
    .await;
    let Some((_driver, desk, phone)) = desk_and_phone().await else {
        return;
    };
    let run = async {
        open_board(&desk, &format!("{base}/game/{game}"), "xiangqi").await;
        wait_plies(&desk, 1).await;
        phone.goto(&format!("{base}/event/{event}")).await.unwrap();
        until(
            &phone,
            "the live board",
            "return document.querySelectorAll('#boards .mini').length === 1;",
        )
        .await;

        let reason = "neither player came back after the break";
        let v = api(
            &base,
            "POST",
            &format!("/api/event/{event}/result"),
            Some(&org),
            Some(json!({"pairing": pairing, "results": ["--"], "reason": reason})),
        )
        .await;
        assert_eq!(v["verdict"], "drawn", "{v}");
        wait_text(&desk, "#status", "Aborted (called off by the arbiter)").await;
        let why = wait_text(&desk, "#explanation", reason).await;
        assert_eq!(
            why,
            format!("The arbiter: the organiser entered --, neither side credited: {reason}")
        );
        shot(&desk, "called-off-desktop-game").await;
        wait_text(&phone, "#boards .mini-status", "Aborted (called off by the arbiter)").await;
        // The crosstable scores the double forfeit for neither player.
        until(
            &phone,
            "the double forfeit in the crosstable",
            "const c = (a, b) => document.querySelector(`#table td[data-a='${a}'][data-b='${b}']`)?.textContent; \
             return c(1, 2) === '0' && c(2, 1) === '0';",
        )
        .await;
        shot(&phone, "called-off-phone-event").await;

        desk.find(Locator::Css("#lang"))
            .await
            .unwrap()
            .select_by_value("zh")
            .await
            .unwrap();
        wait_text(&desk, "#status", "对局取消（裁判取消）").await;
        let why = wait_text(&desk, "#explanation", "裁判：").await;
        assert!(why.ends_with(reason), "{why}");
        shot(&desk, "called-off-desktop-game-zh").await;
    };
    tokio::time::timeout(Duration::from_secs(120), run)
        .await
        .expect("the called-off page test took over 120 s");
    desk.close().await.unwrap();
    phone.close().await.unwrap();
}

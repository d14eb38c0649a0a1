//! A spectator finds a game in the lobby's list of games being played and watches it, in
//! headless Chromium (see `browser.rs` for how it is driven), at 1280×900 and 390×844, in
//! English and Chinese: the list's small boards follow their games, each named by its players
//! (a display name, "Anonymous", the computer's level), and one opens the game for watching,
//! where the next moves arrive live. Screenshots go to `target/e2e-screenshots/watching-*.png`.

use std::time::Duration;

use fantoccini::Client;
use serde_json::{json, Value};

mod common;
mod web;
use common::{api, Server};
use web::*;

/// The captions of the lobby's small boards, once there are `n`.
async fn captions(c: &Client, n: usize) -> Vec<String> {
    let js = format!(
        "const m = [...document.querySelectorAll('#live-games .mini')]; \
         return m.length === {n} && m.every((e) => e.querySelector('svg g.piece')) \
           ? m.map((e) => e.querySelector('figcaption').textContent) : null;"
    );
    let v = until(c, &format!("{n} small boards in the lobby"), &js).await;
    serde_json::from_value(v).unwrap()
}

/// Plays `mv` in game `g` with its seat `side` (0, 1) over the API.
async fn move_by_api(base: &str, g: &Value, side: usize, mv: &str) {
    let id = g["id"].as_str().unwrap();
    let token = g["seats"][side]["token"].as_str().unwrap();
    api(
        base,
        "POST",
        &format!("/api/board/game/{id}/move/{mv}"),
        Some(token),
        None,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_watches_from_the_live_list() {
    let Some((_driver, desk, phone)) = desk_and_phone().await else {
        return;
    };
    if !std::path::Path::new("/usr/games/fairy-stockfish").is_file() {
        testdata::skip("the list's computer game needs fairy-stockfish (apt-get install fairy-stockfish)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("arbiter-watching-page-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let _dir = Scratch(dir.clone());
    let server = Server::start_with(&format!("sqlite://{}?mode=rwc", dir.join("w.db").display()), &[]);
    let base = server.base.clone();
    let run = async {
        // Two games being played: Xiangqi between two people, chess against the computer.
        let xq = api(&base, "POST", "/api/game", None, Some(json!({ "kind": "xiangqi" }))).await;
        move_by_api(&base, &xq, 0, "h2e2").await;
        let body = json!({ "kind": "chess", "computer": { "level": 1 } });
        let vs = api(&base, "POST", "/api/game", None, Some(body)).await;
        move_by_api(&base, &vs, 0, "e2e4").await;
        let xq_id = xq["id"].as_str().unwrap();

        for (c, screen) in [(&desk, "desk"), (&phone, "phone")] {
            c.goto(&format!("{base}/")).await.unwrap();
            select(c, "#lang", "en").await;
            let names = captions(c, 2).await;
            assert_eq!(
                names,
                ["Anonymous – The computer, level 1", "Anonymous – Anonymous"],
                "{screen}"
            );
            fits(c, &format!("the lobby on the {screen}")).await;
            js(c, "document.getElementById('watching').scrollIntoView(); return true;").await;
            shot(c, &format!("watching-01-lobby-{screen}-en")).await;
            select(c, "#lang", "zh").await;
            let names = captions(c, 2).await;
            assert_eq!(names, ["匿名 – 电脑，1级", "匿名 – 匿名"], "{screen}");
            wait_text(c, "#watching h2", "正在进行的对局").await;
            js(c, "document.getElementById('watching').scrollIntoView(); return true;").await;
            shot(c, &format!("watching-02-lobby-{screen}-zh")).await;
            select(c, "#lang", "en").await;
        }

        // The desk opens the Xiangqi game from its small board and watches the next moves.
        click(&desk, &format!("#live-games .mini[data-game='{xq_id}'] a")).await;
        wait_text(&desk, "#seat", "Spectating").await;
        wait_plies(&desk, 1).await;
        move_by_api(&base, &xq, 1, "h9g7").await;
        wait_plies(&desk, 2).await;
        shot(&desk, "watching-03-watching-desk-en").await;
        // The phone, in Chinese, watches it too.
        select(&phone, "#lang", "zh").await;
        click(&phone, &format!("#live-games .mini[data-game='{xq_id}'] a")).await;
        wait_text(&phone, "#seat", "观战").await;
        wait_plies(&phone, 2).await;
        move_by_api(&base, &xq, 0, "h0g2").await;
        wait_plies(&phone, 3).await;
        wait_plies(&desk, 3).await;
        shot(&phone, "watching-04-watching-phone-zh").await;
        select(&phone, "#lang", "en").await;

        // Over, the game leaves the list.
        let token = xq["seats"][1]["token"].as_str().unwrap();
        api(
            &base,
            "POST",
            &format!("/api/board/game/{xq_id}/resign"),
            Some(token),
            None,
        )
        .await;
        desk.goto(&format!("{base}/")).await.unwrap();
        let names = captions(&desk, 1).await;
        assert_eq!(names, ["Anonymous – The computer, level 1"]);
    };
    tokio::time::timeout(Duration::from_secs(120), run)
        .await
        .expect("the watching test took over 120 s");
    desk.close().await.unwrap();
    phone.close().await.unwrap();
}

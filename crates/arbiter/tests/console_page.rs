//! Issue 28 over the board, on the page: the organiser opens a board's console from the event
//! page, records a touch (the referee's ruling: the piece must move) and a technical foul (one
//! of the limit of two), enters a move on the board; makes the board's device link and the
//! players play on it, both sides from one screen (a phone and a desktop); a player's game page
//! leads back to their event page, and the organiser's result for the game still in play ends
//! it on the player's page. The board device's board and buttons lie within the window at
//! 1280×900, 1024×768 and on a 390×844 phone. Screenshots go to
//! `target/e2e-screenshots/console-*.png`.

use std::time::Duration;

use fantoccini::Client;
use serde_json::json;

mod common;
mod web;
use web::event::*;
use web::*;

/// The board device's board and every button of its bars lie within the window as the page
/// opens (its top, not scrolled): nothing the players need is below the fold.
async fn device_within_view(c: &Client, what: &str) {
    let v = js(
        c,
        "scrollTo(0, 0); \
         const out = [...document.querySelectorAll('#board, .device-bar:not([hidden]) button')] \
           .filter((e) => { const r = e.getBoundingClientRect(); \
             return r.width === 0 || r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth; }) \
           .map((e) => `${e.id || e.className} ${e.textContent} ${JSON.stringify(e.getBoundingClientRect())}`); \
         return [out, innerWidth, innerHeight, document.querySelectorAll('.device-bar button').length];",
    )
    .await;
    assert!(
        v[3].as_u64().unwrap() >= 4,
        "{what}: the bars' buttons are missing: {v}"
    );
    assert_eq!(v[0], json!([]), "{what}: outside the {}×{} window", v[1], v[2]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arbiter_rules_from_the_console_and_players_play_on_a_board_device() {
    let server = EventServer::start("console-page");
    let base = server.base();
    // Seed 000's friendly rules: two technical fouls lose.
    let (event, org) = new_event(
        &base,
        json!({"name": "Club night over the board", "format": "round-robin", "kind": "xiangqi",
        "ruleset": "casual", "clock": {"limit": 900, "increment": 0}}),
    )
    .await;
    let players = register(&base, &event, &org, &["Wang Tianyi", "Zheng Weitong"]).await;
    start_round(&base, &event, &org).await;
    let Some((chromium, chromedriver)) = browser_programs() else {
        return;
    };
    let (_driver, url) = start_driver(&chromedriver);
    let arbiter = browser(&url, &chromium, Screen::Desktop(1280, 900)).await;
    let phone = browser(&url, &chromium, Screen::Phone(390, 844)).await;
    let desk = browser(&url, &chromium, Screen::Desktop(1280, 900)).await;
    let small = browser(&url, &chromium, Screen::Desktop(1024, 768)).await;
    let run = async {
        // The organiser's page lists the board with its console.
        arbiter
            .goto(&format!("{base}/event/{event}#organiser={org}"))
            .await
            .unwrap();
        wait_text(&arbiter, "#org-boards li .board-label", "Wang Tianyi").await;
        shot(&arbiter, "console-desktop-organiser-boards").await;
        let console = until(
            &arbiter,
            "the console link",
            "return document.querySelector('#org-boards .con-link')?.href;",
        )
        .await;
        let console = console.as_str().unwrap().to_string();
        assert!(
            console.contains("#arbiter=") && console.contains(&format!("&event={event}")),
            "{console}"
        );
        let game = console
            .split("/game/")
            .nth(1)
            .unwrap()
            .split('#')
            .next()
            .unwrap()
            .to_string();

        // The console: the board, the clocks running from the round's start, the commands.
        open_board(&arbiter, &console, "xiangqi").await;
        assert!(visible(&arbiter, "#console").await, "the console");
        assert!(
            !visible(&arbiter, "#buttons").await,
            "a player's buttons on the console"
        );
        wait_text(&arbiter, "#seat", "Arbiter's console").await;
        wait_text(&arbiter, "#event-link", "The event").await;
        let href = js(&arbiter, "return location.href;").await;
        assert!(
            !href.as_str().unwrap().contains(&org),
            "the token left the address bar: {href}"
        );
        // Red touches the cannon on h2: the ruling binds red to move it (5.1).
        type_into(&arbiter, "#con-square", "h2").await;
        click(&arbiter, "#con-touch-go").await;
        wait_text(&arbiter, "#rulings li[data-kind='Obligation']", "5.1").await;
        // The arbiter enters red's move on the board.
        play(&arbiter, "h2e2").await;
        wait_plies(&arbiter, 1).await;
        // Black's technical foul (§8 (一)): one of two.
        click(&arbiter, "#con-second").await;
        select(&arbiter, "#con-foul-kind", "8.1").await;
        click(&arbiter, "#con-foul-go").await;
        let foul = wait_text(&arbiter, "#rulings li[data-kind='Foul']", "of 2").await;
        assert!(foul.contains("Black"), "{foul}");
        assert_eq!(
            js(&arbiter, "return document.querySelectorAll('#rulings li').length;").await,
            json!(2),
            "the touch and the foul"
        );
        fits(&arbiter, "the console at 1280").await;
        shot(&arbiter, "console-desktop").await;

        // The board device: its link from the console, opened at the table (a phone), both
        // sides playing on it in turn.
        click(&arbiter, "#con-device").await;
        let device = until(
            &arbiter,
            "the device link",
            "const l = document.getElementById('con-device-link'); return !l.hidden && l.value;",
        )
        .await;
        let device = format!("{}&event={event}", device.as_str().unwrap());
        assert!(device.contains("#device="), "{device}");
        open_board(&phone, &device, "xiangqi").await;
        wait_text(&phone, "#seat", "Board device").await;
        wait_plies(&phone, 1).await;
        // Black to move: its bar offers a draw and a clock press; red's only a draw and resigning.
        until(
            &phone,
            "black's buttons",
            "return document.querySelector('#bar-black .dev-press') && !document.querySelector('#bar-white .dev-press');",
        )
        .await;
        play(&phone, "h9g7").await;
        wait_plies(&phone, 2).await;
        play(&phone, "h0g2").await;
        wait_plies(&phone, 3).await;
        wait_plies(&arbiter, 3).await;
        fits(&phone, "the board device on a phone").await;
        device_within_view(&phone, "the board device on a phone").await;
        shot(&phone, "console-phone-device").await;
        // The same device on a desktop screen.
        open_board(&desk, &device, "xiangqi").await;
        wait_plies(&desk, 3).await;
        fits(&desk, "the board device at 1280").await;
        device_within_view(&desk, "the board device at 1280").await;
        shot(&desk, "console-desktop-device-start").await;
        // A smaller desktop screen: the moves go below the board, the bars stay beside it.
        open_board(&small, &device, "xiangqi").await;
        wait_plies(&small, 3).await;
        fits(&small, "the board device at 1024").await;
        device_within_view(&small, "the board device at 1024").await;
        shot(&small, "console-small-device").await;
        // Black offers a draw with its move (as seed 000 has offers made); red's bar answers.
        click(&desk, "#bar-black .dev-offer-move").await;
        until(
            &desk,
            "the offer armed",
            "return document.querySelector('#bar-black .dev-offer-move.on') !== null;",
        )
        .await;
        play(&desk, "i9h9").await;
        wait_plies(&phone, 4).await;
        until(
            &phone,
            "red's answer to the offer",
            "return document.querySelector('#bar-white .dev-decline') !== null;",
        )
        .await;
        device_within_view(&desk, "the board device at 1280, a draw offered").await;
        device_within_view(&phone, "the board device on a phone, a draw offered").await;
        shot(&desk, "console-desktop-device").await;
        shot(&phone, "console-phone-device-offer").await;
        click(&phone, "#bar-white .dev-decline").await;
        until(
            &desk,
            "the offer declined",
            "return document.querySelector('#bar-white .dev-offer-move') !== null;",
        )
        .await;

        // The console in Chinese, on a phone too.
        select(&arbiter, "#lang", "zh").await;
        wait_text(&arbiter, "#console h2", "裁判台").await;
        wait_text(&arbiter, "#rulings li[data-kind='Foul']", "犯规").await;
        // The touch's ruling written from its data, not the English rule.
        let ruling = wait_text(&arbiter, "#rulings li[data-kind='Obligation']", "必须走动该子").await;
        assert!(ruling.contains("h2") && ruling.contains("5.1"), "{ruling}");
        shot(&arbiter, "console-desktop-zh").await;
        phone.goto(&console).await.unwrap();
        until(
            &phone,
            "the console on the phone",
            "return !document.getElementById('console').hidden;",
        )
        .await;
        fits(&phone, "the console on a phone").await;
        js(&phone, "document.getElementById('console').scrollIntoView(); return 1;").await;
        shot(&phone, "console-phone").await;

        // A player's game page leads back to their own event page.
        let me = api(&base, "GET", &format!("/api/event/{event}/me"), Some(&players[0]), None).await;
        let seat = format!("{base}{}", me["game"]["url"].as_str().unwrap());
        assert!(seat.contains(&format!("&event={event}")), "{seat}");
        assert_eq!(me["game"]["id"], json!(game));
        open_board(&desk, &seat, "xiangqi").await;
        wait_text(&desk, "#event-link", "Your event page").await;
        let back = js(&desk, "return document.getElementById('event-link').href;").await;
        assert!(
            back.as_str()
                .unwrap()
                .ends_with(&format!("/event/{event}#player={}", players[0])),
            "{back}"
        );

        // The organiser's result for the game in play ends it: the player's page shows it.
        let pairing = api(&base, "GET", &format!("/api/event/{event}"), None, None).await["stages"][0]["rounds"][0]
            ["pairings"][0]["id"]
            .as_str()
            .unwrap()
            .to_string();
        api(
            &base,
            "POST",
            &format!("/api/event/{event}/result"),
            Some(&org),
            Some(json!({"pairing": pairing, "results": ["1/2"], "reason": "the hall closed"})),
        )
        .await;
        wait_text(&desk, "#status", "arbiter's decision").await;
        // The arbiter says why, not the judge.
        let why = wait_text(&desk, "#explanation", "the hall closed").await;
        assert_eq!(why, "The arbiter: the organiser entered 1/2: the hall closed");
        shot(&desk, "console-desktop-player-decided").await;
        click(&desk, "#event-link").await;
        wait_text(&desk, "#me-name", "Wang Tianyi").await;
    };
    tokio::time::timeout(Duration::from_secs(180), run)
        .await
        .expect("the console page test took over 180 s");
    for c in [arbiter, phone, desk, small] {
        c.close().await.unwrap();
    }
}

//! Issue 28, the page: an organiser creates an eight-player knockout (best of one) on
//! `/event/new` and registers the players with the page's form; two players open their links in
//! browsers of their own (one a phone), wait for the pairing, follow the page's link to their
//! game and play it on the board; the other games go through the API with the players'
//! tokens; the organiser enters the final's result with the page's form. A spectator's page
//! on the plain event address shows the boards move and the bracket fill in without a reload.
//! Screenshots go to `target/e2e-screenshots/event-*.png` (1280×900 and a 390×844 phone).

use std::time::Duration;

use fantoccini::Locator;
use serde_json::{json, Value};

mod common;
mod web;
use web::event::*;
use web::*;

const PLAYERS: [(&str, u32); 8] = [
    ("Li Wei", 2400),
    ("Zhao Min", 2350),
    ("Chen Hao", 2300),
    ("Liu Yang", 2250),
    ("Zhou Xin", 2200),
    ("Sun Hua", 2150),
    ("Ma Lin", 2100),
    ("Ouyang Xiaoming-Longname", 2050),
];

/// The pending pairings of round `round` (1-based) in the event, but `skip`: each decided
/// through the API, the second-named resigning their game with their own token. Returns each
/// pairing's id, the winner's name and the game's id.
async fn second_resigns(
    base: &str,
    event: &str,
    tokens: &[String],
    round: usize,
    skip: &str,
) -> Vec<(String, String, String)> {
    let ev: Value = reqwest::get(format!("{base}/api/event/{event}"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let mut decided = Vec::new();
    for p in ev["stages"][0]["rounds"][round - 1]["pairings"].as_array().unwrap() {
        let id = p["id"].as_str().unwrap();
        if id == skip || p["verdict"] != "pending" {
            continue;
        }
        let second = p["second"].as_u64().unwrap() as usize;
        let token = &tokens[second - 1];
        let me = player_api(base, event, token, "me").await;
        let game = me["game"]["id"].as_str().unwrap().to_string();
        player_api(base, event, token, &format!("/api/board/game/{game}/resign")).await;
        let winner = PLAYERS[p["first"].as_u64().unwrap() as usize - 1].0;
        decided.push((id.to_string(), winner.to_string(), game));
    }
    decided
}

async fn player_api(base: &str, event: &str, token: &str, path: &str) -> Value {
    let http = reqwest::Client::new();
    let r = if path == "me" {
        http.get(format!("{base}/api/event/{event}/me"))
    } else {
        http.post(format!("{base}{path}"))
    };
    let r = r.bearer_auth(token).send().await.unwrap();
    assert!(r.status().is_success(), "{path}: {}", r.status());
    r.json().await.unwrap()
}

/// The text of the match box of `pairing` in the bracket.
fn winner_js(pairing: &str, name: &str) -> String {
    format!(
        "const w = document.querySelector({}); return w && w.textContent.includes({});",
        json!(format!("#table .match[data-pairing='{pairing}'] .winner")),
        json!(name)
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn organiser_players_and_spectators_run_a_knockout_on_the_page() {
    let server = EventServer::start("event-page");
    let base = server.base();
    let Some((chromium, chromedriver)) = browser_programs() else {
        return;
    };
    let (_driver, url) = start_driver(&chromedriver);
    let org = browser(&url, &chromium, Screen::Desktop(1280, 900)).await;
    let first = browser(&url, &chromium, Screen::Desktop(1280, 900)).await;
    let fourth = browser(&url, &chromium, Screen::Phone(390, 844)).await;
    let watcher = browser(&url, &chromium, Screen::Desktop(1280, 900)).await;
    let run = async {
        // The organiser's form.
        org.goto(&format!("{base}/event/new")).await.unwrap();
        type_into(&org, "#ev-name", "Spring Cup").await;
        org.find(Locator::Css("#ev-format"))
            .await
            .unwrap()
            .select_by_value("knockout")
            .await
            .unwrap();
        type_into(&org, "#ev-games", "1").await;
        shot(&org, "event-desktop-new").await;
        click(&org, "#ev-create").await;
        let link = until(
            &org,
            "the organiser link",
            "return document.getElementById('org-link')?.value;",
        )
        .await;
        let link = link.as_str().unwrap().to_string();
        let (page, token) = link.split_once("#organiser=").expect("the token in the fragment");
        let event = page.rsplit('/').next().unwrap().to_string();
        // The token left the address bar, and a new tab on the plain address is still the organiser's.
        let href = js(&org, "return location.href;").await;
        assert!(!href.as_str().unwrap().contains(token), "{href}");
        org.goto(page).await.unwrap();
        until(
            &org,
            "the organiser panel again",
            "return !document.getElementById('org').hidden;",
        )
        .await;

        for (i, (name, rating)) in PLAYERS.iter().enumerate() {
            type_into(&org, "#reg-name", name).await;
            type_into(&org, "#reg-rating", &rating.to_string()).await;
            click(&org, "#reg-add").await;
            until(
                &org,
                &format!("{} player links", i + 1),
                &format!("return document.querySelectorAll('.player-link').length === {};", i + 1),
            )
            .await;
        }
        let links: Vec<String> = serde_json::from_value(
            js(
                &org,
                "return [...document.querySelectorAll('.player-link')].map((e) => e.value);",
            )
            .await,
        )
        .unwrap();
        assert!(links.iter().all(|l| l.contains("#player=")), "{links:?}");
        wait_text(&org, "#table tbody tr:first-child", "Li Wei").await;
        wait_text(&org, "#table tbody tr:last-child", "2050").await;
        let tokens: Vec<String> = links
            .iter()
            .map(|l| l.split("#player=").nth(1).unwrap().to_string())
            .collect();
        shot(&org, "event-organiser-registered").await;

        // Two players on their own links; a spectator on the plain address.
        first.goto(&links[0]).await.unwrap();
        fourth.goto(&links[7]).await.unwrap();
        for p in [&first, &fourth] {
            wait_text(p, "#me-pairing", "not paired yet").await;
        }
        wait_text(&first, "#me-name", "Li Wei").await;
        watcher.goto(page).await.unwrap();
        wait_text(&watcher, "#ev-summary", "8 players").await;
        assert!(!visible(&watcher, "#org").await && !visible(&watcher, "#me").await);
        js(&watcher, "window.notReloaded = true; return 1;").await;

        // Round 1: seeded 1–4 and 2–3.
        click(&org, "#org-start").await;
        until(
            &watcher,
            "the four boards of round 1",
            "return document.querySelectorAll('#boards .mini').length === 4 \
             && document.querySelectorAll('#boards .mini svg.board g.piece').length === 4 * 32;",
        )
        .await;
        let modes = js(
            &watcher,
            "return [...document.querySelectorAll('#boards .mini')].map((m) => m.dataset.mode).sort().join(' ');",
        )
        .await;
        assert_eq!(
            modes,
            json!("socket socket socket socket"),
            "every board follows its game over a socket"
        );
        // Two more tabs of the event page in the same browser: their boards take none of the
        // six connections the browser opens to the server, so a request still goes through
        // (with a stream a board, three pages held twelve and every request hung).
        js(
            &watcher,
            "window.tabs = [window.open(location.href), window.open(location.href)]; return 1;",
        )
        .await;
        until(
            &watcher,
            "the boards of two more tabs",
            "return window.tabs.every((w) => w.document?.querySelectorAll('#boards .mini[data-mode=socket]').length === 4);",
        )
        .await;
        js(
            &watcher,
            "window.answered = null; fetch('/api/me').then((r) => { window.answered = r.status; }); return 1;",
        )
        .await;
        let answered = until(
            &watcher,
            "a request beside three event pages",
            "return window.answered;",
        )
        .await;
        assert_eq!(answered, json!(200));
        js(&watcher, "window.tabs.forEach((w) => w.close()); return 1;").await;
        wait_text(&first, "#me-pairing", "Ouyang Xiaoming-Longname").await;
        wait_text(&fourth, "#me-pairing", "Li Wei").await;
        until(
            &fourth,
            "the play link",
            "return !document.getElementById('me-play').hidden;",
        )
        .await;
        shot(&fourth, "event-phone-player").await;
        fits(&fourth, "the player's page on a phone").await;
        click(&first, "#me-play").await;
        click(&fourth, "#me-play").await;
        for (p, side) in [(&first, "Red"), (&fourth, "Black")] {
            until(
                p,
                "the game's board",
                "return document.querySelector('#board svg.board.xiangqi g.piece') !== null;",
            )
            .await;
            wait_text(p, "#seat", &format!("You play {side}")).await;
        }
        let game = player_api(&base, &event, &tokens[0], "me").await["game"]["id"]
            .as_str()
            .unwrap()
            .to_string();
        let mini = format!("#boards .mini[data-game='{game}'] .mini-status");

        // Moves on the page reach the spectator's small board live.
        play_line(&first, &fourth, 0, &["h2e2", "h9g7", "h0g2", "i9h9"]).await;
        wait_text(&watcher, &mini, "4 moves").await;
        shot(&watcher, "event-desktop-round-1-live").await;
        click(&fourth, "#resign").await;
        wait_text(&first, "#status", "Red wins").await;
        until(&watcher, "Li Wei through in the bracket", &winner_js("1.1", "Li Wei")).await;
        wait_text(&watcher, &mini, "Red wins").await;

        // The other boards through the API. Only three boards hold a stream (the browser's
        // connections are few); the fourth is read in turn and shows its result all the same.
        let decided = second_resigns(&base, &event, &tokens, 1, "1.1").await;
        assert_eq!(decided.len(), 3);
        for (pairing, winner, game) in &decided {
            until(&watcher, &format!("{winner} through"), &winner_js(pairing, winner)).await;
            wait_text(
                &watcher,
                &format!("#boards .mini[data-game='{game}'] .mini-status"),
                "Red wins",
            )
            .await;
        }
        assert_eq!(
            js(&watcher, "return window.notReloaded === true;").await,
            json!(true),
            "the page reloaded"
        );

        // The semi-finals, through the API too.
        until(
            &org,
            "the start button free again",
            "return !document.getElementById('org-start').disabled;",
        )
        .await;
        click(&org, "#org-start").await;
        until(
            &watcher,
            "the semi-finals' boards",
            "return document.querySelectorAll('#boards .mini').length === 2;",
        )
        .await;
        for (pairing, winner, _) in second_resigns(&base, &event, &tokens, 2, "").await {
            until(&watcher, &format!("{winner} through"), &winner_js(&pairing, &winner)).await;
        }

        // The final: the organiser starts it and enters its result, with a reason, on the page.
        let final_id = "3.1";
        until(
            &org,
            "the start button free again",
            "return !document.getElementById('org-start').disabled;",
        )
        .await;
        click(&org, "#org-start").await;
        until(
            &watcher,
            "the final in the bracket",
            &format!("return document.querySelector(\"#table .match[data-pairing='{final_id}']\") !== null;"),
        )
        .await;
        until(
            &watcher,
            "the final's board",
            "return document.querySelectorAll('#boards .mini').length === 1;",
        )
        .await;
        until(
            &org,
            "the final to enter",
            &format!("return document.getElementById('res-pairing').value === '{final_id}';"),
        )
        .await;
        type_into(&org, "#res-results", "1-0").await;
        type_into(&org, "#res-reason", "Zhao Min did not come back after the break").await;
        click(&org, "#res-enter").await;
        until(&watcher, "Li Wei wins the final", &winner_js(final_id, "Li Wei")).await;
        wait_text(&watcher, "#ev-summary", "finished").await;
        let heads = js(
            &watcher,
            "return [...document.querySelectorAll('.bracket-round h3')].map((h) => h.textContent).join(' | ');",
        )
        .await;
        assert_eq!(heads, json!("Quarter-finals | Semi-finals | Final"));
        wait_text(&watcher, "#standings tbody tr:first-child", "Li Wei").await;
        wait_text(&watcher, "#boards .mini-status", "Red wins (the arbiter's decision)").await;
        assert_eq!(
            js(&watcher, "return window.notReloaded === true;").await,
            json!(true),
            "the page reloaded"
        );
        fits(&watcher, "the event page at 1280").await;
        shot(&watcher, "event-desktop-final").await;
        shot(&org, "event-desktop-organiser").await;

        // The final's game page says whose decision ended it: the arbiter's, not the judge's.
        let ev: Value = reqwest::get(format!("{base}/api/event/{event}"))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let final_game = ev["stages"][0]["rounds"][2]["pairings"][0]["liveGames"][0]["id"]
            .as_str()
            .unwrap()
            .to_string();
        open_board(&org, &format!("{base}/game/{final_game}"), "xiangqi").await;
        wait_text(&org, "#status", "Red wins (the arbiter's decision)").await;
        let why = wait_text(&org, "#explanation", "Zhao Min did not come back").await;
        assert_eq!(
            why,
            "The arbiter: the organiser entered 1-0: Zhao Min did not come back after the break"
        );
        org.find(Locator::Css("#lang"))
            .await
            .unwrap()
            .select_by_value("zh")
            .await
            .unwrap();
        let why = wait_text(&org, "#explanation", "裁判：").await;
        assert!(why.ends_with("Zhao Min did not come back after the break"), "{why}");
        shot(&org, "event-desktop-final-game").await;

        // On the phone: the player's page once more, the tables within the screen (they
        // scroll sideways inside their box, not the page), in English and in Chinese.
        fourth.goto(page).await.unwrap();
        wait_text(&fourth, "#ev-summary", "finished").await;
        wait_text(&fourth, "#me-pairing", "Round 1: you play Li Wei (you 0–1) — you lost").await;
        assert!(!visible(&fourth, "#me-play").await, "a link to a game decided");
        fits(&fourth, "the event page on a phone").await;
        shot(&fourth, "event-phone-final").await;
        js(&fourth, "document.getElementById('table').scrollIntoView(); return 1;").await;
        shot(&fourth, "event-phone-final-tables").await;
        fourth
            .find(Locator::Css("#lang"))
            .await
            .unwrap()
            .select_by_value("zh")
            .await
            .unwrap();
        wait_text(&fourth, "#table-title", "对阵图").await;
        wait_text(&fourth, "#standings tbody tr:first-child", "冠军").await;
        fits(&fourth, "the event page on a phone, in Chinese").await;
        shot(&fourth, "event-phone-final-zh").await;
    };
    tokio::time::timeout(Duration::from_secs(240), run)
        .await
        .expect("the event page test took over 240 s");
    for c in [org, first, fourth, watcher] {
        c.close().await.unwrap();
    }
}

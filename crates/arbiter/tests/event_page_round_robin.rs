//! Issue 28, the page: a round robin with open registration. A player joins from a phone with
//! the public page's form, the organiser withdraws another and corrects a result with the
//! organiser's page, and the crosstable fills in live on both screens. Screenshots go to
//! `target/e2e-screenshots/event-*-round-robin.png` and `event-phone-{new,join}.png`.

use std::time::Duration;

use fantoccini::Locator;
use serde_json::{json, Value};

mod common;
mod web;
use web::event::*;
use web::*;

/// A round robin with open registration: a player joins with the public page's form, the
/// organiser withdraws another and corrects a result with the organiser's page, and the
/// crosstable (on a phone and at 1280) shows every result, live.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_joins_a_round_robin_and_the_crosstable_fills_in() {
    let server = EventServer::start("event-page-rr");
    let base = server.base();
    let (event, token) = new_event(
        &base,
        json!({"name": "Club Championship 2026", "format": "round-robin", "kind": "xiangqi", "openRegistration": true}),
    )
    .await;
    let (event, token) = (event.as_str(), token.as_str());
    for name in ["Huang Jie", "Xu Yinchuan-Longname", "Wu Qiang"] {
        api(
            &base,
            "POST",
            &format!("/api/event/{event}/register"),
            Some(token),
            Some(json!({"name": name, "rating": 1900})),
        )
        .await;
    }
    let Some((chromium, chromedriver)) = browser_programs() else {
        return;
    };
    let (_driver, url) = start_driver(&chromedriver);
    let phone = browser(&url, &chromium, Screen::Phone(390, 844)).await;
    let desk = browser(&url, &chromium, Screen::Desktop(1280, 900)).await;
    let page = format!("{base}/event/{event}");
    let run = async {
        // The creation form on a phone.
        phone.goto(&format!("{base}/event/new")).await.unwrap();
        until(
            &phone,
            "the creation form",
            "return !document.getElementById('new').hidden;",
        )
        .await;
        fits(&phone, "the creation form on a phone").await;
        // A knockout asks for no rounds and no groups.
        assert!(!visible(&phone, "#ev-rounds").await && !visible(&phone, "#ev-groups").await);
        shot(&phone, "event-phone-new").await;

        phone.goto(&page).await.unwrap();
        until(
            &phone,
            "the join form",
            "return !document.getElementById('join').hidden;",
        )
        .await;
        shot(&phone, "event-phone-join").await;
        type_into(&phone, "#join-name", "Sun Li").await;
        click(&phone, "#join-go").await;
        wait_text(&phone, "#me-name", "Sun Li").await;
        wait_text(&phone, "#me-pairing", "not paired yet").await;
        assert!(!visible(&phone, "#join").await, "the join form after joining");
        js(&phone, "window.notReloaded = true; return 1;").await;

        // The organiser, on the desktop, withdraws Wu Qiang (entrant 3) with the page's form.
        desk.goto(&format!("{page}#organiser={token}")).await.unwrap();
        wait_text(&desk, "#ev-summary", "4 players").await;
        desk.find(Locator::Css("#wd-entrant"))
            .await
            .unwrap()
            .select_by_value("3")
            .await
            .unwrap();
        click(&desk, "#wd-go").await;
        desk.accept_alert().await.unwrap();
        wait_text(&phone, "#table", "Wu Qiang (withdrawn)").await;

        // Every round: the first-named wins, but draws in the last.
        let mut expected = Vec::new();
        let mut last = Value::Null;
        for round in 1..=3 {
            let paired = start_round(&base, event, token).await;
            for p in paired["pairings"].as_array().unwrap() {
                let Some(second) = p["second"].as_u64() else { continue };
                let first = p["first"].as_u64().unwrap();
                if first == 3 || second == 3 {
                    continue;
                }
                last = p.clone();
                let (result, a, b) = if round == 3 {
                    ("1/2", "½", "½")
                } else {
                    ("1-0", "1", "0")
                };
                api(
                    &base,
                    "POST",
                    &format!("/api/event/{event}/result"),
                    Some(token),
                    Some(json!({"pairing": p["id"], "results": [result], "reason": "scoresheet"})),
                )
                .await;
                expected.push((first, second, a));
                expected.push((second, first, b));
            }
        }
        assert_eq!(expected.len(), 6);
        // The organiser corrects the last round's draw to a win for the second-named.
        let pid = last["id"].as_str().unwrap();
        until(
            &desk,
            "the last pairing among the organiser's choices",
            &format!("return document.querySelector(\"#res-pairing option[value='{pid}']\") !== null;"),
        )
        .await;
        desk.find(Locator::Css("#res-pairing"))
            .await
            .unwrap()
            .select_by_value(last["id"].as_str().unwrap())
            .await
            .unwrap();
        type_into(&desk, "#res-results", "0-1").await;
        type_into(&desk, "#res-reason", "the scoresheet was misread").await;
        click(&desk, "#res-replace").await;
        click(&desk, "#res-enter").await;
        let (first, second) = (last["first"].as_u64().unwrap(), last["second"].as_u64().unwrap());
        expected.truncate(4);
        expected.push((first, second, "0"));
        expected.push((second, first, "1"));
        for c in [&phone, &desk] {
            wait_text(c, "#ev-summary", "finished").await;
            for (a, b, want) in &expected {
                wait_text(c, &format!("#table td[data-a='{a}'][data-b='{b}']"), want).await;
            }
            wait_text(c, "#table-title", "Crosstable").await;
            fits(c, "the round robin's page").await;
        }
        assert_eq!(
            js(&phone, "return window.notReloaded === true;").await,
            json!(true),
            "the page reloaded"
        );
        shot(&desk, "event-desktop-round-robin").await;
        js(
            &phone,
            "document.getElementById('table-title').scrollIntoView(); return 1;",
        )
        .await;
        shot(&phone, "event-phone-round-robin").await;
    };
    tokio::time::timeout(Duration::from_secs(120), run)
        .await
        .expect("the round robin page test took over 120 s");
    phone.close().await.unwrap();
    desk.close().await.unwrap();
}

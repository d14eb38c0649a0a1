//! The events of seed 000 on the page, in Chinese: the organiser makes a knockout of 13 by the
//! card draw (§9: a K for the bye), best of three with one play-off game then lots (§6), on
//! `/event/new`; the bracket shows each pairing's cards, the bye, the play-off and the lot, the
//! summary how a match is played, and the loser's own page the lot and the card drawn. Then a
//! grouped round robin into a knockout final (规则（三） 11.3): a crosstable a group, the
//! final's bracket, every title and note in Chinese. Then a team event (11.2, 人(队)): the
//! second team's captain has a link for each board, naming who plays it. Screenshots go to
//! `target/e2e-screenshots/event-seeds-*.png`.

use std::time::Duration;

use fantoccini::{Client, Locator};
use serde_json::{json, Value};

mod common;
mod web;
use web::event::*;
use web::*;

const NAMES: [&str; 13] = [
    "王天一",
    "郑惟桐",
    "许银川",
    "吕钦",
    "赵鑫鑫",
    "蒋川",
    "洪智",
    "汪洋",
    "孙勇征",
    "谢靖",
    "申鹏",
    "徐超",
    "欧阳长名字的棋手",
];

async fn result(base: &str, event: &str, org: &str, pairing: &str, results: &[&str]) -> Value {
    api(
        base,
        "POST",
        &format!("/api/event/{event}/result"),
        Some(org),
        Some(json!({"pairing": pairing, "results": results, "reason": "记分表"})),
    )
    .await
}

/// The text of `css` with the cards' chips left out: what must be Chinese.
async fn words(c: &Client, css: &str) -> String {
    let v = js(
        c,
        &format!(
            "const e = document.querySelector({}).cloneNode(true); e.querySelectorAll('.card').forEach((c) => c.remove()); return e.textContent;",
            json!(css)
        ),
    )
    .await;
    v.as_str().unwrap().to_string()
}

/// Whether `text` has a word of Latin letters: single capitals (the K, groups A and B) are the
/// Chinese texts' own.
fn english(text: &str) -> bool {
    let b = text.as_bytes();
    b.iter().any(u8::is_ascii_lowercase) || b.windows(2).any(|w| w.iter().all(u8::is_ascii_alphabetic))
}

async fn chinese(c: &Client) {
    c.find(Locator::Css("#lang"))
        .await
        .unwrap()
        .select_by_value("zh")
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_seeds_events_on_the_page_in_chinese() {
    let server = EventServer::start("event-page-seeds");
    let base = server.base();
    let Some((_driver, desk, phone)) = desk_and_phone().await else {
        return;
    };
    let run = async {
        // The organiser's form: a card-drawn knockout, best of three, one play-off game.
        desk.goto(&format!("{base}/event/new")).await.unwrap();
        chinese(&desk).await;
        type_into(&desk, "#ev-name", "象棋公开赛").await;
        assert!(visible(&desk, "#ev-draw").await, "a knockout's draw");
        desk.find(Locator::Css("#ev-draw"))
            .await
            .unwrap()
            .select_by_value("cards")
            .await
            .unwrap();
        type_into(&desk, "#ev-games", "3").await;
        type_into(&desk, "#ev-playoff", "1").await;
        assert!(!visible(&desk, "#ev-advance").await, "a knockout has no final stage");
        shot(&desk, "event-seeds-new").await;
        click(&desk, "#ev-create").await;
        let link = until(
            &desk,
            "the organiser link",
            "return document.getElementById('org-link')?.value;",
        )
        .await;
        let (page, org) = link.as_str().unwrap().split_once("#organiser=").unwrap();
        let (page, org) = (page.to_string(), org.to_string());
        let event = page.rsplit('/').next().unwrap().to_string();
        let made: Value = reqwest::get(format!("{base}/api/event/{event}"))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(made["plan"][0]["draw"], "cards");
        assert_eq!(
            (made["settings"]["games"].as_u64(), made["settings"]["playoff"].as_u64()),
            (Some(3), Some(1))
        );
        let tokens = register(&base, &event, &org, &NAMES).await;

        // Round 1: six pairings by the cards and the K's bye.
        let r1 = start_round(&base, &event, &org).await;
        let pairings = r1["pairings"].as_array().unwrap().clone();
        assert_eq!(pairings.len(), 7, "{r1}");
        let bye = pairings.iter().find(|p| p["second"].is_null()).unwrap();
        assert_eq!(bye["id"], "1.K");
        let k_holder = NAMES[bye["first"].as_u64().unwrap() as usize - 1];
        // 1.1 ties 1–1 (each game as its scoresheet reads: red won both), ½–½, and the play-off
        // game is drawn: lots. The others the first-named wins 2–0.
        result(&base, &event, &org, "1.1", &["1-0", "1-0", "1/2", "1/2"]).await;
        for p in &pairings[1..6] {
            result(&base, &event, &org, p["id"].as_str().unwrap(), &["1-0", "0-1"]).await;
        }
        let ev: Value = reqwest::get(format!("{base}/api/event/{event}"))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let tied = &ev["stages"][0]["rounds"][0]["pairings"][0];
        let lot_won = tied["lot"]["winner"]
            .as_str()
            .expect("lots drew the winner")
            .to_string();
        let loser = tied[if lot_won == "first" { "second" } else { "first" }]
            .as_u64()
            .unwrap() as usize;
        let (red1, black1) = (
            NAMES[tied["first"].as_u64().unwrap() as usize - 1],
            NAMES[tied["second"].as_u64().unwrap() as usize - 1],
        );

        // Everyone's page on a phone, in Chinese.
        phone.goto(&page).await.unwrap();
        chinese(&phone).await;
        let summary = wait_text(&phone, "#ev-summary", "三局两胜").await;
        assert!(
            summary.starts_with("淘汰赛（抽签） · 三局两胜，平局加赛1局，再平抽签 · 象棋"),
            "{summary}"
        );
        assert!(!summary.contains("online"), "{summary}");
        let first = wait_text(&phone, "#table .match[data-pairing='1.1']", "抽签决胜").await;
        assert!(first.starts_with(&format!("红1{red1}黑1{black1}")), "{first}");
        assert!(first.contains("2–2 · 加赛1局 · 抽签决胜"), "{first}");
        let k = text(&phone, "#table .match[data-pairing='1.K']").await;
        assert_eq!(k, format!("K{k_holder}轮空"));
        wait_text(&phone, "#table", "抽到K者轮空").await;
        wait_text(&phone, "#standings", "第1轮轮空").await;
        for css in ["#table", "#standings", "#ev-summary"] {
            let w = words(&phone, css).await;
            assert!(!english(&w), "English left in {css}: {w}");
        }
        fits(&phone, "the card draw's bracket on a phone").await;
        js(
            &phone,
            "document.getElementById('table-title').scrollIntoView(); return 1;",
        )
        .await;
        shot(&phone, "event-seeds-cards-zh").await;

        // The lot's loser's own page says how they lost and what they drew.
        phone
            .goto(&format!("{page}#player={}", tokens[loser - 1]))
            .await
            .unwrap();
        let me = wait_text(&phone, "#me-pairing", "（抽签负）").await;
        assert!(me.contains("（比分 2–2） — 你负"), "{me}");
        let card = if loser as u64 == tied["first"].as_u64().unwrap() {
            "你抽到红1：首局执红先走"
        } else {
            "你抽到黑1：首局执黑"
        };
        assert!(me.contains(card), "{me}");
        shot(&phone, "event-seeds-lot-loser-zh").await;

        // Round 2: the six winners and the K's holder draw again, a K among seven.
        let r2 = start_round(&base, &event, &org).await;
        assert_eq!(r2["pairings"].as_array().unwrap().len(), 4, "{r2}");
        wait_text(&phone, "#table .match[data-pairing='2.K']", "轮空").await;
        wait_text(&phone, "#ev-summary", "第2轮").await;

        // A grouped round robin into a knockout final: two groups of four, two go on.
        let (groups, gorg) = new_event(
            &base,
            json!({"name": "分组循环赛", "format": "groups", "groups": 2, "advance": 2, "final": "knockout", "kind": "xiangqi"}),
        )
        .await;
        register(&base, &groups, &gorg, &NAMES[..8]).await;
        for _ in 0..3 {
            let r = start_round(&base, &groups, &gorg).await;
            for p in r["pairings"].as_array().unwrap() {
                if p["second"].is_null() {
                    continue;
                }
                let lower = p["first"].as_u64() < p["second"].as_u64();
                result(
                    &base,
                    &groups,
                    &gorg,
                    p["id"].as_str().unwrap(),
                    &[if lower { "1-0" } else { "0-1" }],
                )
                .await;
            }
        }
        start_round(&base, &groups, &gorg).await;
        desk.goto(&format!("{base}/event/{groups}")).await.unwrap();
        wait_text(&desk, "#table-title", "各阶段").await;
        until(
            &desk,
            "a crosstable a group and the final's bracket",
            "return document.querySelectorAll('#table table.crosstable').length === 2 \
             && document.querySelectorAll('#table .bracket .match').length === 2;",
        )
        .await;
        let heads = js(&desk, "return [...document.querySelectorAll('#table h3, #table h4, #standings h3')].map((h) => h.textContent).join(' | ');").await;
        assert_eq!(
            heads,
            json!("第1阶段：分组赛 | A组 | B组 | 决赛阶段：淘汰赛 | 半决赛 | 第1阶段：分组赛，A组 | 第1阶段：分组赛，B组 | 决赛阶段：淘汰赛")
        );
        wait_text(&desk, "#standings", "出线").await;
        for css in ["#table", "#standings"] {
            let w = words(&desk, css).await;
            assert!(!english(&w), "English left in {css}: {w}");
        }
        fits(&desk, "the groups' page at 1280").await;
        js(
            &desk,
            "document.getElementById('table-title').scrollIntoView(); return 1;",
        )
        .await;
        shot(&desk, "event-seeds-groups-zh").await;

        // A team event on two boards: the captain's links, one a board, name who plays it.
        let (teams, _, captains) = two_teams_started(&base).await;
        phone
            .goto(&format!("{base}/event/{teams}#player={}", captains[1]))
            .await
            .unwrap();
        wait_text(&phone, "#ev-summary", "2支队").await;
        let links = until(
            &phone,
            "a link a board",
            "const a = [...document.querySelectorAll('#me-boards a')]; return a.length === 2 ? a.map((e) => e.textContent) : null;",
        )
        .await;
        assert_eq!(links, json!(["第1台：乙一执黑方", "第2台：乙二执红方"]));
        assert!(!visible(&phone, "#me-play").await, "one link for two boards");
        until(
            &phone,
            "both boards among the round's boards",
            "return document.querySelectorAll('#boards .mini').length === 2;",
        )
        .await;
        fits(&phone, "the captain's page on a phone").await;
        shot(&phone, "event-seeds-captain-zh").await;
    };
    tokio::time::timeout(Duration::from_secs(120), run)
        .await
        .expect("the seeds' events page test took over 120 s");
    desk.close().await.unwrap();
    phone.close().await.unwrap();
}

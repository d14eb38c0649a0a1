//! A team's lineup on the event page, in Chinese: the organiser names one team's players by
//! the form (its roster shown beside it) and reads how a team pairing's results are written;
//! a result that is none is refused in Chinese; the other team's captain brings a reserve in
//! on board 2 from the captain's link, a player named twice refused in Chinese. Screenshots go
//! to `target/e2e-screenshots/event-lineup-*.png`.

use std::time::Duration;

use fantoccini::{Client, Locator};
use serde_json::{json, Value};

mod common;
mod web;
use web::event::*;
use web::*;

async fn chinese(c: &Client) {
    c.find(Locator::Css("#lang"))
        .await
        .unwrap()
        .select_by_value("zh")
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lineup_on_the_page_in_chinese() {
    let server = EventServer::start("event-page-lineup");
    let base = server.base();
    let Some((_driver, desk, phone)) = desk_and_phone().await else {
        return;
    };
    let run = async {
        let (teams, torg, captains) = two_teams_started(&base).await;

        desk.goto(&format!("{base}/event/{teams}")).await.unwrap();
        chinese(&desk).await;
        desk.goto(&format!("{base}/event/{teams}#organiser={torg}"))
            .await
            .unwrap();
        wait_text(&desk, "#res-note", "先列出的队的结果在前").await;
        wait_text(&desk, "#lu-roster", "北京队报名名单：甲一, 甲二, 甲三").await;
        type_into(&desk, "#lu-players", "甲二、甲三").await;
        click(&desk, "#lu-set").await;
        until(
            &desk,
            "北京队's lineup set",
            "return document.getElementById('lu-players').value === '' ? 1 : null;",
        )
        .await;
        let made: Value = reqwest::get(format!("{base}/api/event/{teams}"))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let lineups = &made["stages"][0]["rounds"][0]["pairings"][0]["lineups"];
        assert_eq!(lineups[0], json!(["甲二", "甲三"]), "{lineups}");
        type_into(&desk, "#res-results", "2-0").await;
        type_into(&desk, "#res-reason", "记分表").await;
        click(&desk, "#res-enter").await;
        wait_text(&desk, "#org-message", "“2-0”不是比赛结果").await;
        shot(&desk, "event-lineup-organiser-zh").await;

        phone.goto(&format!("{base}/event/{teams}")).await.unwrap();
        chinese(&phone).await;
        phone
            .goto(&format!("{base}/event/{teams}#player={}", captains[1]))
            .await
            .unwrap();
        wait_text(&phone, "#me-lu-roster", "上海队报名名单").await;
        type_into(&phone, "#me-lu-players", "乙一，乙一").await;
        click(&phone, "#me-lu-set").await;
        wait_text(&phone, "#me-lu-error", "“乙一”被列了两次").await;
        type_into(&phone, "#me-lu-players", "乙一，乙三").await;
        click(&phone, "#me-lu-set").await;
        wait_text(&phone, "#me-boards", "第2台：乙三执红方").await;
        assert_eq!(text(&phone, "#me-lu-error").await, "");
        fits(&phone, "the captain's page on a phone").await;
        shot(&phone, "event-lineup-captain-zh").await;
    };
    tokio::time::timeout(Duration::from_secs(90), run)
        .await
        .expect("the lineup page test took over 90 s");
    desk.close().await.unwrap();
    phone.close().await.unwrap();
}

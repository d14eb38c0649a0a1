//! Issue 30's accessibility audit: every page of the site — the lobby, a game seen by a player
//! and by a spectator, the arbiter's console, the review page with a game reviewed and analysed, an event's
//! page — checked in headless Chromium by axe-core (the npm package, not kept in this
//! repository: `.ci/run` installs it under `target/axe`, or `AXE_CORE` names its
//! `axe.min.js`), in English and in Chinese, on a desktop and a phone. No violation of serious
//! or critical impact may be found; the lesser ones are printed.

use std::path::PathBuf;

use fantoccini::Client;
use serde_json::{json, Value};

mod common;
mod web;
use web::event::{new_event, register, start_round, EventServer};
use web::*;

/// A short Xiangqi game for the review page: Red's central cannon mates at once (闷宫).
const RECORD: &str =
    "[Game \"Chinese Chess\"]\n[Result \"1-0\"]\n\n1. 炮二平五 马８进７ 2. 炮五进四 士６进５ 3. 炮八平五 1-0\n";

/// axe-core's script, where `.ci/run` or `AXE_CORE` put it.
fn axe_source() -> Option<String> {
    let path = std::env::var_os("AXE_CORE").map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/axe/node_modules/axe-core/axe.min.js")
    });
    match std::fs::read_to_string(&path) {
        Ok(s) => Some(s),
        Err(e) => {
            testdata::skip(format!(
                "the accessibility audit needs axe-core at {} ({e}): npm install --prefix target/axe axe-core@4",
                path.display()
            ));
            None
        }
    }
}

/// Runs axe on the page as it stands: its violations, each `[impact, id, help, targets]`.
async fn audit(c: &Client, axe: &str) -> Vec<Value> {
    c.execute(axe, vec![]).await.expect("axe-core loads");
    let found = c
        .execute_async(
            "const done = arguments[arguments.length - 1]; \
             axe.run(document, { resultTypes: ['violations'] }).then((r) => done(r.violations.map((v) => \
               [v.impact, v.id, v.help, v.nodes.slice(0, 3).map((n) => n.target.join(' '))])), \
               (e) => done([['error', String(e), '', []]]));",
            vec![],
        )
        .await
        .expect("axe-core runs");
    serde_json::from_value(found).unwrap()
}

/// Audits the page now shown, as `what`: its serious and critical violations (every one is
/// printed).
async fn check(c: &Client, axe: &str, what: &str) -> Vec<String> {
    let found = audit(c, axe).await;
    for v in &found {
        println!("{what}: {v}");
    }
    shot(c, &format!("a11y-{what}")).await;
    found
        .iter()
        .filter(|v| matches!(v[0].as_str(), Some("serious" | "critical" | "error")))
        .map(|v| format!("{what}: {v}"))
        .collect()
}

async fn language(c: &Client, lang: &str) {
    c.execute("localStorage.setItem('lang', arguments[0]);", vec![json!(lang)])
        .await
        .unwrap();
}

/// Another visitor (a session of its own) posts a seek, listed for the next 30 s.
async fn someone_seeks(base: &str) {
    let http = reqwest::Client::new();
    let page = http.get(format!("{base}/")).send().await.unwrap();
    let cookie = page
        .headers()
        .get_all(reqwest::header::SET_COOKIE)
        .iter()
        .find_map(|v| v.to_str().ok()?.split(';').next().map(str::to_string))
        .unwrap();
    let r = http
        .post(format!("{base}/api/seeks"))
        .header(reqwest::header::COOKIE, cookie)
        .json(&json!({"kind": "xiangqi", "time": "5+3"}))
        .send()
        .await
        .unwrap();
    assert!(r.status().is_success(), "{}", r.status());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_page_passes_axe() {
    let s = EventServer::start("a11y");
    let base = s.base();
    let Some(axe) = axe_source() else { return };
    let Some((_driver, desk, phone)) = desk_and_phone().await else {
        return;
    };
    let run = async {
        let xq = api(&base, "POST", "/api/game", None, Some(json!({"kind": "xiangqi"}))).await;
        let chess = api(&base, "POST", "/api/game", None, Some(json!({"kind": "chess"}))).await;
        api(
            &base,
            "POST",
            &format!("/api/board/game/{}/move/h2e2", xq["id"].as_str().unwrap()),
            xq["seats"][0]["token"].as_str(),
            None,
        )
        .await;
        let (event, org) = new_event(
            &base,
            json!({"name": "Audit open", "format": "round-robin", "kind": "xiangqi"}),
        )
        .await;
        register(
            &base,
            &event,
            &org,
            &["Hu Rong", "Lü Qin", "Xu Tianhong", "Zhao Guorong"],
        )
        .await;
        start_round(&base, &event, &org).await;
        let link = |g: &Value, path: &str| format!("{base}{}", g[path].as_str().unwrap_or_default());
        let pages: Vec<(&str, String, &str)> = vec![
            ("lobby", format!("{base}/"), "#create"),
            ("player", link(&xq["seats"][1], "url"), "#board svg g.piece"),
            (
                "spectator",
                format!("{base}/game/{}", chess["id"].as_str().unwrap()),
                "#board svg g.piece",
            ),
            ("console", link(&xq["arbiter"], "url"), "#board svg g.piece"),
            ("review", format!("{base}/review"), "body"),
            ("event", format!("{base}/event/{event}"), "table"),
            (
                "organiser",
                format!("{base}/event/{event}#organiser={org}"),
                "#res-pairing option",
            ),
        ];
        let mut bad = Vec::new();
        for (c, screen) in [(&desk, "1280"), (&phone, "390")] {
            for lang in ["en", "zh"] {
                c.goto(&format!("{base}/")).await.unwrap();
                language(c, lang).await;
                for (name, url, ready) in &pages {
                    c.goto(url).await.unwrap();
                    until(
                        c,
                        &format!("{name} drawn"),
                        &format!("return document.querySelector({}) !== null;", json!(ready)),
                    )
                    .await;
                    bad.extend(check(c, &axe, &format!("{name}-{lang}-{screen}")).await);
                }
                // The lobby with a seek of another visitor's listed, and this visitor's own waiting.
                someone_seeks(&base).await;
                c.goto(&format!("{base}/")).await.unwrap();
                click(c, "#seek-go").await;
                until(
                    c,
                    "the seeks listed",
                    "return document.querySelectorAll('#my-seeks li').length > 0 && document.querySelectorAll('#seeks li').length > 0;",
                )
                .await;
                bad.extend(check(c, &axe, &format!("lobby-seeks-{lang}-{screen}")).await);
                // The review page with a game reviewed: its board, moves and the judge's words.
                c.goto(&format!("{base}/review")).await.unwrap();
                c.execute(
                    "document.getElementById('record').value = arguments[0]; document.getElementById('submit').click();",
                    vec![json!(RECORD)],
                )
                .await
                .unwrap();
                until(c, "the review", "return !document.getElementById('result').hidden;").await;
                bad.extend(check(c, &axe, &format!("reviewed-{lang}-{screen}")).await);
                // Analysed by the engine (or said why not, where none is installed): the
                // evaluations, the bar, the best line.
                click(c, "#analyse").await;
                until(
                    c,
                    "the analysis",
                    "return !document.getElementById('analyse').disabled && document.getElementById('analysis-status').textContent !== '';",
                )
                .await;
                bad.extend(check(c, &axe, &format!("analysed-{lang}-{screen}")).await);
            }
        }
        assert!(bad.is_empty(), "serious or critical violations:\n{}", bad.join("\n"));
    };
    run.await;
    desk.close().await.unwrap();
    phone.close().await.unwrap();
}

//! The server's errors in the page's language, in headless Chromium (see `browser.rs`): a
//! visitor signs up under a taken account name in the lobby, and pastes a FEN with a short
//! rank on the review page, in Chinese and in English, on a desktop (1280×900) and a phone
//! (390×844); the review page's error follows a change of language. Screenshots go to
//! `target/e2e-screenshots/errors-*.png`.

use fantoccini::Client;
use reqwest::Method;
use serde_json::json;

mod common;
mod web;
use common::browser::Browser;
use common::Server;
use web::*;

/// A Xiangqi FEN whose last rank describes 8 files.
const SHORT_RANK: &str = "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w - - 0 1 moves h2e2";

/// What the page says for each, by language.
fn taken(lang: &str) -> &'static str {
    match lang {
        "zh" => "账号名“ann”已被使用，请换一个。",
        _ => "The name “ann” is taken: choose another.",
    }
}

fn short_rank(lang: &str) -> &'static str {
    match lang {
        "zh" => "FEN 的第 10 行（从上数）描述了 8 列，象棋棋盘应有 9 列。",
        _ => "Rank 10 of the FEN (from the top) describes 8 files; a xiangqi board has 9.",
    }
}

async fn sign_up_taken(c: &Client, base: &str, lang: &str, size: &str) {
    c.goto(&format!("{base}/")).await.unwrap();
    select(c, "#lang", lang).await;
    type_into(c, "#account-name", "ann").await;
    type_into(c, "#account-password", "another horse").await;
    click(c, "#make-account").await;
    let said = wait_text(c, "#me-error", taken(lang)).await;
    assert_eq!(said, taken(lang));
    c.execute(
        "document.getElementById('me-error').scrollIntoView({block: 'center'}); return true;",
        vec![],
    )
    .await
    .unwrap();
    shot(c, &format!("errors-name-taken-{size}-{lang}")).await;
}

async fn review_bad_fen(c: &Client, base: &str, lang: &str, size: &str) {
    c.goto(&format!("{base}/review")).await.unwrap();
    select(c, "#lang", lang).await;
    c.execute(
        "document.getElementById('record').value = arguments[0]; document.getElementById('submit').click(); return true;",
        vec![json!(SHORT_RANK)],
    )
    .await
    .unwrap();
    let said = wait_text(c, "#error", short_rank(lang)).await;
    assert_eq!(said, short_rank(lang));
    shot(c, &format!("errors-review-fen-{size}-{lang}")).await;
    // The error is written again in the language chosen next.
    let other = if lang == "zh" { "en" } else { "zh" };
    select(c, "#lang", other).await;
    wait_text(c, "#error", short_rank(other)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_servers_errors_in_the_pages_language() {
    let dir = std::env::temp_dir().join(format!("arbiter-errors-page-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let _dir = Scratch(dir.clone());
    let server = Server::start_with(&format!("sqlite://{}?mode=rwc", dir.join("e.db").display()), &[]);
    let base = server.base.clone();
    let mut ann = Browser::opened(&base).await;
    ann.ok(
        Method::POST,
        "/api/account",
        Some(json!({"name": "Ann", "password": "correct horse"})),
    )
    .await;
    let Some((_driver, desk, phone)) = desk_and_phone().await else {
        return;
    };
    let run = async {
        for (c, size) in [(&desk, "1280"), (&phone, "390")] {
            for lang in ["zh", "en"] {
                sign_up_taken(c, &base, lang, size).await;
                review_bad_fen(c, &base, lang, size).await;
            }
        }
    };
    run.await;
    desk.close().await.unwrap();
    phone.close().await.unwrap();
}

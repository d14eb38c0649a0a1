//! Issue 30: the judge's words in the page's language, in headless Chromium. A real game with a
//! perpetual check (game 17 of the CCPD sample, where red checks on every move from ply 46 to
//! 53) is played through the Board API, and red then repeats the cycle instead of varying; both pages, in Chinese, show the referee's must-vary warning
//! and then the verdict's explanation in Chinese, written from the verdict's facts (长将,
//! 应变着而不变, 判负) — no English sentence of the judge's. Screenshots:
//! `target/e2e-screenshots/words-*.png`.

use fantoccini::Client;
use serde_json::{json, Value};

mod common;
mod web;
use web::event::EventServer;
use web::*;

/// Black's fourth ply walks into the cannon's line (士６进５ exposes the king): it loses (自杀).
const MATE: &str =
    "[Game \"Chinese Chess\"]\n[Result \"1-0\"]\n\n1. 炮二平五 马８进７ 2. 炮五进四 士６进５ 3. 炮八平五 1-0\n";

/// The main line of game `n` (1-based) of a record file, in ICCS.
fn record_moves(file: &str, n: usize) -> Vec<String> {
    let (_, mut games) = records::files::read_file(&testdata::record_file(file)).unwrap();
    let record = games.nth(n - 1).unwrap().unwrap();
    let mut line = String::new();
    records::files::write_fen_moves(&record, &mut line).unwrap();
    let (start, moves) = line.split_once(" moves ").unwrap();
    assert!(
        start.ends_with(xiangqi::Position::start().fen().to_string().as_str()),
        "the game starts from the standard position: {start}"
    );
    moves.split_whitespace().map(String::from).collect()
}

async fn act(base: &str, game: &Value, seat: usize, mv: &str) {
    let id = game["id"].as_str().unwrap();
    let token = game["seats"][seat]["token"].as_str();
    api(base, "POST", &format!("/api/board/game/{id}/move/{mv}"), token, None).await;
}

/// Text in the page that is one of the judge's English sentences.
async fn no_english_ruling(c: &Client, css: &str) {
    let t = text(c, css).await;
    for w in ["must vary", "loses", "the position", "perpetual check", "allowed"] {
        assert!(!t.contains(w), "{css} is in English: {t}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_judge_speaks_chinese_on_the_chinese_page() {
    // In the record red varies after ply 53 (and mates at 57); here it does not.
    let mut moves = record_moves("xiangqi-ccpd/ccpd-sample.utf8.pgn", 17);
    assert_eq!(moves.len(), 57, "game 17 of the sample");
    moves.truncate(53);
    let server = EventServer::start("words-page");
    let base = server.base();
    let Some((_driver, red, black)) = desk_and_phone().await else {
        return;
    };
    let run = async {
        let g = api(&base, "POST", "/api/game", None, Some(json!({ "kind": "xiangqi" }))).await;
        let link = |i: usize| format!("{base}{}", g["seats"][i]["url"].as_str().unwrap());
        // Both pages in Chinese, chosen in the header as a person would.
        for (c, i) in [(&red, 0), (&black, 1)] {
            open_board(c, &link(i), "xiangqi").await;
            select(c, "#lang", "zh").await;
            open_board(c, &link(i), "xiangqi").await;
        }
        for (i, mv) in moves.iter().enumerate() {
            act(&base, &g, i % 2, mv).await;
        }
        // The position of plies 45 and 49 stands a third time: red is told to vary.
        for c in [&red, &black] {
            let warning = wait_text(c, "#message", "必须变着").await;
            println!("must vary: {warning}");
            assert!(warning.starts_with("红方必须变着（应变着，不变判负）"), "{warning}");
            assert!(warning.contains("长将"), "{warning}");
            no_english_ruling(c, "#message").await;
        }
        shot(&red, "words-must-vary-1280-zh").await;
        shot(&black, "words-must-vary-390-zh").await;

        // Red does not vary: the cycle again, and the position comes back unchanged.
        for (i, mv) in moves[49..53].iter().enumerate() {
            act(&base, &g, (i + 1) % 2, mv).await;
        }
        for c in [&red, &black] {
            until(
                c,
                "the verdict",
                "return !document.getElementById('explanation').hidden;",
            )
            .await;
            let explanation = wait_text(c, "#explanation", "应变着而不变").await;
            println!("explanation: {explanation}");
            assert!(explanation.contains("红方判负"), "{explanation}");
            assert!(explanation.contains("红方走长将（禁止着法）"), "{explanation}");
            no_english_ruling(c, "#explanation").await;
            let status = text(c, "#status").await;
            assert!(status.contains("黑方胜"), "{status}");
        }
        shot(&red, "words-verdict-1280-zh").await;
        shot(&black, "words-verdict-390-zh").await;

        // The same page in English: the judge's English sentence, unchanged.
        select(&red, "#lang", "en").await;
        let explanation = wait_text(&red, "#explanation", "was told to vary").await;
        assert!(explanation.contains("red loses"), "{explanation}");
        shot(&red, "words-verdict-1280-en").await;

        // The review page in the language chosen on the others: the verdict in Chinese.
        black.goto(&format!("{base}/review")).await.unwrap();
        black
            .execute(
                "document.getElementById('record').value = arguments[0]; document.getElementById('submit').click();",
                vec![json!(MATE)],
            )
            .await
            .unwrap();
        let verdict = wait_text(&black, "#verdict", "自杀").await;
        println!("review: {verdict}");
        assert!(verdict.contains("红方胜——送将，第4着"), "{verdict}");
        assert!(verdict.contains("黑方走f9e8后"), "{verdict}");
        assert!(verdict.contains("判负"), "{verdict}");
        no_english_ruling(&black, "#verdict").await;
        shot(&black, "words-review-390-zh").await;
    };
    run.await;
    red.close().await.unwrap();
    black.close().await.unwrap();
}

//! Issue 30's analysis on the review page, in headless Chromium at 1280×900 and 390×844, in
//! English and in Chinese: a real Xiangqi game that ends in mate (game 17 of the CCPD sample)
//! and a chess game are pasted, reviewed and analysed by the server's Fairy-Stockfish; every
//! ply gets its evaluation, the mate is seen a move before it, the best line is written in the
//! notation chosen and drawn as an arrow; a perpetual check's moves show the judge's class.
//! Screenshots: `target/e2e-screenshots/analysis-*.png`. Skipped without the engine or a
//! browser (fails under `CI=true`).

use std::path::PathBuf;

use fantoccini::Client;
use serde_json::json;

mod common;
mod web;
use common::Server;
use web::*;

const SCHOLARS_MATE: &str = "[Event \"t\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n";
/// Red checks with the rook on every move: the judge classifies the cycle's moves (将).
const PERPETUAL: &str =
    "position fen 9/4k4/9/9/5R3/9/9/9/9/3K5 w - - 0 1 moves f5e5 e8f8 e5f5 f8e8 f5e5 e8f8 e5f5 f8e8\n";

struct Removed(PathBuf);

impl Drop for Removed {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Game 17 of the CCPD sample as `position … moves …` (57 plies, red mates with the last).
fn ccpd_17() -> String {
    let (_, mut games) =
        records::files::read_file(&testdata::record_file("xiangqi-ccpd/ccpd-sample.utf8.pgn")).unwrap();
    let record = games.nth(16).unwrap().unwrap();
    let mut line = String::new();
    records::files::write_fen_moves(&record, &mut line).unwrap();
    line
}

async fn review(c: &Client, record: &str, plies: usize) {
    c.execute(
        "document.getElementById('record').value = arguments[0]; document.getElementById('submit').click();",
        vec![json!(record)],
    )
    .await
    .unwrap();
    until(
        c,
        &format!("{plies} plies reviewed"),
        &format!("return document.querySelector('#plies .ply[data-ply=\"{plies}\"]') !== null && document.querySelector('#plies .ply[data-ply=\"{}\"]') === null;", plies + 1),
    )
    .await;
}

/// Presses Analyse and waits until every ply has its evaluation.
async fn analyse(c: &Client) {
    click(c, "#analyse").await;
    until(
        c,
        "an evaluation on every ply",
        "const evs = [...document.querySelectorAll('#plies .ev')]; return evs.length > 0 && evs.every((e) => e.textContent !== '');",
    )
    .await;
}

async fn ev(c: &Client, ply: usize) -> String {
    text(c, &format!("#plies .ev[data-ply=\"{ply}\"]")).await
}

async fn go_to(c: &Client, ply: usize) {
    click(c, &format!("#plies .ply[data-ply=\"{ply}\"]")).await;
}

async fn run(c: &Client, base: &str, size: &str, lang: &str) {
    let zh = lang == "zh";
    c.goto(&format!("{base}/review")).await.unwrap();
    select(c, "#lang", lang).await;
    assert_eq!(text(c, "#analyse").await, if zh { "分析" } else { "Analyse" });

    // Xiangqi: the mate is seen from the position before it.
    review(c, &ccpd_17(), 57).await;
    analyse(c).await;
    assert_eq!(ev(c, 56).await, "#1", "red mates in one after ply 56");
    assert_eq!(ev(c, 57).await, "#", "the game is over after ply 57");
    // The last evaluation is drawn before the stream's end is read: wait for "done".
    wait_text(
        c,
        "#analysis-status",
        if zh {
            "已分析58个局面"
        } else {
            "Analysed: 58 positions"
        },
    )
    .await;
    go_to(c, 56).await;
    let eval = text(c, "#eval").await;
    println!("{size} {lang}: {eval}");
    assert!(eval.contains(if zh { "红方1步杀" } else { "Red mates in 1" }), "{eval}");
    let line = eval
        .split(if zh { "最佳着法：" } else { "best line: " })
        .nth(1)
        .unwrap_or_default();
    // In the notation chosen: Chinese by default, then WXF.
    assert!(line.contains(['进', '退', '平']), "{eval}");
    assert!(visible(c, "#board g.arrow").await, "the best move's arrow");
    select(c, "#notation", "wxf").await;
    let eval = text(c, "#eval").await;
    let line = eval
        .split(if zh { "最佳着法：" } else { "best line: " })
        .nth(1)
        .unwrap_or_default();
    let first = line.split_whitespace().next().unwrap_or_default();
    let wxf = first.len() == 4
        && first.starts_with(['K', 'A', 'E', 'B', 'H', 'N', 'R', 'C', 'P', '+', '-'])
        && first[2..3].contains(['.', '+', '-']);
    assert!(wxf, "WXF: {eval}");
    select(c, "#notation", "chinese").await;
    fits(c, &format!("the analysed Xiangqi game, {size} {lang}")).await;
    shot(c, &format!("analysis-xiangqi-{size}-{lang}")).await;

    // Chess: Black's best is not enough; the mate in SAN, White's view.
    review(c, SCHOLARS_MATE, 7).await;
    analyse(c).await;
    assert_eq!(ev(c, 6).await, "#1");
    assert_eq!(ev(c, 7).await, "#");
    go_to(c, 6).await;
    let eval = text(c, "#eval").await;
    assert!(
        eval.contains(if zh { "白方1步杀" } else { "White mates in 1" }),
        "{eval}"
    );
    assert!(eval.contains("Qxf7#"), "{eval}");
    go_to(c, 2).await;
    let eval = text(c, "#eval").await;
    assert!(eval.contains(if zh { "深度" } else { "depth" }), "{eval}");
    fits(c, &format!("the analysed chess game, {size} {lang}")).await;
    shot(c, &format!("analysis-chess-{size}-{lang}")).await;

    // A perpetual check: the judge's class on the moves and for the current one.
    review(c, PERPETUAL, 8).await;
    let label = if zh { "将" } else { "check" };
    let ply = js(
        c,
        &format!(
            "const s = [...document.querySelectorAll('#plies .ply')].find((s) => s.querySelector('.cls')?.textContent === {}); return s ? Number(s.dataset.ply) : null;",
            json!(label)
        ),
    )
    .await;
    let ply = ply.as_u64().unwrap_or_else(|| panic!("no move marked {label}")) as usize;
    go_to(c, ply).await;
    assert!(visible(c, "#judged").await);
    let judged = text(c, "#judged").await;
    let want = if zh {
        "裁判对此着的判定：将"
    } else {
        "The judge's classification of this move: check"
    };
    assert!(judged.contains(want), "{judged}");
    let position = text(c, "#position").await;
    assert!(position.contains(if zh { "红方" } else { "Red" }), "{position}");
    analyse(c).await;
    fits(c, &format!("the repetition, {size} {lang}")).await;
    shot(c, &format!("analysis-repetition-{size}-{lang}")).await;

    // A record with a move that cannot be played: reviewed up to it, the refusal in the
    // page's language.
    review(c, "[Game \"Chinese Chess\"]\n\n1. 炮二平五 马８进７ 2. 炮五进九 *\n", 2).await;
    let issue = text(c, "#issues").await;
    let want = if zh {
        "第3着：炮五进九 在此局面不是合法着法，其后的着法未读入"
    } else {
        "ply 3: 炮五进九 is not a legal move here; the moves after it are not read"
    };
    assert!(issue.contains(want), "{issue}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_reviewed_with_evaluations() {
    if testdata::fairy_stockfish("the analysis").is_none() {
        return;
    }
    let db = std::env::temp_dir().join(format!("arbiter-analysis-page-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&db);
    let _db = Removed(db.clone());
    let server = Server::start_with(db.to_str().unwrap(), &[]);
    let Some((_driver, desk, phone)) = desk_and_phone().await else {
        return;
    };
    for lang in ["en", "zh"] {
        run(&desk, &server.base, "1280", lang).await;
        run(&phone, &server.base, "390", lang).await;
    }
    // A server whose one place is taken and that keeps no queue: the page says so, in its
    // own words.
    let busy_db = std::env::temp_dir().join(format!("arbiter-analysis-page-busy-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&busy_db);
    let _busy_db = Removed(busy_db.clone());
    let busy = Server::start_with(busy_db.to_str().unwrap(), &["--analyses", "1", "--analysis-queue", "0"]);
    let moves = (0..200)
        .map(|i| ["h0g2", "h9g7", "g2h0", "g7h9"][i % 4])
        .collect::<Vec<_>>()
        .join(" ");
    let mut hog = reqwest::Client::new()
        .post(format!("{}/api/analyse", busy.base))
        .json(&json!({"kind": "xiangqi", "moves": moves}))
        .send()
        .await
        .unwrap();
    assert!(hog.chunk().await.unwrap().is_some(), "the first analysis runs");
    phone.goto(&format!("{}/review", busy.base)).await.unwrap();
    select(&phone, "#lang", "zh").await;
    review(&phone, SCHOLARS_MATE, 7).await;
    click(&phone, "#analyse").await;
    let status = wait_text(&phone, "#analysis-status", "分析中止").await;
    assert!(status.contains("服务器正在分析的对局已满"), "{status}");
    shot(&phone, "analysis-busy-390-zh").await;
    drop(hog);
    desk.close().await.unwrap();
    phone.close().await.unwrap();
}

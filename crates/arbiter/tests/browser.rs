//! The web page of `arbiter serve` in a real browser: headless Chromium driven through
//! chromedriver (WebDriver) against a spawned server. Games are created by the lobby's form and
//! played with pointer clicks on the SVG board, one browser per seat:
//!
//! - Xiangqi, with the first browser's page in Chinese: 炮二平五 炮８平５ 炮五进四 (check)
//!   士４进５, the move list in Chinese, WXF and ICCS, then a draw offered and accepted with the
//!   buttons; the verdict on both pages and on a spectator's.
//! - Chess: fool's mate (1.f3 e5 2.g4 Qh4#) played over the pages' game sockets, the verdict
//!   "checkmate" with the judge's explanation, the buttons disabled.
//!
//! Screenshots (PNG) of the steps are written to `e2e-screenshots/` in the target directory
//! (`target/e2e-screenshots/` by default, under `$CARGO_TARGET_DIR` when it is set); a failed
//! wait saves one named `failed-…` there too. Without `chromium` and `chromedriver` (Debian:
//! `apt-get install chromium chromium-driver fonts-noto-cjk`) the test prints `SKIPPED: …`
//! and passes, except under CI (`CI=true`), where it fails.

use std::time::{Duration, Instant};

use fantoccini::{Client, Locator};
use serde_json::json;

mod common;
mod web;
use common::Server;
use web::*;

async fn xiangqi(base: &str, red: &Client, black: &Client) {
    // The first page in Chinese, chosen in the header (and remembered for the next pages).
    red.goto(&format!("{base}/")).await.unwrap();
    red.wait()
        .at_most(WAIT)
        .for_element(Locator::Css("#lang"))
        .await
        .unwrap();
    red.find(Locator::Css("#lang"))
        .await
        .unwrap()
        .select_by_value("zh")
        .await
        .unwrap();
    wait_text(red, "#start", "创建").await;
    let [red_link, black_link, watch] = create(red, base, "xiangqi").await;
    assert!(
        red_link.contains("#seat=") && red_link.contains("side=red"),
        "{red_link}"
    );
    assert_eq!(text(red, "#label-white").await, "红方");
    shot(red, "01-lobby-zh").await;

    open_board(red, &red_link, "xiangqi").await;
    open_board(black, &black_link, "xiangqi").await;
    assert_eq!(text(red, "#seat").await, "你执红方");
    assert_eq!(text(black, "#seat").await, "You play Black");
    assert_eq!(text(red, "#draw").await, "提和");
    assert_eq!(text(red, "#resign").await, "认输");
    assert_eq!(text(black, "#resign").await, "Resign");
    wait_text(red, "#status", "轮到红方走棋").await;
    wait_text(black, "#status", "Red to move").await;
    assert!(!visible(red, "#promotion-box").await, "no promotion in Xiangqi");
    shot(red, "02-xiangqi-start-red-zh").await;

    // The piece picked shows its legal destinations.
    click_at(red, "#board g.piece[data-square='h2']").await;
    until(
        red,
        "hints for the cannon",
        "return document.querySelectorAll('#board circle.hint').length > 0;",
    )
    .await;
    shot(red, "03-xiangqi-cannon-selected").await;
    click_at(red, "#board circle.hint[data-square='e2']").await;
    wait_plies(red, 1).await;
    wait_plies(black, 1).await;
    play_line(red, black, 1, &["h7e7", "e2e6"]).await;

    // 炮五进四 checks: the general's point is marked and the status says so.
    wait_text(black, "#status", "Black to move — check").await;
    wait_text(red, "#status", "将军").await;
    for c in [red, black] {
        until(
            c,
            "the check mark",
            "return document.querySelectorAll('#board .check').length === 1;",
        )
        .await;
        let last = c
            .execute("return document.querySelectorAll('#board .last').length;", vec![])
            .await
            .unwrap();
        assert_eq!(last, json!(2), "the last move's two points are marked");
    }
    shot(black, "04-xiangqi-check-black-en").await;

    play_line(red, black, 3, &["d9e8"]).await;
    until(
        red,
        "no check",
        "return document.querySelectorAll('#board .check').length === 0;",
    )
    .await;
    // The moves in the server's notations.
    let chinese = ["炮二平五", "炮８平５", "炮五进四", "士４进５"];
    until(
        red,
        "the moves in Chinese",
        &format!(
            "return JSON.stringify([...document.querySelectorAll('#moves .move')].map((e) => e.textContent)) === {};",
            json!(json!(chinese).to_string())
        ),
    )
    .await;
    assert_eq!(moves(red).await, chinese);
    assert_eq!(moves(black).await, chinese, "Chinese is the default for Xiangqi");
    let select = black.find(Locator::Css("#notation")).await.unwrap();
    select.select_by_value("wxf").await.unwrap();
    until(
        black,
        "the moves in WXF",
        "return document.querySelector('#moves .move').textContent === 'C2.5';",
    )
    .await;
    assert_eq!(moves(black).await, ["C2.5", "C8.5", "C5+4", "A4+5"]);
    select.select_by_value("iccs").await.unwrap();
    until(
        black,
        "the moves in ICCS",
        "return document.querySelector('#moves .move').textContent === 'h2e2';",
    )
    .await;
    assert_eq!(moves(black).await, ["h2e2", "h7e7", "e2e6", "d9e8"]);
    shot(red, "05-xiangqi-moves-chinese").await;

    // Red offers a draw, Black accepts.
    click(red, "#draw").await;
    wait_text(red, "#offer", "你已提和").await;
    wait_text(black, "#offer", "Red offers a draw").await;
    until(
        black,
        "the accept button",
        "return !document.getElementById('accept').hidden;",
    )
    .await;
    shot(black, "06-xiangqi-draw-offered").await;
    click(black, "#accept").await;
    let verdict_en = wait_text(black, "#status", "Draw (agreement)").await;
    let verdict_zh = wait_text(red, "#status", "和棋（双方议和）").await;
    println!("verdicts: {verdict_en:?} / {verdict_zh:?}");
    for c in [red, black] {
        let d = disabled(c, &["draw", "claim", "resign", "abort"]).await;
        assert_eq!(d, [true; 4], "the buttons are disabled once the game is over");
        assert!(!visible(c, "#accept").await);
    }
    shot(red, "07-xiangqi-draw-agreed-zh").await;
    shot(black, "08-xiangqi-draw-agreed-en").await;

    // A spectator (a new tab: no seat in it) sees the verdict and no buttons.
    let seat_window = red.window().await.unwrap();
    let tab = red.new_window(true).await.unwrap();
    red.switch_to_window(tab.handle).await.unwrap();
    open_board(red, &watch, "xiangqi").await;
    wait_text(red, "#seat", "观战").await;
    wait_text(red, "#status", "和棋").await;
    assert!(!visible(red, "#buttons").await, "no buttons for a spectator");
    assert_eq!(moves(red).await, chinese);
    shot(red, "09-xiangqi-spectator-zh").await;
    red.close_window().await.unwrap();
    red.switch_to_window(seat_window).await.unwrap();
}

async fn chess(base: &str, white: &Client, black: &Client) {
    let [white_link, black_link, _] = create(black, base, "chess").await;
    assert_eq!(text(black, "#label-white").await, "White");
    open_board(white, &white_link, "chess").await;
    open_board(black, &black_link, "chess").await;
    assert!(visible(white, "#promotion-box").await, "chess has promotions");
    assert_eq!(text(black, "#seat").await, "You play Black");
    // The first page is still in Chinese (remembered), the second in English.
    wait_text(white, "#seat", "你执白方").await;
    shot(black, "10-chess-start-black").await;

    // Both pages play over the game socket, not the stream and POSTs.
    for c in [white, black] {
        until(
            c,
            "the game socket",
            "return document.getElementById('connection').dataset.via === 'socket';",
        )
        .await;
    }
    play_line(white, black, 0, &["f2f3", "e7e5", "g2g4", "d8h4"]).await;
    let verdict = wait_text(black, "#status", "Black wins (checkmate)").await;
    wait_text(white, "#status", "黑方胜（将死）").await;
    let explanation = until(
        black,
        "the judge's explanation",
        "const e = document.getElementById('explanation'); return !e.hidden && e.textContent.length > 10 ? e.textContent : null;",
    )
    .await;
    println!("chess verdict: {verdict:?}; {explanation}");
    assert!(
        explanation.as_str().unwrap().starts_with("The judge: "),
        "{explanation}"
    );
    for c in [white, black] {
        let d = disabled(c, &["draw", "claim", "resign", "abort"]).await;
        assert_eq!(d, [true; 4], "the buttons are disabled after the mate");
        until(
            c,
            "the mated king marked",
            "return document.querySelector('#board .check') !== null;",
        )
        .await;
    }
    assert_eq!(moves(black).await, ["f3", "e5", "g4", "Qh4#"]);
    black
        .find(Locator::Css("#notation"))
        .await
        .unwrap()
        .select_by_value("uci")
        .await
        .unwrap();
    until(
        black,
        "the moves in UCI",
        "return document.querySelector('#moves .move').textContent === 'f2f3';",
    )
    .await;
    assert_eq!(moves(black).await, ["f2f3", "e7e5", "g2g4", "d8h4"]);
    shot(black, "11-chess-checkmate-black-en").await;
    shot(white, "12-chess-checkmate-white-zh").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn web_page_plays_xiangqi_and_chess() {
    let Some((chromium, chromedriver)) = browser_programs() else {
        return;
    };
    let started = Instant::now();
    // A failure's screenshot stays until the next run.
    for e in std::fs::read_dir(shots_dir()).unwrap().flatten() {
        if e.file_name().to_string_lossy().starts_with("failed-") {
            let _ = std::fs::remove_file(e.path());
        }
    }
    let dir = std::env::temp_dir().join(format!("arbiter-browser-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let _dir = Scratch(dir.clone());
    let server = Server::start_with(&format!("sqlite://{}?mode=rwc", dir.join("x.db").display()), &[]);
    let (_driver, url) = start_driver(&chromedriver);
    let first = browser(&url, &chromium, Screen::Desktop(1280, 1000)).await;
    let second = browser(&url, &chromium, Screen::Desktop(1280, 1000)).await;
    let run = async {
        xiangqi(&server.base, &first, &second).await;
        chess(&server.base, &first, &second).await;
    };
    tokio::time::timeout(Duration::from_secs(100), run)
        .await
        .expect("the browser test took over 100 s");
    first.close().await.unwrap();
    second.close().await.unwrap();
    println!(
        "browser test: {:.1} s; screenshots in {}",
        started.elapsed().as_secs_f64(),
        shots_dir().display()
    );
}

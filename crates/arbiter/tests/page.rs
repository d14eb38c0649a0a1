//! Issue 26 points 9 and 10: the page in headless Chromium (see `browser.rs` for how it is
//! driven). The seat token travels only in the link's fragment and a new tab keeps the seat;
//! the layout holds with long texts, at 1280×900 and on a 390×844 phone, notices read as
//! sentences, and the "reconnecting" line goes once the stream is back. Screenshots go to
//! `target/e2e-screenshots/point-*.png`.

use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::Client;
use serde_json::{json, Value};

mod common;
mod web;
use common::Server;
use web::*;

/// A game's seats as the API hands them out.
async fn api_game(base: &str, kind: &str) -> Value {
    reqwest::Client::new()
        .post(format!("{base}/api/game"))
        .json(&json!({ "kind": kind }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

async fn api_act(base: &str, game: &Value, seat: usize, path: &str) -> (u16, Value) {
    let r = reqwest::Client::new()
        .post(format!("{base}/api/board/game/{}/{path}", game["id"].as_str().unwrap()))
        .bearer_auth(game["seats"][seat]["token"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    (r.status().as_u16(), r.json().await.unwrap_or(Value::Null))
}

/// Every address this page has fetched (finished requests) and its own: none may hold `token`.
async fn token_never_sent(c: &Client, token: &str) {
    let urls = c
        .execute(
            "return [location.href, ...performance.getEntriesByType('resource').map((e) => e.name)];",
            vec![],
        )
        .await
        .unwrap();
    let urls: Vec<String> = serde_json::from_value(urls).unwrap();
    assert!(urls.len() > 1, "{urls:?}");
    for u in &urls {
        assert!(!u.contains(token), "the seat token in an address: {u}");
    }
}

/// `[left, top, right, bottom]` of the element `css`, in CSS pixels of the viewport.
async fn rect(c: &Client, css: &str) -> [f64; 4] {
    let v = c
        .execute(
            "const r = document.querySelector(arguments[0]).getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom];",
            vec![json!(css)],
        )
        .await
        .unwrap();
    serde_json::from_value(v).unwrap()
}

async fn viewport(c: &Client) -> (f64, f64, f64) {
    let v = c
        .execute(
            "return [innerWidth, innerHeight, document.documentElement.scrollWidth];",
            vec![],
        )
        .await
        .unwrap();
    (v[0].as_f64().unwrap(), v[1].as_f64().unwrap(), v[2].as_f64().unwrap())
}

fn sqlite(dir: &Scratch) -> String {
    format!("sqlite://{}?mode=rwc", dir.0.join("page.db").display())
}

fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("arbiter-page-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn point_09_seat_token_in_fragment_survives_new_tab() {
    let dir = scratch("p09");
    let server = Server::start_with(&sqlite(&dir), &[]);
    let base = server.base.clone();
    // The links the API hands out carry the token in the fragment.
    let g = api_game(&base, "xiangqi").await;
    for (i, side) in [(0, "red"), (1, "black")] {
        let token = g["seats"][i]["token"].as_str().unwrap();
        assert_eq!(
            g["seats"][i]["url"],
            format!("/game/{}#seat={token}&side={side}", g["id"].as_str().unwrap())
        );
    }
    let Some((chromium, chromedriver)) = browser_programs() else {
        return;
    };
    let (_driver, url) = start_driver(&chromedriver);
    let one = browser(&url, &chromium, Screen::Desktop(1280, 900)).await;
    let other = browser(&url, &chromium, Screen::Desktop(1280, 900)).await;
    let run = async {
        let [red_link, black_link, watch] = create(&one, &base, "xiangqi").await;
        for link in [&red_link, &black_link] {
            assert!(link.contains("#seat=") && !link.contains('?'), "{link}");
        }
        let token = |link: &str| {
            link.split("#seat=")
                .nth(1)
                .unwrap()
                .split('&')
                .next()
                .unwrap()
                .to_string()
        };
        let (red_token, black_token) = (token(&red_link), token(&black_link));
        let plain = red_link.split('#').next().unwrap().to_string();

        open_board(&one, &red_link, "xiangqi").await;
        wait_text(&one, "#seat", "You play Red").await;
        token_never_sent(&one, &red_token).await;
        let seat_tab = one.window().await.unwrap();

        // A new tab on the game's plain address: still Red, and it moves.
        let tab = one.new_window(true).await.unwrap();
        one.switch_to_window(tab.handle.clone()).await.unwrap();
        open_board(&one, &plain, "xiangqi").await;
        wait_text(&one, "#seat", "You play Red").await;
        assert!(visible(&one, "#buttons").await, "a player's buttons");
        play(&one, "h2e2").await;
        wait_plies(&one, 1).await;
        token_never_sent(&one, &red_token).await;
        shot(&one, "point-09-new-tab-keeps-the-seat").await;
        // A reload keeps it too.
        one.refresh().await.unwrap();
        wait_text(&one, "#seat", "You play Red").await;

        // The watch link watches, even in the browser that holds a seat.
        let watch_tab = one.new_window(true).await.unwrap();
        one.switch_to_window(watch_tab.handle).await.unwrap();
        open_board(&one, &watch, "xiangqi").await;
        wait_text(&one, "#seat", "Spectating").await;
        assert!(!visible(&one, "#buttons").await);
        one.close_window().await.unwrap();
        one.switch_to_window(seat_tab).await.unwrap();
        wait_plies(&one, 1).await;
        assert_eq!(text(&one, "#seat").await, "You play Red");

        // Another browser holds no seat until it opens its link, then keeps that one.
        open_board(&other, &plain, "xiangqi").await;
        wait_text(&other, "#seat", "Spectating").await;
        open_board(&other, &black_link, "xiangqi").await;
        wait_text(&other, "#seat", "You play Black").await;
        open_board(&other, &plain, "xiangqi").await;
        wait_text(&other, "#seat", "You play Black").await;
        play(&other, "h9g7").await;
        wait_plies(&other, 2).await;
        wait_plies(&one, 2).await;
        token_never_sent(&other, &black_token).await;
        shot(&other, "point-09-other-browser-black").await;
    };
    tokio::time::timeout(Duration::from_secs(120), run)
        .await
        .expect("the seat test took over 120 s");
    one.close().await.unwrap();
    other.close().await.unwrap();
}

/// A server stopped with SIGTERM when dropped, a failed test's too.
struct Serving(Child);

impl Drop for Serving {
    fn drop(&mut self) {
        // SAFETY: kill(2) on our own child's pid.
        unsafe { libc::kill(self.0.id() as libc::pid_t, libc::SIGTERM) };
        let _ = self.0.wait();
    }
}

/// `arbiter serve` at a fixed address (to come back where the page looks for it).
fn serve_at(addr: &str, db: &str) -> Serving {
    let child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["serve", "--addr", addr, "--db", db])
        .env_remove("DATABASE_URL")
        .stdout(Stdio::null())
        .spawn()
        .expect("spawn arbiter serve");
    let serving = Serving(child);
    let deadline = Instant::now() + WAIT;
    while TcpStream::connect(addr).is_err() {
        assert!(Instant::now() < deadline, "arbiter serve did not listen on {addr}");
        std::thread::sleep(Duration::from_millis(50));
    }
    serving
}

/// A ruling as long as the referee's longest: a perpetual check found on a cycle, with the plies
/// and the rule quoted.
const LONG_RULING: &str = "The judge: the position stood for the third time (after plies 4, 8 and 12): \
    red checked on every move of the cycle (f5e5, e5f5) while black's moves were allowed; under \
    CXA 4.1.5 a side that checks perpetually against a side that does not must vary, and red, \
    told to vary after ply 8, did not: red loses (长将判负). Unbroken: \
    perpetual-check-ruling-quoted-in-full-without-any-space-to-break-it-at-the-end-of-the-line";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn point_10_long_verdict_keeps_board_size() {
    let Some((chromium, chromedriver)) = browser_programs() else {
        return;
    };
    let dir = scratch("p10");
    let db = sqlite(&dir);
    let addr = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().to_string()
    };
    let base = format!("http://{addr}");
    let mut server = Some(serve_at(&addr, &db));
    let (_driver, url) = start_driver(&chromedriver);
    let desk = browser(&url, &chromium, Screen::Desktop(1280, 900)).await;
    let phone = browser(&url, &chromium, Screen::Phone(390, 844)).await;
    let run = async {
        let g = api_game(&base, "xiangqi").await;
        let id = g["id"].as_str().unwrap();
        let link = |i: usize| {
            let s = &g["seats"][i];
            format!(
                "{base}/game/{id}#seat={}&side={}",
                s["token"].as_str().unwrap(),
                s["side"].as_str().unwrap()
            )
        };
        open_board(&desk, &link(0), "xiangqi").await;
        let (w, h, scroll_w) = viewport(&desk).await;
        println!("desktop viewport {w}×{h}");
        // 1280×900: the whole board shows, the bottom rank and the clock below it too.
        let board = rect(&desk, "#board svg").await;
        let bottom_clock = rect(&desk, ".clock.bottom").await;
        assert!(board[2] - board[0] >= 480.0, "board {board:?}");
        assert!(
            board[3] <= h && bottom_clock[3] <= h,
            "cut off: board {board:?}, clock {bottom_clock:?}, {h}"
        );
        assert!(scroll_w <= w, "no sideways scrolling");
        let red_rank = desk
            .execute(
                "return Math.max(...[...document.querySelectorAll('#board g.piece')].map((p) => p.getBoundingClientRect().bottom));",
                vec![],
            )
            .await
            .unwrap();
        assert!(red_rank.as_f64().unwrap() <= h, "the bottom rank's pieces: {red_rank}");
        let width = board[2] - board[0];
        shot(&desk, "point-10-desktop-1280x900").await;

        // Notices as sentences: an illegal move is refused, and counted as a foul.
        let (st, v) = api_act(&base, &g, 0, "move/a0a5").await;
        assert_eq!(st, 400, "{v}");
        let notice = wait_text(&desk, "#message", "Red").await;
        println!("notice: {notice}");
        for raw in ["{", "side:", "MoveRejected", "Foul —", "first"] {
            assert!(!notice.contains(raw), "a raw dump: {notice}");
        }
        // A long verdict and explanation keep the board's size.
        for (i, mv) in ["h2e2", "h7e7", "e2e6", "d9e8"].iter().enumerate() {
            assert_eq!(api_act(&base, &g, i % 2, &format!("move/{mv}")).await.0, 200);
        }
        // Three illegal moves lose under `online`: the verdict and the judge's words.
        for _ in 0..2 {
            api_act(&base, &g, 0, "move/a0a5").await;
        }
        until(
            &desk,
            "the verdict",
            "return !document.getElementById('explanation').hidden;",
        )
        .await;
        let verdict = text(&desk, "#status").await;
        let explanation = text(&desk, "#explanation").await;
        println!("verdict: {verdict}; {explanation}");
        assert_eq!(verdict, "Black wins (illegal moves)");
        assert!(explanation.starts_with("The judge: "), "{explanation}");
        let after = rect(&desk, "#board svg").await;
        assert!(
            (after[2] - after[0] - width).abs() < 1.0,
            "the board was {width} wide, now {after:?}"
        );
        // A ruling the server writes itself: both sides shuffle their horses until the position
        // has stood four times (12 plies), and red claims the draw (不变作和): the judge's
        // explanation names the plies, each side's moves and the rule.
        let g2 = api_game(&base, "xiangqi").await;
        let id2 = g2["id"].as_str().unwrap();
        let s2 = &g2["seats"][0];
        let link2 = format!(
            "{base}/game/{id2}#seat={}&side={}",
            s2["token"].as_str().unwrap(),
            s2["side"].as_str().unwrap()
        );
        open_board(&desk, &link2, "xiangqi").await;
        let shuffle = ["h0g2", "h9g7", "g2h0", "g7h9"];
        for ply in 0..12 {
            let (st, v) = api_act(&base, &g2, ply % 2, &format!("move/{}", shuffle[ply % 4])).await;
            assert_eq!(st, 200, "{v}");
        }
        let (st, ended) = api_act(&base, &g2, 0, "claim-draw").await;
        assert_eq!(st, 200, "{ended}");
        assert_eq!(ended["status"], "draw", "{ended}");
        println!("repetition ruled: {ended}");
        until(
            &desk,
            "the repetition's verdict",
            "return !document.getElementById('explanation').hidden;",
        )
        .await;
        let explanation = text(&desk, "#explanation").await;
        println!("explanation: {explanation}");
        assert!(explanation.len() > 80, "a ruling in words: {explanation}");
        let after = rect(&desk, "#board svg").await;
        assert!(
            (after[2] - after[0] - width).abs() < 1.0,
            "the board was {width} wide, now {after:?} beside {explanation:?}"
        );
        shot(&desk, "point-10-desktop-repetition-verdict").await;

        // The worst case: a ruling as long as the referee's longest (a perpetual check quoting
        // its rule) with an unbreakable word in it, set in place.
        desk.execute(
            "document.getElementById('explanation').textContent = arguments[0]; \
             document.getElementById('message').textContent = arguments[0];",
            vec![json!(LONG_RULING)],
        )
        .await
        .unwrap();
        let after = rect(&desk, "#board svg").await;
        assert!(
            (after[2] - after[0] - width).abs() < 1.0,
            "the board was {width} wide, now {after:?}"
        );
        let (_, _, scroll_w) = viewport(&desk).await;
        assert!(scroll_w <= w, "no sideways scrolling with a long text");
        shot(&desk, "point-10-desktop-long-verdict").await;

        // A phone, 390 wide: the clocks sit right above and below the board, before the moves.
        let g = api_game(&base, "chess").await;
        let id = g["id"].as_str().unwrap().to_string();
        let link = |i: usize| {
            let s = &g["seats"][i];
            format!(
                "{base}/game/{id}#seat={}&side={}",
                s["token"].as_str().unwrap(),
                s["side"].as_str().unwrap()
            )
        };
        open_board(&phone, &link(1), "chess").await;
        let (w, h, scroll_w) = viewport(&phone).await;
        println!("phone viewport {w}×{h}");
        assert!((w - 390.0).abs() < 1.0, "{w}");
        assert!(scroll_w <= w, "no sideways scrolling on the phone: {scroll_w}");
        let board = rect(&phone, "#board svg").await;
        let top = rect(&phone, ".clock.top").await;
        let bottom = rect(&phone, ".clock.bottom").await;
        let moves = rect(&phone, "#moves").await;
        assert!(board[2] - board[0] >= 340.0 && board[2] <= w, "board {board:?}");
        assert!(
            top[3] <= board[1] + 1.0 && board[1] - top[3] < 16.0,
            "top clock {top:?}, board {board:?}"
        );
        assert!(
            bottom[1] >= board[3] - 1.0 && bottom[1] - board[3] < 16.0,
            "bottom clock {bottom:?}, board {board:?}"
        );
        assert!(
            bottom[3] <= moves[1],
            "the clocks come before the moves: {bottom:?} {moves:?}"
        );
        assert!(
            text(&phone, ".clock.bottom").await.starts_with("Black"),
            "Black's own clock below"
        );
        shot(&phone, "point-10-phone-390x844").await;

        // The stream drops (the server stops) and comes back: "reconnecting" shows, then goes.
        drop(server.take());
        wait_text(&phone, "#connection", "reconnecting").await;
        shot(&phone, "point-10-phone-reconnecting").await;
        server = Some(serve_at(&addr, &db));
        until(
            &phone,
            "the reconnecting line gone",
            "return document.getElementById('connection').textContent === '';",
        )
        .await;
        // And it is really back: a move made elsewhere arrives.
        assert_eq!(api_act(&base, &g, 0, "move/e2e4").await.0, 200);
        wait_plies(&phone, 1).await;
        tokio::time::sleep(Duration::from_millis(1500)).await;
        assert_eq!(text(&phone, "#connection").await, "", "the message came back");
        shot(&phone, "point-10-phone-reconnected").await;
    };
    tokio::time::timeout(Duration::from_secs(150), run)
        .await
        .expect("the layout test took over 150 s");
    desk.close().await.unwrap();
    phone.close().await.unwrap();
    drop(server);
}

//! The web page of `arbiter serve` in a real browser: headless Chromium driven through
//! chromedriver (WebDriver) against a spawned server. Games are created by the lobby's form and
//! played with pointer clicks on the SVG board, one browser per seat:
//!
//! - Xiangqi, with the first browser's page in Chinese: 炮二平五 炮８平５ 炮五进四 (check)
//!   士４进５, the move list in Chinese, WXF and ICCS, then a draw offered and accepted with the
//!   buttons; the verdict on both pages and on a spectator's.
//! - Chess: fool's mate (1.f3 e5 2.g4 Qh4#), the verdict "checkmate" with the judge's
//!   explanation, the buttons disabled.
//!
//! Screenshots (PNG) of the steps are written to `e2e-screenshots/` in the target directory
//! (`target/e2e-screenshots/` by default, under `$CARGO_TARGET_DIR` when it is set); a failed
//! wait saves one named `failed-…` there too. Without `chromium` and `chromedriver` (Debian:
//! `apt-get install chromium chromium-driver fonts-noto-cjk`) the test prints `SKIPPED: …`
//! and passes (fails under `CI=true`).

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{json, Value};

/// How long any one thing may take to appear on a page.
const WAIT: Duration = Duration::from_secs(20);

/// A child process killed with its process group (chromedriver's browsers) when dropped.
struct Proc {
    child: Child,
}

impl Drop for Proc {
    fn drop(&mut self) {
        // The group is the child's own (spawned with `process_group(0)`): its id is the child's.
        let pgid = self.child.id() as libc::pid_t;
        if pgid > 1 {
            // SAFETY: kill(2) with a negative id signals exactly that process group.
            unsafe { libc::kill(-pgid, libc::SIGKILL) };
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

mod common;
use common::Server;

/// A folder removed when dropped (made before the server, so dropped after it has stopped).
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The first of `names` found on `$PATH` (or in /usr/bin).
fn find_exe(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs: Vec<PathBuf> = std::env::split_paths(&path).collect();
    dirs.push(PathBuf::from("/usr/bin"));
    names
        .iter()
        .flat_map(|n| dirs.iter().map(move |d| d.join(n)))
        .find(|p| p.is_file())
}

/// chromedriver on a free loopback port, in a process group of its own.
fn start_driver(exe: &Path) -> (Proc, String) {
    use std::os::unix::process::CommandExt;
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let child = Command::new(exe)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .expect("spawn chromedriver");
    let proc = Proc { child };
    let deadline = Instant::now() + WAIT;
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "chromedriver did not listen on port {port}");
        std::thread::sleep(Duration::from_millis(50));
    }
    (proc, format!("http://127.0.0.1:{port}"))
}

async fn browser(driver: &str, chromium: &Path) -> Client {
    let caps = json!({
        "goog:chromeOptions": {
            "binary": chromium,
            "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1280,1000", "--lang=en-US", "--no-first-run",
                "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
            ],
        },
    });
    let caps = caps.as_object().unwrap().clone().into_iter().collect();
    ClientBuilder::new(HttpConnector::new())
        .capabilities(caps)
        .connect(driver)
        .await
        .expect("a Chromium session through chromedriver")
}

fn shots_dir() -> PathBuf {
    // CARGO_TARGET_TMPDIR is `<target dir>/tmp`.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .join("e2e-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

async fn shot(c: &Client, name: &str) {
    match c.screenshot().await {
        Ok(png) => std::fs::write(shots_dir().join(format!("{name}.png")), png).unwrap(),
        Err(e) => eprintln!("screenshot {name}: {e}"),
    }
}

fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::String(s) => !s.is_empty(),
        Value::Number(n) => n.as_f64() != Some(0.0),
        _ => true,
    }
}

/// Runs `js` (a function body that returns a value) until it returns something truthy; panics
/// after `WAIT` with what it returned last, leaving a screenshot `failed-<what>.png`.
async fn until(c: &Client, what: &str, js: &str) -> Value {
    let deadline = Instant::now() + WAIT;
    loop {
        let v = c
            .execute(js, vec![])
            .await
            .unwrap_or_else(|e| json!(format!("error: {e}")));
        if truthy(&v) && !v.as_str().is_some_and(|s| s.starts_with("error: ")) {
            return v;
        }
        if Instant::now() > deadline {
            shot(
                c,
                &format!("failed-{}", what.replace(|ch: char| !ch.is_alphanumeric(), "-")),
            )
            .await;
            let page = c
                .execute("return document.querySelector('main:not([hidden])')?.innerText", vec![])
                .await
                .unwrap_or_default();
            panic!("timed out waiting for {what}; last: {v}; page: {page}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The trimmed text of the first element matching `css` ("" when there is none).
async fn text(c: &Client, css: &str) -> String {
    let v = c
        .execute(
            "const e = document.querySelector(arguments[0]); return e ? e.textContent.trim() : '';",
            vec![json!(css)],
        )
        .await
        .unwrap();
    v.as_str().unwrap_or_default().to_string()
}

/// Waits for the text of `css` to contain `want`; returns the text.
async fn wait_text(c: &Client, css: &str, want: &str) -> String {
    let js = format!(
        "const e = document.querySelector({}); return e && e.textContent.includes({}) ? e.textContent.trim() : null;",
        json!(css),
        json!(want)
    );
    until(c, &format!("{css} to contain {want:?}"), &js)
        .await
        .as_str()
        .unwrap()
        .to_string()
}

/// The texts of the move list.
async fn moves(c: &Client) -> Vec<String> {
    let v = c
        .execute(
            "return [...document.querySelectorAll('#moves .move')].map((e) => e.textContent);",
            vec![],
        )
        .await
        .unwrap();
    serde_json::from_value(v).unwrap()
}

async fn wait_plies(c: &Client, n: usize) {
    until(
        c,
        &format!("{n} moves in the list"),
        &format!("return document.querySelectorAll('#moves .move').length === {n};"),
    )
    .await;
}

/// A real pointer click (move, press, release) at the centre of the element `css`.
async fn click_at(c: &Client, css: &str) {
    let js = format!(
        "const e = document.querySelector({}); if (!e) return null; const r = e.getBoundingClientRect(); \
         return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)];",
        json!(css)
    );
    let v = until(c, &format!("{css} on the board"), &js).await;
    let (x, y) = (v[0].as_f64().unwrap(), v[1].as_f64().unwrap());
    let mouse = MouseActions::new("mouse".into())
        .then(PointerAction::MoveTo { duration: None, x, y })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    c.perform_actions(mouse).await.unwrap();
    c.release_actions().await.unwrap();
}

/// Plays `mv` (ICCS or UCI) on the page by clicking the piece, then its hint on the target.
async fn play(c: &Client, mv: &str) {
    let (from, to) = mv.split_at(2);
    click_at(c, &format!("#board g.piece[data-square='{from}']")).await;
    click_at(c, &format!("#board circle.hint[data-square='{to}']")).await;
}

/// Plays `line` alternately from the two pages, waiting for each move to reach both.
async fn play_line(first: &Client, second: &Client, start: usize, line: &[&str]) {
    for (i, mv) in line.iter().enumerate() {
        let ply = start + i;
        let (mover, other) = [(first, second), (second, first)][ply % 2];
        wait_plies(mover, ply).await;
        play(mover, mv).await;
        wait_plies(mover, ply + 1).await;
        wait_plies(other, ply + 1).await;
    }
}

async fn click(c: &Client, css: &str) {
    c.wait()
        .at_most(WAIT)
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("click {css}: {e}"));
}

async fn visible(c: &Client, css: &str) -> bool {
    c.find(Locator::Css(css)).await.unwrap().is_displayed().await.unwrap()
}

async fn disabled(c: &Client, ids: &[&str]) -> Vec<bool> {
    let v = c
        .execute(
            "return arguments[0].map((id) => document.getElementById(id).disabled);",
            vec![json!(ids)],
        )
        .await
        .unwrap();
    serde_json::from_value(v).unwrap()
}

/// Creates a game of `kind` with the lobby's form on `c`; returns the two seat links and the
/// spectators' one.
async fn create(c: &Client, base: &str, kind: &str) -> [String; 3] {
    c.goto(&format!("{base}/")).await.unwrap();
    c.wait()
        .at_most(WAIT)
        .for_element(Locator::Css("#create"))
        .await
        .unwrap();
    c.find(Locator::Css("#kind"))
        .await
        .unwrap()
        .select_by_value(kind)
        .await
        .unwrap();
    click(c, "#start").await;
    let links = until(
        c,
        "the seat links",
        "const v = (id) => document.getElementById(id).value; \
         return v('link-white') && v('link-black') ? [v('link-white'), v('link-black'), v('link-watch')] : null;",
    )
    .await;
    let links: Vec<String> = serde_json::from_value(links).unwrap();
    [links[0].clone(), links[1].clone(), links[2].clone()]
}

async fn open_board(c: &Client, link: &str, kind: &str) {
    c.goto(link).await.unwrap();
    until(
        c,
        "the board",
        &format!("return document.querySelector('#board svg.board.{kind} g.piece') !== null;"),
    )
    .await;
}

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
    let (Some(chromium), Some(chromedriver)) =
        (find_exe(&["chromium", "chromium-browser"]), find_exe(&["chromedriver"]))
    else {
        testdata::skip(
            "the browser test needs chromium and chromedriver (Debian: apt-get install chromium chromium-driver fonts-noto-cjk)",
        );
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
    let first = browser(&url, &chromium).await;
    let second = browser(&url, &chromium).await;
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

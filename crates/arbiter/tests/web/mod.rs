//! What the browser tests share: chromedriver and headless Chromium started and driven
//! (WebDriver), screenshots, waits, clicks on the board, the lobby's form.

// Each test file uses its own part of this.
#![allow(dead_code)]

pub mod event;

pub use crate::common::api;

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{json, Value};

/// How long any one thing may take to appear on a page.
pub const WAIT: Duration = Duration::from_secs(20);

/// A child process killed with its process group (chromedriver's browsers) when dropped.
pub struct Proc {
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

/// A folder removed when dropped (made before the server, so dropped after it has stopped).
pub struct Scratch(pub PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The first of `names` found on `$PATH` (or in /usr/bin).
pub fn find_exe(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs: Vec<PathBuf> = std::env::split_paths(&path).collect();
    dirs.push(PathBuf::from("/usr/bin"));
    names
        .iter()
        .flat_map(|n| dirs.iter().map(move |d| d.join(n)))
        .find(|p| p.is_file())
}

/// chromedriver on a free loopback port, in a process group of its own.
pub fn start_driver(exe: &Path) -> (Proc, String) {
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

/// chromium and chromedriver from `$PATH`; without them `None` after a `SKIPPED` line, or a
/// failure under CI (`CI=true`), where every test must run.
pub fn browser_programs() -> Option<(PathBuf, PathBuf)> {
    match (find_exe(&["chromium", "chromium-browser"]), find_exe(&["chromedriver"])) {
        (Some(chromium), Some(driver)) => Some((chromium, driver)),
        _ => {
            testdata::skip("the browser test needs chromium and chromedriver (Debian: apt-get install chromium chromium-driver fonts-noto-cjk)");
            None
        }
    }
}

/// A desktop (1280×900) and a phone (390×844) browser through one chromedriver, which runs
/// while the returned guard lives; `None` where the programs are missing (see
/// [`browser_programs`]).
pub async fn desk_and_phone() -> Option<(Proc, Client, Client)> {
    let (chromium, chromedriver) = browser_programs()?;
    let (driver, url) = start_driver(&chromedriver);
    let desk = browser(&url, &chromium, Screen::Desktop(1280, 900)).await;
    let phone = browser(&url, &chromium, Screen::Phone(390, 844)).await;
    Some((driver, desk, phone))
}

/// The window a page is shown in.
#[derive(Clone, Copy)]
pub enum Screen {
    /// A desktop browser's window, in CSS pixels.
    Desktop(u32, u32),
    /// A phone: Chromium's mobile emulation at this viewport (CSS pixels, 2 device pixels each).
    Phone(u32, u32),
}

pub async fn browser(driver: &str, chromium: &Path, screen: Screen) -> Client {
    let (w, h) = match screen {
        Screen::Desktop(w, h) | Screen::Phone(w, h) => (w, h),
    };
    let mut options = json!({
        "binary": chromium,
        "args": [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            format!("--window-size={w},{h}"), "--lang=en-US", "--no-first-run",
            "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
            "--hide-scrollbars",
        ],
    });
    if let Screen::Phone(..) = screen {
        options["mobileEmulation"] =
            json!({ "deviceMetrics": { "width": w, "height": h, "pixelRatio": 2.0, "mobile": true, "touch": false } });
    }
    let caps = json!({ "goog:chromeOptions": options });
    let caps = caps.as_object().unwrap().clone().into_iter().collect();
    ClientBuilder::new(HttpConnector::new())
        .capabilities(caps)
        .connect(driver)
        .await
        .expect("a Chromium session through chromedriver")
}

pub fn shots_dir() -> PathBuf {
    // CARGO_TARGET_TMPDIR is `<target dir>/tmp`.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .join("e2e-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub async fn shot(c: &Client, name: &str) {
    match c.screenshot().await {
        Ok(png) => std::fs::write(shots_dir().join(format!("{name}.png")), png).unwrap(),
        Err(e) => eprintln!("screenshot {name}: {e}"),
    }
}

pub fn truthy(v: &Value) -> bool {
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
pub async fn until(c: &Client, what: &str, js: &str) -> Value {
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
pub async fn text(c: &Client, css: &str) -> String {
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
pub async fn wait_text(c: &Client, css: &str, want: &str) -> String {
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
pub async fn moves(c: &Client) -> Vec<String> {
    let v = c
        .execute(
            "return [...document.querySelectorAll('#moves .move')].map((e) => e.textContent);",
            vec![],
        )
        .await
        .unwrap();
    serde_json::from_value(v).unwrap()
}

pub async fn wait_plies(c: &Client, n: usize) {
    until(
        c,
        &format!("{n} moves in the list"),
        &format!("return document.querySelectorAll('#moves .move').length === {n};"),
    )
    .await;
}

/// A real pointer click (move, press, release) at the centre of the element `css`.
pub async fn click_at(c: &Client, css: &str) {
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
pub async fn play(c: &Client, mv: &str) {
    let (from, to) = mv.split_at(2);
    click_at(c, &format!("#board g.piece[data-square='{from}']")).await;
    click_at(c, &format!("#board circle.hint[data-square='{to}']")).await;
}

/// Plays `line` alternately from the two pages, waiting for each move to reach both.
pub async fn play_line(first: &Client, second: &Client, start: usize, line: &[&str]) {
    for (i, mv) in line.iter().enumerate() {
        let ply = start + i;
        let (mover, other) = [(first, second), (second, first)][ply % 2];
        wait_plies(mover, ply).await;
        play(mover, mv).await;
        wait_plies(mover, ply + 1).await;
        wait_plies(other, ply + 1).await;
    }
}

pub async fn click(c: &Client, css: &str) {
    c.wait()
        .at_most(WAIT)
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("click {css}: {e}"));
}

pub async fn visible(c: &Client, css: &str) -> bool {
    c.find(Locator::Css(css)).await.unwrap().is_displayed().await.unwrap()
}

pub async fn disabled(c: &Client, ids: &[&str]) -> Vec<bool> {
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
pub async fn create(c: &Client, base: &str, kind: &str) -> [String; 3] {
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

pub async fn open_board(c: &Client, link: &str, kind: &str) {
    c.goto(link).await.unwrap();
    until(
        c,
        "the board",
        &format!("return document.querySelector('#board svg.board.{kind} g.piece') !== null;"),
    )
    .await;
}

/// The value of a script run in the page.
pub async fn js(c: &Client, script: &str) -> Value {
    c.execute(script, vec![]).await.unwrap()
}

/// The page's width holds on this screen: nothing runs past the right edge.
pub async fn fits(c: &Client, what: &str) {
    let v = js(c, "return [innerWidth, document.documentElement.scrollWidth];").await;
    let (w, sw) = (v[0].as_f64().unwrap(), v[1].as_f64().unwrap());
    assert!(sw <= w + 1.0, "{what}: the page is {sw} wide in a {w} window");
}

/// Replaces the text of the input `css` with `text`, as typed.
pub async fn type_into(c: &Client, css: &str, text: &str) {
    let e = c
        .wait()
        .at_most(WAIT)
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"));
    e.clear().await.unwrap();
    e.send_keys(text).await.unwrap();
}

/// Chooses `value` in the select `css`.
pub async fn select(c: &Client, css: &str, value: &str) {
    c.find(Locator::Css(css))
        .await
        .unwrap()
        .select_by_value(value)
        .await
        .unwrap();
}

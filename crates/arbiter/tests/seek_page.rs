//! Two visitors meet through the lobby, in two browsers (two Chromium sessions: two cookie
//! jars), at 1280×900 and 390×844: one posts a seek, the other sees it listed with the seeker's
//! name and plays it; both land on the board in their seats, play a Xiangqi game by clicking
//! until one resigns, then one offers a rematch, the other accepts, and both pages move to the
//! new game with colours swapped. Once in English (the desk seeks), once in Chinese (the phone
//! seeks); then a challenge by link, its link opened by the other. Screenshots: target/e2e-screenshots/seek-*.png.

use fantoccini::Client;
use serde_json::json;

mod common;
mod web;
use common::Server;
use web::*;

/// The game's id from the page's address, once the board of a game other than `not` shows.
async fn on_board(c: &Client, not: &str) -> String {
    let v = until(
        c,
        "a new game's board",
        &format!(
            "const m = /^\\/game\\/([A-Za-z0-9]+)/.exec(location.pathname); \
             return m && m[1] !== {} && document.querySelector('#board svg.board.xiangqi g.piece') \
             && document.getElementById('seat').textContent ? m[1] : null;",
            json!(not)
        ),
    )
    .await;
    v.as_str().unwrap().to_string()
}

/// What the page's seat line says for `side` in `lang`.
fn plays(lang: &str, side: &str) -> String {
    match (lang, side) {
        ("en", "red") => "You play Red".into(),
        ("en", _) => "You play Black".into(),
        (_, "red") => "你执红方".into(),
        _ => "你执黑方".into(),
    }
}

/// `seeker` seeks a casual Xiangqi game as Red (rated games are for accounts: the box is off
/// for a visitor without one), `taker` plays it; they play until `taker`
/// resigns; `taker` offers a rematch and `seeker` accepts.
async fn meet_play_and_rematch(base: &str, seeker: &Client, taker: &Client, names: [&str; 2], lang: &str, tag: &str) {
    for (c, name) in [(seeker, names[0]), (taker, names[1])] {
        c.goto(&format!("{base}/")).await.unwrap();
        until(c, "the lobby", "return !document.getElementById('lobby').hidden;").await;
        select(c, "#lang", lang).await;
        type_into(c, "#display-name", name).await;
        click(c, "#save-name").await;
        until(
            c,
            "the name saved",
            "return document.getElementById('name-note').textContent !== '';",
        )
        .await;
    }
    select(seeker, "#seek-kind", "xiangqi").await;
    // In Chinese, the Chinese rules' per-move limit: 10 minutes, each move within 60 s.
    let per_move = lang == "zh";
    select(seeker, "#seek-time", if per_move { "10+0/60s" } else { "3+2" }).await;
    select(seeker, "#seek-colour", "first").await;
    until(
        seeker,
        "rated games offered to accounts only",
        "const r = document.getElementById('seek-rated'); \
         return r.disabled && !r.checked && !document.getElementById('rated-hint').hidden;",
    )
    .await;
    click(seeker, "#seek-go").await;
    until(
        seeker,
        "the seeker's own seek",
        "return document.querySelectorAll('#my-seeks li').length === 1;",
    )
    .await;
    fits(seeker, "the lobby with a seek").await;
    shot(seeker, &format!("seek-{tag}-1-waiting")).await;
    // The other sees it with the seeker's name, and plays it.
    let listed = until(
        taker,
        "the seek listed",
        &format!(
            "const li = [...document.querySelectorAll('#seeks li')].find((l) => l.textContent.includes({})); \
             return li ? li.textContent : null;",
            json!(names[0])
        ),
    )
    .await;
    let listed = listed.as_str().unwrap();
    let (rated, time) = if lang == "en" {
        ("Casual", "Blitz 3+2")
    } else {
        ("友谊", "10分钟，每步限时60秒")
    };
    assert!(listed.contains(rated) && listed.contains(time), "{listed}");
    fits(taker, "the lobby with the seeks").await;
    shot(taker, &format!("seek-{tag}-2-listed")).await;
    click(taker, "#seeks li button").await;
    let game = on_board(taker, "").await;
    assert_eq!(on_board(seeker, "").await, game, "both at the same board");
    wait_text(seeker, "#seat", &plays(lang, "red")).await;
    wait_text(taker, "#seat", &plays(lang, "black")).await;
    assert!(!visible(seeker, "#rated").await, "a casual game is not marked rated");
    shot(taker, &format!("seek-{tag}-3-board-taker")).await;

    play_line(seeker, taker, 0, &["h2e2", "h9g7", "h0g2", "i9h9"]).await;
    // Red to move: with a per-move limit its clock counts this move's seconds down too.
    let counting = until(
        seeker,
        "the per-move countdown",
        "const m = document.querySelector('#clock-white .move'); return m ? [m.textContent] : null;",
    )
    .await;
    let counting = counting[0].as_str().unwrap();
    if per_move {
        let s: u32 = counting
            .trim_start_matches("本步")
            .trim_end_matches('秒')
            .parse()
            .unwrap_or_else(|_| panic!("{counting:?}"));
        assert!((50..=60).contains(&s), "{counting}");
    } else {
        assert_eq!(counting, "", "no per-move limit, no countdown");
    }
    shot(seeker, &format!("seek-{tag}-3b-red-to-move")).await;
    click(taker, "#resign").await;
    let won = if lang == "en" { "Red wins" } else { "红方胜" };
    for c in [seeker, taker] {
        wait_text(c, "#status", won).await;
    }
    // Each seat holder sees Rematch; the loser offers, the winner accepts.
    until(
        taker,
        "the rematch button",
        "return !document.getElementById('rematch').hidden;",
    )
    .await;
    click(taker, "#rematch-go").await;
    let offered = if lang == "en" {
        "Your opponent offers a rematch."
    } else {
        "对手提议再来一局。"
    };
    wait_text(seeker, "#rematch-note", offered).await;
    shot(seeker, &format!("seek-{tag}-4-rematch-offered")).await;
    shot(taker, &format!("seek-{tag}-5-rematch-waiting")).await;
    click(seeker, "#rematch-go").await;
    let next = on_board(seeker, &game).await;
    assert_eq!(on_board(taker, &game).await, next, "both move to the rematch");
    // Colours swapped.
    wait_text(seeker, "#seat", &plays(lang, "black")).await;
    wait_text(taker, "#seat", &plays(lang, "red")).await;
    play_line(taker, seeker, 0, &["h2e2", "h9g7"]).await;
    fits(taker, "the rematch's board").await;
    shot(taker, &format!("seek-{tag}-6-rematch-board-red")).await;
    shot(seeker, &format!("seek-{tag}-7-rematch-board-black")).await;
}

/// `maker` challenges by link as Black; `taker` opens the link and plays Red.
async fn challenge_by_link(base: &str, maker: &Client, taker: &Client) {
    maker.goto(&format!("{base}/")).await.unwrap();
    until(maker, "the lobby", "return !document.getElementById('lobby').hidden;").await;
    select(maker, "#seek-colour", "second").await;
    click(maker, "#challenge-go").await;
    let link = until(
        maker,
        "the challenge link",
        "return document.getElementById('challenge-link').value;",
    )
    .await;
    shot(maker, "seek-challenge-link").await;
    click(maker, "#challenge-board").await;
    taker.goto(link.as_str().unwrap()).await.unwrap();
    let game = on_board(taker, "").await;
    assert_eq!(on_board(maker, "").await, game);
    wait_text(maker, "#seat", "你执黑方").await;
    wait_text(taker, "#seat", "You play Red").await;
    play_line(taker, maker, 0, &["h2e2", "h9g7"]).await;
    shot(taker, "seek-challenge-board").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_visitors_meet_by_a_seek_play_and_rematch() {
    let Some((_driver, desk, phone)) = desk_and_phone().await else {
        return;
    };
    let dir = Scratch(std::env::temp_dir().join(format!("arbiter-seek-page-{}", std::process::id())));
    std::fs::create_dir_all(&dir.0).unwrap();
    let server = Server::start_with(&format!("sqlite://{}?mode=rwc", dir.0.join("s.db").display()), &[]);
    let run = async {
        meet_play_and_rematch(&server.base, &desk, &phone, ["Ann", "Bob"], "en", "desk-en").await;
        meet_play_and_rematch(&server.base, &phone, &desk, ["小波", "安"], "zh", "phone-zh").await;
        // The phone is in Chinese now; the desk back in English.
        desk.goto(&format!("{}/", server.base)).await.unwrap();
        select(&desk, "#lang", "en").await;
        challenge_by_link(&server.base, &phone, &desk).await;
    };
    tokio::time::timeout(std::time::Duration::from_secs(240), run)
        .await
        .expect("the seek page test took over 240 s");
    desk.close().await.unwrap();
    phone.close().await.unwrap();
}

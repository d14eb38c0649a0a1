//! Players in headless Chromium (see `browser.rs` for how it is driven): a visitor creates a
//! game in the lobby, opens the game's plain address in a new page of the same browser (no
//! seat link, nothing in the page's storage) and holds the seat — the session's, through
//! `/api/me` — and moves; another browser only watches. Then the visitor names themself,
//! makes an account in the lobby, and their player page lists the game, in English and
//! Chinese; the other browser signs into the account (in Chinese) and holds the seat too. Screenshots go to `target/e2e-screenshots/players-*.png`.

use std::time::Duration;

use fantoccini::Locator;

mod common;
mod web;
use common::Server;
use web::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_created_game_is_the_browsers_in_any_tab() {
    let Some((chromium, chromedriver)) = browser_programs() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("arbiter-players-page-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let _dir = Scratch(dir.clone());
    let server = Server::start_with(&format!("sqlite://{}?mode=rwc", dir.join("p.db").display()), &[]);
    let base = server.base.clone();
    let (_driver, url) = start_driver(&chromedriver);
    let one = browser(&url, &chromium, Screen::Desktop(1280, 900)).await;
    let other = browser(&url, &chromium, Screen::Desktop(1280, 900)).await;
    let run = async {
        // The lobby: White is the seat played here (the form's default).
        let [_, _, watch] = create(&one, &base, "chess").await;
        let plain = watch.split('#').next().unwrap().to_string();
        let id = plain.rsplit('/').next().unwrap().to_string();
        // A new page of this browser, on the plain address, its storage emptied: only the
        // session (the cookie) can seat it.
        let tab = one.new_window(true).await.unwrap();
        one.switch_to_window(tab.handle.clone()).await.unwrap();
        one.goto(&format!("{base}/review")).await.unwrap();
        js(&one, "localStorage.clear(); sessionStorage.clear(); return true;").await;
        open_board(&one, &plain, "chess").await;
        wait_text(&one, "#seat", "You play White").await;
        assert!(visible(&one, "#buttons").await, "a player's buttons");
        play(&one, "e2e4").await;
        wait_plies(&one, 1).await;
        shot(&one, "players-01-new-page-holds-the-seat").await;
        // Another browser has another session: it watches.
        open_board(&other, &plain, "chess").await;
        wait_text(&other, "#seat", "Spectating").await;
        wait_plies(&other, 1).await;

        // The lobby's forms: a display name, then an account.
        one.goto(&format!("{base}/")).await.unwrap();
        type_into(&one, "#display-name", "  Ann Lee ").await;
        click(&one, "#save-name").await;
        wait_text(&one, "#name-note", "Saved").await;
        type_into(&one, "#account-name", "Ann").await;
        type_into(&one, "#account-password", "correct horse").await;
        click(&one, "#make-account").await;
        wait_text(&one, "#signed-in-as", "Signed in as Ann").await;
        assert!(!visible(&one, "#account-form").await);
        shot(&one, "players-02-signed-in").await;
        // The player page, from the lobby's link.
        click(&one, "#my-page").await;
        wait_text(&one, "#player-title", "Player Ann").await;
        until(
            &one,
            "the game on the player page",
            &format!("return document.querySelector('#games tr.game[data-game=\"{id}\"] a')?.getAttribute('href');"),
        )
        .await;
        let row = text(&one, &format!("#games tr.game[data-game=\"{id}\"]")).await;
        assert!(row.contains("White") && row.contains("in play"), "{row}");
        shot(&one, "players-03-player-page-en").await;
        select(&one, "#lang", "zh").await;
        wait_text(&one, "#player-title", "棋手 Ann").await;
        let row = text(&one, &format!("#games tr.game[data-game=\"{id}\"]")).await;
        assert!(row.contains("白方") && row.contains("对局中"), "{row}");
        shot(&one, "players-04-player-page-zh").await;
        select(&one, "#lang", "en").await;
        // The game's link opens it, the seat still held (now the account's).
        one.find(Locator::Css(&format!("#games tr.game[data-game=\"{id}\"] a")))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        wait_text(&one, "#seat", "You play White").await;
        wait_plies(&one, 1).await;

        // The other browser, in Chinese, signs into Ann's account (a wrong password first)
        // and then holds her seat too.
        other.goto(&format!("{base}/")).await.unwrap();
        select(&other, "#lang", "zh").await;
        type_into(&other, "#account-name", "ann").await;
        type_into(&other, "#account-password", "wrong horse").await;
        click(&other, "#sign-in").await;
        wait_text(&other, "#me-error", "账号名或密码错误。").await;
        type_into(&other, "#account-password", "correct horse").await;
        click(&other, "#sign-in").await;
        wait_text(&other, "#signed-in-as", "已登录：Ann").await;
        shot(&other, "players-05-second-device-zh").await;
        select(&other, "#lang", "en").await;
        open_board(&other, &plain, "chess").await;
        wait_text(&other, "#seat", "You play White").await;
    };
    tokio::time::timeout(Duration::from_secs(120), run)
        .await
        .expect("the players' page test took over 120 s");
    one.close().await.unwrap();
    other.close().await.unwrap();
}

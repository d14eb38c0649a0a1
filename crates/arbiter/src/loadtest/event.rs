//! `arbiter loadtest --event-players N`: one round of a Swiss event on the server, as its
//! players would play it. The organiser creates the event and registers N players through the
//! API; round 1 is started (timed: the request, then until every player has found their game
//! through `/me`, as a player's page does); every game is then played at once with the two
//! players' own tokens, moves from random legal games as the plain load test makes them; and
//! last, how long the results take to reach the event (every pairing of the round decided).
//! `--event-rate` paces the games (their moves together at most so many a second), for the
//! latency at a given throughput rather than at saturation.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use game::{Kind, Side};
use serde_json::{json, Value};

use super::{random_game, Options, Report, Shared, Tally};

/// The most players an event of the load test takes (its registration alone would take long
/// past this).
pub const MAX_PLAYERS: u32 = 20_000;

/// What an event run measured, in seconds unless named otherwise.
struct EventReport {
    players: u32,
    register: f64,
    start_request: f64,
    start_playable: f64,
    games: usize,
    play: Report,
    results: f64,
}

pub fn run(opts: &Options, players: u32) -> Result<()> {
    if !(2..=MAX_PLAYERS).contains(&players) {
        bail!("--event-players: 2 to {MAX_PLAYERS}, not {players}");
    }
    let (base, _server) = super::server(opts)?;
    if let Some(rate) = opts.event_rate {
        if !(rate.is_finite() && rate > 0.0) {
            bail!("--event-rate: moves a second above 0, not {rate}");
        }
    }
    let r = super::client_runtime()?.block_on(drive(base, players, opts.event_rate))?;
    let play = &r.play;
    if opts.json {
        println!(
            "{}",
            json!({
                "players": r.players,
                "rate": opts.event_rate,
                "games": r.games,
                "register_s": r.register,
                "round_start_request_s": r.start_request,
                "round_start_playable_s": r.start_playable,
                "play_s": play.seconds,
                "moves": play.moves,
                "moves_per_second": play.moves_per_second(),
                "p50_ms": play.quantile_ms(0.5),
                "p99_ms": play.quantile_ms(0.99),
                "max_ms": play.quantile_ms(1.0),
                "results_s": r.results,
                "errors": play.errors,
            })
        );
    } else {
        println!(
            "Swiss event of {} players: registered in {:.2} s; round 1 started in {:.3} s (request), \
             {:.3} s until all {} games were found through /me; played in {:.1} s: {} moves, {:.0} moves/s, \
             latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; all results in the event {:.3} s after the last \
             move; {} errors",
            r.players,
            r.register,
            r.start_request,
            r.start_playable,
            r.games,
            play.seconds,
            play.moves,
            play.moves_per_second(),
            play.quantile_ms(0.5),
            play.quantile_ms(0.99),
            play.quantile_ms(1.0),
            r.results,
            play.errors
        );
    }
    if play.errors > 0 {
        bail!("{} requests failed", play.errors);
    }
    Ok(())
}

/// A request's JSON answer, or an error naming the request and the server's answer.
async fn call(req: reqwest::RequestBuilder, what: &str) -> Result<Value> {
    let r = req.send().await.with_context(|| what.to_string())?;
    let status = r.status();
    let body = r.bytes().await?;
    if !status.is_success() {
        bail!("{what}: {status} {}", String::from_utf8_lossy(&body));
    }
    serde_json::from_slice(&body).with_context(|| format!("{what}: not JSON"))
}

async fn drive(base: String, players: u32, rate: Option<f64>) -> Result<EventReport> {
    let kind = Kind::Xiangqi;
    let shared = Shared::new(base, players as usize + 8, false, super::Transport::Http, true)?;
    let (c, base) = (&shared.client, &shared.base);
    let created = call(
        c.post(format!("{base}/api/event")).json(&json!({
            "name": format!("Load test, {players} players"),
            "format": "swiss",
            "rounds": 9,
            "kind": kind.name(),
            "clock": {"limit": 0, "increment": 0},
        })),
        "create the event",
    )
    .await?;
    let id = created["id"].as_str().context("no event id")?.to_string();
    let organiser = created["organiserToken"]
        .as_str()
        .context("no organiser token")?
        .to_string();

    // One at a time, as an organiser's import would: registration changes the event under its
    // lock, so more at once would only queue.
    let t = Instant::now();
    let mut tokens = Vec::with_capacity(players as usize);
    for i in 1..=players {
        let r = call(
            c.post(format!("{base}/api/event/{id}/register"))
                .bearer_auth(&organiser)
                .json(&json!({"name": format!("Player {i}"), "rating": 2800 - i % 2000})),
            "register",
        )
        .await?;
        tokens.push(r["token"].as_str().context("no player token")?.to_string());
    }
    let register = t.elapsed().as_secs_f64();

    // The games' moves, worked out before the clock starts.
    let plans: Vec<Vec<String>> = (0..players / 2)
        .map(|g| random_game(kind, u64::from(g) + 1, 160))
        .collect();

    let t = Instant::now();
    let round = call(
        c.post(format!("{base}/api/event/{id}/round/start"))
            .bearer_auth(&organiser),
        "start round 1",
    )
    .await?;
    let start_request = t.elapsed().as_secs_f64();
    // Every player asks for their game, all at once, as their pages would on the round's news.
    let mut asks = Vec::new();
    for token in tokens {
        let (shared, id) = (shared.clone(), id.clone());
        asks.push(tokio::spawn(async move {
            let me = call(
                shared
                    .client
                    .get(format!("{}/api/event/{id}/me", shared.base))
                    .bearer_auth(&token),
                "/me",
            )
            .await?;
            let game = &me["game"];
            let side = if game["side"] == Side::First.name(kind) {
                Side::First
            } else {
                Side::Second
            };
            Ok::<_, anyhow::Error>(game["id"].as_str().map(|g| (g.to_string(), side, token)))
        }));
    }
    // Game id → the two seats' tokens, red's first.
    let mut seats: HashMap<String, [Option<String>; 2]> = HashMap::new();
    for a in asks {
        if let Some((game, side, token)) = a.await?? {
            seats.entry(game).or_default()[usize::from(side == Side::Second)] = Some(token);
        }
    }
    let start_playable = t.elapsed().as_secs_f64();
    let expected = round["pairings"]
        .as_array()
        .map_or(0, |p| p.iter().filter(|p| !p["second"].is_null()).count());
    if seats.len() != expected || seats.len() != plans.len() {
        bail!(
            "round 1 has {expected} games to play, the players found {} ({} planned)",
            seats.len(),
            plans.len()
        );
    }

    // A game's share of the rate: the time between its moves.
    let pace = rate.map(|r| Duration::from_secs_f64(plans.len() as f64 / r));
    let t = Instant::now();
    let mut games = Vec::new();
    let count = plans.len();
    for (i, ((game, seat), moves)) in seats.into_iter().zip(plans).enumerate() {
        let [Some(red), Some(black)] = seat else {
            bail!("game {game}: a seat's player did not find it");
        };
        let shared = shared.clone();
        games.push(tokio::spawn(async move {
            // Paced games start spread over one pace, not all on the same tick.
            if let Some(p) = pace {
                tokio::time::sleep(p.mul_f64(i as f64 / count as f64)).await;
            }
            let mut tally = Tally::default();
            if let Err(e) = super::play(&shared, None, &game, &[red, black], &moves, pace, &mut tally).await {
                tally.errors += 1;
                eprintln!("loadtest: {e:#}");
            }
            tally
        }));
    }
    let mut total = Tally::default();
    for g in games {
        let g = g.await?;
        total.moves += g.moves;
        total.errors += g.errors;
        total.latencies.extend(g.latencies);
    }
    let play_seconds = t.elapsed().as_secs_f64();
    total.latencies.sort_unstable();

    // The results reach the event on their own (the server follows each game): wait for the
    // round to have none open.
    let t = Instant::now();
    loop {
        let event = call(c.get(format!("{base}/api/event/{id}")), "show the event").await?;
        if event["open"].as_array().is_some_and(Vec::is_empty) {
            break;
        }
        if t.elapsed() > Duration::from_secs(120) {
            bail!("results still missing after 120 s: {}", event["open"]);
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let results = t.elapsed().as_secs_f64();
    Ok(EventReport {
        players,
        register,
        start_request,
        start_playable,
        games: count,
        play: Report {
            moves: total.moves,
            games_started: count as u64,
            seconds: play_seconds,
            latencies_us: total.latencies,
            errors: total.errors,
            server_cpu_us: None,
            client_cpu_us: None,
        },
        results,
    })
}

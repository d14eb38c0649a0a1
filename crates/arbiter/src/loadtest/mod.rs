//! `arbiter loadtest`: many games played at once against a game server over loopback HTTP or
//! its game sockets (`--transport ws`, socket.rs), reporting sustained moves per second, the
//! latency of each move (p50, p99) and, for a server started here, its CPU time per move.
//!
//! Each game is a random legal game worked out beforehand with the judge (so the server's
//! referee accepts every move), half Xiangqi, half chess, with no clock. A driver per game
//! posts its moves in turn with both seats' tokens, one request outstanding per game, and
//! starts a new game when one ends; optional watchers read each game's NDJSON stream. The
//! server is the real one: `--url` of a running `arbiter serve`, or one started here on its
//! own runtime threads with `--db`. With `--event-players` the games are a Swiss event's
//! round instead (event.rs); with `--spectators` many idle sockets
//! watching a few games (spectators.rs).

mod cpu;
mod event;
mod socket;
mod spectators;

pub use event::MAX_PLAYERS as MAX_EVENT_PLAYERS;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use game::{Game, Kind};
use judge::chess::{ChessJudge, ChessRules};
use judge::xiangqi::{Rules, XiangqiJudge};
use judge::Judge;

pub struct Options {
    pub url: Option<String>,
    pub db: Option<String>,
    pub games: usize,
    pub seconds: f64,
    pub watchers: bool,
    pub json: bool,
    /// A Swiss event of this many players instead of single games.
    pub event_players: Option<u32>,
    /// The event's games together send at most this many moves a second (else flat out).
    pub event_rate: Option<f64>,
    pub transport: Transport,
    /// Instead of games played flat out: this many watch-only sockets held open at once.
    pub spectators: Option<usize>,
    /// A cluster's games played through any node in turn, not the one that runs each.
    pub any_node: bool,
}

/// How the drivers play: the Board API's HTTP requests, or one game socket per seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Transport {
    Http,
    Ws,
}

/// What a run measured.
pub struct Report {
    pub moves: u64,
    pub games_started: u64,
    pub seconds: f64,
    pub latencies_us: Vec<u32>,
    pub errors: u64,
    /// The server's CPU time over the run (µs), when it ran in this process.
    pub server_cpu_us: Option<u64>,
    /// The clients' (the rest of this process's) CPU time over the run (µs), when the server
    /// ran here: on one machine, the load generator's cost is part of what it measures.
    pub client_cpu_us: Option<u64>,
}

impl Report {
    pub fn moves_per_second(&self) -> f64 {
        self.moves as f64 / self.seconds
    }

    /// The server's CPU time per move (µs), when measured.
    pub fn cpu_per_move_us(&self) -> Option<f64> {
        self.server_cpu_us
            .filter(|_| self.moves > 0)
            .map(|us| us as f64 / self.moves as f64)
    }

    /// The clients' CPU time per move (µs), when measured.
    pub fn client_cpu_per_move_us(&self) -> Option<f64> {
        self.client_cpu_us
            .filter(|_| self.moves > 0)
            .map(|us| us as f64 / self.moves as f64)
    }

    /// The latency below which `q` of the requests finished, in milliseconds.
    pub fn quantile_ms(&self, q: f64) -> f64 {
        if self.latencies_us.is_empty() {
            return 0.0;
        }
        let i = ((self.latencies_us.len() as f64 - 1.0) * q).round() as usize;
        f64::from(self.latencies_us[i]) / 1000.0
    }
}

pub fn run(opts: &Options) -> Result<()> {
    if let Some(players) = opts.event_players {
        return event::run(opts, players);
    }
    if let Some(n) = opts.spectators {
        return spectators::run(opts, n);
    }
    let report = measure(opts)?;
    if opts.json {
        println!(
            "{}",
            serde_json::json!({
                "games": opts.games,
                "transport": format!("{:?}", opts.transport).to_lowercase(),
                "seconds": report.seconds,
                "moves": report.moves,
                "moves_per_second": report.moves_per_second(),
                "p50_ms": report.quantile_ms(0.5),
                "p99_ms": report.quantile_ms(0.99),
                "max_ms": report.quantile_ms(1.0),
                "games_started": report.games_started,
                "errors": report.errors,
                "server_cpu_us_per_move": report.cpu_per_move_us(),
                "client_cpu_us_per_move": report.client_cpu_per_move_us(),
            })
        );
    } else {
        let cpu = report
            .cpu_per_move_us()
            .map_or(String::new(), |us| format!(", server CPU {us:.0} µs a move"));
        let cpu = match report.client_cpu_per_move_us() {
            Some(us) => format!("{cpu}, clients' CPU {us:.0} µs a move"),
            None => cpu,
        };
        println!(
            "{} concurrent games over {:?}, {:.1} s: {} moves, {:.0} moves/s, latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms{cpu}; {} games started, {} errors",
            opts.games,
            opts.transport,
            report.seconds,
            report.moves,
            report.moves_per_second(),
            report.quantile_ms(0.5),
            report.quantile_ms(0.99),
            report.quantile_ms(1.0),
            report.games_started,
            report.errors
        );
    }
    if report.errors > 0 {
        bail!("{} requests failed", report.errors);
    }
    Ok(())
}

/// Runs the load and returns what it measured.
pub fn measure(opts: &Options) -> Result<Report> {
    let (base, server) = server(opts)?;
    let in_process = server.is_some();
    client_runtime()?.block_on(drive(base, opts, in_process))
}

/// The server's base URL: `--url`, or one started here on `--db` (kept running as long as the
/// runtime returned with it).
fn server(opts: &Options) -> Result<(String, Option<tokio::runtime::Runtime>)> {
    // The server, when started here, gets its own runtime so the two do not share a scheduler
    // queue (as two processes would not); both still share the machine's cores.
    Ok(match &opts.url {
        Some(u) => (u.trim().to_string(), None),
        None => {
            let url = crate::db::resolve(opts.db.as_deref())?.target.url();
            // Named, so its CPU time is told apart from the clients' (cpu.rs).
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .thread_name(cpu::SERVER_THREADS)
                .enable_all()
                .build()?;
            let (tx, rx) = std::sync::mpsc::channel();
            runtime.spawn(async move {
                let r = server::serve("127.0.0.1:0", &url, server::Limits::none(), |addr, _| {
                    let _ = tx.send(Ok(addr));
                })
                .await;
                if let Err(e) = r {
                    let _ = tx.send(Err(e.to_string()));
                }
            });
            let addr = rx
                .recv_timeout(Duration::from_secs(60))
                .context("the server did not start")?
                .map_err(anyhow::Error::msg)?;
            (format!("http://{addr}"), Some(runtime))
        }
    })
}

/// The clients' runtime: one thread, so the clients take no more of the machine than a
/// process of scripted players would.
fn client_runtime() -> Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()?)
}

/// A random legal game of `kind`, stopped where the judge rules or could (so every move of it
/// is one the server's referee accepts), at most `max` plies.
pub fn random_game(kind: Kind, seed: u64, max: usize) -> Vec<String> {
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n as u64) as usize
    };
    fn play<J: Judge>(mut judge: J, max: usize, next: &mut impl FnMut(usize) -> usize) -> Vec<String> {
        let mut moves = Vec::new();
        while moves.len() < max && judge.verdict().is_none() && judge.claimable().is_none() && judge.pending().is_none()
        {
            let legal = Game::legal_moves(judge.position());
            if legal.is_empty() {
                break;
            }
            let m = legal[next(legal.len())];
            moves.push(Game::coordinate(judge.position(), m));
            if judge.push(m).is_err() {
                moves.pop();
                break;
            }
        }
        // The last move may have ended the game: keep it (the server rules the same).
        moves
    }
    match kind {
        Kind::Xiangqi => play(
            XiangqiJudge::new(xiangqi::Position::start(), Rules::by_name("cxa").expect("cxa")),
            max,
            &mut next,
        ),
        Kind::Chess => play(
            ChessJudge::new(
                <chess::Position as Game>::start(),
                ChessRules::by_name("fide").expect("fide"),
            ),
            max,
            &mut next,
        ),
    }
}

struct Shared {
    client: reqwest::Client,
    /// The first server's base URL.
    base: String,
    /// Every server's (`--url A,B,C`: the nodes of a cluster), taken in turn by each game's
    /// creation, and by each socket and request of a game whose node is not known.
    bases: Vec<String>,
    /// Each game's sockets and requests go to any node in turn, even when its own is known.
    any_node: bool,
    next: std::sync::atomic::AtomicUsize,
    stop: AtomicBool,
    watchers: bool,
    transport: Transport,
}

impl Shared {
    /// A client keeping up to `connections` idle connections to the server.
    fn new(
        base: String,
        connections: usize,
        watchers: bool,
        transport: Transport,
        any_node: bool,
    ) -> Result<Arc<Shared>> {
        let client = reqwest::Client::builder().pool_max_idle_per_host(connections).build()?;
        let bases: Vec<String> = base
            .split(',')
            .map(|b| b.trim().trim_end_matches('/').to_string())
            .filter(|b| !b.is_empty())
            .collect();
        Ok(Arc::new(Shared {
            client,
            base: bases.first().cloned().unwrap_or(base),
            bases,
            any_node,
            next: Default::default(),
            stop: AtomicBool::new(false),
            watchers,
            transport,
        }))
    }
}

impl Shared {
    /// The next server's base URL, round robin.
    fn pick(&self) -> &str {
        let i = self.next.fetch_add(1, Ordering::Relaxed);
        self.bases.get(i % self.bases.len().max(1)).unwrap_or(&self.base)
    }

    /// Where a game's next socket or request goes: `home`, the node that runs it (as the
    /// creation's answer named it), else the next server in turn.
    fn route<'a>(&'a self, home: Option<&'a str>) -> &'a str {
        match home {
            Some(h) if !self.any_node => h,
            _ => self.pick(),
        }
    }
}

#[derive(Default)]
struct Tally {
    moves: u64,
    games: u64,
    errors: u64,
    latencies: Vec<u32>,
}

async fn drive(base: String, opts: &Options, in_process: bool) -> Result<Report> {
    let games = opts.games;
    let shared = Shared::new(base, games * 2 + 8, opts.watchers, opts.transport, opts.any_node)?;
    // Games worked out before the clock starts: the client's own work is not the server's.
    let plans: Vec<Vec<(Kind, Vec<String>)>> = (0..games)
        .map(|g| {
            (0..4)
                .map(|k| {
                    let kind = if g % 2 == 0 { Kind::Xiangqi } else { Kind::Chess };
                    (kind, random_game(kind, (g * 4 + k) as u64 + 1, 160))
                })
                .collect()
        })
        .collect();
    let cpu_before = in_process.then(cpu::server_cpu_us).flatten();
    let all_before = in_process.then(cpu::process_cpu_us).flatten();
    let start = Instant::now();
    let mut tasks = Vec::new();
    for plan in plans {
        let shared = shared.clone();
        tasks.push(tokio::spawn(async move { player(shared, plan).await }));
    }
    tokio::time::sleep(Duration::from_secs_f64(opts.seconds)).await;
    shared.stop.store(true, Ordering::Relaxed);
    let elapsed = start.elapsed().as_secs_f64();
    let mut total = Tally::default();
    for t in tasks {
        let t = t.await?;
        total.moves += t.moves;
        total.games += t.games;
        total.errors += t.errors;
        total.latencies.extend(t.latencies);
    }
    // After the drivers' last answers: the moves counted are all paid for.
    let cpu_after = in_process.then(cpu::server_cpu_us).flatten();
    let all_after = in_process.then(cpu::process_cpu_us).flatten();
    let server_cpu_us = cpu_before.zip(cpu_after).map(|(b, a)| a.saturating_sub(b));
    let all_cpu_us = all_before.zip(all_after).map(|(b, a)| a.saturating_sub(b));
    total.latencies.sort_unstable();
    Ok(Report {
        moves: total.moves,
        games_started: total.games,
        seconds: elapsed,
        latencies_us: total.latencies,
        errors: total.errors,
        server_cpu_us,
        client_cpu_us: all_cpu_us
            .zip(server_cpu_us)
            .map(|(all, server)| all.saturating_sub(server)),
    })
}

/// Plays games one after another (cycling through `plan`) until told to stop.
async fn player(shared: Arc<Shared>, plan: Vec<(Kind, Vec<String>)>) -> Tally {
    let mut tally = Tally::default();
    for (kind, moves) in plan.iter().cycle() {
        if shared.stop.load(Ordering::Relaxed) {
            break;
        }
        if let Err(e) = one_game(&shared, *kind, moves, &mut tally).await {
            tally.errors += 1;
            eprintln!("loadtest: {e:#}");
        }
    }
    tally
}

async fn one_game(shared: &Shared, kind: Kind, moves: &[String], tally: &mut Tally) -> Result<()> {
    let created: serde_json::Value = shared
        .client
        .post(format!("{}/api/game", shared.pick()))
        .json(&serde_json::json!({ "kind": kind.name(), "clock": { "limit": 0, "increment": 0 } }))
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    tally.games += 1;
    let id = created["id"].as_str().context("no id")?.to_string();
    let tokens: Vec<String> = (0..2)
        .map(|i| created["seats"][i]["token"].as_str().unwrap_or_default().to_string())
        .collect();
    // A cluster's node says where the game runs.
    let home = created["node"]["url"].as_str().map(|u| u.trim_end_matches('/'));
    if shared.transport == Transport::Ws {
        return socket::play(shared, home, &id, &tokens, moves, tally).await;
    }
    let watcher = shared.watchers.then(|| {
        let client = shared.client.clone();
        let url = format!("{}/api/board/game/stream/{id}", shared.route(home));
        tokio::spawn(async move {
            // Read and dropped, as a board would read it (the server's fan-out is the cost).
            if let Ok(mut r) = client.get(url).send().await {
                while let Ok(Some(_)) = r.chunk().await {}
            }
        })
    });
    let r = play(shared, home, &id, &tokens, moves, None, tally).await;
    if let Some(w) = watcher {
        w.abort();
    }
    r
}

/// Plays `moves` in game `id` (at `home`, see [`Shared::route`]) with the two seats' tokens (red's or white's first), one request
/// at a time, timing each, and at most one every `pace` when given; a game the moves leave
/// unfinished is resigned.
#[allow(clippy::too_many_arguments)]
async fn play(
    shared: &Shared,
    home: Option<&str>,
    id: &str,
    tokens: &[String],
    moves: &[String],
    pace: Option<Duration>,
    tally: &mut Tally,
) -> Result<()> {
    let mut ticks = pace.map(|p| {
        let mut t = tokio::time::interval(p);
        t.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        t
    });
    for (ply, mv) in moves.iter().enumerate() {
        if shared.stop.load(Ordering::Relaxed) {
            break;
        }
        if let Some(t) = ticks.as_mut() {
            t.tick().await;
        }
        let t = Instant::now();
        let r = shared
            .client
            .post(format!("{}/api/board/game/{id}/move/{mv}", shared.route(home)))
            .bearer_auth(&tokens[ply % 2])
            .send()
            .await?;
        let status = r.status();
        let body = r.bytes().await?;
        tally
            .latencies
            .push(t.elapsed().as_micros().min(u32::MAX as u128) as u32);
        if !status.is_success() {
            bail!("game {id} ply {ply} {mv}: {status} {}", String::from_utf8_lossy(&body));
        }
        tally.moves += 1;
    }
    // Finished games leave the server's memory; one left unfinished is resigned.
    let _ = shared
        .client
        .post(format!("{}/api/board/game/{id}/resign", shared.route(home)))
        .bearer_auth(&tokens[moves.len() % 2])
        .send()
        .await;
    Ok(())
}

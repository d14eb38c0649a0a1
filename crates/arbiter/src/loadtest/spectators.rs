//! `arbiter loadtest --spectators N`: N watch-only game sockets held open at once over a few
//! idle games (`--games`), as a busy event's audience. Each socket says hello and reads its
//! `gameFull`; once all are open the server's resident memory is read again from its
//! `/metrics`, so the memory a socket costs is measured, and then one move is made in every
//! game: every socket must receive that move's event line.
//!
//! The server's figure is its own only when it runs apart (`--url`): started here, the
//! clients' sockets live in the same process and count too.

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use futures_util::{SinkExt, StreamExt};
use game::Kind;
use serde_json::{json, Value};
use tokio::sync::{mpsc, watch, Semaphore};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;

use super::{random_game, Options};

/// Sockets being opened at once (the listener's backlog is finite).
const OPENING: usize = 128;
/// A spectator reads a `gameFull` of a fresh game and small event lines.
const READ_BUFFER: usize = 4 * 1024;
/// How long every socket may take to see the move.
const FAN_OUT_WAIT: Duration = Duration::from_secs(60);

/// Descriptors beyond the sockets: the runtime's, the database's, the standard streams.
const SPARE_FILES: u64 = 64;

enum Note {
    Open,
    Saw,
    Failed(String),
}

pub fn run(opts: &Options, spectators: usize) -> Result<()> {
    if spectators == 0 {
        bail!("--spectators: at least 1");
    }
    let games = opts.games.clamp(1, spectators);
    // A server started here holds the other end of every socket in this same process.
    let per_socket = if opts.url.is_some() { 1 } else { 2 };
    crate::nofile::ensure(spectators as u64 * per_socket + SPARE_FILES, "--spectators")?;
    let (base, _server) = super::server(opts)?;
    let mut report = super::client_runtime()?.block_on(drive(base, spectators, games))?;
    report["in_process_server"] = opts.url.is_none().into();
    if opts.json {
        println!("{report}");
    } else {
        println!(
            "{} spectator sockets over {} games: {} open in {:.1} s, {} saw the move (all within {:.0} ms); \
             server resident memory {:.1} MiB before, {:.1} MiB with them open: {:.1} KiB a socket{}",
            spectators,
            games,
            report["opened"],
            report["open_seconds"].as_f64().unwrap_or_default(),
            report["saw_move"],
            report["fan_out_ms"].as_f64().unwrap_or_default(),
            report["rss_before_bytes"].as_f64().unwrap_or_default() / 1_048_576.0,
            report["rss_open_bytes"].as_f64().unwrap_or_default() / 1_048_576.0,
            report["rss_per_socket_bytes"].as_f64().unwrap_or_default() / 1024.0,
            if opts.url.is_none() {
                " (server and clients in one process)"
            } else {
                ""
            }
        );
    }
    let (opened, saw) = (report["opened"].as_u64(), report["saw_move"].as_u64());
    if opened != Some(spectators as u64) || saw != Some(spectators as u64) {
        bail!(
            "of {spectators} sockets, {} opened and {} saw the move",
            opened.unwrap_or(0),
            saw.unwrap_or(0)
        );
    }
    Ok(())
}

async fn drive(base: String, spectators: usize, games: usize) -> Result<Value> {
    let client = reqwest::Client::new();
    let mut created = Vec::with_capacity(games);
    for g in 0..games {
        let kind = if g % 2 == 0 { Kind::Xiangqi } else { Kind::Chess };
        let v: Value = client
            .post(format!("{base}/api/game"))
            .json(&json!({ "kind": kind.name(), "clock": { "limit": 0, "increment": 0 } }))
            .send()
            .await?
            .error_for_status()
            .context("creating a game")?
            .json()
            .await?;
        let id = v["id"].as_str().context("no game id")?.to_string();
        let token = v["seats"][0]["token"].as_str().context("no seat token")?.to_string();
        created.push((id, token, random_game(kind, g as u64 + 1, 1)));
    }
    let rss_before = rss(&client, &base).await?;

    let ws_base = base.replacen("http", "ws", 1);
    let (notes, mut heard) = mpsc::unbounded_channel();
    let (done, closing) = watch::channel(false);
    let opening = Arc::new(Semaphore::new(OPENING));
    let started = Instant::now();
    let mut tasks = Vec::with_capacity(spectators);
    for s in 0..spectators {
        let url = format!("{ws_base}/api/socket/game/{}", created[s % games].0);
        let (notes, closing, opening) = (notes.clone(), closing.clone(), opening.clone());
        tasks.push(tokio::spawn(async move {
            if let Err(e) = spectate(&url, &notes, closing, &opening).await {
                let _ = notes.send(Note::Failed(format!("{e:#}")));
            }
        }));
    }
    drop(notes);
    let (mut opened, mut failed) = (0usize, Vec::new());
    while opened + failed.len() < spectators {
        match heard.recv().await {
            Some(Note::Open) => opened += 1,
            Some(Note::Failed(e)) => failed.push(e),
            Some(Note::Saw) | None => break,
        }
    }
    let open_seconds = started.elapsed().as_secs_f64();
    // A moment for the server's last sockets to settle before their memory is read.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let rss_open = rss(&client, &base).await?;

    let moved = Instant::now();
    for (id, token, moves) in &created {
        let mv = moves.first().context("no legal first move")?;
        client
            .post(format!("{base}/api/board/game/{id}/move/{mv}"))
            .bearer_auth(token)
            .send()
            .await?
            .error_for_status()
            .with_context(|| format!("the move {mv} in game {id}"))?;
    }
    let mut saw = 0usize;
    let deadline = tokio::time::Instant::now() + FAN_OUT_WAIT;
    while saw + failed.len() < spectators {
        match tokio::time::timeout_at(deadline, heard.recv()).await {
            Ok(Some(Note::Saw)) => saw += 1,
            Ok(Some(Note::Failed(e))) => failed.push(e),
            Ok(Some(Note::Open)) => opened += 1,
            Ok(None) | Err(_) => break,
        }
    }
    let fan_out_ms = moved.elapsed().as_secs_f64() * 1000.0;
    let _ = done.send(true);
    for t in tasks {
        let _ = t.await;
    }
    if let Some(first) = failed.first() {
        eprintln!("loadtest: {} sockets failed; the first: {first}", failed.len());
    }
    let per_socket = (rss_open.saturating_sub(rss_before)) as f64 / opened.max(1) as f64;
    Ok(json!({
        "spectators": spectators,
        "games": games,
        "opened": opened,
        "saw_move": saw,
        "failed": failed.len(),
        "open_seconds": open_seconds,
        "fan_out_ms": fan_out_ms,
        "rss_before_bytes": rss_before,
        "rss_open_bytes": rss_open,
        "rss_per_socket_bytes": per_socket,
    }))
}

/// One spectator: opens, says hello and reads its `gameFull` (then reports it open), reads
/// until the first move's event line (then reports it seen), and holds the socket until the
/// run ends.
async fn spectate(
    url: &str,
    notes: &mpsc::UnboundedSender<Note>,
    mut closing: watch::Receiver<bool>,
    opening: &Semaphore,
) -> Result<()> {
    let permit = opening.acquire().await?;
    let config = WebSocketConfig::default().read_buffer_size(READ_BUFFER);
    let (mut socket, _) = tokio_tungstenite::connect_async_with_config(url, Some(config), true)
        .await
        .context("opening")?;
    socket.send(Message::text(r#"{"t":"hello"}"#)).await?;
    next_line(&mut socket, r#""type":"gameFull""#).await?;
    drop(permit);
    let _ = notes.send(Note::Open);
    tokio::select! {
        seen = next_line(&mut socket, r#""type":"gameState""#) => {
            seen?;
            let _ = notes.send(Note::Saw);
        }
        _ = closing.wait_for(|c| *c) => return Ok(()),
    }
    // Held open (pongs answered while reading) until the run ends.
    tokio::select! {
        _ = async { while let Some(Ok(_)) = socket.next().await {} } => {}
        _ = closing.wait_for(|c| *c) => {}
    }
    let _ = socket.close(None).await;
    Ok(())
}

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Reads until a text frame holding `marker`.
async fn next_line(socket: &mut Socket, marker: &str) -> Result<()> {
    while let Some(frame) = socket.next().await {
        if let Message::Text(text) = frame? {
            if text.contains(marker) {
                return Ok(());
            }
            if text.contains(r#""t":"error""#) {
                bail!("{text}");
            }
        }
    }
    bail!("the socket closed before {marker}")
}

/// The server's resident memory (bytes), from its `/metrics`.
async fn rss(client: &reqwest::Client, base: &str) -> Result<u64> {
    let text = client
        .get(format!("{base}/metrics"))
        .send()
        .await?
        .error_for_status()?
        .text()
        .await?;
    text.lines()
        .find_map(|l| l.strip_prefix("process_resident_memory_bytes "))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .map(|v| v as u64)
        .context("the server's /metrics has no process_resident_memory_bytes")
}

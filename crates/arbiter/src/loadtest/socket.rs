//! `arbiter loadtest --transport ws`: the same games over the server's game sockets, one
//! socket per seat (its token in the upgrade's Authorization header, as a bot's), each move a
//! `move` message timed until its `ack`. Both seats' sockets receive every event line (the
//! socket always streams), so each is read up to its answer before its next move.

use std::time::Instant;

use anyhow::{bail, Context, Result};
use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;

use super::{Shared, Tally};

/// Event lines are a few KiB at most (a long game's `gameFull`); longer ones take more reads.
const READ_BUFFER: usize = 16 * 1024;

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Opens game `id`'s socket, seated by `token` or watching.
async fn open(shared: &Shared, home: Option<&str>, id: &str, token: Option<&str>) -> Result<Socket> {
    let base = shared.route(home).replacen("http", "ws", 1);
    let mut request = format!("{base}/api/socket/game/{id}").into_client_request()?;
    if let Some(t) = token {
        request
            .headers_mut()
            .insert("authorization", format!("Bearer {t}").parse()?);
    }
    // The library zero-fills its whole read buffer (128 KiB by default) before every read:
    // a smaller one keeps the clients' CPU for the clients.
    let config = WebSocketConfig::default().read_buffer_size(READ_BUFFER);
    let (socket, _) = tokio_tungstenite::connect_async_with_config(request, Some(config), true).await?;
    Ok(socket)
}

/// Reads until the answer to the last command: `Ok` for an ack, else the error frame.
async fn answer(socket: &mut Socket) -> Result<()> {
    while let Some(frame) = socket.next().await {
        if let Message::Text(text) = frame? {
            // Event lines have a `type`; answers a `t`.
            if text.contains(r#""t":"ack""#) {
                return Ok(());
            }
            if text.contains(r#""t":"error""#) {
                bail!("{text}");
            }
        }
    }
    bail!("the socket closed before answering")
}

/// Plays `moves` in game `id` (at `home`, see [`Shared::route`]) over one socket per seat,
/// timing each move; a game the moves leave unfinished is resigned.
pub async fn play(
    shared: &Shared,
    home: Option<&str>,
    id: &str,
    tokens: &[String],
    moves: &[String],
    tally: &mut Tally,
) -> Result<()> {
    let mut sockets = [
        open(shared, home, id, Some(&tokens[0]))
            .await
            .context("seat 1's socket")?,
        open(shared, home, id, Some(&tokens[1]))
            .await
            .context("seat 2's socket")?,
    ];
    let watcher = if shared.watchers {
        let mut w = open(shared, home, id, None).await.context("the watcher's socket")?;
        w.send(Message::text(r#"{"t":"hello"}"#)).await?;
        // Read and dropped, as a board would read it (the server's fan-out is the cost).
        Some(tokio::spawn(async move { while let Some(Ok(_)) = w.next().await {} }))
    } else {
        None
    };
    let mut result = Ok(());
    for (ply, mv) in moves.iter().enumerate() {
        if shared.stop.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
        let socket = &mut sockets[ply % 2];
        let t = Instant::now();
        let sent = socket
            .send(Message::text(format!(r#"{{"t":"move","move":"{mv}"}}"#)))
            .await;
        if let Err(e) = sent.map_err(anyhow::Error::from).and(answer(socket).await) {
            result = Err(e).with_context(|| format!("game {id} ply {ply} {mv}"));
            break;
        }
        tally
            .latencies
            .push(t.elapsed().as_micros().min(u32::MAX as u128) as u32);
        tally.moves += 1;
    }
    // Finished games leave the server's memory; one left unfinished is resigned.
    let last = &mut sockets[moves.len() % 2];
    if last.send(Message::text(r#"{"t":"resign"}"#)).await.is_ok() {
        let _ = answer(last).await;
    }
    for mut s in sockets {
        let _ = s.close(None).await;
    }
    if let Some(w) = watcher {
        w.abort();
    }
    result
}

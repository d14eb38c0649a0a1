//! Several `arbiter serve --cluster` nodes on one PostgreSQL database and the machine's NATS
//! server, through real WebSocket and HTTP clients:
//!
//! - 200 games played at once by scripted socket players spread over three nodes, one node
//!   killed (SIGKILL) in the middle: its players reconnect to another node and resume from
//!   their last version, its games are taken over, every game ends, every acknowledged move
//!   is in the log, and every game's result is what a single referee replaying the log
//!   rules. The takeover's time is printed.
//! - Fencing: a node paused (SIGSTOP) past its lease while owning a game, whose game another
//!   node took over and played on, writes nothing to it once it wakes (SIGCONT).
//! - Drain: a node stopped with SIGTERM hands its games to the others before it exits.
//! - An event changed through one node streams at once on another.
//! - An event's three rounds across three nodes: every result entered wherever its game ran.
//! - A board device made through one node plays through another; one replaced is refused on
//!   every node.
//! - Affinity: a game's creation names its node, and a game played there is never forwarded;
//!   a node following a game (one subscription for it alone) gets every line of it.
//! - Read-your-writes: a node following a game answers a command only after its line, and
//!   resumes with every command logged — one its stopped owner never sent on among them.
//! - A browser's session, its seats and its account work through every node.
//!
//! SKIPPED without PostgreSQL or NATS; under `CI=true` they must run.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[path = "../common/mod.rs"]
mod common;

mod affinity;
mod device;
mod drain;
mod event_round;
mod events;
mod fencing;
mod fresh;
mod nodes;
mod player;
mod players;
mod seeks;

use nodes::{Backing, Node};
use player::{Finish, Played, Seat, Shared};

const GAMES: usize = 200;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_games_survive_a_node_killed_mid_play() {
    let Some(b) = Backing::new("cluster_kill") else { return };
    let mut nodes: Vec<Node> = ["n1", "n2", "n3"].iter().map(|n| Node::start(&b, n)).collect();
    let store = nodes::store(&b).await;
    let bases: Vec<String> = nodes.iter().map(|n| n.base.clone()).collect();

    // Created through every node, half chess and half Xiangqi.
    let mut seats = Vec::new();
    for i in 0..GAMES {
        let kind = if i % 2 == 0 { "chess" } else { "xiangqi" };
        let (id, tokens) = nodes::create(&bases[i % 3], kind).await;
        for (side, token) in tokens.into_iter().enumerate() {
            seats.push(Seat {
                game: i,
                id: id.clone(),
                token,
                side,
                plies: 14 + i % 9,
                finish: if i % 3 == 0 { Finish::Draw } else { Finish::Resign },
                node: (i + side) % 3,
            });
        }
    }
    let ids: Vec<String> = seats.iter().step_by(2).map(|s| s.id.clone()).collect();
    let mut per_node: HashMap<String, usize> = HashMap::new();
    // The games of the node to be killed (n1): nothing moves a game while all are alive.
    let mut dead_games = Vec::new();
    for id in &ids {
        let owner = nodes::owner(&store, id).await.unwrap();
        if owner == "n1" {
            dead_games.push(id.clone());
        }
        *per_node.entry(owner).or_default() += 1;
    }
    println!("games per node: {per_node:?}");
    assert_eq!(per_node.len(), 3, "new games are spread over every node: {per_node:?}");

    let shared = Arc::new(Shared {
        bases,
        acked: Default::default(),
        killed_at: Default::default(),
    });
    let started = Instant::now();
    let players: Vec<_> = seats
        .into_iter()
        .map(|s| tokio::spawn(player::play(s, shared.clone())))
        .collect();

    // Killed once about a third of the moves are in.
    let expected: usize = (0..GAMES).map(|i| 14 + i % 9).sum();
    while shared.acked.load(Ordering::Relaxed) < expected / 3 {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "play stalled before the kill"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let killed = Instant::now();
    nodes[0].kill9();
    let _ = shared.killed_at.set(killed);
    println!(
        "killed n1 after {:.1} s, {} moves acknowledged, owning {} games",
        started.elapsed().as_secs_f64(),
        shared.acked.load(Ordering::Relaxed),
        dead_games.len()
    );

    let mut played: Vec<Played> = Vec::new();
    for p in players {
        played.push(p.await.expect("a player panicked"));
    }
    println!(
        "all {GAMES} games over after {:.1} s, {} moves acknowledged",
        started.elapsed().as_secs_f64(),
        shared.acked.load(Ordering::Relaxed)
    );

    // The takeover: as the nodes logged it, and as the dead node's players saw it.
    let said: Vec<String> = nodes[1..]
        .iter()
        .flat_map(|n| {
            n.said()
                .lines()
                .filter(|l| l.contains("took over"))
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(!said.is_empty(), "no node logged a takeover");
    for l in &said {
        println!("{}", l.split("INFO ").nth(1).unwrap_or(l));
    }
    let resumed: Vec<Duration> = played
        .iter()
        .filter(|p| dead_games.contains(&p.seat.id))
        .filter_map(|p| p.first_ack_after_kill.map(|t| t - killed))
        .collect();
    let slowest = resumed.iter().max().copied().unwrap_or_default();
    let fastest = resumed.iter().min().copied().unwrap_or_default();
    println!(
        "takeover: the dead node's games answered again {:.2} s to {:.2} s after the kill (lease {} ms)",
        fastest.as_secs_f64(),
        slowest.as_secs_f64(),
        nodes::LEASE_MS
    );
    let reconnects: usize = played.iter().map(|p| p.reconnects).sum();
    let retried: usize = played.iter().map(|p| p.retried).sum();
    println!("players reconnected {reconnects} times; {retried} commands answered 503 and tried again");
    assert!(reconnects > 0, "the dead node's players reconnected");
    for p in &played {
        assert!(p.refused.is_empty(), "game {} refused: {:?}", p.seat.game, p.refused);
    }

    check_games(&store, &played).await;

    // The dead node's games, finished, read on each live node: their records, and their
    // streams from the start with every version once, across the takeover.
    for id in dead_games.iter().take(5) {
        let mut seen = Vec::new();
        for n in &nodes[1..] {
            let pgn = reqwest::get(format!("{}/api/game/{id}/pgn", n.base)).await.unwrap();
            assert_eq!(pgn.status(), 200, "game {id}'s record on {}", n.base);
            assert!(
                !pgn.text().await.unwrap().contains("[Result \"*\"]"),
                "game {id} is over"
            );
            let text = reqwest::get(format!("{}/api/board/game/stream/{id}?since=0", n.base))
                .await
                .unwrap()
                .text()
                .await
                .unwrap();
            let versions: Vec<u64> = text
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| {
                    serde_json::from_str::<serde_json::Value>(l).unwrap()["version"]
                        .as_u64()
                        .unwrap()
                })
                .collect();
            assert_eq!(
                versions,
                (1..=versions.len() as u64).collect::<Vec<_>>(),
                "game {id} on {}",
                n.base
            );
            seen.push(text);
        }
        assert_eq!(seen[0], seen[1], "game {id}: the same lines on every node");
    }
    drop(nodes);
}

/// Every game is over, its acknowledged moves are in its log in order, and both players saw
/// the result a single referee rules replaying that log.
async fn check_games(store: &store::Store, played: &[Played]) {
    let unfinished = store.unfinished_games().await.unwrap();
    assert!(unfinished.is_empty(), "unfinished games: {unfinished:?}");
    let mut by_game: HashMap<&str, Vec<&Played>> = HashMap::new();
    for p in played {
        by_game.entry(&p.seat.id).or_default().push(p);
    }
    let mut endings: HashMap<String, usize> = HashMap::new();
    for (id, seats) in by_game {
        let g = store.game(id).await.unwrap().unwrap();
        let logged: Vec<String> = g
            .commands
            .iter()
            .filter_map(|(_, _, text)| match text.split_once(' ') {
                Some(("move" | "move+draw", rest)) => Some(rest.split(" lag=").next().unwrap().to_string()),
                _ => None,
            })
            .collect();
        let mut acked: Vec<(u64, String)> = seats.iter().flat_map(|s| s.acked.clone()).collect();
        acked.sort();
        let mut rest = logged.iter();
        for (_, mv) in &acked {
            assert!(
                rest.any(|m| m == mv),
                "game {id}: acknowledged move {mv} not in the log in order: log {logged:?}, acknowledged {acked:?}"
            );
        }
        assert!(
            logged.len() <= acked.len() + 2,
            "game {id}: moves logged that no one was answered: {logged:?} vs {acked:?}"
        );

        // A single referee replays the log.
        let spec = server::live::Spec {
            kind: g.kind,
            ruleset: g.ruleset.clone(),
            rules: g.rules.clone(),
            clock: g.clock,
            per_move: None,
            rated: false,
            event: false,
        };
        let mut live = server::live::Live::new(&spec).unwrap();
        for (at, side, text) in &g.commands {
            live.apply(*at, *side, server::codec::decode(text).unwrap());
        }
        let end = live
            .ending()
            .unwrap_or_else(|| panic!("game {id}: the replay does not end"));
        let reason = referee::rule_code(end);
        let winner = match end.result {
            judge::Outcome::FirstWins => Some(game::Side::First.name(g.kind)),
            judge::Outcome::SecondWins => Some(game::Side::Second.name(g.kind)),
            _ => None,
        };
        for s in &seats {
            assert_eq!(s.last["reason"].as_str(), Some(reason), "game {id}: {}", s.last);
            assert_eq!(s.last["winner"].as_str(), winner, "game {id}: {}", s.last);
        }
        *endings.entry(reason.to_string()).or_default() += 1;
    }
    println!("verdicts, each the single-referee replay's: {endings:?}");
}

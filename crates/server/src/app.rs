//! The games this server holds: created here, or loaded from the database on first use (every
//! unfinished one at startup).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use game::{BySide, Side};

use crate::cluster::Node;
use crate::codec::{random_id, token_hash};
use crate::db::{now_unix_ms, Db, Entry, RoundGame, Stored};
use crate::error::ApiError;
use crate::limits::{Limiter, Limits};
use crate::live::Spec;
use crate::table::Table;

/// Sign-in attempts one account name may have a minute, sustained, and at once. Each node of
/// a cluster counts its own.
const LOGINS_PER_MINUTE: f64 = 6.0;
const LOGINS_BURST: f64 = 10.0;

pub struct App {
    db: Db,
    games: Mutex<HashMap<String, Arc<Table>>>,
    pub limits: Limits,
    /// Commands, per seat (game, side).
    seats: Limiter<(String, Side)>,
    /// Game creation, per client address.
    creators: Limiter<IpAddr>,
    /// Record reviews, per client address (as many as creations).
    reviewers: Limiter<IpAddr>,
    /// Sign-in attempts, per account name (folded to lower case): a password is not guessed
    /// by trying many.
    logins: Limiter<String>,
    /// Set when the server shuts down: streams end.
    closing: tokio::sync::watch::Sender<bool>,
    /// The events this server runs: one change at a time each, and their streams.
    pub events: crate::event::Events,
    /// The cluster this server is a node of (`arbiter serve --cluster`), if any.
    cluster: std::sync::OnceLock<Arc<Node>>,
    /// The computer's games here, and the engine it plays with.
    computers: Arc<crate::computer::Computers>,
    /// The analyses running here and waiting for a place.
    analyses: crate::analyse::Places,
}

/// A new game: its id, a seat token for each side (first, second) and the arbiter's token.
pub struct Created {
    pub id: String,
    pub tokens: BySide<String>,
    pub arbiter: String,
    /// In a cluster, the node the game runs on.
    pub node: Option<crate::cluster::Owner>,
}

impl App {
    pub fn new(db: Db) -> App {
        App::with_limits(db, Limits::default())
    }

    pub fn with_limits(db: Db, limits: Limits) -> App {
        App {
            db,
            games: Mutex::new(HashMap::new()),
            limits,
            seats: Limiter::new(limits.actions_per_second, limits.actions_burst),
            creators: Limiter::new(limits.creates_per_minute / 60.0, limits.creates_burst),
            reviewers: Limiter::new(limits.creates_per_minute / 60.0, limits.creates_burst),
            logins: Limiter::new(LOGINS_PER_MINUTE / 60.0, LOGINS_BURST),
            closing: tokio::sync::watch::Sender::new(false),
            events: crate::event::Events::default(),
            cluster: std::sync::OnceLock::new(),
            computers: Arc::new(crate::computer::Computers::new(limits.computer_games)),
            analyses: crate::analyse::Places::new(limits.analyses, limits.analysis_queue),
        }
    }

    /// Makes this server node `node` of a cluster (before it serves anything).
    pub fn set_cluster(&self, node: Arc<Node>) {
        let _ = self.cluster.set(node);
    }

    pub fn cluster(&self) -> Option<&Arc<Node>> {
        self.cluster.get()
    }

    /// The engine the computer plays with: `$ARBITER_ENGINE`, else the installed Fairy-Stockfish.
    pub fn engines(&self) -> &crate::computer::Engines {
        self.computers.engines()
    }

    pub fn analyses(&self) -> &crate::analyse::Places {
        &self.analyses
    }

    pub fn computers(&self) -> &crate::computer::Computers {
        &self.computers
    }

    /// The server is shutting down: every stream ends.
    pub fn close(&self) {
        self.closing.send_replace(true);
    }

    /// Whether the server is shutting down, to wait on.
    pub fn closing(&self) -> tokio::sync::watch::Receiver<bool> {
        self.closing.subscribe()
    }

    /// A command from `side` of game `id` may go on, or 429.
    pub fn may_act(&self, id: &str, side: Side) -> Result<(), ApiError> {
        self.seats.take((id.to_string(), side))
    }

    /// A game may be created for `client`, or 429.
    pub fn may_create(&self, client: IpAddr) -> Result<(), ApiError> {
        self.creators.take(client)
    }

    /// A record may be reviewed for `client`, or 429.
    pub fn may_review(&self, client: IpAddr) -> Result<(), ApiError> {
        self.reviewers.take(client)
    }

    /// An attempt to sign into account `name` (lower case) may go on, or 429.
    pub fn may_log_in(&self, name: &str) -> Result<(), ApiError> {
        self.logins.take(name.to_string())
    }

    /// Forgets refilled rate-limit buckets.
    pub fn sweep_limits(&self) {
        self.logins.sweep();
        self.seats.sweep();
        self.creators.sweep();
        self.reviewers.sweep();
    }

    /// Rebuilds every unfinished game; returns how many.
    pub async fn restore_all(&self) -> Result<usize, ApiError> {
        let ids = self.db.unfinished().await?;
        for id in &ids {
            let table = self.game(id).await?;
            // Over before the crash, but not yet marked so: mark it now.
            if table.watch().borrow().1 {
                self.db.finish(id, "over", None).await?;
            }
        }
        Ok(ids.len())
    }

    pub async fn create(&self, spec: Spec) -> Result<Created, ApiError> {
        self.create_with(spec, None).await
    }

    /// A new game, the computer playing `computer`'s seat if given.
    pub async fn create_with(
        &self,
        spec: Spec,
        computer: Option<crate::computer::ComputerSeat>,
    ) -> Result<Created, ApiError> {
        let tokens = BySide::new(|_| random_id(32));
        let arbiter = random_id(32);
        let hashes = tokens.as_ref().map(|t| token_hash(t));
        spec.validate()?;
        let id = random_id(8);
        self.db
            .create(&id, &spec, &hashes, Some(&token_hash(&arbiter)), computer)
            .await?;
        let placed = match self.cluster() {
            Some(node) => Some(node.owner_named(&node.place(&id).await?).await),
            None => None,
        };
        // Built the way a restart builds it, so a created game and a restored one cannot differ;
        // a game placed on another node is not held here (nor followed) unless asked for.
        if placed
            .as_ref()
            .is_none_or(|o| Some(&o.name) == self.cluster().map(|n| &n.name))
        {
            self.game(&id).await?;
        }
        Ok(Created {
            id,
            tokens,
            arbiter,
            node: placed,
        })
    }

    /// The new games of event `event`'s round, one for each (pairing, game number, hashes of
    /// the seats' tokens: each player's own event token), their consoles held by the
    /// arbiter's token; returns their ids in order. Their clocks run from now, as the round
    /// starts, so a player who does not come loses by the ruleset's lateness rule. All are
    /// made in one transaction, linked to their pairings, or none is.
    pub async fn create_round_games(
        &self,
        event: &str,
        spec: &Spec,
        arbiter_hash: Option<&str>,
        games: Vec<(String, u32, BySide<String>)>,
    ) -> Result<Vec<String>, ApiError> {
        spec.validate()?;
        let games: Vec<RoundGame> = games
            .into_iter()
            .map(|(pairing, game, token_hashes)| RoundGame {
                id: random_id(8),
                pairing,
                game,
                token_hashes,
            })
            .collect();
        // Each game's log begins with the start of its clocks.
        let start = || (0, Side::First, "start".to_string());
        let commands: Vec<Entry> = games
            .iter()
            .map(|g| {
                let (at, side, text) = start();
                (Arc::from(g.id.as_str()), 0, at, side, text)
            })
            .collect();
        let created_unix_ms = now_unix_ms();
        self.db
            .create_round_games(event, spec, arbiter_hash, created_unix_ms, &games, &commands)
            .await?;
        // Built from what was just committed the way a restart builds a game from what it
        // reads, so a created game and a restored one cannot differ.
        let mut ids = Vec::with_capacity(games.len());
        for g in games {
            let stored = Stored {
                spec: spec.clone(),
                token_hashes: g.token_hashes,
                arbiter_hash: arbiter_hash.map(str::to_string),
                created_unix_ms,
                device_hash: None,
                computer: None,
                commands: vec![start()],
            };
            let table = match self.cluster() {
                None => Table::restore(g.id.clone(), stored, self.db.clone(), self.limits.abandon_after)?,
                // A cluster's node runs the round's games it can claim; the others follow.
                Some(node) => {
                    let run = node
                        .runs_here(&g.id)
                        .await?
                        .then(|| (self.db.pin(), self.limits.abandon_after));
                    Table::open(g.id.clone(), stored, run, Some(node.clone()))?
                }
            };
            let table = self.lock().entry(g.id.clone()).or_insert(table).clone();
            if let (Some(node), false) = (self.cluster(), table.is_local()) {
                // Another node claimed it first: followed from now, and its log read since.
                node.follow_game(&g.id).await?;
                self.reread(&table).await;
            }
            ids.push(g.id);
        }
        Ok(ids)
    }

    /// The database.
    pub fn metrics(&self) -> Arc<crate::metrics::Metrics> {
        self.db.metrics()
    }

    /// How many games in memory are still being played here (in a cluster: run by this node,
    /// not followed).
    pub fn games_live(&self) -> usize {
        self.lock()
            .values()
            .filter(|t| !t.watch().borrow().1 && t.is_local())
            .count()
    }

    pub fn db(&self) -> &Db {
        &self.db
    }

    pub async fn game(&self, id: &str) -> Result<Arc<Table>, ApiError> {
        if id.is_empty() || id.len() > 16 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(ApiError::NotFound);
        }
        if let Some(t) = self.lock().get(id) {
            return Ok(t.clone());
        }
        let stored = self.db.load(id).await?.ok_or(ApiError::NotFound)?;
        let Some(node) = self.cluster() else {
            let table = Table::restore(id.to_string(), stored, self.db.clone(), self.limits.abandon_after)?;
            // Another request may have loaded it meanwhile: keep the first, so one task owns the game.
            let table = self.lock().entry(id.to_string()).or_insert(table).clone();
            crate::computer::seat(&self.computers, &table);
            return Ok(table);
        };
        // A cluster's node runs the game if it owns it, else follows the node that does.
        let run = node
            .runs_here(id)
            .await?
            .then(|| (self.db.pin(), self.limits.abandon_after));
        let table = Table::open(id.to_string(), stored, run, Some(node.clone()))?;
        let (table, new) = {
            let mut games = self.lock();
            match games.get(id) {
                Some(t) => (t.clone(), false),
                None => {
                    games.insert(id.to_string(), table.clone());
                    (table, true)
                }
            }
        };
        if new && !table.is_local() {
            // Subscribed first, then the log read: a line is in one or the other (both: it is
            // skipped), and a gap among the later ones reads the log again.
            if let Err(e) = node.follow_game(id).await {
                self.drop_table(&table);
                return Err(e);
            }
            if let Some(stored) = self.db.load(id).await? {
                table.catch_up(&stored)?;
            }
        }
        if new {
            crate::computer::seat(&self.computers, &table);
        }
        Ok(table)
    }

    /// Runs game `id` on this node, which now owns it (a takeover, a hand-over): its table
    /// here, following until now, starts the game's task from the log.
    pub(crate) async fn localize(&self, id: &str) -> Result<Arc<Table>, ApiError> {
        let held = self.lock().get(id).cloned();
        let Some(table) = held else {
            return self.game(id).await;
        };
        if !table.is_local() {
            let stored = self.db.load(id).await?.ok_or(ApiError::NotFound)?;
            table.localize(&stored, self.db.pin(), self.limits.abandon_after)?;
            // Its lines are made here now.
            if let Some(node) = self.cluster() {
                node.unfollow_game(id);
            }
            crate::computer::seat(&self.computers, &table);
        }
        Ok(table)
    }

    /// Brings a followed game's lines up to its log as stored now (lines sent by its owner
    /// went by); a failure is logged, and the next gap or rejoin reads it again.
    pub(crate) async fn reread(&self, table: &Table) {
        match self.db.load(&table.id).await {
            Ok(Some(stored)) => {
                if let Err(e) = table.catch_up(&stored) {
                    tracing::warn!(game = %table.id, error = %e, "could not read the game's log again");
                }
            }
            Ok(None) => {}
            Err(e) => tracing::warn!(game = %table.id, error = %e, "could not read the game's log again"),
        }
    }

    /// The games whose tasks run on this node.
    pub(crate) fn local_tables(&self) -> Vec<Arc<Table>> {
        self.lock().values().filter(|t| t.is_local()).cloned().collect()
    }

    /// Every game this node holds.
    pub(crate) fn held_tables(&self) -> Vec<Arc<Table>> {
        self.lock().values().cloned().collect()
    }

    /// Game `id`'s table if this node holds it.
    pub(crate) fn held(&self, id: &str) -> Option<Arc<Table>> {
        self.lock().get(id).cloned()
    }

    /// Drops finished games no request or stream holds: memory stays bounded by the games in
    /// play, and a finished game asked for again is rebuilt from its log. Returns how many.
    pub fn evict_finished(&self) -> usize {
        let mut games = self.lock();
        let before = games.len();
        let node = self.cluster();
        // Unfollowed under the lock: a request that loads the game again subscribes after.
        games.retain(|id, t| {
            let keep = Arc::strong_count(t) > 1 || !t.watch().borrow().1;
            if let (false, Some(node)) = (keep, node) {
                node.unfollow_game(id);
            }
            keep
        });
        before - games.len()
    }

    /// Forgets `table` (a follower that could not subscribe: the next request tries again).
    fn drop_table(&self, table: &Arc<Table>) {
        let mut games = self.lock();
        if games.get(&table.id).is_some_and(|t| Arc::ptr_eq(t, table)) {
            games.remove(&table.id);
        }
    }

    /// How many games are in memory.
    pub fn loaded(&self) -> usize {
        self.lock().len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Table>>> {
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The token of an `Authorization: Bearer …` header, if it holds a plausible one.
pub fn bearer(authorization: Option<&str>) -> Option<&str> {
    authorization
        .and_then(|h| h.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|t| !t.is_empty() && t.len() <= 128)
}

/// The value of cookie `name` in a request's `Cookie` headers, if it has one.
pub fn cookie<'a>(headers: &'a axum::http::HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(n, _)| *n == name)
        .map(|(_, value)| value.trim())
}

/// The token of a request's `Authorization: Bearer …` header, if it holds a plausible one.
pub fn bearer_of(headers: &axum::http::HeaderMap) -> Option<&str> {
    bearer(
        headers
            .get(axum::http::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok()),
    )
}

/// The side a bearer token holds in `table`.
pub fn seat(table: &Table, authorization: Option<&str>) -> Result<Side, ApiError> {
    let token = bearer(authorization).ok_or(ApiError::Unauthorized)?;
    table.seat(token).ok_or(ApiError::Forbidden)
}

#[cfg(test)]
mod tests {
    use super::*;
    use referee::Command;

    /// In-process, on an SQLite file: a finished game leaves memory and comes back from its
    /// log, the same; a game in play stays.
    #[tokio::test]
    async fn finished_games_are_evicted_and_reload() {
        let path = std::env::temp_dir().join(format!("arbiter-server-evict-{}.db", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let db = Db::connect(&format!("sqlite://{}?mode=rwc", path.display()))
            .await
            .unwrap();
        let app = App::new(db);
        let spec = |kind: &str| Spec {
            kind: kind.parse().unwrap(),
            ruleset: "online".into(),
            rules: if kind == "chess" { "fide" } else { "cxa" }.into(),
            clock: Some((60_000, 0)),
            per_move: None,
            rated: false,
            event: false,
        };
        let over = app.create(spec("xiangqi")).await.unwrap();
        let playing = app.create(spec("chess")).await.unwrap();
        let t = app.game(&over.id).await.unwrap();
        t.act(Side::First, Command::Move("h2e2".into()), 0).await.unwrap();
        t.act(Side::Second, Command::Resign, 0).await.unwrap();
        let lines = t.lines_from(0);
        drop(t);
        app.game(&playing.id)
            .await
            .unwrap()
            .act(Side::First, Command::Move("e2e4".into()), 0)
            .await
            .unwrap();
        assert_eq!(app.evict_finished(), 1);
        assert_eq!(app.loaded(), 1);
        let t = app.game(&over.id).await.unwrap();
        assert_eq!(t.lines_from(0), lines);
        assert!(t.act(Side::First, Command::Resign, 0).await.is_err(), "still over");
        let _ = std::fs::remove_file(&path);
    }
}

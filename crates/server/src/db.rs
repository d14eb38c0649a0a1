//! Where games live: the database the events share ([`store`]), SQLite or PostgreSQL.
//!
//! A game is its row plus its command log; the referee's state is never stored, only rebuilt
//! by replaying the log, so the log is the one thing that must be durable.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use game::BySide;
use store::{CommandLog, NewEventGame, NewGame, Store};

use crate::live::Spec;
use crate::metrics::Metrics;

pub use store::Entry;

#[derive(Clone)]
pub struct Db {
    store: Store,
    /// The log writer's queue: many games' commands share one commit. A cluster's node
    /// replaces it with a new lease's (see [`Db::set_log`]).
    log: Arc<std::sync::RwLock<CommandLog>>,
    /// What `/metrics` shows, counted here for the log's writes.
    metrics: Arc<Metrics>,
}

/// A stored game: its spec, the hashes of its seat tokens (and its arbiter's, if it has one)
/// and its commands in order.
pub struct Stored {
    pub spec: Spec,
    pub token_hashes: BySide<String>,
    pub arbiter_hash: Option<String>,
    /// The board device's, once the arbiter has made one.
    pub device_hash: Option<String>,
    /// When it was created, milliseconds since the Unix epoch (wall clock).
    pub created_unix_ms: i64,
    /// The seat the computer plays, if it plays one.
    pub computer: Option<crate::computer::ComputerSeat>,
    pub commands: Vec<(u64, game::Side, String)>,
}

/// A game of an event's round to create: its id, its pairing and number there, and the
/// hashes of its seats' tokens (the players' own event tokens).
pub struct RoundGame {
    pub id: String,
    pub pairing: String,
    pub game: u32,
    pub token_hashes: BySide<String>,
}

impl Db {
    /// Opens `url` (`sqlite:FILE?mode=rwc` or `postgres://…`, as [`store::Target::url`]
    /// gives it) and brings its schema up to date.
    pub async fn connect(url: &str) -> Result<Db, sqlx::Error> {
        Ok(Db::new(Store::connect(url).await?))
    }

    /// The server's side of an open store (starts its log writer).
    pub fn new(store: Store) -> Db {
        let log = store.command_log();
        Db {
            store,
            log: Arc::new(std::sync::RwLock::new(log)),
            metrics: Arc::default(),
        }
    }

    /// Commands are written through `log` from now on (a cluster's node: its lease's fenced
    /// log). Games already running keep the log they were given (see [`Db::pin`]).
    pub fn set_log(&self, log: CommandLog) {
        *self.log.write().unwrap_or_else(|e| e.into_inner()) = log;
    }

    /// This database with the log of now, kept whatever [`Db::set_log`] later does: what a
    /// game's task writes through, so a task of a lease that ended can never write through
    /// the next lease's log.
    pub fn pin(&self) -> Db {
        let log = self.log.read().unwrap_or_else(|e| e.into_inner()).clone();
        Db {
            store: self.store.clone(),
            log: Arc::new(std::sync::RwLock::new(log)),
            metrics: self.metrics.clone(),
        }
    }

    pub fn metrics(&self) -> Arc<Metrics> {
        self.metrics.clone()
    }

    /// Whether the database answers (the readiness probe).
    pub async fn ping(&self) -> Result<(), sqlx::Error> {
        sqlx::query("SELECT 1").execute(self.store.pool()).await.map(|_| ())
    }

    /// The database, shared with everything else kept there (events).
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// A new game, with no command yet (its clocks start with the first).
    pub async fn create(
        &self,
        id: &str,
        spec: &Spec,
        token_hashes: &BySide<String>,
        arbiter_hash: Option<&str>,
        computer: Option<crate::computer::ComputerSeat>,
    ) -> Result<(), sqlx::Error> {
        // The store keeps the pair as its columns token_first, token_second.
        let token_hashes: [String; 2] = token_hashes.clone().into();
        let computer = computer.map(|c| c.code());
        self.store
            .create_game(&NewGame {
                id,
                kind: spec.kind,
                ruleset: &spec.ruleset,
                rules: &spec.rules,
                clock: spec.clock,
                per_move: spec.per_move,
                token_hashes: &token_hashes,
                arbiter_hash,
                created_unix_ms: now_unix_ms(),
                computer: computer.as_deref(),
            })
            .await?;
        // Marked before the game is first loaded: its referee takes no takebacks then.
        if spec.rated {
            self.store.set_rated(id, true).await?;
        }
        Ok(())
    }

    /// The games of event `event`'s round, created at `created_unix_ms` with `commands` (their
    /// clocks' start) and linked to their pairings, in one transaction: all, or none.
    pub async fn create_round_games(
        &self,
        event: &str,
        spec: &Spec,
        arbiter_hash: Option<&str>,
        created_unix_ms: i64,
        games: &[RoundGame],
        commands: &[Entry],
    ) -> Result<(), sqlx::Error> {
        let token_hashes: Vec<[String; 2]> = games.iter().map(|g| g.token_hashes.clone().into()).collect();
        let new: Vec<NewEventGame> = games
            .iter()
            .zip(&token_hashes)
            .map(|(g, hashes)| NewEventGame {
                game: NewGame {
                    id: &g.id,
                    kind: spec.kind,
                    ruleset: &spec.ruleset,
                    rules: &spec.rules,
                    clock: spec.clock,
                    // Events set no limit per move.
                    per_move: None,
                    token_hashes: hashes,
                    arbiter_hash,
                    created_unix_ms,
                    computer: None,
                },
                event,
                pairing: &g.pairing,
                number: g.game,
            })
            .collect();
        self.store.create_event_games(&new, commands).await
    }

    /// Appends commands to a game's log, all or none; returns once they are committed.
    pub async fn append(&self, entries: Vec<Entry>) -> Result<(), sqlx::Error> {
        let n = entries.len() as u64;
        let moves = entries.iter().filter(|e| e.4.starts_with("move")).count() as u64;
        let asked = std::time::Instant::now();
        let log = self.log.read().unwrap_or_else(|e| e.into_inner()).clone();
        let r = log.append(entries).await;
        let m = &self.metrics;
        if r.is_ok() {
            m.write_latency.observe(asked.elapsed());
            m.commands.fetch_add(n, Ordering::Relaxed);
            m.moves.fetch_add(moves, Ordering::Relaxed);
        } else if let Err(e) = &r {
            m.write_errors.fetch_add(1, Ordering::Relaxed);
            tracing::warn!(error = %e, commands = n, "command log append failed");
        }
        r
    }

    /// Keeps the hash of a game's new board-device token; whether the game exists.
    pub async fn set_device(&self, id: &str, hash: &str) -> Result<bool, sqlx::Error> {
        self.store.set_device_token(id, hash).await
    }

    /// The hash of a game's board-device token as stored: another node of a cluster may have
    /// made the device.
    pub async fn device(&self, id: &str) -> Result<Option<String>, sqlx::Error> {
        self.store.device_token(id).await
    }

    /// Marks a game over (so a restart does not rebuild it eagerly), with its outcome as PGN
    /// gives it when it has one.
    pub async fn finish(&self, id: &str, result: &str, outcome: Option<&str>) -> Result<(), sqlx::Error> {
        self.store.finish_game_with(id, result, outcome).await
    }

    pub async fn unfinished(&self) -> Result<Vec<String>, sqlx::Error> {
        self.store.unfinished_games().await
    }

    pub async fn load(&self, id: &str) -> Result<Option<Stored>, sqlx::Error> {
        Ok(self.store.game(id).await?.map(|g| Stored {
            spec: Spec {
                kind: g.kind,
                ruleset: g.ruleset,
                rules: g.rules,
                clock: g.clock,
                per_move: g.per_move,
                rated: g.rated,
                event: g.event,
            },
            token_hashes: g.token_hashes.into(),
            arbiter_hash: g.arbiter_hash,
            device_hash: g.device_hash,
            created_unix_ms: g.created_unix_ms,
            computer: g.computer.as_deref().and_then(|code| {
                let seat = crate::computer::ComputerSeat::parse(code);
                if seat.is_none() {
                    tracing::warn!(game = id, code, "unreadable computer seat: nobody plays it");
                }
                seat
            }),
            commands: g.commands,
        }))
    }
}

/// Wall clock, milliseconds since the Unix epoch.
pub fn now_unix_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

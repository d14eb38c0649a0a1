//! Live games: a game is its row plus its command log. The referee's state is never stored,
//! only rebuilt by replaying the log, so the log is the one thing that must be durable.

use std::sync::Arc;

use game::{Kind, Side};
use sqlx::any::AnyRow;
use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyPool, Row};
use tokio::sync::{mpsc, oneshot};

use crate::lease::Lease;
use crate::Store;

/// A game to create, before any command.
pub struct NewGame<'a> {
    pub id: &'a str,
    pub kind: Kind,
    /// The referee's rules.
    pub ruleset: &'a str,
    /// The judge's rules.
    pub rules: &'a str,
    /// Main time and increment, milliseconds; `None` keeps the ruleset's own.
    pub clock: Option<(u64, u64)>,
    /// A limit on every single move, milliseconds, besides the clock.
    pub per_move: Option<u64>,
    /// The hashes of the two seat tokens (the tokens themselves are never stored).
    pub token_hashes: &'a [String; 2],
    /// The hash of the arbiter's token, for a game an arbiter conducts.
    pub arbiter_hash: Option<&'a str>,
    /// Wall clock, milliseconds since the Unix epoch.
    pub created_unix_ms: i64,
    /// The seat the computer plays and its level (`second:4`), if it plays one.
    pub computer: Option<&'a str>,
}

/// A new game of event `event`'s pairing `pairing`, as its game `number` (see
/// [`Store::create_event_games`]).
pub struct NewEventGame<'a> {
    pub game: NewGame<'a>,
    pub event: &'a str,
    pub pairing: &'a str,
    pub number: u32,
}

/// A stored game: what it was created with and its commands in order.
pub struct StoredGame {
    pub kind: Kind,
    pub ruleset: String,
    pub rules: String,
    pub clock: Option<(u64, u64)>,
    pub per_move: Option<u64>,
    pub token_hashes: [String; 2],
    /// The hash of the arbiter's token; `None` for a game without one (made before there were).
    pub arbiter_hash: Option<String>,
    /// The hash of the board device's token, once the arbiter has made one.
    pub device_hash: Option<String>,
    pub created_unix_ms: i64,
    /// The seat the computer plays and its level (`second:4`), if it plays one.
    pub computer: Option<String>,
    /// A rated game (no takebacks in it).
    pub rated: bool,
    /// A game of an event (no takebacks in it either).
    pub event: bool,
    /// Game time (ms), side, command text.
    pub commands: Vec<(u64, Side, String)>,
}

/// One command to log: game, seq, game time (ms), side, command text.
pub type Entry = (Arc<str>, usize, u64, Side, String);

fn side_code(side: Side) -> &'static str {
    match side {
        Side::First => "first",
        Side::Second => "second",
    }
}

impl Store {
    /// A new game, with no command yet.
    pub async fn create_game(&self, g: &NewGame<'_>) -> Result<(), sqlx::Error> {
        sqlx::query(
            "INSERT INTO games (id, kind, ruleset, rules, clock_limit_ms, clock_increment_ms, \
             token_first, token_second, created_unix_ms, finished, token_arbiter, computer, clock_per_move_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0, $10, $11, $12)",
        )
        .bind(g.id)
        .bind(g.kind.name())
        .bind(g.ruleset)
        .bind(g.rules)
        .bind(g.clock.map(|c| c.0 as i64))
        .bind(g.clock.map(|c| c.1 as i64))
        .bind(&g.token_hashes[0])
        .bind(&g.token_hashes[1])
        .bind(g.created_unix_ms)
        .bind(g.arbiter_hash)
        .bind(g.computer)
        .bind(g.per_move.map(|p| p as i64))
        .execute(&self.pool)
        .await
        .map(|_| ())
    }

    /// Sets the hash of game `id`'s board-device token (replacing any before it); whether the
    /// game exists.
    pub async fn set_device_token(&self, id: &str, hash: &str) -> Result<bool, sqlx::Error> {
        sqlx::query("UPDATE games SET token_device = $1 WHERE id = $2")
            .bind(hash)
            .bind(id)
            .execute(&self.pool)
            .await
            .map(|r| r.rows_affected() == 1)
    }

    /// The hash of a game's board-device token, as last stored (`None`: no device made, or no
    /// such game).
    pub async fn device_token(&self, id: &str) -> Result<Option<String>, sqlx::Error> {
        let row: Option<(Option<String>,)> = sqlx::query_as("SELECT token_device FROM games WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.and_then(|(h,)| h))
    }

    /// New games of events (a round's), their first commands (their clocks' start) and their
    /// links to their pairings, in one transaction: all made, or none, so a round is never
    /// half made and one flush serves all its games.
    pub async fn create_event_games(&self, games: &[NewEventGame<'_>], commands: &[Entry]) -> Result<(), sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        for chunk in games.chunks(ROWS_PER_INSERT) {
            let sql = format!(
                "INSERT INTO games (id, kind, ruleset, rules, clock_limit_ms, clock_increment_ms, \
                 token_first, token_second, created_unix_ms, token_arbiter) VALUES {}",
                values(chunk.len(), 10)
            );
            let mut q = sqlx::query(&sql);
            for NewEventGame { game: g, .. } in chunk {
                q = q
                    .bind(g.id)
                    .bind(g.kind.name())
                    .bind(g.ruleset)
                    .bind(g.rules)
                    .bind(g.clock.map(|c| c.0 as i64))
                    .bind(g.clock.map(|c| c.1 as i64))
                    .bind(&g.token_hashes[0])
                    .bind(&g.token_hashes[1])
                    .bind(g.created_unix_ms)
                    .bind(g.arbiter_hash);
            }
            q.execute(&mut *tx).await?;
        }
        insert_commands(&mut tx, &commands.iter().collect::<Vec<_>>()).await?;
        for chunk in games.chunks(ROWS_PER_INSERT) {
            let sql = format!(
                "INSERT INTO event_games (event, pairing, game, game_id) VALUES {}",
                values(chunk.len(), 4)
            );
            let mut q = sqlx::query(&sql);
            for g in chunk {
                q = q
                    .bind(g.event)
                    .bind(g.pairing)
                    .bind(i64::from(g.number))
                    .bind(g.game.id);
            }
            q.execute(&mut *tx).await?;
        }
        tx.commit().await
    }

    /// Marks a game over with how it ended (so a restart does not rebuild it eagerly).
    pub async fn finish_game(&self, id: &str, result: &str) -> Result<(), sqlx::Error> {
        self.finish_game_with(id, result, None).await
    }

    /// [`Store::finish_game`], with the outcome as PGN gives it (`1-0`, `0-1`, `1/2-1/2`;
    /// `None`: no result, or not known), which a player's page shows.
    pub async fn finish_game_with(&self, id: &str, result: &str, outcome: Option<&str>) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE games SET finished = 1, result = $1, outcome = $2 WHERE id = $3")
            .bind(result)
            .bind(outcome)
            .bind(id)
            .execute(&self.pool)
            .await
            .map(|_| ())
    }

    pub async fn unfinished_games(&self) -> Result<Vec<String>, sqlx::Error> {
        let rows = sqlx::query("SELECT id FROM games WHERE finished = 0 ORDER BY id")
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|r| r.try_get::<String, _>(0)).collect()
    }

    /// How many commands game `id`'s log holds (the next one's `seq`; 0 for none or no such
    /// game): the last entry of the log's primary key, one index probe however long the game.
    pub async fn logged_commands(&self, id: &str) -> Result<u64, sqlx::Error> {
        let n: i64 = sqlx::query_scalar("SELECT COALESCE(MAX(seq) + 1, 0) FROM commands WHERE game_id = $1")
            .bind(id)
            .fetch_one(&self.pool)
            .await?;
        Ok(n.max(0) as u64)
    }

    pub async fn game(&self, id: &str) -> Result<Option<StoredGame>, sqlx::Error> {
        let Some(row) = sqlx::query(
            "SELECT kind, ruleset, rules, clock_limit_ms, clock_increment_ms, token_first, token_second, \
             created_unix_ms, token_arbiter, token_device, computer, clock_per_move_ms, rated, \
             (SELECT COUNT(*) FROM event_games WHERE event_games.game_id = games.id) FROM games WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(None);
        };
        let rows = sqlx::query("SELECT at_ms, side, command FROM commands WHERE game_id = $1 ORDER BY seq")
            .bind(id)
            .fetch_all(&self.pool)
            .await?;
        let mut commands = Vec::with_capacity(rows.len());
        for r in rows {
            let at: i64 = r.try_get(0)?;
            let side = match r.try_get::<String, _>(1)?.as_str() {
                "first" => Side::First,
                _ => Side::Second,
            };
            commands.push((at.max(0) as u64, side, r.try_get(2)?));
        }
        game_of(&row, commands).map(Some)
    }

    /// Starts the writer of the command log (one a server: see [`CommandLog`]).
    pub fn command_log(&self) -> CommandLog {
        let (queue, rx) = mpsc::channel(BATCH * 4);
        tokio::spawn(write_log(self.pool.clone(), rx, None));
        CommandLog { queue }
    }

    /// The command log of a cluster's node: every commit first checks that `lease` is still
    /// the node's (see [`crate::lease`]), and fails with [`crate::lease::FENCED`], writing
    /// nothing, once it is not.
    pub fn fenced_command_log(&self, lease: Lease) -> CommandLog {
        let (queue, rx) = mpsc::channel(BATCH * 4);
        tokio::spawn(write_log(self.pool.clone(), rx, Some((lease, self.postgres))));
        CommandLog { queue }
    }
}

fn game_of(row: &AnyRow, commands: Vec<(u64, Side, String)>) -> Result<StoredGame, sqlx::Error> {
    let kind: String = row.try_get(0)?;
    let kind = kind.parse::<Kind>().map_err(|e| sqlx::Error::Decode(e.into()))?;
    let limit: Option<i64> = row.try_get(3)?;
    let increment: Option<i64> = row.try_get(4)?;
    Ok(StoredGame {
        kind,
        ruleset: row.try_get(1)?,
        rules: row.try_get(2)?,
        clock: limit.zip(increment).map(|(l, i)| (l.max(0) as u64, i.max(0) as u64)),
        token_hashes: [row.try_get(5)?, row.try_get(6)?],
        created_unix_ms: row.try_get(7)?,
        arbiter_hash: row.try_get(8)?,
        device_hash: row.try_get(9)?,
        computer: row.try_get(10)?,
        per_move: row.try_get::<Option<i64>, _>(11)?.map(|p| p.max(0) as u64),
        rated: row.try_get::<i64, _>(12)? != 0,
        event: row.try_get::<i64, _>(13)? > 0,
        commands,
    })
}

/// The queue of the one task that writes every game's commands (see [`write_log`]).
#[derive(Clone)]
pub struct CommandLog {
    queue: mpsc::Sender<Append>,
}

/// Commands of one game to log together, and who waits for their commit.
struct Append {
    entries: Vec<Entry>,
    done: oneshot::Sender<Result<(), sqlx::Error>>,
}

/// Commands logged in one transaction at most (a few statements of [`ROWS_PER_INSERT`]).
const BATCH: usize = 1024;
/// Rows one INSERT carries (10 parameters each at most, far below either database's limit).
const ROWS_PER_INSERT: usize = 128;

impl CommandLog {
    /// Appends commands to a game's log, all or none; returns once they are committed.
    pub async fn append(&self, entries: Vec<Entry>) -> Result<(), sqlx::Error> {
        let (done, committed) = oneshot::channel();
        let closed = || sqlx::Error::PoolClosed;
        self.queue.send(Append { entries, done }).await.map_err(|_| closed())?;
        committed.await.map_err(|_| closed())?
    }
}

/// Group commit: one task writes every game's commands, each transaction taking all that
/// queued while the last one committed. A commit costs a disk flush whatever it holds, so
/// under load many moves share one flush, and with one game alone nothing waits for others.
async fn write_log(pool: AnyPool, mut queue: mpsc::Receiver<Append>, fence: Option<(Lease, bool)>) {
    let mut batch = Vec::with_capacity(BATCH);
    let mut held = None;
    while let Some(first) = queue.recv().await {
        let mut rows = first.entries.len();
        batch.push(first);
        while rows < BATCH {
            match queue.try_recv() {
                Ok(a) => {
                    rows += a.entries.len();
                    batch.push(a);
                }
                Err(_) => break,
            }
        }
        let all: Vec<&Entry> = batch.iter().flat_map(|a| &a.entries).collect();
        if commit(&pool, &mut held, &all, fence.as_ref()).await.is_ok() {
            for a in batch.drain(..) {
                let _ = a.done.send(Ok(()));
            }
            continue;
        }
        // One bad append must not fail the others': each alone, to say which.
        for a in batch.drain(..) {
            let one: Vec<&Entry> = a.entries.iter().collect();
            let _ = a.done.send(commit(&pool, &mut held, &one, fence.as_ref()).await);
        }
    }
}

/// Commits `entries`; `held` is the writer's own connection, kept between commits.
async fn commit(
    pool: &AnyPool,
    held: &mut Option<PoolConnection<Any>>,
    entries: &[&Entry],
    fence: Option<&(Lease, bool)>,
) -> Result<(), sqlx::Error> {
    if fence.is_none() && entries.len() <= ROWS_PER_INSERT {
        // One statement is a transaction of its own: one trip to the database's worker
        // instead of three (BEGIN, INSERT, COMMIT), each a wake-up of two threads. And the
        // connection is kept: the pool checks one it hands out with a trip of its own.
        let conn = match held {
            Some(conn) => conn,
            None => held.insert(pool.acquire().await?),
        };
        let r = insert_commands(conn, entries).await;
        // Whatever failed, the next commit starts from a connection the pool has checked; and
        // a pool of one (a database in memory) is never kept from the rest of the server.
        if r.is_err() || pool.options().get_max_connections() < 2 {
            *held = None;
        }
        return r;
    }
    if let Some((lease, true)) = fence.filter(|_| entries.len() <= ROWS_PER_INSERT) {
        // The check and the insert in one statement, a transaction of its own: one trip
        // instead of four (BEGIN, check, INSERT, COMMIT), with the same lock and order.
        let conn = match held {
            Some(conn) => conn,
            None => held.insert(pool.acquire().await?),
        };
        let r = insert_fenced(conn, lease, entries).await;
        if r.is_err() {
            *held = None;
        }
        return r;
    }
    let mut tx = pool.begin().await?;
    if let Some((lease, postgres)) = fence {
        crate::lease::check(&mut tx, *postgres, lease).await?;
    }
    insert_commands(&mut tx, entries).await?;
    tx.commit().await
}

/// PostgreSQL: `entries` inserted only if `lease` holds (see [`crate::lease::check`]), in one
/// statement; [`crate::lease::FENCED`] when it does not.
async fn insert_fenced(conn: &mut sqlx::AnyConnection, lease: &Lease, entries: &[&Entry]) -> Result<(), sqlx::Error> {
    // The check's UPDATE locks the node's row until the statement commits, as in a transaction.
    let sql = format!(
        "WITH held AS (UPDATE nodes SET epoch = epoch WHERE id = $1 AND epoch = $2 AND expires_unix_ms > {} \
         RETURNING epoch) \
         INSERT INTO commands (game_id, seq, at_ms, side, command) \
         SELECT v.* FROM (VALUES {}) AS v (game_id, seq, at_ms, side, command) WHERE EXISTS (SELECT 1 FROM held)",
        crate::lease::now_sql(true),
        values_from(entries.len(), 5, 2)
    );
    let q = bind_entries(sqlx::query(&sql).bind(&lease.node).bind(lease.epoch), entries);
    let inserted = q.execute(&mut *conn).await?.rows_affected();
    if inserted == 0 && !entries.is_empty() {
        return Err(sqlx::Error::Protocol(crate::lease::FENCED.into()));
    }
    Ok(())
}

async fn insert_commands(conn: &mut sqlx::AnyConnection, entries: &[&Entry]) -> Result<(), sqlx::Error> {
    for chunk in entries.chunks(ROWS_PER_INSERT) {
        let sql = format!(
            "INSERT INTO commands (game_id, seq, at_ms, side, command) VALUES {}",
            values(chunk.len(), 5)
        );
        bind_entries(sqlx::query(&sql), chunk).execute(&mut *conn).await?;
    }
    Ok(())
}

/// Binds each entry's five columns (game, seq, time, side, command), in the order the
/// statements' `VALUES` list them.
fn bind_entries<'q>(
    mut q: sqlx::query::Query<'q, Any, sqlx::any::AnyArguments<'q>>,
    entries: &[&'q Entry],
) -> sqlx::query::Query<'q, Any, sqlx::any::AnyArguments<'q>> {
    for (id, seq, at, side, command) in entries.iter().copied() {
        q = q
            .bind(&**id)
            .bind(*seq as i64)
            .bind(*at as i64)
            .bind(side_code(*side))
            .bind(command.as_str());
    }
    q
}

/// The placeholders of a multi-row INSERT: `($1, $2), ($3, $4)` for 2 rows of 2 columns.
fn values(rows: usize, columns: usize) -> String {
    values_from(rows, columns, 0)
}

/// [`values`] after `skip` parameters of the statement's own.
fn values_from(rows: usize, columns: usize, skip: usize) -> String {
    let row = |r: usize| {
        let params: Vec<String> = (1..=columns).map(|c| format!("${}", skip + r * columns + c)).collect();
        format!("({})", params.join(", "))
    };
    (0..rows).map(row).collect::<Vec<_>>().join(", ")
}

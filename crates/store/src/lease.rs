//! Who runs which game when several servers share one database (`arbiter serve --cluster`):
//! each node holds a lease it renews, and each live game names the node that owns it.
//!
//! Time is the database's clock, so nodes on different machines agree on when a lease ends.
//! Each time a node's lease is taken anew its epoch rises, and the node's command log checks
//! the epoch in every commit (see [`crate::Store::fenced_command_log`]): once another node has
//! taken a dead node's games over — which raises the dead node's epoch in the same transaction —
//! a node that was only paused (SIGSTOP, a long GC, a network partition) and wakes up writes
//! nothing. The check locks the node's row, so a commit and a takeover are ordered: a commit
//! that got in first is in the log the new owner replays.
//!
//! ```
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! let store = store::Store::memory().await.unwrap();
//! let a = store.join("a", 10_000).await.unwrap();
//! assert!(store.join("a", 10_000).await.is_err(), "held by a live node");
//! store.renew(&a, 10_000).await.unwrap();
//! assert_eq!(store.live_nodes().await.unwrap(), ["a"]);
//! # });
//! ```

use sqlx::Row;

use crate::Store;

/// A node's hold on its name: the epoch it was granted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lease {
    pub node: String,
    pub epoch: i64,
}

#[derive(Debug, thiserror::Error)]
pub enum LeaseError {
    #[error("node {0} is alive: its lease has not ended")]
    Held(String),
    #[error("node {0}'s lease was lost (expired, or taken over)")]
    Lost(String),
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
}

/// What a fenced commit fails with: the node's lease is not its own any more.
pub const FENCED: &str = "fenced: this node's lease ended or was taken over, so it may not write";

/// Whether a command log's error is [`FENCED`].
pub fn is_fenced(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Protocol(m) if m == FENCED)
}

/// Whose game a move of ownership takes.
enum From<'a> {
    Any,
    Node(&'a str),
    Nobody,
}

/// The database's clock in Unix milliseconds, as SQL.
pub(crate) fn now_sql(postgres: bool) -> &'static str {
    if postgres {
        "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)"
    } else {
        "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)"
    }
}

/// The check a fenced commit makes first, in its transaction: the lease is the node's and
/// alive. It locks the node's row (an UPDATE), so a takeover waits for the commit or the
/// commit sees the takeover.
pub(crate) async fn check(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    postgres: bool,
    lease: &Lease,
) -> Result<(), sqlx::Error> {
    let sql = format!(
        "UPDATE nodes SET epoch = epoch WHERE id = $1 AND epoch = $2 AND expires_unix_ms > {} RETURNING epoch",
        now_sql(postgres)
    );
    let held = sqlx::query(&sql)
        .bind(&lease.node)
        .bind(lease.epoch)
        .fetch_optional(&mut **tx)
        .await?;
    match held {
        Some(_) => Ok(()),
        None => Err(sqlx::Error::Protocol(FENCED.into())),
    }
}

impl Store {
    /// Takes node `node`'s lease for `ttl_ms`, at a new epoch: it is free, or its holder let it
    /// lapse (a dead node's name can be taken again once its lease ended).
    pub async fn join(&self, node: &str, ttl_ms: i64) -> Result<Lease, LeaseError> {
        let now = now_sql(self.postgres);
        let sql = format!(
            "INSERT INTO nodes (id, epoch, expires_unix_ms) VALUES ($1, 1, {now} + $2) \
             ON CONFLICT (id) DO UPDATE SET epoch = nodes.epoch + 1, expires_unix_ms = excluded.expires_unix_ms \
             WHERE nodes.expires_unix_ms <= {now} RETURNING epoch"
        );
        let row = sqlx::query(&sql)
            .bind(node)
            .bind(ttl_ms)
            .fetch_optional(&self.pool)
            .await?;
        match row {
            Some(r) => Ok(Lease {
                node: node.into(),
                epoch: r.try_get(0)?,
            }),
            None => Err(LeaseError::Held(node.into())),
        }
    }

    /// Extends the lease to `ttl_ms` from now, if it is still this epoch's and alive.
    pub async fn renew(&self, lease: &Lease, ttl_ms: i64) -> Result<(), LeaseError> {
        let now = now_sql(self.postgres);
        let sql = format!(
            "UPDATE nodes SET expires_unix_ms = {now} + $3 \
             WHERE id = $1 AND epoch = $2 AND expires_unix_ms > {now} RETURNING epoch"
        );
        let row = sqlx::query(&sql)
            .bind(&lease.node)
            .bind(lease.epoch)
            .bind(ttl_ms)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|_| ()).ok_or_else(|| LeaseError::Lost(lease.node.clone()))
    }

    /// Records the URL clients reach `lease`'s node at (kept across its later leases), so a
    /// game's answers can name its owner's. Lost when the lease is not alive.
    pub async fn advertise(&self, lease: &Lease, url: &str) -> Result<(), LeaseError> {
        let sql = format!(
            "UPDATE nodes SET url = $3 WHERE id = $1 AND epoch = $2 AND expires_unix_ms > {}",
            now_sql(self.postgres)
        );
        let done = sqlx::query(&sql)
            .bind(&lease.node)
            .bind(lease.epoch)
            .bind(url)
            .execute(&self.pool)
            .await?
            .rows_affected();
        if done == 0 {
            return Err(LeaseError::Lost(lease.node.clone()));
        }
        Ok(())
    }

    /// The live nodes by name, each with the URL it advertised (none before it said one).
    pub async fn node_urls(&self) -> Result<Vec<(String, Option<String>)>, sqlx::Error> {
        let sql = format!(
            "SELECT id, url FROM nodes WHERE expires_unix_ms > {} ORDER BY id",
            now_sql(self.postgres)
        );
        let rows = sqlx::query(&sql).fetch_all(&self.pool).await?;
        rows.iter().map(|r| Ok((r.try_get(0)?, r.try_get(1)?))).collect()
    }

    /// Ends the lease now (a node leaving after handing its games over), so nothing waits for
    /// it to run out.
    pub async fn leave(&self, lease: &Lease) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE nodes SET expires_unix_ms = 0 WHERE id = $1 AND epoch = $2")
            .bind(&lease.node)
            .bind(lease.epoch)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The nodes whose leases are alive, by name.
    pub async fn live_nodes(&self) -> Result<Vec<String>, sqlx::Error> {
        let sql = format!(
            "SELECT id FROM nodes WHERE expires_unix_ms > {} ORDER BY id",
            now_sql(self.postgres)
        );
        sqlx::query_scalar(&sql).fetch_all(&self.pool).await
    }

    /// Nodes whose leases ended while they still own unfinished games: whose games to take
    /// over.
    pub async fn dead_owners(&self) -> Result<Vec<String>, sqlx::Error> {
        let sql = format!(
            "SELECT DISTINCT g.owner FROM games g LEFT JOIN nodes n ON n.id = g.owner \
             WHERE g.finished = 0 AND g.owner IS NOT NULL \
             AND (n.id IS NULL OR n.expires_unix_ms <= {}) ORDER BY g.owner",
            now_sql(self.postgres)
        );
        sqlx::query_scalar(&sql).fetch_all(&self.pool).await
    }

    /// Takes the unfinished games of node `dead`, whose lease has ended, for `lease`'s node, in
    /// one transaction that also raises `dead`'s epoch (fencing it). Returns the games taken,
    /// to be rebuilt from their logs — read after this returns, so every commit the dead node
    /// made is in them. None when `dead` is alive or another node took them first.
    pub async fn take_over(&self, lease: &Lease, dead: &str) -> Result<Vec<String>, LeaseError> {
        let now = now_sql(self.postgres);
        let mut tx = self.pool.begin().await?;
        check(&mut tx, self.postgres, lease)
            .await
            .map_err(|_| LeaseError::Lost(lease.node.clone()))?;
        let fenced = sqlx::query(&format!(
            "UPDATE nodes SET epoch = epoch + 1 WHERE id = $1 AND expires_unix_ms <= {now} RETURNING epoch"
        ))
        .bind(dead)
        .fetch_optional(&mut *tx)
        .await?;
        let known: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM nodes WHERE id = $1")
            .bind(dead)
            .fetch_one(&mut *tx)
            .await?;
        if fenced.is_none() && known > 0 {
            return Ok(Vec::new());
        }
        let games: Vec<String> =
            sqlx::query_scalar("UPDATE games SET owner = $1 WHERE owner = $2 AND finished = 0 RETURNING id")
                .bind(&lease.node)
                .bind(dead)
                .fetch_all(&mut *tx)
                .await?;
        tx.commit().await?;
        Ok(games)
    }

    /// Names `lease`'s node the owner of game `id` (a game it creates or loads).
    pub async fn own_game(&self, lease: &Lease, id: &str) -> Result<(), LeaseError> {
        self.move_game(lease, id, From::Any, &lease.node).await
    }

    /// Names node `to` the owner of game `id` if no node owns it yet (a game just created, or
    /// one made before it had an owner), fenced like a commit. False when a node owns it:
    /// two nodes claiming one game cannot both get it.
    pub async fn place_game(&self, lease: &Lease, id: &str, to: &str) -> Result<bool, LeaseError> {
        match self.move_game(lease, id, From::Nobody, to).await {
            Ok(()) => Ok(true),
            Err(LeaseError::Held(_)) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Hands game `id`, owned by `lease`'s node, to node `to` (a node draining before it
    /// exits), fenced like a commit. False when the game is not this node's.
    pub async fn hand_over(&self, lease: &Lease, id: &str, to: &str) -> Result<bool, LeaseError> {
        match self.move_game(lease, id, From::Node(&lease.node), to).await {
            Ok(()) => Ok(true),
            Err(LeaseError::Held(_)) => Ok(false),
            Err(e) => Err(e),
        }
    }

    async fn move_game(&self, lease: &Lease, id: &str, from: From<'_>, to: &str) -> Result<(), LeaseError> {
        let mut tx = self.pool.begin().await?;
        check(&mut tx, self.postgres, lease)
            .await
            .map_err(|_| LeaseError::Lost(lease.node.clone()))?;
        let sql = match from {
            From::Node(_) => "UPDATE games SET owner = $1 WHERE id = $2 AND owner = $3",
            From::Nobody => "UPDATE games SET owner = $1 WHERE id = $2 AND owner IS NULL",
            From::Any => "UPDATE games SET owner = $1 WHERE id = $2",
        };
        let mut q = sqlx::query(sql).bind(to).bind(id);
        if let From::Node(from) = from {
            q = q.bind(from);
        }
        let moved = q.execute(&mut *tx).await?.rows_affected();
        if moved == 0 {
            return Err(LeaseError::Held(id.into()));
        }
        tx.commit().await?;
        Ok(())
    }

    /// The node that owns game `id`, if any.
    pub async fn owner(&self, id: &str) -> Result<Option<String>, sqlx::Error> {
        let owner: Option<Option<String>> = sqlx::query_scalar("SELECT owner FROM games WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(owner.flatten())
    }

    /// The unfinished games `node` owns.
    pub async fn owned_games(&self, node: &str) -> Result<Vec<String>, sqlx::Error> {
        sqlx::query_scalar("SELECT id FROM games WHERE owner = $1 AND finished = 0 ORDER BY id")
            .bind(node)
            .fetch_all(&self.pool)
            .await
    }
}

//! Players: sessions (one a browser, known by the hash of its cookie), accounts (a name and a
//! password hash), and the seats each holds. A seat is held by a session, or by an account once
//! the session signs in, so that any browser signed into the account finds it.

use sqlx::Row;

use crate::Store;

/// A session as stored: its display name and the account it is signed into.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    pub display_name: Option<String>,
    pub account: Option<String>,
    /// When it was last marked used ([`Store::touch_session`]).
    pub seen_unix_ms: i64,
}

/// A seat a session holds in a game not yet over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeldSeat {
    pub game_id: String,
    pub kind: String,
    /// `first` or `second`.
    pub side: String,
    pub token: String,
}

/// A game an account played: its row, and the side the account held.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayedGame {
    pub game_id: String,
    pub kind: String,
    pub side: String,
    pub finished: bool,
    /// How it ended (the referee's rule code), once over.
    pub result: Option<String>,
    /// `1-0`, `0-1` or `1/2-1/2`, once over with a result.
    pub outcome: Option<String>,
    pub created_unix_ms: i64,
    /// The account that held the other seat, if one did.
    pub opponent: Option<String>,
}

/// An account's standing in one rating list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerRating {
    pub list: String,
    pub system: String,
    /// The system's state as JSON text (see the ratings tables).
    pub state: String,
}

/// Why an account could not be made.
#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    #[error("the name {0:?} is taken")]
    Taken(String),
    #[error("{0}")]
    Db(#[from] sqlx::Error),
}

/// Who holds what a session holds: its account once signed in, else the session itself.
pub fn holder_of(id_hash: &str, session: &Session) -> String {
    match &session.account {
        Some(a) => account_holder(a),
        None => session_holder(id_hash),
    }
}

fn session_holder(hash: &str) -> String {
    format!("session:{hash}")
}

fn account_holder(name: &str) -> String {
    format!("account:{name}")
}

impl Store {
    pub async fn create_session(&self, id_hash: &str, now_unix_ms: i64) -> Result<(), sqlx::Error> {
        sqlx::query("INSERT INTO sessions (id_hash, created_unix_ms, seen_unix_ms) VALUES ($1, $2, $2)")
            .bind(id_hash)
            .bind(now_unix_ms)
            .execute(&self.pool)
            .await
            .map(|_| ())
    }

    pub async fn session(&self, id_hash: &str) -> Result<Option<Session>, sqlx::Error> {
        let row = sqlx::query("SELECT display_name, account, seen_unix_ms FROM sessions WHERE id_hash = $1")
            .bind(id_hash)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| {
            Ok(Session {
                display_name: r.try_get(0)?,
                account: r.try_get(1)?,
                seen_unix_ms: r.try_get(2)?,
            })
        })
        .transpose()
    }

    /// Marks session `id_hash` used at `now_unix_ms`.
    pub async fn touch_session(&self, id_hash: &str, now_unix_ms: i64) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE sessions SET seen_unix_ms = $1 WHERE id_hash = $2")
            .bind(now_unix_ms)
            .bind(id_hash)
            .execute(&self.pool)
            .await
            .map(|_| ())
    }

    /// Forgets the sessions last used before `unused_since`, with the seats they held alone,
    /// and the empty ones (no display name, account or seat) last used before `empty_since`;
    /// how many in all. An account's seats stay the account's.
    pub async fn forget_sessions(&self, unused_since: i64, empty_since: i64) -> Result<u64, sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "DELETE FROM held_seats WHERE holder IN \
             (SELECT 'session:' || id_hash FROM sessions WHERE seen_unix_ms < $1)",
        )
        .bind(unused_since)
        .execute(&mut *tx)
        .await?;
        let unused = sqlx::query("DELETE FROM sessions WHERE seen_unix_ms < $1")
            .bind(unused_since)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        let empty = sqlx::query(
            "DELETE FROM sessions WHERE seen_unix_ms < $1 AND display_name IS NULL AND account IS NULL \
             AND NOT EXISTS (SELECT 1 FROM held_seats h WHERE h.holder = 'session:' || sessions.id_hash)",
        )
        .bind(empty_since)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        tx.commit().await?;
        Ok(unused + empty)
    }

    pub async fn set_display_name(&self, id_hash: &str, name: &str) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE sessions SET display_name = $1 WHERE id_hash = $2")
            .bind(name)
            .bind(id_hash)
            .execute(&self.pool)
            .await
            .map(|_| ())
    }

    /// Signs session `old_hash` into `account` under a new id (`new_hash`: a session id is
    /// never the same before and after signing in), its display name kept and its seats
    /// handed to the account; all of it or nothing.
    pub async fn sign_in(
        &self,
        old_hash: &str,
        new_hash: &str,
        account: &str,
        now_unix_ms: i64,
    ) -> Result<(), sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        let name: Option<(Option<String>,)> = sqlx::query_as("SELECT display_name FROM sessions WHERE id_hash = $1")
            .bind(old_hash)
            .fetch_optional(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO sessions (id_hash, display_name, account, created_unix_ms, seen_unix_ms) VALUES ($1, $2, $3, $4, $4)",
        )
            .bind(new_hash)
            .bind(name.and_then(|(n,)| n))
            .bind(account)
            .bind(now_unix_ms)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO held_seats (holder, game_id, side, token, created_unix_ms) \
             SELECT $1, game_id, side, token, created_unix_ms FROM held_seats WHERE holder = $2 \
             ON CONFLICT DO NOTHING",
        )
        .bind(account_holder(account))
        .bind(session_holder(old_hash))
        .execute(&mut *tx)
        .await?;
        self.end_session_in(&mut tx, old_hash).await?;
        tx.commit().await
    }

    /// Ends a session: its row and the seats it held alone (an account's stay the account's).
    pub async fn end_session(&self, id_hash: &str) -> Result<(), sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        self.end_session_in(&mut tx, id_hash).await?;
        tx.commit().await
    }

    async fn end_session_in(&self, tx: &mut sqlx::AnyConnection, id_hash: &str) -> Result<(), sqlx::Error> {
        sqlx::query("DELETE FROM held_seats WHERE holder = $1")
            .bind(session_holder(id_hash))
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM sessions WHERE id_hash = $1")
            .bind(id_hash)
            .execute(&mut *tx)
            .await
            .map(|_| ())
    }

    /// Binds seat `side` of game `game_id` (its token `token`) to the session, or to its
    /// account when it is signed into one. Binding it again changes nothing.
    pub async fn hold_seat(
        &self,
        session: (&str, &Session),
        game_id: &str,
        side: &str,
        token: &str,
        now_unix_ms: i64,
    ) -> Result<(), sqlx::Error> {
        let holder = holder_of(session.0, session.1);
        self.hold_seat_as(&holder, game_id, side, token, now_unix_ms).await
    }

    /// The seats a session holds (itself or through its account) in games not yet over,
    /// newest first.
    pub async fn held_seats(&self, id_hash: &str, session: &Session) -> Result<Vec<HeldSeat>, sqlx::Error> {
        // No account: a holder no row has.
        let account = session.account.as_deref().map(account_holder).unwrap_or_default();
        let rows = sqlx::query(
            "SELECT DISTINCT s.game_id, g.kind, s.side, s.token, s.created_unix_ms FROM held_seats s \
             JOIN games g ON g.id = s.game_id \
             WHERE (s.holder = $1 OR s.holder = $2) AND g.finished = 0 \
             ORDER BY s.created_unix_ms DESC, s.game_id, s.side",
        )
        .bind(session_holder(id_hash))
        .bind(account)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(HeldSeat {
                    game_id: r.try_get(0)?,
                    kind: r.try_get(1)?,
                    side: r.try_get(2)?,
                    token: r.try_get(3)?,
                })
            })
            .collect()
    }

    /// A new account; [`AccountError::Taken`] when the name (in any case) is.
    pub async fn create_account(&self, name: &str, password_hash: &str, now_unix_ms: i64) -> Result<(), AccountError> {
        let r = sqlx::query(
            "INSERT INTO accounts (name, name_key, password_hash, created_unix_ms) VALUES ($1, $2, $3, $4)",
        )
        .bind(name)
        .bind(name.to_lowercase())
        .bind(password_hash)
        .bind(now_unix_ms)
        .execute(&self.pool)
        .await;
        match r {
            Ok(_) => Ok(()),
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Err(AccountError::Taken(name.into())),
            Err(e) => Err(e.into()),
        }
    }

    /// The account named `name` in any case: its name as made and its password hash.
    pub async fn account(&self, name: &str) -> Result<Option<(String, String)>, sqlx::Error> {
        sqlx::query_as("SELECT name, password_hash FROM accounts WHERE name_key = $1")
            .bind(name.to_lowercase())
            .fetch_optional(&self.pool)
            .await
    }

    /// The games account `name` (as made) held a seat in, newest first, `limit` at most.
    pub async fn played_games(&self, name: &str, limit: u32) -> Result<Vec<PlayedGame>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT g.id, g.kind, s.side, g.finished, g.result, g.created_unix_ms, g.outcome, \
             (SELECT MIN(o.holder) FROM held_seats o WHERE o.game_id = g.id AND o.side <> s.side \
              AND o.holder LIKE 'account:%') \
             FROM held_seats s JOIN games g ON g.id = s.game_id WHERE s.holder = $1 \
             ORDER BY g.created_unix_ms DESC, g.id, s.side LIMIT $2",
        )
        .bind(account_holder(name))
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let finished: i64 = r.try_get(3)?;
                let opponent: Option<String> = r.try_get(7)?;
                Ok(PlayedGame {
                    game_id: r.try_get(0)?,
                    kind: r.try_get(1)?,
                    side: r.try_get(2)?,
                    finished: finished != 0,
                    result: r.try_get(4)?,
                    created_unix_ms: r.try_get(5)?,
                    outcome: r.try_get(6)?,
                    opponent: opponent.map(|h| h.trim_start_matches("account:").to_string()),
                })
            })
            .collect()
    }

    /// Player `name`'s standing in each rating list that has them.
    pub async fn player_ratings(&self, name: &str) -> Result<Vec<PlayerRating>, sqlx::Error> {
        let rows = sqlx::query(
            "SELECT r.list, l.system, r.state FROM ratings r JOIN rating_lists l ON l.name = r.list \
             WHERE r.player = $1 ORDER BY r.list",
        )
        .bind(name)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(PlayerRating {
                    list: r.try_get(0)?,
                    system: r.try_get(1)?,
                    state: r.try_get(2)?,
                })
            })
            .collect()
    }
}

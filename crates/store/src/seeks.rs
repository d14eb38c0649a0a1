//! Finding an opponent: seeks listed in the lobby, challenges by link, and rematch offers, one
//! table for the three (see migration 0013). Every acceptance is one conditional UPDATE (`taker`
//! set only where none is), so of two accepters on any node of a cluster exactly one wins.

use sqlx::any::AnyRow;
use sqlx::Row;

use crate::Store;

/// A seek, challenge or rematch offer as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seek {
    pub id: String,
    /// `seek`, `challenge` or `rematch`.
    pub mode: String,
    /// Who made it: `session:HASH` or `account:NAME`.
    pub holder: String,
    /// The name shown for its maker, if they gave one.
    pub name: Option<String>,
    pub kind: String,
    /// The time control's preset name.
    pub time_control: String,
    pub rated: bool,
    /// `first`, `second` or `random`: the seat the maker asked for.
    pub colour: String,
    /// A rematch's finished game.
    pub source_game: Option<String>,
    /// The game it made, once made.
    pub game_id: Option<String>,
    /// The maker's seat in that game (`first`/`second`).
    pub holder_side: Option<String>,
    /// A challenge's free seat's token, until it is taken.
    pub open_token: Option<String>,
    /// Who accepted it.
    pub taker: Option<String>,
    pub created_unix_ms: i64,
    pub seen_unix_ms: i64,
}

/// A seek to store.
pub struct NewSeek<'a> {
    pub id: &'a str,
    pub mode: &'a str,
    pub holder: &'a str,
    pub name: Option<&'a str>,
    pub kind: &'a str,
    pub time_control: &'a str,
    pub rated: bool,
    pub colour: &'a str,
    pub source_game: Option<&'a str>,
    /// A challenge's game, made with it, with the maker's side and the free seat's token.
    pub game: Option<(&'a str, &'a str, &'a str)>,
    pub now_unix_ms: i64,
}

const COLUMNS: &str = "id, mode, holder, name, kind, time_control, rated, colour, source_game, game_id, \
                       holder_side, open_token, taker, created_unix_ms, seen_unix_ms";

fn seek_of(r: &AnyRow) -> Result<Seek, sqlx::Error> {
    let rated: i64 = r.try_get(6)?;
    Ok(Seek {
        id: r.try_get(0)?,
        mode: r.try_get(1)?,
        holder: r.try_get(2)?,
        name: r.try_get(3)?,
        kind: r.try_get(4)?,
        time_control: r.try_get(5)?,
        rated: rated != 0,
        colour: r.try_get(7)?,
        source_game: r.try_get(8)?,
        game_id: r.try_get(9)?,
        holder_side: r.try_get(10)?,
        open_token: r.try_get(11)?,
        taker: r.try_get(12)?,
        created_unix_ms: r.try_get(13)?,
        seen_unix_ms: r.try_get(14)?,
    })
}

impl Store {
    /// Stores a seek; `Ok(false)` when one with its rematch's game already is (one offer a
    /// game).
    pub async fn create_seek(&self, s: &NewSeek<'_>) -> Result<bool, sqlx::Error> {
        let r = sqlx::query(&format!(
            "INSERT INTO seeks ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, NULL, $13, $14)"
        ))
        .bind(s.id)
        .bind(s.mode)
        .bind(s.holder)
        .bind(s.name)
        .bind(s.kind)
        .bind(s.time_control)
        .bind(i64::from(s.rated))
        .bind(s.colour)
        .bind(s.source_game)
        .bind(s.game.map(|g| g.0))
        .bind(s.game.map(|g| g.1))
        .bind(s.game.map(|g| g.2))
        .bind(s.now_unix_ms)
        .bind(s.now_unix_ms)
        .execute(&self.pool)
        .await;
        match r {
            Ok(_) => Ok(true),
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() && s.source_game.is_some() => Ok(false),
            Err(e) => Err(e),
        }
    }

    pub async fn seek(&self, id: &str) -> Result<Option<Seek>, sqlx::Error> {
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM seeks WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(seek_of).transpose()
    }

    /// The rematch offer on finished game `game`, if one was made.
    pub async fn rematch_of(&self, game: &str) -> Result<Option<Seek>, sqlx::Error> {
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM seeks WHERE source_game = $1"))
            .bind(game)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(seek_of).transpose()
    }

    /// The lobby's seeks, oldest first: the open ones seen since `since_unix_ms` (the others
    /// are dropped: their seekers' lobbies are gone), and `holder`'s own, open or accepted.
    /// `holder`'s own are marked seen at `now_unix_ms`: its lobby is the one asking.
    pub async fn lobby_seeks(
        &self,
        holder: &str,
        since_unix_ms: i64,
        now_unix_ms: i64,
    ) -> Result<Vec<Seek>, sqlx::Error> {
        sqlx::query("DELETE FROM seeks WHERE mode = 'seek' AND taker IS NULL AND seen_unix_ms < $1")
            .bind(since_unix_ms)
            .execute(&self.pool)
            .await?;
        sqlx::query("UPDATE seeks SET seen_unix_ms = $1 WHERE mode = 'seek' AND holder = $2 AND taker IS NULL")
            .bind(now_unix_ms)
            .bind(holder)
            .execute(&self.pool)
            .await?;
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM seeks WHERE mode = 'seek' AND (taker IS NULL OR holder = $1) \
             ORDER BY created_unix_ms, id"
        ))
        .bind(holder)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(seek_of).collect()
    }

    /// Takes seek `id` for `taker` if it is open (no taker yet), was seen since `since_unix_ms`
    /// and is not `taker`'s own; whether this call took it. Of two takers, one does.
    pub async fn take_seek(&self, id: &str, taker: &str, since_unix_ms: i64) -> Result<bool, sqlx::Error> {
        sqlx::query(
            "UPDATE seeks SET taker = $1 WHERE id = $2 AND taker IS NULL AND holder <> $3 AND seen_unix_ms >= $4",
        )
        .bind(taker)
        .bind(id)
        .bind(taker)
        .bind(since_unix_ms)
        .execute(&self.pool)
        .await
        .map(|r| r.rows_affected() == 1)
    }

    /// Gives a taken seek back (its game could not be made).
    pub async fn release_seek(&self, id: &str, taker: &str) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE seeks SET taker = NULL WHERE id = $1 AND taker = $2 AND game_id IS NULL")
            .bind(id)
            .bind(taker)
            .execute(&self.pool)
            .await
            .map(|_| ())
    }

    /// Records the game a taken seek made and its maker's side.
    pub async fn seek_made(&self, id: &str, game: &str, holder_side: &str) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE seeks SET game_id = $1, holder_side = $2 WHERE id = $3")
            .bind(game)
            .bind(holder_side)
            .bind(id)
            .execute(&self.pool)
            .await
            .map(|_| ())
    }

    /// Takes a challenge's free seat for `taker`: its token, or `None` when it was taken (or
    /// is `taker`'s own). Of two takers, one gets it.
    pub async fn take_challenge(&self, id: &str, taker: &str) -> Result<Option<String>, sqlx::Error> {
        let Some(seek) = self.seek(id).await? else {
            return Ok(None);
        };
        let took = sqlx::query(
            "UPDATE seeks SET taker = $1, open_token = NULL WHERE id = $2 AND mode = 'challenge' \
             AND taker IS NULL AND holder <> $3",
        )
        .bind(taker)
        .bind(id)
        .bind(taker)
        .execute(&self.pool)
        .await?
        .rows_affected()
            == 1;
        Ok(if took { seek.open_token } else { None })
    }

    /// Deletes `holder`'s seek or offer `id` if nobody has taken it; whether it did.
    pub async fn cancel_seek(&self, id: &str, holder: &str) -> Result<bool, sqlx::Error> {
        sqlx::query("DELETE FROM seeks WHERE id = $1 AND holder = $2 AND taker IS NULL AND mode <> 'challenge'")
            .bind(id)
            .bind(holder)
            .execute(&self.pool)
            .await
            .map(|r| r.rows_affected() == 1)
    }

    /// Forgets a seek whose game its seeker has been sent to.
    pub async fn delivered_seek(&self, id: &str) -> Result<(), sqlx::Error> {
        sqlx::query("DELETE FROM seeks WHERE id = $1 AND mode = 'seek' AND game_id IS NOT NULL")
            .bind(id)
            .execute(&self.pool)
            .await
            .map(|_| ())
    }

    /// Binds seat `side` of `game_id` to `holder` (`session:HASH` or `account:NAME`).
    pub async fn hold_seat_as(
        &self,
        holder: &str,
        game_id: &str,
        side: &str,
        token: &str,
        now_unix_ms: i64,
    ) -> Result<(), sqlx::Error> {
        sqlx::query(
            "INSERT INTO held_seats (holder, game_id, side, token, created_unix_ms) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT DO NOTHING",
        )
        .bind(holder)
        .bind(game_id)
        .bind(side)
        .bind(token)
        .bind(now_unix_ms)
        .execute(&self.pool)
        .await
        .map(|_| ())
    }

    /// Who holds each seat of `game_id`: (holder, side `first`/`second`), in order.
    pub async fn seat_holders(&self, game_id: &str) -> Result<Vec<(String, String)>, sqlx::Error> {
        sqlx::query_as("SELECT holder, side FROM held_seats WHERE game_id = $1 ORDER BY side, created_unix_ms, holder")
            .bind(game_id)
            .fetch_all(&self.pool)
            .await
    }

    /// Marks a game rated (or not).
    pub async fn set_rated(&self, game_id: &str, rated: bool) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE games SET rated = $1 WHERE id = $2")
            .bind(i64::from(rated))
            .bind(game_id)
            .execute(&self.pool)
            .await
            .map(|_| ())
    }

    /// Whether game `id` is over and whether it is rated; `None`: no such game.
    pub async fn game_terms(&self, id: &str) -> Result<Option<(bool, bool)>, sqlx::Error> {
        let row: Option<(i64, i64)> = sqlx::query_as("SELECT finished, rated FROM games WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|(f, r)| (f != 0, r != 0)))
    }
}

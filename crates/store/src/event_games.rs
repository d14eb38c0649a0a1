//! Which live game each game of a served event's pairing is played as, and whether its result
//! has been entered into the event: linked as the game is made, marked entered with the
//! result (in the event's own transaction, [`crate::Also::Entered`]) or on its own when the
//! result was not needed.

use sqlx::Row;

use crate::events::EventError;
use crate::Store;

/// A game of a pairing, played as live game `game_id`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventGame {
    pub event: String,
    pub pairing: String,
    /// Its number in the pairing's match, from 1 (play-off games follow the match's).
    pub game: u32,
    pub game_id: String,
    pub entered: bool,
}

impl Store {
    /// Marks games of pairings entered without changing the event (their results were not
    /// needed: the pairing was decided otherwise, e.g. by a withdrawal), in one transaction.
    pub async fn mark_entered(&self, name: &str, games: &[(&str, u32)]) -> Result<(), EventError> {
        let mut tx = self.pool.begin().await?;
        for (pairing, game) in games {
            mark_entered_in(&mut tx, name, pairing, *game).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Records that game `game` of pairing `pairing` is played as live game `game_id`.
    pub async fn link_event_game(&self, name: &str, pairing: &str, game: u32, game_id: &str) -> Result<(), EventError> {
        sqlx::query("INSERT INTO event_games (event, pairing, game, game_id, entered) VALUES ($1, $2, $3, $4, 0)")
            .bind(name)
            .bind(pairing)
            .bind(i64::from(game))
            .bind(game_id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The event's live games, by pairing and game.
    pub async fn event_games(&self, name: &str) -> Result<Vec<EventGame>, EventError> {
        let rows = sqlx::query(
            "SELECT event, pairing, game, game_id, entered FROM event_games WHERE event = $1 ORDER BY pairing, game",
        )
        .bind(name)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(event_game).collect()
    }

    /// The live games of one pairing of the event, by game.
    pub async fn pairing_games(&self, name: &str, pairing: &str) -> Result<Vec<EventGame>, EventError> {
        let rows = sqlx::query(
            "SELECT event, pairing, game, game_id, entered FROM event_games WHERE event = $1 AND pairing = $2 \
             ORDER BY game",
        )
        .bind(name)
        .bind(pairing)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(event_game).collect()
    }

    /// Every event game, of any event, whose result is not entered yet.
    pub async fn unentered_event_games(&self) -> Result<Vec<EventGame>, EventError> {
        let rows = sqlx::query(
            "SELECT event, pairing, game, game_id, entered FROM event_games WHERE entered = 0 \
             ORDER BY event, pairing, game",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(event_game).collect()
    }
}

fn event_game(r: &sqlx::any::AnyRow) -> Result<EventGame, EventError> {
    Ok(EventGame {
        event: r.try_get(0)?,
        pairing: r.try_get(1)?,
        game: r.try_get::<i64, _>(2)? as u32,
        game_id: r.try_get(3)?,
        entered: r.try_get::<i64, _>(4)? != 0,
    })
}

pub(crate) async fn mark_entered_in(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    name: &str,
    pairing: &str,
    game: u32,
) -> Result<(), EventError> {
    sqlx::query("UPDATE event_games SET entered = 1 WHERE event = $1 AND pairing = $2 AND game = $3")
        .bind(name)
        .bind(pairing)
        .bind(i64::from(game))
        .execute(&mut **tx)
        .await?;
    Ok(())
}

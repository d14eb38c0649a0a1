//! The games to watch: those being played now outside any event, newest first, each seat
//! named as its holder chose (an account's name, a session's display name) where it has one.

use sqlx::Row;

use crate::Store;

/// A game being played, as the lobby lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveGame {
    pub game_id: String,
    pub kind: String,
    pub created_unix_ms: i64,
    /// The seat the computer plays and its level (`second:4`), if it plays one.
    pub computer: Option<String>,
    /// Each seat's holder's name, first then second, where a holder has one.
    pub names: [Option<String>; 2],
}

/// A seat's holder's name: the account's, else the session's display name.
const SEAT_NAME: &str = "(SELECT COALESCE(MIN(CASE WHEN h.holder LIKE 'account:%' THEN substr(h.holder, 9) END), \
     MIN(s.display_name)) FROM held_seats h LEFT JOIN sessions s ON h.holder = 'session:' || s.id_hash \
     WHERE h.game_id = g.id AND h.side = ";

impl Store {
    /// Up to `limit` games not over, outside events, in which a move has been made (a game
    /// nobody has started is nothing to watch), newest first.
    pub async fn live_games(&self, limit: u32) -> Result<Vec<LiveGame>, sqlx::Error> {
        let sql = format!(
            "SELECT g.id, g.kind, g.created_unix_ms, g.computer, {SEAT_NAME}'first'), {SEAT_NAME}'second') \
             FROM games g WHERE g.finished = 0 \
             AND NOT EXISTS (SELECT 1 FROM event_games e WHERE e.game_id = g.id) \
             AND EXISTS (SELECT 1 FROM commands c WHERE c.game_id = g.id) \
             ORDER BY g.created_unix_ms DESC, g.id LIMIT $1"
        );
        let rows = sqlx::query(&sql).bind(i64::from(limit)).fetch_all(&self.pool).await?;
        rows.iter()
            .map(|r| {
                Ok(LiveGame {
                    game_id: r.try_get(0)?,
                    kind: r.try_get(1)?,
                    created_unix_ms: r.try_get(2)?,
                    computer: r.try_get(3)?,
                    names: [r.try_get(4)?, r.try_get(5)?],
                })
            })
            .collect()
    }

    /// Game `game_id`'s seat holders' names, first then second, where a holder has one (see
    /// [`LiveGame::names`]).
    pub async fn seat_names(&self, game_id: &str) -> Result<[Option<String>; 2], sqlx::Error> {
        let sql = format!("SELECT {SEAT_NAME}'first'), {SEAT_NAME}'second') FROM games g WHERE g.id = $1");
        let row = sqlx::query(&sql).bind(game_id).fetch_optional(&self.pool).await?;
        match row {
            Some(r) => Ok([r.try_get(0)?, r.try_get(1)?]),
            None => Ok([None, None]),
        }
    }
}

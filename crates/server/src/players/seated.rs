//! Who sits at a game's seats, as the pages, the streams and the records name them: each
//! holder's account or display name, or the computer and its level.

use game::{BySide, Kind, Side};
use serde_json::{json, Value};

use crate::app::App;
use crate::computer::ComputerSeat;
use crate::error::ApiError;
use crate::table::Table;

pub struct Seated {
    /// Each holder's name, where the holder has one.
    pub names: BySide<Option<String>>,
    pub computer: Option<ComputerSeat>,
}

impl Seated {
    /// The seats of `table`, read from the database (any node may answer: it is shared).
    pub async fn of(app: &App, table: &Table) -> Result<Seated, ApiError> {
        Ok(Seated {
            names: app.db().store().seat_names(&table.id).await?.into(),
            computer: table.computer,
        })
    }

    fn computer_at(&self, side: Side) -> Option<ComputerSeat> {
        self.computer.filter(|c| c.side == side)
    }

    /// A seat for the lobby's list: `{"side", "name"}`, or `{"side", "computer": level}`.
    pub fn listed(&self, kind: Kind, side: Side) -> Value {
        match self.computer_at(side) {
            Some(c) => json!({ "side": side.name(kind), "computer": c.level.number() }),
            None => json!({ "side": side.name(kind), "name": self.names[side] }),
        }
    }

    /// A seat as lichess's `gameFull` gives a player (`white`, `black`): `{"name"}` for a
    /// person (`null` when anonymous), `{"aiLevel"}` for the computer.
    pub fn player(&self, side: Side) -> Value {
        match self.computer_at(side) {
            Some(c) => json!({ "aiLevel": c.level.number(), "name": Value::Null }),
            None => json!({ "name": self.names[side] }),
        }
    }

    /// The names a record gives the players (PGN `White`/`Red` and `Black`): the computer as
    /// `Computer level N`.
    pub fn record_names(&self) -> [Option<String>; 2] {
        BySide::new(|side| match self.computer_at(side) {
            Some(c) => Some(format!("Computer level {}", c.level.number())),
            None => self.names[side].clone(),
        })
        .into()
    }

    /// A `gameFull` line with the players added as `white` and `black` (the first and second
    /// player, Red being `white` in Xiangqi as in the rest of the stream).
    pub fn into_full(&self, line: String) -> String {
        let Ok(mut full) = serde_json::from_str::<Value>(&line) else {
            return line;
        };
        full["white"] = self.player(Side::First);
        full["black"] = self.player(Side::Second);
        full.to_string()
    }
}

//! Which seat of a game the computer plays, and at what level: made with the game, kept with
//! it in the database, so that the server that runs the game after a restart or a takeover
//! puts the computer back in its seat.

use game::Side;

use super::Level;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ComputerSeat {
    pub side: Side,
    pub level: Level,
}

impl ComputerSeat {
    /// As the database keeps it: `second:4`.
    pub fn code(self) -> String {
        let side = match self.side {
            Side::First => "first",
            Side::Second => "second",
        };
        format!("{side}:{}", self.level.number())
    }

    /// Reads [`ComputerSeat::code`] back; `None` for anything else.
    pub fn parse(code: &str) -> Option<ComputerSeat> {
        let (side, level) = code.split_once(':')?;
        let side = match side {
            "first" => Side::First,
            "second" => Side::Second,
            _ => return None,
        };
        let level = Level::new(level.parse().ok()?).ok()?;
        Some(ComputerSeat { side, level })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_read_back() {
        for side in Side::BOTH {
            for n in 1..=Level::MAX {
                let seat = ComputerSeat {
                    side,
                    level: Level::new(n).unwrap(),
                };
                assert_eq!(ComputerSeat::parse(&seat.code()), Some(seat));
            }
        }
        for bad in ["", "second", "second:0", "second:9", "third:1", "first:x", "first:1:2"] {
            assert_eq!(ComputerSeat::parse(bad), None, "{bad:?}");
        }
    }
}

//! The player lines (`001`) of a FIDE Tournament Report File (TRF16 / TRF-2026): start number,
//! name, rating, points, and one 10-column block a round: opponent (`0000` for none), colour
//! (`w`, `b`, `-`) and result.
//!
//! Results: `1` `0` `=` played; `+` `-` forfeit win and loss; `U` pairing-allocated bye (a
//! point here, as in the files FIDE's tools write); `F` full-point bye; `H` half-point bye; `Z`
//! zero-point bye; a blank round counts as `Z` (rounds after a withdrawal).

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Colour {
    White,
    Black,
    None,
}

/// One round of one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Round {
    /// The opponent's start number; 0 for none.
    pub opponent: u32,
    pub colour: Colour,
    pub result: char,
}

impl Round {
    /// Played over the board.
    pub fn played(&self) -> bool {
        self.opponent != 0 && matches!(self.result, '1' | '0' | '=' | 'W' | 'D' | 'L')
    }

    /// Points awarded (wins and full byes 1, draws and half byes ½).
    pub fn points(&self) -> f64 {
        match self.result {
            '1' | '+' | 'U' | 'F' | 'W' => 1.0,
            '=' | 'H' | 'D' => 0.5,
            _ => 0.0,
        }
    }

    /// A voluntary unplayed round (C.07 16.2): a requested bye or a forfeit loss.
    pub fn voluntary_unplayed(&self) -> bool {
        matches!(self.result, 'H' | 'Z' | '-')
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Player {
    pub number: u32,
    pub name: String,
    pub rating: u32,
    pub points: f64,
    pub rounds: Vec<Round>,
}

/// A TRF's players, in start-number order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Trf {
    pub players: Vec<Player>,
}

/// A line that does not read, with its number and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrfError {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for TrfError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TRF line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for TrfError {}

fn field(line: &str, from: usize, to: usize) -> &str {
    line.get(from.min(line.len())..to.min(line.len())).unwrap_or("").trim()
}

impl Trf {
    /// Reads the `001` lines (other record types are skipped: they do not change tie-breaks).
    pub fn parse(text: &str) -> Result<Trf, TrfError> {
        let mut players = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if !line.starts_with("001") {
                continue;
            }
            let err = |message: String| TrfError { line: i + 1, message };
            let number = field(line, 4, 8)
                .parse()
                .map_err(|_| err("no start number in columns 5-8".into()))?;
            let rating = field(line, 48, 52).parse().unwrap_or(0);
            let points = field(line, 80, 84).parse().unwrap_or(0.0);
            let mut rounds = Vec::new();
            let mut col = 91;
            while col < line.len() {
                let block = line.get(col..(col + 8).min(line.len())).unwrap_or("");
                let opp = field(block, 0, 4);
                let opponent = if opp.is_empty() {
                    0
                } else {
                    opp.parse().map_err(|_| err(format!("bad opponent {opp:?}")))?
                };
                let colour = match field(block, 5, 6) {
                    "w" => Colour::White,
                    "b" => Colour::Black,
                    _ => Colour::None,
                };
                let result = field(block, 7, 8).chars().next().unwrap_or('Z');
                rounds.push(Round {
                    opponent,
                    colour,
                    result,
                });
                col += 10;
            }
            players.push(Player {
                number,
                name: field(line, 14, 47).to_string(),
                rating,
                points,
                rounds,
            });
        }
        players.sort_by_key(|p| p.number);
        let rounds = players.iter().map(|p| p.rounds.len()).max().unwrap_or(0);
        for p in &mut players {
            // Rounds missing at the end (a withdrawal) are zero-point byes.
            p.rounds.resize(
                rounds,
                Round {
                    opponent: 0,
                    colour: Colour::None,
                    result: 'Z',
                },
            );
        }
        Ok(Trf { players })
    }

    pub fn player(&self, number: u32) -> Option<&Player> {
        self.players.iter().find(|p| p.number == number)
    }
}

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
    /// Columns 54–56: the federation (or, in national events, the player's unit).
    pub federation: String,
    pub points: f64,
    pub rounds: Vec<Round>,
    /// Round columns written in the file (those after are filled in as `Z`): an unwritten
    /// column of the round to be paired means the player is to be paired.
    #[serde(skip)]
    pub written: usize,
}

/// A TRF's players, in start-number order, and its other records kept as they were (the
/// tournament's name, dates, arbiters, tie-break list …) so a file is written back whole.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Trf {
    pub players: Vec<Player>,
    pub other: Vec<String>,
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
        let mut other = Vec::new();
        // FIDE's tools and bbpPairings end lines with a bare CR; others with LF or CRLF.
        let text = text.replace("\r\n", "\n");
        for (i, line) in text.split(['\n', '\r']).enumerate() {
            if !line.starts_with("001") {
                if !line.trim().is_empty() {
                    other.push(line.to_string());
                }
                continue;
            }
            let err = |message: String| TrfError { line: i + 1, message };
            let number = field(line, 4, 8)
                .parse()
                .map_err(|_| err("no start number in columns 5-8".into()))?;
            let rating = field(line, 48, 52).parse().unwrap_or(0);
            let points = field(line, 80, 84).parse().unwrap_or(0.0);
            let mut rounds = Vec::new();
            let mut written = 0;
            let mut col = 91;
            while col < line.len() {
                let block = line.get(col..(col + 8).min(line.len())).unwrap_or("");
                if !block.trim().is_empty() {
                    written = rounds.len() + 1;
                }
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
                // A paired game without a result yet (an event in progress) keeps a blank.
                let blank = if opponent != 0 { ' ' } else { 'Z' };
                let result = field(block, 7, 8).chars().next().unwrap_or(blank);
                rounds.push(Round {
                    opponent,
                    colour,
                    result,
                });
                col += 10;
            }
            players.push(Player {
                written,
                number,
                name: field(line, 14, 47).to_string(),
                federation: field(line, 53, 56).to_string(),
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
        Ok(Trf { players, other })
    }

    /// The file again: the other records first, then one `001` line a player in the standard
    /// columns (start number 5–8, name 15–47, rating 49–52, points 81–84, rank 86–89, rounds
    /// from 92, ten columns each). `rank` gives each player's place, if known.
    pub fn write(&self, rank: impl Fn(u32) -> Option<usize>) -> String {
        let mut out = String::new();
        for line in &self.other {
            out.push_str(line);
            out.push('\n');
        }
        for p in &self.players {
            let mut line = format!("001 {:>4}      {:<33}", p.number, p.name);
            // The name field ends at column 47 (a character boundary, for names in Chinese).
            let end = (0..=47.min(line.len()))
                .rev()
                .find(|&i| line.is_char_boundary(i))
                .unwrap_or(0);
            line.truncate(end);
            line.push_str(&format!(
                " {:>4}",
                if p.rating > 0 {
                    p.rating.to_string()
                } else {
                    String::new()
                }
            ));
            if !p.federation.is_empty() {
                line.push_str(&format!(" {:<3}", p.federation));
            }
            while line.len() < 80 {
                line.push(' ');
            }
            line.push_str(&format!("{:>4.1}", p.points));
            line.push_str(&format!(
                " {:>4}",
                rank(p.number).map_or(String::new(), |r| r.to_string())
            ));
            for r in &p.rounds {
                let opp = if r.opponent == 0 {
                    "0000".to_string()
                } else {
                    format!("{:>4}", r.opponent)
                };
                let colour = match r.colour {
                    Colour::White => 'w',
                    Colour::Black => 'b',
                    Colour::None => '-',
                };
                line.push_str(&format!("  {opp} {colour} {}", r.result));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }

    pub fn player(&self, number: u32) -> Option<&Player> {
        self.players.iter().find(|p| p.number == number)
    }
}

//! The player lines (`001`) of a FIDE Tournament Report File (TRF16 / TRF-2026): start number,
//! name, rating, points, and one 10-column block a round: opponent (`0000` for none), colour
//! (`w`, `b`, `-`) and result.
//!
//! The TRF is the edge: results are read into [`RoundResult`]s here (the letters are in
//! [`codes`]), and a `U` bye counts a point, as in the files FIDE's tools write.
//!
//! Other records are kept as lines; [`Trf::record`] and [`Trf::set_records`] read and replace
//! them by code, and the records an event keeps have typed accessors ([`records`]).

use serde::Serialize;

use crate::result::RoundResult;

pub mod codes;
pub(crate) mod pairing;
pub mod records;

pub use records::RequestedBye;

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
    pub result: RoundResult,
}

impl Round {
    /// A round without an opponent.
    pub fn bye(result: RoundResult) -> Round {
        Round {
            opponent: 0,
            colour: Colour::None,
            result,
        }
    }

    /// Played over the board.
    pub fn played(&self) -> bool {
        self.opponent != 0 && self.result.is_game()
    }

    /// Points awarded (wins and full byes 1, draws and half byes ½).
    pub fn points(&self) -> f64 {
        self.result.points()
    }

    /// A voluntary unplayed round (C.07 16.2): a requested bye or a forfeit loss.
    pub fn voluntary_unplayed(&self) -> bool {
        self.result.voluntary_unplayed()
    }

    /// The player was paired this round: a game (or a forfeit) against an opponent, or the
    /// pairing-allocated bye (a forfeit win without an opponent counts as one too).
    pub fn paired(&self) -> bool {
        self.opponent != 0
            || matches!(
                self.result,
                RoundResult::Bye(crate::result::Bye::PairingAllocated) | RoundResult::ForfeitWin
            )
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
    /// Reads the `001` lines; other records are kept as lines (the `240` byes are checked).
    pub fn parse(text: &str) -> Result<Trf, TrfError> {
        let mut players = Vec::new();
        let mut other = Vec::new();
        // FIDE's tools and bbpPairings end lines with a bare CR; others with LF or CRLF.
        let text = text.replace("\r\n", "\n");
        for (i, line) in text.split(['\n', '\r']).enumerate() {
            if !line.starts_with("001") {
                if line.starts_with("240") {
                    records::read_byes(line).map_err(|message| TrfError { line: i + 1, message })?;
                }
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
                let colour = codes::colour_of(field(block, 5, 6));
                // A paired game without a result yet (an event in progress) keeps a blank.
                let letter = field(block, 7, 8).chars().next().unwrap_or(' ');
                let result = codes::result_of(letter, opponent != 0).ok_or_else(|| {
                    err(format!(
                        "round {}: unknown result {letter:?} (1 0 = W D L + - U F H Z, or blank)",
                        rounds.len() + 1
                    ))
                })?;
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
            p.rounds
                .resize(rounds, Round::bye(RoundResult::Bye(crate::result::Bye::Zero)));
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
            // Columns past the last one written stay blank (a blank reads back as `Z`, except
            // in the round to be paired next, where a written `Z` would keep the player out).
            for r in &p.rounds[..p.written.min(p.rounds.len())] {
                let opp = if r.opponent == 0 {
                    "0000".to_string()
                } else {
                    format!("{:>4}", r.opponent)
                };
                let colour = codes::colour_letter(r.colour);
                line.push_str(&format!("  {opp} {colour} {}", codes::result_letter(r.result)));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }

    /// The player with this start number. Players are almost always listed 1, 2, 3 …, so the
    /// number's own place is tried first: tie-breaks look opponents up for every round of every
    /// player, which a search through the list made quadratic in the field.
    pub fn player(&self, number: u32) -> Option<&Player> {
        match (number as usize).checked_sub(1).and_then(|i| self.players.get(i)) {
            Some(p) if p.number == number => Some(p),
            _ => self.players.iter().find(|p| p.number == number),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = "012 Two\n142 3\n\
        001    1      A                                 2000                             1.0          2 w 1\n\
        001    2      B                                 1900                             0.0          1 b 0  0000 - H\n";

    #[test]
    fn columns_never_written_stay_blank() {
        let trf = Trf::parse(TWO).unwrap();
        // Both have two columns in memory; only B wrote the second (a bye for round 2).
        assert_eq!((trf.players[0].rounds.len(), trf.players[0].written), (2, 1));
        let text = trf.write(|_| None);
        assert_eq!(text, TWO);
        assert_eq!(Trf::parse(&text).unwrap(), trf);
    }

    #[test]
    fn results_read_as_typed_results_and_an_unknown_letter_is_an_error() {
        use crate::result::{Bye, RoundResult};
        let trf = Trf::parse(TWO).unwrap();
        assert_eq!(trf.players[0].rounds[0].result, RoundResult::WIN);
        assert_eq!(trf.players[1].rounds[1].result, RoundResult::Bye(Bye::Half));
        // Never written: a zero-point bye.
        assert_eq!(trf.players[0].rounds[1].result, RoundResult::Bye(Bye::Zero));
        let bad = TWO.replace("1 b 0", "1 b X");
        let e = Trf::parse(&bad).unwrap_err();
        assert_eq!(e.line, 4, "{e}");
        assert!(e.message.contains("unknown result 'X'"), "{e}");
    }
}

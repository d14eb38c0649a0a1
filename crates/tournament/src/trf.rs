//! The player lines (`001`) of a FIDE Tournament Report File (TRF16 / TRF-2026): start number,
//! name, rating, points, and one 10-column block a round: opponent (`0000` for none), colour
//! (`w`, `b`, `-`) and result.
//!
//! Results: `1` `0` `=` played; `+` `-` forfeit win and loss; `U` pairing-allocated bye (a
//! point here, as in the files FIDE's tools write); `F` full-point bye; `H` half-point bye; `Z`
//! zero-point bye; a blank round counts as `Z` (rounds after a withdrawal).
//!
//! Other records are kept as lines; [`Trf::record`] and [`Trf::set_records`] read and replace
//! them by code, and [`Trf::requested_byes`] reads TRF-2026's `240` byes (checked on reading).

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
                if line.starts_with("240") {
                    read_byes(line).map_err(|message| TrfError { line: i + 1, message })?;
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
            // Columns past the last one written stay blank (a blank reads back as `Z`, except
            // in the round to be paired next, where a written `Z` would keep the player out).
            for r in &p.rounds[..p.written.min(p.rounds.len())] {
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

    /// The byes asked for ahead of their rounds (`240` records).
    pub fn requested_byes(&self) -> Vec<RequestedBye> {
        self.other
            .iter()
            .filter(|l| l.starts_with("240"))
            .filter_map(|l| read_byes(l).ok())
            .flatten()
            .collect()
    }

    /// Replaces the `240` records: one a round and kind, rounds in order.
    pub fn set_requested_byes(&mut self, byes: &[RequestedBye]) {
        let mut byes = byes.to_vec();
        byes.sort_by_key(|b| (b.round, b.kind, b.player));
        byes.dedup();
        let mut lines: Vec<String> = Vec::new();
        let mut last = None;
        for b in byes {
            if last != Some((b.round, b.kind)) {
                lines.push(format!("240 {} {:03}", b.kind, b.round));
                last = Some((b.round, b.kind));
            }
            let line = lines.last_mut().expect("a line was started");
            line.push_str(&format!(" {:>4}", b.player));
        }
        self.set_records("240", lines);
    }

    /// Replaces every record with this code (`142`, `240` …) by `lines`: where the first of them
    /// was, else before the first record with a higher numeric code, so a file keeps the order
    /// of the TRF specification.
    pub fn set_records(&mut self, code: &str, lines: Vec<String>) {
        let is = |l: &String| l.get(..3) == Some(code);
        let at = self.other.iter().position(is).unwrap_or_else(|| {
            self.other
                .iter()
                .position(|l| {
                    l.get(..3)
                        .is_some_and(|c| c.bytes().all(|b| b.is_ascii_digit()) && c > code)
                })
                .unwrap_or(self.other.len())
        });
        self.other.retain(|l| !is(l));
        let at = at.min(self.other.len());
        self.other.splice(at..at, lines);
    }

    /// The first record with this code, without the code.
    pub fn record(&self, code: &str) -> Option<&str> {
        self.other
            .iter()
            .find(|l| l.get(..3) == Some(code))
            .map(|l| l.get(3..).unwrap_or("").trim())
    }
}

/// A bye asked for before its round is paired (TRF-2026 `240`): a full-point (`F`), half-point
/// (`H`) or zero-point bye (`Z`, also every round after a withdrawal).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct RequestedBye {
    /// 1-based.
    pub round: usize,
    pub player: u32,
    pub kind: char,
}

/// A `240` record: the kind in column 5 (blank reads as `Z`), the round in 7-9, then start
/// numbers, four columns each with a blank between.
fn read_byes(line: &str) -> Result<Vec<RequestedBye>, String> {
    let kind = match line.as_bytes().get(4).map(u8::to_ascii_uppercase) {
        None | Some(b' ') | Some(b'Z') => 'Z',
        Some(b'H') => 'H',
        Some(b'F') => 'F',
        Some(_) => return Err(format!("240: a bye is F, H or Z (column 5): {line:?}")),
    };
    let round = field(line, 6, 9)
        .parse::<usize>()
        .ok()
        .filter(|&r| r > 0)
        .ok_or_else(|| format!("240: no round number in columns 7-9: {line:?}"))?;
    line.get(10..)
        .unwrap_or("")
        .split_whitespace()
        .map(|id| match id.parse::<u32>() {
            Ok(player @ 1..=9999) => Ok(RequestedBye { round, player, kind }),
            _ => Err(format!("240: bad start number {id:?}")),
        })
        .collect()
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
    fn records_are_replaced_in_place_or_put_in_code_order() {
        let mut trf = Trf::parse("012 X\nXXR 5\n192 FIDE_DUTCH_2025\n260   1   5    1    2\n").unwrap();
        assert_eq!(trf.record("192"), Some("FIDE_DUTCH_2025"));
        assert_eq!(trf.record("XXR"), Some("5"));
        trf.set_records("142", vec!["142 5".into()]);
        trf.set_records("XXR", Vec::new());
        trf.set_records("012", vec!["012 Y".into()]);
        trf.set_records("240", vec!["240 H 002    1".into()]);
        trf.set_records("062", vec!["062 0".into()]);
        assert_eq!(
            trf.other,
            [
                "012 Y",
                "062 0",
                "142 5",
                "192 FIDE_DUTCH_2025",
                "240 H 002    1",
                "260   1   5    1    2"
            ]
        );
    }

    #[test]
    fn byes_asked_ahead_are_240_records() {
        let mut trf = Trf::parse(TWO).unwrap();
        let bye = |round, player, kind| RequestedBye { round, player, kind };
        trf.set_requested_byes(&[bye(3, 2, 'Z'), bye(3, 1, 'Z'), bye(2, 1, 'H'), bye(3, 1, 'Z')]);
        let text = trf.write(|_| None);
        assert!(text.contains("\n240 H 002    1\n240 Z 003    1    2\n"), "{text}");
        // Columns as the specification has them: kind 5, round 7-9, players from 11.
        let line = text.lines().find(|l| l.starts_with("240 Z")).unwrap();
        assert_eq!(
            (&line[4..5], &line[6..9], &line[10..14], &line[15..19]),
            ("Z", "003", "   1", "   2")
        );
        let again = Trf::parse(&text).unwrap();
        assert_eq!(again.requested_byes(), [bye(2, 1, 'H'), bye(3, 1, 'Z'), bye(3, 2, 'Z')]);
        // The spec's example, zero-padded, and a blank kind (a zero-point bye).
        let spec = Trf::parse("240 H 003  026  047\n240   004    5\n").unwrap();
        assert_eq!(
            spec.requested_byes(),
            [bye(3, 26, 'H'), bye(3, 47, 'H'), bye(4, 5, 'Z')]
        );
        for bad in ["240 X 003    1", "240 H      1", "240 H 003    0", "240 H 003    x"] {
            let e = Trf::parse(&format!("012 X\n{bad}\n")).unwrap_err();
            assert_eq!(e.line, 2, "{bad}: {e}");
        }
        trf.set_requested_byes(&[]);
        assert!(!trf.write(|_| None).contains("240"));
    }
}

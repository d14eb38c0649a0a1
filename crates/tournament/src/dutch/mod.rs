//! The FIDE Dutch system (C.04.3, 2026 edition): one round's pairings from a TRF, the colours
//! (Art. 5), the board order, and a checker that pairs every round of a TRF again.
//!
//! The rules define one pairing; where the text leaves a reading open, this follows the FIDE-
//! endorsed bbpPairings v6 (checked on the committed fixtures in `tests/data/dutch`), e.g. a
//! topscorer is one with more than half the points of the rounds played so far, and a bracket's
//! downfloaters are chosen so that the next scoregroup pairs as many, and as high, as it can.
//!
//! ```
//! use tournament::{dutch, trf::Trf};
//! let trf = Trf::parse("XXR 3\nXXC white1\n\
//! 001    1      A                                 2000\n\
//! 001    2      B                                 1900\n\
//! 001    3      C                                 1800\n").unwrap();
//! let round = dutch::pair_next(&trf).unwrap();
//! assert_eq!(round.to_string(), "2\n1 2\n3 0\n");
//! ```

pub(crate) mod cardinality;
pub mod generate;
pub mod model;
mod pair;
mod state;
mod weight;

pub use model::{Event, EventError, PointSystem};

use crate::result::{Bye, RoundResult};
use crate::trf::{Colour, Round, Trf};
use state::{Player, State};

/// One round: the boards in order (white, black, by start number) and the player with the
/// pairing-allocated bye.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pairing {
    pub boards: Vec<(u32, u32)>,
    pub bye: Option<u32>,
}

impl std::fmt::Display for Pairing {
    /// The format bbpPairings and JaVaFo print with `-p`: the number of pairs, then one line a
    /// board, the bye as `id 0`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "{}", self.boards.len() + self.bye.is_some() as usize)?;
        for (w, b) in &self.boards {
            writeln!(f, "{w} {b}")?;
        }
        if let Some(p) = self.bye {
            writeln!(f, "{p} 0")?;
        }
        Ok(())
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PairError {
    /// The file does not describe an event that can be paired.
    Event(EventError),
    /// No pairing satisfies the absolute criteria (C1–C3) for everyone.
    NoPairing,
}

impl std::fmt::Display for PairError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PairError::Event(e) => write!(f, "{e}"),
            PairError::NoPairing => f.write_str("no pairing satisfies the absolute criteria (C1-C3)"),
        }
    }
}

impl std::error::Error for PairError {}

impl From<EventError> for PairError {
    fn from(e: EventError) -> Self {
        PairError::Event(e)
    }
}

/// Brackets of this many players or fewer (with all below them) are matched with the whole
/// field at once; larger ones with the next scoregroup only, checked for completion after.
const WHOLE_FIELD_BELOW: usize = 24;

/// Pairs round `round` (0-based) of the event the TRF describes, as if rounds before it were
/// all that had been played.
pub fn pair_round(trf: &Trf, round: usize) -> Result<Pairing, PairError> {
    let event = Event::before_round(trf, round)?;
    pair_event(&event)
}

/// Pairs the round after the last one with games in the TRF (entries already in that round's
/// column — requested byes, absences — keep those players out).
pub fn pair_next(trf: &Trf) -> Result<Pairing, PairError> {
    pair_round(trf, rounds_paired(trf))
}

/// Rounds in which someone was paired (a game, a forfeit or the PAB).
pub fn rounds_paired(trf: &Trf) -> usize {
    trf.players
        .iter()
        .filter_map(|p| p.rounds.iter().rposition(Round::paired))
        .max()
        .map_or(0, |r| r + 1)
}

pub fn pair_event(event: &Event) -> Result<Pairing, PairError> {
    let state = State::new(event);
    let round = pair::pair(&state, WHOLE_FIELD_BELOW).map_err(|_| PairError::NoPairing)?;
    let ps = &state.players;
    let mut boards: Vec<(usize, usize)> = round
        .pairs
        .iter()
        .map(|&(a, b)| {
            // Colours are chosen from the side of the smaller start number.
            let (p, q) = if ps[a].index < ps[b].index { (a, b) } else { (b, a) };
            match colour(&ps[p], &ps[q], event.initial) {
                Colour::Black => (q, p),
                _ => (p, q),
            }
        })
        .collect();
    // Board order: the higher score of the pair, then the lower, then the higher player's rank.
    let higher = |(a, b): (usize, usize)| {
        let above = |x: &Player, y: &Player| {
            (x.raw_score, std::cmp::Reverse(x.rank)) > (y.raw_score, std::cmp::Reverse(y.rank))
        };
        if above(&ps[a], &ps[b]) {
            (a, b)
        } else {
            (b, a)
        }
    };
    boards.sort_by_key(|&pair| {
        let (h, l) = higher(pair);
        (
            std::cmp::Reverse(ps[h].raw_score),
            std::cmp::Reverse(ps[l].raw_score),
            ps[h].rank,
        )
    });
    let number = |i: usize| event.entrants[ps[i].index].number;
    Ok(Pairing {
        boards: boards.into_iter().map(|(w, b)| (number(w), number(b))).collect(),
        bye: round.bye.map(number),
    })
}

/// Art. 5: the colour `p` gets against `q`.
fn colour(p: &Player, q: &Player, initial: Colour) -> Colour {
    let neutral = neutral_colour(p, q);
    if neutral != Colour::None {
        return neutral;
    }
    // `p` ranks below `q`?
    let below = (p.score, q.rank) < (q.score, p.rank);
    if p.preference == Colour::None {
        if below {
            if q.rank % 2 == 1 {
                initial
            } else {
                model::invert(initial)
            }
        } else if p.rank % 2 == 1 {
            model::invert(initial)
        } else {
            initial
        }
    } else if below {
        model::invert(q.preference)
    } else {
        p.preference
    }
}

/// Rules 5.2.1–5.2.3: both preferences, the stronger one, then alternation from the last round
/// the two had different colours. `None` when they decide nothing.
fn neutral_colour(p: &Player, q: &Player) -> Colour {
    use model::invert;
    let compatible = p.preference != q.preference || p.preference == Colour::None;
    if compatible {
        if p.preference != Colour::None {
            p.preference
        } else {
            invert(q.preference)
        }
    } else if p.absolute() && (p.imbalance > q.imbalance || !q.absolute()) {
        p.preference
    } else if q.absolute() && (q.imbalance > p.imbalance || !p.absolute()) {
        invert(q.preference)
    } else if p.strong && !q.strong {
        p.preference
    } else if q.strong && !p.strong {
        invert(q.preference)
    } else {
        let differ = p.colours.iter().rev().zip(q.colours.iter().rev()).find(|(a, b)| a != b);
        match differ {
            Some((_, &theirs)) => theirs,
            None => Colour::None,
        }
    }
}

/// A round where the pairing in the file is not the one the rules give.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// 1-based.
    pub round: usize,
    pub expected: Result<Pairing, PairError>,
    /// The file's pairing, in the same board order as far as it goes.
    pub found: Pairing,
}

/// The pairing recorded in the TRF for round `round` (0-based), as `white black` boards and
/// the PAB.
pub fn recorded(trf: &Trf, round: usize) -> Pairing {
    let mut boards = Vec::new();
    let mut bye = None;
    for p in &trf.players {
        let Some(r) = p.rounds.get(round) else { continue };
        if r.opponent == 0 {
            if r.result == RoundResult::Bye(Bye::PairingAllocated) {
                bye = Some(p.number);
            }
        } else if r.colour == Colour::White || (r.colour == Colour::None && p.number < r.opponent) {
            boards.push((p.number, r.opponent));
        }
    }
    Pairing { boards, bye }
}

/// Pairs every round of the TRF again and lists the rounds where the file differs.
pub fn check(trf: &Trf) -> Vec<Difference> {
    let mut out = Vec::new();
    for round in 0..rounds_paired(trf) {
        let found = recorded(trf, round);
        let expected = pair_round(trf, round);
        let same = match &expected {
            Ok(e) => same_pairing(e, &found),
            Err(_) => false,
        };
        if !same {
            out.push(Difference {
                round: round + 1,
                expected,
                found,
            });
        }
    }
    out
}

/// The same boards with the same colours (board order aside) and the same bye.
pub fn same_pairing(a: &Pairing, b: &Pairing) -> bool {
    let mut x = a.boards.clone();
    let mut y = b.boards.clone();
    x.sort_unstable();
    y.sort_unstable();
    x == y && a.bye == b.bye
}

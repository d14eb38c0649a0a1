//! A Swiss event run round by round, kept as its TRF: create it, register players (late
//! entrants too), take byes and withdrawals, pair the next round (FIDE Dutch or 积分编排制),
//! enter results, and print standings and crosstables (text or HTML). Plain functions on
//! [`Trf`], so the command line and the server share them.
//!
//! The file is TRF-2026 as in-tournament data exchange wants it: `012` name, `062` players,
//! `142` rounds, `152` initial colour, `162` point system (when not 1/½/0), `192` coded type,
//! `202`/`212` tie-breaks (when chosen), and `240` byes for rounds not paired yet (withdrawals
//! are zero-point byes in every round left). Files with JaVaFo's `XXR`/`XXC` read as well and
//! are written back in TRF-2026 records; bbpPairings v6 and `arbiter pair` read both.

use crate::dutch;
use crate::trf::{Colour, Trf};

mod crosstable;
mod players;
mod points;
mod rounds;
#[cfg(test)]
mod tests;

pub use crosstable::{crosstable, crosstable_html};
pub use players::{pending, reenter, register, register_late, request_bye, request_bye_in, withdraw};
pub(crate) use points::round_points;
pub use points::{
    parse_points, parse_tiebreaks, point_system, set_points, set_tiebreaks, stated_point_system, tiebreaks, CXA_POINTS,
};
pub use rounds::{clear_result, pair, set_result};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum System {
    Dutch,
    Cxa,
}

impl System {
    pub fn parse(s: &str) -> Option<System> {
        match s {
            "dutch" => Some(System::Dutch),
            "cxa" => Some(System::Cxa),
            _ => None,
        }
    }

    /// The coded type (`192`).
    pub fn code(self) -> &'static str {
        match self {
            System::Dutch => "FIDE_DUTCH_2025",
            System::Cxa => "CXA_SWISS",
        }
    }
}

/// Why an event cannot do what was asked (the same message-carrying error as reading one).
pub use crate::dutch::EventError;

fn err<T>(message: impl Into<String>) -> Result<T, EventError> {
    Err(EventError(message.into()))
}

/// A new event: its name, rounds, system and the colour drawn for the first board. A 积分编排制
/// event scores 2/1/0 (change it with [`set_points`] before round 1).
pub fn create(name: &str, rounds: usize, system: System, first_white: bool) -> Trf {
    let mut trf = Trf {
        players: Vec::new(),
        other: Vec::new(),
    };
    trf.set_name(name);
    trf.tidy();
    trf.set_total_rounds(rounds);
    trf.set_first_colour(if first_white { Colour::White } else { Colour::Black });
    trf.set_coded_type(system.code());
    if system == System::Cxa {
        trf.set_point_system(&CXA_POINTS);
    }
    trf
}

pub fn system(trf: &Trf) -> System {
    if trf.coded_type() == Some(System::Cxa.code()) {
        System::Cxa
    } else {
        System::Dutch
    }
}

/// The number of rounds the event has (0 when it does not say).
pub fn total_rounds(trf: &Trf) -> usize {
    trf.total_rounds()
}

/// The event's records in TRF-2026 form (see [`Trf::tidy`]).
pub fn tidy(trf: &mut Trf) {
    trf.tidy();
}

/// The event as kept between changes: TRF-2026 records, no ranks.
pub fn text(trf: &Trf) -> String {
    let mut t = trf.clone();
    tidy(&mut t);
    t.write(|_| None)
}

/// The event as a TRF-2026 file to hand on: [`text`] with each player's rank (points, then the
/// event's tie-breaks; equals share the place). Before round 1 the players already have the
/// start numbers pairing round 1 gives them, so any engine pairs the file as the event will.
pub fn export(trf: &Trf) -> String {
    let mut t = trf.clone();
    tidy(&mut t);
    if dutch::rounds_paired(&t) == 0 {
        rounds::number_by_rating(&mut t);
    }
    // A `202` list with codes this program does not compute still gets ranks by points.
    let order = tiebreaks(&t).unwrap_or_default();
    let places: std::collections::HashMap<u32, usize> = crate::standings::standings(&t, &order)
        .into_iter()
        .map(|l| (l.number, l.place))
        .collect();
    t.write(|n| places.get(&n).copied())
}

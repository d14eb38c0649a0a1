//! Standings: players ordered by points, then by an ordered list of tie-breaks, each applied only
//! to those still tied (C.07 §5.1); players equal on everything share the place.
//!
//! ```
//! use tournament::standings::{standings, TieBreak};
//! use tournament::trf::Trf;
//!
//! let trf = Trf::parse("001    1      A                                 2000                             1.0    1     2 w 1\n\
//!                       001    2      B                                 1900                             0.0    2     1 b 0\n").unwrap();
//! let table = standings(&trf, &[TieBreak::Bh]);
//! assert_eq!((table[0].number, table[0].place), (1, 1));
//! ```

use serde::Serialize;

use crate::tiebreak::{compute, Values};
use crate::trf::Trf;

/// The tie-breaks by their TRF-2026 codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum TieBreak {
    Bh,
    BhC1,
    BhC2,
    BhM1,
    Fb,
    Sb,
    SbC1,
    Ps,
    PsC1,
    Win,
    Won,
    Bpg,
    Bwg,
    Rep,
    Aro,
    Tpr,
    Ptp,
}

impl TieBreak {
    pub const ALL: [(&'static str, TieBreak); 17] = [
        ("BH", TieBreak::Bh),
        ("BH-C1", TieBreak::BhC1),
        ("BH-C2", TieBreak::BhC2),
        ("BH-M1", TieBreak::BhM1),
        ("FB", TieBreak::Fb),
        ("SB", TieBreak::Sb),
        ("SB-C1", TieBreak::SbC1),
        ("PS", TieBreak::Ps),
        ("PS-C1", TieBreak::PsC1),
        ("WIN", TieBreak::Win),
        ("WON", TieBreak::Won),
        ("BPG", TieBreak::Bpg),
        ("BWG", TieBreak::Bwg),
        ("REP", TieBreak::Rep),
        ("ARO", TieBreak::Aro),
        ("TPR", TieBreak::Tpr),
        ("PTP", TieBreak::Ptp),
    ];

    pub fn code(self) -> &'static str {
        TieBreak::ALL.iter().find(|(_, t)| *t == self).map_or("?", |(c, _)| c)
    }

    /// Reads a code (`BH-C1`, `sb`, …).
    pub fn parse(code: &str) -> Option<TieBreak> {
        TieBreak::ALL
            .iter()
            .find(|(c, _)| c.eq_ignore_ascii_case(code.trim()))
            .map(|(_, t)| *t)
    }

    /// The value, higher ranks first (games with black: more ranks first, as C.07 has it).
    pub fn value(self, v: &Values) -> f64 {
        let opt = |x: Option<i64>| x.map_or(f64::NEG_INFINITY, |x| x as f64);
        match self {
            TieBreak::Bh => v.bh,
            TieBreak::BhC1 => v.bh_c1,
            TieBreak::BhC2 => v.bh_c2,
            TieBreak::BhM1 => v.bh_m1,
            TieBreak::Fb => v.fb,
            TieBreak::Sb => v.sb,
            TieBreak::SbC1 => v.sb_c1,
            TieBreak::Ps => v.ps,
            TieBreak::PsC1 => v.ps_c1,
            TieBreak::Win => f64::from(v.win),
            TieBreak::Won => f64::from(v.won),
            TieBreak::Bpg => f64::from(v.bpg),
            TieBreak::Bwg => f64::from(v.bwg),
            TieBreak::Rep => f64::from(v.rep),
            TieBreak::Aro => opt(v.aro),
            TieBreak::Tpr => opt(v.tpr),
            TieBreak::Ptp => opt(v.ptp),
        }
    }
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Line {
    /// Shared by players equal on points and every tie-break.
    pub place: usize,
    pub number: u32,
    pub name: String,
    pub points: f64,
    pub tiebreaks: Vec<f64>,
}

pub fn standings(t: &Trf, order: &[TieBreak]) -> Vec<Line> {
    let values = compute(t);
    let mut lines: Vec<Line> = values
        .iter()
        .map(|v| Line {
            place: 0,
            number: v.number,
            name: t.player(v.number).map_or(String::new(), |p| p.name.clone()),
            points: v.pts,
            tiebreaks: order.iter().map(|tb| tb.value(v)).collect(),
        })
        .collect();
    let key = |l: &Line| {
        std::iter::once(l.points)
            .chain(l.tiebreaks.iter().copied())
            .collect::<Vec<f64>>()
    };
    lines.sort_by(|a, b| {
        let (ka, kb) = (key(a), key(b));
        kb.iter()
            .zip(&ka)
            .map(|(x, y)| x.total_cmp(y))
            .find(|o| o.is_ne())
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.number.cmp(&b.number))
    });
    for i in 0..lines.len() {
        lines[i].place = if i > 0 && key(&lines[i]) == key(&lines[i - 1]) {
            lines[i - 1].place
        } else {
            i + 1
        };
    }
    lines
}

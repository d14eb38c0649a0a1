//! Standings: players ordered by points, then by an ordered list of tie-breaks, each applied only
//! to those still tied (C.07 §5.1); players equal on everything share the place. Direct
//! Encounter is worked out on the groups tied on everything before it. Points and tie-breaks
//! count results in the event's point system (`162`, or 1/½/0), read once.
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

use std::cmp::Ordering;

use serde::Serialize;

use crate::event::point_system;
use crate::tiebreak::{compute_with, direct_encounter_with, Values};
use crate::trf::Trf;

/// The tie-breaks by their TRF-2026 codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum TieBreak {
    De,
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
    /// The CXA's orders ([`crate::cxa`]): 对手分 (the opponents' scores).
    CxaOpp,
    /// 累进分 (the running score summed over the rounds).
    CxaProg,
    /// 累进分 with round 1 removed.
    CxaProgC1,
    /// 胜局 (rounds won).
    CxaWin,
    /// 后走局数 (games played with black over the board).
    CxaBlack,
    /// 小分 (the scores of the opponents beaten plus half of those drawn).
    CxaSmall,
}

impl TieBreak {
    pub const ALL: [(&'static str, TieBreak); 24] = [
        ("DE", TieBreak::De),
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
        ("CXA-OPP", TieBreak::CxaOpp),
        ("CXA-PROG", TieBreak::CxaProg),
        ("CXA-PROG-C1", TieBreak::CxaProgC1),
        ("CXA-WIN", TieBreak::CxaWin),
        ("CXA-BLACK", TieBreak::CxaBlack),
        ("CXA-SMALL", TieBreak::CxaSmall),
    ];

    /// The CXA's order for a 积分编排制 (rules 2011 art. 14, [`crate::cxa`]): 对手分, 累进分,
    /// 累进分 without round 1, 胜局, 后走局数, 小分 — what `cxa` stands for in a list of codes.
    pub const CXA: [TieBreak; 6] = [
        TieBreak::CxaOpp,
        TieBreak::CxaProg,
        TieBreak::CxaProgC1,
        TieBreak::CxaWin,
        TieBreak::CxaBlack,
        TieBreak::CxaSmall,
    ];

    /// One of the CXA's orders, computed by [`crate::cxa::compute`].
    pub fn is_cxa(self) -> bool {
        TieBreak::CXA.contains(&self)
    }

    fn cxa_value(self, v: &crate::cxa::CxaValues) -> f64 {
        match self {
            TieBreak::CxaOpp => v.opponents,
            TieBreak::CxaProg => v.progressive,
            TieBreak::CxaProgC1 => v.progressive_cut1,
            TieBreak::CxaWin => f64::from(v.wins),
            TieBreak::CxaBlack => f64::from(v.black_games),
            _ => v.small_points,
        }
    }

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

    /// Whether a higher value ranks first: all but DE, whose first is 1 (games with black: more
    /// ranks first, as C.07 has it).
    pub fn higher_first(self) -> bool {
        self != TieBreak::De
    }

    /// The value; `None` for DE, which depends on who is still tied (see [`standings`]), and
    /// for the CXA's orders, which [`crate::cxa`] computes.
    pub fn value(self, v: &Values) -> Option<f64> {
        let opt = |x: Option<i64>| x.map_or(f64::NEG_INFINITY, |x| x as f64);
        Some(match self {
            TieBreak::De
            | TieBreak::CxaOpp
            | TieBreak::CxaProg
            | TieBreak::CxaProgC1
            | TieBreak::CxaWin
            | TieBreak::CxaBlack
            | TieBreak::CxaSmall => return None,
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
        })
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
    /// In the order asked for; a DE is Gacrux's number (1 first, 0 where DE separated no one).
    pub tiebreaks: Vec<f64>,
}

pub fn standings(t: &Trf, order: &[TieBreak]) -> Vec<Line> {
    let ps = point_system(t);
    let values = compute_with(t, &ps);
    let cxa = if order.iter().any(|tb| tb.is_cxa()) {
        crate::cxa::compute(t)
    } else {
        Vec::new()
    };
    let names = values
        .iter()
        .map(|v| t.player(v.number).map_or(String::new(), |p| p.name.clone()))
        .collect();
    rank(&values, names, &cxa, order, |numbers| {
        direct_encounter_with(t, &ps, numbers)
    })
}

/// The standings from each player's values (in start-number order, with their names), the
/// CXA's values where the order has them, and `de` giving the DE of a tied group of numbers:
/// what [`standings`] does with a TRF's, and a round robin kept compact with its own.
pub(crate) fn rank(
    values: &[Values],
    names: Vec<String>,
    cxa: &[crate::cxa::CxaValues],
    order: &[TieBreak],
    mut de: impl FnMut(&[u32]) -> Vec<u32>,
) -> Vec<Line> {
    let mut lines: Vec<Line> = values
        .iter()
        .zip(names)
        .map(|(v, name)| Line {
            place: 0,
            number: v.number,
            name,
            points: v.pts,
            tiebreaks: Vec::with_capacity(order.len()),
        })
        .collect();
    for tb in order {
        if *tb == TieBreak::De {
            for group in tied(&lines, order) {
                let numbers: Vec<u32> = group.iter().map(|&i| lines[i].number).collect();
                for (&i, de) in group.iter().zip(de(&numbers)) {
                    lines[i].tiebreaks.push(f64::from(de));
                }
            }
        } else if tb.is_cxa() {
            for (line, v) in lines.iter_mut().zip(cxa) {
                line.tiebreaks.push(tb.cxa_value(v));
            }
        } else {
            for (line, v) in lines.iter_mut().zip(values) {
                line.tiebreaks.push(tb.value(v).expect("a value of the player's own"));
            }
        }
    }
    lines.sort_by(|a, b| compare(b, a, order).then(a.number.cmp(&b.number)));
    for i in 0..lines.len() {
        lines[i].place = if i > 0 && compare(&lines[i], &lines[i - 1], order).is_eq() {
            lines[i - 1].place
        } else {
            i + 1
        };
    }
    lines
}

/// Ranks `a` against `b` on points and the tie-breaks both lines have so far (greater first).
fn compare(a: &Line, b: &Line, order: &[TieBreak]) -> Ordering {
    let signed = |tb: &TieBreak, x: f64| if tb.higher_first() { x } else { -x };
    let pairs = order
        .iter()
        .zip(a.tiebreaks.iter().zip(&b.tiebreaks))
        .map(|(tb, (x, y))| signed(tb, *x).total_cmp(&signed(tb, *y)));
    std::iter::once(a.points.total_cmp(&b.points))
        .chain(pairs)
        .find(|o| o.is_ne())
        .unwrap_or(Ordering::Equal)
}

/// The lines (by index) grouped by equal points and tie-breaks so far.
fn tied(lines: &[Line], order: &[TieBreak]) -> Vec<Vec<usize>> {
    let mut indices: Vec<usize> = (0..lines.len()).collect();
    indices.sort_by(|&a, &b| compare(&lines[b], &lines[a], order));
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for i in indices {
        match groups.last_mut() {
            Some(g) if compare(&lines[g[0]], &lines[i], order).is_eq() => g.push(i),
            _ => groups.push(vec![i]),
        }
    }
    groups
}

//! FIDE tie-breaks (C.07, the text effective 1 March 2026) for an individual Swiss, unplayed rounds
//! handled as its Article 16 says:
//!
//! - an unplayed round is in one of five categories: (1) pairing-allocated or full-point bye,
//!   (2) forfeit win, (3) requested bye followed by a round that is not a voluntary unplayed
//!   round (VUR: a requested bye or a forfeit loss), (4) forfeit loss, (5) requested bye followed
//!   only by VURs, or in the last round;
//! - a player's *adjusted score*, used where he is someone's opponent, counts categories 1–4 as
//!   awarded and category 5 as a draw (16.3);
//! - for the player's own Buchholz and Sonneborn-Berger each unplayed round is a game against a
//!   dummy scoring the player's own final score, capped at the scheduled opponent's adjusted
//!   score for forfeits (2, 4) and at a draw a round for the others (16.4);
//! - with VURs the first value cut is the lowest VUR contribution (16.5); for SB the higher of
//!   that and the least significant value.
//!
//! Results count in the event's point system ([`crate::event::point_system`]: the `162` record
//! or bbpPairings' `BB*` lines, 1/½/0 without them), as FIDE's Gacrux counts them: PTS, the
//! opponents' and the dummy's scores, the draw of 16.3 and of the 16.4 cap, the points SB
//! multiplies by, PS, and the points DE adds up are all tournament points (a 3/1/0 win over an
//! opponent on 9 adds 27 to SB); WIN, WON and BWG count the results worth a win (so a
//! pairing-allocated bye worth less than a win is not one). ARO, TPR and PTP are about ratings
//! and stay on the game's own 1/½/0 ([`Round::points`]), as in Gacrux.
//!
//! Sums are kept in tenths of a point (SB in hundredths), so equal values are equal numbers
//! whatever the point system.
//!
//! Direct Encounter depends on the tie-breaks before it, so it is not among [`Values`]: see
//! [`direct_encounter`] and [`crate::standings`].

use std::collections::HashMap;

use serde::Serialize;

use crate::dutch::PointSystem;
use crate::event::{point_system, round_points};
use crate::result::{Bye, RoundResult};
use crate::trf::{Colour, Player, Round, Trf};

pub(crate) mod direct_encounter;
pub use direct_encounter::{direct_encounter, direct_encounter_with};

/// All the tie-break values of one player.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Values {
    pub number: u32,
    pub pts: f64,
    pub bh: f64,
    pub bh_c1: f64,
    pub bh_c2: f64,
    pub bh_m1: f64,
    pub fb: f64,
    pub sb: f64,
    pub sb_c1: f64,
    pub ps: f64,
    pub ps_c1: f64,
    pub win: u32,
    pub won: u32,
    pub bpg: u32,
    pub bwg: u32,
    pub rep: u32,
    pub vur: u32,
    pub aro: Option<i64>,
    pub tpr: Option<i64>,
    pub ptp: Option<i64>,
}

/// Tenths of a point as a number of points.
fn points(tenths: u64) -> f64 {
    tenths as f64 / 10.0
}

/// The player's score, in tenths.
fn score(ps: &PointSystem, p: &Player) -> u64 {
    p.rounds.iter().map(|r| u64::from(round_points(ps, r))).sum()
}

/// Category (1–5) of an unplayed round `r` of `p`; `None` for a played game.
fn category(p: &Player, r: usize) -> Option<u8> {
    let round = &p.rounds[r];
    if round.played() {
        return None;
    }
    // A forfeit needs a scheduled opponent: `0000 - +` is a full-point bye, `0000 - -` an
    // absence (a zero-point bye), as Gacrux reads them.
    let paired = round.opponent != 0;
    Some(match round.result {
        RoundResult::Bye(Bye::PairingAllocated | Bye::Full) => 1,
        RoundResult::ForfeitWin if paired => 2,
        RoundResult::ForfeitWin => 1,
        RoundResult::ForfeitLoss if paired => 4,
        _ => {
            if p.rounds[r + 1..].iter().any(|x| !x.voluntary_unplayed()) {
                3
            } else {
                5
            }
        }
    })
}

/// The score a player counts for as someone's opponent (16.3), in tenths.
fn adjusted(ps: &PointSystem, p: &Player) -> u64 {
    (0..p.rounds.len())
        .map(|r| match category(p, r) {
            Some(5) => u64::from(ps.draw),
            _ => u64::from(round_points(ps, &p.rounds[r])),
        })
        .sum()
}

/// One round's part of a player's Buchholz and Sonneborn-Berger, in tenths.
struct Part {
    /// The opponent's (or dummy's) score.
    opponent: u64,
    /// The player's points in the round.
    points: u64,
    vur: bool,
}

impl Part {
    /// The round's part of SB, in hundredths.
    fn sb(&self) -> u64 {
        self.opponent * self.points
    }
}

/// Every player's [`adjusted`] score by start number, counted once: [`parts`] reads an
/// opponent's for every round of every player.
fn adjusted_scores(t: &Trf, ps: &PointSystem) -> HashMap<u32, u64> {
    let mut scores = HashMap::with_capacity(t.players.len());
    for p in &t.players {
        scores.entry(p.number).or_insert_with(|| adjusted(ps, p));
    }
    scores
}

fn parts(adjusted_of: &HashMap<u32, u64>, ps: &PointSystem, p: &Player) -> Vec<Part> {
    let own = score(ps, p);
    let draws = u64::from(ps.draw) * p.rounds.len() as u64;
    p.rounds
        .iter()
        .enumerate()
        .map(|(r, round)| {
            let opp_adjusted = || adjusted_of.get(&round.opponent).copied().unwrap_or(0);
            let opponent = match category(p, r) {
                None => opp_adjusted(),
                Some(2 | 4) => own.min(opp_adjusted()),
                Some(_) => own.min(draws),
            };
            Part {
                opponent,
                points: u64::from(round_points(ps, round)),
                vur: round.voluntary_unplayed(),
            }
        })
        .collect()
}

/// Buchholz with `low` cuts (VUR contributions first, lowest first) and `high` cuts, in tenths.
fn buchholz(parts: &[Part], low: usize, high: usize) -> u64 {
    let mut values: Vec<(u64, bool)> = parts.iter().map(|x| (x.opponent, x.vur)).collect();
    for _ in 0..low {
        let vur = values
            .iter()
            .enumerate()
            .filter(|(_, v)| v.1)
            .min_by_key(|(_, v)| v.0)
            .map(|(i, _)| i);
        let i = vur.or_else(|| values.iter().enumerate().min_by_key(|(_, v)| v.0).map(|(i, _)| i));
        if let Some(i) = i {
            values.remove(i);
        }
    }
    for _ in 0..high {
        if let Some(i) = values.iter().enumerate().max_by_key(|(_, v)| v.0).map(|(i, _)| i) {
            values.remove(i);
        }
    }
    values.iter().map(|v| v.0).sum()
}

/// Sonneborn-Berger in hundredths, with one cut when `cut`: the higher of the lowest VUR
/// contribution and the least significant value (the contribution of the lowest-scored
/// opponent, the lowest such contribution if several).
fn sonneborn_berger(parts: &[Part], cut: bool) -> u64 {
    let total: u64 = parts.iter().map(Part::sb).sum();
    if !cut || parts.is_empty() {
        return total;
    }
    let lowest = parts.iter().map(|x| x.opponent).min().unwrap_or(0);
    let lsv = parts
        .iter()
        .filter(|x| x.opponent == lowest)
        .map(Part::sb)
        .min()
        .unwrap_or(0);
    // The VUR to cut is the one against the lowest (dummy) score, as FIDE's Gacrux picks it.
    let vur = parts
        .iter()
        .filter(|x| x.vur)
        .min_by_key(|x| (x.opponent, x.sb()))
        .map(Part::sb);
    total - vur.map_or(lsv, |v| v.max(lsv))
}

/// The tournament as if every game of the last round had been drawn (Fore Buchholz).
fn fore(t: &Trf) -> Trf {
    let mut f = t.clone();
    for p in &mut f.players {
        if let Some(last) = p.rounds.last_mut() {
            let rated = matches!(
                last.result,
                RoundResult::Game { rated: true, .. } | RoundResult::ForfeitWin | RoundResult::ForfeitLoss
            );
            if last.opponent != 0 && rated {
                last.result = RoundResult::DRAW;
            }
        }
    }
    f
}

/// The lowest rating whose expected score against `opponents` (FIDE table, no 400 cap) reaches
/// `score`: the perfect tournament performance.
fn perfect_performance(opponents: &[u32], score: f64) -> Option<i64> {
    let lowest = i64::from(*opponents.iter().min()?);
    if score <= 0.0 {
        return Some(lowest - 800);
    }
    let highest = i64::from(*opponents.iter().max()?);
    let expected = |r: i64| -> f64 {
        opponents
            .iter()
            .map(|&o| {
                let d = r - i64::from(o);
                let p = ratings::elo::table_expectation(d.unsigned_abs() as u32);
                if d >= 0 {
                    p
                } else {
                    1.0 - p
                }
            })
            .sum()
    };
    // The expected score never falls as the rating rises, so the lowest rating reaching the
    // score is found by halving the range rather than by trying each of its thousands.
    let (mut lo, mut hi) = (lowest - 800, highest + 801);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if expected(mid) >= score - 1e-9 {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    (lo <= highest + 800).then_some(lo)
}

/// Every tie-break value of every player, results counted in the event's point system.
pub fn compute(t: &Trf) -> Vec<Values> {
    compute_with(t, &point_system(t))
}

/// Every tie-break value of every player, results counted in `ps` (the event's point system,
/// read once by the caller).
pub fn compute_with(t: &Trf, ps: &PointSystem) -> Vec<Values> {
    let fore = fore(t);
    let (adjusted_of, fore_adjusted) = (adjusted_scores(t, ps), adjusted_scores(&fore, ps));
    t.players
        .iter()
        .map(|p| {
            let fore_parts = fore
                .player(p.number)
                .map(|f| parts(&fore_adjusted, ps, f))
                .unwrap_or_default();
            let parts = parts(&adjusted_of, ps, p);
            // Results worth a win (C.07 counts rounds and games won, Gacrux the points of a win).
            let won = |r: &Round| round_points(ps, r) == ps.win;
            let mut cumulative = 0;
            let progressive: Vec<u64> = p
                .rounds
                .iter()
                .map(|r| {
                    cumulative += u64::from(round_points(ps, r));
                    cumulative
                })
                .collect();
            let played: Vec<&Round> = p.rounds.iter().filter(|r| r.played()).collect();
            let opponents: Vec<u32> = played
                .iter()
                .filter_map(|r| t.player(r.opponent).map(|o| o.rating))
                .filter(|&r| r > 0)
                .collect();
            // Rating-based: the game's own 1/½/0, whatever the event's points.
            let otb_points: f64 = played.iter().map(|r| r.points()).sum();
            let aro = (!opponents.is_empty()).then(|| {
                let avg = opponents.iter().map(|&r| f64::from(r)).sum::<f64>() / opponents.len() as f64;
                (avg + 0.5).floor() as i64
            });
            let tpr = aro.map(|a| a + ratings::elo::dp(otb_points / opponents.len() as f64));
            Values {
                number: p.number,
                pts: points(score(ps, p)),
                bh: points(buchholz(&parts, 0, 0)),
                bh_c1: points(buchholz(&parts, 1, 0)),
                bh_c2: points(buchholz(&parts, 2, 0)),
                bh_m1: points(buchholz(&parts, 1, 1)),
                fb: points(buchholz(&fore_parts, 0, 0)),
                sb: sonneborn_berger(&parts, false) as f64 / 100.0,
                sb_c1: sonneborn_berger(&parts, true) as f64 / 100.0,
                ps: points(progressive.iter().sum()),
                ps_c1: points(progressive.iter().skip(1).sum()),
                win: p.rounds.iter().filter(|r| won(r)).count() as u32,
                won: played.iter().filter(|r| won(r)).count() as u32,
                bpg: played.iter().filter(|r| r.colour == Colour::Black).count() as u32,
                bwg: played.iter().filter(|r| r.colour == Colour::Black && won(r)).count() as u32,
                rep: p.rounds.iter().filter(|r| !r.voluntary_unplayed()).count() as u32,
                vur: p.rounds.iter().filter(|r| r.voluntary_unplayed()).count() as u32,
                aro,
                tpr,
                ptp: perfect_performance(&opponents, otb_points),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::perfect_performance;

    /// The definition: the lowest rating in the range whose expected score reaches the score.
    fn by_every_rating(opponents: &[u32], score: f64) -> Option<i64> {
        let lowest = i64::from(*opponents.iter().min()?);
        if score <= 0.0 {
            return Some(lowest - 800);
        }
        let highest = i64::from(*opponents.iter().max()?);
        (lowest - 800..=highest + 800).find(|&r| {
            let e: f64 = opponents
                .iter()
                .map(|&o| {
                    let d = r - i64::from(o);
                    let p = ratings::elo::table_expectation(d.unsigned_abs() as u32);
                    if d >= 0 {
                        p
                    } else {
                        1.0 - p
                    }
                })
                .sum();
            e >= score - 1e-9
        })
    }

    #[test]
    fn perfect_performance_is_the_lowest_rating_reaching_the_score() {
        let mut x = 27u64;
        for _ in 0..300 {
            x = crate::lots::splitmix64(x);
            let n = 1 + (x % 12) as usize;
            let opponents: Vec<u32> = (0..n)
                .map(|i| 1000 + (crate::lots::splitmix64(x ^ i as u64) % 1800) as u32)
                .collect();
            let halves = x % (2 * n as u64 + 1);
            let score = halves as f64 / 2.0;
            assert_eq!(
                perfect_performance(&opponents, score),
                by_every_rating(&opponents, score),
                "{opponents:?} {score}"
            );
        }
    }
}

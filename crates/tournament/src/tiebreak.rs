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
//!   score for forfeits (2, 4) and at half the rounds for the others (16.4);
//! - with VURs the first value cut is the lowest VUR contribution (16.5); for SB the higher of
//!   that and the least significant value.
//!
//! Direct Encounter depends on the tie-breaks before it, so it is not among [`Values`]: see
//! [`direct_encounter`] and [`crate::standings`].

use serde::Serialize;

use crate::trf::{Colour, Player, Round, Trf};

mod direct_encounter;
pub use direct_encounter::direct_encounter;

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

fn score(p: &Player) -> f64 {
    p.rounds.iter().map(Round::points).sum()
}

/// Category (1–5) of an unplayed round `r` of `p`; `None` for a played game.
fn category(p: &Player, r: usize) -> Option<u8> {
    let round = &p.rounds[r];
    if round.played() {
        return None;
    }
    Some(match round.result {
        'U' | 'F' => 1,
        '+' => 2,
        '-' => 4,
        _ => {
            if p.rounds[r + 1..].iter().any(|x| !x.voluntary_unplayed()) {
                3
            } else {
                5
            }
        }
    })
}

/// The score a player counts for as someone's opponent (16.3).
fn adjusted(p: &Player) -> f64 {
    (0..p.rounds.len())
        .map(|r| match category(p, r) {
            Some(5) => 0.5,
            _ => p.rounds[r].points(),
        })
        .sum()
}

/// One round's part of a player's Buchholz and Sonneborn-Berger.
struct Part {
    /// The opponent's (or dummy's) score.
    opponent: f64,
    /// The player's points in the round.
    points: f64,
    vur: bool,
}

fn parts(t: &Trf, p: &Player) -> Vec<Part> {
    let own = score(p);
    let rounds = p.rounds.len() as f64;
    p.rounds
        .iter()
        .enumerate()
        .map(|(r, round)| {
            let opp_adjusted = || t.player(round.opponent).map(adjusted).unwrap_or(0.0);
            let opponent = match category(p, r) {
                None => opp_adjusted(),
                Some(2 | 4) => own.min(opp_adjusted()),
                Some(_) => own.min(0.5 * rounds),
            };
            Part {
                opponent,
                points: round.points(),
                vur: round.voluntary_unplayed(),
            }
        })
        .collect()
}

/// Buchholz with `low` cuts (VUR contributions first, lowest first) and `high` cuts.
fn buchholz(parts: &[Part], low: usize, high: usize) -> f64 {
    let mut values: Vec<(f64, bool)> = parts.iter().map(|x| (x.opponent, x.vur)).collect();
    for _ in 0..low {
        let vur = values
            .iter()
            .enumerate()
            .filter(|(_, v)| v.1)
            .min_by(|a, b| a.1 .0.total_cmp(&b.1 .0))
            .map(|(i, _)| i);
        let i = vur.or_else(|| {
            values
                .iter()
                .enumerate()
                .min_by(|a, b| a.1 .0.total_cmp(&b.1 .0))
                .map(|(i, _)| i)
        });
        if let Some(i) = i {
            values.remove(i);
        }
    }
    for _ in 0..high {
        if let Some(i) = values
            .iter()
            .enumerate()
            .max_by(|a, b| a.1 .0.total_cmp(&b.1 .0))
            .map(|(i, _)| i)
        {
            values.remove(i);
        }
    }
    values.iter().map(|v| v.0).sum()
}

/// Sonneborn-Berger, with one cut when `cut`: the higher of the lowest VUR contribution and the
/// least significant value (the contribution of the lowest-scored opponent, the lowest such
/// contribution if several).
fn sonneborn_berger(parts: &[Part], cut: bool) -> f64 {
    let total: f64 = parts.iter().map(|x| x.opponent * x.points).sum();
    if !cut || parts.is_empty() {
        return total;
    }
    let lowest = parts.iter().map(|x| x.opponent).fold(f64::INFINITY, f64::min);
    let lsv = parts
        .iter()
        .filter(|x| x.opponent == lowest)
        .map(|x| x.opponent * x.points)
        .fold(f64::INFINITY, f64::min);
    // The VUR to cut is the one against the lowest (dummy) score, as FIDE's Gacrux picks it.
    let vur = parts
        .iter()
        .filter(|x| x.vur)
        .min_by(|a, b| {
            (a.opponent, a.opponent * a.points)
                .partial_cmp(&(b.opponent, b.opponent * b.points))
                .unwrap()
        })
        .map_or(f64::INFINITY, |x| x.opponent * x.points);
    let cut = if vur.is_finite() { vur.max(lsv) } else { lsv };
    total - cut
}

/// The tournament as if every game of the last round had been drawn (Fore Buchholz).
fn fore(t: &Trf) -> Trf {
    let mut f = t.clone();
    for p in &mut f.players {
        if let Some(last) = p.rounds.last_mut() {
            if last.opponent != 0 && matches!(last.result, '1' | '0' | '=' | '+' | '-') {
                last.result = '=';
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
    (lowest - 800..=highest + 800).find(|&r| expected(r) >= score - 1e-9)
}

/// Every tie-break value of every player.
pub fn compute(t: &Trf) -> Vec<Values> {
    let fore = fore(t);
    t.players
        .iter()
        .map(|p| {
            let parts = parts(t, p);
            let fore_parts = parts_of(&fore, p.number);
            let mut cumulative = 0.0;
            let progressive: Vec<f64> = p
                .rounds
                .iter()
                .map(|r| {
                    cumulative += r.points();
                    cumulative
                })
                .collect();
            let played: Vec<&Round> = p.rounds.iter().filter(|r| r.played()).collect();
            let opponents: Vec<u32> = played
                .iter()
                .filter_map(|r| t.player(r.opponent).map(|o| o.rating))
                .filter(|&r| r > 0)
                .collect();
            let otb_points: f64 = played.iter().map(|r| r.points()).sum();
            let aro = (!opponents.is_empty()).then(|| {
                let avg = opponents.iter().map(|&r| f64::from(r)).sum::<f64>() / opponents.len() as f64;
                (avg + 0.5).floor() as i64
            });
            let tpr = aro.map(|a| a + ratings::elo::dp(otb_points / opponents.len() as f64));
            Values {
                number: p.number,
                pts: score(p),
                bh: buchholz(&parts, 0, 0),
                bh_c1: buchholz(&parts, 1, 0),
                bh_c2: buchholz(&parts, 2, 0),
                bh_m1: buchholz(&parts, 1, 1),
                fb: buchholz(&fore_parts, 0, 0),
                sb: sonneborn_berger(&parts, false),
                sb_c1: sonneborn_berger(&parts, true),
                ps: progressive.iter().sum(),
                ps_c1: progressive.iter().skip(1).sum(),
                win: p.rounds.iter().filter(|r| r.points() == 1.0).count() as u32,
                won: played.iter().filter(|r| r.points() == 1.0).count() as u32,
                bpg: played.iter().filter(|r| r.colour == Colour::Black).count() as u32,
                bwg: played
                    .iter()
                    .filter(|r| r.colour == Colour::Black && r.points() == 1.0)
                    .count() as u32,
                rep: p.rounds.iter().filter(|r| !r.voluntary_unplayed()).count() as u32,
                vur: p.rounds.iter().filter(|r| r.voluntary_unplayed()).count() as u32,
                aro,
                tpr,
                ptp: perfect_performance(&opponents, otb_points),
            }
        })
        .collect()
}

fn parts_of(t: &Trf, number: u32) -> Vec<Part> {
    t.player(number).map(|p| parts(t, p)).unwrap_or_default()
}

//! 积分编排制: the Chinese Xiangqi Association's Swiss system (中国象棋竞赛规则 2011, appendix;
//! specs/tournament.md §7.2). Unlike the Dutch system it is an arbiter's procedure, not an
//! algorithm with one answer; this is a faithful reading of it:
//!
//! - round 1: players in rating order (unrated after, in a drawn order), the upper half paired
//!   with the lower half by lot, colours by lot;
//! - later rounds: never a rematch; same score together, top scores first, otherwise the nearest
//!   score (积分段); then, if the regulations ask for it, not two players of the same unit
//!   (同单位回避); then Red/Black balance (more Reds against more Blacks); then, inside a score
//!   group, the upper half against the lower half;
//! - an odd player out gets the bye (a win, 2 points): the lowest in the standings who has not
//!   had one and whose absence still lets everyone else be paired.
//!
//! Everything random is drawn from a seed, so a round can be audited and replayed.

use crate::dutch::cardinality;
use crate::dutch::Pairing;
use crate::lots::splitmix64;
use crate::matching::max_weight_matching;
use crate::result::{Bye, RoundResult, Score};

/// A player as the round sees them. Scores in points of 2/1/0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entrant {
    pub id: u32,
    /// 0 for unrated.
    pub rating: u32,
    pub score: u32,
    pub reds: u32,
    pub blacks: u32,
    /// Colour of the last game: `Some(true)` Red.
    pub last_red: Option<bool>,
    pub opponents: Vec<u32>,
    pub had_bye: bool,
    /// The player's unit (club, province), for 同单位回避.
    pub team: Option<String>,
}

#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Keep players of the same unit apart where scores allow.
    pub avoid_same_team: bool,
    /// Seed of the lots (round 1 halves, colours when nothing else decides).
    pub seed: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoPairing;

impl std::fmt::Display for NoPairing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("no pairing avoids every rematch")
    }
}

impl std::error::Error for NoPairing {}

/// The players of a TRF as they stand before the round after its last one (players with an
/// entry in that round's column, or a `240` bye for it, are not paired). Scores 2/1/0; a
/// forfeit is not a meeting.
pub fn entrants(trf: &crate::trf::Trf) -> Vec<Entrant> {
    use crate::trf::Colour;
    let round = crate::dutch::rounds_paired(trf);
    let byes = trf.requested_byes();
    trf.players
        .iter()
        .filter(|p| round >= p.written && !byes.iter().any(|b| b.round == round + 1 && b.player == p.number))
        .map(|p| {
            let rounds = &p.rounds[..round.min(p.rounds.len())];
            let played: Vec<_> = rounds.iter().filter(|r| r.played()).collect();
            Entrant {
                id: p.number,
                rating: p.rating,
                score: rounds
                    .iter()
                    .map(|r| match r.result.score() {
                        Some(Score::Win) => 2,
                        Some(Score::Draw) => 1,
                        _ => 0,
                    })
                    .sum(),
                reds: played.iter().filter(|r| r.colour == Colour::White).count() as u32,
                blacks: played.iter().filter(|r| r.colour == Colour::Black).count() as u32,
                last_red: played.last().map(|r| r.colour == Colour::White),
                opponents: played.iter().map(|r| r.opponent).collect(),
                had_bye: rounds
                    .iter()
                    .any(|r| r.result == RoundResult::Bye(Bye::PairingAllocated)),
                team: (!p.federation.is_empty()).then(|| p.federation.clone()),
            }
        })
        .collect()
}

struct Lot(u64);

impl Lot {
    fn below(&mut self, n: usize) -> usize {
        self.0 = splitmix64(self.0);
        (self.0 % n as u64) as usize
    }
}

/// Pairs round `round` (1-based). Boards are (Red, Black); the bye is a win.
pub fn pair(players: &[Entrant], round: usize, options: &Options) -> Result<Pairing, NoPairing> {
    let mut lot = Lot(options.seed ^ (round as u64).wrapping_mul(0x9E37_79B9));
    // Standings order: score, then rating; unrated in a drawn order after the rated.
    let mut order: Vec<usize> = (0..players.len()).collect();
    let draw: Vec<usize> = (0..players.len()).map(|_| lot.below(1 << 30)).collect();
    order.sort_by_key(|&i| {
        let p = &players[i];
        (
            std::cmp::Reverse(p.score),
            p.rating == 0,
            std::cmp::Reverse(p.rating),
            draw[i],
        )
    });
    let met = |a: usize, b: usize| players[a].opponents.contains(&players[b].id);
    let mut bye = None;
    if order.len() % 2 == 1 {
        // The lowest who may take it and leaves a field that can all be paired.
        for k in (0..order.len()).rev() {
            let c = order[k];
            if players[c].had_bye {
                continue;
            }
            let rest: Vec<usize> = order.iter().copied().filter(|&x| x != c).collect();
            if cardinality::perfect(rest.len(), |a, b| !met(rest[a], rest[b])) {
                bye = Some(c);
                break;
            }
        }
        if bye.is_none() {
            return Err(NoPairing);
        }
    }
    let field: Vec<usize> = order.iter().copied().filter(|&x| Some(x) != bye).collect();
    let n = field.len();
    if !cardinality::perfect(n, |a, b| !met(field[a], field[b])) {
        return Err(NoPairing);
    }
    let pairs: Vec<(usize, usize)> = if round == 1 {
        // Upper half against the lower half, by lot.
        let half = n / 2;
        let mut lower: Vec<usize> = field[half..].to_vec();
        for i in (1..lower.len()).rev() {
            lower.swap(i, lot.below(i + 1));
        }
        field[..half].iter().copied().zip(lower).collect()
    } else {
        later_round(players, &field, options)
    };
    let mut boards: Vec<(u32, u32)> = pairs
        .into_iter()
        .map(|(a, b)| {
            let a_red = red(&players[a], &players[b], &mut lot);
            let (r, k) = if a_red { (a, b) } else { (b, a) };
            (players[r].id, players[k].id)
        })
        .collect();
    let place = |id: u32| field.iter().position(|&x| players[x].id == id).unwrap_or(usize::MAX);
    boards.sort_by_key(|&(r, b)| place(r).min(place(b)));
    Ok(Pairing {
        boards,
        bye: bye.map(|b| players[b].id),
    })
}

/// Whether `a` takes Red against `b`: more Blacks so far takes Red; equal, the one whose last
/// game was Black; otherwise by lot.
fn red(a: &Entrant, b: &Entrant, lot: &mut Lot) -> bool {
    let (da, db) = (a.reds as i64 - a.blacks as i64, b.reds as i64 - b.blacks as i64);
    if da != db {
        return da < db;
    }
    match (a.last_red, b.last_red) {
        (Some(x), Some(y)) if x != y => !x,
        _ => lot.below(2) == 0,
    }
}

fn bits(n: u64) -> u32 {
    u64::BITS - n.leading_zeros()
}

/// The matching for rounds after the first: fields of the weight, most important first.
fn later_round(players: &[Entrant], field: &[usize], options: &Options) -> Vec<(usize, usize)> {
    let n = field.len();
    let w = bits(n as u64) + 1;
    let mut levels: Vec<u32> = field.iter().map(|&i| players[i].score).collect();
    levels.sort_unstable();
    levels.dedup();
    let level = |s: u32| levels.binary_search(&s).expect("a score of the field") as u32;
    let max_diff = levels.last().copied().unwrap_or(0) - levels.first().copied().unwrap_or(0);
    let dw = bits(max_diff as u64 * n as u64) + 1;
    // Group sizes, for the halves inside a score group.
    let group_start = |k: usize| {
        (0..=k)
            .rev()
            .take_while(|&j| players[field[j]].score == players[field[k]].score)
            .last()
            .unwrap_or(k)
    };
    let group_len = |k: usize| {
        field[group_start(k)..]
            .iter()
            .take_while(|&&j| players[j].score == players[field[k]].score)
            .count()
    };
    // Layout from the bottom: halves (tie), colour, team, score difference, same-score vector.
    let tie_at = 0;
    let colour_at = tie_at + 2 * w;
    let team_at = colour_at + w;
    let diff_at = team_at + w;
    let same_at = diff_at + dw;
    let pairs_at = same_at + w * levels.len() as u32;
    assert!(pairs_at + w + 2 <= 128, "field too large for 128-bit weights");
    let weight = |a: usize, b: usize| -> u128 {
        let (a, b) = (a.min(b), a.max(b));
        let (p, q) = (&players[field[a]], &players[field[b]]);
        if p.opponents.contains(&q.id) {
            return 0;
        }
        let mut x: u128 = 1 << pairs_at;
        if p.score == q.score {
            x += 1 << (same_at + w * level(p.score));
        }
        x += ((max_diff - p.score.abs_diff(q.score)) as u128) << diff_at;
        let same_team = options.avoid_same_team && p.team.is_some() && p.team == q.team;
        x += (!same_team as u128) << team_at;
        let (dp, dq) = (p.reds as i64 - p.blacks as i64, q.reds as i64 - q.blacks as i64);
        let clash = (dp > 0 && dq > 0) || (dp < 0 && dq < 0);
        x += (!clash as u128) << colour_at;
        if p.score == q.score {
            let half = group_len(a) / 2;
            let d = (b - a).abs_diff(half) as u128;
            x += (n as u128 - d.min(n as u128)) << tie_at;
        }
        x
    };
    let mate = max_weight_matching(n, weight);
    (0..n)
        .filter_map(|a| mate[a].filter(|&b| b > a).map(|b| (field[a], field[b])))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entrant(id: u32, rating: u32) -> Entrant {
        Entrant {
            id,
            rating,
            score: 0,
            reds: 0,
            blacks: 0,
            last_red: None,
            opponents: Vec::new(),
            had_bye: false,
            team: None,
        }
    }

    /// Plays a whole event with random results; checks the rules the procedure must keep.
    fn play(n: usize, rounds: usize, seed: u64, teams: bool) {
        let mut ps: Vec<Entrant> = (0..n as u32).map(|i| entrant(i + 1, 2400 - 10 * i)).collect();
        if teams {
            for p in &mut ps {
                p.team = Some(format!("T{}", p.id % 4));
            }
        }
        let mut rng = seed;
        for round in 1..=rounds {
            let options = Options {
                avoid_same_team: teams,
                seed,
            };
            let Ok(pairing) = pair(&ps, round, &options) else {
                assert!(round > n / 2, "no pairing in round {round} of {n}");
                return;
            };
            let mut seen = std::collections::HashSet::new();
            let by_id = |id: u32| id as usize - 1; // ids are 1..=n in order
            if round == 1 {
                // Upper half against the lower half.
                for &(r, b) in &pairing.boards {
                    let (x, y) = (by_id(r), by_id(b));
                    assert!((x < n / 2) != (y < n / 2), "{x} {y}");
                }
            }
            for &(r, b) in &pairing.boards {
                assert!(seen.insert(r) && seen.insert(b));
                let (x, y) = (by_id(r), by_id(b));
                assert!(!ps[x].opponents.contains(&b), "rematch {r}-{b} in round {round}");
                // Red goes to the one with fewer Reds than Blacks when they differ.
                let (dx, dy) = (
                    ps[x].reds as i64 - ps[x].blacks as i64,
                    ps[y].reds as i64 - ps[y].blacks as i64,
                );
                assert!(dx <= dy, "round {round}: {r} ({dx}) Red against {b} ({dy})");
            }
            if let Some(b) = pairing.bye {
                assert!(seen.insert(b));
                let i = by_id(b);
                assert!(!ps[i].had_bye);
                ps[i].had_bye = true;
                ps[i].score += 2;
            }
            assert_eq!(seen.len(), n);
            for &(r, b) in &pairing.boards {
                let (x, y) = (by_id(r), by_id(b));
                rng = splitmix64(rng);
                let (sx, sy) = [(2, 0), (1, 1), (0, 2)][(rng % 3) as usize];
                ps[x].score += sx;
                ps[y].score += sy;
                ps[x].reds += 1;
                ps[y].blacks += 1;
                ps[x].last_red = Some(true);
                ps[y].last_red = Some(false);
                ps[x].opponents.push(b);
                ps[y].opponents.push(r);
            }
        }
    }

    #[test]
    fn whole_events_keep_the_rules() {
        for seed in 0..40 {
            let n = 6 + (seed as usize * 5) % 30;
            play(n, 7, seed, seed % 2 == 0);
        }
    }

    /// Scores: no other pairing has more same-score pairs (top groups first) or a smaller total
    /// score difference; checked against every pairing of small fields.
    #[test]
    fn score_pairing_is_optimal_on_small_fields() {
        for seed in 0..300u64 {
            let mut rng = seed + 1;
            let n = 4 + 2 * (seed as usize % 4);
            let ps: Vec<Entrant> = (0..n as u32)
                .map(|i| {
                    rng = splitmix64(rng);
                    let mut e = entrant(i + 1, 2000 - i);
                    e.score = (rng % 7) as u32;
                    e
                })
                .collect();
            let mut ps = ps;
            // A few earlier meetings.
            for _ in 0..n / 2 {
                rng = splitmix64(rng);
                let (a, b) = ((rng % n as u64) as usize, ((rng >> 20) % n as u64) as usize);
                if a != b {
                    let (ia, ib) = (ps[a].id, ps[b].id);
                    ps[a].opponents.push(ib);
                    ps[b].opponents.push(ia);
                }
            }
            let Ok(p) = pair(&ps, 3, &Options::default()) else {
                continue;
            };
            let key = |pairs: &[(u32, u32)]| {
                let score = |id: u32| ps.iter().find(|e| e.id == id).unwrap().score;
                let mut same: Vec<u32> = pairs
                    .iter()
                    .filter(|&&(a, b)| score(a) == score(b))
                    .map(|&(a, _)| score(a))
                    .collect();
                same.sort_unstable_by(|a, b| b.cmp(a));
                let diff: u32 = pairs.iter().map(|&(a, b)| score(a).abs_diff(score(b))).sum();
                (same, diff)
            };
            let ours = key(&p.boards);
            let ids: Vec<u32> = ps.iter().map(|e| e.id).collect();
            let mut best: Option<(Vec<u32>, u32)> = None;
            all_pairings(&ids, &ps, &mut Vec::new(), &mut |pairs| {
                let k = key(pairs);
                let better = match &best {
                    None => true,
                    Some((s, d)) => {
                        // More same-score pairs, higher groups first; then less difference.
                        let by_groups = levels_cmp(&k.0, s);
                        by_groups == std::cmp::Ordering::Greater || (by_groups == std::cmp::Ordering::Equal && k.1 < *d)
                    }
                };
                if better {
                    best = Some(k);
                }
            });
            let best = best.expect("a pairing exists");
            assert_eq!(levels_cmp(&ours.0, &best.0), std::cmp::Ordering::Equal, "seed {seed}");
            assert_eq!(ours.1, best.1, "seed {seed}");
        }
    }

    /// Compares same-score pairs group by group from the top: more pairs in a higher group wins.
    fn levels_cmp(a: &[u32], b: &[u32]) -> std::cmp::Ordering {
        let count = |v: &[u32], s: u32| v.iter().filter(|&&x| x == s).count();
        let mut levels: Vec<u32> = a.iter().chain(b).copied().collect();
        levels.sort_unstable_by(|x, y| y.cmp(x));
        levels.dedup();
        for s in levels {
            match count(a, s).cmp(&count(b, s)) {
                std::cmp::Ordering::Equal => continue,
                o => return o,
            }
        }
        std::cmp::Ordering::Equal
    }

    type Pairs = [(u32, u32)];

    fn all_pairings(left: &[u32], ps: &[Entrant], acc: &mut Vec<(u32, u32)>, f: &mut dyn FnMut(&Pairs)) {
        let Some((&a, rest)) = left.split_first() else {
            f(acc);
            return;
        };
        for (i, &b) in rest.iter().enumerate() {
            if ps.iter().find(|e| e.id == a).unwrap().opponents.contains(&b) {
                continue;
            }
            let mut others = rest.to_vec();
            others.remove(i);
            acc.push((a, b));
            all_pairings(&others, ps, acc, f);
            acc.pop();
        }
    }
}

//! Grouped round robin (分组循环, seed 000 §11.3): seeds by rating or in a given order, dealt
//! into groups in snake order and kept apart by club if asked; each group plays a round robin
//! ([`crate::round_robin`]); the top K of each go on to a final stage, seeded here so that a
//! knockout bracket ([`crate::knockout`]) keeps group winners apart and group mates apart.
//!
//! ```
//! use tournament::groups::{deal, final_seeding, Entrant};
//!
//! let field: Vec<Entrant> = (0..8).map(|_| Entrant::default()).collect();
//! let groups = deal(&field, 2, false).unwrap();
//! assert_eq!(groups, [vec![0, 3, 4, 7], vec![1, 2, 5, 6]]);
//! // Say each group finished in seeding order: A1, B1, then A2, B2, so that the bracket's
//! // first round is A1–B2 and B1–A2.
//! assert_eq!(final_seeding(&groups, 2).unwrap(), [0, 1, 3, 2]);
//! ```

use crate::matching::max_weight_matching;
use serde::Serialize;
use std::fmt;

/// An entrant as the grouping sees one.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Entrant {
    /// The rating seeding by rating orders by; `None` for an unrated entrant.
    pub rating: Option<u32>,
    /// The club, region or unit (单位) that `separate` keeps apart; `None` clashes with no one.
    pub club: Option<String>,
}

/// How the seeding order is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum SeedBy {
    /// Highest rating first; unrated entrants after the rated; equal ratings keep the given order.
    Rating,
    /// The order the entrants are given in (the organisers' list, or results of a qualifier).
    Given,
}

/// Why a grouping or a final seeding cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Error {
    /// Zero groups asked for.
    NoGroups,
    /// A group needs two players to play a round robin.
    TooFewPlayers { players: usize, groups: usize },
    /// Zero qualifiers per group asked for.
    NoQualifiers,
    /// A group has fewer players than the places that qualify.
    GroupTooSmall {
        group: usize,
        players: usize,
        advance: usize,
    },
    /// A final too large to weigh (more than a million qualifiers, say).
    FinalTooLarge { qualifiers: usize },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NoGroups => write!(f, "no groups: at least one group is needed"),
            Error::TooFewPlayers { players, groups } => write!(
                f,
                "{players} players cannot make {groups} groups: each group needs at least two"
            ),
            Error::NoQualifiers => write!(f, "no qualifiers: at least one place per group must go on"),
            Error::GroupTooSmall {
                group,
                players,
                advance,
            } => write!(
                f,
                "group {} has {players} players, fewer than the {advance} places that qualify",
                group + 1
            ),
            Error::FinalTooLarge { qualifiers } => {
                write!(f, "a final of {qualifiers} qualifiers is too large to seed")
            }
        }
    }
}

impl std::error::Error for Error {}

/// The seeding order of `entrants`: their indices, first seed first.
pub fn seeding(entrants: &[Entrant], by: SeedBy) -> Vec<usize> {
    let mut order: Vec<usize> = (0..entrants.len()).collect();
    if by == SeedBy::Rating {
        // Stable: equal ratings (and the unrated among themselves) keep the given order.
        order.sort_by_key(|&i| std::cmp::Reverse(entrants[i].rating.map(|r| u64::from(r) + 1)));
    }
    order
}

/// Deals `seeded` (in seeding order, first seed first) into `groups` groups: the indices of
/// each group's entrants, in seeding order.
///
/// The deal is the snake (蛇形): row k of the deal holds seeds kG + 1 … kG + G, dealt to groups
/// 1 … G in even rows and G … 1 in odd rows; a short last row fills the groups the snake
/// reaches first. With `separate`, each row is then re-dealt among its own places, so group
/// sizes and each group's share of every row stay the snake's; the rule, row by row:
///
/// 1. A player placed in a group already holding n players of his club costs n; the row takes
///    the least total cost any re-deal of it allows (so two of a club share a group only when
///    every re-deal of the row would put one somewhere his club already is).
/// 2. Among those re-deals, the players choose in seeding order: each keeps his snake place if
///    the row's least cost can still be reached, else takes the nearest place of the row that
///    can (nearest in the row's deal order; on equal distance the one dealt earlier).
///
/// Only earlier rows are looked at: a player never moves to another row, so the groups keep
/// the snake's balance of strength.
pub fn deal(seeded: &[Entrant], groups: usize, separate: bool) -> Result<Vec<Vec<usize>>, Error> {
    if groups == 0 {
        return Err(Error::NoGroups);
    }
    if seeded.len() < 2 * groups {
        return Err(Error::TooFewPlayers {
            players: seeded.len(),
            groups,
        });
    }
    let snake_group = |i: usize| {
        let (row, col) = (i / groups, i % groups);
        if row % 2 == 0 {
            col
        } else {
            groups - 1 - col
        }
    };
    let mut dealt: Vec<Vec<usize>> = vec![Vec::new(); groups];
    for start in (0..seeded.len()).step_by(groups) {
        let row: Vec<usize> = (start..(start + groups).min(seeded.len())).collect();
        // The row's places: the group each position of the row is dealt to.
        let places: Vec<usize> = row.iter().map(|&i| snake_group(i)).collect();
        let chosen: Vec<usize> = if separate {
            let cost: Vec<Vec<u128>> = row
                .iter()
                .map(|&i| places.iter().map(|&g| clashes(seeded, &dealt[g], i)).collect())
                .collect();
            let preference: Vec<Vec<usize>> = (0..row.len())
                .map(|own| {
                    let mut p: Vec<usize> = (0..row.len()).collect();
                    p.sort_by_key(|&q| (q.abs_diff(own), q));
                    p
                })
                .collect();
            lexicographic_assignment(&cost, &preference)
        } else {
            (0..row.len()).collect()
        };
        for (k, &i) in row.iter().enumerate() {
            dealt[places[chosen[k]]].push(i);
        }
    }
    Ok(dealt)
}

/// How many of `group` share `seeded[i]`'s club.
fn clashes(seeded: &[Entrant], group: &[usize], i: usize) -> u128 {
    match &seeded[i].club {
        None => 0,
        Some(club) => group.iter().filter(|&&j| seeded[j].club.as_ref() == Some(club)).count() as u128,
    }
}

/// The qualifiers of a group stage in the seeding order of the final stage: `groups[g]` is
/// group g's final ranking (entrants, first place first), and the result holds the top
/// `advance` of each, first seed first; seed s is `result[s - 1]`, as
/// [`crate::knockout::seeded_first_round`] numbers them.
///
/// The group winners are seeds 1 … G in group order, so a seeded bracket keeps them apart
/// until its last G. Each further row (the runners-up, then the thirds, …) takes the next G
/// seeds, dealt so that group mates meet as late as the bracket allows:
///
/// 1. Two group mates whose bracket places first meet in round r cost B^(R − r) (R the
///    bracket's rounds, B one more than the group-mate pairs a row can add), so one earlier
///    meeting outweighs any number of later ones; each row takes the least total cost.
/// 2. Among those deals, the seeds choose in order, each taking the first group that still
///    allows the least cost in the snake's order: last group first in odd rows (runners-up),
///    first group first in even rows.
///
/// With two groups this is the classic crossover, A1–B2 and B1–A2; with 2^k groups and two
/// going on, group mates can meet only in the final. (Runners-up simply in reverse group order
/// would not do: a seeded bracket pairs seed s with N + 1 − s, which would put A2 against A1.)
pub fn final_seeding(groups: &[Vec<usize>], advance: usize) -> Result<Vec<usize>, Error> {
    if groups.is_empty() {
        return Err(Error::NoGroups);
    }
    if advance == 0 {
        return Err(Error::NoQualifiers);
    }
    if let Some((g, group)) = groups.iter().enumerate().find(|(_, gr)| gr.len() < advance) {
        return Err(Error::GroupTooSmall {
            group: g,
            players: group.len(),
            advance,
        });
    }
    let g_count = groups.len();
    let qualifiers = g_count * advance;
    let too_large = Error::FinalTooLarge { qualifiers };
    let size = u32::try_from(qualifiers.max(2).next_power_of_two()).map_err(|_| too_large.clone())?;
    if qualifiers > 1 << 20 {
        return Err(too_large);
    }
    let rounds = size.trailing_zeros();
    let base = (g_count * (advance - 1) + 1) as u128;
    // The costliest pair weighs base^(R − 1), a row's total stays below base^R; with the
    // assignment's own scaling (twice times a row's size, at most 2^21) that must stay inside
    // the matcher's bounds (2^126 for u128).
    match base.checked_pow(rounds) {
        Some(top) if top < 1 << 80 => {}
        _ => return Err(too_large),
    }
    // Bracket positions of the seeds; two seeds first meet in the round of their positions'
    // highest differing bit.
    let mut position = vec![0usize; size as usize + 1];
    for (p, &s) in crate::knockout::bracket_order(size).iter().enumerate() {
        position[s as usize] = p;
    }
    let meets = |s: usize, t: usize| (position[s] ^ position[t]).ilog2() + 1;
    // seeds[g]: the seeds given to group g so far.
    let mut seeds: Vec<Vec<usize>> = (0..g_count).map(|g| vec![g + 1]).collect();
    let mut order: Vec<usize> = groups.iter().map(|g| g[0]).collect();
    for row in 1..advance {
        let slots: Vec<usize> = (1..=g_count).map(|k| row * g_count + k).collect();
        // Agents are the row's seeds, in order; their choices are the groups.
        let cost: Vec<Vec<u128>> = slots
            .iter()
            .map(|&s| {
                (0..g_count)
                    .map(|g| seeds[g].iter().map(|&t| base.pow(rounds - meets(s, t))).sum())
                    .collect()
            })
            .collect();
        let snake: Vec<usize> = if row % 2 == 1 {
            (0..g_count).rev().collect()
        } else {
            (0..g_count).collect()
        };
        let preference = vec![snake; g_count];
        let chosen = lexicographic_assignment(&cost, &preference);
        for (&g, &s) in chosen.iter().zip(&slots) {
            seeds[g].push(s);
        }
        order.extend(chosen.iter().map(|&g| groups[g][seeds[g].len() - 1]));
    }
    Ok(order)
}

/// The entrants tied across the last qualifying place, who need a play-off (附加赛): `ranked`
/// is a group's final order (entrant, and whatever decides rank: score then tie-breaks), first
/// place first. `None` when the cut falls between two different keys, or when everyone or no
/// one goes on; else every entrant whose key equals the last qualifier's, in ranked order.
pub fn qualifying_ties<E: Clone, K: PartialEq>(ranked: &[(E, K)], advance: usize) -> Option<Vec<E>> {
    if advance == 0 || advance >= ranked.len() {
        return None;
    }
    let last = &ranked[advance - 1].1;
    if ranked[advance].1 != *last {
        return None;
    }
    Some(
        ranked
            .iter()
            .filter(|(_, k)| k == last)
            .map(|(e, _)| e.clone())
            .collect(),
    )
}

/// A square assignment of agents to choices (`cost[a][c]`, `preference[a]` every choice once)
/// of least total cost and, among those, lexicographically first: agent 0 takes the earliest
/// choice of its preference with which the least cost can still be reached, then agent 1, …
///
/// A least-cost plan for the agents still to choose is kept: an agent whose turn reaches its
/// planned choice takes it without another solve, so a row most of whose players keep their
/// places costs a few solves, not one per player.
fn lexicographic_assignment(cost: &[Vec<u128>], preference: &[Vec<usize>]) -> Vec<usize> {
    let n = cost.len();
    let agents: Vec<usize> = (0..n).collect();
    let mut free: Vec<usize> = (0..n).collect();
    let (best, mut plan) = least_cost(cost, preference, &agents, &free);
    let mut spent = 0u128;
    let mut chosen = vec![usize::MAX; n];
    for a in 0..n {
        let rest: Vec<usize> = (a + 1..n).collect();
        for &c in preference[a].iter().filter(|c| free.contains(c)) {
            if c == plan[a] {
                break;
            }
            let others: Vec<usize> = free.iter().copied().filter(|&x| x != c).collect();
            // A cheap bound first: each agent left at its cheapest remaining choice.
            let floor: u128 = rest
                .iter()
                .map(|&r| others.iter().map(|&x| cost[r][x]).min().unwrap_or(0))
                .sum();
            if spent + cost[a][c] + floor > best {
                continue;
            }
            let (least, rest_plan) = least_cost(cost, preference, &rest, &others);
            if spent + cost[a][c] + least == best {
                plan[a] = c;
                for (&r, &p) in rest.iter().zip(&rest_plan) {
                    plan[r] = p;
                }
                break;
            }
        }
        let pick = plan[a];
        spent += cost[a][pick];
        chosen[a] = pick;
        free.retain(|&c| c != pick);
    }
    chosen
}

/// The least total cost of giving each of `agents` one of `choices` (as many of each), and a
/// choice for each agent that reaches it, as many agents on their first preference as can be.
fn least_cost(
    cost: &[Vec<u128>],
    preference: &[Vec<usize>],
    agents: &[usize],
    choices: &[usize],
) -> (u128, Vec<usize>) {
    let n = agents.len();
    let dearest = agents
        .iter()
        .flat_map(|&a| choices.iter().map(move |&c| cost[a][c]))
        .max();
    if dearest.unwrap_or(0) == 0 {
        return (0, choices.to_vec());
    }
    // Scaled by n + 1 with one more for a choice other than the first preference: the least
    // scaled cost is a least cost, and among those the most first preferences (so the plan of
    // `lexicographic_assignment` mostly needs no re-solve).
    let scale = n as u128 + 1;
    let scaled = |a: usize, c: usize| cost[a][c] * scale + u128::from(preference[a][0] != c);
    let dearest = dearest.unwrap_or(0) * scale + 1;
    // Weights top − cost, with top above n × dearest: every perfect assignment outweighs any
    // smaller one, so the heaviest matching is a perfect one of least cost.
    let top = n as u128 * dearest + 1;
    let mates = max_weight_matching(2 * n, |u, v| {
        if u < n && v >= n {
            top - scaled(agents[u], choices[v - n])
        } else {
            0
        }
    });
    let plan: Vec<usize> = (0..n)
        .map(|u| choices[mates[u].expect("a perfect assignment") - n])
        .collect();
    let total = agents.iter().zip(&plan).map(|(&a, &c)| cost[a][c]).sum();
    (total, plan)
}

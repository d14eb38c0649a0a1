//! The grouped round robin: the deal, the separation of clubs (checked against a brute force
//! over every re-deal of a row), the final stage's seeding (checked in a seeded bracket and
//! against a brute force over every deal of a row), and the play-off ties.

use tournament::groups::{deal, final_seeding, qualifying_ties, seeding, Entrant, Error, SeedBy};
use tournament::knockout::{bracket_order, seeded_first_round, Slot};
use tournament::lots::Stream;
use tournament::round_robin::snake_groups;

fn field(clubs: &[Option<&str>]) -> Vec<Entrant> {
    clubs
        .iter()
        .map(|c| Entrant {
            rating: None,
            club: c.map(str::to_string),
        })
        .collect()
}

fn plain(n: usize) -> Vec<Entrant> {
    vec![Entrant::default(); n]
}

/// Every permutation of 0..n, in lexicographic order.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for first in 0..n {
        for rest in permutations(n - 1) {
            let mut p = vec![first];
            p.extend(rest.into_iter().map(|x| if x >= first { x + 1 } else { x }));
            out.push(p);
        }
    }
    out
}

#[test]
fn seeding_by_rating_or_as_given() {
    let e = |r: Option<u32>| Entrant { rating: r, club: None };
    let field = [
        e(Some(1800)),
        e(None),
        e(Some(2100)),
        e(Some(1800)),
        e(Some(0)),
        e(None),
    ];
    assert_eq!(seeding(&field, SeedBy::Rating), [2, 0, 3, 4, 1, 5]);
    assert_eq!(seeding(&field, SeedBy::Given), [0, 1, 2, 3, 4, 5]);
}

#[test]
fn without_separation_the_deal_is_the_snake() {
    for groups in 1..=8 {
        for n in 2 * groups..=40 {
            let idx: Vec<usize> = (0..n).collect();
            assert_eq!(deal(&plain(n), groups, false).unwrap(), snake_groups(&idx, groups));
        }
    }
    // The spec's vector: 16 in 4 groups.
    let g = deal(&plain(16), 4, false).unwrap();
    let seeds: Vec<Vec<usize>> = g.iter().map(|g| g.iter().map(|i| i + 1).collect()).collect();
    assert_eq!(
        seeds,
        [
            vec![1, 8, 9, 16],
            vec![2, 7, 10, 15],
            vec![3, 6, 11, 14],
            vec![4, 5, 12, 13]
        ]
    );
}

#[test]
fn bad_deals_are_refused() {
    assert_eq!(deal(&plain(8), 0, false), Err(Error::NoGroups));
    assert_eq!(
        deal(&plain(7), 4, true),
        Err(Error::TooFewPlayers { players: 7, groups: 4 })
    );
    assert_eq!(deal(&[], 1, false), Err(Error::TooFewPlayers { players: 0, groups: 1 }));
    assert!(Error::TooFewPlayers { players: 7, groups: 4 }
        .to_string()
        .contains("at least two"));
}

/// Seeds 1 and 8 of one club would share group A; seed 8 trades places with seed 7 (the
/// nearest in its row whose move keeps everyone apart), the rest is the snake.
#[test]
fn club_mates_are_kept_apart_within_the_row() {
    let mut clubs = vec![None; 16];
    clubs[0] = Some("X");
    clubs[7] = Some("X");
    let g = deal(&field(&clubs), 4, true).unwrap();
    let seeds: Vec<Vec<usize>> = g.iter().map(|g| g.iter().map(|i| i + 1).collect()).collect();
    assert_eq!(
        seeds,
        [
            vec![1, 7, 9, 16],
            vec![2, 8, 10, 15],
            vec![3, 6, 11, 14],
            vec![4, 5, 12, 13]
        ]
    );
    // Unavoidable: five of one club in four groups share one group, and only one.
    let clubs = [Some("Y"); 5].into_iter().chain([None; 3]).collect::<Vec<_>>();
    let g = deal(&field(&clubs), 4, true).unwrap();
    let ys: Vec<usize> = g.iter().map(|g| g.iter().filter(|&&i| i < 5).count()).collect();
    assert_eq!(ys.iter().filter(|&&c| c == 2).count(), 1, "{g:?}");
}

/// Random fields (clubs drawn from a few), every re-deal of each row tried: the deal keeps
/// each row within its snake places, takes the row's least cost, and among those the
/// lexicographically first by the players' preferences.
#[test]
fn separation_matches_a_brute_force_row_by_row() {
    let mut lots = Stream::new(11);
    for case in 0..300 {
        let groups = 2 + lots.below(4) as usize; // 2..=5
        let n = 2 * groups + lots.below(3 * groups as u64 + 1) as usize;
        let clubs_in_play = 1 + lots.below(4);
        let names = ["a", "b", "c", "d"];
        let clubs: Vec<Option<&str>> = (0..n)
            .map(|_| match lots.below(clubs_in_play + 1) {
                0 => None,
                k => Some(names[k as usize - 1]),
            })
            .collect();
        let entrants = field(&clubs);
        let got = deal(&entrants, groups, true).unwrap();
        assert_eq!(got, deal(&entrants, groups, true).unwrap(), "deterministic");
        let snake = deal(&entrants, groups, false).unwrap();
        let group_of = |d: &Vec<Vec<usize>>, i: usize| d.iter().position(|g| g.contains(&i)).unwrap();
        let mut placed: Vec<Vec<usize>> = vec![Vec::new(); groups];
        for start in (0..n).step_by(groups) {
            let row: Vec<usize> = (start..(start + groups).min(n)).collect();
            let places: Vec<usize> = row.iter().map(|&i| group_of(&snake, i)).collect();
            let cost =
                |i: usize, g: usize| clubs[i].map_or(0, |c| placed[g].iter().filter(|&&j| clubs[j] == Some(c)).count());
            // Brute force: (cost, preference ranks in seeding order), least first.
            let rank = |k: usize, q: usize| {
                let mut p: Vec<usize> = (0..row.len()).collect();
                p.sort_by_key(|&x| (x.abs_diff(k), x));
                p.iter().position(|&x| x == q).unwrap()
            };
            let best = permutations(row.len())
                .into_iter()
                .min_by_key(|perm| {
                    let total: usize = perm.iter().enumerate().map(|(k, &q)| cost(row[k], places[q])).sum();
                    let ranks: Vec<usize> = perm.iter().enumerate().map(|(k, &q)| rank(k, q)).collect();
                    (total, ranks)
                })
                .unwrap();
            for (k, &i) in row.iter().enumerate() {
                assert_eq!(group_of(&got, i), places[best[k]], "case {case}: player {i}");
            }
            for (k, &i) in row.iter().enumerate() {
                placed[places[best[k]]].push(i);
            }
        }
    }
}

/// The first round of a seeded bracket of the final, in entrants: (a, b), `None` for a bye.
fn first_round(order: &[usize]) -> Vec<(Option<usize>, Option<usize>)> {
    let e = |s: Slot| match s {
        Slot::Player(p) => Some(order[p as usize - 1]),
        Slot::Bye => None,
    };
    seeded_first_round(order.len() as u32)
        .into_iter()
        .map(|(a, b)| (e(a), e(b)))
        .collect()
}

/// Groups of `size` whose entrants are numbered group * 100 + place (place 1 first).
fn ranked_groups(groups: usize, size: usize) -> Vec<Vec<usize>> {
    (0..groups).map(|g| (1..=size).map(|p| g * 100 + p).collect()).collect()
}

#[test]
fn two_groups_cross_over() {
    let order = final_seeding(&ranked_groups(2, 4), 2).unwrap();
    assert_eq!(order, [1, 101, 2, 102], "A1, B1, A2, B2");
    assert_eq!(first_round(&order), [(Some(1), Some(102)), (Some(101), Some(2))]);
}

/// Four groups, two go on: every first-round game is a winner against another group's
/// runner-up, and each runner-up is in the other half from its winner (A1–B2, D1–C2 above,
/// B1–A2, C1–D2 below).
#[test]
fn four_groups_keep_group_mates_to_the_final() {
    let order = final_seeding(&ranked_groups(4, 4), 2).unwrap();
    assert_eq!(order, [1, 101, 201, 301, 202, 302, 2, 102]);
    assert_eq!(
        first_round(&order),
        [
            (Some(1), Some(102)),
            (Some(301), Some(202)),
            (Some(101), Some(2)),
            (Some(201), Some(302))
        ]
    );
}

/// The round in which two seeds of a bracket of `size` first meet.
fn meeting_round(size: u32, s: usize, t: usize) -> u32 {
    let order = bracket_order(size);
    let at = |x: usize| order.iter().position(|&y| y as usize == x).unwrap();
    (at(s) ^ at(t)).ilog2() + 1
}

#[test]
fn eight_groups_and_three_groups() {
    let order = final_seeding(&ranked_groups(8, 3), 2).unwrap();
    let group = |e: usize| e / 100;
    let seed = |e: usize| order.iter().position(|&x| x == e).unwrap() + 1;
    for g in 0..8 {
        assert_eq!(seed(g * 100 + 1), g + 1, "winners first, in group order");
        assert_eq!(
            meeting_round(16, seed(g * 100 + 1), seed(g * 100 + 2)),
            4,
            "only in the final"
        );
    }
    for (a, b) in first_round(&order) {
        assert_ne!(group(a.unwrap()), group(b.unwrap()));
    }
    // Winners meet winners no earlier than the round of the last eight.
    for s in 1..=8 {
        for t in s + 1..=8 {
            assert!(meeting_round(16, s, t) >= 2, "seeds {s} and {t}");
        }
    }
    // Three groups, six qualifiers in a bracket of eight: the winners of A and B have the byes,
    // C1 meets A2, B2 meets C2, and every pair of group mates is split between the halves.
    let order = final_seeding(&ranked_groups(3, 2), 2).unwrap();
    assert_eq!(order, [1, 101, 201, 202, 102, 2]);
    assert_eq!(
        first_round(&order),
        [
            (Some(1), None),
            (Some(202), Some(102)),
            (Some(101), None),
            (Some(201), Some(2))
        ]
    );
    for g in 0..3 {
        let (s, t) = (
            order.iter().position(|&x| x == g * 100 + 1).unwrap(),
            order.iter().position(|&x| x == g * 100 + 2).unwrap(),
        );
        assert_eq!(meeting_round(8, s + 1, t + 1), 3);
    }
}

/// Every deal of each row tried, for 1 … 6 groups and 1 … 4 going on: the seeding takes the
/// row's least cost (group mates meeting as late as possible, an earlier meeting outweighing
/// any number of later ones) and among those the snake's preference, seed by seed.
#[test]
fn final_seeding_matches_a_brute_force() {
    for g in 1..=6usize {
        for k in 1..=4usize {
            let groups = ranked_groups(g, k);
            let order = final_seeding(&groups, k).unwrap();
            let size = (g * k).max(2).next_power_of_two() as u32;
            let rounds = size.trailing_zeros();
            let mut seeds: Vec<Vec<usize>> = (0..g).map(|x| vec![x + 1]).collect();
            for row in 1..k {
                let snake: Vec<usize> = if row % 2 == 1 {
                    (0..g).rev().collect()
                } else {
                    (0..g).collect()
                };
                let best = permutations(g)
                    .into_iter()
                    .min_by_key(|perm| {
                        // perm[j]: the group of seed row·g + j + 1. Meetings counted by round.
                        let mut by_round = vec![0usize; rounds as usize + 1];
                        for (j, &grp) in perm.iter().enumerate() {
                            for &t in &seeds[grp] {
                                by_round[meeting_round(size, row * g + j + 1, t) as usize] += 1;
                            }
                        }
                        let ranks: Vec<usize> = perm
                            .iter()
                            .map(|&grp| snake.iter().position(|&x| x == grp).unwrap())
                            .collect();
                        (by_round, ranks)
                    })
                    .unwrap();
                for (j, &grp) in best.iter().enumerate() {
                    assert_eq!(order[row * g + j], grp * 100 + row + 1, "g={g} k={k} row {row}");
                    seeds[grp].push(row * g + j + 1);
                }
            }
        }
    }
}

#[test]
fn bad_finals_are_refused() {
    assert_eq!(final_seeding(&[], 2), Err(Error::NoGroups));
    assert_eq!(final_seeding(&ranked_groups(2, 3), 0), Err(Error::NoQualifiers));
    let groups = vec![vec![1, 2, 3], vec![4]];
    assert_eq!(
        final_seeding(&groups, 2),
        Err(Error::GroupTooSmall {
            group: 1,
            players: 1,
            advance: 2
        })
    );
}

#[test]
fn ties_across_the_cut_need_a_play_off() {
    // (entrant, (score, tie-break)): two go on.
    let ranked = [("a", (5, 9)), ("b", (4, 7)), ("c", (4, 7)), ("d", (4, 6))];
    assert_eq!(qualifying_ties(&ranked, 2), Some(vec!["b", "c"]));
    assert_eq!(qualifying_ties(&ranked, 1), None, "a is clear");
    assert_eq!(qualifying_ties(&ranked, 3), None, "c ahead of d on the tie-break");
    // Three tied for two places: all three play off.
    let ranked = [("a", 3), ("b", 3), ("c", 3), ("d", 1)];
    assert_eq!(qualifying_ties(&ranked, 2), Some(vec!["a", "b", "c"]));
    assert_eq!(qualifying_ties(&ranked, 0), None);
    assert_eq!(qualifying_ties(&ranked, 4), None, "everyone goes on");
}

/// A large field: 512 players from 10 clubs in 64 groups, and a final of 64 × 2. Timed and
/// printed; the check is that every club is spread as evenly as its numbers allow.
#[test]
fn a_large_deal_and_final() {
    let mut lots = Stream::new(5);
    let names = ["c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9"];
    let clubs: Vec<Option<&str>> = (0..512).map(|_| Some(names[lots.below(10) as usize])).collect();
    let start = std::time::Instant::now();
    let g = deal(&field(&clubs), 64, true).unwrap();
    println!("deal of 512 in 64 groups, 10 clubs: {:?}", start.elapsed());
    for club in names {
        let total = clubs.iter().filter(|&&c| c == Some(club)).count();
        let most = g
            .iter()
            .map(|g| g.iter().filter(|&&i| clubs[i] == Some(club)).count())
            .max()
            .unwrap();
        assert!(
            most <= total.div_ceil(64) + 1,
            "{club}: {total} players, {most} in one group"
        );
    }
    let start = std::time::Instant::now();
    let order = final_seeding(&g, 2).unwrap();
    println!("final seeding of 64 × 2: {:?}", start.elapsed());
    assert_eq!(order.len(), 128);
}

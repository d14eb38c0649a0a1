use std::collections::BTreeMap;
use std::time::Instant;

use super::*;
use crate::knockout::{self, seeded_first_round};
use crate::lots::Stream;

/// One played match as the test saw it when the node was ready.
#[derive(Debug, Clone, Copy)]
struct Game {
    node: usize,
    winner: u32,
    loser: u32,
}

/// Plays `b` to the end with random results arriving in random order: at each step a random
/// non-empty subset of the ready nodes gets results, one at a time through [`Progress`]. Checks
/// on the way that `ready` returns only nodes without a result and with two players, that a
/// node's entrants never change once it was ready, and, at one random step and at the end, that
/// [`Progress`] agrees with the stateless [`Bracket::resolve`] and [`Bracket::ready`]. Returns
/// the results and the games in the order played.
fn play_randomly(b: &Bracket, rng: &mut Stream) -> (Vec<Option<Winner>>, Vec<Game>) {
    let mut progress = Progress::new(b, Vec::new());
    let mut games = Vec::new();
    let mut seen: Vec<Option<(Slot, Slot)>> = vec![None; b.nodes.len()];
    let audit_at = rng.below(b.nodes.len() as u64) as usize;
    for step in 0.. {
        if step == audit_at {
            assert_agrees(b, &progress);
        }
        let mut ready: Vec<usize> = progress.ready().collect();
        if ready.is_empty() {
            break;
        }
        rng.shuffle(&mut ready);
        let take = 1 + rng.below(ready.len() as u64) as usize;
        for &i in &ready[..take] {
            assert!(
                progress.winners()[i].is_none(),
                "{} ready after its result",
                b.nodes[i].label
            );
            let state = progress.states()[i];
            let (Slot::Player(a), Slot::Player(c)) = (state.first, state.second) else {
                panic!("{} ready without two players: {state:?}", b.nodes[i].label);
            };
            assert!(seen[i].is_none());
            seen[i] = Some((state.first, state.second));
            let w = if rng.below(2) == 0 {
                Winner::First
            } else {
                Winner::Second
            };
            progress.record(i, w).unwrap();
            let (winner, loser) = if w == Winner::First { (a, c) } else { (c, a) };
            games.push(Game { node: i, winner, loser });
        }
    }
    assert_agrees(b, &progress);
    for (i, s) in seen.iter().enumerate() {
        if let Some(s) = s {
            let end = progress.states()[i];
            assert_eq!((end.first, end.second), *s, "{}: entrants changed", b.nodes[i].label);
        }
    }
    assert!(progress.is_finished() && b.is_finished(progress.winners()));
    assert_eq!(progress.champion(), b.champion(progress.winners()));
    assert_eq!(b.check(progress.winners()), Ok(()));
    (progress.winners().to_vec(), games)
}

fn assert_agrees(b: &Bracket, progress: &Progress) {
    let winners = progress.winners();
    assert_eq!(progress.states(), b.resolve(winners));
    assert_eq!(progress.ready().collect::<Vec<_>>(), b.ready(winners));
    assert_eq!(progress.is_finished(), b.is_finished(winners));
}

/// Losses per seed (index = seed) and, per seed, the index in `games` of each appearance.
fn tally(n: u32, games: &[Game]) -> (Vec<u32>, Vec<Vec<usize>>) {
    let mut losses = vec![0u32; n as usize + 1];
    let mut appearances = vec![Vec::new(); n as usize + 1];
    for (g, game) in games.iter().enumerate() {
        losses[game.loser as usize] += 1;
        appearances[game.winner as usize].push(g);
        appearances[game.loser as usize].push(g);
    }
    (losses, appearances)
}

fn labels(b: &Bracket) -> String {
    b.nodes.iter().map(|n| n.label.as_str()).collect::<Vec<_>>().join(" ")
}

/// The byes of a bracket of 2^k for n are the 2^k − n top seeds: the seeds whose first-round
/// node is a walkover are exactly 1 ..= 2^k − n (counted here from the bracket's own size).
fn assert_byes_to_top_seeds(b: &Bracket, n: u32) {
    let round1: Vec<&Node> = b
        .nodes
        .iter()
        .filter(|x| x.label.trim_start_matches('W').starts_with("1."))
        .collect();
    let size = 2 * round1.len() as u32;
    assert!(size >= n && size / 2 < n.max(2), "n={n}: bracket of {size}");
    let mut with_bye: Vec<u32> = round1
        .iter()
        .filter_map(|x| match (x.first, x.second) {
            (Source::Seed(p), Source::Bye) | (Source::Bye, Source::Seed(p)) => Some(p),
            _ => None,
        })
        .collect();
    with_bye.sort();
    assert_eq!(with_bye, (1..=size - n).collect::<Vec<_>>(), "n={n}");
}

/// Random result sequences per field size: 1000 in an optimised build (the CI profile, `cargo
/// test --profile ci`), 50 in a debug build, where the same loops take some 30 times as long.
const SEQUENCES: u64 = if cfg!(debug_assertions) { 50 } else { 1000 };

#[test]
fn single_knockouts_decide_n_minus_1_matches_and_everyone_plays_until_beaten() {
    for n in 2..=130u32 {
        let plain = single(n, false);
        let third = single(n, true);
        assert_byes_to_top_seeds(&plain, n);
        for seq in 0..SEQUENCES {
            let with_third = seq % 2 == 1;
            let b = if with_third { &third } else { &plain };
            let mut rng = Stream::new(u64::from(n) << 32 | seq);
            let (results, games) = play_randomly(b, &mut rng);
            // A third-place match needs two semi-final losers: four players at least.
            let third_played = with_third && n >= 4;
            assert_eq!(games.len() as u32, n - 1 + u32::from(third_played), "n={n} seq={seq}");
            assert_eq!(b.played(&results).len(), games.len());
            let main: Vec<Game> = games
                .iter()
                .copied()
                .filter(|g| b.nodes[g.node].label != "3P.1")
                .collect();
            let (losses, appearances) = tally(n, &main);
            let champion = b.champion(&results).expect("a champion");
            for p in 1..=n {
                let lost = losses[p as usize];
                assert_eq!(lost, u32::from(p != champion), "n={n} seq={seq}: seed {p}");
                // Nothing after the one loss: the loss is the seed's last main-bracket game.
                if let Some(&at) = appearances[p as usize].last() {
                    assert!(p == champion || main[at].loser == p, "n={n}: seed {p} played on");
                }
            }
            let places = b.placings(&results).expect("finished");
            assert_eq!(places[0].seeds, vec![champion]);
            let mut all: Vec<u32> = places.iter().flat_map(|p| p.seeds.clone()).collect();
            all.sort();
            assert_eq!(all, (1..=n).collect::<Vec<_>>());
            if third_played {
                let third = games.iter().find(|g| b.nodes[g.node].label == "3P.1").unwrap();
                assert_eq!(
                    (places[2].seeds.clone(), places[3].seeds.clone()),
                    (vec![third.winner], vec![third.loser])
                );
            }
        }
    }
}

#[test]
fn double_elimination_plays_2n_minus_2_or_1_and_eliminates_on_the_second_loss() {
    for n in 2..=130u32 {
        let b = double(n);
        assert_byes_to_top_seeds(&b, n);
        let reset = b.nodes.len() - 1;
        let mut resets = 0;
        for seq in 0..SEQUENCES {
            let mut rng = Stream::new(u64::from(n) << 32 | seq | 1 << 63);
            let (results, games) = play_randomly(&b, &mut rng);
            let reset_played = results[reset].is_some();
            resets += usize::from(reset_played);
            assert_eq!(
                games.len() as u32,
                2 * n - 2 + u32::from(reset_played),
                "n={n} seq={seq}"
            );
            let (losses, appearances) = tally(n, &games);
            let champion = b.champion(&results).expect("a champion");
            for p in 1..=n {
                // Eliminated by a second loss, never playing after it; the champion loses only
                // the first grand final, and then plays the reset.
                let want = if p == champion { u32::from(reset_played) } else { 2 };
                assert_eq!(losses[p as usize], want, "n={n} seq={seq}: seed {p}");
                if p != champion {
                    let at = *appearances[p as usize].last().unwrap();
                    assert_eq!(games[at].loser, p, "n={n} seq={seq}: seed {p} played on");
                }
            }
            let places = b.placings(&results).expect("finished");
            let last = games.last().unwrap();
            assert_eq!(last.winner, champion);
            assert_eq!(
                (places[0].seeds.clone(), places[1].seeds.clone()),
                (vec![champion], vec![last.loser])
            );
        }
        assert!(resets > 0 && resets < SEQUENCES as usize, "n={n}: resets {resets}");
    }
}

/// TV-KO of shared/specs/tournament.md §6: the seeded 13 and the double elimination of 8.
#[test]
fn the_knockout_test_vectors() {
    let b = single(13, false);
    let results = vec![None; b.nodes.len()];
    let round1: Vec<(Slot, Slot)> = b.entrants(&results)[..8].to_vec();
    let want: Vec<(Slot, Slot)> = seeded_first_round(13)
        .into_iter()
        .map(|(a, c)| {
            let s = |x| match x {
                knockout::Slot::Player(p) => Slot::Player(p),
                knockout::Slot::Bye => Slot::Bye,
            };
            (s(a), s(c))
        })
        .collect();
    assert_eq!(round1, want);
    // The byes' nodes are never ready: 5 first-round games of 8 nodes.
    assert_eq!(b.ready(&results), vec![1, 2, 3, 5, 7]);
    assert_eq!(b.entrants(&results)[8].0, Slot::Player(1));
    assert_eq!(b.entrants(&results)[8].1, Slot::Pending);

    let d = double(8);
    assert_eq!(
        labels(&d),
        "W1.1 W1.2 W1.3 W1.4 L1.1 L1.2 W2.1 W2.2 L2.1 L2.2 L3.1 W3.1 L4.1 GF.1 GF.2"
    );
    let favourites = play_favourites(&d);
    assert_eq!(d.played(&favourites).len(), 14);
}

/// Plays every ready node with the lower seed winning, round after round.
fn play_favourites(b: &Bracket) -> Vec<Option<Winner>> {
    let mut results = vec![None; b.nodes.len()];
    loop {
        let ready = b.ready(&results);
        if ready.is_empty() {
            return results;
        }
        let entrants = b.entrants(&results);
        for i in ready {
            let (Slot::Player(a), Slot::Player(c)) = entrants[i] else {
                unreachable!()
            };
            results[i] = Some(if a < c { Winner::First } else { Winner::Second });
        }
    }
}

#[test]
fn placings_when_the_favourites_win() {
    let places = |b: &Bracket| -> Vec<(u32, Vec<u32>)> {
        b.placings(&play_favourites(b))
            .unwrap()
            .into_iter()
            .map(|p| (p.place, p.seeds))
            .collect()
    };
    // Semi-finals 1–4 and 2–3, so 3 and 4 play for third; 5–8 go out in the quarter-finals.
    assert_eq!(
        places(&single(8, true)),
        vec![
            (1, vec![1]),
            (2, vec![2]),
            (3, vec![3]),
            (4, vec![4]),
            (5, vec![5, 6, 7, 8])
        ]
    );
    assert_eq!(
        places(&single(8, false)),
        vec![(1, vec![1]), (2, vec![2]), (3, vec![3, 4]), (5, vec![5, 6, 7, 8])]
    );
    // L1: 5–8 and 6–7 (the losers of 1–8, 4–5 and of 2–7, 3–6), L2: 5–3 and 6–4 (the W2
    // losers reversed), L3: 3–4, L4: 3 against the winners' final's loser 2.
    assert_eq!(
        places(&double(8)),
        vec![
            (1, vec![1]),
            (2, vec![2]),
            (3, vec![3]),
            (4, vec![4]),
            (5, vec![5, 6]),
            (7, vec![7, 8])
        ]
    );
    assert_eq!(single(8, false).placings(&[]), None, "not before the end");
}

#[test]
fn the_grand_final_reset_is_played_only_after_the_losers_champion_wins() {
    let b = double(2);
    assert_eq!(labels(&b), "W1.1 GF.1 GF.2");
    let mut r = Vec::new();
    b.record(&mut r, 0, Winner::First).unwrap();
    assert_eq!(b.ready(&r), vec![1]);
    assert_eq!(b.entrants(&r)[1], (Slot::Player(1), Slot::Player(2)));
    // The winners' champion wins GF.1: no reset, champion 1.
    let mut no_reset = r.clone();
    b.record(&mut no_reset, 1, Winner::First).unwrap();
    assert_eq!(b.ready(&no_reset), Vec::<usize>::new());
    assert_eq!(b.resolve(&no_reset)[2].decision, Decision::NotNeeded);
    assert_eq!(
        b.record(&mut no_reset.clone(), 2, Winner::First),
        Err(BracketError::NotReady("GF.2".into()))
    );
    assert_eq!((b.champion(&no_reset), b.is_finished(&no_reset)), (Some(1), true));
    // Seed 2 wins GF.1: the reset, seed 1 named first again, decides.
    b.record(&mut r, 1, Winner::Second).unwrap();
    assert_eq!(b.ready(&r), vec![2]);
    assert_eq!(b.entrants(&r)[2], (Slot::Player(1), Slot::Player(2)));
    assert_eq!((b.champion(&r), b.is_finished(&r)), (None, false));
    b.record(&mut r, 2, Winner::Second).unwrap();
    assert_eq!((b.champion(&r), b.is_finished(&r)), (Some(2), true));
}

#[test]
fn byes_give_walkovers_not_phantom_games() {
    // 3 players: W1.1 is 1 against nobody, so L1.1 (its loser against W1.2's) is a walkover.
    let b = double(3);
    let r = vec![None; b.nodes.len()];
    let states = b.resolve(&r);
    assert_eq!(states[0].decision, Decision::Walkover);
    assert_eq!((states[0].winner, states[0].loser), (Slot::Player(1), Slot::Bye));
    assert_eq!(b.nodes[2].label, "L1.1");
    assert_eq!(states[2].decision, Decision::Walkover);
    assert_eq!(b.ready(&r), vec![1]);
    // A result given for a walkover is ignored; recording one is refused.
    let mut bogus = r.clone();
    bogus[0] = Some(Winner::Second);
    assert_eq!(b.resolve(&bogus)[0].winner, Slot::Player(1));
    assert_eq!(
        b.record(&mut bogus, 0, Winner::Second),
        Err(BracketError::NotReady("W1.1".into()))
    );
    assert_eq!(
        b.record(&mut bogus, 99, Winner::First),
        Err(BracketError::NoSuchNode(99))
    );
    assert_eq!(b.check(&bogus), Err(BracketError::NotReady("W1.1".into())));
    // A result stored for W2.1 before its entrants are known, or for a node beyond the
    // bracket, is refused by `check`.
    let mut early = r.clone();
    early[3] = Some(Winner::First);
    assert_eq!(b.nodes[3].label, "W2.1");
    assert_eq!(b.check(&early), Err(BracketError::NotReady("W2.1".into())));
    let mut beyond = r.clone();
    beyond.push(Some(Winner::First));
    assert_eq!(b.check(&beyond), Err(BracketError::NoSuchNode(b.nodes.len())));
    assert_eq!(b.check(&r), Ok(()));
    // Tiny fields: one player is champion without play, none gives no champion; no panic.
    for b in [single(1, true), double(1)] {
        assert_eq!(
            (b.champion(&[]), b.is_finished(&[]), b.ready(&[])),
            (Some(1), true, vec![])
        );
    }
    for b in [single(0, false), double(0)] {
        assert_eq!((b.champion(&[]), b.is_finished(&[])), (None, true));
    }
}

#[test]
fn a_big_single_and_a_64_player_double_are_played_quickly() {
    let started = Instant::now();
    let b = single(10_000, true);
    let built = started.elapsed();
    let results = play_favourites(&b);
    let played = b.played(&results).len();
    let (champion, finished) = (b.champion(&results), b.is_finished(&results));
    let single_time = started.elapsed();
    assert_eq!((played, champion, finished), (10_000 - 1 + 1, Some(1), true));
    // 16384 − 10000 = 6384 byes: only 10000 − 6384 = 3616 players play in round 1.
    let round1 = b
        .played(&results)
        .iter()
        .filter(|&&i| b.nodes[i].label.starts_with("1."))
        .count();
    assert_eq!(round1, (10_000 - 6384) / 2);

    let started = Instant::now();
    let d = double(64);
    let mut rng = Stream::new(64);
    let (results, games) = play_randomly(&d, &mut rng);
    let double_time = started.elapsed();
    let reset = u32::from(results[d.nodes.len() - 1].is_some());
    assert_eq!(games.len() as u32, 2 * 64 - 2 + reset);
    println!("single of 10000: built in {built:?}, played in {single_time:?}; double of 64 in {double_time:?}");
}

/// Results counted by round label for a reading check of the double bracket's shape.
#[test]
fn the_double_bracket_has_2k_minus_2_losers_rounds() {
    for k in 1..=7u32 {
        let b = double(1 << k);
        let mut rounds: BTreeMap<char, std::collections::BTreeSet<String>> = BTreeMap::new();
        for n in &b.nodes {
            let (round, _) = n.label.split_once('.').unwrap();
            rounds
                .entry(round.chars().next().unwrap())
                .or_default()
                .insert(round.to_string());
        }
        assert_eq!(rounds[&'W'].len() as u32, k);
        assert_eq!(rounds.get(&'L').map_or(0, |r| r.len()) as u32, 2 * k - 2);
        // 2^k − 1 winners' nodes, 2^k − 2 losers' nodes, two finals.
        assert_eq!(b.nodes.len() as u32, (1 << k) - 1 + (1 << k) - 2 + 2);
    }
}

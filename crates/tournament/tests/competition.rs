//! Knockout properties through the event model (`tournament::competition::Event`): a seeded
//! single knockout of N has N−1 decided pairings with the byes on the top seeds, a double
//! knockout plays 2N−2 or 2N−1 pairings, and a card draw replays the same from the same seed.

use std::collections::{BTreeMap, HashSet};

use tournament::competition::{Draw, Event, Format, Plan, Round, Verdict};

/// An event of `n` entrants, entrant i rated so that it is seed i.
fn event(format: Format, n: u32, seed: u64) -> Event {
    let mut e = Event::new("props", vec![Plan::new(format)]);
    e.seed = seed;
    e.settings.games = 1;
    for i in 1..=n {
        e.register(&format!("P{i}"), 3000 - i, "", &[]).unwrap();
    }
    e
}

/// A small deterministic generator (splitmix64), so every run plays the same results.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Pairs and plays rounds until the event is finished, each game won by a side the generator
/// picks; returns the rounds as paired and every pairing's (first, second, winner).
fn play_out(e: &mut Event, mut rng: u64) -> (Vec<Round>, Vec<(u32, u32, u32)>) {
    let mut rounds = Vec::new();
    let mut played = Vec::new();
    while !e.finished() {
        let round = e.pair().unwrap();
        for p in &round.pairings {
            let Some(second) = p.second else { continue };
            let first_wins = next(&mut rng).is_multiple_of(2);
            let entered = e
                .result(&p.id, &[if first_wins { "1-0" } else { "0-1" }], false)
                .unwrap();
            assert!(matches!(entered.verdict, Verdict::Won(_)), "{}: {entered:?}", p.id);
            let w = if first_wins { p.first } else { second };
            played.push((p.first, second, w));
        }
        rounds.push(round);
        assert!(rounds.len() <= 200, "the knockout does not end");
    }
    (rounds, played)
}

#[test]
fn a_seeded_knockout_of_n_decides_n_minus_1_pairings_and_gives_the_byes_to_the_top_seeds() {
    for n in 2..=20u32 {
        let ko = Format::Knockout {
            draw: Draw::Seeded,
            third_place: false,
        };
        let mut e = event(ko, n, 7);
        let (rounds, played) = play_out(&mut e, u64::from(n));
        assert_eq!(played.len() as u32, n - 1, "n = {n}");
        let byes = n.next_power_of_two() - n;
        // Byes are walkovers, not pairings: whoever plays no first-round match had one.
        let first_round: HashSet<u32> = rounds
            .iter()
            .flat_map(|r| &r.pairings)
            .filter(|p| p.id.starts_with("1."))
            .flat_map(|p| [Some(p.first), p.second])
            .flatten()
            .collect();
        assert_eq!(first_round.len() as u32, n - byes, "n = {n}");
        let with_bye: Vec<u32> = (1..=n).filter(|i| !first_round.contains(i)).collect();
        assert_eq!(
            with_bye,
            (1..=byes).collect::<Vec<_>>(),
            "n = {n}: byes to the top seeds"
        );
        // Everyone but the champion lost exactly once.
        let mut losses: BTreeMap<u32, u32> = BTreeMap::new();
        for &(a, b, w) in &played {
            *losses.entry(if w == a { b } else { a }).or_default() += 1;
        }
        assert_eq!(losses.len() as u32, n - 1, "n = {n}");
        assert!(losses.values().all(|&l| l == 1), "n = {n}");
        let table = &e.standings().unwrap()[0];
        let champion = table.lines.iter().find(|l| l.place == 1).unwrap().id;
        assert!(!losses.contains_key(&champion), "n = {n}");
    }
}

#[test]
fn a_double_knockout_of_n_plays_2n_minus_2_or_2n_minus_1_pairings() {
    let mut seen_reset = [false, false];
    for n in 2..=20u32 {
        for rng in 0..4u64 {
            let mut e = event(Format::DoubleKnockout, n, 1);
            let (rounds, played) = play_out(&mut e, rng * 1000 + u64::from(n));
            let count = played.len() as u32;
            let reset = rounds.iter().flat_map(|r| &r.pairings).any(|p| p.id == "GF.2");
            assert_eq!(count, 2 * n - 2 + u32::from(reset), "n = {n}, rng {rng}");
            seen_reset[usize::from(reset)] = true;
            let mut losses: BTreeMap<u32, u32> = BTreeMap::new();
            for &(a, b, w) in &played {
                *losses.entry(if w == a { b } else { a }).or_default() += 1;
            }
            let twice = losses.values().filter(|&&l| l == 2).count() as u32;
            assert_eq!(twice, n - 1, "n = {n}: all but the champion out on two losses");
            assert!(losses.values().all(|&l| l <= 2), "n = {n}");
        }
    }
    assert_eq!(seen_reset, [true, true], "the random results reach both endings");
}

#[test]
fn a_card_draw_replays_the_same_from_the_same_seed() {
    for n in 2..=20u32 {
        let ko = Format::Knockout {
            draw: Draw::Cards,
            third_place: false,
        };
        let mut a = event(ko, n, 2026 + u64::from(n));
        let mut b = event(ko, n, 2026 + u64::from(n));
        let (ra, pa) = play_out(&mut a, 5);
        let (rb, pb) = play_out(&mut b, 5);
        assert_eq!(ra, rb, "n = {n}");
        assert_eq!(pa, pb, "n = {n}");
        assert_eq!(a, b, "n = {n}");
        // Each drawn round says how: the seed it was drawn from, so it can be replayed.
        for r in &ra {
            let d = r.draw.as_deref().unwrap_or_default();
            assert!(d.contains("card draw, seed"), "n = {n}: {d:?}");
        }
        assert_eq!(pa.len(), n as usize - 1, "n = {n}");
    }
    // Another seed draws another bracket (for a field this size, some round differs).
    let ko = Format::Knockout {
        draw: Draw::Cards,
        third_place: false,
    };
    let (x, _) = play_out(&mut event(ko, 16, 1), 5);
    let (y, _) = play_out(&mut event(ko, 16, 2), 5);
    assert_ne!(x[0].pairings, y[0].pairings);
}

//! Knockout: seeded brackets and seed 000's card draw.
//!
//! ```
//! use tournament::knockout::{seeded_first_round, Slot};
//!
//! // 13 players in a bracket of 16: the top three seeds have byes.
//! let r1 = seeded_first_round(13);
//! assert_eq!(r1[0], (Slot::Player(1), Slot::Bye));
//! assert_eq!(r1[1], (Slot::Player(8), Slot::Player(9)));
//! ```

use serde::Serialize;

/// A place in a bracket.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Slot {
    Player(u32),
    Bye,
}

/// The seeds in bracket order for a bracket of `size` (a power of two): start from `[1]` and
/// replace each seed s by (s, 2L + 1 − s), L the current length. Seeds 1 and 2 can meet only in
/// the final, 1–4 only in the semi-finals.
pub fn bracket_order(size: u32) -> Vec<u32> {
    let mut order = vec![1u32];
    while (order.len() as u32) < size {
        let l = order.len() as u32;
        order = order.iter().flat_map(|&s| [s, 2 * l + 1 - s]).collect();
    }
    order
}

/// The first round of a seeded bracket for `players`: the bracket is the next power of two, and
/// the seeds above `players` are byes, so the top seeds advance without playing.
pub fn seeded_first_round(players: u32) -> Vec<(Slot, Slot)> {
    let size = players.max(2).next_power_of_two();
    let order = bracket_order(size);
    let slot = |s: u32| if s <= players { Slot::Player(s) } else { Slot::Bye };
    order.chunks(2).map(|p| (slot(p[0]), slot(p[1]))).collect()
}

/// A playing card of seed 000's draw (抽签): a number from one of two sets, red or black, or
/// the K that gives its drawer the bye (轮空).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Card {
    /// A red number: its drawer plays red and moves first (抽到红色数字扑克牌者执红棋先走).
    Red(u32),
    /// A black number: its drawer plays black against the drawer of the red one.
    Black(u32),
    /// The K: a bye into the next round.
    King,
}

/// The cards of one round of the card draw for `m` players: a red and a black set of
/// 1 … ⌊m/2⌋, and a K for the bye when `m` is odd.
pub fn deck(m: u32) -> Vec<Card> {
    let mut d: Vec<Card> = (1..=m / 2).map(Card::Red).chain((1..=m / 2).map(Card::Black)).collect();
    if m % 2 == 1 {
        d.push(Card::King);
    }
    d
}

/// One round of the card draw: who drew what, the pairs (equal numbers) and the bye (the K).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CardDraw {
    /// The deck as shuffled, then each player's card, in the order the players are given.
    pub deck: Vec<Card>,
    pub drawn: Vec<(u32, Card)>,
    /// Pairs by card number, as (red, black): the drawer of the red card plays red.
    pub pairs: Vec<(u32, u32)>,
    pub bye: Option<u32>,
    /// The generator's seed, so the draw can be replayed and audited.
    pub seed: u64,
}

/// Seed 000 §9: the players draw the shuffled cards in order; equal numbers play each other,
/// the drawer of the red one with red, and the K has a bye. The shuffle is a splitmix64
/// stream of `seed` ([`crate::lots`]).
pub fn card_draw(players: &[u32], seed: u64) -> CardDraw {
    let mut d = deck(players.len() as u32);
    crate::lots::Stream::new(seed).shuffle(&mut d);
    let drawn: Vec<(u32, Card)> = players.iter().copied().zip(d.iter().copied()).collect();
    let holder = |card: Card| drawn.iter().find(|&&(_, c)| c == card).map(|&(p, _)| p);
    let pairs = (1..=(players.len() as u32) / 2)
        .filter_map(|n| Some((holder(Card::Red(n))?, holder(Card::Black(n))?)))
        .collect();
    CardDraw {
        bye: holder(Card::King),
        deck: d,
        drawn,
        pairs,
        seed,
    }
}

/// One round of a card-draw knockout: how many draw, the games they make, and whether the K is
/// in the deck.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CardRound {
    pub players: u32,
    pub games: u32,
    pub bye: bool,
}

/// Seed 000 §9 generalised: the cards are drawn afresh every round among the survivors (the
/// games' winners and the K's holder), so a field of m makes ⌊m/2⌋ games and a bye when m is
/// odd, and ⌈m/2⌉ go on, until one is left. 13 → 6 games and a bye → 7 → 3 and a bye → 4 → 2
/// → 1. The rounds are [`rounds`] of the field and the games n − 1 (each game puts one out).
pub fn card_rounds(players: u32) -> Vec<CardRound> {
    let mut out = Vec::new();
    let mut m = players;
    while m > 1 {
        out.push(CardRound {
            players: m,
            games: m / 2,
            bye: m % 2 == 1,
        });
        m = m.div_ceil(2);
    }
    out
}

/// The seed of round `round` (from 1) of a card-draw knockout drawn with the event's `seed`: the
/// round-th number of its [`crate::lots`] stream, so one logged seed replays every round's draw.
pub fn card_round_seed(seed: u64, round: u32) -> u64 {
    let mut stream = crate::lots::Stream::new(seed);
    let mut drawn = stream.next_u64();
    for _ in 1..round {
        drawn = stream.next_u64();
    }
    drawn
}

/// The rounds a knockout of `players` takes: ⌈log2 n⌉.
pub fn rounds(players: u32) -> u32 {
    players.max(1).next_power_of_two().trailing_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(r: &[(Slot, Slot)]) -> String {
        let s = |x: &Slot| match x {
            Slot::Player(p) => p.to_string(),
            Slot::Bye => "bye".to_string(),
        };
        r.iter()
            .map(|(a, b)| format!("{}-{}", s(a), s(b)))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// TV-KO of shared/specs/tournament.md §6.
    #[test]
    fn seeded_brackets() {
        assert_eq!(text(&seeded_first_round(16)), "1-16 8-9 4-13 5-12 2-15 7-10 3-14 6-11");
        assert_eq!(
            text(&seeded_first_round(13)),
            "1-bye 8-9 4-13 5-12 2-bye 7-10 3-bye 6-11"
        );
        assert_eq!(rounds(13), 4);
    }

    #[test]
    fn the_card_draw_of_seed_000() {
        // Decks: [1..6]x2 + K, [1..3]x2 + K, [1..2]x2, [1]x2.
        assert_eq!(deck(13).len(), 13);
        use Card::{Black, King, Red};
        assert_eq!(
            deck(7),
            vec![Red(1), Red(2), Red(3), Black(1), Black(2), Black(3), King]
        );
        assert_eq!(deck(4), vec![Red(1), Red(2), Black(1), Black(2)]);
        assert_eq!(deck(2), vec![Red(1), Black(1)]);
        // 13 players through to a winner: 6 + 3 + 2 + 1 matches, byes in rounds 1 and 2.
        let mut field: Vec<u32> = (1..=13).collect();
        let (mut matches, mut byes, mut round) = (0, 0, 0);
        while field.len() > 1 {
            round += 1;
            let d = card_draw(&field, 2026 + round);
            assert_eq!(d, card_draw(&field, 2026 + round), "the same seed gives the same draw");
            matches += d.pairs.len();
            byes += d.bye.is_some() as usize;
            // The first of each pair "wins" here; the bye goes through.
            field = d.pairs.iter().map(|p| p.0).chain(d.bye).collect();
            field.sort();
        }
        assert_eq!((round, matches, byes), (4, 12, 2));
    }

    /// Seed 000 §9's 13 players: 6 games and the K, 3 and the K, the semi-finals, the final.
    #[test]
    fn a_card_draw_knockout_redraws_every_round() {
        let r = |players, games, bye| CardRound { players, games, bye };
        assert_eq!(
            card_rounds(13),
            vec![r(13, 6, true), r(7, 3, true), r(4, 2, false), r(2, 1, false)]
        );
        assert_eq!(card_rounds(1), vec![]);
        for n in 1..=300u32 {
            let plan = card_rounds(n);
            assert_eq!(plan.len() as u32, rounds(n), "n={n}");
            assert_eq!(plan.iter().map(|r| r.games).sum::<u32>(), n - 1, "n={n}");
            // Each round's deck holds a card for every player and makes the games planned.
            let field: Vec<u32> = (1..=n).collect();
            for round in &plan {
                assert_eq!(deck(round.players).len() as u32, round.players);
                let d = card_draw(&field[..round.players as usize], u64::from(n));
                assert_eq!((d.pairs.len() as u32, d.bye.is_some()), (round.games, round.bye));
            }
        }
    }

    /// An audit: from the event's seed and each round's survivors as logged, every round's draw
    /// is drawn again and comes out the same.
    #[test]
    fn a_card_draw_knockout_replays_from_its_log() {
        for n in [2u32, 3, 5, 13, 16, 33, 100] {
            for seed in [0u64, 7, 2026] {
                let mut results = crate::lots::Stream::new(seed ^ 0xfeed);
                let mut field: Vec<u32> = (1..=n).collect();
                let mut log = Vec::new();
                while field.len() > 1 {
                    let round = log.len() as u32 + 1;
                    let d = card_draw(&field, card_round_seed(seed, round));
                    let won = d
                        .pairs
                        .iter()
                        .map(|&(red, black)| if results.below(2) == 0 { red } else { black });
                    let mut next: Vec<u32> = won.chain(d.bye).collect();
                    next.sort();
                    log.push((field, d));
                    field = next;
                }
                let plan: Vec<u32> = log.iter().map(|(f, _)| f.len() as u32).collect();
                assert_eq!(plan, card_rounds(n).iter().map(|r| r.players).collect::<Vec<_>>());
                for (r, (survivors, d)) in log.iter().enumerate() {
                    assert_eq!(d.seed, card_round_seed(seed, r as u32 + 1));
                    assert_eq!(card_draw(survivors, d.seed), *d, "n={n} seed={seed} round {}", r + 1);
                }
            }
        }
        // The rounds' seeds are a stream: distinct, and another event seed gives another draw.
        let seeds: Vec<u64> = (1..=4).map(|r| card_round_seed(2026, r)).collect();
        assert!(seeds.windows(2).all(|w| w[0] != w[1]));
        let field: Vec<u32> = (1..=13).collect();
        assert_ne!(
            card_draw(&field, card_round_seed(2026, 1)).pairs,
            card_draw(&field, card_round_seed(2027, 1)).pairs
        );
    }

    /// Issue 26 point 6: the player who draws the red card plays red, whichever of the two
    /// drew first.
    #[test]
    fn point_06_red_card_holder_plays_red() {
        let players: Vec<u32> = (1..=13).collect();
        let mut black_drawn_first = 0;
        for seed in 0..64 {
            let d = card_draw(&players, seed);
            assert_eq!(d.pairs.len(), 6);
            let card = |p: u32| d.drawn.iter().find(|x| x.0 == p).unwrap().1;
            for &(red, black) in &d.pairs {
                let (Card::Red(r), Card::Black(b)) = (card(red), card(black)) else {
                    panic!("seed {seed}: {red} has {:?}, {black} has {:?}", card(red), card(black));
                };
                assert_eq!(r, b, "seed {seed}: a pair holds equal numbers");
                let at = |p: u32| players.iter().position(|&x| x == p).unwrap();
                black_drawn_first += usize::from(at(black) < at(red));
            }
            assert_eq!(d.bye.map(card), Some(Card::King));
        }
        // The case the rule is about occurs: the black card drawn before the red one.
        assert!(black_drawn_first > 0);
    }
}

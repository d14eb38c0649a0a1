//! The pairing criteria as one edge weight: fields from the most important (C4 completion, C6
//! pairs, C7 scores of the paired …) down to C21, then room for the order in which the rules
//! generate candidates (S1/S2, exchanges). A maximum-weight matching then optimises the
//! criteria in their order of priority, the method the rules allow (C.04.3 "any method that
//! gives the same result") and the endorsed programs use.
//!
//! Field widths are fitted to the bracket being paired: counts get `bits(players) + 2` bits,
//! score vectors one such sub-field for each score present, the lowest score least significant.

use super::state::{Float, Player, State};
use crate::matching::{Weight, Wide};
use crate::trf::Colour;

/// What a weight needs besides what the matching uses: building it field by field.
pub trait Packed: Weight {
    fn small(v: u64) -> Self;
    fn shifted(self, bits: u32) -> Self;
    fn plus(self, o: Self) -> Self;
    fn minus(self, o: Self) -> Self;
    fn zero_weight(&self) -> bool;
}

impl<const N: usize> Packed for Wide<N> {
    fn small(v: u64) -> Self {
        Wide::from(v)
    }
    fn shifted(self, bits: u32) -> Self {
        self.shl(bits)
    }
    fn plus(self, o: Self) -> Self {
        self.wrapping_add(o)
    }
    fn minus(self, o: Self) -> Self {
        self.wrapping_sub(o)
    }
    fn zero_weight(&self) -> bool {
        self.is_zero()
    }
}

fn bits(n: usize) -> u32 {
    usize::BITS - n.leading_zeros()
}

/// Who is where in the bracket being paired.
pub struct Scene<'a> {
    pub state: &'a State,
    /// Players of the graph, as indexes into `state.players`, best first: moved-down players,
    /// residents, the next scoregroup, then (when completion is checked in the matching itself)
    /// everyone below.
    pub verts: &'a [usize],
    pub mdps: usize,
    /// End of the current bracket.
    pub current: usize,
    /// End of the next scoregroup.
    pub next: usize,
    /// Whether the completion field (C4, bye eligibility) is in the weights.
    pub full: bool,
    pub bye_score: u32,
    pub bye_rank: Option<&'a dyn Fn(&Player) -> u64>,
    pub rounds_played: usize,
}

/// Bit offsets of the fields (see the module doc).
pub struct Layout {
    count: u32,
    scores: Vec<u32>,
    top: u32,
    current_pairs: u32,
    current_scores: u32,
    next_pairs: u32,
    next_scores: u32,
    unplayed: u32,
    colour: u32,
    floats: u32,
    float_scores: u32,
    /// Below everything the rules rank: the choices of the next few S1 players in order, one
    /// slot each (see `lex`), so that one matching settles several of them.
    tie: u32,
    tie_width: u32,
    /// Room for the generation order; `room_bit` is the S1 flag of an exchange.
    room: u32,
    pub room_bit: u32,
    pub total: u32,
}

impl Layout {
    pub fn new(scene: &Scene) -> Layout {
        let count = bits(scene.verts.len()) + 2;
        let mut scores: Vec<u32> = scene.verts[..scene.next]
            .iter()
            .map(|&v| scene.state.players[v].score)
            .collect();
        scores.sort_unstable();
        scores.dedup();
        let vector = count * scores.len() as u32;
        let float_rounds = scene.rounds_played.min(2) as u32;
        let mut at = 0;
        let mut take = |w: u32| {
            let here = at;
            at += w;
            here
        };
        let tie_width = (3 * count).max(128);
        let tie = take(tie_width);
        let room = take(3 * count + 2);
        let float_scores = take(2 * float_rounds * vector);
        let floats = take(2 * float_rounds * count);
        let colour = take(4 * count);
        let unplayed = take(2 * count);
        let next_scores = take(vector);
        let next_pairs = take(count);
        let current_scores = take(vector);
        let current_pairs = take(count);
        let top = take(if scene.full { bits(3 * scene.verts.len()) + 1 } else { 0 });
        Layout {
            count,
            scores,
            top,
            current_pairs,
            current_scores,
            next_pairs,
            next_scores,
            unplayed,
            colour,
            floats,
            float_scores,
            tie,
            tie_width,
            room,
            room_bit: room + 1 + 2 * count,
            total: at,
        }
    }

    /// How many players `lex` has slots for.
    pub fn slots(&self) -> usize {
        (self.tie_width / self.count) as usize
    }

    /// `v` in slot `slot` of the tie field (slot 0 the most significant).
    pub fn lex<W: Packed>(&self, slot: usize, v: u64) -> W {
        W::small(v).shifted(self.tie + self.tie_width - (slot as u32 + 1) * self.count)
    }

    /// `v` in the room's lowest bit.
    pub fn unit<W: Packed>(&self, v: u64) -> W {
        W::small(v).shifted(self.room)
    }

    fn score_bit(&self, score: u32) -> u32 {
        let i = self
            .scores
            .binary_search(&score)
            .expect("score of a player in the bracket");
        i as u32 * self.count
    }

    /// The weight of a pair outside the bracket: completion only.
    pub fn completion<W: Packed>(&self, scene: &Scene, a: usize, b: usize) -> W {
        let (p, q) = (
            &scene.state.players[scene.verts[a]],
            &scene.state.players[scene.verts[b]],
        );
        let value = 1 + !bye_candidate(scene, p) as u64 + !bye_candidate(scene, q) as u64;
        W::small(value).shifted(self.top)
    }

    /// The weight of pairing vertex `a` (higher) with `b` (lower) in the bracket; zero when they
    /// may not meet.
    pub fn edge<W: Packed>(&self, scene: &Scene, a: usize, b: usize) -> W {
        let st = scene.state;
        let (pa, pb) = (scene.verts[a], scene.verts[b]);
        if !st.compatible(pa, pb) {
            return W::small(0);
        }
        let (h, l) = (&st.players[pa], &st.players[pb]);
        let in_current = b < scene.current;
        let mut w = if scene.full {
            self.completion::<W>(scene, a, b)
        } else {
            W::small(0)
        };
        let put = |w: W, v: u64, at: u32| if v == 0 { w } else { w.plus(W::small(v).shifted(at)) };
        if in_current {
            w = put(w, 1, self.current_pairs);
            w = put(w, 1, self.current_scores + self.score_bit(h.score));
        } else {
            w = put(w, 1, self.next_pairs);
            w = put(w, 1, self.next_scores + self.score_bit(h.score));
        }
        if let Some(rank) = scene.bye_rank {
            let mut v = 0;
            if h.score == scene.bye_score {
                v += rank(h);
            }
            if l.score == scene.bye_score {
                v += rank(l);
            }
            w = put(w, v, self.unplayed);
        }
        if !in_current {
            return w;
        }
        let c = self.colour;
        let (p, o) = (l, h);
        let same = p.preference == o.preference;
        w = put(
            w,
            (!p.absolute_imbalance() || !o.absolute_imbalance() || !same) as u64,
            c + 3 * self.count,
        );
        let c11 = !p.absolute()
            || !o.absolute()
            || !same
            || if p.imbalance == o.imbalance {
                p.repeated == Colour::None || p.repeated != o.repeated
            } else {
                let loser = if p.imbalance > o.imbalance { o } else { p };
                loser.repeated != super::model::invert(p.preference)
            };
        w = put(w, c11 as u64, c + 2 * self.count);
        let compatible = !same || p.preference == Colour::None;
        w = put(w, compatible as u64, c + self.count);
        let strong =
            (!p.strong && !p.absolute()) || (!o.strong && !o.absolute()) || (p.absolute() && o.absolute()) || !same;
        w = put(w, strong as u64, c);
        let rounds = scene.rounds_played.min(2);
        if rounds == 0 {
            return w;
        }
        let down = |x: &Player, back: usize| (x.floats[back] == Float::Down) as u64;
        let up = |x: &Player, back: usize| x.floats[back] == Float::Up;
        let h_above = h.score > l.score;
        let vector = self.count * self.scores.len() as u32;
        // Counts: C14/C15 (one round back) above C16/C17 (two rounds back).
        for back in 0..rounds {
            let at = self.floats + 2 * self.count * (rounds - 1 - back) as u32;
            w = put(w, down(l, back) + (!h_above as u64 & down(h, back)), at + self.count);
            w = put(w, !(h_above && up(l, back)) as u64, at);
        }
        // Scores: C18/C19 above C20/C21.
        for back in 0..rounds {
            let at = self.float_scores + 2 * vector * (rounds - 1 - back) as u32;
            let v = down(l, back);
            w = put(w, v, at + vector + self.score_bit(l.score));
            w = put(w, down(h, back), at + vector + self.score_bit(h.score));
            if !(up(l, back) && h_above) {
                w = put(w, 1, at + self.score_bit(h.score));
            }
        }
        w
    }
}

/// May take the pairing-allocated bye without lowering C5 (eligible, score no higher than the
/// lowest score the bye can go to).
pub fn bye_candidate(scene: &Scene, p: &Player) -> bool {
    p.eligible_for_bye && p.score <= scene.bye_score
}

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
    /// The next scoregroup's players when one vertex (the last) stands in for all of them.
    pub stand_in: Option<&'a [usize]>,
    pub bye_score: u32,
    pub bye_rank: Option<&'a dyn Fn(&Player) -> u64>,
    pub rounds_played: usize,
}

/// Bit offsets of the fields (see the module doc). A criterion whose value is the same for
/// every pair in the bracket and the same for every pair reaching into the next scoregroup
/// cannot tell two pairings apart (the pair counts above already fix its total), so it gets no
/// bits: narrower weights, faster matchings.
pub struct Layout {
    scores: Vec<u32>,
    /// Offset of each criterion field (in the order `criteria` lists them), `None` if dropped.
    offsets: Vec<Option<u32>>,
    top: u32,
    /// Below everything the rules rank: the choices of the next few S1 players in order, one
    /// slot each (see `lex`), so that one matching settles several of them.
    tie: u32,
    tie_width: u32,
    slot: u32,
    /// Room for the generation order; `room_bit` is the S1 flag of an exchange.
    room: u32,
    pub room_bit: u32,
    pub total: u32,
}

/// Widths of the criterion fields, most significant first, in `count` units: current pairs,
/// current scores (one per score), next pairs, next scores, C9, C10–C13, then per round back
/// C14/C15 (C16/C17), then per round back the C18/C19 (C20/C21) score vectors.
fn widths(scores: usize, rounds: usize) -> Vec<u32> {
    let mut w = vec![1];
    w.extend(std::iter::repeat_n(1, scores));
    w.push(1);
    w.extend(std::iter::repeat_n(1, scores));
    w.push(2);
    w.extend([1, 1, 1, 1]);
    w.extend(std::iter::repeat_n(1, 2 * rounds));
    w.extend(std::iter::repeat_n(1, 2 * rounds * scores));
    w
}

/// Index of the next-pairs field.
fn next_pairs(scores: usize) -> usize {
    1 + scores
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
        let rounds = scene.rounds_played.min(2);
        let widths = widths(scores.len(), rounds);
        let mut layout = Layout {
            scores,
            offsets: vec![None; widths.len()],
            top: 0,
            tie: 0,
            tie_width: 0,
            slot: 0,
            room: 0,
            room_bit: 0,
            total: 0,
        };
        // Which fields vary among the bracket's pairs, or among the pairs into the next group.
        let mut first: [Option<Vec<u64>>; 2] = [None, None];
        let mut varies = vec![false; widths.len()];
        varies[0] = true;
        varies[next_pairs(layout.scores.len())] = true;
        if scene.stand_in.is_some() {
            // Its edges are not scanned below: keep the next group's score fields.
            let at = next_pairs(layout.scores.len());
            varies[at + 1..=at + layout.scores.len()]
                .iter_mut()
                .for_each(|v| *v = true);
        }
        let mut values = Vec::with_capacity(widths.len());
        for b in scene.mdps..scene.next {
            if scene.stand_in.is_some() && b >= scene.current {
                continue; // the stand-in: its edges are the next group's
            }
            for a in 0..b {
                if !layout.criteria(scene, a, b, &mut values) {
                    continue;
                }
                let kind = (b >= scene.current) as usize;
                match &first[kind] {
                    None => first[kind] = Some(values.clone()),
                    Some(f) => {
                        for (i, (x, y)) in f.iter().zip(&values).enumerate() {
                            varies[i] |= x != y;
                        }
                    }
                }
            }
        }
        // The tie field takes what the weight's width leaves, at least 4 slots. Since the
        // matchings start from the last optimum, more slots save little; narrower weights save
        // on every matching (4 slots: 9,999 players in 45 s; 16: 80 s).
        let needed: u32 = (3 * count + 2)
            + (0..widths.len())
                .filter(|&i| varies[i])
                .map(|i| widths[i] * count)
                .sum::<u32>()
            + if scene.full { bits(3 * scene.verts.len()) + 1 } else { 0 };
        let slot = bits(scene.verts.len());
        let limbs = limbs_for(needed + 2 + 4 * slot);
        layout.slot = slot;
        layout.tie_width = 64 * limbs - 2 - needed;
        let mut at = 0;
        let mut take = |w: u32| {
            let here = at;
            at += w;
            here
        };
        layout.tie = take(layout.tie_width);
        layout.room = take(3 * count + 2);
        layout.room_bit = layout.room + 1 + 2 * count;
        for i in (0..widths.len()).rev() {
            if varies[i] {
                layout.offsets[i] = Some(take(widths[i] * count));
            }
        }
        layout.top = take(if scene.full { bits(3 * scene.verts.len()) + 1 } else { 0 });
        layout.total = at;
        if std::env::var_os("ARBITER_DUTCH_STATS").is_some() {
            let kept: Vec<usize> = (0..widths.len()).filter(|&i| varies[i]).collect();
            eprintln!(
                "layout m {} count {count} scores {} kept {kept:?} of {} tie {} total {}",
                scene.verts.len(),
                layout.scores.len(),
                widths.len(),
                layout.tie_width,
                at
            );
        }
        layout
    }

    /// How many players `lex` has slots for.
    pub fn slots(&self) -> usize {
        (self.tie_width / self.slot) as usize
    }

    /// `v` in slot `slot` of the tie field (slot 0 the most significant).
    pub fn lex<W: Packed>(&self, slot: usize, v: u64) -> W {
        W::small(v).shifted(self.tie + self.tie_width - (slot as u32 + 1) * self.slot)
    }

    /// `v` in the room's lowest bit.
    pub fn unit<W: Packed>(&self, v: u64) -> W {
        W::small(v).shifted(self.room)
    }

    fn score_index(&self, score: u32) -> usize {
        let i = self
            .scores
            .binary_search(&score)
            .expect("score of a player in the bracket");
        self.scores.len() - 1 - i
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
    /// may not meet. For the stand-in of the next group: the weight of pairing `a` with any
    /// next-group player it may meet.
    pub fn edge<W: Packed>(&self, scene: &Scene, a: usize, b: usize) -> W {
        let mut values = Vec::with_capacity(self.offsets.len());
        let (pa, pb) = match scene.stand_in {
            Some(group) if b >= scene.current => {
                let pa = scene.verts[a];
                match group.iter().find(|&&q| scene.state.compatible(pa, q)) {
                    Some(&q) => (pa, q),
                    None => return W::small(0),
                }
            }
            _ => (scene.verts[a], scene.verts[b]),
        };
        if !self.criteria_of(scene, pa, pb, b < scene.current, &mut values) {
            return W::small(0);
        }
        let mut w = if scene.full {
            self.completion::<W>(scene, a, b)
        } else {
            W::small(0)
        };
        for (v, at) in values.iter().zip(&self.offsets) {
            if let (Some(at), true) = (at, *v != 0) {
                w = w.plus(W::small(*v).shifted(*at));
            }
        }
        w
    }

    /// The criterion values of pairing `a` (higher) with `b` (lower), most significant first;
    /// false when they may not meet (C1, C3).
    fn criteria(&self, scene: &Scene, a: usize, b: usize, out: &mut Vec<u64>) -> bool {
        self.criteria_of(scene, scene.verts[a], scene.verts[b], b < scene.current, out)
    }

    fn criteria_of(&self, scene: &Scene, pa: usize, pb: usize, in_current: bool, out: &mut Vec<u64>) -> bool {
        let st = scene.state;
        out.clear();
        if !st.compatible(pa, pb) {
            return false;
        }
        let (h, l) = (&st.players[pa], &st.players[pb]);
        let n = self.scores.len();
        let one_hot = |out: &mut Vec<u64>, on: bool, score: u32| {
            let at = out.len();
            out.extend(std::iter::repeat_n(0, n));
            if on {
                out[at + self.score_index(score)] = 1;
            }
        };
        out.push(in_current as u64);
        one_hot(out, in_current, h.score);
        out.push(!in_current as u64);
        one_hot(out, !in_current, h.score);
        let mut unplayed = 0;
        if let Some(rank) = scene.bye_rank {
            if h.score == scene.bye_score {
                unplayed += rank(h);
            }
            if l.score == scene.bye_score {
                unplayed += rank(l);
            }
        }
        out.push(unplayed);
        let rounds = scene.rounds_played.min(2);
        if !in_current {
            out.extend(std::iter::repeat_n(0, 4 + 2 * rounds + 2 * rounds * n));
            return true;
        }
        let (p, o) = (l, h);
        let same = p.preference == o.preference;
        let c10 = !p.absolute_imbalance() || !o.absolute_imbalance() || !same;
        let c11 = !p.absolute()
            || !o.absolute()
            || !same
            || if p.imbalance == o.imbalance {
                p.repeated == Colour::None || p.repeated != o.repeated
            } else {
                let loser = if p.imbalance > o.imbalance { o } else { p };
                loser.repeated != super::model::invert(p.preference)
            };
        let c12 = !same || p.preference == Colour::None;
        let c13 =
            (!p.strong && !p.absolute()) || (!o.strong && !o.absolute()) || (p.absolute() && o.absolute()) || !same;
        out.extend([c10 as u64, c11 as u64, c12 as u64, c13 as u64]);
        let down = |x: &Player, back: usize| (x.floats[back] == Float::Down) as u64;
        let up = |x: &Player, back: usize| x.floats[back] == Float::Up;
        let h_above = h.score > l.score;
        // Counts: C14/C15 (one round back) above C16/C17 (two rounds back).
        for back in 0..rounds {
            out.push(down(l, back) + (!h_above as u64 & down(h, back)));
            out.push(!(h_above && up(l, back)) as u64);
        }
        // Scores: C18/C19 above C20/C21.
        for back in 0..rounds {
            let at = out.len();
            out.extend(std::iter::repeat_n(0, 2 * n));
            out[at + self.score_index(l.score)] += down(l, back);
            out[at + self.score_index(h.score)] += down(h, back);
            if !(up(l, back) && h_above) {
                out[at + n + self.score_index(h.score)] = 1;
            }
        }
        true
    }
}

/// May take the pairing-allocated bye without lowering C5 (eligible, score no higher than the
/// lowest score the bye can go to).
pub fn bye_candidate(scene: &Scene, p: &Player) -> bool {
    p.eligible_for_bye && p.score <= scene.bye_score
}

/// The weight widths the pairing is built for, in 64-bit limbs.
pub const LIMBS: [u32; 9] = [2, 3, 4, 6, 8, 16, 32, 64, 128];

/// The fewest limbs of [`LIMBS`] holding `bits` bits.
pub fn limbs_for(bits: u32) -> u32 {
    let want = bits.div_ceil(64);
    LIMBS.iter().copied().find(|&l| l >= want).unwrap_or(128)
}

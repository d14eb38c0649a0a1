//! A round robin's group table counted straight from its results: the Berger tables say who
//! met whom on which board, the codes of [`super::compact`] what came of it, so a table of
//! 10,000 players after thousands of rounds needs no TRF of every round (gigabytes at round
//! 5,000) — two passes over the codes and, for DE, the games inside each tied group.
//!
//! The values are those of the TRF path ([`super::group_trf`] and
//! [`crate::standings::standings`]): a round robin's bye, and every round a smaller group sits
//! out, is a pairing-allocated bye worth nothing; a game still to play is pending (C.07 16's
//! category 5 when nothing but forfeit losses follow it, a draw in the adjusted score). The
//! tie-breaks counted here are [`COUNTED`]; an order with any other takes the TRF path.

use std::borrow::Cow;

use super::compact::{encode, NONE};
use super::{Event, Format};
use crate::dutch::PointSystem;
use crate::standings::{Line, TieBreak};
use crate::tiebreak::direct_encounter::{places, Encounters};

/// The tie-breaks counted from the codes.
pub(crate) const COUNTED: [TieBreak; 10] = [
    TieBreak::De,
    TieBreak::Bh,
    TieBreak::Sb,
    TieBreak::Ps,
    TieBreak::PsC1,
    TieBreak::Win,
    TieBreak::Won,
    TieBreak::Bpg,
    TieBreak::Bwg,
    TieBreak::Rep,
];

/// One group of a round robin: its size, cycles and where its boards sit in each round's
/// codes.
pub(super) struct Group<'a> {
    pub(super) n: u32,
    cycles: u32,
    codes: &'a [Cow<'a, str>],
    /// The offset of the group's first board in each round's codes (`None`: it sits out).
    pub(super) offsets: Vec<Option<usize>>,
}

impl Group<'_> {
    fn code(&self, round: usize, board: usize) -> u8 {
        self.offsets[round].map_or(NONE, |o| self.codes[round].as_bytes()[o + board])
    }

    /// Every board of every round the group plays: (round index, its code, first, second).
    #[inline(always)]
    pub(super) fn each(&self, mut f: impl FnMut(usize, u8, u32, Option<u32>)) {
        for r in 0..self.codes.len() {
            if let Some(o) = self.offsets[r] {
                let codes = &self.codes[r].as_bytes()[o..];
                boards(self.n, self.cycles, r as u32 + 1, |b, w, k| f(r, codes[b], w, k));
            }
        }
    }
}

/// The boards of round `r` as [`crate::round_robin::berger_round`] gives them — (board, first,
/// second) — without a division a board: the pivot's neighbours are walked, wrapping by hand.
/// This is the inner loop of a table of thousands of rounds.
#[inline(always)]
fn boards(n: u32, cycles: u32, r: u32, mut f: impl FnMut(usize, u32, Option<u32>)) {
    let m = crate::round_robin::rounds(n);
    if m == 0 || r == 0 || r > if cycles < 2 { m } else { 2 * m } {
        return;
    }
    let (table, reversed) = match r {
        r if cycles < 2 => (r, false),
        r if r > m => (r - m, true),
        _ if m < 2 => (r, false),
        r if r == m => (m - 1, false),
        r if r == m - 1 => (m, false),
        r => (r, false),
    };
    let big = n + n % 2;
    let pivot = if table % 2 == 1 {
        table.div_ceil(2)
    } else {
        big / 2 + table / 2
    };
    let pivot = (pivot - 1) % m + 1;
    let mut board = |b: usize, w: u32, k: u32| {
        let (w, k) = if reversed { (k, w) } else { (w, k) };
        if w > n {
            f(b, k, None)
        } else if k > n {
            f(b, w, None)
        } else {
            f(b, w, Some(k))
        }
    };
    if table % 2 == 1 {
        board(0, pivot, big);
    } else {
        board(0, big, pivot);
    }
    let (mut up, mut down) = (pivot, pivot);
    for b in 1..(big / 2) as usize {
        up = if up == m { 1 } else { up + 1 };
        down = if down == 1 { m } else { down - 1 };
        board(b, up, down);
    }
}

/// The lines of group `g` of stage `s` counted from the codes, or `None` where this path does
/// not apply (not a compact round robin, a tie-break not [`COUNTED`], a round that does not
/// encode).
pub(crate) fn lines(event: &Event, s: usize, g: usize, order: &[TieBreak]) -> Option<Vec<Line>> {
    if !super::compact::applies(event, s) || !order.iter().all(|t| COUNTED.contains(t)) {
        return None;
    }
    let ps = super::standings::trf_points(event);
    if ps.pab != 0 || ps.win == 0 {
        return None;
    }
    let stage = &event.stages[s];
    let cycles = match event.plan[s].format {
        Format::RoundRobin { cycles } | Format::Groups { cycles, .. } => cycles.max(1),
        _ => return None,
    };
    let mut codes: Vec<Cow<str>> = stage.compact.iter().map(|c| Cow::Borrowed(c.as_str())).collect();
    for r in &stage.rounds {
        codes.push(Cow::Owned(encode(event, s, r)?));
    }
    let total = codes.len();
    let offsets = (1..=total as u32)
        .map(|r| {
            let mut at = 0;
            for (h, members) in stage.groups.iter().enumerate() {
                let n = members.len() as u32;
                let m = crate::round_robin::rounds(n);
                let plays = r <= if cycles < 2 { m } else { 2 * m };
                if h == g {
                    return plays.then_some(at);
                }
                if plays {
                    at += (n + n % 2) as usize / 2;
                }
            }
            None
        })
        .collect();
    let members = &stage.groups[g];
    let group = Group {
        n: members.len() as u32,
        cycles,
        codes: &codes,
        offsets,
    };
    let values = super::tally::values(&group, &ps, total, order);
    let names = members.iter().map(|&id| event.name_of(id)).collect();
    let order_de = |numbers: &[u32]| {
        let games = Met {
            group: &group,
            ps: &ps,
            among: numbers,
        };
        let placed = places(&games, numbers);
        if placed.iter().all(|&p| p == 0) {
            vec![0; numbers.len()]
        } else {
            placed.iter().map(|&p| p as u32 + 1).collect()
        }
    };
    Some(crate::standings::rank(&values, names, &[], order, order_de))
}

/// The games played over the board among a tied group, found on the Berger tables pair by
/// pair: what DE counts.
struct Met<'a> {
    group: &'a Group<'a>,
    ps: &'a PointSystem,
    among: &'a [u32],
}

impl Encounters for Met<'_> {
    type Id = u32;

    fn each(&self, who: u32, mut f: impl FnMut(u32, f64)) {
        for &other in self.among.iter().filter(|&&o| o != who) {
            for (r, b, first) in meetings(self.group.n, self.group.cycles, who, other) {
                if r >= self.group.codes.len() {
                    continue;
                }
                if let Some(points) = super::tally::played_points(self.ps, self.group.code(r, b), first) {
                    f(other, points as f64);
                }
            }
        }
    }

    fn win_score(&self) -> f64 {
        f64::from(self.ps.win)
    }
}

/// Where Berger numbers `x` and `y` of a field of `n` meet: (round index, board, whether `x`
/// is first-named), once a cycle. Board 0 holds the table's last number; on the others
/// (a + k, a − k) meet, a the round's pivot, so x + y ≡ 2a (mod m).
pub(crate) fn meetings(n: u32, cycles: u32, x: u32, y: u32) -> Vec<(usize, usize, bool)> {
    let big = u64::from(n + n % 2);
    let m = big - 1;
    let (x, y) = (u64::from(x), u64::from(y));
    if m == 0 || x == y {
        return Vec::new();
    }
    let pivot = |r: u64| {
        let v = if r % 2 == 1 { r.div_ceil(2) } else { big / 2 + r / 2 };
        (v - 1) % m + 1
    };
    // The pivot of odd rounds runs 1 … n/2, of even rounds n/2 + 1 … m.
    let round_of = |a: u64| if a <= big / 2 { 2 * a - 1 } else { 2 * (a - big / 2) };
    debug_assert!((1..=m).all(|r| round_of(pivot(r)) == r));
    let (r, board, x_first) = if x == big || y == big {
        let other = if x == big { y } else { x };
        let r = round_of(other);
        // Odd rounds: (a, n); even rounds: (n, a).
        (r, 0, (r % 2 == 1) == (x == other))
    } else {
        let a = ((x + y) % m * m.div_ceil(2)) % m;
        let a = if a == 0 { m } else { a };
        let k = (x + m - a) % m;
        if k < big / 2 {
            (round_of(a), k, true)
        } else {
            (round_of(a), m - k, false)
        }
    };
    let mut out = Vec::new();
    let swapped = match r {
        _ if m < 2 => r,
        r if r == m => m - 1,
        r if r == m - 1 => m,
        r => r,
    };
    if cycles < 2 {
        out.push((r as usize - 1, board as usize, x_first));
    } else {
        out.push((swapped as usize - 1, board as usize, x_first));
        out.push(((m + r) as usize - 1, board as usize, !x_first));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::meetings;
    use crate::round_robin::Pairing as Board;

    #[test]
    fn boards_are_the_tables() {
        for n in 0..=14u32 {
            for cycles in 1..=2 {
                for r in 0..=2 * n + 2 {
                    let mut got = Vec::new();
                    super::boards(n, cycles, r, |b, w, k| {
                        assert_eq!(b, got.len());
                        got.push(match k {
                            Some(k) => Board::Game(w, k),
                            None => Board::Bye(w),
                        });
                    });
                    let expected = crate::competition::round_robin::berger_round(n, cycles, r).unwrap_or_default();
                    assert_eq!(got, expected, "n {n}, cycles {cycles}, round {r}");
                }
            }
        }
    }

    #[test]
    fn meetings_are_where_the_tables_put_them() {
        for n in 2..=13u32 {
            for cycles in 1..=2 {
                let rounds = crate::round_robin::rounds(n) * cycles;
                for x in 1..=n {
                    for y in (1..=n).filter(|&y| y != x) {
                        let mut expected = Vec::new();
                        for r in 1..=rounds {
                            let boards = crate::competition::round_robin::berger_round(n, cycles, r).unwrap();
                            for (b, board) in boards.into_iter().enumerate() {
                                match board {
                                    Board::Game(w, k) if (w, k) == (x, y) => expected.push((r as usize - 1, b, true)),
                                    Board::Game(w, k) if (w, k) == (y, x) => expected.push((r as usize - 1, b, false)),
                                    _ => {}
                                }
                            }
                        }
                        let mut got = meetings(n, cycles, x, y);
                        got.sort();
                        assert_eq!(got, expected, "n {n}, cycles {cycles}, {x} v {y}");
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod same_as_trf {
    use super::{lines, COUNTED};
    use crate::competition::{group_trf, Event, Format, Plan};
    use crate::lots::splitmix64;

    /// A random round robin (one or two cycles, one group or three) of players, played some
    /// rounds with every kind of result, a withdrawal, the last round maybe half played.
    fn random_event(seed: u64) -> Event {
        let mut x = seed;
        let mut next = |k: u64| {
            x = splitmix64(x);
            x % k
        };
        let cycles = 1 + next(2) as u32;
        let grouped = next(3) == 0;
        let format = if grouped {
            Format::Groups { groups: 3, cycles }
        } else {
            Format::RoundRobin { cycles }
        };
        let mut e = Event::new("P", vec![Plan::new(format)]);
        e.settings.points = [[1.0, 0.5, 0.0], [3.0, 1.0, 0.0], [2.0, 1.0, 0.0], [2.0, 1.0, 1.0]][next(4) as usize];
        let n = if grouped { 6 + next(8) } else { 2 + next(10) };
        for i in 0..n {
            e.register(&format!("P{i}"), 1000 + next(1000) as u32, "", &[]).unwrap();
        }
        let results = ["1-0", "0-1", "1/2", "1-0", "0-1", "1/2", "+-", "-+", "--"];
        let played = next(2 * n + 2);
        for r in 0..played {
            let Ok(round) = e.pair() else { break };
            if next(8) == 0 {
                let _ = e.withdraw(1 + next(n) as u32);
            }
            let last = r + 1 == played;
            for p in round.pairings.iter().filter(|p| p.second.is_some()) {
                if last && next(3) == 0 {
                    continue;
                }
                let _ = e.result(&p.id, &[results[next(results.len() as u64) as usize]], false);
            }
        }
        e
    }

    #[test]
    fn counted_tables_equal_the_trf_path() {
        let mut checked = 0;
        for seed in 0..400u64 {
            let e = random_event(seed);
            let Some(s) = e.stages.len().checked_sub(1) else {
                continue;
            };
            let mut x = seed ^ 0x5eed;
            let mut orders = vec![vec![COUNTED[0], COUNTED[5], COUNTED[2]]];
            for _ in 0..3 {
                x = splitmix64(x);
                let len = 1 + (x % 4) as usize;
                orders.push(
                    (0..len)
                        .map(|i| COUNTED[(splitmix64(x + i as u64) % 10) as usize])
                        .collect(),
                );
            }
            for order in &orders {
                for g in 0..e.stages[s].groups.len() {
                    let counted = lines(&e, s, g, order).expect("a compact round robin");
                    let by_trf = crate::standings::standings(&group_trf(&e, s, g), order);
                    assert_eq!(counted, by_trf, "seed {seed}, order {order:?}, group {g}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }
}

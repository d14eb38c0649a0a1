//! Attack tables, computed at compile time.
//!
//! Sliding attacks (rook, cannon, flying general) come from per-rank and per-file tables indexed
//! by the occupancy of that line: the rank's 9 bits are read straight out of the `u128`, the
//! file's 10 bits out of a second, file-major occupancy that the board keeps beside it.
//! Leapers (horse, elephant) come from tables indexed by which of their 4 blocking points
//! (horse legs 马腿, elephant eyes 象眼) are empty.

use crate::{Bitboard, Color, Square};

/// Off-board marker in the leg/eye tables; the board's mailbox keeps a non-empty sentinel there.
pub(crate) const OFF: u8 = 90;

const fn sq_xy(f: i32, r: i32) -> Option<usize> {
    if f >= 0 && f < 9 && r >= 0 && r < 10 {
        Some((r * 9 + f) as usize)
    } else {
        None
    }
}

const fn bit(i: usize) -> u128 {
    1u128 << i
}

/// Slides from `pos` along a line of `len` points with occupancy `occ`: returns (the points up to
/// and including the first blocker, the point of the second blocker — a cannon's capture).
const fn slide_line(pos: usize, occ: u32, len: usize) -> (u16, u16) {
    let mut slide = 0u16;
    let mut cannon = 0u16;
    let mut dir = 0;
    while dir < 2 {
        let mut i = pos as i32;
        let mut screened = false;
        loop {
            i += if dir == 0 { 1 } else { -1 };
            if i < 0 || i >= len as i32 {
                break;
            }
            let occupied = occ >> i & 1 != 0;
            if !screened {
                slide |= 1 << i;
                if occupied {
                    screened = true;
                }
            } else if occupied {
                cannon |= 1 << i;
                break;
            }
        }
        dir += 1;
    }
    (slide, cannon)
}

const fn rank_tables() -> ([[u16; 512]; 9], [[u16; 512]; 9]) {
    let mut s = [[0u16; 512]; 9];
    let mut c = [[0u16; 512]; 9];
    let mut f = 0;
    while f < 9 {
        let mut occ = 0;
        while occ < 512 {
            let (a, b) = slide_line(f, occ as u32, 9);
            s[f][occ] = a;
            c[f][occ] = b;
            occ += 1;
        }
        f += 1;
    }
    (s, c)
}

const fn file_tables() -> ([[u16; 1024]; 10], [[u16; 1024]; 10]) {
    let mut s = [[0u16; 1024]; 10];
    let mut c = [[0u16; 1024]; 10];
    let mut r = 0;
    while r < 10 {
        let mut occ = 0;
        while occ < 1024 {
            let (a, b) = slide_line(r, occ as u32, 10);
            s[r][occ] = a;
            c[r][occ] = b;
            occ += 1;
        }
        r += 1;
    }
    (s, c)
}

const fn spread_table() -> [u128; 1024] {
    let mut t = [0u128; 1024];
    let mut m = 0;
    while m < 1024 {
        let mut r = 0;
        while r < 10 {
            if m >> r & 1 != 0 {
                t[m] |= bit(r * 9);
            }
            r += 1;
        }
        m += 1;
    }
    t
}

static RANK_TABLES: ([[u16; 512]; 9], [[u16; 512]; 9]) = rank_tables();
static FILE_TABLES: ([[u16; 1024]; 10], [[u16; 1024]; 10]) = file_tables();
/// Ranks set in a 10-bit mask → those points of file `a`.
static SPREAD: [u128; 1024] = spread_table();

/// The point of `sq` in the file-major occupancy (`file * 10 + rank`).
#[inline]
pub(crate) const fn transposed_bit(sq: Square) -> u128 {
    let i = sq.index();
    1u128 << ((i % 9) * 10 + i / 9)
}

#[inline]
fn line_index(sq: Square, occ: u128, occ_t: u128) -> (usize, usize, usize, usize) {
    let i = sq.index();
    let (f, r) = (i % 9, i / 9);
    let rank_occ = (occ >> (r * 9)) as usize & 0x1ff;
    let file_occ = (occ_t >> (f * 10)) as usize & 0x3ff;
    (f, r, rank_occ, file_occ)
}

/// Points a rook on `sq` reaches (up to and including the first piece in each direction).
/// Also the flying general's line: a king on `sq` "sees" the other king on its file this way.
#[inline]
pub fn rook_attacks(sq: Square, occ: u128, occ_t: u128) -> Bitboard {
    let (f, r, ro, fo) = line_index(sq, occ, occ_t);
    let rank = (RANK_TABLES.0[f][ro] as u128) << (r * 9);
    let file = SPREAD[FILE_TABLES.0[r][fo] as usize] << f;
    Bitboard(rank | file)
}

/// Points a cannon on `sq` can capture on: the first piece behind exactly one screen (炮架).
#[inline]
pub fn cannon_captures(sq: Square, occ: u128, occ_t: u128) -> Bitboard {
    let (f, r, ro, fo) = line_index(sq, occ, occ_t);
    let rank = (RANK_TABLES.1[f][ro] as u128) << (r * 9);
    let file = SPREAD[FILE_TABLES.1[r][fo] as usize] << f;
    Bitboard(rank | file)
}

// Orthogonal steps N, S, E, W and the diagonal ones NE, NW, SE, SW.
const ORTH: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const DIAG: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

const fn neighbours(steps: [(i32, i32); 4]) -> [[u8; 4]; 90] {
    let mut t = [[OFF; 4]; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut k = 0;
        while k < 4 {
            if let Some(n) = sq_xy(f + steps[k].0, r + steps[k].1) {
                t[s][k] = n as u8;
            }
            k += 1;
        }
        s += 1;
    }
    t
}

/// For each point, its 4 orthogonal neighbours (horse legs of a horse standing there).
pub(crate) static ORTH_NEIGHBOURS: [[u8; 4]; 90] = neighbours(ORTH);
/// For each point, its 4 diagonal neighbours (elephant eyes; also the legs of horses attacking it).
pub(crate) static DIAG_NEIGHBOURS: [[u8; 4]; 90] = neighbours(DIAG);

/// Horse moves from each point, indexed by a 4-bit mask of which legs (in `ORTH` order) are empty.
const fn horse_moves() -> [[u128; 16]; 90] {
    let mut t = [[0u128; 16]; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut k = 0;
        while k < 4 {
            // Leg k is the orthogonal step; the two targets go two further along it and one aside.
            let (dx, dy) = ORTH[k];
            let mut side = -1;
            while side <= 1 {
                let (tx, ty) = if dx == 0 {
                    (f + side, r + 2 * dy)
                } else {
                    (f + 2 * dx, r + side)
                };
                if let Some(to) = sq_xy(tx, ty) {
                    let mut m = 0;
                    while m < 16 {
                        if m >> k & 1 != 0 {
                            t[s][m] |= bit(to);
                        }
                        m += 1;
                    }
                }
                side += 2;
            }
            k += 1;
        }
        s += 1;
    }
    t
}

/// Horses that attack each point, indexed by a 4-bit mask of which diagonal neighbours (in `DIAG`
/// order) are empty: a horse two steps away attacks through the diagonal neighbour next to it.
const fn horse_attackers_table() -> [[u128; 16]; 90] {
    let mut t = [[0u128; 16]; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut k = 0;
        while k < 4 {
            let (dx, dy) = DIAG[k];
            // Horses at (2dx, dy) and (dx, 2dy) have their leg on the diagonal (dx, dy).
            let cands = [(f + 2 * dx, r + dy), (f + dx, r + 2 * dy)];
            let mut c = 0;
            while c < 2 {
                if let Some(h) = sq_xy(cands[c].0, cands[c].1) {
                    let mut m = 0;
                    while m < 16 {
                        if m >> k & 1 != 0 {
                            t[s][m] |= bit(h);
                        }
                        m += 1;
                    }
                }
                c += 1;
            }
            k += 1;
        }
        s += 1;
    }
    t
}

/// Elephant moves from each point (not yet limited to its own half), by empty-eye mask.
const fn elephant_moves() -> [[u128; 16]; 90] {
    let mut t = [[0u128; 16]; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut k = 0;
        while k < 4 {
            if let Some(to) = sq_xy(f + 2 * DIAG[k].0, r + 2 * DIAG[k].1) {
                let mut m = 0;
                while m < 16 {
                    if m >> k & 1 != 0 {
                        t[s][m] |= bit(to);
                    }
                    m += 1;
                }
            }
            k += 1;
        }
        s += 1;
    }
    t
}

static HORSE_MOVES: [[u128; 16]; 90] = horse_moves();
static HORSE_ATTACKERS: [[u128; 16]; 90] = horse_attackers_table();
static ELEPHANT_MOVES: [[u128; 16]; 90] = elephant_moves();

const fn in_palace(f: i32, r: i32) -> bool {
    f >= 3 && f <= 5 && (r <= 2 || r >= 7)
}

const fn step_table(steps: [(i32, i32); 4], palace: bool) -> [u128; 90] {
    let mut t = [0u128; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut k = 0;
        while k < 4 {
            let (x, y) = (f + steps[k].0, r + steps[k].1);
            if let Some(to) = sq_xy(x, y) {
                // Palace moves stay in the palace they start from (the two never touch).
                if !palace || (in_palace(f, r) && in_palace(x, y)) {
                    t[s] |= bit(to);
                }
            }
            k += 1;
        }
        s += 1;
    }
    t
}

static KING_MOVES: [u128; 90] = step_table(ORTH, true);
static ADVISOR_MOVES: [u128; 90] = step_table(DIAG, true);

/// Pawn moves: forward, and sideways once across the river.
const fn pawn_moves() -> [[u128; 90]; 2] {
    let mut t = [[0u128; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let fwd: i32 = if c == 0 { 1 } else { -1 };
        let mut s = 0;
        while s < 90 {
            let (f, r) = ((s % 9) as i32, (s / 9) as i32);
            if let Some(to) = sq_xy(f, r + fwd) {
                t[c][s] |= bit(to);
            }
            let crossed = if c == 0 { r >= 5 } else { r <= 4 };
            if crossed {
                if let Some(to) = sq_xy(f - 1, r) {
                    t[c][s] |= bit(to);
                }
                if let Some(to) = sq_xy(f + 1, r) {
                    t[c][s] |= bit(to);
                }
            }
            s += 1;
        }
        c += 1;
    }
    t
}

/// Which points a pawn of each colour attacks each point from (the inverse of `PAWN_MOVES`).
const fn pawn_attackers_table(moves: &[[u128; 90]; 2]) -> [[u128; 90]; 2] {
    let mut t = [[0u128; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut from = 0;
        while from < 90 {
            let mut to = 0;
            while to < 90 {
                if moves[c][from] >> to & 1 != 0 {
                    t[c][to] |= bit(from);
                }
                to += 1;
            }
            from += 1;
        }
        c += 1;
    }
    t
}

static PAWN_MOVES: [[u128; 90]; 2] = pawn_moves();
static PAWN_ATTACKERS: [[u128; 90]; 2] = pawn_attackers_table(&pawn_moves());

/// Points strictly between two points on one rank or file (empty otherwise).
const fn between_table() -> [[u128; 90]; 90] {
    let mut t = [[0u128; 90]; 90];
    let mut a = 0;
    while a < 90 {
        let mut b = 0;
        while b < 90 {
            let (fa, ra, fb, rb) = ((a % 9) as i32, (a / 9) as i32, (b % 9) as i32, (b / 9) as i32);
            if a != b && (fa == fb || ra == rb) {
                let (dx, dy) = ((fb - fa).signum(), (rb - ra).signum());
                let (mut x, mut y) = (fa + dx, ra + dy);
                while x != fb || y != rb {
                    t[a][b] |= bit((y * 9 + x) as usize);
                    x += dx;
                    y += dy;
                }
            }
            b += 1;
        }
        a += 1;
    }
    t
}

static BETWEEN: [[u128; 90]; 90] = between_table();

const fn lines_table() -> [u128; 90] {
    let mut t = [0u128; 90];
    let mut s = 0;
    while s < 90 {
        let mut o = 0;
        while o < 90 {
            if o != s && (o % 9 == s % 9 || o / 9 == s / 9) {
                t[s] |= bit(o);
            }
            o += 1;
        }
        s += 1;
    }
    t
}

static LINES: [u128; 90] = lines_table();

const fn half_table() -> [u128; 2] {
    [(1u128 << 45) - 1, ((1u128 << 90) - 1) ^ ((1u128 << 45) - 1)]
}

/// Each side's half of the board (its elephants never leave it).
pub(crate) static HALF: [u128; 2] = half_table();

#[inline]
pub(crate) fn horse_moves_by_legs(sq: Square, empty_legs: usize) -> Bitboard {
    Bitboard(HORSE_MOVES[sq.index()][empty_legs])
}

#[inline]
pub(crate) fn horse_attackers_by_legs(sq: Square, empty_legs: usize) -> Bitboard {
    Bitboard(HORSE_ATTACKERS[sq.index()][empty_legs])
}

#[inline]
pub(crate) fn elephant_moves_by_eyes(sq: Square, empty_eyes: usize, color: Color) -> Bitboard {
    Bitboard(ELEPHANT_MOVES[sq.index()][empty_eyes] & HALF[color.index()])
}

/// Which of `sq`'s 4 neighbours (from `table`) are empty in `occ`, as a 4-bit mask.
#[inline]
pub(crate) fn empty_mask(table: &[[u8; 4]; 90], sq: Square, occ: u128) -> usize {
    let n = &table[sq.index()];
    let mut m = 0;
    for (k, &p) in n.iter().enumerate() {
        // Off-board neighbours count as blocked; their table entries are empty anyway.
        if p != OFF && occ >> p & 1 == 0 {
            m |= 1 << k;
        }
    }
    m
}

/// Horse moves from `sq` (any horse: the tables do not depend on colour).
#[inline]
pub fn horse_attacks(sq: Square, occ: u128) -> Bitboard {
    horse_moves_by_legs(sq, empty_mask(&ORTH_NEIGHBOURS, sq, occ))
}

/// Points from which a horse would attack `sq` given the occupancy.
#[inline]
pub fn horse_attackers(sq: Square, occ: u128) -> Bitboard {
    horse_attackers_by_legs(sq, empty_mask(&DIAG_NEIGHBOURS, sq, occ))
}

/// Elephant moves of a `color` elephant on `sq`.
#[inline]
pub fn elephant_attacks(sq: Square, color: Color, occ: u128) -> Bitboard {
    elephant_moves_by_eyes(sq, empty_mask(&DIAG_NEIGHBOURS, sq, occ), color)
}

/// King steps from `sq`, within its palace.
#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING_MOVES[sq.index()])
}

/// Advisor steps from `sq`, within its palace.
#[inline]
pub fn advisor_attacks(sq: Square) -> Bitboard {
    Bitboard(ADVISOR_MOVES[sq.index()])
}

/// Where a `color` pawn on `sq` may go.
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN_MOVES[color.index()][sq.index()])
}

/// From where a `color` pawn would attack `sq`.
#[inline]
pub fn pawn_attackers(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN_ATTACKERS[color.index()][sq.index()])
}

/// Points strictly between `a` and `b` if they share a rank or file, else empty.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN[a.index()][b.index()])
}

/// The rank and file through `sq`, without `sq` itself.
#[inline]
pub fn lines(sq: Square) -> Bitboard {
    Bitboard(LINES[sq.index()])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn horse_leg_blocks() {
        let h = sq("b0");
        let free = horse_attacks(h, 0);
        assert_eq!(free.count(), 3); // a2, c2, d1
        let blocked = horse_attacks(h, Bitboard::from_square(sq("b1")).0);
        assert_eq!(blocked, Bitboard::from_square(sq("d1")));
    }

    #[test]
    fn horse_attackers_inverse_of_moves() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occ = (x as u128 | (x.rotate_left(23) as u128) << 64) & Bitboard::FULL.0;
            for target in Square::all() {
                let from_table = horse_attackers(target, occ);
                let by_moves: Bitboard = Square::all()
                    .filter(|&h| horse_attacks(h, occ).contains(target))
                    .collect();
                assert_eq!(from_table, by_moves, "target {target}");
            }
        }
    }

    #[test]
    fn cannon_needs_one_screen() {
        let c = sq("b2");
        let occ = Bitboard::from_square(sq("b5"))
            .with(sq("b7"))
            .with(sq("b9"))
            .with(sq("e2"))
            .0;
        let occ_t = Bitboard(occ).fold_transposed();
        let caps = cannon_captures(c, occ, occ_t);
        assert_eq!(caps, Bitboard::from_square(sq("b7")));
        let slides = rook_attacks(c, occ, occ_t);
        assert!(slides.contains(sq("b5")) && slides.contains(sq("e2")) && !slides.contains(sq("b7")));
    }

    impl Bitboard {
        fn fold_transposed(self) -> u128 {
            self.fold(0, |t, s| t | transposed_bit(s))
        }
    }

    #[test]
    fn elephant_stays_home() {
        assert_eq!(elephant_attacks(sq("c4"), Color::Red, 0).count(), 2);
        assert_eq!(elephant_attacks(sq("e2"), Color::Red, 0).count(), 4);
        assert!(!elephant_attacks(sq("e2"), Color::Red, Bitboard::from_square(sq("d3")).0).contains(sq("c4")));
    }
}

//! Zobrist hashing: a 64-bit key of the placement and the side to move, the repetition key.

use crate::{Color, Piece, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

const fn piece_keys() -> ([[u64; 90]; 15], u64) {
    let mut t = [[0u64; 90]; 15];
    let mut state = 0x5851_f42d_4c95_7f2d; // fixed seed: keys must be stable across runs
    let mut p = 1;
    while p < 15 {
        let mut s = 0;
        while s < 90 {
            let (ns, v) = splitmix(state);
            state = ns;
            t[p][s] = v;
            s += 1;
        }
        p += 1;
    }
    let (_, side) = splitmix(state);
    (t, side)
}

static KEYS: ([[u64; 90]; 15], u64) = piece_keys();

/// The key term of `piece` standing on `sq`.
#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    KEYS.0[piece.code() as usize][sq.index()]
}

#[inline]
pub(crate) fn code_key(code: u8, sq: Square) -> u64 {
    KEYS.0[code as usize][sq.index()]
}

/// The key term for black to move (red to move adds nothing).
#[inline]
pub fn side_key(turn: Color) -> u64 {
    match turn {
        Color::Red => 0,
        Color::Black => KEYS.1,
    }
}

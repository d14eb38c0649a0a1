//! The positions that can still repeat: their repetition keys since the last capture or pawn
//! move, which makes every earlier position unreachable (FIDE 9.2.2: the same placement, side
//! to move, castling rights and en-passant possibility).

/// Repetition keys by ply since the last zeroing move.
#[derive(Debug, Clone)]
pub(super) struct History {
    /// `keys[i]` is the key of the position at ply `base + i`.
    keys: Vec<u64>,
    base: usize,
    /// The most occurrences of any one position so far, by the parity of its ply: a position
    /// that a move could repeat has the other side to move, so a claim by announcing a move is
    /// looked for only when this count for the next ply's parity is high enough.
    most: [u32; 2],
}

impl History {
    /// The history of a game that starts at ply 0 in the position `key`. A start from FEN
    /// counts as the first occurrence of its position; what came before it is unknown.
    pub(super) fn new(key: u64) -> History {
        History {
            keys: vec![key],
            base: 0,
            most: [1, 0],
        }
    }

    /// The ply of the last position recorded.
    fn ply(&self) -> usize {
        self.base + self.keys.len() - 1
    }

    /// Records the position after the next move; a zeroing move forgets all before it.
    /// Returns how often the position has now stood.
    pub(super) fn push(&mut self, key: u64, zeroing: bool) -> u32 {
        let ply = self.ply() + 1;
        if zeroing {
            self.keys.clear();
            self.base = ply;
            self.most = [0, 0];
        }
        let count = self.count_at(key, ply);
        self.keys.push(key);
        let most = &mut self.most[ply % 2];
        *most = (*most).max(count);
        count
    }

    /// How often the position `key` stands at `ply` (this ply or the next), counting itself
    /// if the position at `ply` is recorded, and otherwise counting it as one more.
    pub(super) fn count_at(&self, key: u64, ply: usize) -> u32 {
        self.plies_of(key, ply).count() as u32 + u32::from(ply > self.ply())
    }

    /// The plies, latest first, at which `key` stood among the positions of `ply`'s parity up
    /// to `ply`.
    pub(super) fn plies_of(&self, key: u64, ply: usize) -> impl Iterator<Item = usize> + '_ {
        let last = ply.min(self.ply());
        // Positions with the same side to move stand an even number of plies apart.
        let last = if (ply ^ last) & 1 == 0 {
            Some(last)
        } else {
            last.checked_sub(1)
        };
        let end = last.filter(|&p| p >= self.base).map_or(0, |p| p - self.base + 1);
        self.keys[..end]
            .iter()
            .enumerate()
            .rev()
            .step_by(2)
            .filter(move |&(_, &k)| k == key)
            .map(move |(i, _)| self.base + i)
    }

    /// The most occurrences of any recorded position at `ply`'s parity.
    pub(super) fn most_at(&self, ply: usize) -> u32 {
        self.most[ply % 2]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_by_side_to_move_and_forgets_at_zeroing_moves() {
        let mut h = History::new(1);
        assert_eq!(h.push(2, false), 1);
        assert_eq!(h.push(1, false), 2);
        assert_eq!(h.push(2, false), 2);
        assert_eq!(h.push(1, false), 3);
        assert_eq!(h.plies_of(1, 4).collect::<Vec<_>>(), vec![4, 2, 0]);
        assert_eq!(h.most_at(4), 3);
        assert_eq!(h.most_at(5), 2);
        // The next position (ply 5) would be 2's third occurrence.
        assert_eq!(h.count_at(2, 5), 3);
        assert_eq!(h.plies_of(2, 5).collect::<Vec<_>>(), vec![3, 1]);
        assert_eq!(h.push(2, true), 1);
        assert_eq!(h.push(1, false), 1);
        assert_eq!(h.most_at(6), 1);
    }

    #[test]
    fn a_key_at_the_other_parity_does_not_count() {
        // Keys carry the side to move, so this cannot happen in chess; the scan must not rely
        // on it either way.
        let mut h = History::new(7);
        assert_eq!(h.push(7, false), 1);
        assert_eq!(h.push(7, false), 2);
    }
}

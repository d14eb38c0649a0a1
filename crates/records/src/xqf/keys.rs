//! The obscuring of XQF 11 and later: keys derived from the header, taken off the piece
//! table, the move squares, the comment lengths and every byte after the header.

use super::*;

/// f(b) = (((((b·b)·3+9)·3+8)·2+1)·3+8) mod 256, XQStudio's mixing step, expanded.
pub(super) fn square_mix(b: u8) -> u8 {
    54u8.wrapping_mul(b.wrapping_mul(b)).wrapping_add(221)
}

/// The keys of a version 11+ file, derived from header bytes 0x03 and 0x08-0x0f.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Keys {
    /// KeyXY′: rotates the piece table and is subtracted from each slot.
    pub(super) table: u8,
    /// KeyXYf′ and KeyXYt′: subtracted from the from and to bytes of each move.
    pub(super) from: u8,
    pub(super) to: u8,
    /// Added to each comment length by the writer.
    pub(super) comment: i32,
    /// Subtracted from every byte after the header, by file offset mod 32.
    pub(super) stream: [u8; 32],
}

impl Keys {
    pub(super) const PLAIN: Keys = Keys {
        table: 0,
        from: 0,
        to: 0,
        comment: 0,
        stream: [0; 32],
    };

    pub(super) fn derive(h: &[u8; HEADER_LEN]) -> Keys {
        let (sum, xy, xyf, xyt) = (h[0x0c], h[0x0d], h[0x0e], h[0x0f]);
        let table = square_mix(xy).wrapping_mul(xy);
        let from = square_mix(xyf).wrapping_mul(table);
        let to = square_mix(xyt).wrapping_mul(from);
        let comment = (i32::from(sum) * 256 + i32::from(xy)) % 32000 + 767;
        let mask = h[0x03];
        // KeysSum, KeyXY, KeyXYf, KeyXYt masked, then KeyOrA-D or-ed in.
        let k = [0, 1, 2, 3].map(|j| (h[0x0c + j] & mask) | h[0x08 + j]);
        let mut stream = [0u8; 32];
        for ((s, &c), &k) in stream.iter_mut().zip(COPYRIGHT).zip(k.iter().cycle()) {
            *s = c & k;
        }
        Keys {
            table,
            from,
            to,
            comment,
            stream,
        }
    }

    /// The tree bytes in the clear; borrowed when there is nothing to undo.
    pub(super) fn decrypt<'a>(&self, body: &'a [u8]) -> Cow<'a, [u8]> {
        if self.stream == [0; 32] {
            return Cow::Borrowed(body);
        }
        // The stream runs by file offset, not by offset in the tree.
        Cow::Owned(
            body.iter()
                .zip(self.stream.iter().cycle().skip(HEADER_LEN % 32))
                .map(|(&b, &s)| b.wrapping_sub(s))
                .collect(),
        )
    }

    /// The 32 slots in the clear: each is x·10+y, > 89 for a piece not on the board.
    pub(super) fn piece_table(&self, version: u8, h: &[u8; HEADER_LEN]) -> [u8; 32] {
        let stored: [u8; 32] = std::array::from_fn(|i| h.get(0x10 + i).copied().unwrap_or(0xff));
        let mut table = stored;
        if version >= 12 {
            let shift = usize::from(self.table) + 1;
            for (i, &b) in stored.iter().enumerate() {
                if let Some(slot) = table.get_mut((i + shift) % 32) {
                    *slot = b;
                }
            }
        }
        if version >= 11 {
            for b in &mut table {
                *b = b.wrapping_sub(self.table);
            }
        }
        table
    }
}

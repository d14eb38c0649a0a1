//! Drawing lots (抽签): splitmix64 (Steele, Lea and Flood), a fixed and documented generator, so
//! a seed gives the same draw on every machine and a draw can be audited and replayed from the
//! seed in its log. Every lot the tournament code draws comes from here.

/// The golden-ratio increment between a stream's states.
const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// splitmix64 of `x`: the n-th number of a stream seeded with `s` is
/// `splitmix64(s + (n - 1) * 0x9e3779b97f4a7c15)` (wrapping), as [`Stream`] draws them.
pub fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(GAMMA);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The splitmix64 stream of a seed.
#[derive(Debug, Clone)]
pub struct Stream(u64);

impl Stream {
    pub fn new(seed: u64) -> Stream {
        Stream(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        let z = splitmix64(self.0);
        self.0 = self.0.wrapping_add(GAMMA);
        z
    }

    /// A number below `n` (`n` > 0), by the remainder: the tiny bias does not matter for lots,
    /// and keeps every draw made so far replayable.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// Shuffles `items` (Fisher–Yates, from the last place down).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference values of splitmix64 seeded with 1234567 (from the C reference code).
    #[test]
    fn the_reference_stream() {
        let mut s = Stream::new(1_234_567);
        let first: Vec<u64> = (0..3).map(|_| s.next_u64()).collect();
        assert_eq!(
            first,
            [
                6_457_827_717_110_365_317,
                3_203_168_211_198_807_973,
                9_817_491_932_198_370_423
            ]
        );
    }
}

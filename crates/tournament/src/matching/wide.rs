//! [`Wide`]: a fixed-width unsigned integer of `N` 64-bit limbs, for the long lexicographic
//! weights of the Swiss pairings.

use std::fmt;

use super::Weight;

/// An unsigned integer of `N` 64-bit limbs (`64·N` bits) with wrapping arithmetic.
///
/// The limbs are stored most significant first, so the derived ordering is the numeric one. Build
/// lexicographic weights field by field, most significant field first:
///
/// ```
/// use tournament::matching::Wide;
///
/// // [pairs: 12 bits][score difference: 40 bits][colour preference: 3 bits]
/// let w = Wide::<4>::from_u64(7).shl(40).or_small(1234).shl(3).or_small(5);
/// assert_eq!(w, Wide::from_u64((7 << 43) | (1234 << 3) | 5));
/// assert!(Wide::<4>::from_u64(1).shl(200) > Wide::from_u64(u64::MAX));
/// ```
#[derive(Clone, Copy)]
pub struct Wide<const N: usize>([u64; N]);

// Comparisons by hand: scalar and branch-free (an or of xors, a borrow chain), which the hot loops
// need; the derived ones compare arrays through memory.
impl<const N: usize> PartialEq for Wide<N> {
    #[inline(always)]
    fn eq(&self, other: &Self) -> bool {
        let mut diff = 0;
        for i in 0..N {
            diff |= self.0[i] ^ other.0[i];
        }
        diff == 0
    }
}

impl<const N: usize> Eq for Wide<N> {}

impl<const N: usize> std::hash::Hash for Wide<N> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl<const N: usize> Wide<N> {
    /// `self < other`, as the borrow out of `self − other`.
    #[inline(always)]
    fn below(&self, other: &Self) -> bool {
        let mut borrow = false;
        for i in (0..N).rev() {
            let (d, b1) = self.0[i].overflowing_sub(other.0[i]);
            let (_, b2) = d.overflowing_sub(borrow as u64);
            borrow = b1 | b2;
        }
        borrow
    }
}

impl<const N: usize> Ord for Wide<N> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        if self.below(other) {
            std::cmp::Ordering::Less
        } else if self == other {
            std::cmp::Ordering::Equal
        } else {
            std::cmp::Ordering::Greater
        }
    }
}

impl<const N: usize> PartialOrd for Wide<N> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
    #[inline(always)]
    fn lt(&self, other: &Self) -> bool {
        self.below(other)
    }
    #[inline(always)]
    fn le(&self, other: &Self) -> bool {
        !other.below(self)
    }
    #[inline(always)]
    fn gt(&self, other: &Self) -> bool {
        other.below(self)
    }
    #[inline(always)]
    fn ge(&self, other: &Self) -> bool {
        !self.below(other)
    }
}

impl<const N: usize> Wide<N> {
    pub const ZERO: Self = Wide([0; N]);
    pub const BITS: u32 = 64 * N as u32;
    /// `2^(64·N − 2) − 1`: see [`Weight::MAX_WEIGHT`].
    pub const MAX_WEIGHT: Self = {
        let mut limbs = [u64::MAX; N];
        limbs[0] >>= 2;
        Wide(limbs)
    };

    pub const fn from_u64(x: u64) -> Self {
        let mut limbs = [0; N];
        limbs[N - 1] = x;
        Wide(limbs)
    }

    /// From limbs, most significant first.
    pub const fn from_limbs(limbs: [u64; N]) -> Self {
        Wide(limbs)
    }

    /// The limbs, most significant first.
    pub const fn limbs(self) -> [u64; N] {
        self.0
    }

    /// The lowest 64 bits.
    pub const fn low_u64(self) -> u64 {
        self.0[N - 1]
    }

    #[inline(always)]
    pub fn is_zero(self) -> bool {
        self.0.iter().fold(0, |a, &l| a | l) == 0
    }

    /// The number of significant bits (0 for zero).
    pub fn bit_len(self) -> u32 {
        match self.0.iter().position(|&l| l != 0) {
            Some(i) => (N - i) as u32 * 64 - self.0[i].leading_zeros(),
            None => 0,
        }
    }

    #[inline(always)]
    pub fn wrapping_add(self, rhs: Self) -> Self {
        let mut r = [0u64; N];
        let mut carry = false;
        for i in (0..N).rev() {
            let (s, c1) = self.0[i].overflowing_add(rhs.0[i]);
            let (s, c2) = s.overflowing_add(carry as u64);
            r[i] = s;
            carry = c1 | c2;
        }
        Wide(r)
    }

    #[inline(always)]
    pub fn wrapping_sub(self, rhs: Self) -> Self {
        let mut r = [0u64; N];
        let mut borrow = false;
        for i in (0..N).rev() {
            let (d, b1) = self.0[i].overflowing_sub(rhs.0[i]);
            let (d, b2) = d.overflowing_sub(borrow as u64);
            r[i] = d;
            borrow = b1 | b2;
        }
        Wide(r)
    }

    /// `self + x`, wrapping.
    pub fn add_small(self, x: u64) -> Self {
        self.wrapping_add(Self::from_u64(x))
    }

    /// `self − x`, wrapping.
    pub fn sub_small(self, x: u64) -> Self {
        self.wrapping_sub(Self::from_u64(x))
    }

    /// `self << bits` (bits shifted out are lost; `bits ≥ 64·N` gives zero).
    #[allow(clippy::should_implement_trait)]
    pub fn shl(self, bits: u32) -> Self {
        if bits >= Self::BITS {
            return Self::ZERO;
        }
        let (limbs, b) = ((bits / 64) as usize, bits % 64);
        let mut r = [0u64; N];
        for (i, out) in r[..N - limbs].iter_mut().enumerate() {
            let mut x = self.0[i + limbs] << b;
            if b > 0 && i + limbs + 1 < N {
                x |= self.0[i + limbs + 1] >> (64 - b);
            }
            *out = x;
        }
        Wide(r)
    }

    /// `self >> bits` (logical).
    #[allow(clippy::should_implement_trait)]
    pub fn shr(self, bits: u32) -> Self {
        if bits >= Self::BITS {
            return Self::ZERO;
        }
        let (limbs, b) = ((bits / 64) as usize, bits % 64);
        let mut r = [0u64; N];
        for (j, out) in r[limbs..].iter_mut().enumerate() {
            let mut x = self.0[j] >> b;
            if b > 0 && j > 0 {
                x |= self.0[j - 1] << (64 - b);
            }
            *out = x;
        }
        Wide(r)
    }

    /// Bitwise or.
    pub fn or(self, rhs: Self) -> Self {
        let mut r = self.0;
        for (a, b) in r.iter_mut().zip(rhs.0) {
            *a |= b;
        }
        Wide(r)
    }

    /// Or `x` into the lowest 64 bits (to fill the field just opened by [`Wide::shl`]).
    pub fn or_small(mut self, x: u64) -> Self {
        self.0[N - 1] |= x;
        self
    }
}

impl<const N: usize> Default for Wide<N> {
    fn default() -> Self {
        Self::ZERO
    }
}

impl<const N: usize> From<u64> for Wide<N> {
    fn from(x: u64) -> Self {
        Self::from_u64(x)
    }
}

impl<const N: usize> fmt::Debug for Wide<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "0x")?;
        let first = self.0.iter().position(|&l| l != 0).unwrap_or(N - 1);
        write!(f, "{:x}", self.0[first])?;
        for l in &self.0[first + 1..] {
            write!(f, "_{l:016x}")?;
        }
        Ok(())
    }
}

impl<const N: usize> std::ops::Add for Wide<N> {
    type Output = Self;
    fn add(self, rhs: Self) -> Self {
        self.wrapping_add(rhs)
    }
}

impl<const N: usize> std::ops::Sub for Wide<N> {
    type Output = Self;
    fn sub(self, rhs: Self) -> Self {
        self.wrapping_sub(rhs)
    }
}

impl<const N: usize> std::ops::Shl<u32> for Wide<N> {
    type Output = Self;
    fn shl(self, bits: u32) -> Self {
        Wide::shl(self, bits)
    }
}

impl<const N: usize> std::ops::Shr<u32> for Wide<N> {
    type Output = Self;
    fn shr(self, bits: u32) -> Self {
        Wide::shr(self, bits)
    }
}

impl<const N: usize> std::ops::BitOr for Wide<N> {
    type Output = Self;
    fn bitor(self, rhs: Self) -> Self {
        self.or(rhs)
    }
}

impl<const N: usize> Weight for Wide<N> {
    const ZERO: Self = Wide([0; N]);
    const MAX_WEIGHT: Self = Wide::<N>::MAX_WEIGHT;
    #[inline(always)]
    fn is_odd(self) -> bool {
        self.0[N - 1] & 1 == 1
    }
    #[inline(always)]
    fn one() -> Self {
        Wide::from_u64(1)
    }
    #[inline(always)]
    fn is_edge(self) -> bool {
        !Wide::is_zero(self)
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        Wide::is_zero(self)
    }
    #[inline(always)]
    fn wadd(self, rhs: Self) -> Self {
        self.wrapping_add(rhs)
    }
    #[inline(always)]
    fn wsub(self, rhs: Self) -> Self {
        self.wrapping_sub(rhs)
    }
    #[inline(always)]
    fn half(self) -> Self {
        let mut r = self.0;
        let mut high = 0u64;
        for l in r.iter_mut() {
            let low_bit = *l << 63;
            *l = (*l >> 1) | high;
            high = low_bit;
        }
        Wide(r)
    }
}

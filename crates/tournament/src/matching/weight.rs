//! What an edge weight must do ([`Weight`]), and its one implementation for the machine
//! integers.

use std::fmt;

/// An edge weight: a totally ordered integer with wrapping addition and subtraction.
///
/// The algorithm only ever stores values in `0 ..= 4 · MAX_WEIGHT`; intermediate sums may wrap,
/// final values never do.
pub trait Weight: Copy + Ord + fmt::Debug {
    const ZERO: Self;
    /// The largest edge weight [`Matcher::solve`](super::Matcher::solve) accepts.
    const MAX_WEIGHT: Self;
    /// Wrapping addition.
    fn wadd(self, rhs: Self) -> Self;
    /// Wrapping subtraction.
    fn wsub(self, rhs: Self) -> Self;
    /// Halve (the value is never negative when the algorithm halves it).
    fn half(self) -> Self;
    /// Whether the lowest bit is set.
    fn is_odd(self) -> bool;
    /// One.
    fn one() -> Self;
    /// Whether this weight denotes an edge (is above zero).
    #[inline(always)]
    fn is_edge(self) -> bool {
        self > Self::ZERO
    }
    /// Whether this (non-negative) value is zero.
    #[inline(always)]
    fn is_zero(self) -> bool {
        self == Self::ZERO
    }
}

/// The machine integers, each with the top bits kept free as [`Weight::MAX_WEIGHT`] says (the
/// top two for the unsigned ones; three for `i64`, whose sign bit must stay clear too).
macro_rules! machine_weight {
    ($($t:ty: $max:expr),*) => {$(
        impl Weight for $t {
            const ZERO: Self = 0;
            const MAX_WEIGHT: Self = $max;
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
                self >> 1
            }
            #[inline(always)]
            fn is_odd(self) -> bool {
                self & 1 == 1
            }
            #[inline(always)]
            fn one() -> Self {
                1
            }
        }
    )*};
}

machine_weight!(u64: (1 << 62) - 1, i64: (1 << 61) - 1, u128: (1 << 126) - 1);

//! A set of up to 256 cells (Hexxagon of side 9 has 217), as four words.

/// A set of cells by index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Bits(pub [u64; 4]);

impl Bits {
    /// No cell.
    pub const EMPTY: Bits = Bits([0; 4]);

    /// Adds a cell.
    #[inline(always)]
    pub fn set(&mut self, i: usize) {
        self.0[i >> 6] |= 1 << (i & 63);
    }

    /// Removes a cell.
    #[inline(always)]
    pub fn clear(&mut self, i: usize) {
        self.0[i >> 6] &= !(1 << (i & 63));
    }

    /// True when the cell is in the set.
    #[inline(always)]
    pub fn has(&self, i: usize) -> bool {
        self.0[i >> 6] >> (i & 63) & 1 == 1
    }

    /// The number of cells.
    #[inline(always)]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// True for the empty set.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    /// The cells in both.
    #[inline(always)]
    pub fn and(self, o: Bits) -> Bits {
        Bits(std::array::from_fn(|k| self.0[k] & o.0[k]))
    }

    /// The cells in either.
    #[inline(always)]
    pub fn or(self, o: Bits) -> Bits {
        Bits(std::array::from_fn(|k| self.0[k] | o.0[k]))
    }

    /// The cells of `self` not in `o`.
    #[inline(always)]
    pub fn minus(self, o: Bits) -> Bits {
        Bits(std::array::from_fn(|k| self.0[k] & !o.0[k]))
    }

    /// The `n`-th cell in increasing order (`n` below [`Bits::count`]).
    #[inline(always)]
    pub fn nth(&self, mut n: u32) -> usize {
        for (k, &w) in self.0.iter().enumerate() {
            let c = w.count_ones();
            if n < c {
                return k * 64 + crate::games::bitword::select(w, n) as usize;
            }
            n -= c;
        }
        unreachable!("nth past the end of a set")
    }

    /// How many cells of the set are below `i` (the rank of `i` among them, when it is one).
    pub fn rank(&self, i: usize) -> u32 {
        let (k, bit) = (i >> 6, i & 63);
        let below: u32 = self.0[..k].iter().map(|w| w.count_ones()).sum();
        below + (self.0[k] & ((1u64 << bit) - 1)).count_ones()
    }

    /// True when every cell of `self` is in `o`.
    pub fn within(&self, o: Bits) -> bool {
        self.minus(o).is_empty()
    }

    /// The cells in increasing order.
    #[inline(always)]
    pub fn iter(self) -> impl Iterator<Item = usize> {
        self.0.into_iter().enumerate().flat_map(|(k, mut w)| {
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let i = w.trailing_zeros() as usize;
                    w &= w - 1;
                    k * 64 + i
                })
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_of_cells() {
        let mut b = Bits::EMPTY;
        for i in [0, 63, 64, 200, 216] {
            b.set(i);
        }
        assert_eq!(b.count(), 5);
        assert_eq!(b.iter().collect::<Vec<_>>(), [0, 63, 64, 200, 216]);
        assert_eq!(b.nth(3), 200);
        assert_eq!(
            [b.rank(0), b.rank(64), b.rank(200), b.rank(201)],
            [0, 2, 3, 4]
        );
        assert!(Bits::EMPTY.within(b) && b.within(b) && !b.within(Bits::EMPTY));
        b.clear(63);
        assert!(!b.has(63) && b.has(64));
        assert_eq!(b.minus(b), Bits::EMPTY);
    }

    #[test]
    fn nth_is_the_nth_of_the_iteration() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200 {
            let mut b = Bits::EMPTY;
            for k in 0..4 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                // Dense, sparse and empty words alike.
                b.0[k] = match x % 4 {
                    0 => 0,
                    1 => x & (x >> 11) & (x >> 23),
                    _ => x,
                };
            }
            for (n, cell) in b.iter().enumerate() {
                assert_eq!(b.nth(n as u32), cell, "{b:?}");
            }
        }
    }
}

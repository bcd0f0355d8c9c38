//! The empty cells of a board as a bit set that hands out "the k-th empty cell in index order" in a
//! few word operations, for playouts that must draw exactly as the search's generic loop does (it
//! lists the empty cells in index order each ply and picks an index into that list): listing them
//! again every ply made the playout quadratic in the board's cells.

use super::{Chains, EMPTY, MAX_COLUMNS};

/// Words enough for the largest grid (26 × 26 cells).
const WORDS: usize = (MAX_COLUMNS as usize * MAX_COLUMNS as usize).div_ceil(64);

/// A set of cells, taken out one at a time by their rank in index order.
#[derive(Clone)]
pub struct Empties {
    bits: [u64; WORDS],
    len: usize,
}

impl Empties {
    /// The empty cells of `chains`.
    pub fn of(chains: &Chains) -> Empties {
        let mut bits = [0u64; WORDS];
        let mut len = 0;
        for (cell, &c) in chains.stones().iter().enumerate() {
            if c == EMPTY {
                bits[cell / 64] |= 1 << (cell % 64);
                len += 1;
            }
        }
        Empties { bits, len }
    }

    /// How many cells are in the set.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no cell is left.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Takes out `cell`, which must be in the set (a playout's chosen reply).
    #[inline]
    pub fn remove(&mut self, cell: usize) {
        let bit = 1u64 << (cell % 64);
        debug_assert!(
            self.bits[cell / 64] & bit != 0,
            "cell {cell} is not in the set"
        );
        self.bits[cell / 64] &= !bit;
        self.len -= 1;
    }

    /// Takes out and returns the cell of rank `k` (from 0) in index order; `k < len()`.
    #[inline]
    pub fn take_nth(&mut self, mut k: usize) -> usize {
        debug_assert!(k < self.len);
        for (w, word) in self.bits.iter_mut().enumerate() {
            let n = word.count_ones() as usize;
            if k >= n {
                k -= n;
                continue;
            }
            let bit = crate::games::bitword::select(*word, k as u32);
            *word &= !(1u64 << bit);
            self.len -= 1;
            return w * 64 + bit as usize;
        }
        unreachable!("rank {k} beyond the set's {} cells", self.len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hexgrid::Grid;

    #[test]
    fn ranks_follow_the_index_order_of_the_empty_cells() {
        let grid = Grid::rhombus(19);
        let mut chains = Chains::new(grid);
        // Stones on a scattering of cells, in every word of the set.
        for cell in (0..grid.len()).filter(|c| c % 7 == 3 || c % 11 == 0) {
            chains.place(grid, cell, 1);
        }
        let mut set = Empties::of(&chains);
        let mut list: Vec<usize> = chains.empty_cells().collect();
        assert_eq!(set.len(), list.len());
        // Take ranks in a fixed, scrambled order and compare with removing from the listed cells.
        let mut x = 12345usize;
        while !list.is_empty() {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let k = (x >> 33) % list.len();
            assert_eq!(set.take_nth(k), list.remove(k));
            assert_eq!(set.len(), list.len());
        }
        assert!(set.is_empty());
    }
}

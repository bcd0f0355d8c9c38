//! Stones and their chains on a [`Grid`], as a union-find that grows one stone at a time.

use super::{Grid, Sides};

/// The colour of an empty cell in [`Chains`]; stones have colours 1 and up (the game names them).
pub const EMPTY: u8 = 0;

/// The stones on a grid and their chains (stones of one colour joined through neighbours).
///
/// Placing a stone unites it with its same-coloured neighbours (union by size, finds with path
/// halving) and ORs their side flags into the new root, so asking which sides a chain touches costs one
/// find. Stones are never taken off; a game that removes one (Hex's swap) rebuilds with
/// [`Chains::from_stones`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chains {
    stone: Vec<u8>,
    parent: Vec<u16>,
    size: Vec<u16>,
    /// At a chain's root: the sides its stones touch.
    flags: Vec<Sides>,
}

impl Chains {
    /// An empty board of `grid`'s cells.
    pub fn new(grid: &Grid) -> Chains {
        let n = grid.len();
        Chains {
            stone: vec![EMPTY; n],
            parent: (0..n as u16).collect(),
            size: vec![1; n],
            flags: (0..n).map(|i| grid.sides(i)).collect(),
        }
    }

    /// The board with these stones (one colour per cell, [`EMPTY`] where none), chains rebuilt.
    pub fn from_stones(grid: &Grid, stones: &[u8]) -> Chains {
        let mut ch = Chains::new(grid);
        for (cell, &colour) in stones.iter().enumerate() {
            if colour != EMPTY {
                ch.place(grid, cell, colour);
            }
        }
        ch
    }

    /// The colour of the stone on `cell`, or [`EMPTY`].
    #[inline]
    pub fn colour(&self, cell: usize) -> u8 {
        self.stone[cell]
    }

    /// Every cell's colour, by cell index.
    pub fn stones(&self) -> &[u8] {
        &self.stone
    }

    /// Puts a stone of `colour` (not [`EMPTY`]) on the empty `cell` and joins it to its neighbours of
    /// that colour. Returns the sides the stone's chain now touches.
    #[inline]
    pub fn place(&mut self, grid: &Grid, cell: usize, colour: u8) -> Sides {
        debug_assert!(colour != EMPTY && self.stone[cell] == EMPTY);
        self.stone[cell] = colour;
        let mut root = cell;
        for &n in grid.neighbours(cell) {
            let n = n as usize;
            if self.stone[n] == colour {
                root = self.union(root, n);
            }
        }
        self.flags[root]
    }

    /// The sides the chain of a stone of `colour` on the empty `cell` would touch, without placing it:
    /// what [`Chains::place`] would return (so a game can tell a winning stone without a copy).
    #[inline]
    pub fn sides_if_placed(&self, grid: &Grid, cell: usize, colour: u8) -> Sides {
        let mut sides = self.flags[self.root(cell)];
        for &n in grid.neighbours(cell) {
            let n = n as usize;
            if self.stone[n] == colour {
                sides |= self.chain_sides(n);
            }
        }
        sides
    }

    /// Unites the chains of two stones (given as a root and any stone); returns the new root.
    #[inline]
    fn union(&mut self, root: usize, other: usize) -> usize {
        let other = self.find(other);
        if other == root {
            return root;
        }
        let (big, small) = if self.size[root] >= self.size[other] {
            (root, other)
        } else {
            (other, root)
        };
        self.parent[small] = big as u16;
        self.size[big] += self.size[small];
        self.flags[big] |= self.flags[small];
        big
    }

    /// The root of `cell`'s chain, shortening the path on the way (path halving).
    #[inline]
    pub fn find(&mut self, mut cell: usize) -> usize {
        while self.parent[cell] as usize != cell {
            let up = self.parent[self.parent[cell] as usize];
            self.parent[cell] = up;
            cell = up as usize;
        }
        cell
    }

    /// The root of `cell`'s chain, without changing anything (for shared access).
    #[inline]
    pub fn root(&self, mut cell: usize) -> usize {
        while self.parent[cell] as usize != cell {
            cell = self.parent[cell] as usize;
        }
        cell
    }

    /// The sides touched by the chain of the stone on `cell` (for an empty cell: the cell's own sides).
    #[inline]
    pub fn chain_sides(&self, cell: usize) -> Sides {
        self.flags[self.root(cell)]
    }

    /// True when the chain of the stone on `cell` touches every side in `sides`.
    #[inline]
    pub fn joins(&self, cell: usize, sides: Sides) -> bool {
        self.chain_sides(cell) & sides == sides
    }

    /// True when the stones on `a` and `b` are in one chain.
    pub fn connected(&self, a: usize, b: usize) -> bool {
        self.stone[a] != EMPTY && self.stone[a] == self.stone[b] && self.root(a) == self.root(b)
    }

    /// True when some chain of `colour` touches every side in `sides`.
    pub fn any_joins(&self, colour: u8, sides: Sides) -> bool {
        (0..self.stone.len()).any(|i| {
            self.stone[i] == colour
                && self.parent[i] as usize == i
                && self.flags[i] & sides == sides
        })
    }

    /// The empty cells, in index order.
    pub fn empty_cells(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.stone.len()).filter(|&i| self.stone[i] == EMPTY)
    }

    /// The empty cells in index order as a playout's list, made room for every cell at once: a
    /// list collected from [`Chains::empty_cells`] grows five times on Hex's 11 × 11.
    pub fn empty_list(&self) -> Vec<u16> {
        let mut out = Vec::with_capacity(self.stone.len());
        out.extend(self.empty_cells().map(|c| c as u16));
        out
    }
}

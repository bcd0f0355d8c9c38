//! The board as bit sets over tile indices, and the movement rules (section 5) as bit operations.
//!
//! Tiles are indexed in the order they were laid (at most `4 * 16 = 64`), so every set of tiles is a `u64`.
//! The board stays connected after every turn (5.3), which the cut test below relies on.

use std::ops::ControlFlow;

use super::geom;
use super::view::TileColour;

/// No tile: the marker for an absent neighbour or an absent half of a turn.
pub const NONE: u8 = 255;

/// The bit of tile `i`.
#[inline]
pub fn bit(i: usize) -> u64 {
    1u64 << i
}

/// Iterates over the indices of the set bits.
#[inline]
pub fn bits(mut s: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if s == 0 {
            None
        } else {
            let i = s.trailing_zeros() as usize;
            s &= s - 1;
            Some(i)
        }
    })
}

/// Which tiles are on the board and where the pawns stand: the part of a position that a turn changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Masks {
    /// The tiles on the board.
    pub tiles: u64,
    /// Each seat's pawns.
    pub pawns: [u64; 3],
}

impl Masks {
    /// Tiles with a pawn on them.
    #[inline]
    pub fn occupied(&self) -> u64 {
        self.pawns[0] | self.pawns[1] | self.pawns[2]
    }
    /// Tiles without a pawn.
    #[inline]
    pub fn empty(&self) -> u64 {
        self.tiles & !self.occupied()
    }
    /// The seat whose pawn stands on tile `i`.
    pub fn owner(&self, i: usize) -> Option<usize> {
        (0..3).find(|&s| self.pawns[s] & bit(i) != 0)
    }
}

/// The parts a board falls into when one tile is taken out (at most three on a hex grid).
#[derive(Debug, Clone, Copy, Default)]
pub struct Parts {
    /// How many parts (1 when the board stays connected).
    pub n: u8,
    /// The parts' tiles; only the first `n` are used.
    pub masks: [u64; 3],
}

/// One movement turn in tile indices; [`NONE`] marks the absent half of a move alone or a removal alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Act {
    /// The tile the pawn leaves, or [`NONE`].
    pub from: u8,
    /// The tile the pawn goes to, or [`NONE`].
    pub to: u8,
    /// The tile removed, or [`NONE`].
    pub remove: u8,
}

/// Why a movement act is illegal, at the level of the bit sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The destination cannot be reached through empty tiles.
    NotReachable,
    /// The tile to remove has a pawn on it (after the pawn move).
    RemoveOccupied,
    /// The tile to remove has too few free edges.
    FreeEdges {
        /// Its free edges.
        has: u32,
    },
    /// `-no_isolate`: the removal would leave two or more parts holding pawns.
    WouldIsolate,
    /// `-can_isolate`: pawns with a freedom would be left in more than one part.
    IsolateFree,
    /// `-can_isolate`: no part keeps a pawn with a freedom.
    IsolateNone,
    /// The equaliser forbids capturing on this turn.
    Equaliser,
}

/// The tiles laid so far, with their positions, colours and adjacency, and the current [`Masks`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    /// Position number of each tile index.
    pub num: Vec<u32>,
    /// Axial coordinates of each tile index.
    pub qr: Vec<(i32, i32)>,
    /// Colour of each tile index.
    pub colour: Vec<TileColour>,
    /// Neighbouring tiles (laid, whether or not still on the board) of each tile index.
    pub nb: Box<[u64; 64]>,
    /// Neighbour index in each of the six [`geom::DIRS`] directions, or [`NONE`].
    pub dirs: Box<[[u8; 6]; 64]>,
    /// What is on the board now.
    pub m: Masks,
}

impl Default for Board {
    fn default() -> Self {
        Board {
            num: Vec::new(),
            qr: Vec::new(),
            colour: Vec::new(),
            nb: Box::new([0; 64]),
            dirs: Box::new([[NONE; 6]; 64]),
            m: Masks::default(),
        }
    }
}

impl Board {
    /// The number of tiles ever laid.
    pub fn laid(&self) -> usize {
        self.num.len()
    }

    /// The index of the tile laid at position `n`, if one was (it may have been removed since).
    pub fn index_of(&self, n: u32) -> Option<usize> {
        self.num.iter().position(|&x| x == n)
    }

    /// The index of the tile on the board at `n`, if there is one now.
    pub fn tile_at(&self, n: u32) -> Option<usize> {
        self.index_of(n).filter(|&i| self.m.tiles & bit(i) != 0)
    }

    /// Lays a tile at position `n`; returns its index.
    pub fn add(&mut self, n: u32, colour: TileColour) -> usize {
        let i = self.num.len();
        assert!(i < 64, "a board holds at most 64 tiles");
        let (q, r) = geom::axial(n);
        self.num.push(n);
        self.qr.push((q, r));
        self.colour.push(colour);
        for (d, (dq, dr)) in geom::DIRS.iter().enumerate() {
            let nn = geom::number(q + dq, r + dr);
            if let Some(j) = self.index_of(nn) {
                self.nb[i] |= bit(j);
                self.nb[j] |= bit(i);
                self.dirs[i][d] = j as u8;
                self.dirs[j][(d + 3) % 6] = i as u8;
            }
        }
        self.m.tiles |= bit(i);
        i
    }

    /// How many tiles on the board touch position `n` (laid there or not).
    pub fn touching(&self, n: u32) -> u32 {
        geom::neighbours(n)
            .iter()
            .filter(|&&x| self.tile_at(x).is_some())
            .count() as u32
    }

    /// The union of the neighbours of a set of tiles.
    #[inline]
    pub fn expand(&self, s: u64) -> u64 {
        let mut out = 0;
        for i in bits(s) {
            out |= self.nb[i];
        }
        out
    }

    /// The tiles of `within` reachable from `seed` through adjacent tiles of `within`.
    #[inline]
    pub fn flood(&self, within: u64, seed: u64) -> u64 {
        let mut reached = seed & within;
        let mut frontier = reached;
        while frontier != 0 {
            let next = self.expand(frontier) & within & !reached;
            reached |= next;
            frontier = next;
        }
        reached
    }

    /// True when the tiles of `s` form one connected set (or none).
    pub fn connected(&self, s: u64) -> bool {
        s == 0 || self.flood(s, s & s.wrapping_neg()) == s
    }

    /// Free edges of tile `i` on the board `tiles`.
    #[inline]
    pub fn free_edges(&self, tiles: u64, i: usize) -> u32 {
        6 - (self.nb[i] & tiles).count_ones()
    }

    /// The pawns of `pawns` captured for want of a freedom, among the groups touching `seed`.
    #[inline]
    fn captured_near(&self, pawns: u64, empty: u64, seed: u64) -> u64 {
        let near = self.flood(pawns, seed & pawns);
        if near == 0 {
            return 0;
        }
        let mut free = 0;
        for p in bits(near) {
            if self.nb[p] & empty != 0 {
                free |= bit(p);
            }
        }
        near & !self.flood(near, free)
    }

    /// Every pawn of `pawns` in a group without a freedom.
    pub fn captured_all(&self, pawns: u64, empty: u64) -> u64 {
        self.captured_near(pawns, empty, pawns)
    }

    /// The parts the connected board `tiles` falls into when tile `t` is taken out.
    pub fn parts_without(&self, tiles: u64, t: usize) -> Parts {
        let rest = tiles & !bit(t);
        let adj = self.nb[t] & rest;
        let mut dm = 0u8;
        for d in 0..6 {
            let j = self.dirs[t][d];
            if j != NONE && rest & bit(j as usize) != 0 {
                dm |= 1 << d;
            }
        }
        // Consecutive neighbours of a hex touch each other, so neighbours in one unbroken arc stay joined.
        let rot = (dm >> 1) | ((dm & 1) << 5);
        let runs = (dm & !rot & 0x3f).count_ones();
        let mut parts = Parts {
            n: 1,
            masks: [rest, 0, 0],
        };
        if runs <= 1 {
            return parts;
        }
        let mut left = adj;
        parts.n = 0;
        while left != 0 {
            let part = self.flood(rest, left & left.wrapping_neg());
            parts.masks[parts.n as usize] = part;
            parts.n += 1;
            left &= !part;
        }
        parts
    }

    /// The pawn move of `me` from `from` to `to` on `m` (assumed reachable), then the enemy captures.
    /// Returns true if anything was captured.
    #[inline]
    pub fn step(&self, m: &mut Masks, me: usize, from: usize, to: usize) -> bool {
        m.pawns[me] ^= bit(from) | bit(to);
        let enemies = m.occupied() & !m.pawns[me];
        if self.nb[to] & enemies == 0 {
            return false;
        }
        let empty = m.empty();
        let mut any = false;
        let caps: [u64; 3] = std::array::from_fn(|s| {
            if s == me {
                0
            } else {
                self.captured_near(m.pawns[s], empty, self.nb[to])
            }
        });
        for (pawns, cap) in m.pawns.iter_mut().zip(caps) {
            if cap != 0 {
                *pawns &= !cap;
                any = true;
            }
        }
        any
    }

    /// The removal of the empty tile `t` by `me` (free edges already checked), with cut-off parts (5.3)
    /// and captures, enemies first. `parts` is [`Board::parts_without`] for the board before. Returns
    /// true if anything was captured.
    #[inline]
    pub fn remove(
        &self,
        m: &mut Masks,
        me: usize,
        t: usize,
        parts: &Parts,
        can_isolate: bool,
    ) -> Result<bool, Refusal> {
        m.tiles &= !bit(t);
        let mut any = false;
        if parts.n > 1 {
            let occ = m.occupied();
            let mut with_pawns = [0u64; 3];
            let mut k = 0;
            for &part in &parts.masks[..parts.n as usize] {
                if part & occ == 0 {
                    m.tiles &= !part;
                } else {
                    with_pawns[k] = part;
                    k += 1;
                }
            }
            if k >= 2 {
                if !can_isolate {
                    return Err(Refusal::WouldIsolate);
                }
                let empty = m.empty();
                let mut keep = None;
                for &part in &with_pawns[..k] {
                    if self.expand(part & occ) & empty != 0 {
                        if keep.is_some() {
                            return Err(Refusal::IsolateFree);
                        }
                        keep = Some(part);
                    }
                }
                let keep = keep.ok_or(Refusal::IsolateNone)?;
                for &part in &with_pawns[..k] {
                    if part != keep {
                        m.tiles &= !part;
                        for s in 0..3 {
                            m.pawns[s] &= !part;
                        }
                        any = true;
                    }
                }
            }
        }
        let seed = self.nb[t];
        if seed & m.occupied() == 0 {
            return Ok(any);
        }
        let empty = m.empty();
        let caps: [u64; 3] = std::array::from_fn(|s| {
            if s == me {
                0
            } else {
                self.captured_near(m.pawns[s], empty, seed)
            }
        });
        for (pawns, cap) in m.pawns.iter_mut().zip(caps) {
            if cap != 0 {
                *pawns &= !cap;
                any = true;
            }
        }
        let own = self.captured_near(m.pawns[me], m.empty(), seed);
        if own != 0 {
            m.pawns[me] &= !own;
            any = true;
        }
        Ok(any)
    }

    /// For each tile, the empty tiles a pawn standing there could reach (only filled for `from` tiles).
    pub fn reach(&self, m: &Masks, from: u64) -> [u64; 64] {
        let empty = m.empty();
        let mut comps = [0u64; 64];
        let mut nc = 0;
        let mut left = empty;
        while left != 0 {
            let c = self.flood(empty, left & left.wrapping_neg());
            comps[nc] = c;
            nc += 1;
            left &= !c;
        }
        let mut out = [0u64; 64];
        for p in bits(from) {
            let around = self.nb[p];
            for &c in &comps[..nc] {
                if c & around != 0 {
                    out[p] |= c;
                }
            }
        }
        out
    }

    /// Tiles with enough free edges to be removed, whatever stands on them.
    pub fn removable(&self, tiles: u64, free_edges: u32) -> u64 {
        let mut out = 0;
        for t in bits(tiles) {
            if self.free_edges(tiles, t) >= free_edges {
                out |= bit(t);
            }
        }
        out
    }

    /// Calls `f` with every legal (move, removal) pair of `me`; `restrict` is the equaliser. Stops when
    /// `f` breaks.
    pub fn pairs(
        &self,
        me: usize,
        free_edges: u32,
        can_isolate: bool,
        restrict: bool,
        f: &mut dyn FnMut(Act) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let m0 = self.m;
        let cand = self.removable(m0.tiles, free_edges);
        let mut parts = [Parts::default(); 64];
        for t in bits(cand) {
            parts[t] = self.parts_without(m0.tiles, t);
        }
        let reach = self.reach(&m0, m0.pawns[me]);
        for from in bits(m0.pawns[me]) {
            for to in bits(reach[from]) {
                let mut m = m0;
                if self.step(&mut m, me, from, to) && restrict {
                    continue;
                }
                for t in bits(cand & m.empty()) {
                    let mut m2 = m;
                    if let Ok(cap) = self.remove(&mut m2, me, t, &parts[t], can_isolate)
                        && !(cap && restrict)
                    {
                        f(Act {
                            from: from as u8,
                            to: to as u8,
                            remove: t as u8,
                        })?;
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Calls `f` with every legal pawn move alone of `me`.
    pub fn steps(
        &self,
        me: usize,
        restrict: bool,
        f: &mut dyn FnMut(Act) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let m0 = self.m;
        let reach = self.reach(&m0, m0.pawns[me]);
        for from in bits(m0.pawns[me]) {
            for to in bits(reach[from]) {
                let mut m = m0;
                if self.step(&mut m, me, from, to) && restrict {
                    continue;
                }
                f(Act {
                    from: from as u8,
                    to: to as u8,
                    remove: NONE,
                })?;
            }
        }
        ControlFlow::Continue(())
    }

    /// Calls `f` with every legal tile removal alone of `me`.
    pub fn removals(
        &self,
        me: usize,
        free_edges: u32,
        can_isolate: bool,
        restrict: bool,
        f: &mut dyn FnMut(Act) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let m0 = self.m;
        for t in bits(self.removable(m0.tiles, free_edges) & m0.empty()) {
            let parts = self.parts_without(m0.tiles, t);
            let mut m = m0;
            if let Ok(cap) = self.remove(&mut m, me, t, &parts, can_isolate)
                && !(cap && restrict)
            {
                f(Act {
                    from: NONE,
                    to: NONE,
                    remove: t as u8,
                })?;
            }
        }
        ControlFlow::Continue(())
    }

    /// Plays `act` for `me` on a copy of the masks, checking everything but whose pawn stands on `from`.
    /// Returns the masks after the turn and whether anything was captured.
    pub fn try_act(
        &self,
        me: usize,
        act: Act,
        free_edges: u32,
        can_isolate: bool,
        restrict: bool,
    ) -> Result<(Masks, bool), Refusal> {
        if act.from != NONE {
            let from = act.from as usize;
            if self.reach(&self.m, bit(from))[from] & bit(act.to as usize) == 0 {
                return Err(Refusal::NotReachable);
            }
        }
        self.try_act_reached(me, act, free_edges, can_isolate, restrict)
    }

    /// [`Board::try_act`] for an act whose pawn move is known to be reachable.
    #[inline]
    pub fn try_act_reached(
        &self,
        me: usize,
        act: Act,
        free_edges: u32,
        can_isolate: bool,
        restrict: bool,
    ) -> Result<(Masks, bool), Refusal> {
        let mut m = self.m;
        let mut cap = false;
        if act.from != NONE {
            let (from, to) = (act.from as usize, act.to as usize);
            cap |= self.step(&mut m, me, from, to);
            if cap && restrict {
                return Err(Refusal::Equaliser);
            }
        }
        if act.remove != NONE {
            let t = act.remove as usize;
            if m.occupied() & bit(t) != 0 {
                return Err(Refusal::RemoveOccupied);
            }
            let has = self.free_edges(m.tiles, t);
            if has < free_edges {
                return Err(Refusal::FreeEdges { has });
            }
            let parts = self.parts_without(m.tiles, t);
            cap |= self.remove(&mut m, me, t, &parts, can_isolate)?;
            if cap && restrict {
                return Err(Refusal::Equaliser);
            }
        }
        Ok((m, cap))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s1_adjacency_and_free_edges() {
        let mut b = Board::default();
        for n in 1..=7 {
            b.add(n, TileColour::Plain);
        }
        assert_eq!(
            b.free_edges(b.m.tiles, 0),
            0,
            "the centre of a full ring has no free edge"
        );
        assert_eq!(b.free_edges(b.m.tiles, 1), 3);
        assert!(b.connected(b.m.tiles));
        let p = b.parts_without(b.m.tiles, 0);
        assert_eq!(p.n, 1, "the ring stays joined without its centre");
    }

    #[test]
    fn s1_cut_test_splits_a_line() {
        let mut b = Board::default();
        // 5 - 1 - 2 in a row (W, centre, E).
        for n in [1, 2, 5] {
            b.add(n, TileColour::Plain);
        }
        let p = b.parts_without(b.m.tiles, 0);
        assert_eq!(p.n, 2);
        assert!(!b.connected(b.m.tiles & !1));
    }
}

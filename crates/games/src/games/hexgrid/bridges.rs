//! The bridge-saving reply of the connection games' playouts (Hex's and Y's).
//!
//! Two stones of one colour with two empty cells between them (or a stone on the second row with two
//! empty cells between it and a side it wants) are as good as joined: if the opponent takes one of the
//! two cells, the other joins them. Random playouts do not know this, so a search on them counts a
//! bridge as cut half the time and rates a connected shape too low; replying to the intrusion (the
//! classic improvement of Hex playouts, as in MoHex) makes the playouts see bridges as players do,
//! which is what lets more playouts buy more strength (docs/robot.md).
//!
//! The geometry differs by board (the rhombus and the triangle name neighbours differently and have
//! other sides), so each game gives the six places round the intruding stone in ring order; the rule
//! itself is here once.

use super::{Chains, Grid, Sides};

/// The rhombus's neighbour offsets `(dc, dr)` ([`super::HEX_NEIGHBOURS`]: Hex, Chameleon, Unlur) in
/// order round a cell: each is a neighbour of the next, so the two cells next to both a cell and its
/// neighbour `i` are its neighbours `i - 1` and `i + 1`.
pub const RHOMBUS_RING: [(i16, i16); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// The same for HexGui's Y triangle ([`super::Y_NEIGHBOURS`]).
pub const TRIANGLE_RING: [(i16, i16); 6] = [(1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1)];

/// A place next to a cell: a cell, or just outside the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spot {
    /// The cell of this index.
    Cell(usize),
    /// Just outside the board, across these sides (more than one at a corner).
    Beyond(Sides),
}

/// The six places round cell `x` in the order of `ring`, each named by the game's `spot(c, r)` (a
/// cell, across a side, or `None`): the `around` of [`bridge_reply`].
pub fn around(
    grid: &Grid,
    x: usize,
    ring: &[(i16, i16); 6],
    spot: impl Fn(i16, i16) -> Option<Spot>,
) -> [Option<Spot>; 6] {
    let (c, r) = grid.coords(x);
    let (c, r) = (i16::from(c), i16::from(r));
    ring.map(|(dc, dr)| spot(c + dc, r + dr))
}

/// The cell that saves a bridge of `colour` into which a stone has just been put, if there is one
/// (one of them, chosen by `pick`, if there are several).
///
/// `around` holds the six places round the intruding stone in ring order, so that the two places next
/// to both the stone and its neighbour `i` are `around[i - 1]` and `around[i + 1]` (`None` where the
/// place is neither a cell nor across a side). A saving cell is an empty neighbour `y` of the stone
/// whose two common neighbours are both `colour`'s, each a stone or a side in `goal`, and not joined
/// already.
pub fn bridge_reply(
    chains: &Chains,
    around: &[Option<Spot>; 6],
    colour: u8,
    goal: Sides,
    pick: &mut dyn FnMut(usize) -> usize,
) -> Option<usize> {
    let own = |s: Option<Spot>| match s {
        Some(Spot::Cell(a)) => chains.colour(a) == colour,
        Some(Spot::Beyond(side)) => side & goal != 0,
        None => false,
    };
    let (mut found, mut k) = ([0usize; 6], 0);
    for i in 0..6 {
        let Some(Spot::Cell(y)) = around[i] else {
            continue;
        };
        if chains.colour(y) != 0 {
            continue;
        }
        let (a, b) = (around[(i + 5) % 6], around[(i + 1) % 6]);
        if !own(a) || !own(b) {
            continue;
        }
        let joined = match (a, b) {
            (Some(Spot::Cell(a)), Some(Spot::Cell(b))) => chains.root(a) == chains.root(b),
            (Some(Spot::Cell(a)), Some(Spot::Beyond(side)))
            | (Some(Spot::Beyond(side)), Some(Spot::Cell(a))) => {
                chains.chain_sides(a) & side & goal != 0
            }
            _ => true,
        };
        if !joined {
            found[k] = y;
            k += 1;
        }
    }
    match k {
        0 => None,
        1 => Some(found[0]),
        _ => Some(found[pick(k)]),
    }
}

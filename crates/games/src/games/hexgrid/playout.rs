//! The uniform random playout of the connection games with a swap, Hex and Y (their
//! `Search::random_moves`): the empty cells in a private order, the swap (where legal) the last
//! choice, each move recorded as the move record keeps it. One loop for both, so that their
//! random games stay the same game for game.

use super::Chains;
use crate::games::matchplay::Entry;

/// What the playout needs of a position with a swap.
pub trait SwapPlay {
    /// The game's move.
    type Move;
    /// The stones, whose empty cells the playout fills.
    fn chains(&self) -> &Chains;
    /// Whether the game is over.
    fn over(&self) -> bool;
    /// Whether the swap is legal now.
    fn swap_open(&self) -> bool;
    /// The seat to move.
    fn mover(&self) -> usize;
    /// Places the mover's stone on `cell` and returns the move it was.
    fn place(&mut self, cell: usize) -> Self::Move;
    /// Plays the swap and returns its move, and whether it moved a stone (Hex's mirrors the first
    /// one): the empty cells are then listed again.
    fn swap(&mut self) -> (Self::Move, bool);
}

/// Plays uniformly random legal moves to the end, recording each onto `played`; returns how many.
pub fn random_moves<P: SwapPlay>(
    p: &mut P,
    pick: &mut dyn FnMut(usize) -> usize,
    played: &mut Vec<Entry<P::Move>>,
) -> u32 {
    let mut empty = p.chains().empty_list();
    // At most one move a cell and the swap: the list grows once.
    played.reserve(empty.len() + 1);
    let mut moves = 0;
    while !p.over() {
        let swap = p.swap_open();
        let n = empty.len() + usize::from(swap);
        if n == 0 {
            break;
        }
        let seat = p.mover();
        let k = pick(n);
        let mv = if k == empty.len() {
            let (mv, moved) = p.swap();
            if moved {
                empty.clear();
                empty.extend(p.chains().empty_cells().map(|c| c as u16));
            }
            mv
        } else {
            let cell = empty.swap_remove(k);
            p.place(usize::from(cell))
        };
        played.push(Entry::Moved { seat, mv });
        moves += 1;
    }
    moves
}

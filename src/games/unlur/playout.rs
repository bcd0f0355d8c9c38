//! Unlur's playout policy for the search (`GameState::search_playout`) and its test for a win at once.
//!
//! Uniformly random playouts cannot judge Unlur. A random stone that joins a chain to the side
//! opposite one it already touches makes a line, and a black line loses; so in random games a big
//! black chain loses for Black more often than it wins, and White won 78% of 20,000 random games from
//! the empty board whatever the contract had put down (77% after 0 to 19 contract stones, 78% after
//! 100 to 119). The search then saw no worth in black stones: it never passed, let the random player
//! pass with most of the interior black, and lost when that player stumbled into a Y
//! (docs/robot.md, "Unlur").
//!
//! The policy here plays what a player never fails to see: no stone that makes only the other side's
//! goal while another stone does not (no suicide); and in the contract a pass at a rate that ends it
//! after a few stones, as players do, rather than after a hundred.

use super::game::{BLACK, Game, Move, WHITE, is_line, is_y};
use crate::games::hexgrid::Sides;

/// In a playout's contract, the chance in 256 that a turn passes: the contract then lasts about 10
/// moves (1 / (24 / 256)), which is where a careful player takes a side.
const PASS_IN_256: usize = 24;
/// Random picks tried before the playout looks at every empty cell for one that is not suicide.
const TRIES: usize = 8;

impl Game {
    /// The sides the chain of a stone of `colour` on the empty `cell` would touch.
    #[inline]
    pub fn sides_if(&self, cell: usize, colour: u8) -> Sides {
        let mut sides = self.grid.sides(cell);
        for &n in self.grid.neighbours(cell) {
            let n = n as usize;
            if self.chains.colour(n) == colour {
                sides |= self.chains.chain_sides(n);
            }
        }
        sides
    }

    /// The colour of the seat to move's stones (black in the contract).
    #[inline]
    pub fn colour_to_move(&self) -> u8 {
        match self.black {
            Some(b) if b != self.to_move => WHITE,
            _ => BLACK,
        }
    }

    /// What a stone of the player to move on the empty `cell` does (section 6): `Some(true)` wins
    /// (its own goal, perhaps the other's too), `Some(false)` loses (only the other's goal), `None`
    /// neither. In the contract no stone decides anything.
    #[inline]
    pub fn stone_decides(&self, cell: usize) -> Option<bool> {
        if self.in_contract() {
            return None;
        }
        let colour = self.colour_to_move();
        let sides = self.sides_if(cell, colour);
        let (own, other) = if colour == BLACK {
            (is_y(sides), is_line(sides))
        } else {
            (is_line(sides), is_y(sides))
        };
        if own {
            Some(true)
        } else if other {
            Some(false)
        } else {
            None
        }
    }

    /// Plays to the end with the policy above; pushes each action and its seat onto `played`.
    pub fn policy_playout(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        mut played: Option<&mut Vec<(usize, u32)>>,
    ) {
        let pass = self.grid.len() as u32;
        let mut empty: Vec<u16> = Vec::with_capacity(self.grid.len());
        if self.in_contract() && self.result.is_none() {
            empty.extend(
                self.chains
                    .empty_cells()
                    .filter(|&c| self.interior(c))
                    .map(|c| c as u16),
            );
            while self.in_contract() {
                let seat = self.to_move;
                if empty.is_empty() || pick(256) < PASS_IN_256 {
                    self.apply(Move::Pass);
                    if let Some(p) = played.as_deref_mut() {
                        p.push((seat, pass));
                    }
                } else {
                    let cell = empty.swap_remove(pick(empty.len())) as usize;
                    self.apply(Move::Stone(cell));
                    if let Some(p) = played.as_deref_mut() {
                        p.push((seat, cell as u32));
                    }
                }
            }
            empty.clear();
        }
        empty.extend(self.chains.empty_cells().map(|c| c as u16));
        while self.result.is_none() && !empty.is_empty() {
            let k = self.choose(&empty, pick);
            let cell = empty.swap_remove(k) as usize;
            let seat = self.to_move;
            self.apply(Move::Stone(cell));
            if let Some(p) = played.as_deref_mut() {
                p.push((seat, cell as u32));
            }
        }
    }

    /// The index in `empty` of the next stone: a random one that is not suicide, if there is one.
    fn choose(&self, empty: &[u16], pick: &mut dyn FnMut(usize) -> usize) -> usize {
        for _ in 0..TRIES {
            let k = pick(empty.len());
            if self.stone_decides(empty[k] as usize) != Some(false) {
                return k;
            }
        }
        let safe: Vec<usize> = (0..empty.len())
            .filter(|&k| self.stone_decides(empty[k] as usize) != Some(false))
            .collect();
        if safe.is_empty() {
            // Every stone loses: the game ends with this one.
            pick(empty.len())
        } else {
            safe[pick(safe.len())]
        }
    }
}

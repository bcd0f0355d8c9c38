//! Hex's playout policy for the search: random stones, except that a bridge the opponent has just
//! intruded into is saved (the rule, and why, in [`crate::games::hexgrid::bridges`]); here, the
//! rhombus's geometry round a cell and the playout loop.

use super::game::Position;
use crate::games::hexgrid::bridges::{self, Spot};
use crate::games::hexgrid::{BOTTOM, LEFT, RIGHT, TOP};
use crate::games::matchplay::Rules;

impl Position {
    /// The place `(c, r)`, `None` when it is neither a cell nor just across one side.
    fn spot(&self, c: i16, r: i16) -> Option<Spot> {
        let n = i16::from(self.config().size);
        let inside = |x: i16| (1..=n).contains(&x);
        match (inside(c), inside(r)) {
            (true, true) => self.grid().cell(c as u8, r as u8).map(Spot::Cell),
            (true, false) => Some(Spot::Beyond(if r < 1 { TOP } else { BOTTOM })),
            (false, true) => Some(Spot::Beyond(if c < 1 { LEFT } else { RIGHT })),
            (false, false) => None,
        }
    }

    /// The cell that saves a bridge of `seat` into which a stone on `x` has just been put, if there is
    /// one (one of them, chosen by `pick`, if there are several): an empty neighbour `y` of `x` such
    /// that both cells next to `x` and `y` are `seat`'s, each a stone or `seat`'s own edge, and not
    /// already joined.
    pub fn bridge_reply(
        &self,
        x: usize,
        seat: usize,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Option<usize> {
        let around = bridges::around(self.grid(), x, &bridges::RHOMBUS_RING, |c, r| {
            self.spot(c, r)
        });
        bridges::bridge_reply(
            self.chains(),
            &around,
            seat as u8 + 1,
            super::game::GOAL[seat],
            pick,
        )
    }

    /// Plays the game to its end for the search: after each stone, the player to move saves a bridge
    /// the stone intruded into ([`Position::bridge_reply`]); otherwise a random empty cell (or the swap,
    /// when legal, as one more choice). Pushes each action and its seat onto `played` when given.
    /// Returns the number of moves played.
    pub fn bridge_playout(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        mut played: Option<&mut Vec<(usize, u32)>>,
    ) -> u32 {
        let swap_id = self.swap_id();
        let cells = self.grid().len();
        // The empty cells, and where each stands in that list (to take a saving reply out of it).
        let mut empty: Vec<u16> = Vec::with_capacity(cells);
        let mut slot: Vec<u16> = vec![u16::MAX; cells];
        let refill = |g: &Position, empty: &mut Vec<u16>, slot: &mut Vec<u16>| {
            empty.clear();
            for c in g.chains().empty_cells() {
                slot[c] = empty.len() as u16;
                empty.push(c as u16);
            }
        };
        refill(self, &mut empty, &mut slot);
        let mut last = self
            .last_action()
            .filter(|&a| a != swap_id)
            .map(usize::from);
        let mut moves = 0;
        while self.outcome().is_none() {
            let seat = self.mover();
            let reply = last.and_then(|x| self.bridge_reply(x, seat, pick));
            let action = match reply {
                Some(y) => y as u16,
                None => {
                    let n = empty.len() + usize::from(self.swap_legal());
                    if n == 0 {
                        break;
                    }
                    match empty.get(pick(n)) {
                        Some(&cell) => cell,
                        None => swap_id,
                    }
                }
            };
            if action == swap_id {
                self.apply_action(action);
                refill(self, &mut empty, &mut slot);
                last = None;
            } else {
                let i = slot[action as usize] as usize;
                empty.swap_remove(i);
                if let Some(&moved) = empty.get(i) {
                    slot[moved as usize] = i as u16;
                }
                self.apply_action(action);
                last = Some(action as usize);
            }
            if let Some(p) = played.as_deref_mut() {
                p.push((seat, u32::from(action)));
            }
            moves += 1;
        }
        moves
    }
}

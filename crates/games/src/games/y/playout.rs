//! Y's playout policy for the search: random stones, except that a bridge the opponent has just
//! intruded into is saved (the rule, and why, in [`crate::games::hexgrid::bridges`]); here, the
//! triangle's geometry round a cell and the playout loop. In Y every side is both players' goal, so a
//! stone's bridge to any side is saved.

use super::game::{ALL_SIDES, BOTTOM, LEFT, Position, RIGHT};
use crate::games::hexgrid::Empties;
use crate::games::hexgrid::bridges::{self, Spot};

impl Position {
    /// The place `(c, r)`: a cell, or across the sides it lies beyond (row `r` holds columns `1..=r`).
    fn spot(&self, c: i16, r: i16) -> Option<Spot> {
        let n = i16::from(self.cfg.size);
        if 1 <= c && c <= r && r <= n {
            return self.grid.cell(c as u8, r as u8).map(Spot::Cell);
        }
        let mut sides = 0;
        if c < 1 {
            sides |= LEFT;
        }
        if c > r {
            sides |= RIGHT;
        }
        if r > n {
            sides |= BOTTOM;
        }
        (sides != 0).then_some(Spot::Beyond(sides))
    }

    /// The cell that saves a bridge of `seat` (to a stone or a side) into which the stone on `x` has
    /// just been put, if there is one (one of them, chosen by `pick`, if there are several).
    pub fn bridge_reply(
        &self,
        x: usize,
        seat: usize,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Option<usize> {
        let around = bridges::around(self.grid, x, &bridges::TRIANGLE_RING, |c, r| {
            self.spot(c, r)
        });
        bridges::bridge_reply(&self.chains, &around, seat as u8 + 1, ALL_SIDES, pick)
    }

    /// The search's playout: after each stone, the player to move saves a bridge the stone intruded
    /// into ([`Position::bridge_reply`]); otherwise a random empty cell (or the swap, where legal, as one
    /// more choice: `pick` of their number, the empty cells in index order, then the swap). Pushes each
    /// action and its seat onto `played` when given.
    pub fn search_playout(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        mut played: Option<&mut Vec<(usize, u32)>>,
    ) {
        // The swap turns a stone where it stands: the empty cells stay as they were.
        let mut empty = Empties::of(&self.chains);
        let mut last = self.last_stone;
        while self.winner.is_none() {
            let seat = self.to_move;
            let reply = last.and_then(|x| self.bridge_reply(x, seat, pick));
            // The cell of a stone, `None` for the swap.
            let mv = match reply {
                Some(cell) => {
                    empty.remove(cell);
                    Some(cell)
                }
                None => {
                    let n = empty.len() + usize::from(self.swap_open());
                    if n == 0 {
                        break;
                    }
                    let k = pick(n);
                    if k == empty.len() {
                        None
                    } else {
                        Some(empty.take_nth(k))
                    }
                }
            };
            if let Some(p) = played.as_deref_mut() {
                let a = match mv {
                    Some(cell) => cell as u32,
                    None => self.grid.len() as u32,
                };
                p.push((seat, a));
            }
            self.place(mv);
            last = mv;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameOption;
    use crate::games::y::game::{Config, Game};

    fn played(moves: &[&str]) -> Game {
        let opts = [GameOption::parse("-size=5").unwrap()];
        let mut g = Game::from_position(Position::new(Config::from_options(&opts).unwrap()));
        for m in moves {
            g.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
        g
    }

    fn cell(g: &Game, name: &str) -> usize {
        g.grid().parse(name).unwrap()
    }

    fn reply(g: &Game, intruder: &str) -> Option<String> {
        let seat = g.to_move().expect("the game goes on");
        g.bridge_reply(cell(g, intruder), seat, &mut |_| 0)
            .map(|c| g.grid().name(c))
    }

    #[test]
    fn an_intrusion_into_a_bridge_between_stones_is_answered_with_the_other_cell() {
        // b3 and c5 share exactly b4 and c4.
        let g = played(&["b3", "a1", "c5", "b4"]);
        assert_eq!(reply(&g, "b4").as_deref(), Some("c4"));
        let g = played(&["b3", "a1", "c5", "c4"]);
        assert_eq!(reply(&g, "c4").as_deref(), Some("b4"));
    }

    #[test]
    fn a_bridge_to_any_side_is_saved_and_a_joined_pair_is_not() {
        // b4 reaches the bottom (row 5) through b5 or c5; in Y the side is White's goal as well.
        let g = played(&["b4", "a1", "d4", "b5"]);
        assert_eq!(reply(&g, "b5").as_deref(), Some("c5"));
        // The right side (c = r): b3 reaches it through b2 or c3.
        let g = played(&["b3", "a1", "a5", "c3"]);
        assert_eq!(reply(&g, "c3").as_deref(), Some("b2"));
        // b3, b4 and c5 are one chain: White's c4 cuts nothing.
        let g = played(&["b3", "a1", "c5", "e5", "b4", "c4"]);
        assert_eq!(reply(&g, "c4"), None);
    }

    #[test]
    fn the_playout_answers_the_last_intrusion_first() {
        let g = played(&["b3", "a1", "c5", "b4"]);
        let c4 = cell(&g, "c4") as u32;
        let mut g = g.position().clone();
        let mut moves = Vec::new();
        // Always the first choice: a uniform playout would put Black's stone on a2, the first empty
        // cell.
        g.search_playout(&mut |_| 0, Some(&mut moves));
        assert_eq!(moves.first(), Some(&(0, c4)));
        assert!(g.winner.is_some(), "the playout ends the game");
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::picker;
    use crate::games::{GameState, Outcome};

    /// A game of side `size` after `moves` (written moves, all legal).
    fn played(size: u8, moves: &[String]) -> Game {
        let mut g = Game::new(size);
        for m in moves {
            g.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
        g
    }

    /// The contract of the robot test: black stones on the 37 cells within three steps of h8.
    fn big_centre() -> Vec<String> {
        let mut out = Vec::new();
        for c in 1i32..=15 {
            for r in 1i32..=15 {
                let (dc, dr) = (c - 8, r - 8);
                if (dc.abs() + dr.abs() + (dc + dr).abs()) / 2 <= 3 {
                    out.push(format!("{}{r}", (b'a' + c as u8 - 1) as char));
                }
            }
        }
        out
    }

    #[test]
    fn policy_playouts_make_no_losing_stone_while_another_is_left() {
        for (size, seed) in [(4u8, 1u64), (6, 2), (8, 3), (8, 4)] {
            let mut pick = picker(seed);
            for _ in 0..40 {
                let start = Game::new(size);
                let mut g = start.clone();
                let mut trail = Vec::new();
                g.policy_playout(&mut pick, Some(&mut trail));
                assert!(matches!(g.result(), Some(Outcome::Winner(_))));
                // The trail replays the game: the seats and actions RAVE is told are the moves made.
                let mut r = start;
                for &(seat, a) in &trail {
                    assert_eq!(r.to_move(), Some(seat));
                    if let Move::Stone(cell) = r.action_move(a)
                        && r.stone_decides(cell) == Some(false)
                    {
                        let safe = r
                            .chains
                            .empty_cells()
                            .filter(|&c| r.stone_decides(c) != Some(false))
                            .count();
                        assert_eq!(
                            safe,
                            0,
                            "a losing stone on {} with {safe} others",
                            r.grid.name(cell)
                        );
                    }
                    r.apply(r.action_move(a));
                }
                assert_eq!(r, g);
            }
        }
    }

    #[test]
    fn may_win_at_once_is_true_exactly_for_the_stones_that_win() {
        let mut pick = picker(7);
        let (mut wins, mut positions) = (0, 0);
        for k in 0..12usize {
            let mut g = Game::new(5);
            // A contract of k stones, a pass, then random stones to the end: every stage of a game.
            loop {
                let mut acts = Vec::new();
                g.legal_actions(&mut acts);
                let Some(me) = g.to_move() else { break };
                positions += 1;
                for &a in &acts {
                    let mut h = g.clone();
                    h.apply_action(a);
                    let won = h.result() == Some(&Outcome::Winner(me));
                    wins += usize::from(won);
                    assert_eq!(
                        g.may_win_at_once(a),
                        won,
                        "{} after {:?}",
                        g.action_text(a),
                        g.records()
                    );
                }
                let pass = *acts.last().unwrap();
                let a = if g.in_contract() && g.entries() >= k {
                    pass
                } else if g.in_contract() {
                    acts[pick(acts.len() - 1)]
                } else {
                    acts[pick(acts.len())]
                };
                g.apply_action(a);
            }
        }
        assert!(
            positions > 100 && wins > 10,
            "{wins} wins in {positions} positions: too few to tell"
        );
    }

    #[test]
    fn policy_playouts_see_the_worth_of_a_big_black_centre_where_random_ones_did_not() {
        let mut moves = big_centre();
        moves.push("pass".into());
        let g = played(8, &moves);
        let black = g.black_seat().unwrap();
        let (mut policy, mut random) = (0, 0);
        let mut pick = picker(5);
        for _ in 0..200 {
            let mut h = g.clone();
            h.policy_playout(&mut pick, None);
            policy += usize::from(h.result() == Some(&Outcome::Winner(black)));
            let mut h = g.clone();
            h.playout(&mut pick);
            random += usize::from(h.result() == Some(&Outcome::Winner(black)));
        }
        eprintln!("Black won {policy} of 200 policy playouts, {random} of 200 random ones");
        assert!(policy >= 120, "Black won {policy} of 200 policy playouts");
        assert!(random <= 60, "Black won {random} of 200 random playouts");
    }
}

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
//! goal while another stone does not (no suicide); a bridge the opponent has just intruded into is
//! saved, as in Hex's playouts ([`crate::games::hexgrid::bridges`]); and in the contract a pass at a
//! rate that ends it after a few stones, as players do, rather than after a hundred.

use super::game::{BLACK, N, NE, NW, Position, S, SE, SW, WHITE, is_line, is_y};
use crate::games::hexgrid::Sides;
use crate::games::hexgrid::bridges::{self, Spot};

/// In a playout's contract, the chance in 256 that a turn passes: the contract then lasts about 10
/// moves (1 / (24 / 256)), which is where a careful player takes a side.
const PASS_IN_256: usize = 24;
/// Random picks tried before the playout looks at every empty cell for one that is not suicide.
const TRIES: usize = 8;

impl Position {
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
        if self.in_contract() && self.winner.is_none() {
            empty.extend(
                self.chains
                    .empty_cells()
                    .filter(|&c| self.interior(c))
                    .map(|c| c as u16),
            );
            while self.in_contract() {
                let seat = self.to_move;
                if empty.is_empty() || pick(256) < PASS_IN_256 {
                    self.place(None);
                    if let Some(p) = played.as_deref_mut() {
                        p.push((seat, pass));
                    }
                } else {
                    let cell = empty.swap_remove(pick(empty.len())) as usize;
                    self.place(Some(cell));
                    if let Some(p) = played.as_deref_mut() {
                        p.push((seat, cell as u32));
                    }
                }
            }
            empty.clear();
        }
        empty.extend(self.chains.empty_cells().map(|c| c as u16));
        // The opponent's last stone of the main phase (a pass or a contract stone intrudes nowhere).
        let mut last = self.last_stone.filter(|_| !self.in_contract());
        while self.winner.is_none() && !empty.is_empty() {
            let reply = last
                .and_then(|x| self.bridge_reply(x, pick))
                .and_then(|y| empty.iter().position(|&c| usize::from(c) == y));
            let k = match reply {
                Some(k) => k,
                None => self.choose(&empty, pick),
            };
            let cell = empty.swap_remove(k) as usize;
            last = Some(cell);
            let seat = self.to_move;
            self.place(Some(cell));
            if let Some(p) = played.as_deref_mut() {
                p.push((seat, cell as u32));
            }
        }
    }

    /// The place `(c, r)` of the hexagon of side `n` (on the rhombus of side `2n - 1`): a cell, or
    /// across the sides it lies beyond.
    fn spot(&self, c: i16, r: i16) -> Option<Spot> {
        let n = i16::from(self.size);
        let m = 2 * n - 1;
        let (lo, hi) = (n + 1, 3 * n - 1);
        let mut sides = 0;
        for (beyond, side) in [
            (r < 1, N),
            (c > m, NE),
            (c + r > hi, SE),
            (r > m, S),
            (c < 1, SW),
            (c + r < lo, NW),
        ] {
            if beyond {
                sides |= side;
            }
        }
        if sides == 0 {
            return self.grid.cell(c as u8, r as u8).map(Spot::Cell);
        }
        Some(Spot::Beyond(sides))
    }

    /// The cell where the player to move saves a bridge of theirs (to a stone or any side) into which
    /// the stone on `x` has just been put, unless that stone would make only the other side's goal.
    /// Bridges matter here as in Hex: a Y and a line are both chains from side to side.
    pub fn bridge_reply(&self, x: usize, pick: &mut dyn FnMut(usize) -> usize) -> Option<usize> {
        let around = bridges::around(self.grid, x, &bridges::RHOMBUS_RING, |c, r| self.spot(c, r));
        let all = N | NE | SE | S | SW | NW;
        bridges::bridge_reply(&self.chains, &around, self.colour_to_move(), all, pick)
            .filter(|&y| self.stone_decides(y) != Some(false))
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
    use crate::games::unlur::game::Game;
    use crate::games::{GameState, Outcome};
    use crate::picker;

    /// A game of side `size` after `moves` (written moves, all legal).
    fn played(size: u8, moves: &[String]) -> Game {
        let mut g = Game::from_position(Position::new(size));
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
                let start = Position::new(size);
                let mut g = start.clone();
                let mut trail = Vec::new();
                g.policy_playout(&mut pick, Some(&mut trail));
                assert!(g.winner.is_some());
                // The trail replays the game: the seats and actions RAVE is told are the moves made.
                let mut r = start;
                for &(seat, a) in &trail {
                    assert_eq!((r.to_move, r.winner), (seat, None));
                    let cell = (a as usize) < r.grid.len();
                    if cell && r.stone_decides(a as usize) == Some(false) {
                        let safe = r
                            .chains
                            .empty_cells()
                            .filter(|&c| r.stone_decides(c) != Some(false))
                            .count();
                        assert_eq!(
                            safe,
                            0,
                            "a losing stone on {} with {safe} others",
                            r.grid.name(a as usize)
                        );
                    }
                    r.place(cell.then_some(a as usize));
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
            let mut g = Game::from_position(Position::new(5));
            // A contract of k stones, a pass, then random stones to the end: every stage of a game.
            loop {
                let mut acts = Vec::new();
                g.legal_actions(&mut acts);
                let Some(me) = g.to_move() else { break };
                positions += 1;
                for &a in &acts {
                    let mut h = g.clone();
                    h.apply_action(a);
                    let won = h.result() == Some(Outcome::Winner(me));
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
                let a = if g.in_contract() && g.entries().len() >= k {
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
            let mut p = g.position().clone();
            p.policy_playout(&mut pick, None);
            policy += usize::from(p.winner == Some(black));
            let mut h = g.clone();
            h.random_playout(&mut pick);
            random += usize::from(h.result() == Some(Outcome::Winner(black)));
        }
        eprintln!("Black won {policy} of 200 policy playouts, {random} of 200 random ones");
        assert!(policy >= 120, "Black won {policy} of 200 policy playouts");
        assert!(random <= 60, "Black won {random} of 200 random playouts");
    }

    fn words(moves: &[&str]) -> Vec<String> {
        moves.iter().map(|m| m.to_string()).collect()
    }

    fn reply(g: &Game, intruder: &str) -> Option<String> {
        let x = g.grid.parse(intruder).unwrap();
        g.bridge_reply(x, &mut |_| 0).map(|c| g.grid.name(c))
    }

    #[test]
    fn an_intrusion_into_a_bridge_is_answered_in_the_main_phase() {
        // Black (the passer) has c3 and d4, which share d3 and c4; White takes d3.
        let g = played(4, &words(&["pass", "a7", "c3", "a6", "d4", "d3"]));
        assert_eq!(reply(&g, "d3").as_deref(), Some("c4"));
        // The playout answers it first: a random first stone would be a1's neighbour in index order.
        let c4 = g.grid.parse("c4").unwrap() as u32;
        let mut copy = g.position().clone();
        let mut moves = Vec::new();
        copy.policy_playout(&mut |_| 0, Some(&mut moves));
        assert_eq!(moves.first(), Some(&(0, c4)));
    }

    #[test]
    fn a_saving_stone_that_would_make_only_a_line_for_black_is_not_played() {
        // Black's chain c1 c2 b3 b4 touches N; b4 reaches S through a5 or b5. White takes b5: a5
        // would join N to S, a black line, which loses.
        let g = played(
            3,
            &words(&["pass", "e3", "c1", "e2", "c2", "d4", "b3", "d3", "b4", "b5"]),
        );
        let a5 = g.grid.parse("a5").unwrap();
        assert_eq!(g.stone_decides(a5), Some(false));
        assert_eq!(reply(&g, "b5"), None);
        // Without the chain's top (c1 played at e1 instead) the same bridge is saved.
        let g = played(
            3,
            &words(&["pass", "e3", "e1", "e2", "c2", "d4", "b3", "d3", "b4", "b5"]),
        );
        assert_eq!(reply(&g, "b5").as_deref(), Some("a5"));
    }
}

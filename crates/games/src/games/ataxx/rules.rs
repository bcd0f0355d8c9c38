//! The rules of `ataxx-rules.md` sections 2–5 on either board: clone and jump, conversion, automatic
//! passes, and the end (a side wiped out, neither side able to move, 100 plies without a clone).
//! Positions are values; [`Position::play`] checks a move and says why it is illegal.

use std::sync::Arc;

use crate::games::Outcome;
use crate::games::cellgrid::bits::Bits;
use crate::games::cellgrid::geometry::Geometry;

/// Plies without a clone after which the game is drawn (section 5.3, libataxx's rule).
pub const NO_CLONE_LIMIT: u32 = 100;

/// One turn of a player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// A new piece on an empty cell next to one of the mover's pieces.
    Clone(usize),
    /// A piece moved from the first cell to the empty second cell, at distance exactly 2.
    Jump(usize, usize),
}

/// A position and how the game reached it.
#[derive(Debug, Clone)]
pub struct Position {
    /// The board.
    pub geo: Arc<Geometry>,
    /// Each seat's pieces: 0 Black, 1 White.
    pub pieces: [Bits; 2],
    /// The seat to move (meaningless once over).
    pub to_move: usize,
    /// Plies since the last clone (section 5.3).
    pub no_clone: u32,
    /// The result, once the game is over.
    pub result: Option<Outcome>,
}

impl Position {
    /// The start (section 1): Black and White in alternate corners.
    pub fn start(geo: Arc<Geometry>) -> Position {
        let n = geo.size as i8;
        let at = |r: i8, c: i8| geo.at(r, c).expect("the corners are on the board");
        let mut black = Bits::EMPTY;
        let mut white = Bits::EMPTY;
        match geo.shape {
            crate::games::cellgrid::geometry::Shape::Square => {
                // Black a7 and g1 on 7×7 (top-left, bottom-right); White g7 and a1.
                black.set(at(n, 1));
                black.set(at(1, n));
                white.set(at(n, n));
                white.set(at(1, 1));
            }
            crate::games::cellgrid::geometry::Shape::Hexagon => {
                for (r, d) in [(1, 1), (n, 2 * n - 1), (2 * n - 1, n)] {
                    black.set(at(r, d));
                }
                for (r, d) in [(1, n), (2 * n - 1, 2 * n - 1), (n, 1)] {
                    white.set(at(r, d));
                }
            }
        }
        Position {
            geo,
            pieces: [black, white],
            to_move: 0,
            no_clone: 0,
            result: None,
        }
    }

    /// The empty cells.
    #[inline(always)]
    pub fn empty(&self) -> Bits {
        self.geo.all.minus(self.pieces[0].or(self.pieces[1]))
    }

    /// The cells `seat` can clone onto.
    pub fn clone_targets(&self, seat: usize) -> Bits {
        let mut reach = Bits::EMPTY;
        for p in self.pieces[seat].iter() {
            reach = reach.or(self.geo.near[p]);
        }
        reach.and(self.empty())
    }

    /// True when `seat` has a clone or a jump.
    #[inline(always)]
    pub fn can_move(&self, seat: usize) -> bool {
        let empty = self.empty();
        self.pieces[seat]
            .iter()
            .any(|p| !self.geo.near[p].or(self.geo.far[p]).and(empty).is_empty())
    }

    /// Every legal move of the player to move, clones first (by cell), then jumps (by origin,
    /// then target); none once the game is over.
    pub fn legal(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.result.is_some() {
            return;
        }
        let seat = self.to_move;
        out.extend(self.clone_targets(seat).iter().map(Move::Clone));
        let empty = self.empty();
        for from in self.pieces[seat].iter() {
            out.extend(
                self.geo.far[from]
                    .and(empty)
                    .iter()
                    .map(|to| Move::Jump(from, to)),
            );
        }
    }

    /// Why `mv` is not legal here, if it is not.
    pub fn check(&self, mv: Move) -> Result<(), String> {
        if self.result.is_some() {
            return Err("the game is over".into());
        }
        let seat = self.to_move;
        let name = |c: usize| self.geo.name(c);
        match mv {
            Move::Clone(to) => {
                if !self.empty().has(to) {
                    return Err(format!("{} is not empty", name(to)));
                }
                if self.geo.near[to].and(self.pieces[seat]).is_empty() {
                    return Err(format!(
                        "none of your pieces is next to {}: a clone goes next to one of your \
                         pieces (a jump of two cells is written from and to, such as a1c3)",
                        name(to)
                    ));
                }
            }
            Move::Jump(from, to) => {
                if !self.pieces[seat].has(from) {
                    return Err(format!("{} is not one of your pieces", name(from)));
                }
                if self.geo.near[from].has(to) {
                    return Err(format!(
                        "{}{} joins neighbouring cells: a move to a neighbour is a clone, \
                         written {}",
                        name(from),
                        name(to),
                        name(to)
                    ));
                }
                if !self.geo.far[from].has(to) {
                    return Err(format!(
                        "{} is more than two cells from {}: a jump goes exactly two cells",
                        name(to),
                        name(from)
                    ));
                }
                if !self.empty().has(to) {
                    return Err(format!("{} is not empty", name(to)));
                }
            }
        }
        Ok(())
    }

    /// Plays a legal move (checked by the caller), then the end checks and any automatic passes.
    /// Returns how many passes the engine made after it (0 or 1).
    #[inline(always)]
    pub fn apply(&mut self, mv: Move) -> u32 {
        let seat = self.to_move;
        let other = 1 - seat;
        let to = match mv {
            Move::Clone(to) => {
                self.no_clone = 0;
                to
            }
            Move::Jump(from, to) => {
                self.pieces[seat].clear(from);
                self.no_clone += 1;
                to
            }
        };
        self.pieces[seat].set(to);
        let turned = self.geo.near[to].and(self.pieces[other]);
        self.pieces[other] = self.pieces[other].minus(turned);
        self.pieces[seat] = self.pieces[seat].or(turned);
        self.to_move = other;
        self.settle()
    }

    /// Section 5 after a move, then 4.4's pass and 5 again. Returns the passes played.
    #[inline(always)]
    fn settle(&mut self) -> u32 {
        let mut passes = 0;
        loop {
            if let Some(result) = self.ended() {
                self.result = Some(result);
                return passes;
            }
            if self.can_move(self.to_move) {
                return passes;
            }
            // Cannot move, but the other side can (else the game would have ended): pass.
            self.to_move = 1 - self.to_move;
            self.no_clone += 1;
            passes += 1;
        }
    }

    /// The result if the game is over now (section 5, in its order).
    #[inline(always)]
    fn ended(&self) -> Option<Outcome> {
        let count = [self.pieces[0].count(), self.pieces[1].count()];
        if count[0] == 0 {
            return Some(Outcome::Winner(1));
        }
        if count[1] == 0 {
            return Some(Outcome::Winner(0));
        }
        if !self.can_move(0) && !self.can_move(1) {
            return Some(match count[0].cmp(&count[1]) {
                std::cmp::Ordering::Greater => Outcome::Winner(0),
                std::cmp::Ordering::Less => Outcome::Winner(1),
                std::cmp::Ordering::Equal => Outcome::Draw(vec![0, 1]),
            });
        }
        if self.no_clone >= NO_CLONE_LIMIT {
            return Some(Outcome::Draw(vec![0, 1]));
        }
        None
    }

    /// A uniformly random legal move of the player to move (the game is not over); `pick(n)`
    /// chooses below `n`. Counts the moves without listing them.
    #[inline(always)]
    pub fn random_move(&self, pick: &mut dyn FnMut(usize) -> usize) -> Move {
        let seat = self.to_move;
        let empty = self.empty().0;
        let mine = self.pieces[seat].0;
        let (near, far) = (&self.geo.near[..], &self.geo.far[..]);
        // One pass over the pieces, word by word (the playouts' inner loop: a plain loop over the
        // four words, not the set's iterators): where they can clone, and how many jumps each has.
        let mut reach = [0u64; 4];
        let mut jumps = 0usize;
        for (k, &word) in mine.iter().enumerate() {
            let mut w = word;
            while w != 0 {
                let from = k * 64 + w.trailing_zeros() as usize;
                w &= w - 1;
                let (n, f) = (&near[from].0, &far[from].0);
                for j in 0..4 {
                    reach[j] |= n[j];
                    jumps += (f[j] & empty[j]).count_ones() as usize;
                }
            }
        }
        let clones = Bits(reach).and(Bits(empty));
        let n_clones = clones.count() as usize;
        let total = n_clones + jumps;
        let mut k = pick(total);
        if k < n_clones {
            return Move::Clone(clones.nth(k as u32));
        }
        k -= n_clones;
        for (i, &word) in mine.iter().enumerate() {
            let mut w = word;
            while w != 0 {
                let from = i * 64 + w.trailing_zeros() as usize;
                w &= w - 1;
                let targets = far[from].and(Bits(empty));
                let c = targets.count() as usize;
                if k < c {
                    return Move::Jump(from, targets.nth(k as u32));
                }
                k -= c;
            }
        }
        unreachable!("the pick is below the number of moves")
    }
}

#[cfg(test)]
mod tests {
    use super::super::game::Play;
    use super::super::{Ataxx, Hexxagon};
    use super::*;
    use crate::games::cellgrid::geometry::Shape;

    fn start(shape: Shape, size: u8) -> Position {
        Position::start(Arc::new(Geometry::new(shape, size)))
    }

    #[test]
    fn perft_from_the_start_matches_the_page() {
        // Through the record's walk, which the game's perft is (passes take no depth).
        let a = Play::<Ataxx>::start(7);
        let perft = |d| crate::games::matchplay::perft(&a, d);
        assert_eq!([perft(1), perft(2), perft(3)], [16, 256, 6_460]);
        let h = Play::<Hexxagon>::start(5);
        let perft = |d| crate::games::matchplay::perft(&h, d);
        assert_eq!([perft(1), perft(2), perft(3)], [24, 570, 16_824]);
    }

    #[test]
    fn a_clone_converts_the_neighbours_only() {
        let mut p = start(Shape::Square, 7);
        let g = p.geo.clone();
        let c = |s: &str| g.read_cell(s).unwrap().0;
        // Black a7 clones to b6; nothing to convert yet.
        p.apply(Move::Clone(c("b6")));
        assert_eq!(p.pieces[0].count(), 3);
        // White a1 jumps to a3... then black b6 next to it? Put white next to black: a1 jumps to b3.
        p.apply(Move::Jump(c("a1"), c("b3")));
        assert!(p.pieces[1].has(c("b3")) && !p.pieces[1].has(c("a1")));
        // Black clones to b4 (next to b3): b3 turns black; a1 is empty and stays so.
        p.apply(Move::Clone(c("b4")));
        assert!(p.pieces[0].has(c("b3")));
        assert_eq!(p.pieces[1].count(), 1);
        assert_eq!(p.no_clone, 0);
    }

    #[test]
    fn illegal_moves_say_why() {
        let p = start(Shape::Square, 7);
        let g = p.geo.clone();
        let c = |s: &str| g.read_cell(s).unwrap().0;
        assert!(
            p.check(Move::Clone(c("d4")))
                .unwrap_err()
                .contains("none of your pieces")
        );
        assert!(
            p.check(Move::Jump(c("a7"), c("b6")))
                .unwrap_err()
                .contains("is a clone")
        );
        assert!(
            p.check(Move::Jump(c("a7"), c("d4")))
                .unwrap_err()
                .contains("exactly two")
        );
        assert!(
            p.check(Move::Jump(c("g7"), c("e5")))
                .unwrap_err()
                .contains("not one of your")
        );
        assert!(
            p.check(Move::Clone(c("g7")))
                .unwrap_err()
                .contains("not empty")
        );
        assert!(p.check(Move::Jump(c("a7"), c("c5"))).is_ok());
    }

    #[test]
    fn a_side_wiped_out_loses_and_a_blocked_side_passes() {
        // 4×4: Black a4 d1, White d4 a1. Black clones next to... build positions by hand.
        let mut p = start(Shape::Square, 4);
        let g = p.geo.clone();
        let c = |s: &str| g.read_cell(s).unwrap().0;
        p.pieces = [Bits::EMPTY, Bits::EMPTY];
        p.pieces[0].set(c("a1"));
        p.pieces[1].set(c("b2"));
        p.to_move = 0;
        p.apply(Move::Clone(c("a2")));
        assert_eq!(
            p.result,
            Some(Outcome::Winner(0)),
            "White has no pieces left"
        );

        // White's only piece, a1, is walled in by Black within two cells; Black's clone leaves
        // White without a move, so the engine passes for White at once.
        let mut p = start(Shape::Square, 4);
        p.pieces = [Bits::EMPTY, Bits::EMPTY];
        p.pieces[1].set(c("a1"));
        for cell in ["a2", "b1", "b2", "a3", "b3", "c1", "c2"] {
            p.pieces[0].set(c(cell));
        }
        p.to_move = 0;
        let passes = p.apply(Move::Clone(c("c3")));
        assert_eq!(passes, 1);
        assert_eq!((p.to_move, p.no_clone, p.result.clone()), (0, 1, None));
    }

    #[test]
    fn a_hundred_plies_without_a_clone_is_a_draw() {
        let mut p = start(Shape::Square, 7);
        let g = p.geo.clone();
        let c = |s: &str| g.read_cell(s).unwrap().0;
        // Jump back and forth: a7-c7, g7-e7 (White), c7-a7, e7-g7 ... 100 plies.
        let cycle = [
            Move::Jump(c("a7"), c("c7")),
            Move::Jump(c("g7"), c("e7")),
            Move::Jump(c("c7"), c("a7")),
            Move::Jump(c("e7"), c("g7")),
        ];
        for i in 0..99 {
            p.apply(cycle[i % 4]);
            assert_eq!(p.result, None, "ply {}", i + 1);
        }
        p.apply(cycle[99 % 4]);
        assert_eq!(p.result, Some(Outcome::Draw(vec![0, 1])));
    }

    #[test]
    fn random_games_end() {
        let mut seed = 1u64;
        let mut pick = |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) as usize) % n
        };
        for shape in [Shape::Square, Shape::Hexagon] {
            for _ in 0..20 {
                let mut p = start(shape, 5);
                let mut legal = Vec::new();
                while p.result.is_none() {
                    p.legal(&mut legal);
                    let mv = p.random_move(&mut pick);
                    assert!(legal.contains(&mv), "{mv:?} is legal");
                    p.apply(mv);
                }
            }
        }
    }
}

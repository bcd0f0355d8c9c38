//! Ataxx's playouts for the robot: short and a little greedy, scored by material.
//!
//! A uniform random game of Ataxx on 7×7 runs 150 plies and more (random players jump far more often
//! than they clone, and jumps leave holes), so a robot3 of 30,000 such playouts took seconds a move.
//! The usual remedy for Ataxx's Monte Carlo search is the one here: a playout plays at most
//! [`PLIES`] moves, each the best of [`TRIES`] random legal moves by the material it gains, and the
//! position it stops in is scored by the piece difference ([`value`]). Hexxagon keeps the engine's
//! uniform playouts to the end: this was tuned and measured on Ataxx's square board only.

use super::rules::{Move, Position};

/// Moves a playout plays before the position is scored (4, 8 and 16 were tried: docs/robot.md).
pub const PLIES: u32 = 4;

/// Random legal moves drawn for each playout move; the one gaining the most material is played.
pub const TRIES: u32 = 2;

/// The piece difference worth a win chance of about 73% (a logistic's scale, in pieces).
pub const SCALE: f32 = 3.0;

/// What `mv` does to the mover's lead in pieces: a clone adds a piece, each piece turned counts
/// twice (one more for the mover, one fewer for the other side); a jump only turns.
#[inline(always)]
pub fn gain(p: &Position, mv: Move) -> u32 {
    let (to, grown) = match mv {
        Move::Clone(to) => (to, 1),
        Move::Jump(_, to) => (to, 0),
    };
    grown + 2 * p.geo.near[to].and(p.pieces[1 - p.to_move]).count()
}

/// The playout's move: the best by [`gain`] of a few uniform random legal moves (the first of
/// equals), so that clones and captures are played far more often than by a uniform player while
/// every legal move keeps a chance.
#[inline(always)]
pub fn pick_move(p: &Position, pick: &mut dyn FnMut(usize) -> usize, tries: u32) -> Move {
    let mut best = p.random_move(pick);
    let mut best_gain = gain(p, best);
    for _ in 1..tries {
        let mv = p.random_move(pick);
        let g = gain(p, mv);
        if g > best_gain {
            (best, best_gain) = (mv, g);
        }
    }
    best
}

/// Plays at most [`PLIES`] policy moves on `p` (fewer when the game ends), pushing each move's seat
/// and id onto `played` when given.
pub fn playout(
    p: &mut Position,
    pick: &mut dyn FnMut(usize) -> usize,
    mut played: Option<&mut Vec<(usize, u32)>>,
) {
    for _ in 0..PLIES {
        if p.result.is_some() {
            return;
        }
        let mv = pick_move(p, pick, TRIES);
        if let Some(v) = played.as_deref_mut() {
            v.push((p.to_move, super::actions::encode(&p.geo, mv)));
        }
        p.apply(mv);
    }
}

/// The worth to `seat` of a position a playout stopped in (the game not over): a logistic of its
/// lead in pieces, a half when level.
pub fn value(p: &Position, seat: usize) -> f32 {
    let lead = p.pieces[seat].count() as f32 - p.pieces[1 - seat].count() as f32;
    1.0 / (1.0 + (-lead / SCALE).exp())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::games::cellgrid::geometry::{Geometry, Shape};
    use crate::picker;

    fn start() -> Position {
        Position::start(Arc::new(Geometry::new(Shape::Square, 7)))
    }

    #[test]
    fn gain_counts_the_clone_and_each_piece_turned_twice() {
        let mut p = start();
        let geo = p.geo.clone();
        let c = |s: &str| geo.read_cell(s).unwrap().0;
        let (b6, c5, e5, b7) = (c("b6"), c("c5"), c("e5"), c("b7"));
        let (a7, g7) = (c("a7"), c("g7"));
        // Black clones to b6; White jumps g7 to e5; Black's clone to b7 turns nothing.
        p.apply(Move::Clone(b6));
        p.apply(Move::Jump(g7, e5));
        assert_eq!(gain(&p, Move::Clone(b7)), 1);
        assert_eq!(gain(&p, Move::Jump(a7, c5)), 0);
        // Black jumping from b6 to d4 turns e5 next to it: two pieces of lead, no piece added; a
        // clone to d6 would turn it too and add one.
        assert_eq!(gain(&p, Move::Jump(b6, c("d4"))), 2);
        assert_eq!(gain(&p, Move::Jump(b6, c("d6"))), 2);
    }

    #[test]
    fn the_playout_stops_after_its_plies_and_prefers_gains() {
        let (mut clones, mut moves, mut ended) = (0, 0, 0);
        for seed in 0..200 {
            let mut p = start();
            let mut pick = picker(seed);
            // From the start Black has 16 moves: 6 clones (3 from each corner) and 10 jumps.
            let mv = pick_move(&p, &mut pick, TRIES);
            moves += 1;
            clones += usize::from(matches!(mv, Move::Clone(_)));
            let mut played = Vec::new();
            playout(&mut p, &mut pick, Some(&mut played));
            // Fewer plies only when the game ended (a side wiped out, which greedy moves can do).
            assert!(
                played.len() == PLIES as usize
                    || (played.len() < PLIES as usize && p.result.is_some()),
                "seed {seed}: {} plies",
                played.len()
            );
            ended += usize::from(p.result.is_some());
        }
        assert!(ended < 20, "{ended} of 200 short playouts ended the game");
        // Best of two by gain: a clone whenever either draw is one, 1 - (10/16)^2 = 61% (uniform
        // moves: 37.5%).
        assert!(
            (100..145).contains(&clones),
            "{clones} clones in {moves} first moves"
        );
    }

    #[test]
    fn the_value_is_a_win_chance_by_the_lead() {
        let mut p = start();
        assert_eq!(value(&p, 0), 0.5);
        let geo = p.geo.clone();
        let c = |s: &str| geo.read_cell(s).unwrap().0;
        let (b6, b7) = (c("b6"), c("b7"));
        p.pieces[0].set(b6);
        p.pieces[0].set(b7);
        let (black, white) = (value(&p, 0), value(&p, 1));
        assert!((black + white - 1.0).abs() < 1e-6);
        assert!(black > 0.6 && black < 0.7, "two pieces ahead: {black}");
        p.pieces[0].set(c("c6"));
        assert!(value(&p, 0) > black, "three ahead is worth more than two");
    }
}

//! Moves as action ids for the generic search ([`crate::games::search`]): a dense numbering of every
//! clone and jump a board allows, the same in every position of a game on that board.
//!
//! A clone to cell `c` is `c`; a jump from `f` is `cells + f * MAX_FAR + k`, where `k` is the rank of
//! the target among the cells at distance exactly 2 of `f` (at most 16 on the square board, 12 on the
//! hexagon). Side 9 of Hexxagon, the largest board, so needs 217 + 217 × 12 = 2,821 ids.

use super::rules::{Move, Position};
use crate::games::cellgrid::geometry::{Geometry, Shape};

/// The most cells at distance exactly 2 of one cell: the ring of a 5×5 square, or of a hexagon of
/// side 3.
fn max_far(geo: &Geometry) -> u32 {
    match geo.shape {
        Shape::Square => 16,
        Shape::Hexagon => 12,
    }
}

/// How many ids the board uses (every id is below it).
pub fn space(geo: &Geometry) -> u32 {
    let cells = geo.cells() as u32;
    cells + cells * max_far(geo)
}

/// The id of a move on this board.
pub fn encode(geo: &Geometry, mv: Move) -> u32 {
    match mv {
        Move::Clone(to) => to as u32,
        Move::Jump(from, to) => {
            geo.cells() as u32 + from as u32 * max_far(geo) + geo.far[from].rank(to)
        }
    }
}

/// The move an id names (an id below [`space`] that [`encode`] gives).
pub fn decode(geo: &Geometry, action: u32) -> Move {
    let cells = geo.cells() as u32;
    if action < cells {
        return Move::Clone(action as usize);
    }
    let jump = action - cells;
    let from = (jump / max_far(geo)) as usize;
    Move::Jump(from, geo.far[from].nth(jump % max_far(geo)))
}

/// The legal moves of the player to move as ids into `out` (cleared first): the same moves as
/// [`Position::legal`], in its order.
pub fn legal(p: &Position, out: &mut Vec<u32>) {
    out.clear();
    if p.result.is_some() {
        return;
    }
    let geo = &p.geo;
    let seat = p.to_move;
    out.extend(p.clone_targets(seat).iter().map(|c| c as u32));
    let empty = p.empty();
    let cells = geo.cells() as u32;
    for from in p.pieces[seat].iter() {
        let base = cells + from as u32 * max_far(geo);
        out.extend(
            geo.far[from]
                .iter()
                .enumerate()
                .filter(|&(_, to)| empty.has(to))
                .map(|(k, _)| base + k as u32),
        );
    }
}

/// Whether the legal move `action` could end the game in the mover's favour at once. Only two ends
/// can (section 5): every enemy piece turned, which needs them all next to the target; or the board
/// filled (with the mover ahead), which only a clone into the last empty cell does. A jump leaves its
/// origin empty and the mover able to jump back, and while a cell is empty someone next to it can
/// move, so no other move ends the game with a winner. `true` only costs the search a trial move.
pub fn may_win_at_once(p: &Position, action: u32) -> bool {
    let mv = decode(&p.geo, action);
    let to = match mv {
        Move::Clone(to) | Move::Jump(_, to) => to,
    };
    let theirs = p.pieces[1 - p.to_move];
    theirs.within(p.geo.near[to]) || (matches!(mv, Move::Clone(_)) && p.empty().count() == 1)
}

/// Plays random moves on `p` to the end (the engine's uniform playout, [`Position::random_move`]),
/// pushing each move's seat and id onto `played` when given.
pub fn playout(
    p: &mut Position,
    pick: &mut dyn FnMut(usize) -> usize,
    played: Option<&mut Vec<(usize, u32)>>,
) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has the instruction `playout_popcnt` is compiled for, checked just above.
        unsafe { playout_popcnt(p, pick, played) };
        return;
    }
    playout_loop(p, pick, played);
}

/// [`playout`]'s loop compiled with the CPU's popcount instruction: the build targets plain x86-64,
/// whose bit counts (a playout's inner loop counts the cells of sets of cells at every ply) take about
/// twenty vector instructions a set without it. The same code, so the same moves.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn playout_popcnt(
    p: &mut Position,
    pick: &mut dyn FnMut(usize) -> usize,
    played: Option<&mut Vec<(usize, u32)>>,
) {
    playout_loop(p, pick, played);
}

#[inline(always)]
fn playout_loop(
    p: &mut Position,
    pick: &mut dyn FnMut(usize) -> usize,
    mut played: Option<&mut Vec<(usize, u32)>>,
) {
    while p.result.is_none() {
        let mv = p.random_move(pick);
        if let Some(v) = played.as_deref_mut() {
            v.push((p.to_move, encode(&p.geo, mv)));
        }
        p.apply(mv);
    }
}

#[cfg(test)]
mod tests {
    use super::super::game::{AtaxxGame, Kind, new_game};
    use super::super::{Ataxx, Hexxagon};
    use super::*;
    use crate::games::{GameState, Outcome, Status};
    use crate::picker;

    /// The parts of a game the rules and the move list hold (the JSON is compared on some).
    fn state<K: Kind>(g: &AtaxxGame<K>) -> impl PartialEq + std::fmt::Debug {
        let p = g.position();
        (
            p.pieces,
            p.to_move,
            p.no_clone,
            p.result.clone(),
            g.move_number(),
        )
    }

    /// Over every position of seeded random games on the smallest, default and largest boards of
    /// both shapes: the ids name exactly the legal moves, each once; playing an id is playing its
    /// text; and every id that wins at once is one `may_win_at_once` lets the search try.
    /// Plays `games` seeded random games of `K` at `size` (see below); counts the positions and
    /// the wins at once seen.
    fn ids_of<K: Kind>(size: u8, games: u64, positions: &mut u32, wins_at_once: &mut u32) {
        for seed in 0..games {
            let mut pick = picker(seed * 31 + u64::from(size));
            let mut g = new_game::<K>(size);
            let shape = K::SHAPE;
            let space = g.action_space();
            let mut ids = Vec::new();
            while let Status::ToMove(seat) = g.status() {
                *positions += 1;
                g.legal_actions(&mut ids);
                assert!(ids.iter().all(|&a| a < space), "{ids:?} below {space}");
                let mut texts: Vec<String> = ids.iter().map(|&a| g.action_text(a)).collect();
                texts.sort();
                let before = texts.len();
                texts.dedup();
                assert_eq!(before, texts.len(), "an id twice or two ids for one move");
                assert_eq!(texts, g.legal_moves(), "{shape:?} {size} seed {seed}");
                // Every id is played in every fourth position (all of them would take minutes
                // in a debug build on the large boards).
                let played = if (*positions).is_multiple_of(4) {
                    ids.len()
                } else {
                    0
                };
                for (i, &a) in ids.iter().enumerate().take(played) {
                    let mv = decode(&g.position().geo, a);
                    assert_eq!(encode(&g.position().geo, mv), a);
                    let mut by_id = g.clone();
                    by_id.apply_action(a);
                    let mut by_text = g.clone();
                    by_text.play(&g.action_text(a)).unwrap();
                    assert_eq!(state(&by_id), state(&by_text));
                    if i % 16 == 0 {
                        assert_eq!(by_id.to_json(), by_text.to_json());
                    }
                    if by_id.status() == Status::Over(Outcome::Winner(seat)) {
                        *wins_at_once += 1;
                        assert!(g.may_win_at_once(a), "{} wins at once", g.action_text(a));
                    }
                }
                let a = ids[pick(ids.len())];
                g.apply_action(a);
            }
            g.legal_actions(&mut ids);
            assert!(ids.is_empty(), "no action once the game is over");
        }
    }

    /// Over every position of seeded random games on the smallest, default and largest boards of
    /// both shapes: the ids name exactly the legal moves, each once; playing an id is playing its
    /// text; and every id that wins at once is one `may_win_at_once` lets the search try.
    #[test]
    fn action_ids_are_the_legal_moves_and_play_as_their_text() {
        let mut positions = 0;
        let mut wins_at_once = 0;
        let (p, w) = (&mut positions, &mut wins_at_once);
        ids_of::<Ataxx>(4, 20, p, w);
        ids_of::<Ataxx>(7, 3, p, w);
        ids_of::<Ataxx>(10, 1, p, w);
        ids_of::<Hexxagon>(3, 20, p, w);
        ids_of::<Hexxagon>(5, 3, p, w);
        ids_of::<Hexxagon>(9, 1, p, w);
        assert!(positions > 1_000, "{positions} positions");
        assert!(wins_at_once > 5, "{wins_at_once} wins at once seen");
    }

    #[test]
    fn may_win_at_once_names_the_two_ways_to_win() {
        let mut g = new_game::<Ataxx>(7);
        for m in ["b6", "g7e5", "a7c5"] {
            g.play(m).unwrap();
        }
        let geo = g.position().geo.clone();
        let id = |text: &str| {
            let mv = super::super::notation::read(&geo, text).unwrap();
            encode(&geo, mv)
        };
        // White to move; Black has b6, c5 and g1: no cell touches all three, and the board is far
        // from full, so no move may win at once.
        let mut ids = Vec::new();
        g.legal_actions(&mut ids);
        assert!(ids.iter().all(|&a| !g.may_win_at_once(a)));
        assert_eq!(space(&geo), 49 + 49 * 16);
        assert_eq!(
            decode(&geo, id("a1c3")),
            Move::Jump(geo.at(1, 1).unwrap(), geo.at(3, 3).unwrap())
        );
    }
}

//! Moves as action ids for the generic search ([`crate::games::search`]): a dense numbering of every
//! switch and pair move the hexagon allows, the same in every position of a game on that board.
//!
//! A move's first cell `a` is its smaller one; its partner lies from `a` in one of the three
//! directions that lead to larger cells (east, north-east, north-west: [`HEX_DIRECTIONS`] 0 to 2,
//! `e`). A switch is `a * 3 + e`; a pair move, whose pieces both step in direction `m` (0 to 5), is
//! `cells * 3 + (a * 3 + e) * 6 + m`. Side 7, the largest board, so needs 127 × 21 = 2,667 ids.

use super::rules::{Move, Position};
use crate::games::cellgrid::geometry::{Geometry, HEX_DIRECTIONS};

/// The directions from a cell to a larger neighbour (rows grow north, numbers east).
const UP: usize = 3;

/// How many ids the board uses (every id is below it).
pub fn space(geo: &Geometry) -> u32 {
    geo.cells() as u32 * (UP + UP * HEX_DIRECTIONS.len()) as u32
}

/// The direction from `a` to its neighbour `b`.
fn direction(geo: &Geometry, a: usize, b: usize, among: usize) -> usize {
    (0..among)
        .find(|&k| geo.step(a, k) == Some(b))
        .expect("a move joins neighbouring cells")
}

/// The id of a move on this board (its cells in canonical order, as [`Move::switch`] and
/// [`Move::pair`] give them).
pub fn encode(geo: &Geometry, mv: Move) -> u32 {
    match mv {
        Move::Switch(a, b) => (a * UP + direction(geo, a, b, UP)) as u32,
        Move::Pair { from, to } => {
            let e = direction(geo, from[0], from[1], UP);
            let m = direction(geo, from[0], to[0], HEX_DIRECTIONS.len());
            (geo.cells() * UP + (from[0] * UP + e) * HEX_DIRECTIONS.len() + m) as u32
        }
    }
}

/// The move an id names (an id that [`encode`] gives).
pub fn decode(geo: &Geometry, action: u32) -> Move {
    let action = action as usize;
    let step = |c: usize, k: usize| geo.step(c, k).expect("an id names cells on the board");
    let switches = geo.cells() * UP;
    if action < switches {
        let a = action / UP;
        return Move::Switch(a, step(a, action % UP));
    }
    let pair = action - switches;
    let (joined, m) = (pair / HEX_DIRECTIONS.len(), pair % HEX_DIRECTIONS.len());
    let (a, e) = (joined / UP, joined % UP);
    let b = step(a, e);
    Move::Pair {
        from: [a, b],
        to: [step(a, m), step(b, m)],
    }
}

/// The legal moves of the player to move as ids into `out` (cleared first), in the order of
/// [`Position::legal`].
pub fn legal(p: &Position, out: &mut Vec<u32>) {
    out.clear();
    if p.result.is_some() {
        return;
    }
    let geo = p.geo();
    p.each_move(|mv| {
        out.push(encode(geo, mv));
        true
    });
}

/// Plays random legal moves on `p` to the end (uniform, as the engine's own playout), pushing each
/// move's seat and id onto `played` when given.
pub fn playout(
    p: &mut Position,
    pick: &mut dyn FnMut(usize) -> usize,
    mut played: Option<&mut Vec<(usize, u32)>>,
) {
    let mut moves = Vec::new();
    loop {
        p.legal(&mut moves);
        if moves.is_empty() {
            return;
        }
        let mv = moves[pick(moves.len())];
        if let Some(v) = played.as_deref_mut() {
            v.push((p.to_move, encode(p.geo(), mv)));
        }
        p.apply(mv);
    }
}

#[cfg(test)]
mod tests {
    use super::super::Options;
    use super::super::game::{ParaduxGame, new_game};
    use super::*;
    use crate::games::{GameState, Outcome, Status};
    use crate::picker;

    /// The parts of a game the rules and the move list hold (the JSON is compared on some).
    fn state(g: &ParaduxGame) -> impl PartialEq + std::fmt::Debug {
        let p = g.position();
        let last = p.last;
        let result = p.result.clone();
        (
            p.pieces,
            p.to_move,
            last,
            result,
            p.occurrences(),
            g.move_number(),
        )
    }

    /// Over every position of seeded random games on the smallest and largest boards with the
    /// shortest and longest lines: the ids name exactly the legal moves, each once; playing an id is
    /// playing its text; and `may_win_at_once` is true exactly for the ids that win at once.
    #[test]
    fn action_ids_are_the_legal_moves_and_play_as_their_text() {
        let mut positions = 0;
        let mut wins_at_once = 0;
        for (size, line, games) in [(4, 4, 40), (4, 7, 4), (5, 5, 4), (7, 4, 4), (7, 13, 2)] {
            for seed in 0..games {
                let mut pick = picker(seed * 17 + u64::from(size * 20 + line));
                let mut g = new_game(Options { size, line });
                let space = g.action_space();
                let mut ids = Vec::new();
                // Random games with long lines end only by repetition, after thousands of moves:
                // the first 120 of each game are looked at.
                while let Status::ToMove(seat) = g.status() {
                    if g.move_number() > 120 {
                        break;
                    }
                    positions += 1;
                    g.legal_actions(&mut ids);
                    assert!(ids.iter().all(|&a| a < space), "{ids:?} below {space}");
                    let mut texts: Vec<String> = ids.iter().map(|&a| g.action_text(a)).collect();
                    texts.sort();
                    let before = texts.len();
                    texts.dedup();
                    assert_eq!(before, texts.len(), "an id twice or two ids for one move");
                    assert_eq!(
                        texts,
                        g.legal_moves(),
                        "size {size} line {line} seed {seed}"
                    );
                    // Every id is played in every other position.
                    let played = if positions % 2 == 0 { ids.len() } else { 0 };
                    for (i, &a) in ids.iter().enumerate().take(played) {
                        let geo = g.position().geo();
                        assert_eq!(encode(geo, decode(geo, a)), a);
                        let mut by_id = g.clone();
                        by_id.apply_action(a);
                        let mut by_text = g.clone();
                        by_text.play(&g.action_text(a)).unwrap();
                        assert_eq!(state(&by_id), state(&by_text));
                        if i % 16 == 0 {
                            assert_eq!(by_id.to_json(), by_text.to_json());
                        }
                        let wins = by_id.status() == Status::Over(Outcome::Winner(seat));
                        wins_at_once += u32::from(wins);
                        assert_eq!(g.may_win_at_once(a), wins, "{}", g.action_text(a));
                    }
                    let a = ids[pick(ids.len())];
                    g.apply_action(a);
                }
                g.legal_actions(&mut ids);
                assert_eq!(
                    ids.is_empty(),
                    g.status() != Status::ToMove(g.position().to_move)
                );
            }
        }
        assert!(positions > 500, "{positions} positions");
        assert!(wins_at_once > 10, "{wins_at_once} wins at once seen");
    }

    #[test]
    fn ids_of_the_start_position() {
        let g = new_game(Options { size: 4, line: 4 });
        let geo = g.position().geo();
        assert_eq!(space(geo), 37 * 21);
        let id = |text: &str| encode(geo, super::super::notation::read(geo, text).unwrap());
        for text in ["a1~a2", "a1a2-b1b2", "c3~d4"] {
            assert_eq!(g.action_text(id(text)), text);
        }
        assert_ne!(id("a1a2-b1b2"), id("a1a2-b2b3"));
    }
}

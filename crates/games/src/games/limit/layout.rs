//! The random layout of rules 4.1, reproducible from the game's seed.
//!
//! A shape of `4n` cells is grown outwards from position 1, each cell touching at least `must_touch` cells
//! already in it, then coloured by a depth-first search that keeps same colours apart and gives every
//! pawn-colour tile a pawnless neighbour. Both steps draw from ChaCha8, whose output is fixed by its
//! algorithm, so a seed always gives the same board.

use std::collections::{HashMap, VecDeque};
use std::sync::{LazyLock, Mutex};

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

use super::geom;
use super::view::TileColour;

const COLOURS: [TileColour; 4] = [
    TileColour::Red,
    TileColour::Blue,
    TileColour::Green,
    TileColour::Black,
];

/// A finished layout: the position numbers in laying order and their colours.
pub type Layout = Vec<(u32, TileColour)>;

/// A uniform index below `n` from a seeded ChaCha stream (the layout, and the random games of the
/// tests and benchmarks).
pub fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    // The modulo bias over 2^64 is far below anything a board could show.
    (rng.next_u64() % n as u64) as usize
}

/// True for a colour that carries pawns with this many players.
pub fn pawn_colour(c: TileColour, players: usize) -> bool {
    matches!(c, TileColour::Red | TileColour::Blue) || (c == TileColour::Green && players == 3)
}

/// Grows a shape of `count` cells; each cell after the second touches `must_touch` earlier ones.
fn grow(rng: &mut ChaCha8Rng, count: usize, must_touch: u32) -> Vec<u32> {
    let mut cells: Vec<(i32, i32)> = vec![(0, 0)];
    let inside = |cells: &[(i32, i32)], c: (i32, i32)| cells.contains(&c);
    while cells.len() < count {
        // Candidates with their number of neighbours in the shape; more neighbours weigh more, which keeps
        // the board compact.
        let mut cand: Vec<((i32, i32), u32)> = Vec::new();
        for &(q, r) in &cells {
            for (dq, dr) in geom::DIRS {
                let c = (q + dq, r + dr);
                if inside(&cells, c) || cand.iter().any(|(x, _)| *x == c) {
                    continue;
                }
                let touch = geom::DIRS
                    .iter()
                    .filter(|(eq, er)| inside(&cells, (c.0 + eq, c.1 + er)))
                    .count() as u32;
                if cells.len() < 2 || touch >= must_touch {
                    cand.push((c, touch));
                }
            }
        }
        cand.sort_by_key(|(c, _)| geom::number(c.0, c.1));
        let weight = |t: u32| 1u64 << (2 * t);
        let total: u64 = cand.iter().map(|(_, t)| weight(*t)).sum();
        let mut x = rng.next_u64() % total;
        let mut pick = cand[0].0;
        for (c, t) in &cand {
            if x < weight(*t) {
                pick = *c;
                break;
            }
            x -= weight(*t);
        }
        cells.push(pick);
    }
    cells.iter().map(|&(q, r)| geom::number(q, r)).collect()
}

struct Search<'a> {
    nbrs: &'a [Vec<usize>],
    players: usize,
    colour: Vec<Option<usize>>,
    left: [u32; 4],
    order: Vec<[usize; 4]>,
    budget: u32,
}

impl Search<'_> {
    /// A pawn-colour cell whose neighbours are all coloured and none pawnless breaks constraint 3.
    fn starved(&self, i: usize) -> bool {
        let Some(c) = self.colour[i] else {
            return false;
        };
        if !pawn_colour(COLOURS[c], self.players) {
            return false;
        }
        self.nbrs[i].iter().all(|&j| match self.colour[j] {
            Some(cj) => pawn_colour(COLOURS[cj], self.players),
            None => false,
        })
    }

    fn fill(&mut self, i: usize) -> bool {
        if i == self.colour.len() {
            return true;
        }
        if self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        for k in 0..4 {
            let c = self.order[i][k];
            if self.left[c] == 0 || self.nbrs[i].iter().any(|&j| self.colour[j] == Some(c)) {
                continue;
            }
            self.colour[i] = Some(c);
            self.left[c] -= 1;
            let ok = !self.starved(i) && !self.nbrs[i].iter().any(|&j| self.starved(j));
            if ok && self.fill(i + 1) {
                return true;
            }
            self.left[c] += 1;
            self.colour[i] = None;
        }
        false
    }
}

/// How many recent layouts [`random_layout`] remembers: enough for every game a long-running
/// server (`pbem lmtp`) touches in a while, at about 0.5 KB each (2 MB in all at most).
const REMEMBERED: usize = 4096;

/// The arguments of a layout: seed, size, players, must_touch.
type LayoutKey = (u64, u32, usize, u32);

/// Layouts recently laid, and their keys oldest first (the first to be forgotten).
#[derive(Default)]
struct Remembered {
    layouts: HashMap<LayoutKey, Layout>,
    order: VecDeque<LayoutKey>,
}

impl Remembered {
    /// Remembers a layout, forgetting the oldest beyond `capacity`.
    fn keep(&mut self, key: LayoutKey, layout: Layout, capacity: usize) {
        if self.layouts.insert(key, layout).is_none() {
            self.order.push_back(key);
        }
        while self.order.len() > capacity {
            if let Some(old) = self.order.pop_front() {
                self.layouts.remove(&old);
            }
        }
    }
}

static RECENT: LazyLock<Mutex<Remembered>> = LazyLock::new(Mutex::default);

/// Lays `4 * size` tiles at random for `players` players, meeting the three constraints of 4.1.
///
/// Loading a game replays it from its seed, and the search is by far the dearest part of a load, so
/// the layouts of recent games are remembered: a long-running server draws each game's layout once,
/// and one mail loading the same game several times draws it once. The result depends only on the
/// arguments, remembered or not.
pub fn random_layout(seed: u64, size: u32, players: usize, must_touch: u32) -> Layout {
    let key = (seed, size, players, must_touch);
    // A poisoned lock only means another thread panicked while holding it; the map is still whole.
    if let Some(layout) = RECENT
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .layouts
        .get(&key)
    {
        return layout.clone();
    }
    let layout = lay(seed, size, players, must_touch);
    RECENT
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .keep(key, layout.clone(), REMEMBERED);
    layout
}

/// The search behind [`random_layout`], without the memory.
fn lay(seed: u64, size: u32, players: usize, must_touch: u32) -> Layout {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let count = 4 * size as usize;
    loop {
        let shape = grow(&mut rng, count, must_touch);
        let nbrs: Vec<Vec<usize>> = shape
            .iter()
            .map(|&n| {
                let around = geom::neighbours(n);
                (0..shape.len())
                    .filter(|&j| around.contains(&shape[j]))
                    .collect()
            })
            .collect();
        let order = (0..count)
            .map(|_| {
                let mut o = [0, 1, 2, 3];
                for k in (1..4).rev() {
                    o.swap(k, below(&mut rng, k + 1));
                }
                o
            })
            .collect();
        let mut s = Search {
            nbrs: &nbrs,
            players,
            colour: vec![None; count],
            left: [size; 4],
            order,
            budget: 20_000,
        };
        if s.fill(0) {
            return shape
                .iter()
                .zip(&s.colour)
                .map(|(&n, c)| (n, COLOURS[c.expect("every cell coloured")]))
                .collect();
        }
    }
}

/// Checks the three constraints of 4.1 on a layout; returns what is wrong.
pub fn check_layout(
    layout: &Layout,
    size: u32,
    players: usize,
    must_touch: u32,
) -> Result<(), String> {
    for c in COLOURS {
        let k = layout.iter().filter(|(_, x)| *x == c).count();
        if k != size as usize {
            return Err(format!("{k} tiles of {c:?}, expected {size}"));
        }
    }
    if layout.first().map(|x| x.0) != Some(1) {
        return Err("the first tile is not at position 1".into());
    }
    for (i, &(n, c)) in layout.iter().enumerate() {
        let around = geom::neighbours(n);
        let before = layout[..i]
            .iter()
            .filter(|(m, _)| around.contains(m))
            .count() as u32;
        let need = match i {
            0 => 0,
            1 => 1,
            _ => must_touch,
        };
        if before < need {
            return Err(format!(
                "tile {n} touches {before} earlier tiles, needs {need}"
            ));
        }
        let adj: Vec<TileColour> = layout
            .iter()
            .filter(|(m, _)| around.contains(m))
            .map(|x| x.1)
            .collect();
        if adj.contains(&c) {
            return Err(format!("tile {n} touches a tile of its own colour"));
        }
        if pawn_colour(c, players) && !adj.iter().any(|&a| !pawn_colour(a, players)) {
            return Err(format!("tile {n} ({c:?}) has no pawnless neighbour"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_remembered_layout_is_the_one_the_search_lays() {
        // Each key asked twice: the second answer comes from the memory.
        for round in 0..2 {
            for seed in 0..20 {
                let size = 4 + (seed % 5) as u32;
                let players = 2 + (seed % 2) as usize;
                assert_eq!(
                    random_layout(seed, size, players, 2),
                    lay(seed, size, players, 2),
                    "seed {seed}, round {round}"
                );
            }
        }
        let recent = RECENT.lock().unwrap();
        assert!(recent.layouts.len() <= REMEMBERED);
        assert_eq!(recent.layouts.len(), recent.order.len());
    }

    #[test]
    fn the_memory_forgets_the_oldest_beyond_its_capacity() {
        let mut m = Remembered::default();
        let key = |seed: u64| (seed, 8, 2, 2);
        for seed in 0..10 {
            m.keep(key(seed), vec![(1, TileColour::Red)], 4);
        }
        // Remembering a key again does not count it twice.
        m.keep(key(9), vec![(1, TileColour::Blue)], 4);
        assert_eq!(m.order, (6..10).map(key).collect::<VecDeque<_>>());
        assert_eq!(m.layouts.len(), 4);
        assert!(!m.layouts.contains_key(&key(5)));
        assert_eq!(m.layouts[&key(9)], vec![(1, TileColour::Blue)]);
    }

    #[test]
    fn s4_1_layouts_meet_the_three_constraints_for_every_size() {
        for players in [2, 3] {
            for must_touch in [1, 2] {
                for size in 2..=16 {
                    for seed in 0..3 {
                        let l = random_layout(seed, size, players, must_touch);
                        check_layout(&l, size, players, must_touch).unwrap_or_else(|e| {
                            panic!("size {size}, {players}p, seed {seed}: {e}")
                        });
                    }
                }
            }
        }
    }

    #[test]
    fn s4_1_layout_is_reproducible_from_the_seed() {
        assert_eq!(random_layout(42, 8, 2, 2), random_layout(42, 8, 2, 2));
        assert_ne!(random_layout(42, 8, 2, 2), random_layout(43, 8, 2, 2));
    }
}

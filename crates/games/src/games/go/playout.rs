//! Go's playout policy for the search (`GameState::search_playout`) and its priors for the tree
//! (`GameState::action_priors`). Uniformly random playouts let big groups die in atari and fill
//! their own liberties, so the search's estimates of a position are noise against any real player;
//! this policy is the usual cure (MoGo's, in our own words): answer the last move locally first.
//!
//! Each playout move, in order:
//! 1. the last stone played, or a block next to the mover's own previous stone, is in atari:
//!    capture it;
//! 2. a block of the mover next to the last stone is in atari: capture a neighbour of it that is in
//!    atari, or extend on its liberty when that gives it two liberties or more;
//! 3. an empty point next to the last stone (8 around it) whose 3×3 shape is a known good shape
//!    (hane, cut, edge moves: [`SHAPES`]);
//! 4. else a random empty point that is legal, not an own eye (all four neighbours the mover's) and
//!    not a self-atari of a block of three stones or more.
//!
//! Moves of steps 2 and 3 that would be such a self-atari are left out too. A pass only when no
//! point passes step 4; two passes end the playout on the area score.

use std::sync::OnceLock;

use super::GoPosition;
use super::board::{BLACK, EMPTY, Goban};

/// A point off the board.
const EDGE: u8 = 3;

/// A self-atari of a block this large or larger is never played in a playout: throw-ins of one or two
/// stones are real Go (nakade, snapback), giving away a bigger block almost never is.
const SELF_ATARI_STONES: usize = 3;

/// Good 3×3 shapes with the move in the centre, row by row. `X` and `O` are stones of the two
/// colours (each shape is tried both ways round, and in its eight rotations and reflections), `.`
/// empty, `x` not `O` (an `X` or empty), `o` not `X`, `#` off the board, `?` anything.
pub const SHAPES: [&str; 11] = [
    // Hane: under a stone that touches one of ours, or at the head of two stones.
    "XOX...???",
    "XO....?.?",
    "XO?X..?.?",
    "XOO...?.?",
    // Cut: the point that separates two diagonal stones, with our stone on the other diagonal.
    "XO?O.????",
    // Cut: between two stones of theirs with ours on one side and none of ours on the other.
    "?X?O.Oooo",
    // On the edge: block, hane and cut along the first line.
    "X.?O.?###",
    "?X?o.O###",
    "?XO?.?###",
    "?XOx.O###",
    "?XO?.o###",
];

/// The eight neighbours of a point in the order the shape codes use: the row above (left to right),
/// the two sides, the row below.
fn ring(b: &Goban, p: usize) -> [usize; 8] {
    let s = b.n + 2;
    [
        p - s - 1,
        p - s,
        p - s + 1,
        p - 1,
        p + 1,
        p + s - 1,
        p + s,
        p + s + 1,
    ]
}

/// The four neighbours of a point.
fn around(b: &Goban, p: usize) -> [usize; 4] {
    let s = b.n + 2;
    [p - 1, p + 1, p - s, p + s]
}

/// The 3×3 shape around `p`: two bits a neighbour (empty, black, white, off the board).
fn shape_code(b: &Goban, p: usize) -> usize {
    ring(b, p)
        .iter()
        .enumerate()
        .fold(0, |code, (i, &q)| code | (b.at(q) as usize) << (2 * i))
}

/// The ring index (see [`ring`]) that shape position `i` (0 to 8, row by row, 4 the centre) lands on
/// under `transform` (one of the eight rotations and reflections).
fn transformed(i: usize, transform: usize) -> usize {
    let (dx, dy) = (i as i32 % 3 - 1, i as i32 / 3 - 1);
    let (tx, ty) = match transform {
        0 => (dx, dy),
        1 => (-dx, dy),
        2 => (dx, -dy),
        3 => (-dx, -dy),
        4 => (dy, dx),
        5 => (-dy, dx),
        6 => (dy, -dx),
        _ => (-dy, -dx),
    };
    let j = ((ty + 1) * 3 + tx + 1) as usize;
    if j > 4 { j - 1 } else { j }
}

/// The values (empty, black, white, edge) a shape letter allows with `us` as `X`.
fn allowed(letter: u8, us: u8) -> Vec<u8> {
    let them = 3 - us;
    match letter {
        b'X' => vec![us],
        b'O' => vec![them],
        b'.' => vec![EMPTY],
        b'x' => vec![us, EMPTY],
        b'o' => vec![them, EMPTY],
        b'#' => vec![EDGE],
        _ => vec![EMPTY, BLACK, 3 - BLACK, EDGE],
    }
}

/// For every 3×3 code, whether some shape of [`SHAPES`] matches it: worked out once, then a move's
/// test is one lookup. Each shape, orientation and colour lists the codes it matches (the product of
/// what each neighbour allows) rather than every code being tried against every shape: testing all
/// 65,536 codes cost a billion instructions, more than 400 playouts, in every process that searched.
fn shape_table() -> &'static [bool] {
    static TABLE: OnceLock<Vec<bool>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = vec![false; 1 << 16];
        for shape in SHAPES {
            let shape = shape.as_bytes();
            for transform in 0..8 {
                for us in [BLACK, 3 - BLACK] {
                    let mut choices: [Vec<u8>; 8] = Default::default();
                    for i in (0..9).filter(|&i| i != 4) {
                        choices[transformed(i, transform)] = allowed(shape[i], us);
                    }
                    let mut codes = vec![0usize];
                    for (j, values) in choices.iter().enumerate() {
                        codes = codes
                            .iter()
                            .flat_map(|&c| values.iter().map(move |&v| c | (v as usize) << (2 * j)))
                            .collect();
                    }
                    for c in codes {
                        table[c] = true;
                    }
                }
            }
        }
        table
    })
}

/// True when the empty point `p` has a good shape around it.
pub fn good_shape(b: &Goban, p: usize) -> bool {
    shape_table()[shape_code(b, p)]
}

/// Buffers reused across a playout's moves.
pub struct Scratch {
    /// `mark[p] == stamp` marks `p` in the current flood fill.
    mark: Vec<u32>,
    stamp: u32,
    stones: Vec<usize>,
    libs: Vec<usize>,
    cands: Vec<usize>,
    open: Vec<usize>,
    /// The empty points, row by row, of the position whose key ([`Goban::hash`]) is
    /// `empties_of`: a playout keeps the list from move to move (a stone that takes nothing
    /// removes its point) instead of scanning the board for every move, which was a quarter of a
    /// 19x19 playout's instructions.
    empties: Vec<usize>,
    empties_of: Option<u64>,
}

impl Scratch {
    /// Buffers for a board of `n` × `n`.
    pub fn new(n: usize) -> Scratch {
        Scratch {
            mark: vec![0; (n + 2) * (n + 2)],
            stamp: 0,
            stones: Vec::with_capacity(n * n),
            libs: Vec::with_capacity(8),
            cands: Vec::with_capacity(16),
            open: Vec::with_capacity(n * n),
            empties: Vec::with_capacity(n * n),
            empties_of: None,
        }
    }

    /// The empty points of `b`, row by row: the kept list when it is `b`'s, else a new scan.
    fn empties_of(&mut self, b: &Goban) -> &[usize] {
        if self.empties_of != Some(b.hash()) {
            b.empty_points(&mut self.empties);
            self.empties_of = Some(b.hash());
        }
        &self.empties
    }

    /// After a stone on `p` that took `captured` stones turned the position of key `before` into
    /// that of key `after`: a kept list of `before` loses `p`; a capture (its points are not
    /// known here) leaves the list to the next scan.
    fn placed(&mut self, p: usize, captured: u32, before: u64, after: u64) {
        self.empties_of = match self.empties.binary_search(&p) {
            Ok(i) if captured == 0 && self.empties_of == Some(before) => {
                self.empties.remove(i);
                Some(after)
            }
            _ => None,
        };
    }

    fn fresh(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.fill(0);
            self.stamp = 1;
        }
    }

    /// Marks `p`; true when it was marked already in this fill.
    fn seen(&mut self, p: usize) -> bool {
        let was = self.mark[p] == self.stamp;
        self.mark[p] = self.stamp;
        was
    }
}

/// The block on `p` into `sc.stones` and up to `most + 1` of its liberties into `sc.libs`; the fill
/// stops at the `most + 1`th liberty, so `sc.stones` is the whole block only when it has `most` or
/// fewer.
fn block(b: &Goban, p: usize, most: usize, sc: &mut Scratch) {
    let colour = b.at(p);
    sc.fresh();
    sc.stones.clear();
    sc.libs.clear();
    sc.stones.push(p);
    sc.seen(p);
    let mut i = 0;
    while i < sc.stones.len() {
        for q in around(b, sc.stones[i]) {
            let v = b.at(q);
            if v == EMPTY {
                if !sc.libs.contains(&q) {
                    sc.libs.push(q);
                    if sc.libs.len() > most {
                        // Enough: the callers ask "is it in atari", and use the stones only
                        // when it is (then the fill went to the end).
                        return;
                    }
                }
            } else if v == colour && !sc.seen(q) {
                sc.stones.push(q);
            }
        }
        i += 1;
    }
}

/// What a stone of `colour` on the empty point `p` would give: whether it captures, its block's
/// liberties (counted up to 2) and its block's size.
pub fn after_move(b: &Goban, p: usize, colour: u8, sc: &mut Scratch) -> (bool, usize, usize) {
    let captures = captures_at(b, p, colour);
    let (libs, size) = own_block(b, p, colour, sc, false);
    (captures, libs, size)
}

/// Whether a stone of `colour` on the empty point `p` would capture (a neighbouring block of the
/// opponent's is in atari).
fn captures_at(b: &Goban, p: usize, colour: u8) -> bool {
    let enemy = 3 - colour;
    around(b, p)
        .into_iter()
        .any(|q| b.at(q) == enemy && b.only_liberty(q).is_some())
}

/// The block a stone of `colour` on the empty point `p` would make (the stone and its own
/// neighbours' blocks, one fill from `p`): its liberties besides `p`, counted up to 2, and its
/// size. With `enough_at_two` the fill stops at the second liberty, and the size is then only
/// what was filled so far: the playout asks "two liberties or not" of every candidate, and a
/// whole fill of a big block for it was most of what a self-atari test cost.
fn own_block(
    b: &Goban,
    p: usize,
    colour: u8,
    sc: &mut Scratch,
    enough_at_two: bool,
) -> (usize, usize) {
    sc.fresh();
    sc.seen(p);
    sc.stones.clear();
    sc.libs.clear();
    sc.stones.push(p);
    let mut i = 0;
    while i < sc.stones.len() {
        for q in around(b, sc.stones[i]) {
            let v = b.at(q);
            if v == EMPTY {
                if q != p && sc.libs.len() < 2 && !sc.libs.contains(&q) {
                    sc.libs.push(q);
                    if enough_at_two && sc.libs.len() == 2 {
                        return (2, sc.stones.len());
                    }
                }
            } else if v == colour && !sc.seen(q) {
                sc.stones.push(q);
            }
        }
        i += 1;
    }
    (sc.libs.len(), sc.stones.len())
}

/// True when a stone of `colour` on `p` puts a block of [`SELF_ATARI_STONES`] or more in atari
/// without capturing anything.
fn bad_self_atari(b: &Goban, p: usize, colour: u8, sc: &mut Scratch) -> bool {
    // Two empty neighbours are two liberties: no fill needed (most points of a playout).
    if around(b, p).iter().filter(|&&q| b.at(q) == EMPTY).count() >= 2 {
        return false;
    }
    if captures_at(b, p, colour) {
        return false;
    }
    let (libs, size) = own_block(b, p, colour, sc, true);
    libs < 2 && size >= SELF_ATARI_STONES
}

/// The urgent answers to the last stone (steps 1 and 2 of the module's list) into `sc.cands`.
fn urgent(g: &GoPosition, last: usize, colour: u8, sc: &mut Scratch) {
    let b = &g.board;
    sc.cands.clear();
    if b.at(last) == 3 - colour
        && let Some(liberty) = b.only_liberty(last)
    {
        sc.cands.push(liberty);
    }
    // The mover's own previous stone may have put a block in atari that was not saved.
    let own_previous = g.previous.filter(|&point| b.at(point) == colour);
    if let Some(prev) = own_previous {
        for q in around(b, prev) {
            if b.at(q) == 3 - colour
                && let Some(liberty) = b.only_liberty(q)
                && !sc.cands.contains(&liberty)
            {
                sc.cands.push(liberty);
            }
        }
    }
    for q in around(b, last) {
        if b.at(q) != colour {
            continue;
        }
        let Some(liberty) = b.only_liberty(q) else {
            continue;
        };
        // The stones in the fill's order, which orders the candidates and so the draws; taken,
        // not cloned, since `own_block` below refills the scratch's stones anyway.
        block(b, q, 1, sc);
        let ours = std::mem::take(&mut sc.stones);
        // Capturing a neighbour in atari saves the block (it gains the captured points).
        for &s in &ours {
            for t in around(b, s) {
                if b.at(t) == 3 - colour
                    && let Some(lib) = b.only_liberty(t)
                    && !sc.cands.contains(&lib)
                {
                    sc.cands.push(lib);
                }
            }
        }
        sc.stones = ours;
        let (libs, _) = own_block(b, liberty, colour, sc, true);
        if libs >= 2 && !sc.cands.contains(&liberty) {
            sc.cands.push(liberty);
        }
    }
}

/// Takes a random point of `sc.cands` that is legal and no bad self-atari.
fn take(
    g: &GoPosition,
    colour: u8,
    sc: &mut Scratch,
    pick: &mut dyn FnMut(usize) -> usize,
) -> Option<usize> {
    while !sc.cands.is_empty() {
        let p = sc.cands.swap_remove(pick(sc.cands.len()));
        if g.board.legal(p, colour) && !bad_self_atari(&g.board, p, colour, sc) {
            return Some(p);
        }
    }
    None
}

/// The policy's point for the player to move, or `None` to pass.
pub fn choose(
    g: &GoPosition,
    sc: &mut Scratch,
    pick: &mut dyn FnMut(usize) -> usize,
) -> Option<usize> {
    let colour = GoPosition::colour(g.to_move);
    let b = &g.board;
    if let Some(last) = g.last {
        urgent(g, last, colour, sc);
        if let Some(p) = take(g, colour, sc, pick) {
            return Some(p);
        }
        sc.cands.clear();
        for q in ring(b, last) {
            if b.at(q) == EMPTY && good_shape(b, q) {
                sc.cands.push(q);
            }
        }
        if let Some(p) = take(g, colour, sc, pick) {
            return Some(p);
        }
    }
    // Step 4, a random empty point: the first draw looks in the kept list; a refused point (rare
    // but late in a playout) makes a copy to draw from without it, the list and the draws being
    // the same as a fresh scan's.
    let empties = sc.empties_of(b);
    if empties.is_empty() {
        return None;
    }
    let first = pick(empties.len());
    let p = empties[first];
    if random_point_passes(g, p, colour, sc) {
        return Some(p);
    }
    let mut open = std::mem::take(&mut sc.open);
    open.clear();
    open.extend_from_slice(&sc.empties);
    open.swap_remove(first);
    let mut found = None;
    while !open.is_empty() {
        let p = open.swap_remove(pick(open.len()));
        if random_point_passes(g, p, colour, sc) {
            found = Some(p);
            break;
        }
    }
    sc.open = open;
    found
}

/// Step 4's tests of a random empty point: not an own eye, legal, no bad self-atari.
fn random_point_passes(g: &GoPosition, p: usize, colour: u8, sc: &mut Scratch) -> bool {
    !g.own_eye(p, colour) && g.board.legal(p, colour) && !bad_self_atari(&g.board, p, colour, sc)
}

/// Plays the game out by [`choose`]; reports each action for RAVE.
pub fn run(
    g: &mut GoPosition,
    pick: &mut dyn FnMut(usize) -> usize,
    mut played: Option<&mut Vec<(usize, u32)>>,
) {
    let mut sc = Scratch::new(g.board.n);
    let pass = (g.board.n * g.board.n) as u32;
    // A position with the scoring step never reaches the search (`Search::searched`), but a
    // playout on one stops where the step opens.
    while g.result.is_none() && g.step.is_none() {
        let seat = g.to_move;
        let before = g.board.hash();
        let placed = choose(g, &mut sc, pick).and_then(|p| Some((p, g.place_listed(p).ok()?)));
        let action = match placed {
            Some((p, captured)) => {
                sc.placed(p, captured, before, g.board.hash());
                g.point_action(p)
            }
            None => {
                g.pass();
                pass
            }
        };
        if let Some(list) = played.as_deref_mut() {
            list.push((seat, action));
        }
    }
}

/// Priors for the tree (higher first): captures and escapes from atari anywhere on the board, then
/// good shapes next to the last stone, then the rest; self-ataris of blocks, own eyes and the first line late, a pass last
/// unless the board is settled.
pub fn priors(g: &GoPosition, actions: &[u32], out: &mut Vec<f32>) {
    let mut sc = Scratch::new(g.board.n);
    let colour = GoPosition::colour(g.to_move);
    let b = &g.board;
    let n = b.n;
    let urgent_points = ataris(g, colour, &mut sc);
    let last_ring = g.last.map(|l| ring(b, l));
    out.clear();
    for &a in actions {
        let Some(p) = g.action_point(a) else {
            // A pass: last, unless the playout policy itself would pass here.
            out.push(if choose_would_pass(g, &mut sc) {
                3.0
            } else {
                -3.0
            });
            continue;
        };
        let mut score = 0.0f32;
        if urgent_points.contains(&p) {
            score += 2.0;
        }
        if last_ring.is_some_and(|r| r.contains(&p)) && good_shape(b, p) {
            score += 1.0;
        }
        let (captures, libs, size) = after_move(b, p, colour, &mut sc);
        if captures {
            score += 1.0;
        } else if libs < 2 && size >= 2 {
            score -= 2.0;
        }
        if g.own_eye(p, colour) {
            score -= 3.0;
        }
        let (c, r) = b.coords(p);
        let line = c.min(r).min(n - 1 - c).min(n - 1 - r);
        if n >= 7 {
            score += if quiet(b, p) {
                // Nothing near: the first and second lines take too little there (random
                // playouts do not know it, and RAVE then liked a1 as a first move).
                [-2.0, -1.0, 0.0][line.min(2)]
            } else if line == 0 {
                -0.5
            } else {
                0.0
            };
        }
        out.push(score);
    }
}

/// True when no stone stands within two points (Manhattan distance) of the empty point `p`.
fn quiet(b: &Goban, p: usize) -> bool {
    let (c, r) = b.coords(p);
    let (c, r) = (c as i32, r as i32);
    let n = b.n as i32;
    (-2..=2).all(|dc: i32| {
        (-2..=2).all(|dr: i32| {
            let (x, y) = (c + dc, r + dr);
            dc.abs() + dr.abs() > 2
                || x < 0
                || y < 0
                || x >= n
                || y >= n
                || b.at(b.point(x as usize, y as usize)) == EMPTY
        })
    })
}

/// The board (points) on which a robot level spends the search's table of playouts
/// ([`crate::games::search::level_playouts`]); larger boards get fewer ([`level_playouts`]).
const LEVEL_AREA: u32 = 9 * 9;

/// The playouts robot `level` spends on a move on a `size` x `size` board (`GameState::level_playouts`):
/// the search's table up to 9x9, scaled down by the board's area above it (19x19: 224, 1,121 and
/// 6,731), so that each level costs about what it costs on 9x9 (a playout's cost grows with the
/// area). Why: on 19x19 robot2's 5,000 playouts took 3.6 CPU seconds (1,370 a second) and robot3's
/// 30,000 about 22, so the server's 2 s cap cut both to the same 2,000 to 3,000 playouts and robot3
/// was no stronger than robot2 (issue 35; docs/robot.md, "Go 19x19 at the cap").
pub fn level_playouts(size: usize, level: u8) -> Option<u32> {
    let base = crate::games::search::level_playouts(level)?;
    let area = (size * size) as u32;
    (area > LEVEL_AREA).then(|| (u64::from(base) * u64::from(LEVEL_AREA) / u64::from(area)) as u32)
}

/// Playouts a new tree node counts as seen before any is run, at the mean its prior gives.
pub const PRIOR_VISITS: u32 = 20;

/// A prior of [`priors`] as results already seen (`GameState::prior_results`): [`PRIOR_VISITS`]
/// playouts at a mean of one half (the even-game heuristic: a move untried is neither good nor bad)
/// moved by a tenth a point of prior, so a capture or a save of a block in atari starts at 0.7 and
/// an own eye at 0.2; the search counts them in the move's own mean and in its RAVE mean (which
/// alone would outweigh them for the first few hundred visits).
pub fn prior_results(prior: f32) -> (u32, f32) {
    (PRIOR_VISITS, (0.5 + 0.1 * prior).clamp(0.1, 0.9))
}

/// Every block on the board in atari, answered: the capture of each of the opponent's, and for each of
/// the mover's the extension that gives two liberties or more. (The capture of a neighbour in atari,
/// the mover's other save, is the first kind.) The playouts look next to the last stones only; the
/// tree's priors can afford the whole board, and the board keeps each block's liberties, so no block
/// is filled.
fn ataris(g: &GoPosition, colour: u8, sc: &mut Scratch) -> Vec<usize> {
    let b = &g.board;
    let mut out = Vec::new();
    // The mover's liberties in atari already tried: an extension's answer is the liberty's, whichever
    // of the blocks around it asked.
    let mut tried = Vec::new();
    for p in b.points() {
        let v = b.at(p);
        if v == EMPTY {
            continue;
        }
        let Some(liberty) = b.only_liberty(p) else {
            continue;
        };
        if out.contains(&liberty) {
            continue;
        }
        if v != colour {
            out.push(liberty);
        } else if !tried.contains(&liberty) {
            tried.push(liberty);
            if own_block(b, liberty, colour, sc, true).0 >= 2 {
                out.push(liberty);
            }
        }
    }
    out
}

/// True when no point passes the random step's tests for the player to move.
fn choose_would_pass(g: &GoPosition, sc: &mut Scratch) -> bool {
    let colour = GoPosition::colour(g.to_move);
    let b = &g.board;
    let mut open = Vec::new();
    b.empty_points(&mut open);
    !open
        .into_iter()
        .any(|p| !g.own_eye(p, colour) && b.legal(p, colour) && !bad_self_atari(b, p, colour, sc))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameState;
    use crate::games::go::GoGame;
    use crate::games::go::options::GoOptions;
    use crate::games::matchplay::Rules;

    fn game(size: &str, moves: &[&str]) -> GoGame {
        let opts = [crate::games::GameOption::with_value("size", size)];
        let mut g = crate::games::go::game(GoOptions::read(&opts).unwrap(), false);
        for m in moves {
            g.play(m).unwrap();
        }
        g
    }

    fn pick_from(seed: u64) -> impl FnMut(usize) -> usize {
        let mut x = seed;
        move |n| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((x >> 33) as usize) % n
        }
    }

    #[test]
    fn the_last_stone_in_atari_is_captured() {
        // White a2 walks into atari between Black a3 and b2: Black takes it on a1.
        let g = game("5", &["a3", "e5", "b2", "a2"]);
        let a1 = g.board.read("a1").unwrap();
        let mut sc = Scratch::new(5);
        for seed in 0..20 {
            assert_eq!(choose(&g, &mut sc, &mut pick_from(seed)), Some(a1));
        }
    }

    #[test]
    fn an_own_block_in_atari_extends() {
        // White c3 leaves Black b3 one liberty, b2; extending there gives it three.
        let g = game("5", &["b3", "a3", "e5", "b4", "e4", "c3"]);
        let b2 = g.board.read("b2").unwrap();
        let mut sc = Scratch::new(5);
        for seed in 0..20 {
            assert_eq!(choose(&g, &mut sc, &mut pick_from(seed)), Some(b2));
        }
    }

    #[test]
    fn an_own_block_in_atari_is_saved_by_a_capture() {
        // White b2 leaves Black b1 one liberty, a1, where it would have none (White a2-b2 and c1
        // around it); White c1 is in atari itself, so Black saves b1 by taking it on d1.
        let g = game("5", &["c2", "c1", "b1", "a2", "e5", "b2"]);
        let d1 = g.board.read("d1").unwrap();
        let mut sc = Scratch::new(5);
        for seed in 0..20 {
            assert_eq!(choose(&g, &mut sc, &mut pick_from(seed)), Some(d1));
        }
        // The tree's priors: the capture is urgent, the extension that dies is not.
        let urgent_points = ataris(&g, BLACK, &mut sc);
        assert_eq!(
            urgent_points,
            vec![d1],
            "d1 alone: a1 would leave b1 no liberty"
        );
    }

    /// The priors' ataris worked out by flood fills of every block, as before the board kept its
    /// blocks: an opponent's block in atari is answered on its liberty, one of the mover's by the
    /// capture of a neighbour in atari and by the extension that gives two liberties or more.
    fn ataris_by_fills(g: &GoPosition, colour: u8, sc: &mut Scratch) -> Vec<usize> {
        let b = &g.board;
        let mut out = Vec::new();
        for p in b.points() {
            let v = b.at(p);
            if v == EMPTY {
                continue;
            }
            block(b, p, 1, sc);
            if sc.libs.len() != 1 {
                continue;
            }
            let liberty = sc.libs[0];
            if v != colour {
                out.push(liberty);
                continue;
            }
            for s in sc.stones.clone() {
                for t in around(b, s) {
                    if b.at(t) == 3 - colour {
                        block(b, t, 1, sc);
                        if sc.libs.len() == 1 {
                            out.push(sc.libs[0]);
                        }
                    }
                }
            }
            if own_block(b, liberty, colour, sc, true).0 >= 2 {
                out.push(liberty);
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    #[test]
    fn the_priors_ataris_agree_with_flood_fills_through_random_games() {
        let mut sc = Scratch::new(9);
        let mut pick = pick_from(11);
        let (mut answered, mut kept_out) = (0, 0);
        for _ in 0..12 {
            let mut g: GoPosition = (*game("9", &[])).clone();
            for ply in 0..200 {
                if g.result.is_some() {
                    break;
                }
                let colour = GoPosition::colour(g.to_move);
                let mut got = ataris(&g, colour, &mut sc);
                got.sort_unstable();
                let want = ataris_by_fills(&g, colour, &mut sc);
                assert_eq!(got, want, "at ply {ply}");
                answered += got.len();
                // Stones of the mover's blocks in atari whose liberty is not urgent (the extension dies).
                kept_out += g
                    .board
                    .points()
                    .filter(|&p| g.board.at(p) == colour)
                    .filter_map(|p| g.board.only_liberty(p))
                    .filter(|l| !got.contains(l))
                    .count();
                if choose(&g, &mut sc, &mut pick).is_none_or(|p| g.place_listed(p).is_err()) {
                    g.pass();
                }
            }
        }
        assert!(
            answered > 100 && kept_out > 10,
            "{answered} answers, {kept_out} kept out"
        );
    }

    /// Whether a shape matches the neighbours `cells` (in [`ring`] order) with `us` as `X`, worked
    /// out letter by letter: the table's definition, written apart from it.
    fn matches(shape: &[u8], cells: &[u8; 8], us: u8, transform: usize) -> bool {
        let them = 3 - us;
        (0..9).filter(|&i| i != 4).all(|i| {
            let (dx, dy) = (i as i32 % 3 - 1, i as i32 / 3 - 1);
            let (tx, ty) = match transform {
                0 => (dx, dy),
                1 => (-dx, dy),
                2 => (dx, -dy),
                3 => (-dx, -dy),
                4 => (dy, dx),
                5 => (-dy, dx),
                6 => (dy, -dx),
                _ => (-dy, -dx),
            };
            let j = ((ty + 1) * 3 + tx + 1) as usize;
            let v = cells[if j > 4 { j - 1 } else { j }];
            match shape[i] {
                b'X' => v == us,
                b'O' => v == them,
                b'.' => v == EMPTY,
                b'x' => v == us || v == EMPTY,
                b'o' => v == them || v == EMPTY,
                b'#' => v == EDGE,
                _ => true,
            }
        })
    }

    #[test]
    fn the_shape_table_is_the_shapes_in_every_orientation_and_colour() {
        // Every 7th code (all of them take long in a debug build), against the letters.
        let table = shape_table();
        let mut hits = 0;
        for code in (0..1usize << 16).step_by(7) {
            let cells: [u8; 8] = std::array::from_fn(|i| (code >> (2 * i) & 3) as u8);
            let want = SHAPES.iter().any(|s| {
                (0..8).any(|t| {
                    matches(s.as_bytes(), &cells, BLACK, t)
                        || matches(s.as_bytes(), &cells, 3 - BLACK, t)
                })
            });
            assert_eq!(table[code], want, "code {code:#06x} {cells:?}");
            hits += usize::from(want);
        }
        assert!(hits > 100, "{hits} codes matched");
    }

    #[test]
    fn shapes_match_in_every_orientation_and_colour() {
        // A hane under the White stone between two Black ones, from either side.
        let g = game("9", &["c5", "d5", "e5"]);
        for point in ["d4", "d6"] {
            assert!(
                good_shape(&g.board, g.board.read(point).unwrap()),
                "{point}"
            );
        }
        // The same shape with the colours swapped.
        let g = game("9", &["d5", "c5", "a9", "e5"]);
        assert!(good_shape(&g.board, g.board.read("d4").unwrap()));
        // An empty neighbourhood is no shape.
        let g = game("9", &["a9"]);
        assert!(!good_shape(&g.board, g.board.read("e5").unwrap()));
    }

    #[test]
    fn a_big_self_atari_is_refused() {
        // Black b1 c1 d1 under White b2 c2 d2 e2: Black e1 would leave the block b1-e1 one
        // liberty (a1) and capture nothing.
        let g = game("5", &["b1", "b2", "c1", "c2", "d1", "d2", "e5", "e2"]);
        let e1 = g.board.read("e1").unwrap();
        let mut sc = Scratch::new(5);
        assert!(bad_self_atari(&g.board, e1, BLACK, &mut sc));
        assert!(!bad_self_atari(
            &g.board,
            g.board.read("a5").unwrap(),
            BLACK,
            &mut sc
        ));
    }

    #[test]
    fn priors_put_the_save_of_a_block_in_atari_first_and_a_pass_last() {
        // Black c4-c7 has one liberty, d4 (tests/it/robot_tactics.rs has this position too).
        let moves = [
            "pass", "b7", "pass", "d7", "c7", "b6", "c6", "d6", "e6", "b5", "c5", "d5", "e5", "b4",
            "c4", "b3", "e4", "c3", "e3", "d3", "e2", "d2", "e1", "d1",
        ];
        let g = game("7", &moves);
        assert_eq!(g.status(), crate::games::Status::ToMove(0));
        let mut actions = Vec::new();
        g.legal_actions(&mut actions);
        let mut out = Vec::new();
        priors(&g, &actions, &mut out);
        assert_eq!(out.len(), actions.len());
        let best = (0..out.len())
            .max_by(|&i, &j| out[i].total_cmp(&out[j]))
            .unwrap();
        assert_eq!(g.action_text(actions[best]), "d4", "{out:?}");
        let pass = actions
            .iter()
            .position(|&a| g.action_text(a) == "pass")
            .unwrap();
        assert!(
            out.iter().all(|&p| p >= out[pass]),
            "a pass is last: {out:?}"
        );
    }

    #[test]
    fn priors_count_as_playouts_already_seen() {
        // The position of the priors test: d4 saves Black's block in atari (prior 2 and more).
        let moves = [
            "pass", "b7", "pass", "d7", "c7", "b6", "c6", "d6", "e6", "b5", "c5", "d5", "e5", "b4",
            "c4", "b3", "e4", "c3", "e3", "d3", "e2", "d2", "e1", "d1",
        ];
        let g = game("7", &moves);
        for seed in 0..4 {
            let t =
                crate::games::search::think(&g, crate::games::search::Budget::playouts(1), seed)
                    .unwrap();
            assert_eq!((t.text.as_str(), t.playouts, t.reused), ("d4", 1, 0));
            // One playout (a win or a loss) after PRIOR_VISITS virtual ones at the prior's mean
            // (0.7 or more for a save): without them the mean would be 0 or 1.
            assert!(t.value > 0.6 && t.value < 0.9, "value {}", t.value);
        }
    }

    #[test]
    fn on_an_empty_board_the_first_and_second_lines_come_last() {
        let g = game("9", &[]);
        let mut actions = Vec::new();
        g.legal_actions(&mut actions);
        let mut out = Vec::new();
        priors(&g, &actions, &mut out);
        let prior = |name: &str| {
            let i = actions
                .iter()
                .position(|&a| g.action_text(a) == name)
                .unwrap();
            out[i]
        };
        assert_eq!(prior("c3"), prior("e5"), "{out:?}");
        assert!(prior("c3") > prior("b5"), "{out:?}");
        assert!(prior("b5") > prior("a5"), "{out:?}");
        // Next to a stone the lines are no longer judged so: only the first line is a little late.
        let g = game("9", &["b3"]);
        g.legal_actions(&mut actions);
        priors(&g, &actions, &mut out);
        let i = actions
            .iter()
            .position(|&a| g.action_text(a) == "b2")
            .unwrap();
        assert!(out[i] >= 0.0, "b2 by b3: {}", out[i]);
    }

    #[test]
    fn playouts_are_finished_legal_games() {
        for seed in 0..20 {
            let mut g = game("9", &[]);
            let mut pos = g.position().clone();
            let mut played = Vec::new();
            run(&mut pos, &mut pick_from(seed), Some(&mut played));
            assert!(pos.result.is_some());
            // Every move of the playout is legal on the record, and its document replays.
            for &(seat, action) in &played {
                assert_eq!(g.status(), crate::games::Status::ToMove(seat));
                g.apply_action(action);
            }
            assert_eq!(
                g.status(),
                crate::games::Status::Over(pos.outcome().unwrap())
            );
            let back = GoGame::load(&g.to_json()).unwrap();
            assert_eq!(back.status(), g.status());
        }
    }

    #[test]
    fn robot_levels_spend_fewer_playouts_on_boards_above_9x9() {
        use crate::games::search::Budget;
        let budget = |size: &str, level: u8| {
            Budget::level(&game(size, &[]), level)
                .expect("a robot level")
                .playouts
        };
        // 9x9 and smaller keep the search's table.
        for size in ["5", "9"] {
            assert_eq!([1, 2, 3].map(|l| budget(size, l)), [1_000, 5_000, 30_000]);
        }
        // Above, the table times 81 over the board's area: about the same CPU a move as on 9x9.
        assert_eq!([1, 2, 3].map(|l| budget("13", l)), [479, 2_396, 14_378]);
        assert_eq!([1, 2, 3].map(|l| budget("19", l)), [224, 1_121, 6_731]);
    }
}

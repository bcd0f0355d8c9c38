//! The rules of `paradux-rules.md` sections 2–5 over positions as values: the reconstructed set-up,
//! switches and pair moves, the no-undo rule, automatic passes, lines (the mover wins ties) and the
//! draw on the third occurrence of a position. [`Position::check`] says why a move is illegal.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::{Arc, Mutex};

use crate::games::Outcome;
use crate::games::cellgrid::bits::Bits;
use crate::games::cellgrid::geometry::{Geometry, HEX_DIRECTIONS, Shape};

/// The three line axes as indexes into [`HEX_DIRECTIONS`]: along a row, along a diagonal number,
/// and the (+1, +1) axis (section 1).
const AXES: [usize; 3] = [0, 2, 1];

/// One board size with one `-line`: the hexagon and, for each cell, every run of `line` cells
/// along an axis that passes through it, as bit sets.
#[derive(Debug)]
pub struct Layout {
    /// The hexagon (Abalone names, neighbours by direction).
    pub geo: Arc<Geometry>,
    /// Pieces in a row that make a line (`-line`).
    pub line: u8,
    /// For each cell, the runs of `line` cells through it.
    through: Vec<Vec<Bits>>,
    /// For each cell, its neighbour in each of the six directions, [`OFF`] off the board: the
    /// move generator's table (a byte a step: side 7 has 127 cells).
    steps: Vec<[u8; 6]>,
}

/// No cell: a step off the board in [`Layout`]'s table.
const OFF: u8 = u8::MAX;

/// The layouts built so far: built once per process, not once per game.
static BUILT: Mutex<Vec<Arc<Layout>>> = Mutex::new(Vec::new());

impl Layout {
    /// The layout of side `size` with lines of `line` (both already checked by the options), shared.
    pub fn shared(size: u8, line: u8) -> Arc<Layout> {
        let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(l) = built.iter().find(|l| l.geo.size == size && l.line == line) {
            return l.clone();
        }
        let geo = Geometry::shared(Shape::Hexagon, size);
        let mut through = vec![Vec::new(); geo.cells()];
        for start in 0..geo.cells() {
            for axis in AXES {
                let mut run = Bits::EMPTY;
                let mut cell = Some(start);
                for _ in 0..line {
                    match cell {
                        Some(c) => {
                            run.set(c);
                            cell = geo.step(c, axis);
                        }
                        None => break,
                    }
                }
                if run.count() == u32::from(line) {
                    for c in run.iter() {
                        through[c].push(run);
                    }
                }
            }
        }
        let steps = (0..geo.cells())
            .map(|c| {
                std::array::from_fn(|k| {
                    geo.step(c, k)
                        .map_or(OFF, |to| u8::try_from(to).expect("side 7 has 127 cells"))
                })
            })
            .collect();
        let l = Arc::new(Layout {
            geo,
            line,
            through,
            steps,
        });
        built.push(l.clone());
        l
    }

    /// True when `pieces` hold a whole run of `line` cells through `cell`.
    pub fn line_through(&self, cell: usize, pieces: Bits) -> bool {
        self.through[cell].iter().any(|&run| pieces.and(run) == run)
    }

    /// True when `pieces` hold a line anywhere.
    pub fn has_line(&self, pieces: Bits) -> bool {
        pieces.iter().any(|c| self.line_through(c, pieces))
    }

    /// The cells of the longest run of `pieces` along an axis that makes a line (for the notes),
    /// in increasing order; `None` when there is none.
    pub fn line_cells(&self, pieces: Bits) -> Option<Vec<usize>> {
        let mut best: Option<Vec<usize>> = None;
        for start in pieces.iter() {
            for axis in AXES {
                // Only from a run's first cell.
                if self
                    .geo
                    .step(start, axis + 3)
                    .is_some_and(|c| pieces.has(c))
                {
                    continue;
                }
                let mut run = vec![start];
                let mut cell = start;
                while let Some(c) = self.geo.step(cell, axis).filter(|&c| pieces.has(c)) {
                    run.push(c);
                    cell = c;
                }
                if run.len() >= usize::from(self.line)
                    && best.as_ref().is_none_or(|b| b.len() < run.len())
                {
                    run.sort_unstable();
                    best = Some(run);
                }
            }
        }
        best
    }
}

/// One turn of a player (section 4), cells by index (which is the page's order of cells).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// Swap the pieces of two neighbouring cells, the smaller cell first.
    Switch(usize, usize),
    /// Two neighbouring pieces of different colours one step in the same direction: the piece on
    /// `from[0]` goes to `to[0]`, the one on `from[1]` to `to[1]`; `from[0] < from[1]`.
    Pair {
        /// The sources, smaller first.
        from: [usize; 2],
        /// The destinations, in the order of the sources.
        to: [usize; 2],
    },
}

impl Move {
    /// A pair move with its sources in canonical order.
    pub fn pair(a: (usize, usize), b: (usize, usize)) -> Move {
        let (a, b) = if a.0 <= b.0 { (a, b) } else { (b, a) };
        Move::Pair {
            from: [a.0, b.0],
            to: [a.1, b.1],
        }
    }

    /// A switch with its cells in canonical order.
    pub fn switch(a: usize, b: usize) -> Move {
        Move::Switch(a.min(b), a.max(b))
    }

    /// The move that would undo this one (section 4.3): the same switch, or the same two pieces
    /// straight back.
    pub fn undo(self) -> Move {
        match self {
            Move::Switch(..) => self,
            Move::Pair { from, to } => Move::pair((to[0], from[0]), (to[1], from[1])),
        }
    }

    /// The cells that hold a piece after the move which they did not hold before (or a piece of
    /// the other colour): the only cells a new line can pass through.
    pub fn arrivals(self) -> [usize; 2] {
        match self {
            Move::Switch(a, b) => [a, b],
            Move::Pair { to, .. } => to,
        }
    }

    /// True for an inline pair move (one piece steps into the cell its partner leaves).
    pub fn inline(self) -> bool {
        matches!(self, Move::Pair { from, to } if to[0] == from[1] || to[1] == from[0])
    }
}

/// How a move ended the game, for the notes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// This seat has a line and wins (section 5.1).
    Line(usize),
    /// The position occurred for the third time: a draw (section 5.2).
    Repetition,
}

/// What [`Position::apply`] did besides the move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Applied {
    /// The engine passed for the next player, who had no legal move (section 4.4).
    pub passed: bool,
    /// How the game ended, if it did.
    pub end: Option<End>,
}

/// A position as section 5.2 counts it: the board and the player to move.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Key {
    pieces: [Bits; 2],
    to_move: u8,
}

impl Hash for Key {
    fn hash<H: Hasher>(&self, h: &mut H) {
        // One well-mixed word; equal keys are still compared in full, so this is exact.
        let mut x = u64::from(self.to_move);
        for w in self.pieces[0].0.iter().chain(self.pieces[1].0.iter()) {
            x = (x ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29);
        }
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        h.write_u64(x ^ (x >> 31));
    }
}

/// A hasher that keeps the one word [`Key`] writes (it is already mixed).
#[derive(Default)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

/// A position and what the rules need of the way it was reached.
#[derive(Debug, Clone)]
pub struct Position {
    /// The board and the line length.
    pub layout: Arc<Layout>,
    /// Each seat's pieces: 0 Black, 1 White.
    pub pieces: [Bits; 2],
    /// The seat to move (meaningless once over).
    pub to_move: usize,
    /// The move just made by the other player, which may not be undone; `None` at the start and
    /// after an automatic pass.
    pub last: Option<Move>,
    /// The result, once the game is over.
    pub result: Option<Outcome>,
    /// How often each position (board and player to move) has occurred.
    seen: HashMap<Key, u8, BuildHasherDefault<WordHasher>>,
}

impl Position {
    /// The reconstructed set-up of section 2.
    pub fn start(layout: Arc<Layout>) -> Position {
        let mut pieces = [Bits::EMPTY; 2];
        for (i, c) in ring(&layout.geo).into_iter().enumerate() {
            pieces[i % 2].set(c);
        }
        let [black, white] = centre(&layout.geo);
        pieces[0].set(black);
        pieces[1].set(white);
        Position::with(layout, pieces, 0)
    }

    /// A position with these pieces and this player to move, seen once, with nothing to undo.
    pub fn with(layout: Arc<Layout>, pieces: [Bits; 2], to_move: usize) -> Position {
        let mut p = Position {
            layout,
            pieces,
            to_move,
            last: None,
            result: None,
            // Room for a typical game's positions (a random game on the standard board lasts
            // about 30 moves), so that it rarely grows.
            seen: HashMap::with_capacity_and_hasher(64, Default::default()),
        };
        p.count();
        p
    }

    /// The board.
    pub fn geo(&self) -> &Geometry {
        &self.layout.geo
    }

    /// The seat whose piece is on `cell`, if any.
    pub fn owner(&self, cell: usize) -> Option<usize> {
        (0..2).find(|&s| self.pieces[s].has(cell))
    }

    /// The empty cells.
    pub fn empty(&self) -> Bits {
        self.geo().all.minus(self.pieces[0].or(self.pieces[1]))
    }

    /// The move the player to move may not make (section 4.3), if any.
    pub fn forbidden(&self) -> Option<Move> {
        self.last.map(Move::undo)
    }

    /// How often the current position (board and player to move) has occurred.
    pub fn occurrences(&self) -> u8 {
        self.seen.get(&self.key()).copied().unwrap_or(0)
    }

    fn key(&self) -> Key {
        Key {
            pieces: self.pieces,
            to_move: self.to_move as u8,
        }
    }

    /// Counts the current position once more; returns how often it has now occurred.
    fn count(&mut self) -> u8 {
        let n = self.seen.entry(self.key()).or_insert(0);
        *n = n.saturating_add(1);
        *n
    }

    /// Calls `f` with every switch and pair move the geometry allows the player to move, the
    /// forbidden undo left out, each once; stops early when `f` returns false. Returns false if
    /// it stopped early.
    pub fn each_move(&self, mut f: impl FnMut(Move) -> bool) -> bool {
        let geo = self.geo();
        let steps = &self.layout.steps;
        let me = self.to_move;
        let theirs = self.pieces[1 - me];
        let empty = self.empty();
        let forbidden = self.forbidden();
        let mut offer = |mv: Move| forbidden == Some(mv) || f(mv);
        for p in self.pieces[me].iter() {
            for q in geo.near[p].and(theirs).iter() {
                if !offer(Move::switch(p, q)) {
                    return false;
                }
                let (from_p, from_q) = (steps[p], steps[q]);
                for dir in 0..HEX_DIRECTIONS.len() {
                    let (p2, q2) = (from_p[dir], from_q[dir]);
                    if p2 == OFF || q2 == OFF {
                        continue;
                    }
                    let (p2, q2) = (usize::from(p2), usize::from(q2));
                    if (empty.has(p2) || p2 == q)
                        && (empty.has(q2) || q2 == p)
                        && !offer(Move::pair((p, p2), (q, q2)))
                    {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Every legal move of the player to move; none once the game is over.
    pub fn legal(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.result.is_none() {
            self.each_move(|mv| {
                out.push(mv);
                true
            });
        }
    }

    /// True when the player to move has a legal move (the game not being over).
    fn can_move(&self) -> bool {
        !self.each_move(|_| false)
    }

    /// Why `mv` is not legal here, if it is not.
    pub fn check(&self, mv: Move) -> Result<(), String> {
        if self.result.is_some() {
            return Err("the game is over".into());
        }
        let geo = self.geo();
        let name = |c: usize| geo.name(c);
        let me = self.to_move;
        let (a, b) = match mv {
            Move::Switch(a, b) => (a, b),
            Move::Pair { from, .. } => (from[0], from[1]),
        };
        if !geo.near[a].has(b) {
            return Err(format!(
                "{} and {} are not neighbours: a {} takes one of your pieces and an enemy piece \
                 next to it",
                name(a),
                name(b),
                if matches!(mv, Move::Switch(..)) {
                    "switch"
                } else {
                    "pair move"
                }
            ));
        }
        for c in [a, b] {
            if self.owner(c).is_none() {
                return Err(format!(
                    "{} is empty: a move takes one of your pieces and an enemy piece next to it",
                    name(c)
                ));
            }
        }
        if self.owner(a) == self.owner(b) {
            let whose = if self.owner(a) == Some(me) {
                "yours".to_string()
            } else {
                format!("your opponent's ({})", SIDES[1 - me])
            };
            return Err(format!(
                "{} and {} are both {whose}: a move takes one of your pieces and one enemy piece \
                 next to it, never two of one colour",
                name(a),
                name(b)
            ));
        }
        if let Move::Pair { from, to } = mv {
            let dir = (0..HEX_DIRECTIONS.len()).find(|&k| geo.step(from[0], k) == Some(to[0]));
            let Some(dir) = dir else {
                return Err(format!(
                    "{} to {} is not one step: each piece of a pair moves to a neighbouring cell",
                    name(from[0]),
                    name(to[0])
                ));
            };
            if geo.step(from[1], dir) != Some(to[1]) {
                let same = geo.step(from[1], dir).map_or_else(
                    || "off the board".to_string(),
                    |c| format!("to {}", name(c)),
                );
                return Err(format!(
                    "both pieces of a pair move one step in the same direction: {} goes to {}, \
                     so {} would go {same}, not to {}",
                    name(from[0]),
                    name(to[0]),
                    name(from[1]),
                    name(to[1])
                ));
            }
            for i in 0..2 {
                if to[i] != from[1 - i]
                    && let Some(s) = self.owner(to[i])
                {
                    return Err(format!(
                        "{} holds a {} piece: each piece of a pair moves to an empty cell or to the \
                         cell its partner leaves",
                        name(to[i]),
                        SIDES[s]
                    ));
                }
            }
        }
        if self.forbidden() == Some(mv) {
            return Err(format!(
                "{} would undo the opponent's last move ({}): a move may not undo the opponent's \
                 last move",
                super::notation::write(geo, mv),
                super::notation::write(geo, self.last.expect("a forbidden move undoes one"))
            ));
        }
        Ok(())
    }

    /// Each seat's pieces after the legal move `mv`, the position itself unchanged.
    pub fn pieces_after(&self, mv: Move) -> [Bits; 2] {
        let mut pieces = self.pieces;
        match mv {
            Move::Switch(a, b) => {
                for p in &mut pieces {
                    let (ha, hb) = (p.has(a), p.has(b));
                    if ha != hb {
                        if ha {
                            p.clear(a);
                            p.set(b);
                        } else {
                            p.clear(b);
                            p.set(a);
                        }
                    }
                }
            }
            Move::Pair { from, to } => {
                let owners = from.map(|c| self.owner(c).expect("a pair moves two pieces"));
                for (i, &c) in from.iter().enumerate() {
                    pieces[owners[i]].clear(c);
                }
                for (i, &c) in to.iter().enumerate() {
                    pieces[owners[i]].set(c);
                }
            }
        }
        pieces
    }

    /// True when the legal move `mv` gives the player to move a line, and so wins at once
    /// (section 5.1: the mover wins when both sides have one).
    pub fn wins_at_once(&self, mv: Move) -> bool {
        let mine = self.pieces_after(mv)[self.to_move];
        mv.arrivals()
            .into_iter()
            .any(|c| mine.has(c) && self.layout.line_through(c, mine))
    }

    /// Plays a legal move (checked by the caller), then section 5's end checks and any automatic
    /// pass (section 4.4).
    pub fn apply(&mut self, mv: Move) -> Applied {
        let me = self.to_move;
        let other = 1 - me;
        self.pieces = self.pieces_after(mv);
        self.last = Some(mv);
        self.to_move = other;
        // Before the move nobody had a line (the game would be over), so a new line passes through
        // a cell the move filled.
        let line = |s: usize| {
            mv.arrivals()
                .into_iter()
                .any(|c| self.pieces[s].has(c) && self.layout.line_through(c, self.pieces[s]))
        };
        let winner = if line(me) {
            Some(me)
        } else if line(other) {
            Some(other)
        } else {
            None
        };
        if let Some(w) = winner {
            self.result = Some(Outcome::Winner(w));
            return Applied {
                passed: false,
                end: Some(End::Line(w)),
            };
        }
        let mut applied = Applied {
            passed: false,
            end: None,
        };
        if self.count() < 3 && !self.can_move() {
            // Only the undo was possible: the engine passes, and the position counts again.
            self.to_move = me;
            self.last = None;
            applied.passed = true;
            self.count();
        }
        if self.occurrences() >= 3 {
            self.result = Some(Outcome::Draw(vec![0, 1]));
            applied.end = Some(End::Repetition);
        }
        applied
    }

    /// The number of legal move sequences of `depth` moves (passes are the engine's and use no
    /// depth; a game that ends stops its sequences).
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.result.is_some() {
            return 0;
        }
        if depth == 1 {
            let mut n = 0;
            self.each_move(|_| {
                n += 1;
                true
            });
            return n;
        }
        let mut moves = Vec::new();
        self.legal(&mut moves);
        moves
            .iter()
            .map(|&m| {
                let mut next = self.clone();
                next.apply(m);
                next.perft(depth - 1)
            })
            .sum()
    }
}

/// The side names by seat.
pub const SIDES: [&str; 2] = ["Black", "White"];

/// The outer ring in the page's order: from `a1` along row `a` to the right, then anticlockwise.
pub fn ring(geo: &Geometry) -> Vec<usize> {
    let n = geo.size as usize;
    let mut cell = geo.at(1, 1).expect("a1 is on every board");
    let mut out = Vec::with_capacity(6 * (n - 1));
    // East, north-east, north-west, west, south-west, south-east: n − 1 steps each.
    for dir in 0..HEX_DIRECTIONS.len() {
        for _ in 0..n - 1 {
            out.push(cell);
            cell = geo.step(cell, dir).expect("the ring stays on the board");
        }
    }
    out
}

/// The two centre pieces: Black on (n, n − 1), White on (n, n + 1).
pub fn centre(geo: &Geometry) -> [usize; 2] {
    let n = geo.size as i8;
    [
        geo.at(n, n - 1).expect("on the board"),
        geo.at(n, n + 1).expect("on the board"),
    ]
}

#[cfg(test)]
#[path = "rules_tests.rs"]
mod tests;

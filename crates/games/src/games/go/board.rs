//! Go's rules on one board (`go-rules.md` sections 1, 2, 4, 5): points in GTP names, placing with
//! captures before the suicide test, positional superko by Zobrist hashes of every board seen, and
//! Tromp–Taylor area scoring. The board has a one-point border so neighbours need no bounds checks.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use arrayvec::ArrayVec;

/// The boards seen, by their Zobrist hashes: already uniformly random, so they are their own hash
/// (SipHash would cost more than the rest of a playout move).
type Seen = HashSet<u64, BuildHasherDefault<ZobristHasher>>;

/// A hasher that passes a `u64` through.
#[derive(Default)]
pub struct ZobristHasher(u64);

impl Hasher for ZobristHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// What a point holds.
pub const EMPTY: u8 = 0;
/// A black stone (seat 0).
pub const BLACK: u8 = 1;
/// A white stone (seat 1).
pub const WHITE: u8 = 2;
const EDGE: u8 = 3;

/// The GTP column letters: `i` is skipped.
pub const LETTERS: &[u8] = b"abcdefghjklmnopqrstuvwxyz";

/// The Zobrist key of a stone of `colour` on point `p`: a fixed pseudo-random number (SplitMix64
/// of the pair), so keys need no table and are the same in every process.
fn key(p: usize, colour: u8) -> u64 {
    let mut x = (p as u64) << 2 | u64::from(colour);
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// A Go board and the boards seen so far.
#[derive(Debug, Clone)]
pub struct Goban {
    /// Points per side.
    pub n: usize,
    /// `(n + 2)²` points, the border included.
    cells: Vec<u8>,
    /// The Zobrist hash of the stones on the board.
    hash: u64,
    /// Every board this game has had (positional superko), the start included.
    seen: Seen,
    /// For a stone: the point that names its block (any of its stones), kept as blocks join.
    head: Vec<u16>,
    /// For a stone: the next stone of its block, round a ring.
    next: Vec<u16>,
    /// For a block's head: its size and pseudo-liberties.
    blocks: Vec<Block>,
}

/// A block's size and its *pseudo-liberties*: every pair of a stone and an empty neighbour, counted,
/// summed and summed in squares (by the points' indices). No liberties when the count is 0; one
/// liberty exactly when every pair names the same point, which is when count × squares = sum²
/// (Cauchy–Schwarz), and it is then sum / count. So "captured?" and "in atari?" are answered without
/// a flood fill: the fills cost a third of a 19x19 playout (issue 35, docs/robot.md).
#[derive(Debug, Clone, Copy, Default)]
struct Block {
    size: u32,
    count: u64,
    sum: u64,
    squares: u64,
}

impl Block {
    fn add(&mut self, liberty: usize) {
        let e = liberty as u64;
        self.count += 1;
        self.sum += e;
        self.squares += e * e;
    }

    fn remove(&mut self, liberty: usize) {
        let e = liberty as u64;
        self.count -= 1;
        self.sum -= e;
        self.squares -= e * e;
    }

    /// The block's one liberty, if it has exactly one.
    fn only_liberty(&self) -> Option<usize> {
        (self.count > 0 && self.count * self.squares == self.sum * self.sum)
            .then(|| (self.sum / self.count) as usize)
    }
}

/// Why a placement is illegal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Illegal {
    /// The point holds a stone.
    Occupied,
    /// The stone's block would have no liberty and captures nothing.
    Suicide,
    /// The board after it was seen before.
    Superko,
}

impl Goban {
    /// An empty board of `n` × `n`.
    pub fn new(n: usize) -> Goban {
        let stride = n + 2;
        let mut cells = vec![EDGE; stride * stride];
        for r in 0..n {
            for c in 0..n {
                cells[(r + 1) * stride + c + 1] = EMPTY;
            }
        }
        let mut seen = Seen::default();
        seen.insert(0);
        let points = cells.len();
        Goban {
            n,
            cells,
            hash: 0,
            seen,
            head: vec![0; points],
            next: vec![0; points],
            blocks: vec![Block::default(); points],
        }
    }

    fn stride(&self) -> usize {
        self.n + 2
    }

    /// The point of column `c` and row `r`, both 0-based (row 0 at the bottom).
    pub fn point(&self, c: usize, r: usize) -> usize {
        (r + 1) * self.stride() + c + 1
    }

    /// Column and row (0-based) of a point.
    pub fn coords(&self, p: usize) -> (usize, usize) {
        (p % self.stride() - 1, p / self.stride() - 1)
    }

    /// Every point on the board, a1 first, row by row.
    pub fn points(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.n).flat_map(move |r| (0..self.n).map(move |c| self.point(c, r)))
    }

    /// What the point holds.
    pub fn at(&self, p: usize) -> u8 {
        self.cells[p]
    }

    fn neighbours(&self, p: usize) -> [usize; 4] {
        let s = self.stride();
        [p - 1, p + 1, p - s, p + s]
    }

    /// The point's GTP name: `d4`, `k10`.
    pub fn name(&self, p: usize) -> String {
        let (c, r) = self.coords(p);
        format!("{}{}", LETTERS[c] as char, r + 1)
    }

    /// Reads a point's name (lower case, no spaces); the error says what was wrong.
    pub fn read(&self, text: &str) -> Result<usize, String> {
        let mut chars = text.chars();
        let letter = chars
            .next()
            .ok_or("the move is empty: write a point such as d4, or pass")?;
        if letter == 'i' {
            return Err(format!(
                "'{text}': Go's columns skip the letter i (h is followed by j)"
            ));
        }
        let col = LETTERS
            .iter()
            .position(|&l| l as char == letter)
            .ok_or_else(|| {
                format!("'{text}' is not a point: write a column letter and a row, such as d4")
            })?;
        let digits = chars.as_str();
        if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
            return Err(format!(
                "'{text}' is not a point: write a column letter and a row, such as d4"
            ));
        }
        if digits.starts_with('0') {
            return Err(format!(
                "'{text}': rows count from 1 and have no leading zero"
            ));
        }
        let row: usize = digits
            .parse()
            .map_err(|_| format!("'{text}' is off the board"))?;
        if col >= self.n || row == 0 || row > self.n {
            return Err(format!(
                "{text} is off the board: this board's points run from a1 to {}{}",
                LETTERS[self.n - 1] as char,
                self.n
            ));
        }
        Ok(self.point(col, row - 1))
    }

    /// Puts a stone without any rule (handicap stones), and records the board as seen.
    pub fn setup(&mut self, p: usize, colour: u8) {
        self.put(p, colour);
        self.hash ^= key(p, colour);
        self.seen.insert(self.hash);
    }

    /// Room for `more` boards seen: a playout's hundred-odd moves otherwise grow the set several
    /// times over.
    pub fn reserve(&mut self, more: usize) {
        self.seen.reserve(more);
    }

    /// The position's Zobrist key (the stones on the board, not whose turn it is): what the
    /// superko rule compares, and what a playout's list of empty points is kept for.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The empty points, row by row, into `out` (cleared first).
    pub fn empty_points(&self, out: &mut Vec<usize>) {
        out.clear();
        let s = self.stride();
        for r in 1..=self.n {
            for p in r * s + 1..=r * s + self.n {
                if self.cells[p] == EMPTY {
                    out.push(p);
                }
            }
        }
    }

    /// The one liberty of the block on the stone `q`, if it has exactly one (in atari).
    pub fn only_liberty(&self, q: usize) -> Option<usize> {
        self.blocks[usize::from(self.head[q])].only_liberty()
    }

    /// True when the block on the stone `q` has no liberty but `p` (or none at all).
    fn breathes_only_at(&self, q: usize, p: usize) -> bool {
        let block = &self.blocks[usize::from(self.head[q])];
        block.count == 0 || block.only_liberty() == Some(p)
    }

    /// The stones of the block whose head is `h`, round its ring.
    fn ring(&self, h: usize) -> impl Iterator<Item = usize> + '_ {
        let mut at = Some(h);
        std::iter::from_fn(move || {
            let s = at?;
            let next = usize::from(self.next[s]);
            at = (next != h).then_some(next);
            Some(s)
        })
    }

    /// Whether `colour` may place on `p` (4.2, 4.3, 4.4), worked out without placing: the enemy
    /// blocks whose only liberty is `p` come off, the stone lives if it touches an empty point,
    /// captures, or joins a block with another liberty, and the board after it must be new (its
    /// hash computed, not the board copied). On success: the hash after it and the heads of the
    /// blocks it captures.
    fn check(&self, p: usize, colour: u8) -> Result<(u64, ArrayVec<usize, 4>), Illegal> {
        if self.cells[p] != EMPTY {
            return Err(Illegal::Occupied);
        }
        let enemy = 3 - colour;
        let around = self.neighbours(p);
        let mut taken: ArrayVec<usize, 4> = ArrayVec::new();
        let mut hash = self.hash ^ key(p, colour);
        for q in around {
            let h = usize::from(self.head[q]);
            if self.cells[q] == enemy && !taken.contains(&h) && self.breathes_only_at(q, p) {
                for s in self.ring(h) {
                    hash ^= key(s, enemy);
                }
                taken.push(h);
            }
        }
        let lives = !taken.is_empty()
            || around.iter().any(|&q| self.cells[q] == EMPTY)
            || around
                .iter()
                .any(|&q| self.cells[q] == colour && !self.breathes_only_at(q, p));
        if !lives {
            return Err(Illegal::Suicide);
        }
        if self.seen.contains(&hash) {
            return Err(Illegal::Superko);
        }
        Ok((hash, taken))
    }

    /// Places a stone of `colour` on `p` by the rules of 4.2 and 4.3; returns the number of stones
    /// captured, or why it is illegal (the board is then unchanged).
    pub fn place(&mut self, p: usize, colour: u8) -> Result<u32, Illegal> {
        let (hash, taken) = self.check(p, colour)?;
        self.put(p, colour);
        let captured = taken.into_iter().map(|h| self.take_off(h)).sum();
        self.hash = hash;
        self.seen.insert(hash);
        Ok(captured)
    }

    /// True when `colour` may place on `p`.
    pub fn legal(&self, p: usize, colour: u8) -> bool {
        self.check(p, colour).is_ok()
    }

    /// A stone on the empty `p`, joined to its own neighbours' blocks, with no rule and nothing
    /// captured (the hash is the caller's).
    fn put(&mut self, p: usize, colour: u8) {
        self.cells[p] = colour;
        self.head[p] = p as u16;
        self.next[p] = p as u16;
        self.blocks[p] = Block {
            size: 1,
            ..Block::default()
        };
        for q in self.neighbours(p) {
            match self.cells[q] {
                EMPTY => self.blocks[p].add(q),
                // Each stone next to `p` counted `p` once among its block's pseudo-liberties.
                BLACK | WHITE => self.blocks[usize::from(self.head[q])].remove(p),
                _ => {}
            }
        }
        for q in self.neighbours(p) {
            if self.cells[q] == colour && self.head[q] != self.head[p] {
                self.join(usize::from(self.head[p]), usize::from(self.head[q]));
            }
        }
    }

    /// Joins the blocks of heads `a` and `b`: the smaller's stones take the larger's head.
    fn join(&mut self, a: usize, b: usize) {
        let (big, small) = if self.blocks[a].size >= self.blocks[b].size {
            (a, b)
        } else {
            (b, a)
        };
        // Round the ring by index: a collected copy of the stones cost a 5 KB move a join.
        let mut s = small;
        loop {
            self.head[s] = big as u16;
            s = usize::from(self.next[s]);
            if s == small {
                break;
            }
        }
        self.next.swap(big, small);
        let s = self.blocks[small];
        let g = &mut self.blocks[big];
        g.size += s.size;
        g.count += s.count;
        g.sum += s.sum;
        g.squares += s.squares;
    }

    /// Takes off the block of head `h` (the hash is the caller's); returns its size. Each stone
    /// becomes a pseudo-liberty of the blocks it touched.
    fn take_off(&mut self, h: usize) -> u32 {
        let mut size = 0;
        let mut s = h;
        loop {
            self.cells[s] = EMPTY;
            size += 1;
            s = usize::from(self.next[s]);
            if s == h {
                break;
            }
        }
        loop {
            for q in self.neighbours(s) {
                if matches!(self.cells[q], BLACK | WHITE) {
                    self.blocks[usize::from(self.head[q])].add(s);
                }
            }
            s = usize::from(self.next[s]);
            if s == h {
                break;
            }
        }
        size
    }

    /// Tromp–Taylor area: (Black's points, White's points), stones plus empty regions that reach
    /// only that colour.
    pub fn area(&self) -> (u32, u32) {
        let mut score = [0u32; 3];
        let mut seen = vec![false; self.cells.len()];
        let mut region = Vec::new();
        for p in self.points() {
            match self.cells[p] {
                EMPTY if !seen[p] => {
                    region.clear();
                    region.push(p);
                    seen[p] = true;
                    let mut reaches = [false; 3];
                    let mut i = 0;
                    while i < region.len() {
                        for q in self.neighbours(region[i]) {
                            match self.cells[q] {
                                EMPTY if !seen[q] => {
                                    seen[q] = true;
                                    region.push(q);
                                }
                                c @ (BLACK | WHITE) => reaches[c as usize] = true,
                                _ => {}
                            }
                        }
                        i += 1;
                    }
                    match (reaches[1], reaches[2]) {
                        (true, false) => score[1] += region.len() as u32,
                        (false, true) => score[2] += region.len() as u32,
                        _ => {}
                    }
                }
                c @ (BLACK | WHITE) => score[c as usize] += 1,
                _ => {}
            }
        }
        (score[1], score[2])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A block by a flood fill over the cells: its stones and its distinct liberties (the way the
    /// board answered before it kept its blocks).
    fn filled(g: &Goban, p: usize) -> (Vec<usize>, Vec<usize>) {
        let colour = g.cells[p];
        let (mut stones, mut libs) = (vec![p], Vec::new());
        let mut i = 0;
        while i < stones.len() {
            for q in g.neighbours(stones[i]) {
                if g.cells[q] == EMPTY && !libs.contains(&q) {
                    libs.push(q);
                } else if g.cells[q] == colour && !stones.contains(&q) {
                    stones.push(q);
                }
            }
            i += 1;
        }
        (stones, libs)
    }

    /// The rules by fills on a copy: occupied, captures (blocks left with no liberty), suicide,
    /// positional superko.
    fn placed_by_fills(g: &Goban, p: usize, colour: u8) -> Result<u32, Illegal> {
        if g.cells[p] != EMPTY {
            return Err(Illegal::Occupied);
        }
        let mut cells = g.cells.clone();
        cells[p] = colour;
        let mut hash = g.hash ^ key(p, colour);
        let copy = |cells: &Vec<u8>| Goban {
            cells: cells.clone(),
            ..g.clone()
        };
        let mut captured = 0;
        for q in g.neighbours(p) {
            if cells[q] == 3 - colour {
                let (stones, libs) = filled(&copy(&cells), q);
                if libs.is_empty() {
                    for s in stones {
                        cells[s] = EMPTY;
                        hash ^= key(s, 3 - colour);
                        captured += 1;
                    }
                }
            }
        }
        if filled(&copy(&cells), p).1.is_empty() {
            return Err(Illegal::Suicide);
        }
        if g.seen.contains(&hash) {
            return Err(Illegal::Superko);
        }
        Ok(captured)
    }

    /// The blocks the board keeps (head, ring, size, pseudo-liberties) agree with flood fills, and
    /// its placing with the rules by fills, at every point after every move of random games on
    /// 5x5, 9x9 and 19x19 (small boards for many captures and ko, the large one for long blocks).
    /// Seen failing with a captured stone given back to no neighbour's liberties, and with a block
    /// next to the stone on two sides counted as captured twice.
    #[test]
    fn kept_blocks_agree_with_flood_fills_through_random_games() {
        let mut seed = 12_345u64;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((seed >> 33) as usize) % n
        };
        let (mut captures, mut refusals) = (0, 0);
        for (size, games, moves) in [(5, 40, 120), (9, 6, 250), (19, 1, 500)] {
            for _ in 0..games {
                let mut g = Goban::new(size);
                let mut colour = BLACK;
                for _ in 0..moves {
                    let points: Vec<usize> = g.points().collect();
                    for &p in &points {
                        if g.cells[p] == EMPTY {
                            for c in [BLACK, WHITE] {
                                let want = placed_by_fills(&g, p, c);
                                assert_eq!(g.legal(p, c), want.is_ok(), "legal {} {c}", g.name(p));
                                assert_eq!(g.check(p, c).err(), want.err());
                            }
                            continue;
                        }
                        let (stones, libs) = filled(&g, p);
                        let size = g.blocks[usize::from(g.head[p])].size as usize;
                        assert_eq!(size, stones.len(), "size at {}", g.name(p));
                        let want = (libs.len() == 1).then(|| libs[0]);
                        assert_eq!(g.only_liberty(p), want, "liberty at {}", g.name(p));
                        let mut ring: Vec<usize> = g.ring(usize::from(g.head[p])).collect();
                        let mut fill = stones.clone();
                        ring.sort_unstable();
                        fill.sort_unstable();
                        assert_eq!(ring, fill, "the ring of {}", g.name(p));
                    }
                    let open: Vec<usize> =
                        points.into_iter().filter(|&p| g.legal(p, colour)).collect();
                    if open.is_empty() {
                        break;
                    }
                    let p = open[next(open.len())];
                    let want = placed_by_fills(&g, p, colour);
                    let got = g.place(p, colour);
                    assert_eq!(got, want);
                    captures += usize::from(got.is_ok_and(|c| c > 0));
                    colour = 3 - colour;
                }
                // Superko refusals, seen by trying every point for both colours once more.
                refusals += g
                    .points()
                    .filter(|&p| {
                        [BLACK, WHITE]
                            .iter()
                            .any(|&c| g.check(p, c) == Err(Illegal::Superko))
                    })
                    .count();
            }
        }
        // The games must have exercised what the blocks are for.
        assert!(captures > 200, "captures {captures}");
        assert!(refusals > 0, "superko refusals {refusals}");
    }

    #[test]
    fn names_skip_i_and_refuse_bad_points() {
        let g = Goban::new(19);
        let p = g.read("j9").unwrap();
        assert_eq!(g.coords(p), (8, 8));
        assert_eq!(g.name(p), "j9");
        assert_eq!(g.name(g.read("t19").unwrap()), "t19");
        assert!(g.read("i5").unwrap_err().contains("skip the letter i"));
        assert!(g.read("a0").is_err() && g.read("a05").is_err());
        assert!(g.read("u1").unwrap_err().contains("off the board"));
        assert!(g.read("a20").is_err());
    }

    #[test]
    fn capture_comes_before_suicide_and_ko_is_positional() {
        // 3×3: Black b1 a2 c2 b3? Build a ko: Black a2 b1 c2; White b3? Use a simple ko shape.
        let mut g = Goban::new(4);
        let p = |g: &Goban, s: &str| g.read(s).unwrap();
        for (s, c) in [
            ("b1", BLACK),
            ("a2", BLACK),
            ("b3", BLACK),
            ("c1", WHITE),
            ("d2", WHITE),
            ("c3", WHITE),
        ] {
            let q = p(&g, s);
            g.place(q, c).unwrap();
        }
        // White c2 then Black... Black plays c2: surrounded by c1 d2 c3 (white) and b2 empty.
        let b2 = p(&g, "b2");
        let c2 = p(&g, "c2");
        g.place(c2, BLACK).unwrap();
        // White b2 captures c2? b2's neighbours: a2 b1 b3 black, c2 black: White b2 would be
        // suicide unless it captures c2 (c2's liberties: only b2) -> it captures.
        assert_eq!(g.place(b2, WHITE), Ok(1));
        // Black retaking on c2 would recreate the board before White's b2: superko.
        assert_eq!(g.place(c2, BLACK), Err(Illegal::Superko));
        assert_eq!(g.place(b2, BLACK), Err(Illegal::Occupied));
        // White a1 takes b1 (its last liberty, b2 and c1 being White): capture before suicide.
        let a1 = p(&g, "a1");
        assert_eq!(g.place(a1, WHITE), Ok(1));

        // A true suicide on a fresh 3×3: White a1 against Black a2 and b1, capturing nothing.
        let mut g = Goban::new(3);
        for s in ["a2", "b1"] {
            let q = p(&g, s);
            g.place(q, BLACK).unwrap();
        }
        let a1 = p(&g, "a1");
        assert!(!g.legal(a1, WHITE));
        assert_eq!(g.place(a1, WHITE), Err(Illegal::Suicide));
        assert!(g.legal(a1, BLACK));
    }

    #[test]
    fn tromp_taylor_area() {
        let mut g = Goban::new(3);
        assert_eq!(g.area(), (0, 0), "an empty board is nobody's");
        let b2 = g.read("b2").unwrap();
        g.place(b2, BLACK).unwrap();
        assert_eq!(g.area(), (9, 0));
        let a1 = g.read("a1").unwrap();
        g.place(a1, WHITE).unwrap();
        // The remaining empty region touches both: dame.
        assert_eq!(g.area(), (1, 1));
    }

    #[test]
    fn legal_agrees_with_placing_on_a_copy() {
        // Long random games on small boards reach captures, suicides and superko repetitions.
        let mut x = 0x9e37_79b9u64;
        let (mut refused, mut ko) = (0, 0);
        for n in [2, 3, 4] {
            for _ in 0..60 {
                let mut g = Goban::new(n);
                let mut colour = BLACK;
                for _ in 0..80 {
                    let pts: Vec<usize> = g.points().collect();
                    let mut legal = Vec::new();
                    for &p in &pts {
                        let placed = g.clone().place(p, colour);
                        assert_eq!(
                            g.legal(p, colour),
                            placed.is_ok(),
                            "{n}x{n} at {}",
                            g.name(p)
                        );
                        match placed {
                            Ok(_) => legal.push(p),
                            Err(Illegal::Superko) => ko += 1,
                            Err(Illegal::Suicide) => refused += 1,
                            Err(Illegal::Occupied) => {}
                        }
                    }
                    if !legal.is_empty() {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        let p = legal[(x % legal.len() as u64) as usize];
                        g.place(p, colour).unwrap();
                    }
                    colour = 3 - colour;
                }
            }
        }
        assert!(
            refused > 0 && ko > 0,
            "suicides {refused}, superko {ko}: both were tried"
        );
    }
}

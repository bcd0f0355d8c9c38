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
        Goban {
            n,
            cells,
            hash: 0,
            seen,
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
        self.cells[p] = colour;
        self.hash ^= key(p, colour);
        self.seen.insert(self.hash);
    }

    /// Room for `more` boards seen: a playout's hundred-odd moves otherwise grow the set several
    /// times over.
    pub fn reserve(&mut self, more: usize) {
        self.seen.reserve(more);
    }

    /// True when the stone on `p` touches an empty point: its block has a liberty without a search.
    fn breathes(&self, p: usize) -> bool {
        self.neighbours(p).iter().any(|&q| self.cells[q] == EMPTY)
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

    /// Whether the block of the stone on `p` has a liberty other than `except` (a point about to be
    /// filled; 0, a border point, for none); when it has none, its stones are in `stones`.
    fn block(&self, p: usize, except: usize, stones: &mut Vec<usize>) -> bool {
        let colour = self.cells[p];
        // The fill runs on the stack (25 × 25 stones at most) and reaches `stones` only for a
        // block without a liberty: an allocation per test cost more than the test. An ArrayVec,
        // not a zeroed array: most fills stop at the first liberty, and zeroing 1,250 bytes cost
        // them more than the fill (a memset was 3 % of a 19x19 playout's instructions).
        let mut found: ArrayVec<u16, 625> = ArrayVec::new();
        found.push(p as u16);
        // Seen points as bits on the stack: 27 × 27 points at most, 12 words.
        let mut mark = [0u64; 12];
        let mut seen = |q: usize| {
            let (w, b) = (q / 64, 1u64 << (q % 64));
            let was = mark[w] & b != 0;
            mark[w] |= b;
            was
        };
        seen(p);
        let mut i = 0;
        while i < found.len() {
            for q in self.neighbours(usize::from(found[i])) {
                match self.cells[q] {
                    // One liberty settles it: the callers want the stones only of a block
                    // without one (to take it off), so the fill stops here.
                    EMPTY if q != except => return true,
                    c if c == colour && !seen(q) => found.push(q as u16),
                    _ => {}
                }
            }
            i += 1;
        }
        stones.clear();
        stones.extend(found.iter().map(|&s| usize::from(s)));
        false
    }

    /// Places a stone of `colour` on `p` by the rules of 4.2 and 4.3; returns the number of stones
    /// captured, or why it is illegal (the board is then unchanged).
    pub fn place(&mut self, p: usize, colour: u8) -> Result<u32, Illegal> {
        if self.cells[p] != EMPTY {
            return Err(Illegal::Occupied);
        }
        let before = self.hash;
        self.cells[p] = colour;
        self.hash ^= key(p, colour);
        let enemy = 3 - colour;
        let mut stones = Vec::new();
        // The stones taken off, to put back if the move proves illegal.
        let mut taken: Vec<usize> = Vec::new();
        for q in self.neighbours(p) {
            if self.cells[q] == enemy && !self.breathes(q) && !self.block(q, 0, &mut stones) {
                for &s in &stones {
                    self.cells[s] = EMPTY;
                    self.hash ^= key(s, enemy);
                }
                taken.extend_from_slice(&stones);
            }
        }
        let captured = taken.len() as u32;
        let why = if !self.breathes(p) && !self.block(p, 0, &mut stones) {
            Some(Illegal::Suicide)
        } else if self.seen.contains(&self.hash) {
            Some(Illegal::Superko)
        } else {
            None
        };
        if let Some(why) = why {
            self.cells[p] = EMPTY;
            for s in taken {
                self.cells[s] = enemy;
            }
            self.hash = before;
            return Err(why);
        }
        self.seen.insert(self.hash);
        Ok(captured)
    }

    /// True when `colour` may place on `p` (tried on a copy).
    pub fn legal(&self, p: usize, colour: u8) -> bool {
        if self.cells[p] != EMPTY {
            return false;
        }
        // Worked out without placing: the enemy blocks whose last liberty is `p` come off, the
        // stone lives if it touches an empty point, captures, or joins a block with another
        // liberty, and the board after it must be new (its hash computed, not the board copied).
        let enemy = 3 - colour;
        let around = self.neighbours(p);
        let mut stones = Vec::new();
        let mut taken: Vec<usize> = Vec::new();
        let mut hash = self.hash ^ key(p, colour);
        // A block with a stone touching an empty point other than `p` keeps a liberty: most
        // blocks are settled so, without a flood fill (they cost most of a playout before).
        for q in around {
            if self.cells[q] == enemy
                && !taken.contains(&q)
                && !self.breathes_besides(q, p)
                && !self.block(q, p, &mut stones)
            {
                for &s in &stones {
                    hash ^= key(s, enemy);
                }
                taken.extend_from_slice(&stones);
            }
        }
        let lives = !taken.is_empty()
            || around.iter().any(|&q| self.cells[q] == EMPTY)
            || around.iter().any(|&q| {
                self.cells[q] == colour
                    && (self.breathes_besides(q, p) || self.block(q, p, &mut stones))
            });
        lives && !self.seen.contains(&hash)
    }

    /// True when the stone on `q` touches an empty point other than `p`.
    fn breathes_besides(&self, q: usize, p: usize) -> bool {
        self.neighbours(q)
            .iter()
            .any(|&r| r != p && self.cells[r] == EMPTY)
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

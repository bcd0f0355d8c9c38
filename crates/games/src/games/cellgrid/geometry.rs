//! The two boards of `ataxx-rules.md` section 1: Ataxx's square board (chess-like names, king-move
//! distance) and Hexxagon's hexagon (Abalone names, hex distance). Everything the rules need of a board
//! is precomputed here once per size: cell names, and for every cell the cells at distance 1 and at
//! distance exactly 2 as bit sets, so the rules never compute a distance while playing.

use std::sync::{Arc, Mutex};

use super::bits::Bits;

/// Which board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// `ataxx`: N × N squares, files `a..` from the left, ranks `1..N` from the bottom.
    Square,
    /// `hexxagon`: a hexagon of side n, rows `a..` from the bottom, numbers along the diagonals.
    Hexagon,
}

/// One board size: its cells and their neighbourhoods.
#[derive(Debug, Clone)]
pub struct Geometry {
    /// The board.
    pub shape: Shape,
    /// `-size`: N (Ataxx) or the side n (Hexxagon).
    pub size: u8,
    /// Each cell's (row, column) coordinates, 1-based: Ataxx (rank, file); Hexxagon (row r, number d).
    pub coords: Vec<(i8, i8)>,
    /// The cells at distance 1 of each cell.
    pub near: Vec<Bits>,
    /// The cells at distance exactly 2 of each cell.
    pub far: Vec<Bits>,
    /// Every cell.
    pub all: Bits,
    /// For each cell, the neighbour in each of [`Geometry::directions`] (cell × direction,
    /// flattened), `None` off the board.
    toward: Vec<Option<usize>>,
}

/// Hexxagon's six directions as (row, number) steps, the page's neighbours in this order: east
/// (0, +1), north-east (+1, +1), north-west (+1, 0), west (0, −1), south-west (−1, −1), south-east
/// (−1, 0), as drawn with row a at the bottom. Direction `k + 3` is the opposite of `k`.
pub const HEX_DIRECTIONS: [(i8, i8); 6] = [(0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0)];

/// Ataxx's eight king steps as (rank, file) steps, anticlockwise from east; `k + 4` is the
/// opposite of `k`.
pub const SQUARE_DIRECTIONS: [(i8, i8); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// The boards built so far, one per shape and size: a board is built once per process, not once
/// per game (random playouts start thousands of games).
static BUILT: Mutex<Vec<Arc<Geometry>>> = Mutex::new(Vec::new());

impl Geometry {
    /// The board of this shape and size, shared.
    pub fn shared(shape: Shape, size: u8) -> Arc<Geometry> {
        let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(g) = built.iter().find(|g| g.shape == shape && g.size == size) {
            return g.clone();
        }
        let g = Arc::new(Geometry::new(shape, size));
        built.push(g.clone());
        g
    }

    /// The board of this shape and size (the size already checked by the options).
    pub fn new(shape: Shape, size: u8) -> Geometry {
        let n = i8::try_from(size).expect("sizes are small");
        let mut coords = Vec::new();
        match shape {
            Shape::Square => {
                for rank in 1..=n {
                    for file in 1..=n {
                        coords.push((rank, file));
                    }
                }
            }
            Shape::Hexagon => {
                for r in 1..=2 * n - 1 {
                    for d in 1..=2 * n - 1 {
                        if (r - d).abs() < n {
                            coords.push((r, d));
                        }
                    }
                }
            }
        }
        let distance = |a: (i8, i8), b: (i8, i8)| -> i8 {
            let (dr, dc) = (b.0 - a.0, b.1 - a.1);
            match shape {
                Shape::Square => dr.abs().max(dc.abs()),
                Shape::Hexagon => dr.abs().max(dc.abs()).max((dr - dc).abs()),
            }
        };
        let mut near = vec![Bits::EMPTY; coords.len()];
        let mut far = vec![Bits::EMPTY; coords.len()];
        let mut all = Bits::EMPTY;
        for (i, &a) in coords.iter().enumerate() {
            all.set(i);
            for (j, &b) in coords.iter().enumerate() {
                match distance(a, b) {
                    1 => near[i].set(j),
                    2 => far[i].set(j),
                    _ => {}
                }
            }
        }
        let dirs = match shape {
            Shape::Square => &SQUARE_DIRECTIONS[..],
            Shape::Hexagon => &HEX_DIRECTIONS[..],
        };
        let toward = coords
            .iter()
            .flat_map(|&(r, c)| dirs.iter().map(move |&(dr, dc)| (r + dr, c + dc)))
            .map(|(r, c)| coords.iter().position(|&x| x == (r, c)))
            .collect();
        Geometry {
            shape,
            size,
            coords,
            near,
            far,
            all,
            toward,
        }
    }

    /// The steps to a neighbour on this board: [`HEX_DIRECTIONS`] or [`SQUARE_DIRECTIONS`].
    pub fn directions(&self) -> &'static [(i8, i8)] {
        match self.shape {
            Shape::Square => &SQUARE_DIRECTIONS,
            Shape::Hexagon => &HEX_DIRECTIONS,
        }
    }

    /// The neighbour of `cell` one step in direction `dir` (an index into
    /// [`Geometry::directions`]), if it is on the board.
    pub fn step(&self, cell: usize, dir: usize) -> Option<usize> {
        self.toward[cell * self.directions().len() + dir]
    }

    /// The number of cells.
    pub fn cells(&self) -> usize {
        self.coords.len()
    }

    /// The cell at these coordinates, if it is on the board.
    pub fn at(&self, row: i8, col: i8) -> Option<usize> {
        self.coords.iter().position(|&c| c == (row, col))
    }

    /// A cell's name: `a1`, `g7` (Ataxx: file letter, rank); `e9` (Hexxagon: row letter, number).
    pub fn name(&self, cell: usize) -> String {
        let (row, col) = self.coords[cell];
        match self.shape {
            Shape::Square => format!("{}{}", letter(col), row),
            Shape::Hexagon => format!("{}{}", letter(row), col),
        }
    }

    /// Reads a cell name (lower case, no spaces: the caller has normalised it) from the start of
    /// `text`; returns the cell and the rest of the text.
    pub fn read_cell<'t>(&self, text: &'t str) -> Result<(usize, &'t str), String> {
        let mut chars = text.char_indices();
        let Some((_, l)) = chars.next().filter(|(_, c)| c.is_ascii_lowercase()) else {
            return Err(format!("'{text}' does not start with a cell's letter"));
        };
        let digits_end = text[1..]
            .find(|c: char| !c.is_ascii_digit())
            .map_or(text.len(), |i| i + 1);
        let digits = &text[1..digits_end];
        if digits.is_empty() {
            return Err(format!(
                "'{text}': a cell is a letter and a number, such as a1"
            ));
        }
        if digits.starts_with('0') {
            return Err(format!("'{text}': a cell's number has no leading zero"));
        }
        let number: i8 = digits
            .parse()
            .map_err(|_| format!("'{text}': no cell has the number {digits}"))?;
        let letter_no = (l as u8 - b'a' + 1) as i8;
        let cell = match self.shape {
            Shape::Square => self.at(number, letter_no),
            Shape::Hexagon => self.at(letter_no, number),
        };
        match cell {
            Some(c) => Ok((c, &text[digits_end..])),
            None => Err(format!(
                "there is no cell {l}{digits} on this board ({})",
                self.extent()
            )),
        }
    }

    /// The board's cells in words, for errors: `a1 to g7`.
    pub fn extent(&self) -> String {
        match self.shape {
            Shape::Square => format!(
                "files a to {}, ranks 1 to {}",
                letter(self.size as i8),
                self.size
            ),
            Shape::Hexagon => {
                let n = self.size as i8;
                format!(
                    "rows a to {}, row a holds a1 to a{n}, the middle row {}1 to {}{}",
                    letter(2 * n - 1),
                    letter(n),
                    letter(n),
                    2 * n - 1
                )
            }
        }
    }
}

/// The letter of a 1-based file or row.
fn letter(i: i8) -> char {
    (b'a' + i as u8 - 1) as char
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_square_board_names_cells_like_chess() {
        let g = Geometry::new(Shape::Square, 7);
        assert_eq!(g.cells(), 49);
        assert_eq!(g.name(0), "a1");
        assert_eq!(g.name(48), "g7");
        let (c, rest) = g.read_cell("c3d5").unwrap();
        assert_eq!((g.name(c).as_str(), rest), ("c3", "d5"));
        assert!(g.read_cell("h1").unwrap_err().contains("no cell h1"));
        assert!(g.read_cell("a0").is_err());
        assert!(g.read_cell("a01").is_err());
        // A corner has 3 cells at distance 1 and 5 at distance 2; a centre cell 8 and 16.
        let a1 = g.at(1, 1).unwrap();
        assert_eq!((g.near[a1].count(), g.far[a1].count()), (3, 5));
        let d4 = g.at(4, 4).unwrap();
        assert_eq!((g.near[d4].count(), g.far[d4].count()), (8, 16));
    }

    #[test]
    fn the_hexagon_is_an_abalone_board() {
        let g = Geometry::new(Shape::Hexagon, 5);
        assert_eq!(g.cells(), 61);
        let names: Vec<String> = (0..g.cells()).map(|c| g.name(c)).collect();
        assert_eq!(&names[..5], ["a1", "a2", "a3", "a4", "a5"]);
        assert!(names.contains(&"e9".to_string()) && names.contains(&"i5".to_string()));
        assert!(!names.contains(&"a6".to_string()) && !names.contains(&"i4".to_string()));
        let e5 = g.at(5, 5).unwrap();
        assert_eq!((g.near[e5].count(), g.far[e5].count()), (6, 12));
        // The neighbours the page names: (r, d±1), (r±1, d), (r+1, d+1), (r−1, d−1).
        let want = [(5, 4), (5, 6), (4, 5), (6, 5), (6, 6), (4, 4)];
        for (r, d) in want {
            assert!(g.near[e5].has(g.at(r, d).unwrap()), "({r},{d})");
        }
        assert!(!g.near[e5].has(g.at(6, 4).unwrap()));
        assert_eq!(Geometry::new(Shape::Hexagon, 9).cells(), 217);
        let g9 = Geometry::new(Shape::Hexagon, 9);
        let (c, rest) = g9.read_cell("f10e9").unwrap();
        assert_eq!((g9.name(c).as_str(), rest), ("f10", "e9"));
    }

    #[test]
    fn a_step_in_a_direction_is_a_neighbour_or_off_the_board() {
        for (shape, size) in [(Shape::Hexagon, 4), (Shape::Hexagon, 7), (Shape::Square, 7)] {
            let g = Geometry::new(shape, size);
            let dirs = g.directions().len();
            for c in 0..g.cells() {
                // The steps that stay on the board are exactly the cells at distance 1, once each,
                // and a step back in the opposite direction returns.
                let mut seen = Bits::EMPTY;
                for k in 0..dirs {
                    if let Some(to) = g.step(c, k) {
                        assert!(g.near[c].has(to) && !seen.has(to));
                        seen.set(to);
                        assert_eq!(g.step(to, (k + dirs / 2) % dirs), Some(c));
                    }
                }
                assert_eq!(seen, g.near[c], "{shape:?} {}", g.name(c));
            }
        }
        let g = Geometry::new(Shape::Hexagon, 4);
        let at = |s: &str| g.read_cell(s).unwrap().0;
        let names: Vec<Option<String>> = (0..6)
            .map(|k| g.step(at("d4"), k).map(|c| g.name(c)))
            .collect();
        let want = ["d5", "e5", "e4", "d3", "c3", "c4"];
        assert_eq!(names, want.map(|s| Some(s.to_string())));
        assert_eq!(g.step(at("a1"), 3), None);
        assert_eq!(g.step(at("g7"), 1), None);
    }
}

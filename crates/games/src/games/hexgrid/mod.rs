//! Hex-grid geometry shared by the connection games (Hex, Chameleon, Y, Unlur).
//!
//! A [`Grid`] is any set of hexagonal cells named by `(column, row)` (both from 1), with the six
//! neighbour offsets of its game's coordinate system ([`HEX_NEIGHBOURS`] for the Hex rhombus,
//! [`Y_NEIGHBOURS`] for HexGui's Y triangle). Cells get dense indices `0..len()` in row-major order
//! (row 1 first, then by column), so a game keeps its stones in plain vectors; the neighbour table and
//! each cell's side flags are computed once. Cell names are a column letter and a row number (`a1`,
//! `c10`), read with white space deleted and in either case.
//!
//! [`Chains`] keeps the stones and their chains in a union-find that grows one stone at a time: each
//! chain's root carries the OR of its stones' side flags, so "does this chain join sides X and Y" is one
//! find and one mask test.

pub mod bridges;
mod chains;
pub mod draw;
mod empties;
pub mod playout;
pub mod rhombus;

pub use chains::{Chains, EMPTY};
pub use empties::Empties;

use std::fmt;
use std::sync::OnceLock;

use crate::games::RuleError;

/// A set of sides as bit flags: each game names its sides by bits (see [`TOP`]…[`RIGHT`] for the Hex
/// rhombus), at most eight.
pub type Sides = u8;

/// Whether cell `(c, r)` lies on a side, for [`Grid::new`].
pub type SideTest<'a> = dyn Fn(u8, u8) -> bool + 'a;

/// The six neighbour offsets `(dc, dr)` of Hex's rhombus (also Chameleon's and Unlur's): `(c±1, r)`,
/// `(c, r±1)`, `(c+1, r−1)`, `(c−1, r+1)`.
pub const HEX_NEIGHBOURS: [(i8, i8); 6] = [(-1, 0), (1, 0), (0, -1), (0, 1), (1, -1), (-1, 1)];

/// The six neighbour offsets of HexGui's Y triangle (row `r` holds columns `1..=r`): `(c±1, r)`,
/// `(c−1, r−1)`, `(c, r−1)`, `(c, r+1)`, `(c+1, r+1)`.
pub const Y_NEIGHBOURS: [(i8, i8); 6] = [(-1, 0), (1, 0), (-1, -1), (0, -1), (0, 1), (1, 1)];

/// The rhombus's top edge (row 1), Black's in Hex.
pub const TOP: Sides = 1;
/// The rhombus's bottom edge (row n), Black's in Hex.
pub const BOTTOM: Sides = 2;
/// The rhombus's left edge (column `a`), White's in Hex.
pub const LEFT: Sides = 4;
/// The rhombus's right edge (the last column), White's in Hex.
pub const RIGHT: Sides = 8;

/// The most columns a grid may have: one letter a column, `a` to `z`.
pub const MAX_COLUMNS: u8 = 26;

/// Marks a missing cell in [`Grid`]'s coordinate table.
const NONE: u16 = u16::MAX;

/// The cells of one board, their neighbours and sides. Built once per board shape and size (see
/// [`Grid::rhombus`] for a cached one); read-only afterwards.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    cols: u8,
    rows: u8,
    /// `(c, r)` → index, row-major over the bounding box `cols × rows`; [`NONE`] where no cell is.
    index: Vec<u16>,
    /// index → `(c, r)`.
    coords: Vec<(u8, u8)>,
    /// index → its neighbours' indices, padded with [`NONE`] after `degree` entries.
    neighbours: Vec<[u16; 6]>,
    degree: Vec<u8>,
    sides: Vec<Sides>,
}

impl Grid {
    /// A grid with the cells `(c, r)` of the box `1..=cols × 1..=rows` for which `exists(c, r)` holds,
    /// the game's six neighbour offsets, and `sides`: `(flag, is_on_side(c, r))` for each side the game
    /// names. Panics when `cols` exceeds [`MAX_COLUMNS`] (cell names have one letter).
    pub fn new(
        cols: u8,
        rows: u8,
        exists: impl Fn(u8, u8) -> bool,
        offsets: &[(i8, i8); 6],
        sides: &[(Sides, &SideTest<'_>)],
    ) -> Grid {
        assert!(cols <= MAX_COLUMNS, "a grid has at most 26 columns");
        let mut index = vec![NONE; cols as usize * rows as usize];
        let mut coords = Vec::new();
        for r in 1..=rows {
            for c in 1..=cols {
                if exists(c, r) {
                    index[(r as usize - 1) * cols as usize + (c as usize - 1)] =
                        coords.len() as u16;
                    coords.push((c, r));
                }
            }
        }
        let mut g = Grid {
            cols,
            rows,
            index,
            coords,
            neighbours: Vec::new(),
            degree: Vec::new(),
            sides: Vec::new(),
        };
        for &(c, r) in &g.coords {
            let mut row = [NONE; 6];
            let mut n = 0;
            for &(dc, dr) in offsets {
                let (nc, nr) = (c as i16 + dc as i16, r as i16 + dr as i16);
                if let Some(i) = g.lookup(nc, nr) {
                    row[n] = i as u16;
                    n += 1;
                }
            }
            g.neighbours.push(row);
            g.degree.push(n as u8);
            let flags = sides
                .iter()
                .filter(|(_, on)| on(c, r))
                .fold(0, |acc, (flag, _)| acc | flag);
            g.sides.push(flags);
        }
        g
    }

    /// The Hex rhombus of `n × n` cells with [`HEX_NEIGHBOURS`] and the sides [`TOP`], [`BOTTOM`],
    /// [`LEFT`], [`RIGHT`], built once per size and shared. `n` from 1 to [`MAX_COLUMNS`]; panics
    /// otherwise (games check their size option first).
    pub fn rhombus(n: u8) -> &'static Grid {
        static CACHE: [OnceLock<Grid>; MAX_COLUMNS as usize + 1] =
            [const { OnceLock::new() }; MAX_COLUMNS as usize + 1];
        assert!((1..=MAX_COLUMNS).contains(&n), "rhombus size 1..=26");
        CACHE[n as usize].get_or_init(|| {
            Grid::new(
                n,
                n,
                |_, _| true,
                &HEX_NEIGHBOURS,
                &[
                    (TOP, &|_, r| r == 1),
                    (BOTTOM, &|_, r| r == n),
                    (LEFT, &|c, _| c == 1),
                    (RIGHT, &|c, _| c == n),
                ],
            )
        })
    }

    fn lookup(&self, c: i16, r: i16) -> Option<usize> {
        if c < 1 || r < 1 || c > self.cols as i16 || r > self.rows as i16 {
            return None;
        }
        let i = self.index[(r as usize - 1) * self.cols as usize + (c as usize - 1)];
        (i != NONE).then_some(i as usize)
    }

    /// The number of cells.
    pub fn len(&self) -> usize {
        self.coords.len()
    }

    /// True for a grid without cells.
    pub fn is_empty(&self) -> bool {
        self.coords.is_empty()
    }

    /// The width of the bounding box (the highest column number).
    pub fn columns(&self) -> u8 {
        self.cols
    }

    /// The height of the bounding box (the highest row number).
    pub fn rows(&self) -> u8 {
        self.rows
    }

    /// The index of cell `(c, r)`, if the grid has it.
    pub fn cell(&self, c: u8, r: u8) -> Option<usize> {
        self.lookup(c as i16, r as i16)
    }

    /// The `(column, row)` of a cell index.
    pub fn coords(&self, cell: usize) -> (u8, u8) {
        self.coords[cell]
    }

    /// The indices of a cell's neighbours (up to six).
    #[inline]
    pub fn neighbours(&self, cell: usize) -> &[u16] {
        &self.neighbours[cell][..self.degree[cell] as usize]
    }

    /// The sides a cell lies on, as flags (a corner lies on two).
    #[inline]
    pub fn sides(&self, cell: usize) -> Sides {
        self.sides[cell]
    }

    /// The cell's name: column letter and row number, `a1`, `c10`.
    pub fn name(&self, cell: usize) -> String {
        let (c, r) = self.coords[cell];
        format!("{}{}", (b'a' + c - 1) as char, r)
    }

    /// Reads a cell name: every white-space character is deleted first and case does not matter
    /// (` C 1 0` is `c10`); the row has no leading zero, and the cell must be on this grid.
    pub fn parse(&self, text: &str) -> Result<usize, CellError> {
        let (c, r) = parse_coords(text)?;
        if c > self.cols as u32 || r > self.rows as u32 {
            return Err(CellError::OffBoard(cell_text(c, r)));
        }
        self.cell(c as u8, r as u8)
            .ok_or_else(|| CellError::OffBoard(cell_text(c, r)))
    }
}

/// A cell's name from its `(column, row)`: `c10`.
pub fn write_coords(c: u8, r: u8) -> String {
    format!("{}{}", (b'a' + c - 1) as char, r)
}

fn cell_text(c: u32, r: u32) -> String {
    format!("{}{}", (b'a' + c as u8 - 1) as char, r)
}

/// Reads a cell name to `(column, row)` without a grid: one letter (either case) then a number without
/// leading zero, white space deleted first. The numbers may be off any board; [`Grid::parse`] checks.
pub fn parse_coords(text: &str) -> Result<(u32, u32), CellError> {
    let s: String = text
        .chars()
        .filter(|ch| !ch.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect();
    let mut chars = s.chars();
    let letter = match chars.next() {
        None => return Err(CellError::Empty),
        Some(ch) if ch.is_ascii_lowercase() => ch,
        Some(_) => return Err(CellError::Malformed(s)),
    };
    let digits = chars.as_str();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(CellError::Malformed(s));
    }
    if digits.starts_with('0') {
        return Err(CellError::LeadingZero(s));
    }
    let r: u32 = digits
        .parse()
        .map_err(|_| CellError::Malformed(s.clone()))?;
    Ok((letter as u32 - 'a' as u32 + 1, r))
}

/// Reads a cell name to `(column, row)` for boards within `max` columns and rows (Hex's largest
/// rhombus, the box around Unlur's largest hexagon): a name beyond is a cell of no board of the
/// game and refused here; one off a smaller board is the rules' check to refuse.
pub fn read_cell(text: &str, max: u8) -> Result<(u8, u8), CellError> {
    let (c, r) = parse_coords(text)?;
    if c > u32::from(max) || r > u32::from(max) {
        return Err(CellError::OffBoard(cell_text(c, r)));
    }
    Ok((c as u8, r as u8))
}

/// Reads a connection game's move as a player writes it: white space deleted, either case; one
/// of the game's `words` (`swap`, `pass`, `resign`) is its move or its refusal, anything else is a
/// cell, which `cell` reads (its error names the game's notation).
pub fn read_move<M: Copy>(
    text: &str,
    words: &[(&str, Result<M, &str>)],
    cell: impl FnOnce(&str) -> Result<M, RuleError>,
) -> Result<M, RuleError> {
    let word: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect();
    match words.iter().find(|(w, _)| *w == word) {
        Some((_, Ok(mv))) => Ok(*mv),
        Some((_, Err(why))) => Err(RuleError((*why).to_string())),
        None => cell(&word),
    }
}

/// Why a text is not a cell of the board. Its `Display` is a sentence for players.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CellError {
    /// Nothing was written.
    Empty,
    /// Not a letter followed by a number (the text as read, white space deleted, lower case).
    Malformed(String),
    /// The row number starts with `0`.
    LeadingZero(String),
    /// A well-formed name of a cell that this board does not have.
    OffBoard(String),
}

impl fmt::Display for CellError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CellError::Empty => write!(
                f,
                "no cell given: write a cell as a column letter and a row number, like c3"
            ),
            CellError::Malformed(s) => write!(
                f,
                "'{s}' is not a cell: write a cell as one column letter and a row number, like c3 or c10"
            ),
            CellError::LeadingZero(s) => {
                let (letter, number) = s.split_at(1);
                let number = number.trim_start_matches('0');
                let number = if number.is_empty() { "1" } else { number };
                write!(
                    f,
                    "'{s}': a row number has no leading zero (write {letter}{number})"
                )
            }
            CellError::OffBoard(s) => write!(f, "there is no cell {s} on this board"),
        }
    }
}

#[cfg(test)]
mod tests;

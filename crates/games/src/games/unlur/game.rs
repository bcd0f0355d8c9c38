//! One position of Unlur: the contract phase, the main phase, the two goals and the end
//! (`unlur-rules.md` sections 4 to 6). The move list is [`crate::games::matchplay::Match`]'s.

use std::sync::OnceLock;

use crate::games::hexgrid::{CellError, Chains, Grid, HEX_NEIGHBOURS, Sides};
use crate::games::hexgrid::{read_cell, read_move, write_coords};
use crate::games::matchplay::{Match, Rules};
use crate::games::{GameOption, Outcome, RuleError};

/// The default side (8, section 3).
pub const DEFAULT_SIZE: u8 = 8;
/// The smallest side.
pub const MIN_SIZE: u8 = 3;
/// The largest side (its `2n − 1 = 25` columns have single letters).
pub const MAX_SIZE: u8 = 13;

/// The side `r = 1`.
pub const N: Sides = 1;
/// The side `c = 2n − 1`.
pub const NE: Sides = 2;
/// The side `c + r = 3n − 1`.
pub const SE: Sides = 4;
/// The side `r = 2n − 1`.
pub const S: Sides = 8;
/// The side `c = 1`.
pub const SW: Sides = 16;
/// The side `c + r = n + 1`.
pub const NW: Sides = 32;

/// Black's stones in [`Chains`] (every contract stone is black).
pub const BLACK: u8 = 1;
/// White's stones.
pub const WHITE: u8 = 2;

/// True when a chain touching `sides` is a Y: three non-adjacent sides.
#[inline]
pub fn is_y(sides: Sides) -> bool {
    sides & (N | SE | SW) == N | SE | SW || sides & (NE | S | NW) == NE | S | NW
}

/// True when a chain touching `sides` is a line: two opposite sides.
#[inline]
pub fn is_line(sides: Sides) -> bool {
    sides & (N | S) == N | S || sides & (NE | SW) == NE | SW || sides & (SE | NW) == SE | NW
}

/// The hexagon of side `n` on the Hex board of side `2n − 1` with two corners cut (section 1),
/// built once per size.
pub fn hexagon(n: u8) -> &'static Grid {
    static CACHE: [OnceLock<Grid>; MAX_SIZE as usize + 1] =
        [const { OnceLock::new() }; MAX_SIZE as usize + 1];
    assert!((2..=MAX_SIZE).contains(&n), "Unlur sizes are 2 to 13");
    CACHE[n as usize].get_or_init(|| {
        let m = 2 * n - 1;
        let (lo, hi) = (u16::from(n) + 1, 3 * u16::from(n) - 1);
        Grid::new(
            m,
            m,
            |c, r| (lo..=hi).contains(&(u16::from(c) + u16::from(r))),
            &HEX_NEIGHBOURS,
            &[
                (N, &|_, r| r == 1),
                (NE, &|c, _| c == m),
                (SE, &|c, r| u16::from(c) + u16::from(r) == hi),
                (S, &|_, r| r == m),
                (SW, &|c, _| c == 1),
                (NW, &|c, r| u16::from(c) + u16::from(r) == lo),
            ],
        )
    })
}

/// A move: a stone on a cell `(column, row)` in Hex's names, both from 1, or the contract's pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// A stone: black in the contract, the mover's colour after it.
    Stone(u8, u8),
    /// Section 4: the passer plays Black; White moves next.
    Pass,
}

/// A game of Unlur: the record of [`Position`]s.
pub type Game = Match<Position>;

/// A position of Unlur.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    pub(crate) size: u8,
    pub(crate) grid: &'static Grid,
    pub(crate) chains: Chains,
    pub(crate) to_move: usize,
    /// The seat playing Black, once the contract is over.
    pub(crate) black: Option<usize>,
    pub(crate) winner: Option<usize>,
    /// The cell of the last stone, for the mark on the board.
    pub(crate) last: Option<usize>,
    /// The cell of the last move when it was a stone, `None` after a pass (the playout answers it).
    pub(crate) last_stone: Option<usize>,
}

impl Position {
    /// A new board of side `size` (checked already, 3 to 13), in the contract.
    pub fn new(size: u8) -> Position {
        let grid = hexagon(size);
        Position {
            size,
            grid,
            chains: Chains::new(grid),
            to_move: 0,
            black: None,
            winner: None,
            last: None,
            last_stone: None,
        }
    }

    /// The hexagon's side.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// The board's cells.
    pub fn grid(&self) -> &'static Grid {
        self.grid
    }

    /// The colour on each cell (0 empty, [`BLACK`], [`WHITE`]), by cell index.
    pub fn stones(&self) -> &[u8] {
        self.chains.stones()
    }

    /// True while the contract lasts (nobody has passed).
    pub fn in_contract(&self) -> bool {
        self.black.is_none()
    }

    /// The seat playing Black, once the contract is over.
    pub fn black_seat(&self) -> Option<usize> {
        self.black
    }

    /// The cell of the last stone placed.
    pub fn last_cell(&self) -> Option<usize> {
        self.last
    }

    /// True for a cell on no side (the contract's stones go there).
    #[inline]
    pub fn interior(&self, cell: usize) -> bool {
        self.grid.sides(cell) == 0
    }

    /// Plays a legal stone on a cell index, or the pass (`None`), and decides the end.
    #[inline]
    pub(crate) fn place(&mut self, cell: Option<usize>) {
        let s = self.to_move;
        self.to_move = 1 - s;
        self.last_stone = cell;
        let Some(cell) = cell else {
            // Section 4: the passer is Black, White moves next.
            self.black = Some(s);
            return;
        };
        self.last = Some(cell);
        let Some(black) = self.black else {
            self.chains.place(self.grid, cell, BLACK);
            return;
        };
        let colour = if s == black { BLACK } else { WHITE };
        let sides = self.chains.place(self.grid, cell, colour);
        let (own, other) = if colour == BLACK {
            (is_y(sides), is_line(sides))
        } else {
            (is_line(sides), is_y(sides))
        };
        if own {
            self.winner = Some(s);
        } else if other {
            self.winner = Some(1 - s);
        }
    }

    /// The name of a seat: `First`/`Second` in the contract, then `Black`/`White`.
    pub fn seat_title(&self, seat: usize) -> &'static str {
        match self.black {
            None if seat == 0 => "First",
            None => "Second",
            Some(b) if b == seat => "Black",
            Some(_) => "White",
        }
    }
}

impl Position {
    /// Reads a move (the notation needs no board). Hexagons of different sizes have different
    /// names (b2 is a cell of side 3 only), so a cell is read as any name of the box around the
    /// largest hexagon; [`Rules::check`] checks the cell.
    pub fn read(text: &str) -> Result<Move, RuleError> {
        read_move(
            text,
            &[
                ("pass", Ok(Move::Pass)),
                (
                    "swap",
                    Err("there is no swap in Unlur: the contract settles who plays which colour"),
                ),
                (
                    "resign",
                    Err("resign is not a move: send `unlur resign <board> <userid> <password>`"),
                ),
            ],
            |word| {
                read_cell(word, 2 * MAX_SIZE - 1)
                    .map(|(c, r)| Move::Stone(c, r))
                    .map_err(|e| RuleError(format!("{e}. {NOTATION}")))
            },
        )
    }

    /// The move in canonical notation: `c5`, `pass`.
    pub fn write(mv: Move) -> String {
        match mv {
            Move::Stone(c, r) => write_coords(c, r),
            Move::Pass => "pass".into(),
        }
    }
}

impl Rules for Position {
    type Move = Move;
    const GAME: &'static str = "unlur";

    fn start(options: &[GameOption], players: usize) -> Result<Position, RuleError> {
        if players != 2 {
            return Err(RuleError(format!(
                "Unlur is played by 2 players, not {players}"
            )));
        }
        Ok(Position::new(super::size_from_options(options)?))
    }
    fn options(&self) -> Vec<GameOption> {
        vec![GameOption::with_value("size", &self.size.to_string())]
    }
    /// They change when the contract ends.
    fn seat_names(&self) -> Vec<String> {
        (0..2).map(|s| self.seat_title(s).to_string()).collect()
    }
    fn to_move(&self) -> usize {
        self.to_move
    }
    fn outcome(&self) -> Option<Outcome> {
        self.winner.map(Outcome::Winner)
    }
    /// In the contract the empty interior cells and the pass; then every empty cell.
    fn legal(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.winner.is_some() {
            return;
        }
        let contract = self.in_contract();
        out.extend(
            self.chains
                .empty_cells()
                .filter(|&c| !contract || self.interior(c))
                .map(|cell| {
                    let (c, r) = self.grid.coords(cell);
                    Move::Stone(c, r)
                }),
        );
        if contract {
            out.push(Move::Pass);
        }
    }
    fn check(&self, mv: Move) -> Result<(), RuleError> {
        if self.winner.is_some() {
            return Err(RuleError("the game is over: no more moves".into()));
        }
        match mv {
            Move::Stone(c, r) => {
                let Some(cell) = self.grid.cell(c, r) else {
                    return Err(RuleError(format!(
                        "{}. {NOTATION}",
                        CellError::OffBoard(write_coords(c, r))
                    )));
                };
                if self.chains.colour(cell) != 0 {
                    return Err(RuleError(format!(
                        "{} is taken: put your stone on an empty cell",
                        self.grid.name(cell)
                    )));
                }
                if self.in_contract() && !self.interior(cell) {
                    return Err(RuleError(format!(
                        "{} is an edge cell: in the contract a black stone goes on an empty \
                         interior cell (not on the border), or you pass and play Black",
                        self.grid.name(cell)
                    )));
                }
                Ok(())
            }
            Move::Pass if self.in_contract() => Ok(()),
            Move::Pass => Err(RuleError(
                "the contract is over: there is no pass any more; put a stone of your colour on \
                 an empty cell"
                    .into(),
            )),
        }
    }
    fn apply(&mut self, mv: Move) -> u32 {
        let cell = match mv {
            Move::Stone(c, r) => Some(self.grid.cell(c, r).expect("a legal move's cell")),
            Move::Pass => None,
        };
        self.place(cell);
        0
    }
    fn read_here(&self, text: &str) -> Result<Move, RuleError> {
        Position::read(text)
    }
    fn write_here(&self, mv: Move) -> String {
        Position::write(mv)
    }
    /// Documents before issue 36: `version` 1, the moves with their seats, a status line (checked
    /// against the replay by `Unlur::load`).
    fn upgrade(doc: &mut serde_json::Map<String, serde_json::Value>) -> Result<(), RuleError> {
        crate::games::matchplay::upgrade_seated(doc, "Unlur")
    }
    fn action_space(&self) -> u32 {
        self.grid.len() as u32 + 1
    }
    fn action_here(&self, mv: Move) -> u32 {
        match mv {
            Move::Stone(c, r) => self.grid.cell(c, r).expect("a legal move's cell") as u32,
            Move::Pass => self.grid.len() as u32,
        }
    }
    fn move_here(&self, action: u32) -> Move {
        if action as usize == self.grid.len() {
            return Move::Pass;
        }
        let (c, r) = self.grid.coords(action as usize);
        Move::Stone(c, r)
    }
}

/// How an Unlur move is written, for the refusals.
const NOTATION: &str = "An Unlur move is a cell in Hex notation (a column letter and a row number, \
                        like e5) or, in the contract, pass";

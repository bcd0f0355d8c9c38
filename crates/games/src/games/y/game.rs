//! One position of Y: the stones and their chains, whose turn, the swap and the end (`y-rules.md`
//! sections 4 to 6). The move list is [`crate::games::matchplay::Match`]'s.

use std::sync::OnceLock;

use crate::games::hexgrid::{
    CellError, Chains, Grid, Sides, Y_NEIGHBOURS, read_move, write_coords,
};
use crate::games::matchplay::{Match, Rules};
use crate::games::{GameOption, Outcome, RuleError};

/// The options of a game (section 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// The triangle's side, 2 to 19.
    pub size: u8,
    /// The swap rule (section 5) is on.
    pub swap: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            size: DEFAULT_SIZE,
            swap: true,
        }
    }
}

/// The default side (15, section 3).
pub const DEFAULT_SIZE: u8 = 15;
/// The smallest side.
pub const MIN_SIZE: u8 = 2;
/// The largest side (HexGui's).
pub const MAX_SIZE: u8 = 19;

/// The left side: cells with `c = 1`.
pub const LEFT: Sides = 1;
/// The right side: cells with `c = r`.
pub const RIGHT: Sides = 2;
/// The bottom side: cells with `r = n`.
pub const BOTTOM: Sides = 4;
/// All three sides: a chain touching them wins.
pub const ALL_SIDES: Sides = LEFT | RIGHT | BOTTOM;

/// Black's stones in [`Chains`] (seat 0).
pub const BLACK: u8 = 1;
/// White's stones (seat 1).
pub const WHITE: u8 = 2;

/// The triangle of side `n`: HexGui's Y board (row `r` holds columns `1..=r`), built once per size.
pub fn triangle(n: u8) -> &'static Grid {
    static CACHE: [OnceLock<Grid>; MAX_SIZE as usize + 1] =
        [const { OnceLock::new() }; MAX_SIZE as usize + 1];
    assert!((1..=MAX_SIZE).contains(&n), "Y sizes are 1 to 19");
    CACHE[n as usize].get_or_init(|| {
        Grid::new(
            n,
            n,
            |c, r| c <= r,
            &Y_NEIGHBOURS,
            &[
                (LEFT, &|c, _| c == 1),
                (RIGHT, &|c, r| c == r),
                (BOTTOM, &|_, r| r == n),
            ],
        )
    })
}

/// A move: a stone on a cell `(column, row)`, both from 1, or the swap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// A stone of the mover's colour on this cell.
    Stone(u8, u8),
    /// Section 5: Black's first stone becomes White's, on the same cell.
    Swap,
}

/// A game of Y: the record of [`Position`]s.
pub type Game = Match<Position>;

/// A position of Y.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    pub(crate) cfg: Config,
    pub(crate) grid: &'static Grid,
    pub(crate) chains: Chains,
    pub(crate) to_move: usize,
    pub(crate) winner: Option<usize>,
    /// Stones and swaps played.
    pub(crate) placed: u32,
    /// The cell of the last stone or swap, for the mark on the board.
    pub(crate) last: Option<usize>,
    /// The cell of the last move when it was a stone (the playout answers it), `None` after a swap.
    pub(crate) last_stone: Option<usize>,
}

impl Position {
    /// A new, empty board. The size must be checked already (2 to 19).
    pub fn new(cfg: Config) -> Position {
        let grid = triangle(cfg.size);
        Position {
            cfg,
            grid,
            chains: Chains::new(grid),
            to_move: 0,
            winner: None,
            placed: 0,
            last: None,
            last_stone: None,
        }
    }

    /// The options in force.
    pub fn config(&self) -> Config {
        self.cfg
    }

    /// The board's cells.
    pub fn grid(&self) -> &'static Grid {
        self.grid
    }

    /// The colour on each cell (0 empty, [`BLACK`], [`WHITE`]), by cell index.
    pub fn stones(&self) -> &[u8] {
        self.chains.stones()
    }

    /// The cell of the last stone (or of the stone the swap turned).
    pub fn last_cell(&self) -> Option<usize> {
        self.last
    }

    /// True when the position allows the swap: on, one black stone down, no winner.
    pub fn swap_open(&self) -> bool {
        self.cfg.swap && self.winner.is_none() && self.placed == 1
    }

    /// Plays a stone on a cell index, or the swap (`None`); the move must be legal.
    #[inline]
    pub(crate) fn place(&mut self, cell: Option<usize>) {
        let s = self.to_move;
        self.placed += 1;
        match cell {
            Some(cell) => {
                let colour = if s == 0 { BLACK } else { WHITE };
                let sides = self.chains.place(self.grid, cell, colour);
                self.last = Some(cell);
                self.last_stone = Some(cell);
                if sides == ALL_SIDES {
                    self.winner = Some(s);
                }
            }
            None => {
                // The one black stone becomes white where it stands (section 5).
                let mut stones = self.chains.stones().to_vec();
                for st in stones.iter_mut().filter(|st| **st == BLACK) {
                    *st = WHITE;
                }
                self.chains = Chains::from_stones(self.grid, &stones);
                self.last_stone = None;
            }
        }
        self.to_move = 1 - s;
    }

    /// Whether action `action` (a cell, or the swap as the grid's size; legal here) may end the game:
    /// a stone whose chain would touch all three sides, or the swap (always said to).
    pub fn stone_may_win(&self, action: u32) -> bool {
        if self.winner.is_some() || action as usize == self.grid.len() {
            return true;
        }
        let colour = if self.to_move == 0 { BLACK } else { WHITE };
        self.chains
            .sides_if_placed(self.grid, action as usize, colour)
            == ALL_SIDES
    }
}

impl Position {
    /// The notation of section 7 (it needs no board): `c5` or `swap`, white space deleted, any
    /// case; a name that is a cell of no triangle (`c1`, `a20`) is refused here, one off this
    /// board by [`Rules::check`].
    pub fn read(text: &str) -> Result<Move, RuleError> {
        read_move(
            text,
            &[
                ("swap", Ok(Move::Swap)),
                (
                    "pass",
                    Err("there is no pass in Y: put a stone on an empty cell"),
                ),
                (
                    "resign",
                    Err("resign is not a move: send `y resign <board> <userid> <password>`"),
                ),
            ],
            |word| {
                // Any size's names: the largest triangle has every name a smaller one has.
                let grid = triangle(MAX_SIZE);
                let cell = grid
                    .parse(word)
                    .map_err(|e| RuleError(format!("{e}. {NOTATION}")))?;
                let (c, r) = grid.coords(cell);
                Ok(Move::Stone(c, r))
            },
        )
    }

    /// The move in canonical notation: `c5`, `swap`.
    pub fn write(mv: Move) -> String {
        match mv {
            Move::Stone(c, r) => write_coords(c, r),
            Move::Swap => "swap".into(),
        }
    }
}

impl Rules for Position {
    type Move = Move;
    const GAME: &'static str = "y";

    fn start(options: &[GameOption], players: usize) -> Result<Position, RuleError> {
        if players != 2 {
            return Err(RuleError(format!(
                "Y is played by 2 players, not {players}"
            )));
        }
        Ok(Position::new(Config::from_options(options)?))
    }
    fn options(&self) -> Vec<GameOption> {
        vec![
            GameOption::with_value("size", &self.cfg.size.to_string()),
            GameOption::flag(if self.cfg.swap { "swap" } else { "no_swap" }),
        ]
    }
    fn seat_names(&self) -> Vec<String> {
        vec!["Black".into(), "White".into()]
    }
    fn to_move(&self) -> usize {
        self.to_move
    }
    fn outcome(&self) -> Option<Outcome> {
        self.winner.map(Outcome::Winner)
    }
    /// Every empty cell, then the swap when legal; none once over.
    fn legal(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.winner.is_some() {
            return;
        }
        out.extend(self.chains.empty_cells().map(|cell| {
            let (c, r) = self.grid.coords(cell);
            Move::Stone(c, r)
        }));
        if self.swap_open() {
            out.push(Move::Swap);
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
                Ok(())
            }
            Move::Swap if self.swap_open() => Ok(()),
            Move::Swap if !self.cfg.swap => Err(RuleError(
                "this game is played -no_swap: there is no swap; put a stone on an empty cell"
                    .into(),
            )),
            Move::Swap => Err(RuleError(
                "the swap is only the second move of the game (White's first): put a stone on an \
                 empty cell"
                    .into(),
            )),
        }
    }
    fn apply(&mut self, mv: Move) -> u32 {
        let cell = match mv {
            Move::Stone(c, r) => Some(self.grid.cell(c, r).expect("a legal move's cell")),
            Move::Swap => None,
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
    /// Documents before issue 36: `version` 1, `"swap": false`, the moves with their seats, a
    /// status line (checked against the replay by `Y::load`).
    fn upgrade(doc: &mut serde_json::Map<String, serde_json::Value>) -> Result<(), RuleError> {
        crate::games::matchplay::upgrade_seated(doc, "Y")?;
        if doc.get("swap") == Some(&serde_json::Value::Bool(false)) {
            doc.remove("swap");
            doc.insert("no_swap".into(), serde_json::Value::Bool(true));
        }
        Ok(())
    }
    fn action_space(&self) -> u32 {
        self.grid.len() as u32 + 1
    }
    fn action_here(&self, mv: Move) -> u32 {
        match mv {
            Move::Stone(c, r) => self.grid.cell(c, r).expect("a legal move's cell") as u32,
            Move::Swap => self.grid.len() as u32,
        }
    }
    fn move_here(&self, action: u32) -> Move {
        if action as usize == self.grid.len() {
            return Move::Swap;
        }
        let (c, r) = self.grid.coords(action as usize);
        Move::Stone(c, r)
    }
}

/// How a Y move is written, for the refusals.
const NOTATION: &str = "A Y move is a cell (a letter and a row number, like c5; row r holds the \
                        cells a to the r-th letter) or swap";

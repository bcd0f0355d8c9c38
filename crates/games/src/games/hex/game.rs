//! One Hex position: the stones and chains on the rhombus, and the rules of `hex-rules.md` sections 4
//! to 7 (placing, the swap, the end). The move list is [`crate::games::matchplay::Match`]'s.

use super::options::{Config, MAX_SIZE};
use crate::games::hexgrid::{CellError, Chains, EMPTY, Grid, read_cell, read_move, write_coords};
use crate::games::matchplay::{Match, Rules};
use crate::games::{GameOption, Outcome, RuleError};

/// Black's stones (seat 0) in [`Chains`].
pub const BLACK: u8 = 1;
/// White's stones (seat 1) in [`Chains`].
pub const WHITE: u8 = 2;

pub use crate::games::hexgrid::rhombus::GOAL;

/// A move as read: a stone on a cell `(column, row)` (both from 1), or the swap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// A stone of the mover's colour on this cell.
    Stone(u8, u8),
    /// The swap of section 5.
    Swap,
}

pub use crate::games::matchplay::{Leave as Leaving, Left};

/// One Hex game: the record of [`Position`]s.
pub type HexGame = Match<Position>;

/// One Hex position.
#[derive(Debug, Clone)]
pub struct Position {
    cfg: Config,
    grid: &'static Grid,
    chains: Chains,
    /// The number of moves played.
    played: u16,
    /// The first stone's cell (the swap mirrors it).
    first: Option<u16>,
    /// The last action (a cell index, or [`Position::swap_id`]), which the playouts answer.
    last: Option<u16>,
    /// Move 2 was the swap.
    swapped: bool,
    winner: Option<usize>,
}

impl Position {
    /// The start of a game with these options.
    pub fn new(cfg: Config) -> Position {
        let grid = Grid::rhombus(cfg.size);
        Position {
            cfg,
            grid,
            chains: Chains::new(grid),
            played: 0,
            first: None,
            last: None,
            swapped: false,
            winner: None,
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

    /// The stones and their chains.
    pub fn chains(&self) -> &Chains {
        &self.chains
    }

    /// The action id of the swap: one past the cells.
    pub fn swap_id(&self) -> u16 {
        self.grid.len() as u16
    }

    /// The seat whose turn it is by the count of moves (whether or not the game is over).
    #[inline]
    pub fn mover(&self) -> usize {
        self.played as usize % 2
    }

    /// The last action played, if any.
    pub fn last_action(&self) -> Option<u16> {
        self.last
    }

    /// True when the swap is legal now: `-swap`, and this is move 2 of a game still going.
    #[inline]
    pub fn swap_legal(&self) -> bool {
        self.cfg.swap && self.played == 1 && self.winner.is_none()
    }

    /// The mirror of a cell in the long diagonal: `(c, r)` → `(r, c)`.
    pub fn mirror(&self, cell: usize) -> usize {
        let (c, r) = self.grid.coords(cell);
        self.grid.cell(r, c).expect("the rhombus is square")
    }

    /// Where the swapped stone stood, when move 2 was the swap: `(black's cell, white's cell)`.
    pub fn swapped(&self) -> Option<(usize, usize)> {
        let from = self.first.filter(|_| self.swapped)? as usize;
        Some((from, self.mirror(from)))
    }

    /// Plays a legal action (a cell index or [`Position::swap_id`]) and decides the end.
    #[inline]
    pub fn apply_action(&mut self, action: u16) {
        let seat = self.mover();
        self.played += 1;
        self.last = Some(action);
        if action == self.swap_id() {
            self.swapped = true;
            let white = self.mirror(self.first.expect("the swap follows a stone") as usize);
            self.chains = Chains::new(self.grid);
            let sides = self.chains.place(self.grid, white, WHITE);
            if sides & GOAL[1] == GOAL[1] {
                self.winner = Some(1);
            }
            return;
        }
        if self.first.is_none() {
            self.first = Some(action);
        }
        let colour = if seat == 0 { BLACK } else { WHITE };
        let sides = self.chains.place(self.grid, action as usize, colour);
        if sides & GOAL[seat] == GOAL[seat] {
            self.winner = Some(seat);
        }
    }

    /// Whether `action` (legal here) may end the game: a stone that joins the mover's sides, or the
    /// swap (always said to, it is one action).
    pub fn stone_may_win(&self, action: u32) -> bool {
        if action == u32::from(self.swap_id()) {
            return true;
        }
        let seat = self.mover();
        let colour = if seat == 0 { BLACK } else { WHITE };
        let sides = self
            .chains
            .sides_if_placed(self.grid, action as usize, colour);
        sides & GOAL[seat] == GOAL[seat]
    }

    /// The legal actions, cells in index order then the swap.
    pub fn legal_actions(&self, out: &mut Vec<u32>) {
        out.clear();
        if self.winner.is_some() {
            return;
        }
        out.extend(self.chains.empty_cells().map(|c| c as u32));
        if self.swap_legal() {
            out.push(u32::from(self.swap_id()));
        }
    }

    /// The cell of a move's stone on this board.
    fn cell(&self, c: u8, r: u8) -> Result<usize, RuleError> {
        self.grid.cell(c, r).ok_or_else(|| {
            RuleError(format!(
                "{}; a move is a cell like c3, or swap",
                CellError::OffBoard(write_coords(c, r))
            ))
        })
    }
}

impl Rules for Position {
    type Move = Move;
    const GAME: &'static str = "hex";

    fn start(options: &[GameOption], players: usize) -> Result<Position, RuleError> {
        if players != 2 {
            return Err(RuleError(format!(
                "Hex is a game for 2 players, not {players}"
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
        self.mover()
    }
    fn outcome(&self) -> Option<Outcome> {
        self.winner.map(Outcome::Winner)
    }
    fn legal(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.winner.is_some() {
            return;
        }
        out.extend(self.chains.empty_cells().map(|c| {
            let (c, r) = self.grid.coords(c);
            Move::Stone(c, r)
        }));
        if self.swap_legal() {
            out.push(Move::Swap);
        }
    }
    fn check(&self, mv: Move) -> Result<(), RuleError> {
        match mv {
            Move::Stone(c, r) => {
                let cell = self.cell(c, r)?;
                match self.chains.colour(cell) {
                    EMPTY => Ok(()),
                    colour => Err(RuleError(format!(
                        "{} is taken (a {} stone stands there): place your stone on an empty cell",
                        self.grid.name(cell),
                        if colour == BLACK { "black" } else { "white" }
                    ))),
                }
            }
            Move::Swap if self.swap_legal() => Ok(()),
            Move::Swap if !self.cfg.swap => Err(RuleError(
                "this game is played with -no_swap: there is no swap; place a stone".into(),
            )),
            Move::Swap if self.played == 0 => Err(RuleError(
                "the swap is White's first move (move 2), after Black's first stone; Black places a stone first"
                    .into(),
            )),
            Move::Swap => Err(RuleError(format!(
                "the swap is legal only as move 2; this is move {}: place a stone",
                self.played + 1
            ))),
        }
    }
    fn apply(&mut self, mv: Move) -> u32 {
        let action = self.action_here(mv) as u16;
        self.apply_action(action);
        0
    }
    fn read_here(&self, text: &str) -> Result<Move, RuleError> {
        Position::read(text)
    }
    fn write_here(&self, mv: Move) -> String {
        Position::write(mv)
    }
    fn no_draw(&self) -> Option<RuleError> {
        Some(RuleError(
            "Hex has no draws: every game ends with a winner (resign to end it early)".into(),
        ))
    }
    /// Documents before issue 36 wrote the swap's option as `"swap": true` or `false`.
    fn upgrade(doc: &mut serde_json::Map<String, serde_json::Value>) -> Result<(), RuleError> {
        if doc.get("swap") == Some(&serde_json::Value::Bool(false)) {
            doc.remove("swap");
            doc.insert("no_swap".into(), serde_json::Value::Bool(true));
        }
        Ok(())
    }
    fn action_space(&self) -> u32 {
        u32::from(self.swap_id()) + 1
    }
    fn action_here(&self, mv: Move) -> u32 {
        match mv {
            Move::Stone(c, r) => self.grid.cell(c, r).expect("a legal move's cell") as u32,
            Move::Swap => u32::from(self.swap_id()),
        }
    }
    fn move_here(&self, action: u32) -> Move {
        if action == u32::from(self.swap_id()) {
            return Move::Swap;
        }
        let (c, r) = self.grid.coords(action as usize);
        Move::Stone(c, r)
    }
}

impl Position {
    /// Reads a move (the notation needs no board): white space deleted, either case; a cell off
    /// every board (beyond 19) is refused here, one off this board by [`Rules::check`].
    pub fn read(text: &str) -> Result<Move, RuleError> {
        read_move(
            text,
            &[
                ("swap", Ok(Move::Swap)),
                (
                    "resign",
                    Err(
                        "resign is not a move: send hex resign <board> <userid> <password> to resign",
                    ),
                ),
                (
                    "pass",
                    Err("there is no pass in Hex: place a stone on an empty cell, like c3"),
                ),
            ],
            |word| {
                read_cell(word, MAX_SIZE)
                    .map(|(c, r)| Move::Stone(c, r))
                    .map_err(|e| RuleError(format!("{e}; a move is a cell like c3, or swap")))
            },
        )
    }

    /// The move in canonical notation: `c3`, `swap`.
    pub fn write(mv: Move) -> String {
        match mv {
            Move::Stone(c, r) => write_coords(c, r),
            Move::Swap => "swap".into(),
        }
    }
}

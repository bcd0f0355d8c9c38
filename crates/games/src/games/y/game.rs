//! One game of Y: the stones and their chains, whose turn, the swap and the end (`y-rules.md`
//! sections 4 to 6), and the move list.

use std::sync::OnceLock;

use crate::games::hexgrid::{Chains, Grid, Sides, Y_NEIGHBOURS};
use crate::games::{MoveRecord, Outcome, RuleError};

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

/// A move: a stone on a cell (by index), or the swap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// A stone of the mover's colour on this cell.
    Stone(usize),
    /// Section 5: Black's first stone becomes White's, on the same cell.
    Swap,
}

/// One entry of the move list, kept small so that playouts do not format text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// A move by the seat then to move.
    Move(Move),
    /// The seat resigned.
    Resign(usize),
    /// The seat lost on time.
    Forfeit(usize),
    /// Both agreed to stop without a winner; the seat was to move.
    Draw(usize),
}

/// A game of Y.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    pub(crate) cfg: Config,
    pub(crate) grid: &'static Grid,
    pub(crate) chains: Chains,
    pub(crate) to_move: usize,
    pub(crate) result: Option<Outcome>,
    /// Stones and swaps played (the entries that are moves, not resign/forfeit/draw).
    pub(crate) placed: u32,
    pub(crate) history: Vec<Entry>,
    /// The cell of the last stone or swap, for the mark on the board.
    pub(crate) last: Option<usize>,
}

impl Game {
    /// A new, empty board. The size must be checked already (2 to 19).
    pub fn new(cfg: Config) -> Game {
        let grid = triangle(cfg.size);
        Game {
            cfg,
            grid,
            chains: Chains::new(grid),
            to_move: 0,
            result: None,
            placed: 0,
            history: Vec::new(),
            last: None,
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

    /// The seat to move, `None` once the game is over.
    pub fn to_move(&self) -> Option<usize> {
        self.result.is_none().then_some(self.to_move)
    }

    /// How the game ended, if it has.
    pub fn result(&self) -> Option<&Outcome> {
        self.result.as_ref()
    }

    /// The number of entries in the move list.
    pub fn entries(&self) -> usize {
        self.history.len()
    }

    /// The move list as players read it.
    pub fn records(&self) -> Vec<MoveRecord> {
        let mut seat = 0;
        let rec = |seat: usize, text: String| MoveRecord {
            seat,
            text,
            auto: false,
        };
        self.history
            .iter()
            .map(|e| match *e {
                Entry::Move(m) => {
                    let r = rec(seat, self.move_text(m));
                    seat = 1 - seat;
                    r
                }
                Entry::Resign(s) => rec(s, "resign".into()),
                Entry::Forfeit(s) => rec(s, "forfeit".into()),
                Entry::Draw(s) => rec(s, "draw".into()),
            })
            .collect()
    }

    /// The cell of the last stone (or of the stone the swap turned).
    pub fn last_cell(&self) -> Option<usize> {
        self.last
    }

    /// True when the swap is legal now: on, the game at move 2, one black stone down.
    pub fn swap_legal(&self) -> bool {
        self.cfg.swap && self.result.is_none() && self.placed == 1 && self.history.len() == 1
    }

    /// Reads a move (the notation of section 7): `c5` or `swap`, white space deleted, any case.
    pub fn parse(&self, text: &str) -> Result<Move, RuleError> {
        parse_move(self.grid, text)
    }

    /// The move in canonical notation.
    pub fn move_text(&self, mv: Move) -> String {
        match mv {
            Move::Stone(cell) => self.grid.name(cell),
            Move::Swap => "swap".into(),
        }
    }

    /// Why `mv` is illegal now, or nothing.
    pub fn check(&self, mv: Move) -> Result<(), RuleError> {
        if self.result.is_some() {
            return Err(RuleError("the game is over: no more moves".into()));
        }
        match mv {
            Move::Stone(cell) if self.chains.colour(cell) != 0 => Err(RuleError(format!(
                "{} is taken: put your stone on an empty cell",
                self.grid.name(cell)
            ))),
            Move::Stone(_) => Ok(()),
            Move::Swap if self.swap_legal() => Ok(()),
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

    /// Plays a legal move (checked by [`Game::check`] or listed as legal).
    pub fn apply(&mut self, mv: Move) {
        self.history.push(Entry::Move(mv));
        self.place(mv);
    }

    /// The position change of a legal move, without the move list.
    #[inline]
    fn place(&mut self, mv: Move) {
        let s = self.to_move;
        self.placed += 1;
        match mv {
            Move::Stone(cell) => {
                let colour = if s == 0 { BLACK } else { WHITE };
                let sides = self.chains.place(self.grid, cell, colour);
                self.last = Some(cell);
                if sides == ALL_SIDES {
                    self.result = Some(Outcome::Winner(s));
                }
            }
            Move::Swap => {
                // The one black stone becomes white where it stands (section 5).
                let mut stones = self.chains.stones().to_vec();
                for st in stones.iter_mut().filter(|st| **st == BLACK) {
                    *st = WHITE;
                }
                self.chains = Chains::from_stones(self.grid, &stones);
            }
        }
        self.to_move = 1 - s;
    }

    /// Whether action `action` (a cell, or the swap as the grid's size; legal here) may end the game:
    /// a stone whose chain would touch all three sides, or the swap (always said to).
    pub fn stone_may_win(&self, action: u32) -> bool {
        let Some(seat) = self.to_move() else {
            return true;
        };
        if action as usize == self.grid.len() {
            return true;
        }
        let colour = if seat == 0 { BLACK } else { WHITE };
        self.chains
            .sides_if_placed(self.grid, action as usize, colour)
            == ALL_SIDES
    }

    /// Plays a written move; the error says why it is illegal and changes nothing.
    pub fn play_text(&mut self, text: &str) -> Result<(), RuleError> {
        let mv = self.parse(text)?;
        self.check(mv)?;
        self.apply(mv);
        Ok(())
    }

    /// The legal moves: every empty cell, then the swap when legal; none once over.
    pub fn legal(&self) -> Vec<Move> {
        if self.result.is_some() {
            return Vec::new();
        }
        let mut out: Vec<Move> = self.chains.empty_cells().map(Move::Stone).collect();
        if self.swap_legal() {
            out.push(Move::Swap);
        }
        out
    }

    /// A seat leaves the game (`resign`, `forfeit`): the other seat wins.
    pub fn leave(&mut self, seat: usize, forfeit: bool) -> Result<(), RuleError> {
        if self.result.is_some() {
            return Err(RuleError("the game is over already".into()));
        }
        if seat > 1 {
            return Err(RuleError(format!("Y has seats 0 and 1, not {seat}")));
        }
        self.history.push(if forfeit {
            Entry::Forfeit(seat)
        } else {
            Entry::Resign(seat)
        });
        self.result = Some(Outcome::Winner(1 - seat));
        Ok(())
    }

    /// Both players agree to end the game without a winner (a server agreement, not a rule outcome;
    /// recorded as `draw` under the seat to move).
    pub fn agree_draw(&mut self) -> Result<(), RuleError> {
        if self.result.is_some() {
            return Err(RuleError("the game is over already".into()));
        }
        self.history.push(Entry::Draw(self.to_move));
        self.result = Some(Outcome::Draw(vec![0, 1]));
        Ok(())
    }

    /// Replays a move list (as stored) on a new board of these options.
    pub fn replay(cfg: Config, records: &[MoveRecord]) -> Result<Game, RuleError> {
        let mut g = Game::new(cfg);
        for (k, rec) in records.iter().enumerate() {
            let n = k + 1;
            match rec.text.as_str() {
                "resign" => g.leave(rec.seat, false),
                "forfeit" => g.leave(rec.seat, true),
                "draw" => g.agree_draw(),
                text => {
                    if rec.seat != g.to_move {
                        return Err(RuleError(format!(
                            "move {n} ({text}) is given to seat {}, but seat {} was to move",
                            rec.seat, g.to_move
                        )));
                    }
                    g.play_text(text)
                }
            }
            .map_err(|e| RuleError(format!("move {n} ({}): {e}", rec.text)))?;
        }
        Ok(g)
    }

    /// The number of legal move sequences of `depth` moves from here.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 || self.result.is_some() {
            return u64::from(depth == 0);
        }
        let empty = self.chains.empty_cells().count() as u64;
        if depth == 1 {
            return empty + u64::from(self.swap_legal());
        }
        let mut total = 0;
        let mut next = self.clone();
        for cell in self.chains.empty_cells() {
            next.clone_from(self);
            next.apply(Move::Stone(cell));
            total += next.perft(depth - 1);
        }
        if self.swap_legal() {
            next.clone_from(self);
            next.apply(Move::Swap);
            total += next.perft(depth - 1);
        }
        total
    }

    /// Plays random legal moves to the end (the swap is one of the choices where legal): `pick(n)`
    /// chooses among `n`. Returns the number of moves played. The move list is kept.
    pub fn playout(&mut self, pick: &mut dyn FnMut(usize) -> usize) -> u32 {
        let mut empty: Vec<u16> = self.chains.empty_cells().map(|c| c as u16).collect();
        let mut played = 0;
        while self.result.is_none() {
            let swap = self.swap_legal();
            let k = pick(empty.len() + usize::from(swap));
            let mv = if k == empty.len() {
                Move::Swap
            } else {
                Move::Stone(empty.swap_remove(k) as usize)
            };
            self.apply(mv);
            played += 1;
        }
        played
    }
}

/// Reads a move on `grid`: `swap` or a cell name.
pub fn parse_move(grid: &Grid, text: &str) -> Result<Move, RuleError> {
    let squeezed: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect();
    match squeezed.as_str() {
        "swap" => Ok(Move::Swap),
        "pass" => Err(RuleError(
            "there is no pass in Y: put a stone on an empty cell".into(),
        )),
        "resign" => Err(RuleError(
            "resign is not a move: send `y resign <board> <userid> <password>`".into(),
        )),
        _ => grid.parse(&squeezed).map(Move::Stone).map_err(|e| {
            RuleError(format!(
                "{e}. A Y move is a cell (a letter and a row number, like c5; row r holds the \
                 cells a to the r-th letter) or swap"
            ))
        }),
    }
}

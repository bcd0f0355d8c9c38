//! One game of Unlur: the contract phase, the main phase, the two goals and the end
//! (`unlur-rules.md` sections 4 to 6), and the move list.

use std::sync::OnceLock;

use crate::games::hexgrid::{Chains, Grid, HEX_NEIGHBOURS, Sides};
use crate::games::{MoveRecord, Outcome, RuleError};

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

/// A move: a stone on a cell (by index), or the contract's pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// In the contract a black stone, afterwards a stone of the mover's colour.
    Stone(usize),
    /// Ends the contract: the passer becomes Black.
    Pass,
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

/// A game of Unlur.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    pub(crate) size: u8,
    pub(crate) grid: &'static Grid,
    pub(crate) chains: Chains,
    pub(crate) to_move: usize,
    /// The seat playing Black, once the contract has ended.
    pub(crate) black: Option<usize>,
    pub(crate) result: Option<Outcome>,
    pub(crate) history: Vec<Entry>,
    /// The cell of the last stone, for the mark on the board.
    pub(crate) last: Option<usize>,
}

impl Game {
    /// A new, empty board in the contract phase. The size must be checked already (3 to 13).
    pub fn new(size: u8) -> Game {
        let grid = hexagon(size);
        Game {
            size,
            grid,
            chains: Chains::new(grid),
            to_move: 0,
            black: None,
            result: None,
            history: Vec::new(),
            last: None,
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

    /// True while the contract lasts (nobody has passed yet).
    pub fn in_contract(&self) -> bool {
        self.black.is_none()
    }

    /// The seat playing Black, once the contract has ended.
    pub fn black_seat(&self) -> Option<usize> {
        self.black
    }

    /// The seat to move, `None` once the game is over.
    pub fn to_move(&self) -> Option<usize> {
        self.result.is_none().then_some(self.to_move)
    }

    /// How the game ended, if it has.
    pub fn result(&self) -> Option<&Outcome> {
        self.result.as_ref()
    }

    /// The cell of the last stone.
    pub fn last_cell(&self) -> Option<usize> {
        self.last
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

    /// The move in canonical notation.
    pub fn move_text(&self, mv: Move) -> String {
        match mv {
            Move::Stone(cell) => self.grid.name(cell),
            Move::Pass => "pass".into(),
        }
    }

    /// Reads a move (section 8): a cell name or `pass`, white space deleted, any case.
    pub fn parse(&self, text: &str) -> Result<Move, RuleError> {
        parse_move(self.grid, text)
    }

    /// True for a cell on no side (where contract stones go).
    #[inline]
    pub fn interior(&self, cell: usize) -> bool {
        self.grid.sides(cell) == 0
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
            Move::Stone(cell) if self.in_contract() && !self.interior(cell) => {
                Err(RuleError(format!(
                    "{} is an edge cell: in the contract a black stone goes on an empty interior \
                     cell (not on the border), or you pass and play Black",
                    self.grid.name(cell)
                )))
            }
            Move::Stone(_) => Ok(()),
            Move::Pass if self.in_contract() => Ok(()),
            Move::Pass => Err(RuleError(
                "the contract is over: there is no pass any more; put a stone of your colour on \
                 an empty cell"
                    .into(),
            )),
        }
    }

    /// Plays a legal move (checked by [`Game::check`] or listed as legal).
    #[inline]
    pub fn apply(&mut self, mv: Move) {
        self.history.push(Entry::Move(mv));
        let s = self.to_move;
        self.to_move = 1 - s;
        let cell = match mv {
            Move::Pass => {
                // Section 4: the passer is Black, White moves next.
                self.black = Some(s);
                return;
            }
            Move::Stone(cell) => cell,
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
            self.result = Some(Outcome::Winner(s));
        } else if other {
            self.result = Some(Outcome::Winner(1 - s));
        }
    }

    /// Plays a written move; the error says why it is illegal and changes nothing.
    pub fn play_text(&mut self, text: &str) -> Result<(), RuleError> {
        let mv = self.parse(text)?;
        self.check(mv)?;
        self.apply(mv);
        Ok(())
    }

    /// The legal moves: in the contract every empty interior cell and `pass`, afterwards every empty
    /// cell; none once over.
    pub fn legal(&self) -> Vec<Move> {
        if self.result.is_some() {
            return Vec::new();
        }
        let contract = self.in_contract();
        let mut out: Vec<Move> = self
            .chains
            .empty_cells()
            .filter(|&c| !contract || self.interior(c))
            .map(Move::Stone)
            .collect();
        if contract {
            out.push(Move::Pass);
        }
        out
    }

    /// A seat leaves the game (resigns, or loses on time): the other seat wins, in either phase.
    pub fn leave(&mut self, seat: usize, forfeit: bool) -> Result<(), RuleError> {
        if self.result.is_some() {
            return Err(RuleError("the game is over already".into()));
        }
        if seat > 1 {
            return Err(RuleError(format!("Unlur has seats 0 and 1, not {seat}")));
        }
        self.history.push(if forfeit {
            Entry::Forfeit(seat)
        } else {
            Entry::Resign(seat)
        });
        self.result = Some(Outcome::Winner(1 - seat));
        Ok(())
    }

    /// Both players agree to end the game without a winner (a server agreement, not a rule outcome).
    pub fn agree_draw(&mut self) -> Result<(), RuleError> {
        if self.result.is_some() {
            return Err(RuleError("the game is over already".into()));
        }
        self.history.push(Entry::Draw(self.to_move));
        self.result = Some(Outcome::Draw(vec![0, 1]));
        Ok(())
    }

    /// Replays a move list (as stored) on a new board of this size.
    pub fn replay(size: u8, records: &[MoveRecord]) -> Result<Game, RuleError> {
        let mut g = Game::new(size);
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

    /// The number of legal moves now.
    fn count_legal(&self) -> u64 {
        if self.result.is_some() {
            return 0;
        }
        if self.in_contract() {
            self.chains
                .empty_cells()
                .filter(|&c| self.interior(c))
                .count() as u64
                + 1
        } else {
            self.chains.empty_cells().count() as u64
        }
    }

    /// The number of legal move sequences of `depth` moves from here.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if depth == 1 {
            return self.count_legal();
        }
        let mut total = 0;
        let mut next = self.clone();
        for mv in self.legal() {
            next.clone_from(self);
            next.apply(mv);
            total += next.perft(depth - 1);
        }
        total
    }

    /// Plays random legal moves to the end: `pick(n)` chooses among `n` (in the contract the empty
    /// interior cells and the pass, the pass last). Returns the number of moves played.
    pub fn playout(&mut self, pick: &mut dyn FnMut(usize) -> usize) -> u32 {
        let mut played = 0;
        let mut empty: Vec<u16> = Vec::with_capacity(self.grid.len());
        if self.in_contract() {
            empty.extend(
                self.chains
                    .empty_cells()
                    .filter(|&c| self.interior(c))
                    .map(|c| c as u16),
            );
            while self.result.is_none() && self.in_contract() {
                let k = pick(empty.len() + 1);
                if k == empty.len() {
                    self.apply(Move::Pass);
                } else {
                    self.apply(Move::Stone(empty.swap_remove(k) as usize));
                }
                played += 1;
            }
            empty.clear();
        }
        empty.extend(self.chains.empty_cells().map(|c| c as u16));
        // A full board always holds a goal (section 7), so the game ends before `empty` runs out.
        while self.result.is_none() && !empty.is_empty() {
            let k = pick(empty.len());
            self.apply(Move::Stone(empty.swap_remove(k) as usize));
            played += 1;
        }
        played
    }
}

/// Reads a move on `grid`: `pass` or a cell name.
pub fn parse_move(grid: &Grid, text: &str) -> Result<Move, RuleError> {
    let squeezed: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect();
    match squeezed.as_str() {
        "pass" => Ok(Move::Pass),
        "swap" => Err(RuleError(
            "there is no swap in Unlur: the contract settles who plays which colour".into(),
        )),
        "resign" => Err(RuleError(
            "resign is not a move: send `unlur resign <board> <userid> <password>`".into(),
        )),
        _ => grid.parse(&squeezed).map(Move::Stone).map_err(|e| {
            RuleError(format!(
                "{e}. An Unlur move is a cell in Hex notation (a column letter and a row number, \
                 like e5) or, in the contract, pass"
            ))
        }),
    }
}

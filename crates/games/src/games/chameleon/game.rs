//! One Chameleon position: Hex's rhombus where the mover places a stone of either colour, and a seat
//! wins by a chain of one colour, of either colour, joining its edges (`chameleon-rules.md` sections
//! 4 to 7). The move list is [`crate::games::matchplay::Match`]'s.

use crate::games::hexgrid::rhombus::{GOAL, MAX_SIZE};
use crate::games::hexgrid::{CellError, Chains, EMPTY, Empties, Grid, read_cell, write_coords};
use crate::games::matchplay::{Match, Rules};
use crate::games::{GameOption, Outcome, RuleError};

/// A black stone in [`Chains`].
pub const BLACK: u8 = 1;
/// A white stone in [`Chains`].
pub const WHITE: u8 = 2;

/// A move: a stone of a colour ([`BLACK`], [`WHITE`]) on a cell `(column, row)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Move {
    /// The stone's colour.
    pub colour: u8,
    /// The cell's column, from 1.
    pub c: u8,
    /// The cell's row, from 1.
    pub r: u8,
}

/// One Chameleon game: the record of [`Position`]s.
pub type ChameleonGame = Match<Position>;

/// One Chameleon position.
#[derive(Debug, Clone)]
pub struct Position {
    size: u8,
    grid: &'static Grid,
    chains: Chains,
    /// The number of moves played.
    played: u16,
    /// The last action (`2 × cell + (colour − 1)`).
    last: Option<u16>,
    winner: Option<usize>,
}

/// The action id of a stone of `colour` on `cell`.
#[inline]
pub fn action(cell: usize, colour: u8) -> u16 {
    (cell * 2) as u16 + u16::from(colour - 1)
}

impl Position {
    /// The start on a `size × size` board (the size already checked, 2 to 19).
    pub fn new(size: u8) -> Position {
        let grid = Grid::rhombus(size);
        Position {
            size,
            grid,
            chains: Chains::new(grid),
            played: 0,
            last: None,
            winner: None,
        }
    }

    /// The board's side.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// The board's cells.
    pub fn grid(&self) -> &'static Grid {
        self.grid
    }

    /// The stones and their chains.
    pub fn chains(&self) -> &Chains {
        &self.chains
    }

    /// The seat to move, `None` once the game is over.
    #[inline]
    fn seat_to_move(&self) -> Option<usize> {
        self.winner.is_none().then_some(self.played as usize % 2)
    }

    /// The last action played, if any.
    pub fn last_action(&self) -> Option<u16> {
        self.last
    }

    /// Plays a legal action and decides the end (section 6).
    #[inline]
    pub fn apply_action(&mut self, action: u16) {
        let mover = self.played as usize % 2;
        self.played += 1;
        self.last = Some(action);
        let (cell, colour) = (action as usize / 2, (action % 2) as u8 + 1);
        let sides = self.chains.place(self.grid, cell, colour);
        // Nobody was connected before this stone, and only its chain changed.
        let connected = [sides & GOAL[0] == GOAL[0], sides & GOAL[1] == GOAL[1]];
        self.winner = match connected {
            [true, true] => Some(mover),
            [true, false] => Some(0),
            [false, true] => Some(1),
            [false, false] => None,
        };
    }

    /// The move in canonical notation: `b:c3`.
    pub fn write(mv: Move) -> String {
        let colour = if mv.colour == BLACK { 'b' } else { 'w' };
        format!("{colour}:{}", write_coords(mv.c, mv.r))
    }

    /// Reads a move, `b:c3` or `w:c3` (white space deleted, either case), without checking it is
    /// legal (the notation needs no board).
    pub fn parse(text: &str) -> Result<Move, RuleError> {
        let word: String = text
            .chars()
            .filter(|c| !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect();
        let Some((colour, cell)) = word.split_once(':') else {
            return Err(RuleError(match word.as_str() {
                "swap" => "Chameleon is played without the pie rule: there is no swap; place a \
                           stone, like b:c3 or w:c3"
                    .into(),
                "resign" => "resign is not a move: send chameleon resign <board> <userid> \
                             <password> to resign"
                    .into(),
                "pass" => "there is no pass in Chameleon: place a stone, like b:c3 or w:c3".into(),
                _ => format!(
                    "'{word}': a move names the colour, then a colon, then the cell: b:c3 for a \
                     black stone on c3, w:c3 for a white one"
                ),
            }));
        };
        let colour = match colour {
            "b" => BLACK,
            "w" => WHITE,
            other => {
                return Err(RuleError(format!(
                    "'{other}' is not a colour: write b: for a black stone or w: for a white one, \
                     like b:c3"
                )));
            }
        };
        let (c, r) = read_cell(cell, MAX_SIZE)
            .map_err(|e| RuleError(format!("{e}; a move is like b:c3 or w:c3")))?;
        Ok(Move { colour, c, r })
    }

    /// The search's playout: random actions to the end, drawn exactly as the search's generic loop
    /// draws them from [`Rules::legal`]'s list (`pick` of twice the empty cells; the pick's
    /// half is the rank of the cell in index order, its parity the colour), without listing the cells
    /// again every ply. Pushes each action and its seat onto `played` when given.
    pub fn search_playout(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        mut played: Option<&mut Vec<(usize, u32)>>,
    ) {
        let mut empty = Empties::of(&self.chains);
        while let Some(seat) = self.seat_to_move() {
            if empty.is_empty() {
                break;
            }
            let k = pick(2 * empty.len());
            let cell = empty.take_nth(k / 2);
            let a = action(cell, (k % 2) as u8 + 1);
            if let Some(p) = played.as_deref_mut() {
                p.push((seat, u32::from(a)));
            }
            self.apply_action(a);
        }
    }
}

impl Rules for Position {
    type Move = Move;
    const GAME: &'static str = "chameleon";

    fn start(options: &[GameOption], players: usize) -> Result<Position, RuleError> {
        if players != 2 {
            return Err(RuleError(format!(
                "Chameleon is a game for 2 players, not {players}"
            )));
        }
        Ok(Position::new(super::size_from_options(options)?))
    }
    fn options(&self) -> Vec<GameOption> {
        vec![GameOption::with_value("size", &self.size.to_string())]
    }
    fn seat_names(&self) -> Vec<String> {
        super::view::SEATS.iter().map(|s| s.to_string()).collect()
    }
    fn to_move(&self) -> usize {
        self.played as usize % 2
    }
    fn outcome(&self) -> Option<Outcome> {
        self.winner.map(Outcome::Winner)
    }
    /// Both colours on every empty cell.
    fn legal(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.winner.is_some() {
            return;
        }
        for cell in self.chains.empty_cells() {
            let (c, r) = self.grid.coords(cell);
            out.push(Move {
                colour: BLACK,
                c,
                r,
            });
            out.push(Move {
                colour: WHITE,
                c,
                r,
            });
        }
    }
    fn check(&self, mv: Move) -> Result<(), RuleError> {
        let cell = self.grid.cell(mv.c, mv.r).ok_or_else(|| {
            RuleError(format!(
                "{}; a move is like b:c3 or w:c3",
                CellError::OffBoard(write_coords(mv.c, mv.r))
            ))
        })?;
        if self.chains.colour(cell) != EMPTY {
            return Err(RuleError(format!(
                "{} is taken: place your stone on an empty cell",
                self.grid.name(cell)
            )));
        }
        Ok(())
    }
    fn apply(&mut self, mv: Move) -> u32 {
        let action = self.action_here(mv) as u16;
        self.apply_action(action);
        0
    }
    /// The notation needs no board ([`Position::parse`]).
    fn read_here(&self, text: &str) -> Result<Move, RuleError> {
        Position::parse(text)
    }
    fn write_here(&self, mv: Move) -> String {
        Position::write(mv)
    }
    fn no_draw(&self) -> Option<RuleError> {
        Some(RuleError(
            "Chameleon has no draws: every game ends with a winner (resign to end it early)".into(),
        ))
    }
    fn action_space(&self) -> u32 {
        2 * self.grid.len() as u32
    }
    fn action_here(&self, mv: Move) -> u32 {
        let cell = self.grid.cell(mv.c, mv.r).expect("a legal move's cell");
        u32::from(action(cell, mv.colour))
    }
    fn move_here(&self, action: u32) -> Move {
        let (c, r) = self.grid.coords(action as usize / 2);
        Move {
            colour: (action % 2) as u8 + 1,
            c,
            r,
        }
    }
}

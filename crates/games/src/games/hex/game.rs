//! One Hex game: the stones and chains on the rhombus, the move list, and the rules of `hex-rules.md`
//! sections 4 to 7 (placing, the swap, the end).

use serde::{Deserialize, Serialize};

use super::options::Config;
use crate::games::RuleError;
use crate::games::hexgrid::turns::{self, Alternating};
use crate::games::hexgrid::{BOTTOM, Chains, EMPTY, Grid, LEFT, RIGHT, Sides, TOP};

/// Black's stones (seat 0) in [`Chains`].
pub const BLACK: u8 = 1;
/// White's stones (seat 1) in [`Chains`].
pub const WHITE: u8 = 2;

/// The sides each seat joins: Black top and bottom, White left and right.
pub const GOAL: [Sides; 2] = [TOP | BOTTOM, LEFT | RIGHT];

/// A move as read: a stone on a cell, or the swap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// A stone of the mover's colour on this cell index.
    Stone(usize),
    /// The swap of section 5.
    Swap,
}

pub use crate::games::hexgrid::turns::{Leaving, Left};

/// One Hex game.
#[derive(Debug, Clone)]
pub struct HexGame {
    cfg: Config,
    grid: &'static Grid,
    chains: Chains,
    /// The board moves so far as action ids (a cell index, or [`HexGame::swap_id`]).
    actions: Vec<u16>,
    winner: Option<usize>,
    left: Option<Left>,
}

/// The state document (`to_json` / `load`): the options and the move list, replayed on load.
#[derive(Serialize, Deserialize)]
pub(super) struct Doc {
    pub(super) game: String,
    pub(super) size: u8,
    pub(super) swap: bool,
    pub(super) moves: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) left: Option<Left>,
}

impl HexGame {
    /// A new game with these options.
    pub fn new(cfg: Config) -> HexGame {
        let grid = Grid::rhombus(cfg.size);
        HexGame {
            cfg,
            grid,
            chains: Chains::new(grid),
            actions: Vec::with_capacity(grid.len() + 1),
            winner: None,
            left: None,
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

    /// The seat to move, `None` once the game is over.
    #[inline]
    pub fn to_move(&self) -> Option<usize> {
        turns::to_move(self)
    }

    /// True when the swap is legal now: `-swap`, and this is move 2 of a game still going.
    #[inline]
    pub fn swap_legal(&self) -> bool {
        self.cfg.swap && self.actions.len() == 1 && self.winner.is_none()
    }

    /// The mirror of a cell in the long diagonal: `(c, r)` → `(r, c)`.
    pub fn mirror(&self, cell: usize) -> usize {
        let (c, r) = self.grid.coords(cell);
        self.grid.cell(r, c).expect("the rhombus is square")
    }

    /// Where the swapped stone stood, when move 2 was the swap: `(black's cell, white's cell)`.
    pub fn swapped(&self) -> Option<(usize, usize)> {
        if self.actions.get(1) != Some(&self.swap_id()) {
            return None;
        }
        let from = self.actions[0] as usize;
        Some((from, self.mirror(from)))
    }

    /// Reads a move (white space deleted, either case) without checking it is legal here.
    pub fn parse(&self, text: &str) -> Result<Move, RuleError> {
        let word: String = text
            .chars()
            .filter(|c| !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect();
        match word.as_str() {
            "swap" => Ok(Move::Swap),
            "resign" => Err(RuleError(
                "resign is not a move: send hex resign <board> <userid> <password> to resign"
                    .into(),
            )),
            "pass" => Err(RuleError(
                "there is no pass in Hex: place a stone on an empty cell, like c3".into(),
            )),
            _ => self
                .grid
                .parse(&word)
                .map(Move::Stone)
                .map_err(|e| RuleError(format!("{e}; a move is a cell like c3, or swap"))),
        }
    }

    /// Checks a move against the position; the error says why it is illegal.
    pub fn check(&self, mv: Move) -> Result<(), RuleError> {
        if self.to_move().is_none() {
            return Err(RuleError("the game is over: no more moves".into()));
        }
        match mv {
            Move::Stone(cell) => match self.chains.colour(cell) {
                EMPTY => Ok(()),
                colour => Err(RuleError(format!(
                    "{} is taken (a {} stone stands there): place your stone on an empty cell",
                    self.grid.name(cell),
                    if colour == BLACK { "black" } else { "white" }
                ))),
            },
            Move::Swap if self.swap_legal() => Ok(()),
            Move::Swap if !self.cfg.swap => Err(RuleError(
                "this game is played with -no_swap: there is no swap; place a stone".into(),
            )),
            Move::Swap if self.actions.is_empty() => Err(RuleError(
                "the swap is White's first move (move 2), after Black's first stone; Black places a stone first"
                    .into(),
            )),
            Move::Swap => Err(RuleError(format!(
                "the swap is legal only as move 2; this is move {}: place a stone",
                self.actions.len() + 1
            ))),
        }
    }

    /// Plays a legal action (a cell index or [`HexGame::swap_id`]) and decides the end.
    #[inline]
    pub fn apply(&mut self, action: u16) {
        let seat = self.actions.len() % 2;
        self.actions.push(action);
        if action == self.swap_id() {
            let white = self.mirror(self.actions[0] as usize);
            self.chains = Chains::new(self.grid);
            let sides = self.chains.place(self.grid, white, WHITE);
            if sides & GOAL[1] == GOAL[1] {
                self.winner = Some(1);
            }
            return;
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
        let seat = self.actions.len() % 2;
        let colour = if seat == 0 { BLACK } else { WHITE };
        let sides = self
            .chains
            .sides_if_placed(self.grid, action as usize, colour);
        sides & GOAL[seat] == GOAL[seat]
    }

    /// Reads, checks and plays a move.
    pub fn play_text(&mut self, text: &str) -> Result<(), RuleError> {
        let mv = self.parse(text)?;
        self.check(mv)?;
        self.apply(match mv {
            Move::Stone(cell) => cell as u16,
            Move::Swap => self.swap_id(),
        });
        Ok(())
    }

    /// The seat leaves: the other seat wins. Refused once the game is over.
    pub fn leave(&mut self, seat: usize, how: Leaving) -> Result<(), RuleError> {
        if seat > 1 {
            return Err(RuleError(format!("Hex has seats 0 and 1, not {seat}")));
        }
        if self.winner.is_some() {
            return Err(RuleError("the game is already over".into()));
        }
        self.left = Some(Left { seat, how });
        self.winner = Some(1 - seat);
        Ok(())
    }

    /// The canonical text of an action.
    pub fn action_name(&self, action: u16) -> String {
        if action == self.swap_id() {
            "swap".into()
        } else {
            self.grid.name(action as usize)
        }
    }

    /// The legal actions, cells in index order then the swap.
    pub fn legal(&self, out: &mut Vec<u32>) {
        out.clear();
        if self.to_move().is_none() {
            return;
        }
        out.extend(self.chains.empty_cells().map(|c| c as u32));
        if self.swap_legal() {
            out.push(u32::from(self.swap_id()));
        }
    }

    /// Random moves to the end; `pick(n)` chooses among the empty cells in a private order, the swap
    /// (when legal) being choice `n - 1`. Returns the number of moves played.
    pub fn playout(&mut self, pick: &mut dyn FnMut(usize) -> usize) -> u32 {
        if self.to_move().is_none() {
            return 0;
        }
        let mut empty: Vec<u16> = self.chains.empty_cells().map(|c| c as u16).collect();
        let mut played = 0;
        while self.winner.is_none() {
            let swap = self.swap_legal();
            let n = empty.len() + usize::from(swap);
            if n == 0 {
                break;
            }
            let k = pick(n);
            if k == empty.len() {
                self.apply(self.swap_id());
                empty = self.chains.empty_cells().map(|c| c as u16).collect();
            } else {
                let cell = empty.swap_remove(k);
                self.apply(cell);
            }
            played += 1;
        }
        played
    }

    /// The state document.
    pub(super) fn to_doc(&self) -> Doc {
        Doc {
            game: "hex".into(),
            size: self.cfg.size,
            swap: self.cfg.swap,
            moves: self.actions.iter().map(|&a| self.action_name(a)).collect(),
            left: self.left,
        }
    }

    /// The game a state document describes, its moves replayed and checked.
    pub(super) fn from_doc(doc: &Doc) -> Result<HexGame, RuleError> {
        if doc.game != "hex" {
            return Err(RuleError(format!(
                "this state is a {} game, not hex",
                doc.game
            )));
        }
        if !(super::options::MIN_SIZE..=super::options::MAX_SIZE).contains(&doc.size) {
            return Err(RuleError(format!("size {} is not 2 to 19", doc.size)));
        }
        let mut g = HexGame::new(Config {
            size: doc.size,
            swap: doc.swap,
        });
        for (i, m) in doc.moves.iter().enumerate() {
            g.play_text(m)
                .map_err(|e| RuleError(format!("move {} ({m}) of the state: {e}", i + 1)))?;
        }
        if let Some(l) = doc.left {
            g.leave(l.seat, l.how)?;
        }
        Ok(g)
    }
}

impl Alternating for HexGame {
    fn actions(&self) -> &[u16] {
        &self.actions
    }
    fn winner(&self) -> Option<usize> {
        self.winner
    }
    fn left(&self) -> Option<Left> {
        self.left
    }
    fn action_name(&self, action: u16) -> String {
        HexGame::action_name(self, action)
    }
    fn legal(&self, out: &mut Vec<u32>) {
        HexGame::legal(self, out)
    }
    fn apply(&mut self, action: u16) {
        HexGame::apply(self, action)
    }
    fn leave(&mut self, seat: usize, how: Leaving) -> Result<(), RuleError> {
        HexGame::leave(self, seat, how)
    }
    fn restart(&self) -> HexGame {
        HexGame::new(self.cfg)
    }
}

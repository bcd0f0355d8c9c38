//! One Chameleon game: Hex's rhombus where the mover places a stone of either colour, and a seat wins
//! by a chain of one colour, of either colour, joining its edges (`chameleon-rules.md` sections 4 to 7).

use serde::{Deserialize, Serialize};

use crate::games::RuleError;
use crate::games::hex::game::{GOAL, Leaving, Left};
use crate::games::hexgrid::turns::{self, Alternating};
use crate::games::hexgrid::{Chains, EMPTY, Empties, Grid};

/// A black stone in [`Chains`].
pub const BLACK: u8 = 1;
/// A white stone in [`Chains`].
pub const WHITE: u8 = 2;

/// One Chameleon game.
#[derive(Debug, Clone)]
pub struct ChameleonGame {
    size: u8,
    grid: &'static Grid,
    chains: Chains,
    /// The moves so far as action ids: `2 × cell + (colour − 1)`.
    actions: Vec<u16>,
    winner: Option<usize>,
    left: Option<Left>,
}

/// The state document: the size and the move list, replayed on load.
#[derive(Serialize, Deserialize)]
pub(super) struct Doc {
    pub(super) game: String,
    pub(super) size: u8,
    pub(super) moves: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) left: Option<Left>,
}

/// The action id of a stone of `colour` on `cell`.
#[inline]
pub fn action(cell: usize, colour: u8) -> u16 {
    (cell * 2) as u16 + u16::from(colour - 1)
}

impl ChameleonGame {
    /// A new game on a `size × size` board (the size already checked, 2 to 19).
    pub fn new(size: u8) -> ChameleonGame {
        let grid = Grid::rhombus(size);
        ChameleonGame {
            size,
            grid,
            chains: Chains::new(grid),
            actions: Vec::with_capacity(grid.len()),
            winner: None,
            left: None,
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
    pub fn to_move(&self) -> Option<usize> {
        turns::to_move(self)
    }

    /// Reads a move, `b:c3` or `w:c3` (white space deleted, either case), without checking it is legal.
    pub fn parse(&self, text: &str) -> Result<(usize, u8), RuleError> {
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
        let cell = self
            .grid
            .parse(cell)
            .map_err(|e| RuleError(format!("{e}; a move is like b:c3 or w:c3")))?;
        Ok((cell, colour))
    }

    /// Plays a legal action and decides the end (section 6).
    #[inline]
    pub fn apply(&mut self, action: u16) {
        let mover = self.actions.len() % 2;
        self.actions.push(action);
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

    /// Reads, checks and plays a move.
    pub fn play_text(&mut self, text: &str) -> Result<(), RuleError> {
        let (cell, colour) = self.parse(text)?;
        if self.to_move().is_none() {
            return Err(RuleError("the game is over: no more moves".into()));
        }
        if self.chains.colour(cell) != EMPTY {
            return Err(RuleError(format!(
                "{} is taken: place your stone on an empty cell",
                self.grid.name(cell)
            )));
        }
        self.apply(action(cell, colour));
        Ok(())
    }

    /// The seat leaves: the other seat wins. Refused once the game is over.
    pub fn leave(&mut self, seat: usize, how: Leaving) -> Result<(), RuleError> {
        if seat > 1 {
            return Err(RuleError(format!(
                "Chameleon has seats 0 and 1, not {seat}"
            )));
        }
        if self.winner.is_some() {
            return Err(RuleError("the game is already over".into()));
        }
        self.left = Some(Left { seat, how });
        self.winner = Some(1 - seat);
        Ok(())
    }

    /// The canonical text of an action: `b:c3`.
    pub fn action_name(&self, action: u16) -> String {
        let colour = if action.is_multiple_of(2) { 'b' } else { 'w' };
        format!("{colour}:{}", self.grid.name(action as usize / 2))
    }

    /// The legal actions: both colours on every empty cell.
    pub fn legal(&self, out: &mut Vec<u32>) {
        out.clear();
        if self.to_move().is_none() {
            return;
        }
        for cell in self.chains.empty_cells() {
            out.push(2 * cell as u32);
            out.push(2 * cell as u32 + 1);
        }
    }

    /// Random moves to the end; `pick(n)` chooses among the (empty cell, colour) pairs in a private
    /// order. Returns the number of moves played.
    pub fn playout(&mut self, pick: &mut dyn FnMut(usize) -> usize) -> u32 {
        if self.to_move().is_none() {
            return 0;
        }
        let mut empty: Vec<u16> = self.chains.empty_cells().map(|c| c as u16).collect();
        let mut played = 0;
        while self.winner.is_none() && !empty.is_empty() {
            let k = pick(2 * empty.len());
            let cell = empty.swap_remove(k / 2);
            self.apply(action(cell as usize, (k % 2) as u8 + 1));
            played += 1;
        }
        played
    }

    /// The search's playout: random actions to the end, drawn exactly as the search's generic loop
    /// draws them from [`ChameleonGame::legal`]'s list (`pick` of twice the empty cells; the pick's
    /// half is the rank of the cell in index order, its parity the colour), without listing the cells
    /// again every ply. Pushes each action and its seat onto `played` when given.
    pub fn search_playout(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        mut played: Option<&mut Vec<(usize, u32)>>,
    ) {
        let mut empty = Empties::of(&self.chains);
        while let Some(seat) = self.to_move() {
            if empty.is_empty() {
                break;
            }
            let k = pick(2 * empty.len());
            let cell = empty.take_nth(k / 2);
            let a = action(cell, (k % 2) as u8 + 1);
            if let Some(p) = played.as_deref_mut() {
                p.push((seat, u32::from(a)));
            }
            self.apply(a);
        }
    }

    /// The state document.
    pub(super) fn to_doc(&self) -> Doc {
        Doc {
            game: "chameleon".into(),
            size: self.size,
            moves: self.actions.iter().map(|&a| self.action_name(a)).collect(),
            left: self.left,
        }
    }

    /// The game a state document describes, its moves replayed and checked.
    pub(super) fn from_doc(doc: &Doc) -> Result<ChameleonGame, RuleError> {
        if doc.game != "chameleon" {
            return Err(RuleError(format!(
                "this state is a {} game, not chameleon",
                doc.game
            )));
        }
        if !(2..=19).contains(&doc.size) {
            return Err(RuleError(format!("size {} is not 2 to 19", doc.size)));
        }
        let mut g = ChameleonGame::new(doc.size);
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

impl Alternating for ChameleonGame {
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
        ChameleonGame::action_name(self, action)
    }
    fn legal(&self, out: &mut Vec<u32>) {
        ChameleonGame::legal(self, out)
    }
    fn apply(&mut self, action: u16) {
        ChameleonGame::apply(self, action)
    }
    fn leave(&mut self, seat: usize, how: Leaving) -> Result<(), RuleError> {
        ChameleonGame::leave(self, seat, how)
    }
    fn restart(&self) -> ChameleonGame {
        ChameleonGame::new(self.size)
    }
}

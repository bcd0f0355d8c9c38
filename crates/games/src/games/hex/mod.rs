//! Hex with the swap, as `../shared/spec/games/hex-rules.md` settles it.
//!
//! [`game::Position`] is the position and its rules, on the shared rhombus of
//! [`crate::games::hexgrid`], and [`HexGame`] its game, the move record of
//! [`crate::games::matchplay`]; [`options`] reads a challenge's options; [`view`] draws the board
//! (ASCII, SVG, the neutral board) and writes the notes of the board mail.
//! The search's playouts save bridges (`playout.rs`, [`Position::bridge_playout`]).

pub mod game;
pub mod options;
mod playout;
pub mod view;

#[cfg(test)]
mod tests;

use super::hexgrid::Chains;
use super::hexgrid::playout::{self as swap_playout, SwapPlay};
use super::matchplay::{Entry, Match, Rules, Search, View};
use super::{GameOption, GameRules, GameState, RuleError};
pub use game::{HexGame, Move, Position};
pub use options::Config;

/// The game type Hex, as the server's registry lists it.
pub struct Hex;

impl GameRules for Hex {
    fn name(&self) -> &'static str {
        "hex"
    }
    fn title(&self) -> &'static str {
        "Hex"
    }
    fn players(&self) -> std::ops::RangeInclusive<usize> {
        2..=2
    }
    fn help(&self) -> String {
        HELP.to_string()
    }
    fn new_game(
        &self,
        options: &[GameOption],
        players: usize,
        _seed: u64,
    ) -> Result<Box<dyn GameState>, RuleError> {
        Ok(Box::new(HexGame::new(options, players)?))
    }
    fn load(&self, json: &str) -> Result<Box<dyn GameState>, RuleError> {
        Ok(Box::new(HexGame::load(json)?))
    }
    fn read_move(&self, mv: &str) -> Result<(), RuleError> {
        Position::read(mv).map(|_| ())
    }
}

impl Match<Position> {
    /// The board moves so far as action ids (a cell index, or the swap's id), for the views.
    pub fn actions(&self) -> Vec<u16> {
        self.entries()
            .iter()
            .filter_map(|e| match e {
                super::matchplay::Entry::Moved { mv, .. } => {
                    Some(self.position().action_here(*mv) as u16)
                }
                _ => None,
            })
            .collect()
    }
}

impl View for Position {
    fn ascii(game: &HexGame) -> String {
        view::render(game)
    }
    fn paint(game: &HexGame, p: &mut dyn crate::picture::Painter) -> bool {
        view::paint(game, p);
        true
    }
    fn notes(game: &HexGame) -> Vec<String> {
        view::notes(game)
    }
    fn status_seat(seat: usize) -> Option<String> {
        Some(seat.to_string())
    }
    fn board_view(game: &HexGame) -> Option<crate::games::Board> {
        Some(view::board_view(game))
    }
    fn example_moves(game: &HexGame) -> Option<Vec<String>> {
        Some(view::example_moves(game))
    }
    fn turn_notes(game: &HexGame, since: u32) -> Option<Vec<String>> {
        Some(view::turn_notes(game, since))
    }
    fn sgf_form(game: &HexGame) -> Option<crate::games::SgfForm> {
        // As HexGui writes it (records.md 2.2): cells as named here, the swap as `swap-pieces`, a
        // resignation as a `resign` node of the side that resigned; a loss on time is no node.
        let nodes = game
            .moves()
            .into_iter()
            .map(|m| {
                let colour = if m.seat == 0 { 'B' } else { 'W' };
                match m.text.as_str() {
                    "swap" => Some((colour, "swap-pieces".to_string())),
                    "forfeit" => None,
                    text => Some((colour, text.to_string())),
                }
            })
            .collect();
        Some(crate::games::SgfForm {
            game_number: 11,
            size: game.config().size.to_string(),
            root: Vec::new(),
            nodes,
            margin: None,
            last_node: Vec::new(),
            last_comment: None,
        })
    }
}

impl Search for Position {
    /// The empty cells in a private order, the swap (when legal) the last choice.
    fn random_moves(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        played: &mut Vec<Entry<Move>>,
    ) -> Option<u32> {
        Some(swap_playout::random_moves(self, pick, played))
    }
    fn playout(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        played: Option<&mut Vec<(usize, u32)>>,
    ) -> bool {
        self.bridge_playout(pick, played);
        true
    }
    fn level_playouts(&self, level: u8) -> Option<u32> {
        // robot1 plays on fewer playouts than the search's table gives (1,000): with 1,000 against
        // robot2's 5,000, robot2 won too few games against it for the ladder's 0.65, with random
        // playouts and with bridge-saving ones (docs/robot.md "Hex on the generic search").
        (level == 1).then_some(HEX_ROBOT1_PLAYOUTS)
    }
    fn may_win_at_once(&self, action: u32) -> bool {
        // Exactly the stones that join the mover's sides; the swap is left to the copy.
        self.stone_may_win(action)
    }
}

impl SwapPlay for Position {
    type Move = Move;
    fn chains(&self) -> &Chains {
        Position::chains(self)
    }
    fn over(&self) -> bool {
        self.outcome().is_some()
    }
    fn swap_open(&self) -> bool {
        self.swap_legal()
    }
    fn mover(&self) -> usize {
        Position::mover(self)
    }
    fn place(&mut self, cell: usize) -> Move {
        self.apply_action(cell as u16);
        let (c, r) = self.grid().coords(cell);
        Move::Stone(c, r)
    }
    /// The swap mirrors the first stone: the empty cells change.
    fn swap(&mut self) -> (Move, bool) {
        self.apply_action(self.swap_id());
        (Move::Swap, true)
    }
}

/// The playouts of Hex's robot1 (robot2 and robot3 keep the search's 5,000 and 30,000).
pub const HEX_ROBOT1_PLAYOUTS: u32 = 300;

/// The help page mailed for `hex help`.
pub const HELP: &str = include_str!("help.txt");

//! Othello (Reversi), as `othello-rules.md` settles it: the first game on the shared move record
//! ([`crate::games::matchplay::Match`]). Its folder is a position ([`position`]: the rules on two
//! 64-bit sets, and the robot's playout policy), a notation ([`notation`]) and a view ([`view`]: the
//! ASCII board and the picture); the move list, resignations, draws, earlier positions and the stored
//! document are the shared record's.

pub mod notation;
pub mod position;
pub mod view;

#[cfg(test)]
mod tests;

use super::matchplay::{Match, Rules};
use super::{GameOption, GameRules, GameState, RuleError};
pub use position::Position;

/// The game type Othello.
pub struct Othello;

/// A game of Othello.
pub type OthelloGame = Match<Position>;

impl Othello {
    /// The name in subjects and summaries.
    pub const TITLE: &'static str = "Othello";
}

impl GameRules for Othello {
    fn name(&self) -> &'static str {
        Position::GAME
    }
    fn title(&self) -> &'static str {
        Othello::TITLE
    }
    fn players(&self) -> std::ops::RangeInclusive<usize> {
        2..=2
    }
    fn help(&self) -> String {
        include_str!("help.txt").to_string()
    }
    fn new_game(
        &self,
        options: &[GameOption],
        players: usize,
        _seed: u64,
    ) -> Result<Box<dyn GameState>, RuleError> {
        Ok(Box::new(OthelloGame::new(options, players)?))
    }
    fn load(&self, json: &str) -> Result<Box<dyn GameState>, RuleError> {
        Ok(Box::new(OthelloGame::load(json)?))
    }
    fn read_move(&self, mv: &str) -> Result<(), RuleError> {
        notation::read(mv).map(|_| ())
    }
}

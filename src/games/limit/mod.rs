//! Cameron Browne's Limit. (Being written.)

pub mod board;
pub mod geom;
pub mod layout;
pub mod notation;
pub mod options;
pub mod render;
pub mod view;

use super::{GameOption, GameRules, GameState, RuleError};

/// The game type Limit, as the server's registry lists it.
pub struct Limit;

impl GameRules for Limit {
    fn name(&self) -> &'static str {
        "limit"
    }
    fn title(&self) -> &'static str {
        "Limit"
    }
    fn players(&self) -> std::ops::RangeInclusive<usize> {
        2..=3
    }
    fn help(&self) -> String {
        String::new()
    }
    fn new_game(
        &self,
        _options: &[GameOption],
        _players: usize,
        _seed: u64,
    ) -> Result<Box<dyn GameState>, RuleError> {
        Err(RuleError("not yet".into()))
    }
    fn load(&self, _json: &str) -> Result<Box<dyn GameState>, RuleError> {
        Err(RuleError("not yet".into()))
    }
}

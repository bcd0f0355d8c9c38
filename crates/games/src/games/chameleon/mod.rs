//! Chameleon, as `../shared/spec/games/chameleon-rules.md` settles it: Hex's board, names and
//! neighbours, but the mover places a stone of either colour, and a seat wins with a chain of one
//! colour, either colour, joining its edges.
//!
//! [`game::Position`] is the position and its rules on [`crate::games::hexgrid`]'s rhombus,
//! [`ChameleonGame`] its game (the move record of [`crate::games::matchplay`]); [`view`] draws it.

pub mod game;
pub mod view;

#[cfg(test)]
mod tests;

use super::hexgrid::rhombus::{DEFAULT_SIZE, GOAL, read_size};
use super::matchplay::{Entry, Rules, Search, View};
use super::{GameOption, GameRules, GameState, RuleError};
pub use game::{ChameleonGame, Position};

/// The game type Chameleon, as the server's registry lists it.
pub struct Chameleon;

/// What `chameleon challenge` takes, for the errors.
const VALID: &str = "the option of chameleon is -size=n (n from 2 to 19, default 11)";

/// Reads a challenge's options: `-size=n` only; the swap options are refused with the reason.
pub fn size_from_options(options: &[GameOption]) -> Result<u8, RuleError> {
    let mut size = None;
    for o in options {
        match o.name.to_ascii_lowercase().as_str() {
            "size" if size.is_some() => {
                return Err(RuleError(format!("-size is given twice; {VALID}")));
            }
            "size" => size = Some(read_size(o, VALID)?),
            "swap" | "no_swap" => {
                return Err(RuleError(format!(
                    "-{} is refused: Chameleon is played without the pie rule (the first player has \
                     no real advantage, since either player may place either colour); {VALID}",
                    o.name
                )));
            }
            _ => return Err(RuleError(format!("unknown option {o}; {VALID}"))),
        }
    }
    Ok(size.unwrap_or(DEFAULT_SIZE))
}

impl GameRules for Chameleon {
    fn name(&self) -> &'static str {
        "chameleon"
    }
    fn title(&self) -> &'static str {
        "Chameleon"
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
        Ok(Box::new(ChameleonGame::new(options, players)?))
    }
    fn load(&self, json: &str) -> Result<Box<dyn GameState>, RuleError> {
        Ok(Box::new(ChameleonGame::load(json)?))
    }
    fn read_move(&self, mv: &str) -> Result<(), RuleError> {
        Position::parse(mv).map(|_| ())
    }
}

impl View for Position {
    fn ascii(game: &ChameleonGame) -> String {
        view::render(game)
    }
    fn paint(game: &ChameleonGame, p: &mut dyn crate::picture::Painter) -> bool {
        view::paint(game, p);
        true
    }
    fn status_seat(seat: usize) -> Option<String> {
        Some(seat.to_string())
    }
    fn board_view(game: &ChameleonGame) -> Option<crate::games::Board> {
        Some(view::board_view(game))
    }
    fn example_moves(game: &ChameleonGame) -> Option<Vec<String>> {
        // One stone of each colour, so the player sees that either may be placed.
        let mut moves = Vec::new();
        game.legal(&mut moves);
        Some(moves.into_iter().take(2).map(Position::write).collect())
    }
}

impl Search for Position {
    /// The (empty cell, colour) pairs in a private order.
    fn random_moves(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        played: &mut Vec<Entry<game::Move>>,
    ) -> Option<u32> {
        let mut empty = self.chains().empty_list();
        // At most one move a cell: the list grows once.
        played.reserve(empty.len());
        let before = played.len();
        while self.outcome().is_none() && !empty.is_empty() {
            let seat = self.to_move();
            let k = pick(2 * empty.len());
            let cell = empty.swap_remove(k / 2);
            let colour = (k % 2) as u8 + 1;
            self.apply_action(game::action(usize::from(cell), colour));
            let (c, r) = self.grid().coords(usize::from(cell));
            played.push(Entry::Moved {
                seat,
                mv: game::Move { colour, c, r },
            });
        }
        Some((played.len() - before) as u32)
    }
    fn playout(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        played: Option<&mut Vec<(usize, u32)>>,
    ) -> bool {
        self.search_playout(pick, played);
        true
    }
    fn may_win_at_once(&self, action: u32) -> bool {
        // Exactly the stones that end the game (section 6): the search then copies the game for
        // these only, not for every action of every position it lists.
        let (cell, colour) = (action as usize / 2, (action % 2) as u8 + 1);
        let sides = self.chains().sides_if_placed(self.grid(), cell, colour);
        sides & GOAL[0] == GOAL[0] || sides & GOAL[1] == GOAL[1]
    }
}

/// The help page mailed for `chameleon help`.
pub const HELP: &str = include_str!("help.txt");

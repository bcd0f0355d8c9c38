//! Chameleon, as `../shared/spec/games/chameleon-rules.md` settles it: Hex's board, names and
//! neighbours, but the mover places a stone of either colour, and a seat wins with a chain of one
//! colour, either colour, joining its edges.
//!
//! [`game::ChameleonGame`] is the engine on [`crate::games::hexgrid`]'s rhombus; [`view`] draws it.

pub mod game;
pub mod view;

#[cfg(test)]
mod tests;

use super::hex::game::GOAL;
use super::hex::options::{DEFAULT_SIZE, read_size};
use super::hexgrid::turns::{self, Leaving};
use super::{GameOption, GameRules, GameState, MoveRecord, RuleError, Status};
pub use game::ChameleonGame;

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
        if players != 2 {
            return Err(RuleError(format!(
                "Chameleon is a game for 2 players, not {players}"
            )));
        }
        Ok(Box::new(ChameleonGame::new(size_from_options(options)?)))
    }
    fn load(&self, json: &str) -> Result<Box<dyn GameState>, RuleError> {
        let doc: game::Doc = serde_json::from_str(json)
            .map_err(|e| RuleError(format!("not a Chameleon state document: {e}")))?;
        Ok(Box::new(ChameleonGame::from_doc(&doc)?))
    }
    fn read_move(&self, mv: &str) -> Result<(), RuleError> {
        ChameleonGame::new(super::hex::options::MAX_SIZE)
            .parse(mv)
            .map(|_| ())
    }
}

impl GameState for ChameleonGame {
    fn to_json(&self) -> String {
        serde_json::to_string(&self.to_doc()).expect("a Chameleon document serializes")
    }
    fn clone_box(&self) -> Box<dyn GameState> {
        Box::new(self.clone())
    }
    fn status(&self) -> Status {
        turns::status(self)
    }
    fn seat_names(&self) -> Vec<String> {
        view::SEATS.iter().map(|s| s.to_string()).collect()
    }
    fn status_seat(&self, seat: usize) -> String {
        seat.to_string()
    }
    fn move_number(&self) -> u32 {
        turns::entries(self) as u32 + 1
    }
    fn moves(&self) -> Vec<MoveRecord> {
        turns::records(self)
    }
    fn options_summary(&self) -> String {
        format!("-size={}", self.size())
    }
    fn legal_moves(&self) -> Vec<String> {
        let mut ids = Vec::new();
        self.legal(&mut ids);
        let mut out: Vec<String> = ids.iter().map(|&a| self.action_name(a as u16)).collect();
        out.sort();
        out
    }
    fn play(&mut self, mv: &str) -> Result<(), RuleError> {
        self.play_text(mv)
    }
    fn resign(&mut self, seat: usize) -> Result<(), RuleError> {
        self.leave(seat, Leaving::Resign)
    }
    fn forfeit(&mut self, seat: usize) -> Result<(), RuleError> {
        self.leave(seat, Leaving::Forfeit)
    }
    fn agree_draw(&mut self) -> Result<(), RuleError> {
        Err(RuleError(
            "Chameleon has no draws: every game ends with a winner (resign to end it early)".into(),
        ))
    }
    fn at_move(&self, n: u32) -> Result<Box<dyn GameState>, RuleError> {
        Ok(Box::new(turns::at_move(self, n)?))
    }
    fn board_view(&self) -> crate::games::Board {
        view::board_view(self)
    }
    fn render(&self) -> String {
        view::render(self)
    }
    fn paint(&self, p: &mut dyn crate::picture::Painter) -> bool {
        view::paint(self, p);
        true
    }
    fn perft(&self, depth: u32) -> u64 {
        turns::perft(self, depth)
    }
    fn random_playout(&mut self, pick: &mut dyn FnMut(usize) -> usize) -> u32 {
        self.playout(pick)
    }
    fn search_playout(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        played: Option<&mut Vec<(usize, u32)>>,
    ) -> bool {
        ChameleonGame::search_playout(self, pick, played);
        true
    }
    fn may_win_at_once(&self, action: u32) -> bool {
        // Exactly the stones that end the game (section 6): the search then copies the game for
        // these only, not for every action of every position it lists.
        let (cell, colour) = (action as usize / 2, (action % 2) as u8 + 1);
        let sides = self.chains().sides_if_placed(self.grid(), cell, colour);
        sides & GOAL[0] == GOAL[0] || sides & GOAL[1] == GOAL[1]
    }
    fn action_space(&self) -> u32 {
        2 * self.grid().len() as u32
    }
    fn legal_actions(&self, out: &mut Vec<u32>) {
        self.legal(out);
    }
    fn apply_action(&mut self, action: u32) {
        self.apply(action as u16);
    }
    fn action_text(&self, action: u32) -> String {
        self.action_name(action as u16)
    }
    fn example_moves(&self) -> Vec<String> {
        // One stone of each colour, so the player sees that either may be placed.
        let mut ids = Vec::new();
        self.legal(&mut ids);
        ids.iter()
            .take(2)
            .map(|&a| self.action_name(a as u16))
            .collect()
    }
}

/// The help page mailed for `chameleon help`.
pub const HELP: &str = include_str!("help.txt");

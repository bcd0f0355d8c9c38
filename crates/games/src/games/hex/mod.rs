//! Hex with the swap, as `../shared/spec/games/hex-rules.md` settles it.
//!
//! [`game::HexGame`] is the engine, on the shared rhombus of [`crate::games::hexgrid`]; [`options`] reads
//! a challenge's options; [`view`] draws the board (ASCII, SVG, the neutral board) and writes the notes
//! of the board mail.
//! The search's playouts save bridges (`playout.rs`, [`HexGame::bridge_playout`]).

pub mod game;
pub mod options;
mod playout;
pub mod view;

#[cfg(test)]
mod tests;

use super::hexgrid::turns;
use super::{GameOption, GameRules, GameState, MoveRecord, RuleError, Status};
pub use game::{HexGame, Move};
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
        if players != 2 {
            return Err(RuleError(format!(
                "Hex is a game for 2 players, not {players}"
            )));
        }
        Ok(Box::new(HexGame::new(Config::from_options(options)?)))
    }
    fn load(&self, json: &str) -> Result<Box<dyn GameState>, RuleError> {
        let doc: game::Doc = serde_json::from_str(json)
            .map_err(|e| RuleError(format!("not a Hex state document: {e}")))?;
        Ok(Box::new(HexGame::from_doc(&doc)?))
    }
    fn read_move(&self, mv: &str) -> Result<(), RuleError> {
        // The board's size is not known here: read it as on the largest board.
        HexGame::new(Config {
            size: options::MAX_SIZE,
            swap: true,
        })
        .parse(mv)
        .map(|_| ())
    }
}

impl GameState for HexGame {
    fn to_json(&self) -> String {
        serde_json::to_string(&self.to_doc()).expect("a Hex document serializes")
    }
    fn clone_box(&self) -> Box<dyn GameState> {
        Box::new(self.clone())
    }
    fn status(&self) -> Status {
        turns::status(self)
    }
    fn seat_names(&self) -> Vec<String> {
        vec!["Black".into(), "White".into()]
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
        self.config().summary()
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
        self.leave(seat, game::Leaving::Resign)
    }
    fn forfeit(&mut self, seat: usize) -> Result<(), RuleError> {
        self.leave(seat, game::Leaving::Forfeit)
    }
    fn agree_draw(&mut self) -> Result<(), RuleError> {
        Err(RuleError(
            "Hex has no draws: every game ends with a winner (resign to end it early)".into(),
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
    fn action_space(&self) -> u32 {
        u32::from(self.swap_id()) + 1
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
    fn sgf_form(&self) -> Option<crate::games::SgfForm> {
        // As HexGui writes it (records.md 2.2): cells as named here, the swap as `swap-pieces`, a
        // resignation as a `resign` node of the side that resigned; a loss on time is no node.
        let nodes = turns::records(self)
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
            size: self.config().size.to_string(),
            root: Vec::new(),
            nodes,
            margin: None,
            last_node: Vec::new(),
            last_comment: None,
        })
    }
    fn example_moves(&self) -> Vec<String> {
        view::example_moves(self)
    }
    fn turn_notes(&self, since: u32) -> Vec<String> {
        view::turn_notes(self, since)
    }
    fn notes(&self) -> Vec<String> {
        view::notes(self)
    }
}

/// The playouts of Hex's robot1 (robot2 and robot3 keep the search's 5,000 and 30,000).
pub const HEX_ROBOT1_PLAYOUTS: u32 = 300;

/// The help page mailed for `hex help`.
pub const HELP: &str = include_str!("help.txt");

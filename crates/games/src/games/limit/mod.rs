//! Cameron Browne's Limit, as `../shared/spec/limit-rules.md` settles it: both rule sets (default and
//! `-classic`), two and three players, every challenge option.
//!
//! [`game::Game`] is the engine; [`board`] holds the movement rules as bit operations over tile indices;
//! [`json`] reads and writes the state document; [`notation`] the move syntax; [`layout`] the random
//! layout; [`view`] turns a position into the game-neutral board that [`render`] (ASCII) and [`svg`]
//! draw; [`robot`] the computer player.

pub mod actions;
pub mod board;
pub mod game;
pub mod geom;
pub mod json;
pub mod layout;
pub mod notation;
pub mod options;
pub mod render;
pub mod robot;
pub mod svg;
pub mod view;

#[cfg(test)]
mod rules_tests;

use super::{
    GameOption, GameRules, GameState, Loss, MoveRecord, Outcome, Robot, RuleError, Status,
};
pub use game::{Game, IllegalMove, Phase, SeatState};
pub use notation::Move;
pub use options::Config;

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
        HELP.to_string()
    }
    fn new_game(
        &self,
        options: &[GameOption],
        players: usize,
        seed: u64,
    ) -> Result<Box<dyn GameState>, RuleError> {
        let cfg = Config::from_options(options)?;
        Ok(Box::new(Game::new(cfg, players, seed)?))
    }
    fn load(&self, json: &str) -> Result<Box<dyn GameState>, RuleError> {
        Ok(Box::new(json::from_json(json)?))
    }
    fn read_move(&self, mv: &str) -> Result<(), RuleError> {
        notation::Move::parse(mv).map_err(game::IllegalMove::from)?;
        Ok(())
    }
    fn has_robot(&self) -> bool {
        true
    }
}

impl Game {
    /// One line: whose turn and what to do, or how the game ended.
    pub fn status_line(&self) -> String {
        match (self.result(), self.to_move()) {
            (Some(Outcome::Winner(s)), _) => format!("{} wins", self.side_title(*s)),
            (Some(Outcome::Draw(v)), _) => {
                let names: Vec<String> = v.iter().map(|&s| self.side_title(s)).collect();
                format!("Draw between {}", names.join(" and "))
            }
            (None, Some(s)) => {
                let what = match self.phase() {
                    Phase::Manual => "to lay a tile (placement phase)",
                    Phase::ClassicTiles => "to lay two tiles and a ball (placement phase)",
                    Phase::ClassicBalls => "to place a ball (placement phase)",
                    _ => "to move (movement phase)",
                };
                format!("{} {what}", self.side_title(s))
            }
            (None, None) => "Game over".into(),
        }
    }
}

/// The part of its share of a draw the robot gives up under `-move_or_remove` (the search's default
/// is 0.8).
const MOVE_OR_REMOVE_CONTEMPT: f32 = 0.98;

impl GameState for Game {
    fn to_json(&self) -> String {
        json::to_json(self)
    }
    fn clone_box(&self) -> Box<dyn GameState> {
        Box::new(self.clone())
    }
    fn status(&self) -> Status {
        match (self.result(), self.to_move()) {
            (Some(o), _) => Status::Over(o.clone()),
            (None, Some(s)) => Status::ToMove(s),
            (None, None) => Status::Over(Outcome::Draw(Vec::new())),
        }
    }
    fn seat_names(&self) -> Vec<String> {
        (0..self.players()).map(|s| self.side_title(s)).collect()
    }
    fn move_number(&self) -> u32 {
        self.records().len() as u32 + 1
    }
    fn moves(&self) -> Vec<MoveRecord> {
        self.records().to_vec()
    }
    fn options_summary(&self) -> String {
        self.config().summary()
    }
    fn legal_moves(&self) -> Vec<String> {
        self.legal().iter().map(|m| m.to_string()).collect()
    }
    fn play(&mut self, mv: &str) -> Result<(), RuleError> {
        Ok(self.play_str(mv)?)
    }
    fn resign(&mut self, seat: usize) -> Result<(), RuleError> {
        Ok(Game::resign(self, seat)?)
    }
    fn forfeit(&mut self, seat: usize) -> Result<(), RuleError> {
        Ok(Game::forfeit(self, seat)?)
    }
    fn agree_draw(&mut self) -> Result<(), RuleError> {
        Ok(Game::agree_draw(self)?)
    }
    fn at_move(&self, n: u32) -> Result<Box<dyn GameState>, RuleError> {
        Ok(Box::new(Game::at_move(self, n)?))
    }
    fn board_view(&self) -> crate::games::board::Board {
        Game::board_view(self)
    }
    fn render(&self) -> String {
        render::render(&Game::board_view(self))
    }
    fn perft(&self, depth: u32) -> u64 {
        Game::perft(self, depth)
    }
    fn random_playout(&mut self, pick: &mut dyn FnMut(usize) -> usize) -> u32 {
        self.playout(pick)
    }
    fn robot_move(&self, robot: Robot, seed: u64) -> Option<String> {
        let mv = match robot {
            Robot::Random => robot::random_move(self, seed),
            Robot::Greedy => robot::greedy_move(self, seed),
            _ => return crate::games::search::robot_move(self.clone_box(), robot, seed),
        };
        mv.map(|m| m.to_string())
    }
    fn action_space(&self) -> u32 {
        actions::ACTION_SPACE
    }
    fn legal_actions(&self, out: &mut Vec<u32>) {
        self.action_ids(out);
    }
    fn apply_action(&mut self, action: u32) {
        self.play_action_id(action);
    }
    fn action_text(&self, action: u32) -> String {
        self.action_move(action).to_string()
    }
    fn search_rave(&self) -> bool {
        // A Limit turn's worth depends on the moment (captures, freedoms): all-moves-as-first misleads.
        false
    }
    fn search_copy(&self) -> Box<dyn GameState> {
        let mut g = Game {
            records: Vec::new(),
            ..self.clone()
        };
        g.records.shrink_to_fit();
        Box::new(g)
    }
    fn action_priors(&self, actions: &[u32], out: &mut Vec<f32>) {
        self.action_prior_scores(actions, out);
    }
    fn may_win_at_once(&self, _action: u32) -> bool {
        // The priors mark the turns that capture every other pawn; a win by elimination is seen when
        // the search plays the turn.
        false
    }
    fn action_group(&self, action: u32) -> Option<u32> {
        self.action_group_of(action)
    }
    fn search_playout(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        played: Option<&mut Vec<(usize, u32)>>,
    ) -> bool {
        self.policy_playout_ids(pick, played);
        true
    }
    fn search_contempt(&self) -> Option<f32> {
        // Under -move_or_remove a draw is on offer at almost every turn. At the search's usual 0.8
        // the robot still took draws (a tenth of a point to it) where a removal kept a fair chance
        // of a win: removals are judged against an opponent who answers every one at its best, a
        // draw is exact. Valued at a hundredth of a point, a draw is taken only when nothing else
        // is expected to score (docs/robot.md, "Limit -move_or_remove").
        (self.config().mode == options::Mode::MoveOrRemove).then_some(MOVE_OR_REMOVE_CONTEMPT)
    }
    fn level_playouts(&self, level: u8) -> Option<u32> {
        // A placement playout lists every placement at each turn: ten to forty times a movement one.
        (self.phase() != Phase::Movement && self.phase() != Phase::Over)
            .then(|| robot::Level::from_number(level).map(robot::Level::placement_playouts))
            .flatten()
    }
    fn paint(&self, p: &mut dyn crate::picture::Painter) -> bool {
        svg::paint(self, p);
        true
    }
    fn turn_notes(&self, since: u32) -> Vec<String> {
        let mut out = Vec::new();
        let first = since.saturating_sub(1) as usize;
        for (k, rec) in self.records().iter().enumerate().skip(first) {
            if !rec.auto {
                continue;
            }
            let who = self.side_title(rec.seat);
            let Ok(before) = self.at_move(k as u32 + 1) else {
                break;
            };
            out.push(match (rec.text.as_str(), before.phase()) {
                ("eliminated", _) => {
                    format!("{who} is out of the game (Auto): no legal turn was left to {who}.")
                }
                ("pass", Phase::Movement) => {
                    format!("{who} passes (Auto): {who} had no legal turn.")
                }
                ("pass", _) => {
                    format!("{who} passes (Auto): no free tile of a colour {who} may place on.")
                }
                (other, _) => format!("{who}: {other} (Auto)."),
            });
        }
        out
    }
    fn losses(&self, index: usize) -> Vec<Loss> {
        let records = self.records();
        let Some(rec) = records.get(index) else {
            return Vec::new();
        };
        // Leaving the game takes the seat's pawns off: that is no capture.
        if rec.auto || matches!(rec.text.as_str(), "resign" | "forfeit" | "draw") {
            return Vec::new();
        }
        let Ok(before) = self.at_move(index as u32 + 1) else {
            return Vec::new();
        };
        let after = if index + 1 == records.len() {
            self.clone()
        } else {
            match self.at_move(index as u32 + 2) {
                Ok(g) => g,
                Err(_) => return Vec::new(),
            }
        };
        let (b, a) = (before.board(), after.board());
        let mut out = Vec::new();
        for s in 0..self.players() {
            // The mover's pawn that moved leaves its cell: only lost pawns count, by number.
            let lost = b.m.pawns[s]
                .count_ones()
                .saturating_sub(a.m.pawns[s].count_ones());
            if lost == 0 {
                continue;
            }
            let mut cells: Vec<u32> = board::bits(b.m.pawns[s] & !a.m.pawns[s])
                .map(|i| b.num[i])
                .collect();
            cells.sort_unstable();
            if s == rec.seat && cells.len() > lost as usize {
                // The moving pawn's start is among them; it was not captured.
                cells.retain(|n| !rec.text.starts_with(&format!("{n}-")));
            }
            out.push(Loss {
                seat: s,
                cells: cells.iter().map(u32::to_string).collect(),
                piece: "pawn",
            });
        }
        out
    }
    fn notes(&self) -> Vec<String> {
        let mut out = Vec::new();
        for s in 0..self.players() {
            if self.held_back[s] > 0 {
                out.push(format!(
                    "{} pawn(s) of {} stay in the box: their tiles had no neighbour of a colour without pawns.",
                    self.held_back[s],
                    self.side_title(s)
                ));
            } else if self.in_box(s) > 0 && matches!(self.phase(), Phase::Movement | Phase::Over) {
                out.push(format!(
                    "{} {} ball(s) stay in the box.",
                    self.side_title(s),
                    self.in_box(s)
                ));
            }
        }
        if self.set_aside > 0 {
            out.push(format!(
                "{} tile(s) could not be laid and were set aside.",
                self.set_aside
            ));
        }
        out
    }
}

/// The help page mailed for `limit help`.
pub const HELP: &str = include_str!("help.txt");

//! Cameron Browne's Limit, as `../shared/spec/limit-rules.md` settles it: both rule sets (default and
//! `-classic`), two and three players, every challenge option.
//!
//! [`Game`] is a game on the generic record, `Match<Position>`; [`game::Position`] is the rules
//! engine (`impl Rules`), [`board`] holds the movement rules as bit operations over tile indices;
//! [`documents`] reads the documents stored before Limit was on the record; [`notation`] the move
//! syntax; [`layout`] the random layout; [`view`] turns a position into the game-neutral board that
//! [`render`] (ASCII) and [`svg`] draw (`impl View`); [`robot`] the computer player, with
//! [`actions`] the search's hooks (`impl Search`).

pub mod actions;
pub mod board;
pub mod documents;
pub mod game;
pub mod geom;
pub mod layout;
pub mod notation;
pub mod options;
pub mod render;
pub mod robot;
pub mod svg;
pub mod view;

#[cfg(test)]
mod rules_tests;

use super::matchplay::{Entry, Match, Search, View};
use super::{GameOption, GameRules, GameState, Loss, Outcome, Robot, RuleError};
pub use game::{IllegalMove, Phase, Position, SeatState};
pub use notation::Move;
pub use options::Config;

/// A game of Limit: a [`Position`] on the generic move record.
pub type Game = Match<Position>;

/// A new game: the tiles laid from `seed` unless the rules lay them by hand.
pub fn new_game(cfg: Config, players: usize, seed: u64) -> Result<Game, RuleError> {
    Ok(Match::from_position(Position::new(cfg, players, seed)?))
}

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
        Ok(Box::new(new_game(cfg, players, seed)?))
    }
    fn load(&self, json: &str) -> Result<Box<dyn GameState>, RuleError> {
        Ok(Box::new(documents::load(json)?))
    }
    fn read_move(&self, mv: &str) -> Result<(), RuleError> {
        notation::read(mv)?;
        Ok(())
    }
    fn has_robot(&self) -> bool {
        true
    }
}

impl Game {
    /// One line: whose turn and what to do, or how the game ended.
    pub fn status_line(&self) -> String {
        match (self.outcome(), self.to_move()) {
            (Some(Outcome::Winner(s)), _) => format!("{} wins", self.side_title(s)),
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

impl View for Position {
    fn ascii(game: &Game) -> String {
        render::render(&game.board_view())
    }
    fn paint(game: &Game, p: &mut dyn crate::picture::Painter) -> bool {
        svg::paint(game, p);
        true
    }
    fn board_view(game: &Game) -> Option<crate::games::board::Board> {
        Some(game.board_view())
    }
    /// The tiles and pawns of the start, as `GameState::setup_text`'s default lists them.
    fn setup_text(&self) -> Option<String> {
        let start = Match::from_position(self.clone());
        Some(crate::games::setup_lines(&start.board_view()))
    }
    fn options_summary(&self) -> Option<String> {
        Some(self.config().summary())
    }
    /// A seat's last entry reads `eliminated` when no legal turn was left to it.
    fn auto_text(game: &Game, index: usize) -> Option<String> {
        let Some(Entry::Passed { seat }) = game.entries().get(index) else {
            return None;
        };
        let later = game.entries()[index + 1..].iter().any(|e| match e {
            Entry::Moved { seat: s, .. }
            | Entry::Passed { seat: s }
            | Entry::Left { seat: s, .. }
            | Entry::Drawn { seat: s } => s == seat,
        });
        (game.eliminated(*seat) && !later).then(|| "eliminated".into())
    }
    fn turn_notes(game: &Game, since: u32) -> Option<Vec<String>> {
        let mut out = Vec::new();
        let first = since.saturating_sub(1) as usize;
        // Each entry with the position it is read in: an automatic entry's is the one after the
        // move that brought it.
        let replayed = game.replayed();
        let records = game.moves();
        for (k, rec) in records.iter().enumerate().skip(first) {
            if !rec.auto {
                continue;
            }
            let who = game.side_title(rec.seat);
            // The position after the move that brought the entry.
            out.push(match (rec.text.as_str(), replayed[k].1.phase()) {
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
        Some(out)
    }
    fn losses(game: &Game, index: usize) -> Vec<Loss> {
        // Leaving the game takes the seat's pawns off: that is no capture.
        let Some(Entry::Moved { seat, mv }) = game.entries().get(index) else {
            return Vec::new();
        };
        let replayed = game.replayed();
        let before = &replayed[index].1;
        let after = replayed.get(index + 1).map_or(game.position(), |(_, p)| p);
        let text = mv.to_string();
        let (b, a) = (before.board(), after.board());
        let mut out = Vec::new();
        for s in 0..game.players() {
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
            if s == *seat && cells.len() > lost as usize {
                // The moving pawn's start is among them; it was not captured.
                cells.retain(|n| !text.starts_with(&format!("{n}-")));
            }
            out.push(Loss {
                seat: s,
                cells: cells.iter().map(u32::to_string).collect(),
                piece: "pawn",
            });
        }
        out
    }
    fn notes(game: &Game) -> Vec<String> {
        let mut out = Vec::new();
        for s in 0..game.players() {
            if game.held_back[s] > 0 {
                out.push(format!(
                    "{} pawn(s) of {} stay in the box: their tiles had no neighbour of a colour without pawns.",
                    game.held_back[s],
                    game.side_title(s)
                ));
            } else if game.in_box(s) > 0 && matches!(game.phase(), Phase::Movement | Phase::Over) {
                out.push(format!(
                    "{} {} ball(s) stay in the box.",
                    game.side_title(s),
                    game.in_box(s)
                ));
            }
        }
        if game.set_aside > 0 {
            out.push(format!(
                "{} tile(s) could not be laid and were set aside.",
                game.set_aside
            ));
        }
        out
    }
}

impl Search for Position {
    fn rave(&self) -> bool {
        // A Limit turn's worth depends on the moment (captures, freedoms): all-moves-as-first misleads.
        false
    }
    fn priors(&self, actions: &[u32], out: &mut Vec<f32>) {
        self.action_prior_scores(actions, out);
    }
    fn playout(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        played: Option<&mut Vec<(usize, u32)>>,
    ) -> bool {
        self.policy_playout_ids(pick, played);
        true
    }
    fn random_moves(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        played: &mut Vec<Entry<Move>>,
    ) -> Option<u32> {
        let before = played.len();
        self.random_entries(pick, played);
        let moves = played[before..]
            .iter()
            .filter(|e| matches!(e, Entry::Moved { .. }))
            .count();
        Some(moves as u32)
    }
    fn level_playouts(&self, level: u8) -> Option<u32> {
        // A placement playout lists every placement at each turn: ten to forty times a movement one.
        (self.phase() != Phase::Movement && self.phase() != Phase::Over)
            .then(|| robot::Level::from_number(level).map(robot::Level::placement_playouts))
            .flatten()
    }
    fn may_win_at_once(&self, _action: u32) -> bool {
        // The priors mark the turns that capture every other pawn; a win by elimination is seen when
        // the search plays the turn.
        false
    }
    fn legal_actions(&self, out: &mut Vec<u32>) -> bool {
        self.action_ids(out);
        true
    }
    fn robot_move(&self, robot: Robot, seed: u64) -> Option<Option<Move>> {
        match robot {
            Robot::Random => Some(robot::random_move(self, seed)),
            Robot::Greedy => Some(robot::greedy_move(self, seed)),
            _ => None,
        }
    }
    fn action_group(&self, action: u32) -> Option<u32> {
        self.action_group_of(action)
    }
    fn contempt(&self) -> Option<f32> {
        // Under -move_or_remove a draw is on offer at almost every turn. At the search's usual 0.8
        // the robot still took draws (a tenth of a point to it) where a removal kept a fair chance
        // of a win: removals are judged against an opponent who answers every one at its best, a
        // draw is exact. Valued at a hundredth of a point, a draw is taken only when nothing else
        // is expected to score (docs/robot.md, "Limit -move_or_remove").
        (self.config().mode == options::Mode::MoveOrRemove).then_some(MOVE_OR_REMOVE_CONTEMPT)
    }
}

/// The help page mailed for `limit help`.
pub const HELP: &str = include_str!("help.txt");

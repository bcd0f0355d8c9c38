//! The Game of Y on the plain triangle, as `../shared/spec/games/y-rules.md` settles it: HexGui's cell
//! names, the swap as a recolouring in place, a chain touching all three sides wins.
//!
//! [`game::Game`] is the engine (stones and chains on a [`crate::games::hexgrid::Grid`]); [`json`]
//! reads and writes the state document; [`view`] draws the board (ASCII, SVG, the neutral board).

pub mod game;
pub mod json;
mod playout;
pub mod view;

#[cfg(test)]
mod tests;

use super::{GameOption, GameRules, GameState, MoveRecord, Outcome, RuleError, Status};
pub use game::{Config, Game, Move};

/// The game type Y, as the server's registry lists it.
pub struct Y;

/// What a challenge may say, for the error that lists it.
const VALID: &str = "the options of y are -size=N (the triangle's side, 2 to 19; default 15) \
                     and -swap or -no_swap (the swap rule; default -swap)";

impl Config {
    /// Reads the options of a challenge (section 3); an unknown option, a value out of range or a
    /// contradiction is refused with the list of valid options.
    pub fn from_options(options: &[GameOption]) -> Result<Config, RuleError> {
        let mut cfg = Config::default();
        let (mut size, mut swap): (Option<u8>, Option<bool>) = (None, None);
        let bad = |why: String| RuleError(format!("{why}; {VALID}"));
        for o in options {
            match (o.name.to_ascii_lowercase().as_str(), &o.value) {
                ("size", Some(v)) => {
                    let n: u8 = v
                        .trim()
                        .parse()
                        .ok()
                        .filter(|n| (game::MIN_SIZE..=game::MAX_SIZE).contains(n))
                        .ok_or_else(|| bad(format!("-size={v} is not a side from 2 to 19")))?;
                    if size.is_some_and(|s| s != n) {
                        return Err(bad("-size is given twice with different values".into()));
                    }
                    size = Some(n);
                }
                ("size", None) => return Err(bad("-size needs a value, like -size=10".into())),
                (word @ ("swap" | "no_swap"), None) => {
                    let on = word == "swap";
                    if swap.is_some_and(|s| s != on) {
                        return Err(bad("-swap and -no_swap contradict each other".into()));
                    }
                    swap = Some(on);
                }
                _ => return Err(bad(format!("y has no option {o}"))),
            }
        }
        if let Some(n) = size {
            cfg.size = n;
        }
        if let Some(s) = swap {
            cfg.swap = s;
        }
        Ok(cfg)
    }

    /// The options in force, as every summary prints them: `-size=15 -swap`.
    pub fn summary(&self) -> String {
        format!(
            "-size={} {}",
            self.size,
            if self.swap { "-swap" } else { "-no_swap" }
        )
    }
}

impl GameRules for Y {
    fn name(&self) -> &'static str {
        "y"
    }
    fn title(&self) -> &'static str {
        "Y"
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
                "Y is played by 2 players, not {players}"
            )));
        }
        Ok(Box::new(Game::new(Config::from_options(options)?)))
    }
    fn load(&self, json: &str) -> Result<Box<dyn GameState>, RuleError> {
        Ok(Box::new(json::from_json(json)?))
    }
    fn read_move(&self, mv: &str) -> Result<(), RuleError> {
        // Any size's names: the largest triangle has every name a smaller one has.
        game::parse_move(game::triangle(game::MAX_SIZE), mv).map(|_| ())
    }
}

impl GameState for Game {
    fn to_json(&self) -> String {
        json::to_json(self)
    }
    fn clone_box(&self) -> Box<dyn GameState> {
        Box::new(self.clone())
    }
    fn status(&self) -> Status {
        match &self.result {
            Some(o) => Status::Over(o.clone()),
            None => Status::ToMove(self.to_move),
        }
    }
    fn seat_names(&self) -> Vec<String> {
        vec!["Black".into(), "White".into()]
    }
    fn status_seat(&self, seat: usize) -> String {
        seat.to_string()
    }
    fn move_number(&self) -> u32 {
        self.entries() as u32 + 1
    }
    fn moves(&self) -> Vec<MoveRecord> {
        self.records()
    }
    fn options_summary(&self) -> String {
        self.config().summary()
    }
    fn legal_moves(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .legal()
            .into_iter()
            .map(|m| self.move_text(m))
            .collect();
        out.sort();
        out
    }
    fn play(&mut self, mv: &str) -> Result<(), RuleError> {
        self.play_text(mv)
    }
    fn resign(&mut self, seat: usize) -> Result<(), RuleError> {
        self.leave(seat, false)
    }
    fn forfeit(&mut self, seat: usize) -> Result<(), RuleError> {
        self.leave(seat, true)
    }
    fn agree_draw(&mut self) -> Result<(), RuleError> {
        Game::agree_draw(self)
    }
    fn at_move(&self, n: u32) -> Result<Box<dyn GameState>, RuleError> {
        let records = self.records();
        let keep = (n.max(1) as usize - 1).min(records.len());
        Ok(Box::new(Game::replay(self.config(), &records[..keep])?))
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
        Game::perft(self, depth)
    }
    fn random_playout(&mut self, pick: &mut dyn FnMut(usize) -> usize) -> u32 {
        self.playout(pick)
    }
    fn search_playout(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        played: Option<&mut Vec<(usize, u32)>>,
    ) -> bool {
        Game::search_playout(self, pick, played);
        true
    }
    fn may_win_at_once(&self, action: u32) -> bool {
        // Exactly the stones that join the three sides; the swap is left to the copy.
        self.stone_may_win(action)
    }
    fn action_space(&self) -> u32 {
        self.grid().len() as u32 + 1
    }
    fn legal_actions(&self, out: &mut Vec<u32>) {
        out.clear();
        if self.result().is_some() {
            return;
        }
        out.extend(self.chains.empty_cells().map(|c| c as u32));
        if self.swap_legal() {
            out.push(self.grid().len() as u32);
        }
    }
    fn apply_action(&mut self, action: u32) {
        self.apply(self.action_move(action));
    }
    fn action_text(&self, action: u32) -> String {
        self.move_text(self.action_move(action))
    }
    fn turn_notes(&self, since: u32) -> Vec<String> {
        // The swap is the one move whose effect the board alone does not tell.
        let first = since.saturating_sub(1) as usize;
        self.records()
            .iter()
            .skip(first)
            .filter(|r| r.text == "swap")
            .map(|_| {
                "White swapped: Black's first stone is now White's, on the same cell; \
                 Black moves again."
                    .to_string()
            })
            .collect()
    }
    fn example_moves(&self) -> Vec<String> {
        let mut out: Vec<String> = GameState::legal_moves(self).into_iter().take(1).collect();
        if self.swap_legal() {
            out.push("swap".into());
        }
        out
    }
    fn notes(&self) -> Vec<String> {
        if self.swap_legal() {
            vec![
                "White may answer with `swap` instead of a stone: Black's stone then".into(),
                "turns white where it stands, and Black moves again.".into(),
            ]
        } else {
            Vec::new()
        }
    }
}

impl Game {
    /// The move an action id names: a cell index, or the swap (the id after the last cell).
    pub fn action_move(&self, action: u32) -> Move {
        if action as usize == self.grid().len() {
            Move::Swap
        } else {
            Move::Stone(action as usize)
        }
    }

    /// One line: whose turn, or how the game ended.
    pub fn status_line(&self) -> String {
        match (&self.result, self.to_move) {
            (Some(Outcome::Winner(0)), _) => "Black wins".into(),
            (Some(Outcome::Winner(_)), _) => "White wins".into(),
            (Some(Outcome::Draw(_)), _) => "Ended without a winner, by agreement".into(),
            (None, 0) => "Black to move".into(),
            (None, _) => "White to move".into(),
        }
    }
}

/// The help page mailed for `y help`.
pub const HELP: &str = include_str!("help.txt");

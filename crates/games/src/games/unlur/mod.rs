//! Unlur, as `../shared/spec/games/unlur-rules.md` settles it: a hexagon cut from the Hex board (Hex's
//! names and neighbours), a contract phase of black stones on interior cells ended by a pass (the
//! passer plays Black, whose goal is a Y; White's is a line), then play to the first goal.
//!
//! [`game::Game`] is the engine (stones and chains on a [`crate::games::hexgrid::Grid`]); [`json`]
//! reads and writes the state document; [`view`] draws the board.

pub mod game;
pub mod json;
mod playout;
pub mod view;

#[cfg(test)]
mod tests;

use super::{GameOption, GameRules, GameState, MoveRecord, Outcome, RuleError, Status};
pub use game::{Game, Move};

/// The game type Unlur, as the server's registry lists it.
pub struct Unlur;

/// What a challenge may say, for the error that lists it.
const VALID: &str = "the one option of unlur is -size=N (the hexagon's side, 3 to 13; default 8)";

/// Reads the options of a challenge (section 3) to the hexagon's side.
pub fn size_from_options(options: &[GameOption]) -> Result<u8, RuleError> {
    let bad = |why: String| RuleError(format!("{why}; {VALID}"));
    let mut size: Option<u8> = None;
    for o in options {
        match (o.name.to_ascii_lowercase().as_str(), &o.value) {
            ("size", Some(v)) => {
                let n: u8 = v
                    .trim()
                    .parse()
                    .ok()
                    .filter(|n| (game::MIN_SIZE..=game::MAX_SIZE).contains(n))
                    .ok_or_else(|| bad(format!("-size={v} is not a side from 3 to 13")))?;
                if size.is_some_and(|s| s != n) {
                    return Err(bad("-size is given twice with different values".into()));
                }
                size = Some(n);
            }
            ("size", None) => return Err(bad("-size needs a value, like -size=6".into())),
            ("swap" | "no_swap", _) => {
                return Err(bad(format!(
                    "unlur has no option {o}: there is no swap, the contract settles the colours"
                )));
            }
            _ => return Err(bad(format!("unlur has no option {o}"))),
        }
    }
    Ok(size.unwrap_or(game::DEFAULT_SIZE))
}

impl GameRules for Unlur {
    fn name(&self) -> &'static str {
        "unlur"
    }
    fn title(&self) -> &'static str {
        "Unlur"
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
                "Unlur is played by 2 players, not {players}"
            )));
        }
        Ok(Box::new(Game::new(size_from_options(options)?)))
    }
    fn load(&self, json: &str) -> Result<Box<dyn GameState>, RuleError> {
        Ok(Box::new(json::from_json(json)?))
    }
    fn read_move(&self, mv: &str) -> Result<(), RuleError> {
        // Hexagons of different sizes have different names (b2 is a cell of side 3 only), so a
        // queued move is read as any name of the largest Hex square; the game checks the cell when
        // the move is played.
        let squeezed: String = mv.chars().filter(|c| !c.is_whitespace()).collect();
        let m = u32::from(2 * game::MAX_SIZE - 1);
        match game::parse_move(game::hexagon(game::MAX_SIZE), mv) {
            Ok(_) => Ok(()),
            Err(e) => match crate::games::hexgrid::parse_coords(&squeezed) {
                Ok((c, r)) if c <= m && r <= m => Ok(()),
                _ => Err(e),
            },
        }
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
        (0..2).map(|s| self.seat_title(s).to_string()).collect()
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
        format!("-size={}", self.size())
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
        Ok(Box::new(Game::replay(self.size(), &records[..keep])?))
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
    fn action_space(&self) -> u32 {
        self.grid().len() as u32 + 1
    }
    fn search_playout(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        played: Option<&mut Vec<(usize, u32)>>,
    ) -> bool {
        self.policy_playout(pick, played);
        true
    }
    fn may_win_at_once(&self, action: u32) -> bool {
        // Only a main-phase stone that makes the mover's own goal wins; listing the contract's
        // positions then costs no copies.
        (action as usize) < self.grid().len() && self.stone_decides(action as usize) == Some(true)
    }
    fn legal_actions(&self, out: &mut Vec<u32>) {
        out.clear();
        if self.result().is_some() {
            return;
        }
        let contract = self.in_contract();
        out.extend(
            self.chains
                .empty_cells()
                .filter(|&c| !contract || self.interior(c))
                .map(|c| c as u32),
        );
        if contract {
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
        let first = since.saturating_sub(1) as usize;
        let records = self.records();
        let Some(black) = self.black_seat() else {
            return Vec::new();
        };
        // The pass is the one move whose effect the board alone does not tell.
        records
            .iter()
            .skip(first)
            .filter(|r| r.text == "pass")
            .map(|_| {
                format!(
                    "The contract is over: {} passed and plays Black (goal: a Y); {} plays White \
                     (goal: a line) and moves next.",
                    seat_word(black),
                    seat_word(1 - black)
                )
            })
            .collect()
    }
    fn example_moves(&self) -> Vec<String> {
        // One cell to show the form, and the pass while the contract lasts.
        let mut out: Vec<String> = GameState::legal_moves(self).into_iter().take(1).collect();
        if self.in_contract() && self.result().is_none() && out.first().is_some_and(|m| m != "pass")
        {
            out.push("pass".into());
        }
        out
    }
    fn notes(&self) -> Vec<String> {
        let lines: &[&str] = if self.result().is_some() {
            &[]
        } else if self.in_contract() {
            &[
                "Contract phase: on your turn put a black stone on an empty interior",
                "cell (not on the border), or send `pass`. Whoever passes plays Black",
                "(goal: a Y, a chain touching three sides no two of which are",
                "adjacent); the other plays White (goal: a line, a chain joining two",
                "opposite sides) and moves next.",
            ]
        } else {
            &[
                "Black's goal is a Y (N, SE and SW, or NE, S and NW), White's a line",
                "(two opposite sides). Making only the other's goal loses; making",
                "both at once wins.",
            ]
        };
        lines.iter().map(|l| l.to_string()).collect()
    }
}

/// `the first player` / `the second player`: a seat in the contract's words.
fn seat_word(seat: usize) -> &'static str {
    if seat == 0 {
        "the first player"
    } else {
        "the second player"
    }
}

impl Game {
    /// The move an action id names: a cell index, or the pass (the id after the last cell).
    pub fn action_move(&self, action: u32) -> Move {
        if action as usize == self.grid().len() {
            Move::Pass
        } else {
            Move::Stone(action as usize)
        }
    }

    /// A seat's side as players read it: `First`/`Second` in the contract, then `Black`/`White`.
    pub fn seat_title(&self, seat: usize) -> &'static str {
        match self.black_seat() {
            None if seat == 0 => "First",
            None => "Second",
            Some(b) if b == seat => "Black",
            Some(_) => "White",
        }
    }

    /// One line: whose turn and what to do, or how the game ended.
    pub fn status_line(&self) -> String {
        match (&self.result, self.to_move) {
            (Some(Outcome::Winner(s)), _) => format!("{} wins", self.seat_title(*s)),
            (Some(Outcome::Draw(_)), _) => "Ended without a winner, by agreement".into(),
            (None, s) if self.in_contract() => format!(
                "{} to move (contract: a black stone on an interior cell, or pass)",
                self.seat_title(s)
            ),
            (None, s) => format!("{} to move", self.seat_title(s)),
        }
    }
}

/// The help page mailed for `unlur help`.
pub const HELP: &str = include_str!("help.txt");

//! Unlur, as `../shared/spec/games/unlur-rules.md` settles it: a hexagon cut from the Hex board (Hex's
//! names and neighbours), a contract phase of black stones on interior cells ended by a pass (the
//! passer plays Black, whose goal is a Y; White's is a line), then play to the first goal.
//!
//! [`game::Position`] is the position and its rules (stones and chains on a
//! [`crate::games::hexgrid::Grid`]), [`Game`] its game (the move record and the stored document of
//! [`crate::games::matchplay`]; the seats' names follow the position); [`view`] draws the board.

pub mod game;
mod playout;
pub mod view;

#[cfg(test)]
mod tests;

use super::matchplay::{self, Entry, Match, Search, View};
use super::{GameOption, GameRules, GameState, MoveRecord, Outcome, RuleError};
pub use game::{Game, Move, Position};

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
        Ok(Box::new(Game::new(options, players)?))
    }
    fn load(&self, json: &str) -> Result<Box<dyn GameState>, RuleError> {
        let g = Game::load(json)?;
        matchplay::check_status(&g, json)?;
        Ok(Box::new(g))
    }
    fn read_move(&self, mv: &str) -> Result<(), RuleError> {
        Position::read(mv).map(|_| ())
    }
}

impl View for Position {
    fn ascii(game: &Game) -> String {
        view::render(game)
    }
    fn paint(game: &Game, p: &mut dyn crate::picture::Painter) -> bool {
        view::paint(game, p);
        true
    }
    fn status_seat(seat: usize) -> Option<String> {
        Some(seat.to_string())
    }
    fn board_view(game: &Game) -> Option<crate::games::Board> {
        Some(view::board_view(game))
    }
    fn turn_notes(game: &Game, since: u32) -> Option<Vec<String>> {
        let first = since.saturating_sub(1) as usize;
        let records = game.records();
        let Some(black) = game.black_seat() else {
            return Some(Vec::new());
        };
        // The pass is the one move whose effect the board alone does not tell.
        let notes = records
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
            .collect();
        Some(notes)
    }
    fn example_moves(game: &Game) -> Option<Vec<String>> {
        // One cell to show the form, and the pass while the contract lasts.
        let mut out: Vec<String> = game.legal_moves().into_iter().take(1).collect();
        if game.in_contract() && game.result().is_none() && out.first().is_some_and(|m| m != "pass")
        {
            out.push("pass".into());
        }
        Some(out)
    }
    fn notes(game: &Game) -> Vec<String> {
        let lines: &[&str] = if game.result().is_some() {
            &[]
        } else if game.in_contract() {
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

impl Search for Position {
    /// The contract's interior cells and the pass, then the empty cells, each in a private order.
    fn random_moves(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        played: &mut Vec<Entry<Move>>,
    ) -> Option<u32> {
        let mut empty: Vec<u16> = Vec::with_capacity(self.grid.len());
        // At most one move a cell and the pass: the list grows once.
        played.reserve(self.grid.len() + 1);
        let before = played.len();
        let stone = |p: &mut Position, cell: usize, played: &mut Vec<Entry<Move>>| {
            let seat = p.to_move;
            p.place(Some(cell));
            let (c, r) = p.grid.coords(cell);
            played.push(Entry::Moved {
                seat,
                mv: Move::Stone(c, r),
            });
        };
        if self.in_contract() {
            empty.extend(
                self.chains
                    .empty_cells()
                    .filter(|&c| self.interior(c))
                    .map(|c| c as u16),
            );
            while self.winner.is_none() && self.in_contract() {
                let k = pick(empty.len() + 1);
                if k == empty.len() {
                    played.push(Entry::Moved {
                        seat: self.to_move,
                        mv: Move::Pass,
                    });
                    self.place(None);
                } else {
                    let cell = usize::from(empty.swap_remove(k));
                    stone(self, cell, played);
                }
            }
            empty.clear();
        }
        empty.extend(self.chains.empty_cells().map(|c| c as u16));
        // A full board always holds a goal (section 7), so the game ends before `empty` runs out.
        while self.winner.is_none() && !empty.is_empty() {
            let k = pick(empty.len());
            let cell = usize::from(empty.swap_remove(k));
            stone(self, cell, played);
        }
        Some((played.len() - before) as u32)
    }
    fn playout(
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
}

fn seat_word(seat: usize) -> &'static str {
    if seat == 0 {
        "the first player"
    } else {
        "the second player"
    }
}

impl Match<Position> {
    /// How the game ended, if it has (by the rules, a resignation, a forfeit or a draw).
    pub fn result(&self) -> Option<Outcome> {
        self.outcome()
    }

    /// The move list as players read it.
    pub fn records(&self) -> Vec<MoveRecord> {
        self.moves()
    }

    /// One line: whose turn, or how the game ended.
    pub fn status_line(&self) -> String {
        match (self.outcome(), self.position().to_move) {
            (Some(Outcome::Winner(s)), _) => format!("{} wins", self.seat_title(s)),
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

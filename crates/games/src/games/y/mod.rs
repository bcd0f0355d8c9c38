//! The Game of Y on the plain triangle, as `../shared/spec/games/y-rules.md` settles it: HexGui's cell
//! names, the swap as a recolouring in place, a chain touching all three sides wins.
//!
//! [`game::Position`] is the position and its rules (stones and chains on a
//! [`crate::games::hexgrid::Grid`]), [`Game`] its game (the move record and the stored document of
//! [`crate::games::matchplay`]); [`view`] draws the board (ASCII, SVG, the neutral board).

pub mod game;
mod playout;
pub mod view;

#[cfg(test)]
mod tests;

use super::hexgrid::Chains;
use super::hexgrid::playout::{self as swap_playout, SwapPlay};
use super::matchplay::{self, Entry, Match, Search, View};
use super::{GameOption, GameRules, GameState, MoveRecord, Outcome, RuleError};
pub use game::{Config, Game, Move, Position};

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

impl Match<Position> {
    /// How the game ended, if it has (by the rules, a resignation, a forfeit or a draw).
    pub fn result(&self) -> Option<Outcome> {
        self.outcome()
    }

    /// The move list as players read it.
    pub fn records(&self) -> Vec<MoveRecord> {
        self.moves()
    }

    /// True when the swap is legal now: on, the game at move 2, one black stone down.
    pub fn swap_legal(&self) -> bool {
        self.outcome().is_none() && self.position().swap_open()
    }

    /// One line: whose turn, or how the game ended.
    pub fn status_line(&self) -> String {
        match (self.outcome(), self.position().to_move) {
            (Some(Outcome::Winner(0)), _) => "Black wins".into(),
            (Some(Outcome::Winner(_)), _) => "White wins".into(),
            (Some(Outcome::Draw(_)), _) => "Ended without a winner, by agreement".into(),
            (None, 0) => "Black to move".into(),
            (None, _) => "White to move".into(),
        }
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
    fn notes(game: &Game) -> Vec<String> {
        if game.swap_legal() {
            vec![
                "White may answer with `swap` instead of a stone: Black's stone then".into(),
                "turns white where it stands, and Black moves again.".into(),
            ]
        } else {
            Vec::new()
        }
    }
    fn status_seat(seat: usize) -> Option<String> {
        Some(seat.to_string())
    }
    fn board_view(game: &Game) -> Option<crate::games::Board> {
        Some(view::board_view(game))
    }
    fn example_moves(game: &Game) -> Option<Vec<String>> {
        let mut out: Vec<String> = game.legal_moves().into_iter().take(1).collect();
        if game.swap_legal() {
            out.push("swap".into());
        }
        Some(out)
    }
    fn turn_notes(game: &Game, since: u32) -> Option<Vec<String>> {
        // The swap is the one move whose effect the board alone does not tell.
        let first = since.saturating_sub(1) as usize;
        let notes = game
            .records()
            .iter()
            .skip(first)
            .filter(|r| r.text == "swap")
            .map(|_| {
                "White swapped: Black's first stone is now White's, on the same cell; \
                 Black moves again."
                    .to_string()
            })
            .collect();
        Some(notes)
    }
}

impl Search for Position {
    /// The empty cells in a private order, the swap (where legal) the last choice.
    fn random_moves(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        played: &mut Vec<Entry<Move>>,
    ) -> Option<u32> {
        Some(swap_playout::random_moves(self, pick, played))
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
        // Exactly the stones that join the three sides; the swap is left to the copy.
        self.stone_may_win(action)
    }
}

impl SwapPlay for Position {
    type Move = Move;
    fn chains(&self) -> &Chains {
        &self.chains
    }
    fn over(&self) -> bool {
        self.winner.is_some()
    }
    fn swap_open(&self) -> bool {
        Position::swap_open(self)
    }
    fn mover(&self) -> usize {
        self.to_move
    }
    fn place(&mut self, cell: usize) -> Move {
        Position::place(self, Some(cell));
        let (c, r) = self.grid.coords(cell);
        Move::Stone(c, r)
    }
    /// The swap turns a stone where it stands: the empty cells stay as they were.
    fn swap(&mut self) -> (Move, bool) {
        Position::place(self, None);
        (Move::Swap, false)
    }
}

/// The help page mailed for `y help`.
pub const HELP: &str = include_str!("help.txt");

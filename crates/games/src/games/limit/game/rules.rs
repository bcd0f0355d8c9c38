//! What the generic record ([`Match`]) needs of a Limit position: its start from the challenge's
//! options and seed, its moves, its seats and how a seat leaves.

use super::{Phase, Position, SeatState};
use crate::games::limit::actions::{self, ACTION_SPACE};
use crate::games::limit::notation::{self, Move};
use crate::games::limit::options::Config;
#[cfg(doc)]
use crate::games::matchplay::Match;
use crate::games::matchplay::Rules;
use crate::games::{GameOption, Outcome, RuleError};

/// The document's key for the layout's seed: the record keeps it among the options, so that a
/// stored game lays the same tiles again (`{"game": "limit", "seed": 7, "size": 8, …}`).
const SEED: &str = "seed";

impl Rules for Position {
    type Move = Move;
    const GAME: &'static str = "limit";

    /// The options of a stored document: the challenge's, and the seed the server drew for the
    /// layout (a challenge's own `-seed` is refused as an unknown option by [`Config::from_options`]
    /// where the server starts a game, `Limit::new_game`).
    fn start(options: &[GameOption], players: usize) -> Result<Position, RuleError> {
        let mut seed = 0;
        let mut rest = Vec::with_capacity(options.len());
        for o in options {
            if o.name != SEED {
                rest.push(o.clone());
                continue;
            }
            let value = o.value.as_deref().unwrap_or_default();
            seed = value.parse().map_err(|_| {
                RuleError(format!(
                    "the document's seed is {value:?}, not a whole number from 0 to 2^64 - 1"
                ))
            })?;
        }
        Position::new(Config::from_options(&rest)?, players, seed)
    }
    fn options(&self) -> Vec<GameOption> {
        let mut out: Vec<GameOption> = self
            .cfg
            .summary()
            .split_whitespace()
            .filter_map(GameOption::parse)
            .collect();
        out.push(GameOption::with_value(SEED, &self.seed.to_string()));
        out
    }
    /// A document stored before Limit was on the record (`"version": 1`) is rewritten into the
    /// record's shape ([`crate::games::limit::documents`]).
    fn upgrade(doc: &mut serde_json::Map<String, serde_json::Value>) -> Result<(), RuleError> {
        crate::games::limit::documents::upgrade(doc)
    }
    fn seat_names(&self) -> Vec<String> {
        (0..self.players).map(|s| self.side_title(s)).collect()
    }
    fn seats(&self) -> usize {
        self.players
    }
    fn to_move(&self) -> usize {
        self.to_move
    }
    fn outcome(&self) -> Option<Outcome> {
        self.result.clone()
    }
    fn legal(&self, out: &mut Vec<Move>) {
        out.clear();
        out.extend(Position::legal(self));
    }
    fn check(&self, mv: Move) -> Result<(), RuleError> {
        if self.phase == Phase::Movement {
            self.check_movement(&mv)?;
            return Ok(());
        }
        // A placement is checked as it is laid: on a copy (only people's moves come this way).
        self.clone().play_move(&mv)?;
        Ok(())
    }
    fn apply(&mut self, mv: Move) -> u32 {
        match self.movement_act(mv) {
            Some(act) => self.commit_act(act),
            None => self.play_move(&mv).expect("a checked move is legal"),
        }
        u32::from(self.n_autos)
    }
    /// Limit's moves read the same on every board ([`notation`]).
    fn read_here(&self, text: &str) -> Result<Move, RuleError> {
        notation::read(text)
    }
    fn write_here(&self, mv: Move) -> String {
        mv.to_string()
    }
    /// A movement turn's id names tile indices of this board ([`actions`]).
    fn action_here(&self, mv: Move) -> u32 {
        match self.movement_act(mv) {
            Some(act) => actions::act_id(act),
            None => actions::placement_id(&mv).expect("a placement has an id"),
        }
    }
    fn move_here(&self, action: u32) -> Move {
        self.action_move(action)
    }
    fn action_space(&self) -> u32 {
        ACTION_SPACE
    }
    /// `legal_moves` lists the moves in the order of [`Position::legal`] (by position numbers), as
    /// it did before Limit was on the record.
    fn sorted_texts(&self) -> bool {
        false
    }
    fn over_text(game: &crate::games::matchplay::Match<Self>) -> Option<String> {
        Some(game.status_line())
    }
    /// A seat that resigns or loses on time leaves; the others play on while two remain
    /// (`../shared/spec/limit-rules.md`, section 6).
    fn seat_left(&mut self, seat: usize) -> Result<Option<u32>, RuleError> {
        self.leave(seat)?;
        Ok(Some(u32::from(self.n_autos)))
    }
    /// A layout that leaves the first seats without a turn (small boards) makes their passes or
    /// eliminations before the first move.
    fn start_passes(&self) -> u32 {
        u32::from(self.n_autos)
    }
    fn pass_seat(&self, mover: usize, k: u32) -> usize {
        let _ = mover;
        usize::from(self.autos[k as usize])
    }
    /// An agreed draw is between the seats still in, and ends the position.
    fn draw_agreed(&mut self) -> Vec<usize> {
        let seats = self.in_seats();
        self.finish(Outcome::Draw(seats.clone()));
        seats
    }
}

impl Position {
    /// The act of a movement turn on this board, `None` for a placement (or a turn naming a tile
    /// that is not there, which [`Rules::check`] refuses).
    fn movement_act(&self, mv: Move) -> Option<crate::games::limit::board::Act> {
        if self.phase != Phase::Movement {
            return None;
        }
        let tile = |n: u32| self.board.tile_at(n).map(|i| i as u8);
        let none = crate::games::limit::board::NONE;
        let (from, to, remove) = match mv {
            Move::Turn { from, to, remove } => (tile(from)?, tile(to)?, tile(remove)?),
            Move::Step { from, to } => (tile(from)?, tile(to)?, none),
            Move::Remove { tile: r } => (none, none, tile(r)?),
            _ => return None,
        };
        Some(crate::games::limit::board::Act { from, to, remove })
    }

    /// Whether seat `s` was taken out for want of a legal turn (its last entry then reads
    /// `eliminated`, not `pass`).
    pub fn eliminated(&self, s: usize) -> bool {
        self.seat[s] == SeatState::Eliminated
    }
}

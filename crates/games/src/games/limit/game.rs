//! One position of Limit: the phases, whose turn, the endings (section 6). The move list is the
//! generic record's ([`crate::games::matchplay::Match`]; [`super::Game`] is `Match<Position>`).
//!
//! This file holds the position and how turns follow each other; [`placement`] and [`movement`] say
//! which moves each phase allows, [`play`] plays a move or takes a seat out, [`rules`] is what the
//! record needs of a position ([`crate::games::matchplay::Rules`]) and [`playout`] the random playout.

mod illegal;
mod movement;
mod placement;
mod play;
mod playout;
mod rules;

use serde::{Deserialize, Serialize};

use super::board::{Board, bit, bits};
use super::layout::{self, pawn_colour};
use super::options::{Config, Mode};
use super::view::{Side, TileColour};
use crate::games::{Outcome, RuleError};
pub use illegal::IllegalMove;

/// The stage a game is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Manual placement (4.2): one tile per turn.
    Manual,
    /// Classic placement (4.3): two tiles and a ball per turn.
    ClassicTiles,
    /// Classic placement once the tiles are laid: one ball per turn.
    ClassicBalls,
    /// The movement phase (5).
    Movement,
    /// The game is over.
    Over,
}

/// Whether a seat is still playing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatState {
    /// Still playing.
    In,
    /// Out: no pawns left on the board.
    Out,
    /// Resigned.
    Resigned,
    /// Eliminated for want of a legal turn (`-move_and_remove`, `-classic`).
    Eliminated,
}

fn colour_index(c: TileColour) -> usize {
    match c {
        TileColour::Red => 0,
        TileColour::Blue => 1,
        TileColour::Green => 2,
        TileColour::Black => 3,
        TileColour::Plain => 4,
    }
}

const COLOURS: [TileColour; 5] = [
    TileColour::Red,
    TileColour::Blue,
    TileColour::Green,
    TileColour::Black,
    TileColour::Plain,
];

/// The most automatic entries (passes, eliminations) one turn can bring: a pass of each seat in the
/// classic ball phase, then an elimination of each but one in the movement phase.
const MOST_AUTOS: usize = 8;

/// A position of Limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    pub(crate) cfg: Config,
    pub(crate) players: usize,
    pub(crate) seed: u64,
    pub(crate) board: Board,
    pub(crate) phase: Phase,
    pub(crate) to_move: usize,
    /// Tiles not yet laid, by colour index (red, blue, green, black, plain).
    pub(crate) tiles_left: [u32; 5],
    pub(crate) set_aside: u32,
    pub(crate) in_box: [u32; 3],
    /// Pawns kept in the box at the end of manual placement because their tile had no pawnless neighbour.
    pub(crate) held_back: [u32; 3],
    pub(crate) seat: [SeatState; 3],
    pub(crate) had_turn: [bool; 3],
    /// Consecutive movement turns without a tile removal (6.1 stalemate).
    pub(crate) streak: u32,
    pub(crate) result: Option<Outcome>,
    /// The seats of the engine's automatic entries the last turn (or leaving seat) brought, in order:
    /// the record writes one `pass` or `eliminated` entry for each ([`Position::autos`]).
    pub(crate) autos: [u8; MOST_AUTOS],
    pub(crate) n_autos: u8,
}

impl Position {
    /// Starts a game. Under the default rules the server lays the tiles at once (4.1).
    pub fn new(cfg: Config, players: usize, seed: u64) -> Result<Position, RuleError> {
        if !(2..=3).contains(&players) {
            return Err(RuleError(format!(
                "Limit is played by 2 or 3 players, not {players}"
            )));
        }
        let n = cfg.size;
        let mut g = Position {
            cfg,
            players,
            seed,
            board: Board::default(),
            phase: Phase::Movement,
            to_move: 0,
            tiles_left: [0; 5],
            set_aside: 0,
            in_box: [0; 3],
            held_back: [0; 3],
            seat: [
                SeatState::In,
                SeatState::In,
                if players == 3 {
                    SeatState::In
                } else {
                    SeatState::Out
                },
            ],
            had_turn: [false; 3],
            streak: 0,
            result: None,
            autos: [0; MOST_AUTOS],
            n_autos: 0,
        };
        for s in 0..players {
            g.in_box[s] = n;
        }
        if cfg.classic {
            g.phase = Phase::ClassicTiles;
            g.tiles_left[4] = 4 * n;
        } else if cfg.manual {
            g.phase = Phase::Manual;
            g.tiles_left = [n, n, n, n, 0];
        } else {
            for (num, c) in layout::random_layout(seed, n, players, cfg.must_touch) {
                let i = g.board.add(num, c);
                let ci = colour_index(c);
                if ci < players {
                    g.board.m.pawns[ci] |= bit(i);
                    g.in_box[ci] -= 1;
                }
            }
            g.start_movement();
        }
        // A layout may leave the first seats without a turn: the record writes their automatic
        // entries first (`Rules::start_passes`).
        g.advance();
        Ok(g)
    }

    /// The rules in force.
    pub fn config(&self) -> &Config {
        &self.cfg
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        self.players
    }

    /// The current phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The tiles and pawns.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The seat to move, or `None` once the game is over.
    pub fn to_move(&self) -> Option<usize> {
        (self.phase != Phase::Over).then_some(self.to_move)
    }

    /// How the game ended, if it has.
    pub fn result(&self) -> Option<&Outcome> {
        self.result.as_ref()
    }

    /// The seats of the automatic entries the last turn brought (see [`Position::autos`]).
    pub fn autos(&self) -> &[u8] {
        &self.autos[..self.n_autos as usize]
    }

    /// Each seat's standing.
    pub fn seat_state(&self, s: usize) -> SeatState {
        self.seat[s]
    }

    /// Pawns of seat `s` in the box.
    pub fn in_box(&self, s: usize) -> u32 {
        self.in_box[s]
    }

    /// The side a seat plays.
    pub fn side(&self, s: usize) -> Side {
        if self.cfg.classic {
            [Side::White, Side::Red, Side::Black][s]
        } else {
            [Side::Red, Side::Blue, Side::Green][s]
        }
    }

    pub(crate) fn side_title(&self, s: usize) -> String {
        self.side(s).title().to_string()
    }

    fn in_seats(&self) -> Vec<usize> {
        (0..self.players)
            .filter(|&s| self.seat[s] == SeatState::In)
            .collect()
    }

    fn next_in(&self, from: usize) -> usize {
        for k in 1..=self.players {
            let s = (from + k) % self.players;
            if self.seat[s] == SeatState::In {
                return s;
            }
        }
        from
    }

    fn first_in(&self) -> usize {
        self.next_in(self.players - 1)
    }

    fn finish(&mut self, outcome: Outcome) {
        self.result = Some(outcome);
        self.phase = Phase::Over;
    }

    /// An automatic entry for `seat` (a pass or an elimination: the seat's state tells which).
    fn auto(&mut self, seat: usize) {
        self.autos[self.n_autos as usize] = seat as u8;
        self.n_autos += 1;
    }

    /// Puts the pawns out at the end of manual placement (4.2) and starts the movement phase.
    fn end_manual(&mut self) {
        self.set_aside = self.tiles_left.iter().sum();
        self.tiles_left = [0; 5];
        let tiles = self.board.m.tiles;
        for i in bits(tiles) {
            let c = self.board.colour[i];
            let ci = colour_index(c);
            if ci >= self.players || self.seat[ci] != SeatState::In {
                continue;
            }
            let free = bits(self.board.nb[i] & tiles)
                .any(|j| !pawn_colour(self.board.colour[j], self.players));
            if free {
                self.board.m.pawns[ci] |= bit(i);
                self.in_box[ci] -= 1;
            } else {
                self.held_back[ci] += 1;
            }
        }
        self.start_movement();
    }

    fn start_movement(&mut self) {
        self.phase = Phase::Movement;
        let before = self.in_seats();
        for &s in &before {
            if self.board.m.pawns[s] == 0 {
                self.seat[s] = SeatState::Out;
            }
        }
        let now = self.in_seats();
        match now.len() {
            0 => self.finish(Outcome::Draw(before)),
            1 => self.finish(Outcome::Winner(now[0])),
            _ => self.to_move = self.first_in(),
        }
    }

    /// Applies whatever is due before the player to move can act: ends of phases, passes, eliminations.
    fn advance(&mut self) {
        loop {
            match self.phase {
                Phase::Over => return,
                Phase::Manual => {
                    if self.manual_lays().is_empty() {
                        self.end_manual();
                        continue;
                    }
                    return;
                }
                Phase::ClassicTiles => {
                    if self.classic_pairs().is_empty() {
                        self.set_aside = self.tiles_left[4];
                        self.tiles_left[4] = 0;
                        self.phase = Phase::ClassicBalls;
                        continue;
                    }
                    return;
                }
                Phase::ClassicBalls => {
                    let anyone = self
                        .in_seats()
                        .into_iter()
                        .any(|s| !self.ball_spots(s).is_empty());
                    if !anyone {
                        self.start_movement();
                        continue;
                    }
                    let s = self.to_move;
                    if self.in_box[s] == 0 {
                        self.to_move = self.next_in(s);
                    } else if self.ball_spots(s).is_empty() {
                        self.auto(s);
                        self.to_move = self.next_in(s);
                    } else {
                        return;
                    }
                }
                Phase::Movement => {
                    if self.any_act() {
                        return;
                    }
                    let s = self.to_move;
                    if self.cfg.mode == Mode::MoveAndRemove {
                        self.auto(s);
                        self.seat[s] = SeatState::Eliminated;
                        self.board.m.pawns[s] = 0;
                        let now = self.in_seats();
                        if now.len() == 1 {
                            self.finish(Outcome::Winner(now[0]));
                        } else {
                            self.to_move = self.next_in(s);
                        }
                    } else {
                        self.auto(s);
                        self.had_turn[s] = true;
                        self.streak += 1;
                        self.to_move = self.next_in(s);
                        let now = self.in_seats();
                        if self.streak as usize >= now.len() {
                            self.finish(Outcome::Draw(now));
                        }
                    }
                }
            }
        }
    }

    /// Runs the automatic steps (passes, eliminations, phase ends) on a hand-built position.
    #[cfg(test)]
    pub(crate) fn advance_for_test(&mut self) {
        self.advance();
    }

    /// Runs the end-of-turn checks on a hand-built position.
    #[cfg(test)]
    pub(crate) fn finish_turn_for_test(&mut self, mover: usize, before: &[usize]) {
        self.after_turn(mover, before);
    }
}

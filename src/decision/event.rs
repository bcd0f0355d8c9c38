//! What a command did, as values: the play family's events (a game started, a move played, a player
//! resigned, a game ended and how it was rated). The board mails themselves are written by
//! [`crate::summary`]; [`crate::mail_text`] writes the prose these events add (the new-game notice,
//! the verdict lines, the rating changes).

use super::Game;
use crate::games;
use crate::storage::GameResult;

/// Something that happened to a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A challenge started a game.
    GameStarted {
        /// The game.
        game: Game,
        /// Its board.
        board: u32,
        /// The players, in seat order.
        players: Vec<String>,
    },
    /// A player's move was played (robots' answers and queued moves are played by the same rules but
    /// are not reported as events of the command).
    MovePlayed {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// The mover's seat, 0-based.
        seat: usize,
        /// The mover.
        userid: String,
        /// The move as written (trimmed).
        mv: String,
        /// The move's number.
        move_number: u32,
    },
    /// A player resigned.
    Resigned {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// The seat, 0-based.
        seat: usize,
        /// The player.
        userid: String,
        /// True when they had never agreed to the game: they declined it.
        declined: bool,
    },
    /// The game ended.
    GameEnded {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// Who won, or who shared the draw (seats).
        result: games::Outcome,
        /// What the ratings made of it.
        settlement: Settlement,
    },
}

/// How a game that has just ended was rated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Settlement {
    /// Rated: every seat's result and rating change.
    Rated(Vec<GameResult>),
    /// Not rated: these players never agreed to the game.
    NotAgreed(Vec<String>),
    /// Nothing new for the ratings: the admin cancelled the game (unrated), or it was settled before.
    Unchanged,
}

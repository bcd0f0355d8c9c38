//! Answers that show things, as values: what the server looked up for `list`, `<game> games`,
//! `<game> ratings`, `<game> standings` and `<game> history` (without a board), before any English.

use std::ops::RangeInclusive;

use super::Game;
use crate::model::GamesFilter;
use crate::ratings::Rating;
use crate::storage::{GameResult, Standing};

/// What a listing command looked up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Listing {
    /// `list [game...]`: the games hosted; with names, how many of each are running and finished.
    Hosted {
        /// The server's name.
        server: String,
        /// The games, in list order.
        games: Vec<Hosted>,
    },
    /// `<game> games userid... [filter]`: each player's games of the type.
    GamesOf {
        /// The game type.
        game: Game,
        /// Which games.
        filter: GamesFilter,
        /// One list a player, in the order named.
        players: Vec<PlayerGames>,
    },
    /// `<game> ratings`: the rating list, best first.
    Ratings {
        /// The game type.
        game: Game,
        /// Each rated player and their rating.
        rows: Vec<(String, Rating)>,
    },
    /// `<game> standings`: every player's finished and running games.
    Standings {
        /// The game type.
        game: Game,
        /// One row a player.
        rows: Vec<Standing>,
    },
    /// `<game> history [page N]`: one page of finished games, newest first.
    Finished {
        /// The game type.
        game: Game,
        /// The page shown (from 1).
        page: u64,
        /// How many pages there are (at least 1).
        pages: u64,
        /// Finished games in all.
        total: u64,
        /// Games a page.
        per_page: u64,
        /// The games of this page.
        games: Vec<FinishedGame>,
    },
}

/// A hosted game type, for `list`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hosted {
    /// The game type.
    pub game: Game,
    /// How many players a game takes.
    pub players: RangeInclusive<usize>,
    /// (running, finished), when the list was asked for by name.
    pub counts: Option<(u64, u64)>,
}

/// One player's games, for `games`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerGames {
    /// The player's userid as registered.
    pub userid: String,
    /// The games, by board.
    pub games: Vec<ListedGame>,
}

/// A game in a list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedGame {
    /// The board number.
    pub board: u32,
    /// The players' userids, seat by seat.
    pub players: Vec<String>,
    /// The game's status line (whose turn, or how it ended).
    pub status: String,
}

/// A finished game, for `history`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinishedGame {
    /// The board number.
    pub board: u32,
    /// The players' userids, seat by seat.
    pub players: Vec<String>,
    /// Unix seconds of the last move.
    pub ended: i64,
    /// The status line, for a game without results (unrated).
    pub status: String,
    /// Each seat's result and rating change; empty when the game was not rated.
    pub results: Vec<GameResult>,
}

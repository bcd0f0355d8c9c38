//! Ratings (Elo per game type), standings and the history of finished games.

use super::Core;
use crate::games::{GameRules, GameState};
use crate::storage::{GameRow, StorageError, Tx};

impl Core {
    /// Settles a game that has just ended (called once, from `record_turn`).
    pub(super) fn settle_game(
        &self,
        _tx: &Tx<'_>,
        _rules: &dyn GameRules,
        _row: &GameRow,
        _state: &dyn GameState,
    ) -> Result<(), StorageError> {
        Ok(())
    }

    /// The rating changes a finished game's summary shows, one line a player (empty otherwise).
    pub(super) fn rating_lines(
        &self,
        _tx: &Tx<'_>,
        _row: &GameRow,
    ) -> Result<Vec<String>, StorageError> {
        Ok(Vec::new())
    }
}

//! Proposals (`propose undo|draw`, `accept`, `reject`) and queued moves.

use super::Core;
use crate::games::{GameRules, GameState};
use crate::storage::{GameRow, StorageError, Tx};

impl Core {
    /// Lines under a board's status about its open proposals (empty when none is open).
    pub(super) fn proposal_lines(
        &self,
        _tx: &Tx<'_>,
        _rules: &dyn GameRules,
        _row: &GameRow,
        _state: &dyn GameState,
    ) -> Result<Vec<String>, StorageError> {
        Ok(Vec::new())
    }

    /// True when a draw proposal is open on this board. The forfeit clock accepts it instead of
    /// forfeiting the player who left it unanswered.
    #[allow(dead_code)] // until the forfeit clock lands in clock.rs
    pub(super) fn open_draw_proposal(
        &self,
        _tx: &Tx<'_>,
        _row: &GameRow,
    ) -> Result<bool, StorageError> {
        Ok(false)
    }
}

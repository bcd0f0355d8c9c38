//! Spectators and challenge control: `subscribe`, `unsubscribe`, `notify`, `limit`, `accept`, `reject`.

use super::{Core, Letter, Step};
use crate::games::GameRules;
use crate::storage::{GameRow, StorageError, Tx, User};

impl Core {
    /// The userids subscribed to a board, for its summary.
    pub(super) fn subscriber_names(
        &self,
        _tx: &Tx<'_>,
        _row: &GameRow,
    ) -> Result<Vec<String>, StorageError> {
        Ok(Vec::new())
    }

    /// Each subscriber's copy of a board mail.
    pub(super) fn subscriber_letters(
        &self,
        _tx: &Tx<'_>,
        _row: &GameRow,
        _subject: &str,
        _body: &str,
    ) -> Result<Vec<Letter>, StorageError> {
        Ok(Vec::new())
    }

    /// Refuses a challenge that a challenged player's limit or accept/reject lists do not allow; the
    /// refusal says why. `players` are in seat order; the first is taken as the challenger.
    pub(super) fn check_challenge(
        &self,
        _tx: &Tx<'_>,
        _rules: &dyn GameRules,
        _players: &[User],
    ) -> Step<()> {
        Ok(())
    }

    /// The mails telling players who asked (`notify`) about a new game of this type.
    pub(super) fn new_game_letters(
        &self,
        _tx: &Tx<'_>,
        _rules: &dyn GameRules,
        _row: &GameRow,
        _subject: &str,
        _body: &str,
    ) -> Result<Vec<Letter>, StorageError> {
        Ok(Vec::new())
    }
}

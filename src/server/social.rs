//! Spectators and challenge control: `subscribe`, `unsubscribe`, `notify`, `limit`, `accept`, `reject`.

use super::{Core, Letter};
use crate::storage::{GameRow, StorageError, Tx};

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
}

//! Time in correspondence play: nag mails, forfeits on time, vacations, and the `pbem cron` run.

use super::Core;
use crate::storage::{GameRow, StorageError, Tx};

impl Core {
    /// Lines under a board's status about its players' vacations (empty when nobody is away).
    pub(super) fn away_lines(
        &self,
        _tx: &Tx<'_>,
        _row: &GameRow,
    ) -> Result<Vec<String>, StorageError> {
        Ok(Vec::new())
    }
}

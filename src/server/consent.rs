//! Agreement to a game (issue "Trust"): a game counts for the ratings only when every player in it has
//! agreed by an authenticated act. The acts themselves are recorded where they happen (`seated`,
//! `challenge`, `answer`); this module says on the board who has yet to agree and how.

use super::Core;
use crate::games::{GameRules, GameState, Status};
use crate::storage::{GameRow, StorageError, Tx};

impl Core {
    /// Lines under a running board's status for each player who has not agreed to the game yet.
    pub(super) fn agreement_lines(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        row: &GameRow,
        state: &dyn GameState,
    ) -> Result<Vec<String>, StorageError> {
        if matches!(state.status(), Status::Over(_)) {
            return Ok(Vec::new());
        }
        let agreed = tx.agreements(row.id)?;
        let mut lines = Vec::new();
        for (p, _) in row.players.iter().zip(&agreed).filter(|(_, a)| !**a) {
            let line = |word: &str| {
                format!(
                    "{} move {} {} <password> {word}",
                    rules.name(),
                    row.board,
                    p.userid
                )
            };
            lines.push(format!(
                "{} has not agreed to this game yet: it is rated only once every player has.",
                p.userid
            ));
            lines.push(format!(
                "  Agree by moving, or with:      {}",
                line("accept")
            ));
            lines.push(format!(
                "  Decline (ends it, unrated):    {}",
                line("reject")
            ));
        }
        Ok(lines)
    }
}

//! Agreement to a game (issue "Trust"): a game counts for the ratings only when every player in it has
//! agreed by an authenticated act. The acts themselves are recorded where they happen (`seated`,
//! `challenge`, `answer`); this module says on the board who has yet to agree and how.

use super::proposals::with_event;
use super::{Handling, HostedGame, Outcome, Step};
use crate::decision::{Event, Game};
use crate::games::Status;
use crate::storage::{GameRow, StorageError, Tx, User};

impl Handling<'_> {
    /// Records the seat's agreement by the command being carried out; it is taken back if the
    /// command is refused (see `Handling::execute`).
    pub(super) fn agree_by_command(
        &self,
        tx: &Tx<'_>,
        game_id: i64,
        seat: usize,
    ) -> Result<(), StorageError> {
        if tx.agree(game_id, seat, self.now)? {
            self.mail.agreeing.borrow_mut().push((game_id, seat));
        }
        Ok(())
    }

    /// The userids, in seat order, of the players who have not agreed to the game.
    pub(super) fn not_agreed(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
    ) -> Result<Vec<String>, StorageError> {
        Ok(tx
            .agreements(row.id)?
            .iter()
            .zip(&row.players)
            .filter(|(agreed, _)| !**agreed)
            .map(|(_, p)| p.userid.clone())
            .collect())
    }

    /// `accept` with no open proposal, from a player who has not agreed yet: the answer to the
    /// challenge. Every player gets the board with a line saying so.
    pub(super) fn accept_game(
        &self,
        tx: &Tx<'_>,
        game: HostedGame<'_>,
        user: &User,
        seat: usize,
        comment: &str,
    ) -> Step<Outcome> {
        let HostedGame { rules, row, state } = game;
        tx.agree(row.id, seat, self.now)?;
        let accepted = Event::GameAccepted {
            game: Game::of(rules),
            board: row.board,
            userid: user.userid.clone(),
            waiting: self.not_agreed(tx, row)?,
        };
        let comments = self.comment_at(tx, row, state.move_number(), user.id, comment)?;
        let outcome = self.board_mails(tx, game, &comments, false, Some(seat), None)?;
        Ok(with_event(outcome, accepted))
    }
    /// Lines under a running board's status for each player who has not agreed to the game yet.
    pub(super) fn agreement_lines(
        &self,
        tx: &Tx<'_>,
        game: HostedGame<'_>,
    ) -> Result<Vec<String>, StorageError> {
        let HostedGame { rules, row, state } = game;
        if matches!(state.status(), Status::Over(_)) {
            return Ok(Vec::new());
        }
        let agreed = tx.agreements(row.id)?;
        // One line per player still to act (issue 25): the line that agrees; a move agrees too,
        // and `reject` in its place declines (the game ends, unrated).
        let lines: Vec<String> = row
            .players
            .iter()
            .zip(&agreed)
            .filter(|(_, a)| !**a)
            .map(|(p, _)| {
                format!(
                    "  {} move {} {} <password> accept",
                    rules.name(),
                    row.board,
                    p.userid
                )
            })
            .collect();
        if lines.is_empty() {
            return Ok(lines);
        }
        let mut out = vec![
            "Rated once every player agrees: a move agrees, and so does".to_string(),
            "this line (`reject` in place of `accept` declines, unrated):".to_string(),
        ];
        out.extend(lines);
        Ok(out)
    }
}

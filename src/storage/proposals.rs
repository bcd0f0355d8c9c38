//! Storage for proposals and queued moves (see `crate::server::proposals`).

use rusqlite::{OptionalExtension, params};

use super::{Result, StorageError, Tx};
use crate::model::ProposalKind;

/// The open proposal of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proposal {
    /// What is proposed.
    pub kind: ProposalKind,
    /// The user row id of the player who proposed it.
    pub proposer_id: i64,
    /// The move awaited when it was proposed.
    pub move_number: u32,
    /// Unix seconds.
    pub created_at: i64,
    /// The user row ids of the players who have accepted it so far.
    pub accepted_by: Vec<i64>,
}

/// A move a player keeps for when their turn comes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueuedMove {
    /// The move as written, without the guard.
    pub mv: String,
    /// Play it only if its turn comes at this move number.
    pub guard: Option<u32>,
    /// The comment that came with the queue command (passwords masked).
    pub comment: String,
    /// Unix seconds.
    pub created_at: i64,
}

impl Tx<'_> {
    /// The open proposal of a game, with who has accepted it so far.
    pub fn open_proposal(&self, game_id: i64) -> Result<Option<Proposal>> {
        let row = self
            .0
            .query_row(
                "SELECT kind, proposer_id, move_number, created_at FROM proposals WHERE game_id = ?1",
                [game_id],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, i64>(1)?,
                        r.get::<_, u32>(2)?,
                        r.get::<_, i64>(3)?,
                    ))
                },
            )
            .optional()?;
        let Some((kind, proposer_id, move_number, created_at)) = row else {
            return Ok(None);
        };
        let kind = ProposalKind::from_word(&kind).ok_or_else(|| {
            StorageError::Corrupt(format!("game {game_id} has a proposal of kind '{kind}'"))
        })?;
        let accepted_by = {
            let mut stmt = self.0.prepare(
                "SELECT user_id FROM proposal_accepts WHERE game_id = ?1 ORDER BY user_id",
            )?;
            stmt.query_map([game_id], |r| r.get(0))?
                .collect::<rusqlite::Result<Vec<i64>>>()?
        };
        Ok(Some(Proposal {
            kind,
            proposer_id,
            move_number,
            created_at,
            accepted_by,
        }))
    }

    /// Opens a proposal on a game (the caller has checked that none is open).
    pub fn insert_proposal(
        &self,
        game_id: i64,
        kind: ProposalKind,
        proposer_id: i64,
        move_number: u32,
        now: i64,
    ) -> Result<()> {
        self.0.execute(
            "INSERT INTO proposals (game_id, kind, proposer_id, move_number, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![game_id, kind.as_str(), proposer_id, move_number, now],
        )?;
        Ok(())
    }

    /// Records that a player accepted the open proposal.
    pub fn accept_proposal(&self, game_id: i64, user_id: i64) -> Result<()> {
        self.0.execute(
            "INSERT OR IGNORE INTO proposal_accepts (game_id, user_id) VALUES (?1, ?2)",
            params![game_id, user_id],
        )?;
        Ok(())
    }

    /// Removes a game's open proposal (and its acceptances); true if there was one.
    pub fn clear_proposal(&self, game_id: i64) -> Result<bool> {
        // The acceptances go by ON DELETE CASCADE.
        let n = self
            .0
            .execute("DELETE FROM proposals WHERE game_id = ?1", [game_id])?;
        Ok(n > 0)
    }

    /// A player's queued move on a game.
    pub fn queued_move(&self, game_id: i64, user_id: i64) -> Result<Option<QueuedMove>> {
        Ok(self
            .0
            .query_row(
                "SELECT move, guard, comment, created_at FROM queued_moves
                 WHERE game_id = ?1 AND user_id = ?2 AND played_at IS NULL",
                params![game_id, user_id],
                |r| {
                    Ok(QueuedMove {
                        mv: r.get(0)?,
                        guard: r.get(1)?,
                        comment: r.get(2)?,
                        created_at: r.get(3)?,
                    })
                },
            )
            .optional()?)
    }

    /// Keeps a move for a player; returns the one it replaces, if any.
    pub fn set_queued_move(
        &self,
        game_id: i64,
        user_id: i64,
        queued: &QueuedMove,
    ) -> Result<Option<QueuedMove>> {
        let old = self.queued_move(game_id, user_id)?;
        self.0.execute(
            "INSERT OR REPLACE INTO queued_moves (game_id, user_id, move, guard, comment, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                game_id,
                user_id,
                queued.mv,
                queued.guard,
                queued.comment,
                queued.created_at
            ],
        )?;
        Ok(old)
    }

    /// Removes and returns a player's queued move.
    pub fn take_queued_move(&self, game_id: i64, user_id: i64) -> Result<Option<QueuedMove>> {
        let q = self.queued_move(game_id, user_id)?;
        if q.is_some() {
            self.0.execute(
                "DELETE FROM queued_moves WHERE game_id = ?1 AND user_id = ?2",
                params![game_id, user_id],
            )?;
        }
        Ok(q)
    }

    /// Removes every queued move of a game still waiting; returns how many there were.
    pub fn clear_queued_moves(&self, game_id: i64) -> Result<usize> {
        Ok(self.0.execute(
            "DELETE FROM queued_moves WHERE game_id = ?1 AND played_at IS NULL",
            [game_id],
        )?)
    }

    /// Marks a player's queued move as played at move `at`, so that the board mails of that move can
    /// say so ([`Tx::take_played_queued_move`] then removes it).
    pub fn mark_queued_move_played(&self, game_id: i64, user_id: i64, at: u32) -> Result<()> {
        self.0.execute(
            "UPDATE queued_moves SET played_at = ?3 WHERE game_id = ?1 AND user_id = ?2",
            params![game_id, user_id, at],
        )?;
        Ok(())
    }

    /// Removes and returns the queued move just played on a game, if any: the user row id, the move
    /// number it was played at, and the move.
    pub fn take_played_queued_move(&self, game_id: i64) -> Result<Option<(i64, u32, QueuedMove)>> {
        let found = self
            .0
            .query_row(
                "SELECT user_id, played_at, move, guard, comment, created_at FROM queued_moves
                 WHERE game_id = ?1 AND played_at IS NOT NULL",
                [game_id],
                |r| {
                    Ok((
                        r.get(0)?,
                        r.get(1)?,
                        QueuedMove {
                            mv: r.get(2)?,
                            guard: r.get(3)?,
                            comment: r.get(4)?,
                            created_at: r.get(5)?,
                        },
                    ))
                },
            )
            .optional()?;
        if let Some((user_id, _, _)) = &found {
            self.0.execute(
                "DELETE FROM queued_moves WHERE game_id = ?1 AND user_id = ?2",
                params![game_id, user_id],
            )?;
        }
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::storage::Db;
    use crate::storage::SavedStatus;

    fn game(db: &mut Db) -> (Tx<'_>, i64, i64, i64) {
        let tx = db.transaction().unwrap();
        let a = tx.insert_user("a", "h", &[], 1).unwrap();
        let b = tx.insert_user("b", "h", &[], 1).unwrap();
        let g = tx
            .insert_game("limit", 101, "{}", &SavedStatus::bare(false), &[a, b], 1)
            .unwrap();
        (tx, g, a, b)
    }

    #[test]
    fn a_proposal_is_stored_accepted_and_cleared_with_its_acceptances() {
        let dir = tempfile::tempdir().unwrap();
        let mut db = Db::open(&dir.path().join("t.sqlite"), Duration::from_secs(5)).unwrap();
        let (tx, g, a, b) = game(&mut db);
        assert_eq!(tx.open_proposal(g).unwrap(), None);
        tx.insert_proposal(g, ProposalKind::Undo, a, 7, 100)
            .unwrap();
        // One open proposal per game: a second insert is refused by the schema.
        assert!(
            tx.insert_proposal(g, ProposalKind::Draw, b, 7, 100)
                .is_err()
        );
        tx.accept_proposal(g, b).unwrap();
        tx.accept_proposal(g, b).unwrap();
        let p = tx.open_proposal(g).unwrap().unwrap();
        assert_eq!(
            (p.kind, p.proposer_id, p.move_number, p.accepted_by),
            (ProposalKind::Undo, a, 7, vec![b])
        );
        assert!(tx.clear_proposal(g).unwrap());
        assert!(!tx.clear_proposal(g).unwrap());
        assert_eq!(tx.open_proposal(g).unwrap(), None);
        let left: i64 =
            tx.0.query_row("SELECT COUNT(*) FROM proposal_accepts", [], |r| r.get(0))
                .unwrap();
        assert_eq!(left, 0, "the acceptances went with the proposal");
    }

    #[test]
    fn one_queued_move_per_player_and_a_new_one_replaces_the_old() {
        let dir = tempfile::tempdir().unwrap();
        let mut db = Db::open(&dir.path().join("t.sqlite"), Duration::from_secs(5)).unwrap();
        let (tx, g, a, b) = game(&mut db);
        let q = |mv: &str| QueuedMove {
            mv: mv.into(),
            guard: Some(4),
            comment: "hi".into(),
            created_at: 5,
        };
        assert_eq!(tx.set_queued_move(g, a, &q("1-2,3")).unwrap(), None);
        assert_eq!(
            tx.set_queued_move(g, a, &q("4-5,6")).unwrap(),
            Some(q("1-2,3"))
        );
        tx.set_queued_move(g, b, &q("7-8,9")).unwrap();
        assert_eq!(tx.take_queued_move(g, a).unwrap(), Some(q("4-5,6")));
        assert_eq!(tx.take_queued_move(g, a).unwrap(), None);
        // A move marked as played is no longer waiting, and is taken once.
        tx.mark_queued_move_played(g, b, 2).unwrap();
        assert_eq!(tx.queued_move(g, b).unwrap(), None);
        assert_eq!(tx.clear_queued_moves(g).unwrap(), 0);
        assert_eq!(
            tx.take_played_queued_move(g).unwrap(),
            Some((b, 2, q("7-8,9")))
        );
        assert_eq!(tx.take_played_queued_move(g).unwrap(), None);
        tx.set_queued_move(g, b, &q("7-8,9")).unwrap();
        assert_eq!(tx.clear_queued_moves(g).unwrap(), 1);
        assert_eq!(tx.queued_move(g, b).unwrap(), None);
    }
}

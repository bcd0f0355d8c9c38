//! Board pictures kept with their game (issue 35, items 2 and 3; migration `0046_pictures.sql`): a
//! position is drawn once, by whichever process sends its first mail, and every later mail of it
//! reads the bytes. The key is the game and the digest of the document drawn, so a changed position
//! (an undo, a move played again differently) never finds a picture that is not its own.

use rusqlite::{OptionalExtension, params};

use super::{Db, Result, Tx};

/// How many pictures a game keeps: the position now, and one other (the position before, which an
/// undo returns to, or an older one that a mail showed).
pub const PICTURES_PER_GAME: usize = 2;

/// The statement of [`Db::picture`].
pub(crate) const PICTURE: &str = "SELECT png FROM pictures WHERE game_id = ?1 AND digest = ?2";

/// The statement that trims a game's pictures to its latest [`PICTURES_PER_GAME`].
pub(crate) const TRIM: &str = "DELETE FROM pictures WHERE game_id = ?1 AND id NOT IN
     (SELECT id FROM pictures WHERE game_id = ?1 ORDER BY id DESC LIMIT ?2)";

/// The statement of [`Db::prune_pictures`].
pub(crate) const PRUNE: &str = "DELETE FROM pictures WHERE drawn_at < ?1";

impl Tx<'_> {
    /// The picture of game `game_id` drawn from the document with this digest, if it is kept.
    pub fn picture(&self, game_id: i64, digest: &[u8]) -> Result<Option<Vec<u8>>> {
        Ok(self
            .0
            .prepare_cached(PICTURE)?
            .query_row(params![game_id, digest], |r| r.get(0))
            .optional()?)
    }

    /// Keeps a picture just painted, as the game's latest: its older pictures beyond
    /// [`PICTURES_PER_GAME`] go. A game that no longer exists keeps nothing.
    pub fn keep_picture(&self, game_id: i64, digest: &[u8], png: &[u8], now: i64) -> Result<()> {
        self.0
            .prepare_cached(
                "INSERT OR REPLACE INTO pictures (game_id, digest, png, drawn_at)
                 SELECT ?1, ?2, ?3, ?4 WHERE EXISTS (SELECT 1 FROM games WHERE id = ?1)",
            )?
            .execute(params![game_id, digest, png, now])?;
        self.0
            .prepare_cached(TRIM)?
            .execute(params![game_id, PICTURES_PER_GAME as i64])?;
        Ok(())
    }
}

impl Db {
    /// Deletes the pictures drawn before `before` (unix seconds): of games finished or left alone
    /// since. A mail that shows one again draws it again. Returns how many went.
    pub fn prune_pictures(&self, before: i64) -> Result<usize> {
        Ok(self.conn.prepare_cached(PRUNE)?.execute([before])?)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::storage::SavedStatus;

    #[test]
    fn a_game_keeps_its_latest_pictures_by_digest_and_old_ones_are_pruned() {
        let dir = tempfile::tempdir().unwrap();
        let mut db = Db::open(&dir.path().join("t.sqlite"), Duration::from_secs(5)).unwrap();
        let tx = db.transaction().unwrap();
        let alice = tx.insert_user("alice", "h", &[], 1).unwrap();
        let bob = tx.insert_user("bob", "h", &[], 1).unwrap();
        let status = SavedStatus {
            finished: false,
            to_move: Some(0),
            line: String::new(),
        };
        let g1 = tx
            .insert_game("limit", 101, "{}", &status, &[alice, bob], 10)
            .unwrap();
        let g2 = tx
            .insert_game("limit", 102, "{}", &status, &[alice, bob], 10)
            .unwrap();
        tx.keep_picture(g1, b"one", b"png one", 100).unwrap();
        tx.keep_picture(g2, b"one", b"png of game 2", 100).unwrap();
        assert_eq!(
            tx.picture(g1, b"one").unwrap().as_deref(),
            Some(&b"png one"[..])
        );
        assert_eq!(tx.picture(g1, b"two").unwrap(), None, "another document");
        assert_eq!(
            tx.picture(g2, b"one").unwrap().as_deref(),
            Some(&b"png of game 2"[..]),
            "the same digest in another game is that game's own"
        );
        tx.keep_picture(g1, b"two", b"png two", 200).unwrap();
        tx.keep_picture(g1, b"three", b"png three", 300).unwrap();
        assert_eq!(tx.picture(g1, b"one").unwrap(), None, "two kept a game");
        assert!(tx.picture(g1, b"two").unwrap().is_some());
        assert!(tx.picture(g1, b"three").unwrap().is_some());
        assert!(
            tx.picture(g2, b"one").unwrap().is_some(),
            "other games keep theirs"
        );
        // A game that is gone keeps nothing.
        tx.keep_picture(9999, b"x", b"png", 300).unwrap();
        assert_eq!(tx.picture(9999, b"x").unwrap(), None);

        tx.commit().unwrap();
        assert_eq!(db.prune_pictures(200).unwrap(), 1, "game 2's, drawn at 100");
        let tx = db.transaction().unwrap();
        assert_eq!(tx.picture(g2, b"one").unwrap(), None);
        assert!(tx.picture(g1, b"two").unwrap().is_some(), "drawn at 200");
    }
}

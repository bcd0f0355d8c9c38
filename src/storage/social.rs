//! Storage for social (see `crate::server::social`): subscriptions to boards, new-game notices, and each
//! player's challenge limit and accept/reject lists, all per game type.

use rusqlite::{OptionalExtension, params};

use super::{Result, Tx, User};

/// Which of a player's two challenge lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChallengeList {
    /// When not empty, challenges are taken only from these players.
    Accept,
    /// Challenges from these players are refused.
    Reject,
}

impl ChallengeList {
    /// The word as the command and the database write it.
    pub fn as_str(self) -> &'static str {
        match self {
            ChallengeList::Accept => "accept",
            ChallengeList::Reject => "reject",
        }
    }
}

impl Tx<'_> {
    /// The Message-ID of the first board mail of a game to a player or subscriber, if it was
    /// recorded (see migrations/0022_threads.sql).
    pub fn thread_root(&self, game_id: i64, user_id: i64) -> Result<Option<String>> {
        Ok(self
            .0
            .query_row(
                "SELECT message_id FROM thread_roots WHERE game_id = ?1 AND user_id = ?2",
                params![game_id, user_id],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// Records the first board mail of a game to a player or subscriber.
    pub fn set_thread_root(&self, game_id: i64, user_id: i64, message_id: &str) -> Result<()> {
        self.0.execute(
            "INSERT OR IGNORE INTO thread_roots (game_id, user_id, message_id) VALUES (?1, ?2, ?3)",
            params![game_id, user_id, message_id],
        )?;
        Ok(())
    }

    /// Subscribes a player to a game; false when they were subscribed already.
    pub fn subscribe(&self, game_id: i64, user_id: i64, now: i64) -> Result<bool> {
        let n = self.0.execute(
            "INSERT OR IGNORE INTO subscriptions (game_id, user_id, created_at) VALUES (?1, ?2, ?3)",
            params![game_id, user_id, now],
        )?;
        Ok(n == 1)
    }

    /// Ends a player's subscription to a game; false when there was none.
    pub fn unsubscribe(&self, game_id: i64, user_id: i64) -> Result<bool> {
        let n = self.0.execute(
            "DELETE FROM subscriptions WHERE game_id = ?1 AND user_id = ?2",
            params![game_id, user_id],
        )?;
        Ok(n == 1)
    }

    /// The players subscribed to a game, in the order they subscribed.
    pub fn subscribers(&self, game_id: i64) -> Result<Vec<User>> {
        let ids = self.ids(
            "SELECT user_id FROM subscriptions WHERE game_id = ?1 ORDER BY created_at, rowid",
            game_id,
        )?;
        ids.into_iter().map(|id| self.user_by_id(id)).collect()
    }

    /// The boards of unfinished games of a type that a player is subscribed to, in board order.
    pub fn subscribed_boards(&self, user_id: i64, game_type: &str) -> Result<Vec<u32>> {
        let mut stmt = self.0.prepare(
            "SELECT g.board FROM subscriptions s JOIN games g ON g.id = s.game_id
             WHERE s.user_id = ?1 AND g.game_type = ?2 AND g.finished = 0 ORDER BY g.board",
        )?;
        let boards = stmt
            .query_map(params![user_id, game_type], |r| r.get(0))?
            .collect::<rusqlite::Result<Vec<u32>>>()?;
        Ok(boards)
    }

    /// True when a player asked to be told of new games of a type.
    pub fn wants_new_game_notices(&self, game_type: &str, user_id: i64) -> Result<bool> {
        Ok(self
            .0
            .query_row(
                "SELECT 1 FROM new_game_notices WHERE game_type = ?1 AND user_id = ?2",
                params![game_type, user_id],
                |_| Ok(()),
            )
            .optional()?
            .is_some())
    }

    /// Turns a player's notices of new games of a type on or off; false when it already was so.
    pub fn set_new_game_notices(
        &self,
        game_type: &str,
        user_id: i64,
        on: bool,
        now: i64,
    ) -> Result<bool> {
        let n = if on {
            self.0.execute(
                "INSERT OR IGNORE INTO new_game_notices (game_type, user_id, created_at)
                 VALUES (?1, ?2, ?3)",
                params![game_type, user_id, now],
            )?
        } else {
            self.0.execute(
                "DELETE FROM new_game_notices WHERE game_type = ?1 AND user_id = ?2",
                params![game_type, user_id],
            )?
        };
        Ok(n == 1)
    }

    /// The players who asked to be told of new games of a type, in the order they asked.
    pub fn new_game_watchers(&self, game_type: &str) -> Result<Vec<User>> {
        let ids = self.ids(
            "SELECT user_id FROM new_game_notices WHERE game_type = ?1 ORDER BY created_at, rowid",
            game_type,
        )?;
        ids.into_iter().map(|id| self.user_by_id(id)).collect()
    }

    /// Sets (`Some`) or lifts (`None`) a player's limit of unfinished games of a type.
    pub fn set_game_limit(&self, game_type: &str, user_id: i64, max: Option<u32>) -> Result<()> {
        match max {
            Some(max) => self.0.execute(
                "INSERT INTO game_limits (game_type, user_id, max_active) VALUES (?1, ?2, ?3)
                 ON CONFLICT (game_type, user_id) DO UPDATE SET max_active = excluded.max_active",
                params![game_type, user_id, max],
            )?,
            None => self.0.execute(
                "DELETE FROM game_limits WHERE game_type = ?1 AND user_id = ?2",
                params![game_type, user_id],
            )?,
        };
        Ok(())
    }

    /// A player's limit of unfinished games of a type, if they set one.
    pub fn game_limit(&self, game_type: &str, user_id: i64) -> Result<Option<u32>> {
        Ok(self
            .0
            .query_row(
                "SELECT max_active FROM game_limits WHERE game_type = ?1 AND user_id = ?2",
                params![game_type, user_id],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// The number of unfinished games of one type a player is in.
    pub fn active_games_of_type(&self, user_id: i64, game_type: &str) -> Result<u32> {
        Ok(self.0.query_row(
            "SELECT COUNT(*) FROM games g JOIN seats s ON s.game_id = g.id
             WHERE s.user_id = ?1 AND g.game_type = ?2 AND g.finished = 0",
            params![user_id, game_type],
            |r| r.get(0),
        )?)
    }

    /// Replaces one of a player's challenge lists with these players (an empty slice clears it).
    pub fn set_challenge_list(
        &self,
        game_type: &str,
        user_id: i64,
        list: ChallengeList,
        others: &[i64],
    ) -> Result<()> {
        self.0.execute(
            "DELETE FROM challenge_lists WHERE game_type = ?1 AND user_id = ?2 AND kind = ?3",
            params![game_type, user_id, list.as_str()],
        )?;
        for other in others {
            self.0.execute(
                "INSERT OR IGNORE INTO challenge_lists (game_type, user_id, kind, other_id)
                 VALUES (?1, ?2, ?3, ?4)",
                params![game_type, user_id, list.as_str(), other],
            )?;
        }
        Ok(())
    }

    /// One of a player's challenge lists, in the order it was written.
    pub fn challenge_list(
        &self,
        game_type: &str,
        user_id: i64,
        list: ChallengeList,
    ) -> Result<Vec<User>> {
        let ids = {
            let mut stmt = self.0.prepare(
                "SELECT other_id FROM challenge_lists
                 WHERE game_type = ?1 AND user_id = ?2 AND kind = ?3 ORDER BY rowid",
            )?;
            stmt.query_map(params![game_type, user_id, list.as_str()], |r| r.get(0))?
                .collect::<rusqlite::Result<Vec<i64>>>()?
        };
        ids.into_iter().map(|id| self.user_by_id(id)).collect()
    }

    fn ids(&self, sql: &str, key: impl rusqlite::ToSql) -> Result<Vec<i64>> {
        let mut stmt = self.0.prepare(sql)?;
        let ids = stmt
            .query_map([key], |r| r.get(0))?
            .collect::<rusqlite::Result<Vec<i64>>>()?;
        Ok(ids)
    }
}

impl Tx<'_> {
    /// Records a player-to-player message to one recipient.
    pub fn record_message(&self, from_user: i64, to_user: i64, now: i64) -> Result<()> {
        self.0.execute(
            "INSERT INTO messages (from_user, to_user, sent_at) VALUES (?1, ?2, ?3)",
            params![from_user, to_user, now],
        )?;
        Ok(())
    }

    /// Records a chat of `from_user` on a game mailed to `to_user`.
    pub fn record_chat(&self, from_user: i64, to_user: i64, game_id: i64, now: i64) -> Result<()> {
        self.0.execute(
            "INSERT INTO chats (from_user, to_user, game_id, sent_at) VALUES (?1, ?2, ?3, ?4)",
            params![from_user, to_user, game_id, now],
        )?;
        Ok(())
    }

    /// The chats and messages `from_user` sent `to_user` since `since`: how many, and when the
    /// first of them was sent.
    pub fn talk_since(
        &self,
        from_user: i64,
        to_user: i64,
        since: i64,
    ) -> Result<(u32, Option<i64>)> {
        Ok(self.0.query_row(
            "SELECT COUNT(*), MIN(sent_at) FROM (
               SELECT sent_at FROM chats WHERE from_user = ?1 AND to_user = ?2 AND sent_at >= ?3
               UNION ALL
               SELECT sent_at FROM messages WHERE from_user = ?1 AND to_user = ?2 AND sent_at >= ?3)",
            params![from_user, to_user, since],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?)
    }

    /// Messages (one a recipient) a player sent since `since`.
    pub fn messages_since(&self, from_user: i64, since: i64) -> Result<u32> {
        Ok(self.0.query_row(
            "SELECT COUNT(*) FROM messages WHERE from_user = ?1 AND sent_at >= ?2",
            params![from_user, since],
            |r| r.get(0),
        )?)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::storage::Db;
    use crate::storage::SavedStatus;

    fn db() -> (tempfile::TempDir, Db) {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("t.sqlite"), Duration::from_secs(5)).unwrap();
        (dir, db)
    }

    #[test]
    fn subscriptions_are_kept_once_and_removed() {
        let (_dir, mut db) = db();
        let tx = db.transaction().unwrap();
        let a = tx.insert_user("alice", "h", &[], 1).unwrap();
        let b = tx.insert_user("bob", "h", &[], 1).unwrap();
        let c = tx.insert_user("carol", "h", &[], 1).unwrap();
        let g = tx
            .insert_game("limit", 101, "{}", &SavedStatus::bare(false), &[a, b], 1)
            .unwrap();
        assert!(tx.subscribe(g, c, 5).unwrap());
        assert!(!tx.subscribe(g, c, 6).unwrap());
        let subs: Vec<String> = tx
            .subscribers(g)
            .unwrap()
            .into_iter()
            .map(|u| u.userid)
            .collect();
        assert_eq!(subs, ["carol"]);
        assert!(tx.unsubscribe(g, c).unwrap());
        assert!(!tx.unsubscribe(g, c).unwrap());
        assert!(tx.subscribers(g).unwrap().is_empty());
    }

    #[test]
    fn notices_limits_and_lists_are_per_game_type() {
        let (_dir, mut db) = db();
        let tx = db.transaction().unwrap();
        let a = tx.insert_user("alice", "h", &[], 1).unwrap();
        let b = tx.insert_user("bob", "h", &[], 1).unwrap();
        assert!(tx.set_new_game_notices("limit", a, true, 1).unwrap());
        assert!(!tx.set_new_game_notices("limit", a, true, 2).unwrap());
        assert!(tx.new_game_watchers("other").unwrap().is_empty());
        assert_eq!(tx.new_game_watchers("limit").unwrap()[0].userid, "alice");
        assert!(tx.set_new_game_notices("limit", a, false, 3).unwrap());
        assert!(tx.new_game_watchers("limit").unwrap().is_empty());

        assert_eq!(tx.game_limit("limit", a).unwrap(), None);
        tx.set_game_limit("limit", a, Some(2)).unwrap();
        tx.set_game_limit("limit", a, Some(0)).unwrap();
        assert_eq!(tx.game_limit("limit", a).unwrap(), Some(0));
        assert_eq!(tx.game_limit("other", a).unwrap(), None);
        tx.set_game_limit("limit", a, None).unwrap();
        assert_eq!(tx.game_limit("limit", a).unwrap(), None);

        tx.insert_game("limit", 101, "{}", &SavedStatus::bare(false), &[a, b], 1)
            .unwrap();
        tx.insert_game("limit", 102, "{}", &SavedStatus::bare(true), &[a, b], 1)
            .unwrap();
        tx.insert_game("other", 101, "{}", &SavedStatus::bare(false), &[a, b], 1)
            .unwrap();
        assert_eq!(tx.active_games_of_type(a, "limit").unwrap(), 1);

        tx.set_challenge_list("limit", a, ChallengeList::Reject, &[b, b])
            .unwrap();
        assert_eq!(
            tx.challenge_list("limit", a, ChallengeList::Reject)
                .unwrap()[0]
                .userid,
            "bob"
        );
        assert!(
            tx.challenge_list("limit", a, ChallengeList::Accept)
                .unwrap()
                .is_empty()
        );
        tx.set_challenge_list("limit", a, ChallengeList::Reject, &[])
            .unwrap();
        assert!(
            tx.challenge_list("limit", a, ChallengeList::Reject)
                .unwrap()
                .is_empty()
        );
    }
}

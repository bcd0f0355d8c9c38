//! Storage for what keeps strangers from hurting players (see `crate::server` and issue "Trust"): who a
//! sender is, which players agreed to a game, and addresses that wait for confirmation.

use rusqlite::{OptionalExtension, params};

use super::{Db, Result, Tx};

impl Db {
    /// The userids of the accounts with a password that have this address registered (ignoring case),
    /// read without the write lock: whose passwords the words of a mail from there are checked
    /// against, to hide them (`server::secrets`).
    pub fn userids_at_address(&self, address: &str) -> Result<Vec<String>> {
        let mut stmt = self.conn.prepare(
            "SELECT u.userid FROM users u JOIN addresses a ON a.user_id = u.id
             WHERE lower(a.address) = lower(?1) AND u.password_hash IS NOT NULL
             ORDER BY u.id",
        )?;
        let rows = stmt.query_map([address], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<Vec<String>>>()?)
    }

    /// True when an account (a player's or a robot's) has this userid (ignoring case), read without
    /// the write lock: a userid is public, never taken for a password.
    pub fn userid_taken(&self, userid: &str) -> Result<bool> {
        Ok(self.conn.query_row(
            "SELECT EXISTS (SELECT 1 FROM users WHERE userid_key = ?1)",
            [userid.to_lowercase()],
            |r| r.get(0),
        )?)
    }
}

impl Tx<'_> {
    /// The userid registered with this address (ignoring case), if one is; the oldest account first
    /// when several share it.
    pub fn userid_at_address(&self, address: &str) -> Result<Option<String>> {
        Ok(self
            .0
            .query_row(
                "SELECT u.userid FROM users u JOIN addresses a ON a.user_id = u.id
                 WHERE lower(a.address) = lower(?1) AND u.password_hash IS NOT NULL
                 ORDER BY u.id LIMIT 1",
                [address],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// The lowest unfinished board of this type that the player sits at, for examples in answers.
    pub fn an_active_board(&self, userid: &str, game_type: &str) -> Result<Option<u32>> {
        Ok(self
            .0
            .query_row(
                "SELECT g.board FROM games g JOIN seats s ON s.game_id = g.id
                 JOIN users u ON u.id = s.user_id
                 WHERE u.userid_key = ?1 AND g.game_type = ?2 AND g.finished = 0
                 ORDER BY g.board LIMIT 1",
                params![userid.to_lowercase(), game_type],
                |r| r.get(0),
            )
            .optional()?)
    }
}

impl Tx<'_> {
    /// Records that the player in this seat agreed to the game (their first authenticated act on it);
    /// an earlier agreement stands. True when this is the first.
    pub fn agree(&self, game_id: i64, seat: usize, now: i64) -> Result<bool> {
        let n = self.0.execute(
            "UPDATE seats SET agreed_at = ?3 WHERE game_id = ?1 AND seat = ?2 AND agreed_at IS NULL",
            params![game_id, seat as i64, now],
        )?;
        Ok(n == 1)
    }

    /// Takes back an agreement recorded by a command that was then refused.
    pub fn unagree(&self, game_id: i64, seat: usize) -> Result<()> {
        self.0.execute(
            "UPDATE seats SET agreed_at = NULL WHERE game_id = ?1 AND seat = ?2",
            params![game_id, seat as i64],
        )?;
        Ok(())
    }

    /// Whether the player in this seat has agreed to the game.
    pub fn has_agreed(&self, game_id: i64, seat: usize) -> Result<bool> {
        Ok(self.0.query_row(
            "SELECT agreed_at IS NOT NULL FROM seats WHERE game_id = ?1 AND seat = ?2",
            params![game_id, seat as i64],
            |r| r.get(0),
        )?)
    }

    /// Whether each seat of a game has agreed to it, seat by seat.
    pub fn agreements(&self, game_id: i64) -> Result<Vec<bool>> {
        let mut stmt = self
            .0
            .prepare("SELECT agreed_at IS NOT NULL FROM seats WHERE game_id = ?1 ORDER BY seat")?;
        let rows = stmt
            .query_map([game_id], |r| r.get(0))?
            .collect::<rusqlite::Result<Vec<bool>>>()?;
        Ok(rows)
    }

    /// How many games created since `since` seat this player and a robot (the games against robots
    /// they started, or were put in, in that time), and when the oldest of them was created.
    pub fn robot_games(&self, user_id: i64, since: i64) -> Result<(u32, Option<i64>)> {
        Ok(self.0.query_row(
            "SELECT count(*), min(g.created_at) FROM seats s JOIN games g ON g.id = s.game_id
             WHERE s.user_id = ?1 AND g.created_at >= ?2
               AND EXISTS (SELECT 1 FROM seats r JOIN users u ON u.id = r.user_id
                           WHERE r.game_id = g.id AND u.robot IS NOT NULL)",
            params![user_id, since],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?)
    }

    /// How many games created since `since` seat this player without their agreement at the start
    /// (challenges they did not send with their password): the unsolicited challenges they received.
    pub fn unsolicited_challenges(&self, user_id: i64, since: i64) -> Result<u32> {
        Ok(self.0.query_row(
            "SELECT count(*) FROM seats s JOIN games g ON g.id = s.game_id
             WHERE s.user_id = ?1 AND g.created_at >= ?2
               AND (s.agreed_at IS NULL OR s.agreed_at > g.created_at)",
            params![user_id, since],
            |r| r.get(0),
        )?)
    }
}

impl Tx<'_> {
    /// Records an address that waits for confirmation; returns its row id.
    pub fn add_pending_address(
        &self,
        user_id: i64,
        address: &str,
        code: &str,
        now: i64,
    ) -> Result<i64> {
        self.0.execute(
            "INSERT INTO pending_addresses (user_id, address, code, created_at)
             VALUES (?1, ?2, ?3, ?4)",
            params![user_id, address, code, now],
        )?;
        Ok(self.0.last_insert_rowid())
    }

    /// Confirmation mails queued since `since`: server-wide, and those that mails from `sender`
    /// caused (compared without case).
    pub fn confirmation_mails_since(&self, since: i64, sender: &str) -> Result<(u32, u32)> {
        let all = self.0.query_row(
            "SELECT count(*) FROM pending_addresses WHERE mailed_at >= ?1",
            [since],
            |r| r.get(0),
        )?;
        let by_sender = self.0.query_row(
            "SELECT count(*) FROM pending_addresses WHERE sender = ?1 AND mailed_at >= ?2",
            params![sender.to_lowercase(), since],
            |r| r.get(0),
        )?;
        Ok((all, by_sender))
    }

    /// Notes that the confirmation mail of a pending address was queued, at the request of a mail
    /// from `sender`.
    pub fn mark_pending_mailed(&self, id: i64, sender: &str, now: i64) -> Result<()> {
        self.0.execute(
            "UPDATE pending_addresses SET mailed_at = ?2, sender = ?3 WHERE id = ?1",
            params![id, now, sender.to_lowercase()],
        )?;
        Ok(())
    }

    /// Confirms the pending address of this player that is `address` (ignoring case) with this code:
    /// true when there was one (it is then marked confirmed).
    pub fn confirm_pending_address(
        &self,
        user_id: i64,
        address: &str,
        code: &str,
        now: i64,
    ) -> Result<bool> {
        let n = self.0.execute(
            "UPDATE pending_addresses SET confirmed_at = ?4
             WHERE user_id = ?1 AND lower(address) = lower(?2) AND code = ?3
               AND confirmed_at IS NULL",
            params![user_id, address, code, now],
        )?;
        Ok(n > 0)
    }
}

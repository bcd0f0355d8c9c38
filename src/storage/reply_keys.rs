//! Storage of the signed reply addresses (issue 25, migration `0021_reply_keys.sql`): the server's
//! secret, the accounts' reply generations, and the look-ups that check a token before the write
//! lock.

use rusqlite::{Connection, OptionalExtension, params};

use super::{Db, Result, StorageError, Tx};

/// The name of the reply tokens' key in `server_secrets`.
const REPLY: &str = "reply";

/// An account that may have been sent a token: its row, userid and reply generation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplyReader {
    /// The account's row id.
    pub user_id: i64,
    /// The userid as signed up.
    pub userid: String,
    /// Moved on by every password change.
    pub generation: i64,
}

fn secret(conn: &Connection) -> Result<Option<Vec<u8>>> {
    Ok(conn
        .query_row(
            "SELECT value FROM server_secrets WHERE name = ?1",
            [REPLY],
            |r| r.get(0),
        )
        .optional()?)
}

impl Db {
    /// The key of the reply tokens, if one was made (the first signed mail makes it).
    pub fn reply_secret(&self) -> Result<Option<Vec<u8>>> {
        secret(&self.conn)
    }

    /// The signed-up accounts (not signed off) registered at `address`, ignoring case, oldest
    /// first.
    pub fn readers_at_address(&self, address: &str) -> Result<Vec<ReplyReader>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT u.id, u.userid, u.reply_generation FROM users u
             JOIN addresses a ON a.user_id = u.id
             WHERE lower(a.address) = lower(?1) AND u.password_hash IS NOT NULL
             ORDER BY u.id",
        )?;
        let rows = stmt
            .query_map([address], |r| {
                Ok(ReplyReader {
                    user_id: r.get(0)?,
                    userid: r.get(1)?,
                    generation: r.get(2)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(rows)
    }

    /// The signed-up players of a game row, seat by seat: whom a token of that board may have been
    /// mailed to.
    pub fn readers_of_game(&self, game_id: i64) -> Result<Vec<ReplyReader>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT u.id, u.userid, u.reply_generation FROM seats s
             JOIN users u ON u.id = s.user_id
             WHERE s.game_id = ?1 AND u.password_hash IS NOT NULL
             ORDER BY s.seat",
        )?;
        let rows = stmt
            .query_map([game_id], |r| {
                Ok(ReplyReader {
                    user_id: r.get(0)?,
                    userid: r.get(1)?,
                    generation: r.get(2)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(rows)
    }

    /// The game type and board of a game row, if it exists.
    pub fn game_ref(&self, game_id: i64) -> Result<Option<(String, u32)>> {
        Ok(self
            .conn
            .query_row(
                "SELECT game_type, board FROM games WHERE id = ?1",
                [game_id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?)
    }

    /// The userid of an account row that is signed up (not signed off).
    pub fn signed_up_userid(&self, user_id: i64) -> Result<Option<String>> {
        Ok(self
            .conn
            .query_row(
                "SELECT userid FROM users WHERE id = ?1 AND password_hash IS NOT NULL",
                [user_id],
                |r| r.get(0),
            )
            .optional()?)
    }
}

impl Tx<'_> {
    /// The key of the reply tokens; made of `fresh()` and stored the first time.
    pub fn reply_secret(
        &self,
        fresh: impl FnOnce() -> std::io::Result<[u8; 32]>,
    ) -> Result<Vec<u8>> {
        if let Some(s) = secret(&self.0)? {
            return Ok(s);
        }
        let bytes = fresh().map_err(|e| {
            StorageError::Corrupt(format!("no random bytes for the reply key: {e}"))
        })?;
        self.0.execute(
            "INSERT INTO server_secrets (name, value) VALUES (?1, ?2)",
            params![REPLY, bytes.to_vec()],
        )?;
        Ok(bytes.to_vec())
    }

    /// An account's reply generation; `None` for an unknown or signed-off account.
    pub fn reply_generation(&self, user_id: i64) -> Result<Option<i64>> {
        Ok(self
            .0
            .query_row(
                "SELECT reply_generation FROM users WHERE id = ?1 AND password_hash IS NOT NULL",
                [user_id],
                |r| r.get(0),
            )
            .optional()?)
    }
}

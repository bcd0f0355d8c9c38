//! Storage for the password throttle (see `Core::authenticate` in `crate::server`): the wrong passwords
//! of the last hours, by userid and sender (migration `0007_password_failures.sql`).

use rusqlite::{Connection, OptionalExtension, params};

use super::{Db, Result, Tx};

/// What a password check needs to know, read in one go: the stored hash and how many wrong passwords
/// the sender and the account had lately.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LoginState {
    /// The argon2id PHC string; `None` for an unknown or signed-off userid.
    pub password_hash: Option<String>,
    /// The sender is one of the account's registered addresses.
    pub sender_registered: bool,
    /// Wrong passwords since the cut-off from the sender: for a registered sender, those it sent for
    /// this account; for any other sender, those it sent for any userid.
    pub sender_failures: u32,
    /// Wrong passwords since the cut-off for this userid from senders not registered to it.
    pub account_failures: u32,
}

/// Rows older than this many seconds are dropped when a new one is written: the throttle looks back
/// an hour, the rest is kept a day for the admin's questions.
const KEEP_SECS: i64 = 86_400;

/// The key a wrong password's row names its userid by: a registered userid as it is keyed
/// (lowercase: it is public), any other word by its SHA-256. The word in a userid's place may be
/// a password typed there (`limit move 101 hunter2x alice ...`): nothing a mail holds goes into
/// the database in clear (issue 34, item 3).
fn failure_key(userid: &str, known: bool) -> String {
    use sha2::{Digest, Sha256};
    let key = userid.to_lowercase();
    if known {
        return key;
    }
    let digest = Sha256::digest(format!("pbem-unknown-userid:{key}").as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

fn login_state(
    conn: &Connection,
    userid: &str,
    sender: Option<&str>,
    since: i64,
) -> Result<LoginState> {
    let user: Option<(i64, Option<String>)> = conn
        .query_row(
            "SELECT id, password_hash FROM users WHERE userid_key = ?1",
            [userid.to_lowercase()],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    let key = failure_key(userid, user.is_some());
    let mut state = LoginState {
        password_hash: user.as_ref().and_then(|(_, h)| h.clone()),
        ..LoginState::default()
    };
    let Some(sender) = sender.map(str::to_lowercase) else {
        return Ok(state);
    };
    if let Some((id, _)) = user {
        state.sender_registered = conn.query_row(
            "SELECT EXISTS (SELECT 1 FROM addresses WHERE user_id = ?1 AND lower(address) = ?2)",
            params![id, sender],
            |r| r.get(0),
        )?;
    }
    state.sender_failures = if state.sender_registered {
        conn.query_row(
            "SELECT COUNT(*) FROM password_failures
             WHERE sender = ?1 AND userid_key = ?2 AND registered = 1 AND at > ?3",
            params![sender, key, since],
            |r| r.get(0),
        )?
    } else {
        conn.query_row(
            "SELECT COUNT(*) FROM password_failures WHERE sender = ?1 AND registered = 0 AND at > ?2",
            params![sender, since],
            |r| r.get(0),
        )?
    };
    state.account_failures = conn.query_row(
        "SELECT COUNT(*) FROM password_failures WHERE userid_key = ?1 AND registered = 0 AND at > ?2",
        params![key, since],
        |r| r.get(0),
    )?;
    Ok(state)
}

impl Db {
    /// [`Tx::login_state`] without taking the write lock (WAL readers do not wait for writers), for
    /// the password checks made before it.
    pub fn login_state(
        &self,
        userid: &str,
        sender: Option<&str>,
        since: i64,
    ) -> Result<LoginState> {
        login_state(&self.conn, userid, sender, since)
    }
}

impl Tx<'_> {
    /// The stored hash of `userid` and the wrong passwords after `since` (unix seconds) that concern
    /// this attempt; with no sender (the admin at the shell) the counts stay 0.
    pub fn login_state(
        &self,
        userid: &str,
        sender: Option<&str>,
        since: i64,
    ) -> Result<LoginState> {
        login_state(&self.0, userid, sender, since)
    }

    /// Records one wrong password for `userid` from `sender`.
    pub fn record_password_failure(
        &self,
        userid: &str,
        sender: &str,
        registered: bool,
        now: i64,
    ) -> Result<()> {
        self.0.execute(
            "DELETE FROM password_failures WHERE at <= ?1",
            [now - KEEP_SECS],
        )?;
        let known: bool = self.0.query_row(
            "SELECT EXISTS (SELECT 1 FROM users WHERE userid_key = ?1)",
            [userid.to_lowercase()],
            |r| r.get(0),
        )?;
        self.0.execute(
            "INSERT INTO password_failures (userid_key, sender, at, registered) VALUES (?1, ?2, ?3, ?4)",
            params![failure_key(userid, known), sender.to_lowercase(), now, registered],
        )?;
        Ok(())
    }
}

impl Tx<'_> {
    /// Records a password-reset code (by its SHA-256, hex) for an account.
    pub fn add_password_reset(&self, user_id: i64, code_sha256: &str, now: i64) -> Result<()> {
        self.0.execute(
            "INSERT INTO password_resets (user_id, code_sha256, created_at) VALUES (?1, ?2, ?3)",
            rusqlite::params![user_id, code_sha256, now],
        )?;
        Ok(())
    }

    /// How many reset codes an account was sent since `since`.
    pub fn password_resets_since(&self, user_id: i64, since: i64) -> Result<u32> {
        Ok(self.0.query_row(
            "SELECT COUNT(*) FROM password_resets WHERE user_id = ?1 AND created_at >= ?2",
            rusqlite::params![user_id, since],
            |r| r.get(0),
        )?)
    }

    /// Uses a reset code: true when it is the account's, unused and made after `not_before`; then
    /// it and every other open code of the account are used up.
    pub fn use_password_reset(
        &self,
        user_id: i64,
        code_sha256: &str,
        not_before: i64,
        now: i64,
    ) -> Result<bool> {
        let found = self.0.execute(
            "UPDATE password_resets SET used_at = ?4
             WHERE user_id = ?1 AND code_sha256 = ?2 AND created_at >= ?3 AND used_at IS NULL",
            rusqlite::params![user_id, code_sha256, not_before, now],
        )?;
        if found == 0 {
            return Ok(false);
        }
        self.0.execute(
            "UPDATE password_resets SET used_at = ?2 WHERE user_id = ?1 AND used_at IS NULL",
            rusqlite::params![user_id, now],
        )?;
        Ok(true)
    }
}

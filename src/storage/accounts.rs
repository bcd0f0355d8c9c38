//! Storage of the players' accounts: their rows, passwords and registered addresses.

use rusqlite::{OptionalExtension, params};

use super::{Result, StorageError, Tx, User};

impl Tx<'_> {
    /// The player with this userid (ignoring case), signed off or not.
    pub fn user(&self, userid: &str) -> Result<Option<User>> {
        self.user_where("userid_key = ?1", userid.to_lowercase())
    }

    pub(super) fn user_by_id(&self, id: i64) -> Result<User> {
        self.user_where("id = ?1", id)?
            .ok_or_else(|| StorageError::Corrupt(format!("user row {id} vanished")))
    }

    /// One user row chosen by `condition` (with one parameter), with its addresses.
    fn user_where(&self, condition: &str, key: impl rusqlite::ToSql) -> Result<Option<User>> {
        let sql = format!(
            // failed_logins and locked_until are the retired lock-out's columns: no longer read.
            "SELECT id, userid, password_hash, robot FROM users WHERE {condition}"
        );
        let row = self
            .0
            .query_row(&sql, [key], |r| {
                Ok(User {
                    id: r.get(0)?,
                    userid: r.get(1)?,
                    password_hash: r.get(2)?,
                    addresses: Vec::new(),
                    robot: r.get(3)?,
                })
            })
            .optional()?;
        match row {
            Some(mut u) => {
                u.addresses = self.addresses(u.id)?;
                Ok(Some(u))
            }
            None => Ok(None),
        }
    }

    fn addresses(&self, user_id: i64) -> Result<Vec<String>> {
        let mut stmt = self
            .0
            .prepare("SELECT address FROM addresses WHERE user_id = ?1 ORDER BY position")?;
        let rows = stmt
            .query_map([user_id], |r| r.get(0))?
            .collect::<rusqlite::Result<Vec<String>>>()?;
        Ok(rows)
    }

    /// Registers a player; returns the row id.
    pub fn insert_user(
        &self,
        userid: &str,
        password_hash: &str,
        addresses: &[String],
        now: i64,
    ) -> Result<i64> {
        self.0.execute(
            "INSERT INTO users (userid, userid_key, password_hash, created_at) VALUES (?1, ?2, ?3, ?4)",
            params![userid, userid.to_lowercase(), password_hash, now],
        )?;
        let id = self.0.last_insert_rowid();
        self.set_addresses(id, addresses)?;
        Ok(id)
    }

    /// Replaces a player's password hash (`None`: signed off).
    pub fn set_password(&self, user_id: i64, password_hash: Option<&str>) -> Result<()> {
        self.0.execute(
            // A new password makes the signed reply addresses mailed before it stale.
            "UPDATE users SET password_hash = ?1, reply_generation = reply_generation + 1
             WHERE id = ?2",
            params![password_hash, user_id],
        )?;
        Ok(())
    }

    /// Replaces a player's addresses.
    pub fn set_addresses(&self, user_id: i64, addresses: &[String]) -> Result<()> {
        self.0
            .execute("DELETE FROM addresses WHERE user_id = ?1", [user_id])?;
        for (i, a) in addresses.iter().enumerate() {
            self.0.execute(
                "INSERT INTO addresses (user_id, position, address) VALUES (?1, ?2, ?3)",
                params![user_id, i as i64, a],
            )?;
        }
        Ok(())
    }
}

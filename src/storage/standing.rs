//! What answers an address may get (issue 22): whether it ever proved it belongs to a player, its run
//! of error answers and its quiet spells (items 5c and 8), and the addresses that refuse mail
//! (item 7).

use rusqlite::{OptionalExtension, params};

use super::{Db, Result, Tx};

/// How an address stands, as the answers to it are decided.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReplyStanding {
    /// When it last sent a command carried out with an account's password or a mailed code.
    pub proved_at: Option<i64>,
    /// Error answers sent to it since then, or since its last quiet spell.
    pub error_run: u32,
    /// No error answers to it before this.
    pub quiet_until: Option<i64>,
    /// Length of its last quiet spell, in days.
    pub quiet_days: u32,
}

/// An address that refused mail for good.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bounce {
    /// The address, lowercase.
    pub address: String,
    /// First and last refusal, unix seconds.
    pub first_at: i64,
    /// Last refusal, unix seconds.
    pub last_at: i64,
    /// What the relay said the last time.
    pub refusal: String,
    /// Mails not sent to it since the first refusal.
    pub held: u32,
}

impl Tx<'_> {
    /// How `address` stands (a default standing when it never got an answer).
    pub fn reply_standing(&self, address: &str) -> Result<ReplyStanding> {
        Ok(self
            .0
            .query_row(
                "SELECT proved_at, error_run, quiet_until, quiet_days FROM reply_standing
                 WHERE address = ?1",
                [address.to_lowercase()],
                |r| {
                    Ok(ReplyStanding {
                        proved_at: r.get(0)?,
                        error_run: r.get(1)?,
                        quiet_until: r.get(2)?,
                        quiet_days: r.get(3)?,
                    })
                },
            )
            .optional()?
            .unwrap_or_default())
    }

    /// Records how `address` stands now.
    pub fn set_reply_standing(&self, address: &str, s: &ReplyStanding) -> Result<()> {
        self.0.execute(
            "INSERT INTO reply_standing (address, proved_at, error_run, quiet_until, quiet_days)
             VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT (address) DO UPDATE SET proved_at = ?2, error_run = ?3,
               quiet_until = ?4, quiet_days = ?5",
            params![
                address.to_lowercase(),
                s.proved_at,
                s.error_run,
                s.quiet_until,
                s.quiet_days
            ],
        )?;
        Ok(())
    }

    /// The digest of the last mail answered to `address` (see migration 0040).
    pub fn last_mail_digest(&self, address: &str) -> Result<Option<String>> {
        Ok(self
            .0
            .query_row(
                "SELECT last_digest FROM reply_standing WHERE address = ?1",
                [address.to_lowercase()],
                |r| r.get(0),
            )
            .optional()?
            .flatten())
    }

    /// Records the digest of the mail being answered to `address`; its standing is left as it is.
    pub fn set_last_mail_digest(&self, address: &str, digest: &str) -> Result<()> {
        self.0.execute(
            "INSERT INTO reply_standing (address, last_digest) VALUES (?1, ?2)
             ON CONFLICT (address) DO UPDATE SET last_digest = ?2",
            params![address.to_lowercase(), digest],
        )?;
        Ok(())
    }

    /// Of `addresses`, those that refuse mail (ignoring case).
    pub fn bouncing(&self, addresses: &[String]) -> Result<Vec<Bounce>> {
        let mut out = Vec::new();
        for a in addresses {
            if let Some(b) = bounce_of(&self.0, a)? {
                out.push(b);
            }
        }
        Ok(out)
    }

    /// Counts a mail not sent to a refusing address.
    pub fn hold_for_bounce(&self, address: &str) -> Result<()> {
        self.0.execute(
            "UPDATE bounces SET held = held + 1 WHERE address = ?1",
            [address.to_lowercase()],
        )?;
        Ok(())
    }
}

fn bounce_of(conn: &rusqlite::Connection, address: &str) -> Result<Option<Bounce>> {
    Ok(conn
        .prepare_cached(
            "SELECT address, first_at, last_at, refusal, held FROM bounces WHERE address = ?1",
        )?
        .query_row([address.to_lowercase()], bounce_row)
        .optional()?)
}

fn bounce_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Bounce> {
    Ok(Bounce {
        address: r.get(0)?,
        first_at: r.get(1)?,
        last_at: r.get(2)?,
        refusal: r.get(3)?,
        held: r.get(4)?,
    })
}

impl Db {
    /// Records that `address` refused mail for good at `now`, saying `refusal`.
    pub fn record_bounce(&self, address: &str, now: i64, refusal: &str) -> Result<()> {
        self.conn.execute(
            "INSERT INTO bounces (address, first_at, last_at, refusal) VALUES (?1, ?2, ?2, ?3)
             ON CONFLICT (address) DO UPDATE SET last_at = ?2, refusal = ?3",
            params![address.to_lowercase(), now, refusal],
        )?;
        Ok(())
    }

    /// A mail to these addresses got through: those of them that were refusing mail are mailed again.
    /// Only reads unless one of them was refusing.
    pub fn clear_bounces(&self, addresses: &[String]) -> Result<()> {
        for a in addresses {
            if bounce_of(&self.conn, a)?.is_some() {
                self.conn
                    .execute("DELETE FROM bounces WHERE address = ?1", [a.to_lowercase()])?;
            }
        }
        Ok(())
    }

    /// Every address that refuses mail, the longest refusing first.
    pub fn bounces(&self) -> Result<Vec<Bounce>> {
        let mut stmt = self.conn.prepare(
            "SELECT address, first_at, last_at, refusal, held FROM bounces ORDER BY first_at, address",
        )?;
        let rows = stmt
            .query_map([], bounce_row)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(rows)
    }

    /// Marks a mail refused for good: it is never tried again, and stays listed until it is pruned
    /// like sent mail.
    pub fn mark_refused(&self, id: i64, now: i64, error: &str) -> Result<()> {
        self.conn.execute(
            "UPDATE outbox SET refused_at = ?1, last_error = ?2, claimed_at = NULL,
             claimed_pid = NULL, claimed_start = NULL WHERE id = ?3",
            params![now, error, id],
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_db() -> (tempfile::TempDir, Db) {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(
            &dir.path().join("t.sqlite"),
            std::time::Duration::from_secs(5),
        )
        .unwrap();
        (dir, db)
    }

    #[test]
    fn a_refused_mail_is_never_claimed_again_and_its_address_is_held_until_cleared() {
        let (_dir, mut db) = temp_db();
        let tx = db.transaction().unwrap();
        let id = tx.queue_mail("{}", 10, false).unwrap();
        tx.commit().unwrap();
        assert_eq!(db.claim_unsent(20, 0, 10).unwrap().len(), 1);
        db.mark_refused(id, 20, "550 no such user").unwrap();
        db.record_bounce("Bob@Example.org", 20, "550 no such user")
            .unwrap();
        // Not even a stale claim brings it back.
        assert!(db.claim_unsent(100_000, 99_000, 10).unwrap().is_empty());
        let row = &db.outbox(true).unwrap()[0];
        assert_eq!(row.refused_at, Some(20));
        let tx = db.transaction().unwrap();
        let to = vec!["bob@example.org".to_string(), "alice@example.org".into()];
        let bouncing = tx.bouncing(&to).unwrap();
        assert_eq!(bouncing.len(), 1);
        assert_eq!(bouncing[0].address, "bob@example.org");
        tx.hold_for_bounce("BOB@example.org").unwrap();
        tx.commit().unwrap();
        db.record_bounce("bob@example.org", 30, "550 still no")
            .unwrap();
        let b = &db.bounces().unwrap()[0];
        assert_eq!((b.first_at, b.last_at, b.held), (20, 30, 1));
        assert_eq!(b.refusal, "550 still no");
        db.clear_bounces(&to).unwrap();
        assert!(db.bounces().unwrap().is_empty());
        // Pruned like sent mail.
        assert_eq!(db.prune_sent(21).unwrap(), 1);
    }

    #[test]
    fn a_standing_is_kept_per_address_ignoring_case() {
        let (_dir, mut db) = temp_db();
        let tx = db.transaction().unwrap();
        assert_eq!(
            tx.reply_standing("x@example.org").unwrap(),
            ReplyStanding::default()
        );
        let s = ReplyStanding {
            proved_at: Some(5),
            error_run: 2,
            quiet_until: Some(90),
            quiet_days: 4,
        };
        tx.set_reply_standing("X@Example.org", &s).unwrap();
        assert_eq!(tx.reply_standing("x@example.org").unwrap(), s);
    }
}

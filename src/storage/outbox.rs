//! The outbox: mails queued in the same transaction as the change they report, claimed by the
//! process that sends them, marked sent or failed, pruned once old; the hourly allowance of replies to
//! one address; and giving the pruned pages back to the file system (`tidy`, `pbem compact`).

use rusqlite::{OptionalExtension, TransactionBehavior, params};

use super::{Db, Result, Tx};
use crate::sys::{Liveness, ProcessId};

/// A row of the outbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxRow {
    /// Row id.
    pub id: i64,
    /// The mail as JSON (`mail_out::OutgoingMail`).
    pub mail: String,
    /// Unix seconds.
    pub created_at: i64,
    /// Unix seconds, when sent.
    pub sent_at: Option<i64>,
    /// Tries so far.
    pub attempts: i64,
    /// Why the last try failed.
    pub last_error: Option<String>,
    /// Unix seconds, when it was refused for good (never tried again).
    pub refused_at: Option<i64>,
}

impl Db {
    /// Claims up to `limit` unsent mails for sending: those never claimed, those whose claimer is
    /// known to have died (killed while sending: its mail goes out at once), and those whose claim is
    /// older than `stale_before` (a claimer that cannot be looked up, or one stuck that long).
    /// Claiming is its own short transaction so that two flushes at once do not send the same mail.
    pub fn claim_unsent(
        &mut self,
        now: i64,
        stale_before: i64,
        limit: usize,
    ) -> Result<Vec<OutboxRow>> {
        let (pid, start) = self.claimer_columns();
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let ids = {
            let mut stmt = tx.prepare(
                "SELECT id, claimed_at, claimed_pid, claimed_start FROM outbox
                 WHERE sent_at IS NULL AND refused_at IS NULL ORDER BY id",
            )?;
            let candidates = stmt
                .query_map([], |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, Option<i64>>(1)?,
                        r.get::<_, Option<i64>>(2)?,
                        r.get::<_, Option<String>>(3)?,
                    ))
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            // Each claimer is looked up once: a killed ingest usually leaves several mails.
            let mut seen: std::collections::HashMap<(i64, String), Liveness> =
                std::collections::HashMap::new();
            let mut free = |claimed_at: Option<i64>, pid: Option<i64>, start: Option<String>| {
                let Some(at) = claimed_at else { return true };
                if at < stale_before {
                    return true;
                }
                let (Some(pid), Some(start)) = (pid, start) else {
                    return false;
                };
                let key = (pid, start);
                let life = *seen
                    .entry(key)
                    .or_insert_with_key(|(p, s)| ProcessId::liveness(*p, s));
                life == Liveness::Dead
            };
            candidates
                .into_iter()
                .filter(|(_, at, p, s)| free(*at, *p, s.clone()))
                .map(|(id, ..)| id)
                .take(limit)
                .collect::<Vec<i64>>()
        };
        let mut rows = Vec::with_capacity(ids.len());
        for id in ids {
            tx.execute(
                "UPDATE outbox SET claimed_at = ?1, claimed_pid = ?2, claimed_start = ?3,
                 attempts = attempts + 1 WHERE id = ?4",
                params![now, pid, start, id],
            )?;
            rows.push(tx.query_row(
                "SELECT id, mail, created_at, sent_at, attempts, last_error, refused_at FROM outbox
                 WHERE id = ?1",
                [id],
                outbox_row,
            )?);
        }
        tx.commit()?;
        Ok(rows)
    }

    /// The pid and start time this process writes into the claims it makes.
    fn claimer_columns(&self) -> (Option<i64>, Option<String>) {
        match &self.claimer {
            Some(p) => (Some(p.pid), Some(p.start.clone())),
            None => (None, None),
        }
    }

    /// Hands the claim of a mail to another process (the sendmail hand-off that outlives this one).
    pub fn hand_over_claim(&self, id: i64, to: &ProcessId) -> Result<()> {
        self.conn.execute(
            "UPDATE outbox SET claimed_pid = ?1, claimed_start = ?2 WHERE id = ?3",
            params![to.pid, to.start, id],
        )?;
        Ok(())
    }

    /// Marks a mail as sent.
    pub fn mark_sent(&self, id: i64, now: i64) -> Result<()> {
        // Cached: this runs in the moment between a delivery and its record, where a kill sends the
        // mail twice, so it does no more work there than it must.
        self.conn
            .prepare_cached("UPDATE outbox SET sent_at = ?1,
                 last_error = CASE WHEN refused_at IS NULL THEN NULL ELSE last_error END WHERE id = ?2")?
            .execute(params![now, id])?;
        Ok(())
    }

    /// Records a failed try and releases the claim, so that the next flush tries again.
    pub fn mark_failed(&self, id: i64, error: &str) -> Result<()> {
        self.conn.execute(
            "UPDATE outbox SET claimed_at = NULL, claimed_pid = NULL, claimed_start = NULL,
             last_error = ?1 WHERE id = ?2",
            params![error, id],
        )?;
        Ok(())
    }

    /// The stored mail (JSON) of outbox row `id`, if the row is still there.
    pub fn outbox_mail(&self, id: i64) -> Result<Option<String>> {
        Ok(self
            .conn
            .query_row("SELECT mail FROM outbox WHERE id = ?1", [id], |r| r.get(0))
            .optional()?)
    }

    /// The outbox, newest last: all rows, or only the unsent ones and those refused for good (also
    /// a sent mail that a delivery report said was refused).
    pub fn outbox(&self, unsent_only: bool) -> Result<Vec<OutboxRow>> {
        let sql = if unsent_only {
            "SELECT id, mail, created_at, sent_at, attempts, last_error, refused_at FROM outbox WHERE sent_at IS NULL OR refused_at IS NOT NULL ORDER BY id"
        } else {
            "SELECT id, mail, created_at, sent_at, attempts, last_error, refused_at FROM outbox ORDER BY id"
        };
        let mut stmt = self.conn.prepare(sql)?;
        let rows = stmt
            .query_map([], outbox_row)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(rows)
    }
}

impl Tx<'_> {
    /// Counts a reply to `address` against its hourly allowance: returns false, recording nothing, when
    /// `limit` replies were already sent to it since `since`.
    pub fn allow_reply(&self, address: &str, since: i64, now: i64, limit: u32) -> Result<bool> {
        let address = address.to_lowercase();
        let sent: i64 = self.0.query_row(
            "SELECT COUNT(*) FROM reply_log WHERE address = ?1 AND sent_at > ?2",
            params![address, since],
            |r| r.get(0),
        )?;
        if sent >= i64::from(limit) {
            return Ok(false);
        }
        self.0.execute(
            "INSERT INTO reply_log (address, sent_at) VALUES (?1, ?2)",
            params![address, now],
        )?;
        Ok(true)
    }

    /// Puts a mail (JSON) in the outbox; `claimed` marks it as taken by the caller, who sends it right
    /// after the commit. Returns its row id.
    pub fn queue_mail(&self, mail_json: &str, now: i64, claimed: bool) -> Result<i64> {
        let claimer = self.1.filter(|_| claimed);
        self.0.execute(
            "INSERT INTO outbox (mail, created_at, claimed_at, attempts, claimed_pid, claimed_start)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                mail_json,
                now,
                claimed.then_some(now),
                i64::from(claimed),
                claimer.map(|p| p.pid),
                claimer.map(|p| p.start.as_str()),
            ],
        )?;
        Ok(self.0.last_insert_rowid())
    }
}

fn outbox_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<OutboxRow> {
    Ok(OutboxRow {
        id: r.get(0)?,
        mail: r.get(1)?,
        created_at: r.get(2)?,
        sent_at: r.get(3)?,
        attempts: r.get(4)?,
        last_error: r.get(5)?,
        refused_at: r.get(6)?,
    })
}

/// The statement of [`Db::prune_sent`]. Its `OR refused_at` read the whole outbox until the refused
/// rows had an index of their own (`outbox_refused`, migration 0044): SQLite now reads each half by
/// its index (issue 35, item 1).
pub(crate) const PRUNE_SENT: &str =
    "DELETE FROM outbox WHERE (sent_at IS NOT NULL AND sent_at < ?1)
                OR (refused_at IS NOT NULL AND refused_at < ?1)";

impl Db {
    /// Deletes the outbox rows of mail sent (or refused for good) before `before` (unix seconds):
    /// sent mail quotes the commands it answers, so it is not kept longer than needed. Returns how
    /// many went.
    pub fn prune_sent(&self, before: i64) -> Result<usize> {
        Ok(self.conn.execute(PRUNE_SENT, [before])?)
    }

    /// `pbem compact`: switches the file to `auto_vacuum = INCREMENTAL` (which only a rewrite can do
    /// on an existing database) and rewrites it without its free pages.
    pub fn compact(&self) -> Result<()> {
        self.conn.execute_batch(
            "PRAGMA auto_vacuum = INCREMENTAL; VACUUM; PRAGMA wal_checkpoint(TRUNCATE);",
        )?;
        Ok(())
    }

    /// Housekeeping after `pbem cron`: gives the pages freed by pruning back to the file system (on a
    /// database made with `auto_vacuum = INCREMENTAL`, as this pbem makes new ones) and lets SQLite
    /// refresh the statistics its query planner uses (`PRAGMA optimize`, cheap when nothing changed).
    pub fn tidy(&self) -> Result<()> {
        // The pragma frees one page per step: it is stepped to the end, not run once.
        let mut stmt = self.conn.prepare("PRAGMA incremental_vacuum")?;
        let mut rows = stmt.query([])?;
        while rows.next()?.is_some() {}
        drop(rows);
        drop(stmt);
        self.conn.execute_batch("PRAGMA optimize")?;
        Ok(())
    }
}

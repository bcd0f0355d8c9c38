//! Storage of each player's mail settings (see `crate::server::digest`): the daily digest and
//! text-only mail, and what the digest has covered so far.

use rusqlite::{OptionalExtension, params};

use super::{Result, Tx};
use crate::model::MailSetting;

/// A player's mail settings. The default (no row) is a board mail per move, with the picture, under
/// one Subject a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MailSettings {
    /// Board mails of moves wait for the daily digest.
    pub digest: bool,
    /// Board mails go as text/plain alone.
    pub text_only: bool,
    /// Board mails keep one Subject a game (`Limit Board 101`), without the state after it.
    pub plain_subject: bool,
}

impl Default for MailSettings {
    fn default() -> Self {
        MailSettings {
            digest: false,
            text_only: false,
            plain_subject: true,
        }
    }
}

impl MailSettings {
    /// Each setting as the words that set it, in the order `set`'s help lists them.
    pub fn as_settings(self) -> Vec<MailSetting> {
        vec![
            MailSetting::Digest(self.digest),
            MailSetting::TextOnly(self.text_only),
            MailSetting::PlainSubject(self.plain_subject),
        ]
    }
}

/// A game a digest tells of: one where the player is to move, or one finished since the last
/// digest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DigestGame {
    /// The game's command word.
    pub game_type: String,
    /// The board number.
    pub board: u32,
    /// True for a finished game.
    pub finished: bool,
    /// The saved status line (`None` for a game not saved since the lists began to keep it).
    pub status: Option<String>,
}

impl Tx<'_> {
    /// The mail settings of a player.
    pub fn mail_settings(&self, user_id: i64) -> Result<MailSettings> {
        Ok(self
            .0
            .query_row(
                "SELECT digest, text_only, state_subject FROM mail_settings WHERE user_id = ?1",
                [user_id],
                |r| {
                    Ok(MailSettings {
                        digest: r.get(0)?,
                        text_only: r.get(1)?,
                        plain_subject: !r.get::<_, bool>(2)?,
                    })
                },
            )
            .optional()?
            .unwrap_or_default())
    }

    /// Whether `address` (case ignored) is a text-only player's. Read from the few rows of
    /// `mail_settings` outward, so a board mail costs no scan of every address.
    pub fn text_only_at(&self, address: &str) -> Result<bool> {
        self.flag_at(
            "SELECT 1 FROM mail_settings m JOIN addresses a ON a.user_id = m.user_id
             WHERE m.text_only = 1 AND lower(a.address) = lower(?1) LIMIT 1",
            address,
        )
    }

    /// Whether `address` (case ignored) is the address of a player who set `subject state`: an
    /// error answer about a board sent there then has its own Subject (`Hex Board 101 Error`)
    /// instead of the game's.
    pub fn state_subject_at(&self, address: &str) -> Result<bool> {
        self.flag_at(
            "SELECT 1 FROM mail_settings m JOIN addresses a ON a.user_id = m.user_id
             WHERE m.state_subject = 1 AND lower(a.address) = lower(?1) LIMIT 1",
            address,
        )
    }

    /// Whether `sql`, with the address bound, finds a row.
    fn flag_at(&self, sql: &str, address: &str) -> Result<bool> {
        Ok(self
            .0
            .query_row(sql, [address], |_| Ok(()))
            .optional()?
            .is_some())
    }

    /// Changes one setting; false when it was so already. Turning the digest on starts its count
    /// of finished games now.
    pub fn set_mail_setting(&self, user_id: i64, setting: MailSetting, now: i64) -> Result<bool> {
        let before = self.mail_settings(user_id)?;
        let changed = match setting {
            MailSetting::Digest(on) => before.digest != on,
            MailSetting::TextOnly(on) => before.text_only != on,
            MailSetting::PlainSubject(on) => before.plain_subject != on,
        };
        if !changed {
            return Ok(false);
        }
        self.0.execute(
            "INSERT OR IGNORE INTO mail_settings (user_id) VALUES (?1)",
            [user_id],
        )?;
        match setting {
            // Either way the count of held mails starts again: turning it off sends the pending
            // digest in the same transaction (see `server/digest.rs`).
            MailSetting::Digest(on) => self.0.execute(
                "UPDATE mail_settings SET digest = ?1, digest_from = ?2, held = 0 WHERE user_id = ?3",
                params![on, now, user_id],
            )?,
            MailSetting::TextOnly(on) => self.0.execute(
                "UPDATE mail_settings SET text_only = ?1 WHERE user_id = ?2",
                params![on, user_id],
            )?,
            MailSetting::PlainSubject(on) => self.0.execute(
                "UPDATE mail_settings SET state_subject = NOT ?1 WHERE user_id = ?2",
                params![on, user_id],
            )?,
        };
        Ok(true)
    }

    /// The players (row ids) with the digest on who have had none on UTC day `today` (days since
    /// 1970).
    pub fn digests_due(&self, today: i64) -> Result<Vec<i64>> {
        let mut stmt = self.0.prepare(
            "SELECT user_id FROM mail_settings
             WHERE digest = 1 AND (digest_day IS NULL OR digest_day < ?1) ORDER BY user_id",
        )?;
        let rows = stmt
            .query_map([today], |r| r.get(0))?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(rows)
    }

    /// For one player: `Some(from)` when their digest of UTC day `today` is still to be written
    /// (see [`Tx::digests_due`]).
    pub fn digest_due(&self, user_id: i64, today: i64) -> Result<Option<i64>> {
        Ok(self
            .0
            .query_row(
                "SELECT COALESCE(digest_from, 0) FROM mail_settings
                 WHERE user_id = ?1 AND digest = 1 AND (digest_day IS NULL OR digest_day < ?2)",
                params![user_id, today],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// The games a player's digest tells of: those where the player is to move, and those finished
    /// from `finished_from` (unix seconds) on, by game type and board.
    pub fn digest_games(&self, user_id: i64, finished_from: i64) -> Result<Vec<DigestGame>> {
        let mut stmt = self.0.prepare(
            "SELECT DISTINCT g.game_type, g.board, g.finished, g.status
             FROM games g JOIN seats s ON s.game_id = g.id
             WHERE s.user_id = ?1
               AND ((g.finished = 0 AND g.to_move = s.seat)
                    OR (g.finished = 1 AND g.updated_at >= ?2))
             ORDER BY g.finished, g.game_type, g.board",
        )?;
        let rows = stmt
            .query_map(params![user_id, finished_from], |r| {
                Ok(DigestGame {
                    game_type: r.get(0)?,
                    board: r.get(1)?,
                    finished: r.get(2)?,
                    status: r.get(3)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(rows)
    }

    /// Records that a player's digest of UTC day `today` is written (queued in the outbox in this
    /// same transaction): no other goes that day, and the next counts games finished after `now`
    /// (this second's are in this one: the digest is written under the write lock).
    pub fn mark_digest(&self, user_id: i64, today: i64, now: i64) -> Result<()> {
        self.0.execute(
            "UPDATE mail_settings SET digest_day = ?1, digest_from = ?2 + 1, held = 0
             WHERE user_id = ?3",
            params![today, now, user_id],
        )?;
        Ok(())
    }
}

impl Tx<'_> {
    /// Counts `n` board mails to a player held back for the digest.
    pub fn count_held(&self, user_id: i64, n: i64) -> Result<()> {
        self.0.execute(
            "UPDATE mail_settings SET held = held + ?1 WHERE user_id = ?2",
            params![n, user_id],
        )?;
        Ok(())
    }

    /// `Some(from)` (as [`Tx::digest_due`] gives it) when a player has the digest on and board
    /// mails wait for it: what the digest sent as it is turned off covers.
    pub fn pending_digest_from(&self, user_id: i64) -> Result<Option<i64>> {
        Ok(self
            .0
            .query_row(
                "SELECT COALESCE(digest_from, 0) FROM mail_settings
                 WHERE user_id = ?1 AND digest = 1 AND held > 0",
                [user_id],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// The player of a row id, for the digest (its row is kept while the settings are).
    pub fn user_by_row(&self, user_id: i64) -> Result<super::User> {
        self.user_by_id(user_id)
    }
}

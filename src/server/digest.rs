//! How a player takes the server's mail (issue 25, section 2): the daily digest instead of a board
//! mail per move, and text-only mail. Routing only: which board mails wait for the digest, which
//! lose their picture, and the digest that `pbem cron` writes.
//!
//! What waits: the board mails of moves (`record_turn`: a move, a resignation, a forfeit, an agreed
//! proposal), sent to the players who did not act. What still goes at once, even with the digest
//! on: the answer to the player's own mail (their move's board mail, confirmations, errors, a
//! password reset), and the mails that ask something of the player or carry a word from someone:
//! a new game, a proposal and its answers, a message or chat, a reminder of the clock. A digest
//! that held those back would leave an opponent waiting a day for a question to be seen.
//!
//! Exactly once: the digest is queued in the outbox in the same transaction that records the day
//! it was written for, so a crash before the commit leaves neither (the next run writes it) and a
//! crash after leaves both (the outbox sends it, and no second one is written that day).

use super::{Core, Handling, Letter, MailState, Origin, Outcome, Server, ServerError, Step, queue};
use crate::decision::AccountEvent;
use crate::model::MailSetting;
use crate::storage::{DigestGame, GameRow, StorageError, Tx};
use crate::summary::{ERROR_WIDTH, wrap};

/// Seconds in a day: digests go at most once a UTC day.
const DAY: i64 = 86_400;

impl Handling<'_> {
    /// `set userid password digest on|off`, `... mail text|html` and `... subject plain|state`.
    /// Turning the digest off sends the pending digest at once (one mail, as the daily one would
    /// be), when board mails were held for it: otherwise those moves would go untold.
    pub(super) fn set_mail(
        &self,
        tx: &Tx<'_>,
        userid: &str,
        password: &str,
        setting: MailSetting,
        origin: &Origin,
    ) -> Step<Outcome> {
        let user = self.authenticate(tx, userid, password)?;
        let pending = match setting {
            MailSetting::Digest(false) => tx.pending_digest_from(user.id)?,
            _ => None,
        };
        let changed = tx.set_mail_setting(user.id, setting, self.now)?;
        let digest = match pending {
            Some(from) => {
                let games = tx.digest_games(user.id, from)?;
                self.digest_text(tx, &user.userid, &games, true)?
            }
            None => None,
        };
        let event = AccountEvent::MailSettingSet {
            userid: user.userid.clone(),
            setting,
            changed,
            all: tx.mail_settings(user.id)?.as_settings(),
            digest_sent: digest.is_some(),
        };
        let mut outcome = self.account_confirmation(event, user.addresses.clone(), origin);
        if let Some((subject, body)) = digest {
            outcome
                .letters
                .push(digest_letter(user.addresses, subject, body));
        }
        Ok(outcome)
    }

    /// Takes out of a move's board mails (`outcome` as `board_mails` made it: the players' letters
    /// first, seat by seat) those to players with the digest on, except the answer to the player
    /// who acted.
    pub(super) fn hold_for_digest(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
        mut outcome: Outcome,
    ) -> Result<Outcome, StorageError> {
        let mut held = Vec::new();
        for (seat, player) in row.players.iter().enumerate() {
            let Some(letter) = outcome.letters.get(seat) else {
                break;
            };
            if !letter.reply && letter.to == player.addresses && tx.mail_settings(player.id)?.digest
            {
                held.push(seat);
            }
        }
        for seat in held.into_iter().rev() {
            outcome.letters.remove(seat);
            tx.count_held(row.players[seat].id, 1)?;
        }
        Ok(outcome)
    }
}

impl Core {
    /// A letter's picture, unless one of its addresses is a text-only player's.
    pub(super) fn picture_for(
        &self,
        tx: &Tx<'_>,
        to: &[String],
        picture: Option<super::Picture>,
    ) -> Result<Option<super::Picture>, StorageError> {
        if picture.is_none() {
            return Ok(None);
        }
        for a in to {
            if tx.text_only_at(a)? {
                return Ok(None);
            }
        }
        Ok(picture)
    }
}

impl Handling<'_> {
    /// The digest of one player, or `None` when there is nothing to tell: the Subject and the text.
    /// `last`: the one sent as the digest is turned off, which says so at its end.
    fn digest_text(
        &self,
        tx: &Tx<'_>,
        userid: &str,
        games: &[DigestGame],
        last: bool,
    ) -> Result<Option<(String, String)>, StorageError> {
        let (to_move, finished): (Vec<&DigestGame>, Vec<&DigestGame>) =
            games.iter().partition(|g| !g.finished);
        if games.is_empty() {
            return Ok(None);
        }
        let server = &self.cfg.server.name;
        let head = match to_move.len() {
            0 => "Your move in no game".to_string(),
            1 => "Your move in 1 game".to_string(),
            n => format!("Your move in {n} games"),
        };
        let mut text = String::new();
        let mut push = |line: &str| {
            for l in wrap(line, ERROR_WIDTH) {
                text.push_str(l);
                text.push('\n');
            }
        };
        push(&format!("{head}, {userid}."));
        for g in &to_move {
            push("");
            let (status, lines) = self.game_lines(tx, g, userid)?;
            push(&format!("{} board {}: {status}", g.game_type, g.board));
            for l in lines {
                push(l.trim_end());
            }
        }
        if !to_move.is_empty() {
            push("");
            push(
                "Send a line as the Subject (or alone on a line of a mail), with your password \
                 and your move in place of the example.",
            );
        }
        if !finished.is_empty() {
            push("");
            push("Finished since the last digest:");
            for g in &finished {
                let status = g.status.as_deref().unwrap_or("over.");
                push(&format!("{} board {}: {status}", g.game_type, g.board));
            }
        }
        push("");
        push(&if last {
            "This is the last digest, sent as you turned the digest off: from now on a board \
             mail comes for every move."
                .to_string()
        } else {
            format!(
                "This is your daily digest. For a mail per move again, send `set {userid} \
                 <password> digest off`."
            )
        });
        let subject = match finished.len() {
            0 => format!("{server}: {head}"),
            n => format!("{server}: {head}, {n} finished"),
        };
        Ok(Some((subject, text)))
    }

    /// The status of a game on the player's move and its lines to send (empty if it cannot be
    /// read: the status then says so).
    fn game_lines(
        &self,
        tx: &Tx<'_>,
        g: &DigestGame,
        userid: &str,
    ) -> Result<(String, Vec<String>), StorageError> {
        let unread = |why: String| (format!("cannot be read ({why})"), Vec::new());
        let Some(rules) = self.games.find(&g.game_type) else {
            return Ok(unread("no such game here".into()));
        };
        let Some(row) = tx.game(&g.game_type, g.board)? else {
            return Ok(unread("gone".into()));
        };
        let state = match rules.load(&row.state) {
            Ok(s) => s,
            Err(e) => return Ok(unread(e.to_string())),
        };
        let status = crate::summary::status_line(state.as_ref(), &super::boards::userids(&row));
        Ok((
            status,
            crate::news::send_lines(rules.name(), row.board, userid, state.as_ref()),
        ))
    }
}

impl Server {
    /// Writes the day's digest of every player with the digest on who has had none today and has
    /// something to be told, each in its own transaction with its outbox row; sends them. Returns
    /// how many were written, and how many mails were sent and failed (left in the outbox).
    pub(super) fn digests(&mut self) -> Result<(usize, usize, usize), ServerError> {
        let today = self.core.now.div_euclid(DAY);
        let due = {
            let tx = self.db.transaction()?;
            let due = tx.digests_due(today)?;
            tx.commit()?;
            due
        };
        let origin = Origin::default();
        let mail = MailState::new(None);
        let (mut written, mut sent, mut failed) = (0, 0, 0);
        for user_id in due {
            let tx = self.db.transaction()?;
            // Read again under the write lock: another run may have written it meanwhile.
            let Some(from) = tx.digest_due(user_id, today)? else {
                continue;
            };
            let user = tx.user_by_row(user_id)?;
            let games = tx.digest_games(user_id, from)?;
            let Some((subject, body)) =
                self.core
                    .with(&mail)
                    .digest_text(&tx, &user.userid, &games, false)?
            else {
                continue;
            };
            let outcome = Outcome {
                ok: true,
                letters: vec![digest_letter(user.addresses, subject, body)],
                ..Outcome::default()
            };
            let mails = self
                .core
                .with(&mail)
                .letters_to_mails(&tx, &origin, vec![outcome])?;
            let ids = queue(&tx, &mails, self.core.now)?;
            tx.mark_digest(user_id, today, self.core.now)?;
            tx.commit()?;
            written += 1;
            let ok = self.core.send_claimed(&self.db, &ids, &mails);
            sent += ok;
            failed += mails.len() - ok;
        }
        Ok((written, sent, failed))
    }
}

/// A digest as a letter to the player's addresses.
fn digest_letter(to: Vec<String>, subject: String, body: String) -> Letter {
    Letter {
        to,
        subject,
        body,
        reply: false,
        picture: None,
        // A digest covers several games: a reply to it needs the password.
        sign: None,
        thread: None,
        headline: None,
    }
}

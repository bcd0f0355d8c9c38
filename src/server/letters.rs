//! Mail out: the headers of each letter (threading, Auto-Submitted, X-Loop), the allowance of replies
//! to one address (hourly; daily for a new address; quiet after a run of errors), the addresses that
//! refuse mail, queueing in the outbox and sending after the commit.

use super::{Core, Letter, Origin, Outcome};
use crate::mail_out::{AUTO_GENERATED, AUTO_REPLIED, OutgoingMail, SendError, new_message_id};
use crate::storage::{Bounce, Db, ReplyStanding, StorageError, Tx};

/// The longest quiet spell (issue 22, item 8), in days; each spell is twice the one before.
pub const MAX_QUIET_DAYS: u32 = 32;

/// The lines on top of an answer about an address that refused mail: why it is not mailed, and
/// (`this_one`: the answer goes to it) that the answer is a new try.
fn bounce_note(b: &Bounce, this_one: bool) -> String {
    let next = if this_one {
        "This answer is a new try: once it gets through, the address is mailed again."
    } else {
        "Once an answer to a mail from it gets through, it is mailed again."
    };
    format!(
        "Mail to {} was refused for good (first on {}, last on {}), so pbem stopped\n\
         mailing it ({} mails not sent). The refusal:\n  {}\n{next}\n\
         If it keeps failing, register another address with `change address`.\n",
        b.address,
        crate::summary::format_time(b.first_at),
        crate::summary::format_time(b.last_at),
        b.held,
        b.refusal,
    )
}

/// A board mail's place in the thread of its game for its reader (issue 25, section 2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Thread {
    /// Where in the thread the mail goes.
    pub place: Place,
    /// The game's own Subject (`Limit Board 101`), sent as `Thread-Topic`, by which Outlook
    /// threads whatever the Subject says after it.
    pub topic: String,
}

/// Where a board mail goes in its reader's thread of the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Place {
    /// The reader's first board mail of the game: it gets this Message-ID, which later ones cite.
    Root(String),
    /// A later one: `In-Reply-To` and `References` the root (with its angle brackets).
    Under(String),
}

impl Core {
    /// The thread of a game's board mails to one reader: the recorded root, or, for their first
    /// board mail of the game, a new Message-ID recorded as the root in this transaction. `topic`
    /// is the game's own Subject.
    pub(super) fn thread_of(
        &self,
        tx: &Tx<'_>,
        game_id: i64,
        user_id: i64,
        topic: &str,
    ) -> Result<Thread, StorageError> {
        let place = match tx.thread_root(game_id, user_id)? {
            Some(root) => Place::Under(root),
            None => {
                let id = new_message_id(self.cfg.server.message_id_host());
                tx.set_thread_root(game_id, user_id, &id)?;
                Place::Root(id)
            }
        };
        Ok(Thread {
            place,
            topic: topic.to_string(),
        })
    }

    /// Sends mails that this process queued and claimed in the transaction it just committed.
    /// Returns how many were sent.
    pub(super) fn send_claimed(&self, db: &Db, ids: &[i64], mails: &[OutgoingMail]) -> usize {
        let mut sent = 0;
        // Read once (`queue` made it): a failure only leaves the mails with the From as sender.
        let secret = db.reply_secret().ok().flatten();
        for (id, mail) in ids.iter().zip(mails) {
            let sent_now = self.mailer.send_outbox(
                &self.with_return_path(secret.as_deref(), *id, mail),
                *id,
                |to| db.hand_over_claim(*id, to).map_err(|e| e.to_string()),
                || db.mark_sent(*id, self.now),
            );
            let result = match sent_now {
                Ok(recorded) => {
                    sent += 1;
                    recorded.and_then(|()| db.clear_bounces(&mail.to))
                }
                Err(e) => self.record_failure(db, *id, Some(mail), &e),
            };
            if let Err(e) = result {
                // The mail stays claimed; `outbox flush` takes it up again once the claim is stale.
                eprintln!("pbem: could not record the sending of mail {id}: {e}");
            }
        }
        sent
    }

    /// Records a mail that was not sent: a temporary failure is tried again by the next flush; a
    /// refusal for good is not, and the addresses that refused are mailed no more until a mail to
    /// them gets through (see [`Handling::letters_to_mails`]).
    pub(super) fn record_failure(
        &self,
        db: &Db,
        id: i64,
        mail: Option<&OutgoingMail>,
        e: &SendError,
    ) -> Result<(), StorageError> {
        if e.is_temporary() {
            eprintln!(
                "pbem: mail {id} not sent yet ({e}); the next `pbem outbox flush` tries it again \
                 (`pbem cron` runs one, and `pbem lmtp` every [lmtp] flush_interval_secs)"
            );
            return db.mark_failed(id, &e.to_string());
        }
        let to = mail.map_or(&[][..], |m| m.to.as_slice());
        let refusing = e.refusing(to);
        let stop = if refusing.is_empty() {
            String::new()
        } else {
            let list: Vec<&str> = refusing.iter().map(|a| a.as_str()).collect();
            format!(
                "; {} is mailed no more until a mail to it gets through (`pbem outbox list`)",
                list.join(", ")
            )
        };
        eprintln!(
            "pbem: mail {id} to {} not sent ({e}); it is not tried again{stop}",
            to.join(", ")
        );
        db.mark_refused(id, self.now, &e.to_string())?;
        for a in refusing {
            db.record_bounce(a, self.now, &e.to_string())?;
        }
        Ok(())
    }

    /// Gives the letters their headers and decides which are sent:
    ///
    /// * replies to the sender count against the address's hourly allowance, or, for an address
    ///   that never showed it is a player's (a signup from it, or a command with an account's
    ///   password or a mailed code; or it is registered), against the daily
    ///   `replies_per_new_address_per_day`: a stranger's Reply-To cannot turn the server on a
    ///   victim;
    /// * after `error_answers_before_quiet` error answers to an address with no command carried
    ///   out between them, it gets no error answers for a day, then two, four...
    ///   ([`MAX_QUIET_DAYS`] at most): a loop with an autoresponder costs a handful of mails a day.
    ///   Only mails that prove nothing or look automatic count and are kept quiet (issue 34, item
    ///   4): a mail that proved who wrote it ([`super::Proof`]) is answered, unless it is the same
    ///   text as the address's mail before it;
    /// * an address that refused mail for good gets no mail, but the answer to a mail from it is
    ///   tried (and once accepted, the address is mailed again).
    ///
    /// What is not sent is logged; the commands themselves stand.
    pub(super) fn letters_to_mails(
        &self,
        tx: &Tx<'_>,
        origin: &Origin,
        outcomes: Vec<Outcome>,
    ) -> Result<Vec<OutgoingMail>, StorageError> {
        let mut mails = Vec::new();
        // Whether this mail's error answers are spared the quiet spell: it proved who wrote it,
        // and it is not the address's last mail again (a loop that quotes a password back).
        let spared = match (&origin.reply_to, &origin.proof.digest) {
            (Some(to), Some(digest)) => {
                let again = tx.last_mail_digest(to)?.as_ref() == Some(digest);
                tx.set_last_mail_digest(to, digest)?;
                origin.proof.proved && !again
            }
            _ => false,
        };
        for o in outcomes {
            if let Some(to) = &origin.reply_to {
                if o.ok {
                    // A command carried out ends a run of errors and a quiet spell.
                    let before = tx.reply_standing(to)?;
                    tx.set_reply_standing(
                        to,
                        &ReplyStanding {
                            proved_at: if o.proved {
                                Some(self.now)
                            } else {
                                before.proved_at
                            },
                            ..ReplyStanding::default()
                        },
                    )?;
                }
                if o.reply_to_sender && self.may_answer(tx, to, o.ok, spared)? {
                    let notes = self.bounce_notes(tx, to)?;
                    let text = if notes.is_empty() {
                        o.text
                    } else {
                        format!("{notes}\n{}", o.text)
                    };
                    let (sign, thread) = o.in_game.unzip();
                    let answer = Letter {
                        to: vec![to.clone()],
                        subject: o.subject,
                        body: text,
                        reply: true,
                        picture: None,
                        sign: None,
                        thread,
                        headline: None,
                    };
                    let mut mail = self.mail(origin, answer).with_attachments(o.attachments);
                    if let Some(sign) = sign {
                        mail.reply_to = self.reply_address(tx, sign)?;
                    }
                    mails.push(mail);
                }
            }
            for l in o.letters {
                let to = self.not_refusing(tx, l.to)?;
                if to.is_empty() {
                    continue;
                }
                let mut picture = self.picture_for(tx, &to, l.picture)?;
                let body = match l.headline {
                    Some(headline) => {
                        // The HTML part begins as the text part does (issue 37).
                        if let Some(p) = picture.as_mut() {
                            p.page.headline.clone_from(&headline);
                        }
                        format!("{headline}\n\n{}", l.body)
                    }
                    None => l.body,
                };
                let sign = l.sign;
                let letter = Letter {
                    to,
                    body,
                    picture,
                    headline: None,
                    ..l
                };
                let mut mail = self.mail(origin, letter);
                if let Some(sign) = sign {
                    mail.reply_to = self.reply_address(tx, sign)?;
                }
                mails.push(mail);
            }
        }
        Ok(mails)
    }

    /// Whether an answer (`ok`: not an error answer) may go to `to` now; counts it if so. A
    /// `spared` error answer (its mail proved who wrote it) is neither kept quiet nor counted in
    /// the run of errors.
    fn may_answer(
        &self,
        tx: &Tx<'_>,
        to: &str,
        ok: bool,
        spared: bool,
    ) -> Result<bool, StorageError> {
        let mut standing = tx.reply_standing(to)?;
        let run = self.cfg.limits.error_answers_before_quiet;
        let counted = !ok && !spared;
        if counted && standing.quiet_until.is_some_and(|t| t > self.now) {
            eprintln!(
                "pbem: {to} got {run} error answers in a row with no command carried out; no error \
                 answers to it until {}",
                crate::summary::format_time(standing.quiet_until.unwrap_or_default())
            );
            return Ok(false);
        }
        // A registered address is a player's too (signed up before standings were kept, or by the
        // admin at the shell).
        let known = standing.proved_at.is_some() || tx.userid_at_address(to)?.is_some();
        let (since, limit, per) = match known {
            true => (
                self.now - 3600,
                self.cfg.limits.replies_per_address_per_hour,
                "hour",
            ),
            false => (
                self.now - 86_400,
                self.cfg.limits.replies_per_new_address_per_day,
                "day (it is no player's: no signup or command with a password ever came from it)",
            ),
        };
        if !tx.allow_reply(to, since, self.now, limit)? {
            eprintln!("pbem: {limit} replies to {to} in the last {per}; no more until it passes");
            return Ok(false);
        }
        if counted && run > 0 {
            standing.error_run += 1;
            if standing.error_run >= run {
                standing.error_run = 0;
                standing.quiet_days = (standing.quiet_days * 2).clamp(1, MAX_QUIET_DAYS);
                standing.quiet_until = Some(self.now + i64::from(standing.quiet_days) * 86_400);
            }
            tx.set_reply_standing(to, &standing)?;
        }
        Ok(true)
    }

    /// What an answer to `to` says on top about addresses that refuse mail: `to` itself, and the
    /// other addresses of the account registered at it (so `help` from one tells of the other).
    fn bounce_notes(&self, tx: &Tx<'_>, to: &str) -> Result<String, StorageError> {
        let mut addresses = vec![to.to_string()];
        if let Some(userid) = tx.userid_at_address(to)?
            && let Some(user) = tx.user(&userid)?
        {
            addresses.extend(
                user.addresses
                    .into_iter()
                    .filter(|a| !a.eq_ignore_ascii_case(to)),
            );
        }
        Ok(tx
            .bouncing(&addresses)?
            .iter()
            .map(|b| bounce_note(b, b.address.eq_ignore_ascii_case(to)))
            .collect())
    }

    /// The addresses of `to` that do not refuse mail; each one left out counts a held mail.
    fn not_refusing(&self, tx: &Tx<'_>, to: Vec<String>) -> Result<Vec<String>, StorageError> {
        let refusing = tx.bouncing(&to)?;
        if refusing.is_empty() {
            return Ok(to);
        }
        let mut kept = Vec::new();
        for a in to {
            if refusing.iter().any(|b| b.address == a.to_lowercase()) {
                tx.hold_for_bounce(&a)?;
                eprintln!("pbem: not mailing {a}: it refused mail for good");
            } else {
                kept.push(a);
            }
        }
        Ok(kept)
    }

    /// One mail from the server, of `letter` (whose `sign` and `headline` the caller has seen to).
    /// A reply is threaded under the mail being answered; a board mail (`thread`) also under its
    /// reader's first board mail of the game, or is that first mail.
    pub(super) fn mail(&self, origin: &Origin, letter: Letter) -> OutgoingMail {
        let Letter {
            to,
            subject,
            body,
            reply,
            picture,
            thread,
            ..
        } = letter;
        let auto = if reply { AUTO_REPLIED } else { AUTO_GENERATED };
        let (png, page) = picture.map(|p| (p.png, p.page)).unzip();
        let mut mail = OutgoingMail::new(&self.cfg.server, to, subject, body, auto, self.now)
            .with_picture(png)
            .with_page(page);
        if reply {
            mail = mail.replying_to(origin.message_id.as_deref(), &origin.references);
        }
        let Some(thread) = thread else {
            return mail;
        };
        match thread.place {
            Place::Root(id) => mail.message_id = id,
            Place::Under(root) => {
                if !mail.references.contains(&root) {
                    mail.references.insert(0, root.clone());
                }
                mail.in_reply_to.get_or_insert(root);
            }
        }
        mail.thread_topic = Some(thread.topic);
        mail
    }
}

/// Queues mails in the outbox inside the caller's transaction, claimed for sending right after the
/// commit. Returns the row ids, in the same order. Makes the server's secret the first time: each
/// mail is sent with a bounce address signed by it (see `server/bounces.rs`).
pub(super) fn queue(
    tx: &Tx<'_>,
    mails: &[OutgoingMail],
    now: i64,
) -> Result<Vec<i64>, StorageError> {
    if !mails.is_empty() {
        tx.reply_secret(super::reply::random_key)?;
    }
    mails
        .iter()
        .map(|m| {
            let json = serde_json::to_string(m).expect("an OutgoingMail serializes");
            tx.queue_mail(&json, now, true)
        })
        .collect()
}

//! Mail out: the headers of each letter (threading, Auto-Submitted, X-Loop), the hourly allowance of
//! replies to one address, queueing in the outbox and sending after the commit.

use super::{Core, Origin, Outcome};
use crate::mail_out::{self, OutgoingMail};
use crate::storage::{Db, StorageError, Tx};

impl Core {
    /// Sends mails that this process queued and claimed in the transaction it just committed.
    /// Returns how many were sent.
    pub(super) fn send_claimed(&self, db: &Db, ids: &[i64], mails: &[OutgoingMail]) -> usize {
        let mut sent = 0;
        for (id, mail) in ids.iter().zip(mails) {
            let sent_now = self.mailer.send_outbox(
                mail,
                *id,
                |to| db.hand_over_claim(*id, to).map_err(|e| e.to_string()),
                || db.mark_sent(*id, self.now),
            );
            let result = match sent_now {
                Ok(recorded) => {
                    sent += 1;
                    recorded
                }
                Err(e) => {
                    eprintln!("pbem: mail {id} not sent yet ({e}); `pbem outbox flush` retries it");
                    db.mark_failed(*id, &e.to_string())
                }
            };
            if let Err(e) = result {
                // The mail stays claimed; `outbox flush` takes it up again once the claim is stale.
                eprintln!("pbem: could not record the sending of mail {id}: {e}");
            }
        }
        sent
    }

    /// Gives the letters their headers. Replies to the sender count against the address's hourly
    /// allowance; past it they are not sent (the change itself stands), which ends any mail loop.
    pub(super) fn letters_to_mails(
        &self,
        tx: &Tx<'_>,
        origin: &Origin,
        outcomes: Vec<Outcome>,
    ) -> Result<Vec<OutgoingMail>, StorageError> {
        let mut mails = Vec::new();
        let limit = self.cfg.limits.replies_per_address_per_hour;
        for o in outcomes {
            if o.reply_to_sender
                && let Some(to) = &origin.reply_to
            {
                if tx.allow_reply(to, self.now - 3600, self.now, limit)? {
                    mails.push(self.mail(origin, vec![to.clone()], o.subject, o.text, true, None));
                } else {
                    eprintln!(
                        "pbem: {limit} replies to {to} in the last hour; no more until it passes"
                    );
                }
            }
            for l in o.letters {
                if l.to.is_empty() {
                    continue;
                }
                mails.push(self.mail(origin, l.to, l.subject, l.body, l.reply, l.picture));
            }
        }
        Ok(mails)
    }

    pub(super) fn mail(
        &self,
        origin: &Origin,
        to: Vec<String>,
        subject: String,
        body: String,
        reply: bool,
        picture: Option<String>,
    ) -> OutgoingMail {
        // Only ids that fit in a header we write: a reply to a mail whose Message-ID has, say, a
        // non-ASCII byte goes out unthreaded rather than failing to build for ever (found by fuzzing).
        let message_id = origin
            .message_id
            .as_deref()
            .and_then(|id| mail_out::clean_msg_id(&angle(id)));
        let threaded = reply && message_id.is_some();
        let mut references: Vec<String> = origin
            .references
            .iter()
            .filter_map(|r| mail_out::clean_msg_id(&angle(r)))
            .collect();
        if threaded && let Some(id) = &message_id {
            references.push(id.clone());
        }
        OutgoingMail {
            from: self.cfg.server.address.clone(),
            to,
            subject,
            body,
            message_id: mail_out::new_message_id(self.cfg.server.message_id_host()),
            in_reply_to: if threaded { message_id.clone() } else { None },
            references: if threaded { references } else { Vec::new() },
            auto_submitted: if reply {
                "auto-replied".into()
            } else {
                "auto-generated".into()
            },
            x_loop: self.cfg.server.address.clone(),
            date_unix: self.now,
            picture,
        }
    }
}

/// Queues mails in the outbox inside the caller's transaction, claimed for sending right after the
/// commit. Returns the row ids, in the same order.
pub(super) fn queue(
    tx: &Tx<'_>,
    mails: &[OutgoingMail],
    now: i64,
) -> Result<Vec<i64>, StorageError> {
    mails
        .iter()
        .map(|m| {
            let json = serde_json::to_string(m).expect("an OutgoingMail serializes");
            tx.queue_mail(&json, now, true)
        })
        .collect()
}

/// A Message-ID as headers write it: `<left@right>`.
pub(super) fn angle(id: &str) -> String {
    let id = id.trim();
    if id.starts_with('<') && id.ends_with('>') {
        id.to_string()
    } else {
        format!("<{}>", id.trim_matches(|c| c == '<' || c == '>'))
    }
}

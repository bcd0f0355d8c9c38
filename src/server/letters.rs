//! Mail out: the headers of each letter (threading, Auto-Submitted, X-Loop), the hourly allowance of
//! replies to one address, queueing in the outbox and sending after the commit.

use super::{Core, Origin, Outcome};
use crate::mail_out::{AUTO_GENERATED, AUTO_REPLIED, OutgoingMail};
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
                    mails.push(
                        self.mail(origin, vec![to.clone()], o.subject, o.text, true, None)
                            .with_attachments(o.attachments),
                    );
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
        let auto = if reply { AUTO_REPLIED } else { AUTO_GENERATED };
        let mail = OutgoingMail::new(&self.cfg.server, to, subject, body, auto, self.now)
            .with_picture(picture);
        if reply {
            mail.replying_to(origin.message_id.as_deref(), &origin.references)
        } else {
            mail
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

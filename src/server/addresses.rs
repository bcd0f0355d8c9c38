//! Addresses that wait for confirmation (issue "Trust"): `signup` and `change address` by mail take the
//! sender's own address (and, for a change, the account's current ones) at once; any other address gets
//! nothing of the account until it answers a confirmation mail with `confirm userid code`, or the
//! player adds it later from that address. At most one confirmation mail goes out per incoming mail,
//! at most `limits.unconfirmed_mails_per_sender_per_hour` for the mails of one sender (so that one
//! stranger's signups do not hold back everybody's: issue 22, item 5b), and at most
//! `limits.unconfirmed_mails_per_hour` server-wide, so the server is no relay.

use super::{Handling, Letter, Origin, Outcome, Step};
use crate::decision::{AccountEvent, AccountRefusal, Pending};
use crate::mail_text;
use crate::storage::Tx;

/// Addresses of an account command, split into those that take mail now and those that wait.
pub(super) struct Split {
    /// The sender's own address, or addresses the account already had: they take mail now.
    pub confirmed: Vec<String>,
    /// The others.
    pub pending: Vec<String>,
}

impl Handling<'_> {
    /// Splits `addresses` by whether they are the sender's or among `known` (the account's own).
    /// From the shell (no sender) every address counts as confirmed: the admin vouches for them.
    pub(super) fn split_addresses(
        &self,
        addresses: Vec<String>,
        known: &[String],
        origin: &Origin,
    ) -> Split {
        let Some(sender) = &origin.reply_to else {
            return Split {
                confirmed: addresses,
                pending: Vec::new(),
            };
        };
        let (confirmed, pending) = addresses.into_iter().partition(|a| {
            a.eq_ignore_ascii_case(sender) || known.iter().any(|k| k.eq_ignore_ascii_case(a))
        });
        Split { confirmed, pending }
    }

    /// Records the pending addresses of an account and writes the one confirmation mail this incoming
    /// mail may cause (to the first of them, if the hourly cap allows). Returns the letter, if any,
    /// and the addresses waiting, for the sender's answer.
    pub(super) fn pending_addresses(
        &self,
        tx: &Tx<'_>,
        user_id: i64,
        userid: &str,
        pending: &[String],
        origin: &Origin,
    ) -> Step<(Option<Letter>, Pending)> {
        if pending.is_empty() {
            return Ok((None, Pending::default()));
        }
        // Only mail has addresses waiting: the admin's are confirmed (see `split_addresses`).
        let Some(sender) = origin.reply_to.as_deref() else {
            return Ok((None, Pending::default()));
        };
        let limits = &self.cfg.limits;
        let mut letter = None;
        for (i, address) in pending.iter().enumerate() {
            let code = confirmation_code(self.now, userid, address);
            let id = tx.add_pending_address(user_id, address, &code, self.now)?;
            // Only the first address may get a mail, and only the mail's first such address.
            let mail_it = i == 0 && !self.mail.confirmation_sent.get() && {
                let (all, by_sender) = tx.confirmation_mails_since(self.now - 3600, sender)?;
                all < limits.unconfirmed_mails_per_hour
                    && by_sender < limits.unconfirmed_mails_per_sender_per_hour
            };
            if mail_it {
                self.mail.confirmation_sent.set(true);
                tx.mark_pending_mailed(id, sender, self.now)?;
                let (subject, body) =
                    mail_text::confirmation_letter(&self.cfg.server.name, userid, &code);
                letter = Some(Letter {
                    to: vec![address.clone()],
                    subject,
                    body,
                    reply: false,
                    picture: None,
                    sign: None,
                    thread: None,
                    headline: None,
                });
            }
        }
        let waiting = Pending {
            addresses: pending.to_vec(),
            mailed: letter.is_some(),
        };
        Ok((letter, waiting))
    }

    /// `confirm userid code`, from the address being confirmed.
    pub(super) fn confirm(
        &self,
        tx: &Tx<'_>,
        userid: &str,
        code: &str,
        origin: &Origin,
    ) -> Step<Outcome> {
        let refusal = || AccountRefusal::NoPendingAddress {
            userid: userid.to_string(),
        };
        let Some(sender) = &origin.reply_to else {
            return Err(AccountRefusal::ConfirmAtShell.into());
        };
        let user = tx
            .user(userid)?
            .filter(|u| u.password_hash.is_some())
            .ok_or_else(refusal)?;
        if !tx.confirm_pending_address(user.id, sender, code, self.now)? {
            return Err(refusal().into());
        }
        let mut addresses = user.addresses.clone();
        if !addresses.iter().any(|a| a.eq_ignore_ascii_case(sender)) {
            addresses.push(sender.clone());
            tx.set_addresses(user.id, &addresses)?;
        }
        Ok(self.account_reply(AccountEvent::AddressConfirmed {
            userid: user.userid,
            address: sender.clone(),
            addresses,
        }))
    }
}

/// A code for a confirmation mail: not a secret worth a hash (it only proves the mail arrived).
fn confirmation_code(now: i64, userid: &str, address: &str) -> String {
    super::fresh_digest(now, &[userid.as_bytes(), address.as_bytes()])[..5]
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect()
}

//! Accounts: `signup`, `change password`, `change address`, `signoff`.

use super::{Handling, Letter, Origin, Outcome, Step};
use crate::accounts;
use crate::decision::{AccountEvent, AccountRefusal, Event, PasswordChange};
use crate::mail_text;
use crate::storage::Tx;

impl Handling<'_> {
    pub(super) fn addresses_or_sender(
        &self,
        addresses: &[String],
        origin: &Origin,
    ) -> Step<Vec<String>> {
        let list = if addresses.is_empty() {
            match &origin.reply_to {
                Some(a) => vec![a.clone()],
                None => {
                    return Err(AccountRefusal::AddressNeededAtShell.into());
                }
            }
        } else {
            addresses.to_vec()
        };
        for a in &list {
            accounts::check_address(a).map_err(AccountRefusal::Invalid)?;
        }
        Ok(list)
    }

    pub(super) fn signup(
        &self,
        tx: &Tx<'_>,
        userid: &str,
        password: &str,
        addresses: &[String],
        origin: &Origin,
    ) -> Step<Outcome> {
        accounts::check_userid(userid).map_err(AccountRefusal::Invalid)?;
        accounts::check_password(password).map_err(AccountRefusal::Invalid)?;
        let addresses = self.addresses_or_sender(addresses, origin)?;
        if tx.user(userid)?.is_some() {
            return Err(AccountRefusal::UseridTaken {
                userid: userid.to_string(),
            }
            .into());
        }
        let hash = accounts::hash_password(&self.cfg.passwords, password)
            .map_err(AccountRefusal::Invalid)?;
        let split = self.split_addresses(addresses, &[], origin);
        let id = tx.insert_user(userid, &hash, &split.confirmed, self.now)?;
        let (letter, pending) = self.pending_addresses(tx, id, userid, &split.pending, origin)?;
        let signed_up = AccountEvent::SignedUp {
            userid: userid.to_string(),
            confirmed: split.confirmed.clone(),
            pending,
        };
        let mut outcome = self.account_confirmation(signed_up, split.confirmed, origin);
        outcome.letters.extend(letter);
        Ok(outcome)
    }

    /// [`Handling::confirmation`] of an account event, worded by [`mail_text::account_answer`].
    pub(super) fn account_confirmation(
        &self,
        event: AccountEvent,
        addresses: Vec<String>,
        origin: &Origin,
    ) -> Outcome {
        let (subject, text) =
            mail_text::account_answer(&event, &self.cfg.server.name, &self.games.names());
        let mut outcome = self.confirmation(subject, text, addresses, origin);
        outcome.events.push(Event::Account(event));
        outcome
    }

    /// The answer to the sender alone of an account event.
    pub(super) fn account_reply(&self, event: AccountEvent) -> Outcome {
        let (subject, text) =
            mail_text::account_answer(&event, &self.cfg.server.name, &self.games.names());
        Outcome {
            events: vec![Event::Account(event)],
            ..Outcome::reply(subject, text)
        }
    }

    /// [`Outcome::notice`] of an account event: to the account's own addresses `to`.
    pub(super) fn account_notice(&self, event: AccountEvent, to: Vec<String>) -> Outcome {
        let (subject, text) =
            mail_text::account_answer(&event, &self.cfg.server.name, &self.games.names());
        Outcome {
            events: vec![Event::Account(event)],
            ..Outcome::notice(subject, text, to)
        }
    }

    /// The answer to an account command: to the sender, and to the account's confirmed addresses.
    pub(super) fn confirmation(
        &self,
        subject: String,
        text: String,
        addresses: Vec<String>,
        origin: &Origin,
    ) -> Outcome {
        let answer_sender = origin.reply_to.is_some();
        let others: Vec<String> = addresses
            .into_iter()
            .filter(|a| {
                !origin
                    .reply_to
                    .as_ref()
                    .is_some_and(|s| a.eq_ignore_ascii_case(s))
            })
            .collect();
        Outcome {
            ok: true,
            text: text.clone(),
            subject: subject.clone(),
            reply_to_sender: answer_sender,
            letters: vec![Letter {
                to: others,
                subject,
                body: text,
                reply: false,
                picture: None,
                sign: None,
                thread: None,
                headline: None,
            }],
            ..Outcome::default()
        }
    }

    pub(super) fn change_password(
        &self,
        tx: &Tx<'_>,
        userid: &str,
        old: &str,
        new: &str,
    ) -> Step<Outcome> {
        accounts::check_password(new).map_err(AccountRefusal::Invalid)?;
        let user = self.authenticate(tx, userid, old)?;
        let hash =
            accounts::hash_password(&self.cfg.passwords, new).map_err(AccountRefusal::Invalid)?;
        tx.set_password(user.id, Some(&hash))?;
        let changed = AccountEvent::PasswordChanged {
            userid: user.userid,
            by: PasswordChange::ByPassword,
        };
        Ok(self.account_notice(changed, user.addresses))
    }

    pub(super) fn change_address(
        &self,
        tx: &Tx<'_>,
        userid: &str,
        password: &str,
        addresses: &[String],
        origin: &Origin,
    ) -> Step<Outcome> {
        let addresses = self.addresses_or_sender(addresses, origin)?;
        let user = self.authenticate(tx, userid, password)?;
        let split = self.split_addresses(addresses, &user.addresses, origin);
        // With no address confirmed yet, the old ones keep the mail until one is.
        let addresses = if split.confirmed.is_empty() {
            user.addresses.clone()
        } else {
            split.confirmed
        };
        tx.set_addresses(user.id, &addresses)?;
        let (letter, pending) =
            self.pending_addresses(tx, user.id, &user.userid, &split.pending, origin)?;
        // Tell the old addresses too, so that a stolen password cannot quietly divert the mail.
        let mut all = addresses.clone();
        for a in &user.addresses {
            if !all.iter().any(|b| b.eq_ignore_ascii_case(a)) {
                all.push(a.clone());
            }
        }
        let changed = AccountEvent::AddressesChanged {
            userid: user.userid,
            addresses,
            pending,
        };
        let mut outcome = self.account_confirmation(changed, all, origin);
        outcome.letters.extend(letter);
        Ok(outcome)
    }

    pub(super) fn signoff(&self, tx: &Tx<'_>, userid: &str, password: &str) -> Step<Outcome> {
        let user = self.authenticate(tx, userid, password)?;
        let active = tx.active_games(user.id)?;
        if active > 0 {
            return Err(AccountRefusal::StillPlaying {
                userid: user.userid,
                active,
            }
            .into());
        }
        tx.set_password(user.id, None)?;
        tx.set_addresses(user.id, &[])?;
        let signed_off = AccountEvent::SignedOff {
            userid: user.userid,
        };
        Ok(self.account_notice(signed_off, user.addresses))
    }
}

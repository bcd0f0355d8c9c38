//! Accounts: `signup`, `change password`, `change address`, `signoff`.

use super::{Core, Letter, Origin, Outcome, Step};
use crate::accounts;
use crate::decision::AccountRefusal;
use crate::storage::Tx;

impl Core {
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
        let (letter, waiting) = self.pending_addresses(tx, id, userid, &split.pending)?;
        let mut text = format!(
            "Welcome to {}, {userid}!\n\nYou are registered with the address(es):\n  {}\n\n\
             Mail for your games goes there. Send `help` for the commands and `list` for the games.\n\
             To challenge someone: `limit challenge {userid} <their userid>`.\n",
            self.cfg.server.name,
            if split.confirmed.is_empty() {
                "(none confirmed yet)".to_string()
            } else {
                split.confirmed.join("\n  ")
            }
        );
        if !waiting.is_empty() {
            text.push_str(&format!("\n{}\n", super::addresses::wrap(&waiting)));
        }
        let subject = format!("{} signup {userid}", self.cfg.server.name);
        let mut outcome = self.confirmation(subject, text, split.confirmed, origin);
        outcome.letters.extend(letter);
        Ok(outcome)
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
            events: Vec::new(),
            refusal: None,
            letters: vec![Letter {
                to: others,
                subject,
                body: text,
                reply: false,
                picture: None,
            }],
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
        let text = format!("The password of {} has been changed.\n", user.userid);
        Ok(Outcome::notice(
            format!("{} password changed", self.cfg.server.name),
            text,
            user.addresses,
        ))
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
        let (letter, waiting) =
            self.pending_addresses(tx, user.id, &user.userid, &split.pending)?;
        let mut text = format!(
            "The mail of {} now goes to:\n  {}\n",
            user.userid,
            addresses.join("\n  ")
        );
        if !waiting.is_empty() {
            text.push_str(&format!("\n{}\n", super::addresses::wrap(&waiting)));
        }
        // Tell the old addresses too, so that a stolen password cannot quietly divert the mail.
        let mut all = addresses.clone();
        for a in &user.addresses {
            if !all.iter().any(|b| b.eq_ignore_ascii_case(a)) {
                all.push(a.clone());
            }
        }
        let mut outcome = self.confirmation(
            format!("{} address changed", self.cfg.server.name),
            text,
            all,
            origin,
        );
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
        let text = format!(
            "{} has signed off. The userid stays reserved for the finished games that name it.\n",
            user.userid
        );
        Ok(Outcome::notice(
            format!("{} signoff", self.cfg.server.name),
            text,
            user.addresses,
        ))
    }
}

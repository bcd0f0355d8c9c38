//! A forgotten password (issue 16): `password reset userid` mails a one-time code to the account's
//! registered addresses, `password set userid code new` sets a new password with it.
//!
//! The answer to `password reset` is the same whether or not the userid exists, has an address, or
//! has had too many codes lately, so it tells nothing that `signup` would not. At most
//! [`RESETS_PER_DAY`] codes go to an account a day; a code is good for 24 hours, once, and asking for
//! a new one does not void the old. Wrong codes count as wrong passwords in the throttle, so guessing
//! one is as slow as guessing a password (and the code has 50 random bits); as for passwords, the
//! account's registered addresses keep their own allowance (issue 22, item 2).

use sha2::{Digest, Sha256};

use super::{Handling, Letter, Origin, Outcome, Step, THROTTLE_WINDOW};
use crate::accounts;
use crate::decision::{AccountEvent, AccountRefusal, PasswordChange};
use crate::mail_text;
use crate::storage::Tx;

/// Reset codes mailed to one account in 24 hours, at most.
pub const RESETS_PER_DAY: u32 = 3;

/// How long a code is good for, in seconds.
const CODE_LIFE: i64 = 86_400;

impl Handling<'_> {
    /// `password reset userid`.
    pub(super) fn password_reset(
        &self,
        tx: &Tx<'_>,
        userid: &str,
        origin: &Origin,
    ) -> Step<Outcome> {
        let answer = self.account_reply(AccountEvent::PasswordResetAsked {
            userid: userid.to_string(),
            codes_per_day: RESETS_PER_DAY,
        });
        let Some(user) = tx.user(userid)?.filter(|u| u.password_hash.is_some()) else {
            return Ok(answer);
        };
        if user.addresses.is_empty()
            || tx.password_resets_since(user.id, self.now - 86_400)? >= RESETS_PER_DAY
        {
            return Ok(answer);
        }
        let code = reset_code(self.now, &user.userid);
        tx.add_password_reset(user.id, &sha256_hex(&code), self.now)?;
        let (subject, body) = mail_text::reset_letter(
            &self.cfg.server.name,
            &user.userid,
            &code,
            origin.reply_to.as_deref(),
        );
        let mut answer = answer;
        answer.letters.push(Letter {
            to: user.addresses.clone(),
            subject,
            body,
            reply: false,
            picture: None,
            sign: None,
            thread: None,
            headline: None,
        });
        Ok(answer)
    }

    /// `password set userid code new`.
    pub(super) fn password_set(
        &self,
        tx: &Tx<'_>,
        userid: &str,
        code: &str,
        new: &str,
        origin: &Origin,
    ) -> Step<Outcome> {
        accounts::check_password(new).map_err(AccountRefusal::Invalid)?;
        let refusal = || AccountRefusal::BadResetCode {
            userid: userid.to_string(),
        };
        let user = tx
            .user(userid)?
            .filter(|u| u.password_hash.is_some())
            .ok_or_else(refusal)?;
        let sender = origin.reply_to.as_deref();
        // Guessing codes is throttled with the wrong passwords, as a password is: strangers' wrong
        // codes count against the account and themselves, and the account's registered addresses
        // keep their own allowance, so that strangers cannot block the owner's recovery.
        let state = tx.login_state(&user.userid, sender, self.now - THROTTLE_WINDOW)?;
        if sender.is_some() && self.throttled(&state) {
            return Err(refusal().into());
        }
        if !tx.use_password_reset(
            user.id,
            &sha256_hex(code.trim()),
            self.now - CODE_LIFE,
            self.now,
        )? {
            if let Some(sender) = sender {
                tx.record_password_failure(
                    &user.userid,
                    sender,
                    state.sender_registered,
                    self.now,
                )?;
            }
            return Err(refusal().into());
        }
        let hash =
            accounts::hash_password(&self.cfg.passwords, new).map_err(AccountRefusal::Invalid)?;
        tx.set_password(user.id, Some(&hash))?;
        let changed = AccountEvent::PasswordChanged {
            userid: user.userid,
            by: PasswordChange::ByResetCode,
        };
        Ok(self.account_notice(changed, user.addresses))
    }
}

/// A one-time code: 10 characters of a 32-letter alphabet without look-alikes (50 bits).
fn reset_code(now: i64, userid: &str) -> String {
    const ALPHABET: &[u8; 32] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    super::fresh_digest(now, &[b"password reset", userid.as_bytes()])[..10]
        .iter()
        .map(|b| ALPHABET[usize::from(b % 32)] as char)
        .collect()
}

fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_ten_letters_of_the_alphabet_and_differ() {
        let a = reset_code(1, "alice");
        let b = reset_code(1, "alice");
        assert_eq!(a.len(), 10);
        assert!(
            a.bytes()
                .all(|c| c.is_ascii_uppercase() || (b'2'..=b'9').contains(&c))
        );
        assert!(!a.contains(['O', '0', 'I', '1']), "{a}");
        assert_ne!(a, b, "a fresh code each time");
    }
}

//! Passwords: checked before the write lock (argon2 is slow), throttled by sender and account, and
//! used inside the transaction only if the stored hash is still the one checked.

use super::reply::Grant;
use super::{Failure, Handling, Refused, Step};
use crate::accounts;
use crate::command::{self, RawCommand};
use crate::decision::AccountRefusal;
use crate::games::GameRules;
use crate::storage::{Db, LoginState, StorageError, Tx, User};
use std::collections::HashMap;

/// The password checks of one mail: who sent it, what was checked, and how many argon2 runs it cost.
#[derive(Debug, Default)]
pub(super) struct Logins {
    /// The mail's reply address, which the throttle counts by; `None` for the admin at the shell.
    sender: Option<String>,
    /// By (lowercase userid, password): checks made before the write lock.
    checked: HashMap<(String, String), Checked>,
    /// argon2 runs spent on this mail's password checks so far.
    runs: u32,
}

impl Logins {
    /// The (lowercase userid, password) pairs found right before the write lock: whoever wrote the
    /// mail knows these passwords (`secrets` compares words with them instead of checking them).
    pub(super) fn right(&self) -> impl Iterator<Item = (&str, &str)> {
        self.checked
            .iter()
            .filter(|(_, c)| c.is_right())
            .map(|((u, p), _)| (u.as_str(), p.as_str()))
    }

    /// True when this userid's password was found right before the write lock.
    pub(super) fn was_right(&self, userid: &str, password: &str) -> bool {
        self.checked
            .get(&(userid.to_lowercase(), password.to_string()))
            .is_some_and(Checked::is_right)
    }
}

/// The result of a password check made before the write lock.
#[derive(Debug, Clone)]
pub(super) enum Checked {
    /// Verified against this stored hash; true when it matched.
    Hash(String, bool),
    /// Unknown or signed-off userid: the equal-time dummy check was spent.
    Burned,
    /// The sender or the account had too many wrong passwords in the last hour: not checked.
    Throttled,
    /// The mail had used up its password checks: not checked.
    TooMany,
    /// Not a password: the word that stands for a signed reply address checked before the lock
    /// (`reply`), good while the account's reply generation is still this one.
    Token {
        /// The account's row.
        user_id: i64,
        /// Its reply generation when the token was checked.
        generation: i64,
    },
}

impl Checked {
    /// True when the check let the writer in.
    fn is_right(&self) -> bool {
        matches!(self, Checked::Hash(_, true) | Checked::Token { .. })
    }
}

impl Handling<'_> {
    /// True when a command of this mail logged in with the right password of an account
    /// registered at `address` (call after [`Handling::precheck`]).
    pub(super) fn logged_in_at(
        &self,
        db: &Db,
        address: Option<&str>,
    ) -> Result<bool, StorageError> {
        let Some(address) = address else {
            return Ok(false);
        };
        let logins = self.mail.logins.borrow();
        if logins.right().next().is_none() {
            return Ok(false);
        }
        let owners = db.userids_at_address(address)?;
        Ok(logins
            .right()
            .any(|(u, _)| owners.iter().any(|o| o.eq_ignore_ascii_case(u))))
    }
}

/// How far back the password throttle counts, in seconds.
pub(super) const THROTTLE_WINDOW: i64 = 3600;

impl Handling<'_> {
    /// Checks the passwords of these command lines before the write lock is taken, so that the argon2
    /// work (tens of milliseconds each) of one process does not hold up every other process. Inside the
    /// transaction, [`Handling::authenticate`] uses the result only if the stored hash is still the one
    /// checked here, and records the wrong passwords. `sender` is the mail's reply address (`None`
    /// at the shell). A sender past its hourly allowance of wrong passwords, and every check past the
    /// mail's allowance, is not checked at all: no argon2 run.
    pub(super) fn precheck(
        &self,
        db: &Db,
        lines: &[String],
        sender: Option<String>,
        grant: Option<&Grant>,
    ) -> Result<(), StorageError> {
        let mut logins = Logins {
            sender,
            ..Logins::default()
        };
        if let Some(g) = grant {
            logins.checked.insert(
                (g.userid.to_lowercase(), g.marker.clone()),
                Checked::Token {
                    user_id: g.user_id,
                    generation: g.generation,
                },
            );
        }
        // The wrong passwords this mail is about to add, (userid, sender registered to it): the
        // throttle holds within one mail as well as across mails.
        let mut pending: Vec<(String, bool)> = Vec::new();
        for line in lines {
            let Ok(cmd) = command::parse(line) else {
                continue;
            };
            let Some((userid, password)) = credentials(&cmd) else {
                continue;
            };
            let key = (userid.to_lowercase(), password.to_string());
            if logins.checked.contains_key(&key) {
                continue;
            }
            let sender = logins.sender.as_deref();
            let mut state = db.login_state(userid, sender, self.now - THROTTLE_WINDOW)?;
            let mine = |(u, r): &&(String, bool)| *u == key.0 && *r == state.sender_registered;
            if state.sender_registered {
                state.sender_failures += pending.iter().filter(mine).count() as u32;
            } else {
                state.sender_failures += pending.iter().filter(|(_, r)| !r).count() as u32;
                state.account_failures += pending.iter().filter(mine).count() as u32;
            }
            let result = if sender.is_some() && self.throttled(&state) {
                Checked::Throttled
            } else if logins.runs >= self.cfg.limits.max_password_checks_per_mail {
                Checked::TooMany
            } else {
                logins.runs += 1;
                let checked = match state.password_hash {
                    Some(hash) => {
                        let ok = accounts::verify_password(&hash, password);
                        Checked::Hash(hash, ok)
                    }
                    None => {
                        accounts::burn_verify(&self.cfg.passwords, password);
                        Checked::Burned
                    }
                };
                if !matches!(checked, Checked::Hash(_, true)) {
                    pending.push((key.0.clone(), state.sender_registered));
                }
                checked
            };
            logins.checked.insert(key, result);
        }
        *self.mail.logins.borrow_mut() = logins;
        Ok(())
    }

    /// The argon2 runs the mail has spent so far (see [`Handling::restore_password_runs`]).
    pub(super) fn password_runs(&self) -> u32 {
        self.mail.logins.borrow().runs
    }

    /// Sets the argon2 runs back to what they were when a pass over the mail began: a pass that is
    /// rolled back and run again (see `server/robots.rs`) spends its checks once.
    pub(super) fn restore_password_runs(&self, runs: u32) {
        self.mail.logins.borrow_mut().runs = runs;
    }

    /// True when a password from this sender for this account is not to be checked now.
    pub(super) fn throttled(&self, state: &LoginState) -> bool {
        let l = &self.cfg.limits;
        if state.sender_registered {
            // A registered address has its own allowance for its account: strangers cannot use it up.
            state.sender_failures >= l.password_failures_per_sender_per_hour
        } else {
            state.sender_failures >= l.password_failures_per_sender_per_hour
                || state.account_failures >= l.password_failures_per_account_per_hour
        }
    }

    /// Checks a userid and password. Unknown userids, wrong passwords and throttled attempts get the
    /// same answer, so that the answer tells a guesser nothing. Nothing locks an account: a wrong
    /// password is recorded, and a sender past its hourly allowance is not checked (see
    /// [`Handling::throttled`]); the account's registered addresses keep their own allowance.
    pub(super) fn authenticate(&self, tx: &Tx<'_>, userid: &str, password: &str) -> Step<User> {
        let limits = &self.cfg.limits;
        let refusal_from = |from_owner: bool| AccountRefusal::WrongPassword {
            userid: userid.to_string(),
            per_sender: limits.password_failures_per_sender_per_hour,
            per_account: limits.password_failures_per_account_per_hour,
            from_owner,
        };
        let refusal = || refusal_from(false);
        let mut logins = self.mail.logins.borrow_mut();
        let key = (userid.to_lowercase(), password.to_string());
        let pre = logins.checked.get(&key).cloned();
        let too_many = || AccountRefusal::TooManyChecks {
            max: limits.max_password_checks_per_mail,
        };
        match pre {
            Some(Checked::TooMany) => return Err(too_many().into()),
            Some(Checked::Throttled) => return Err(refusal().into()),
            Some(Checked::Token {
                user_id,
                generation,
            }) => {
                // No guess to throttle; checked again inside the lock, as a hash is: a password
                // changed since (by an earlier line of the mail, or another mail) makes it stale.
                let user = tx.user(userid)?.filter(|u| u.id == user_id);
                let current = tx.reply_generation(user_id)?;
                return match user {
                    Some(user) if current == Some(generation) => Ok(user),
                    _ => Err(refusal().into()),
                };
            }
            _ => {}
        }
        let sender = logins.sender.clone();
        let state = tx.login_state(userid, sender.as_deref(), self.now - THROTTLE_WINDOW)?;
        // Counted again inside the lock: an earlier line of this mail, or another process, may have
        // added failures since the check.
        if sender.is_some() && self.throttled(&state) {
            return Err(refusal_from(state.sender_registered).into());
        }
        let ok = match (&pre, &state.password_hash) {
            (Some(Checked::Hash(checked, ok)), Some(hash)) if checked == hash => *ok,
            (Some(Checked::Burned), None) => false,
            // Not checked before the lock, or the hash changed since (an earlier line of the mail).
            (_, hash) => {
                if logins.runs >= limits.max_password_checks_per_mail {
                    return Err(too_many().into());
                }
                logins.runs += 1;
                match hash {
                    Some(hash) => accounts::verify_password(hash, password),
                    None => accounts::burn_verify(&self.cfg.passwords, password),
                }
            }
        };
        if !ok {
            // Committed with the error reply, so that it counts for the next attempt.
            if let Some(sender) = &sender {
                tx.record_password_failure(userid, sender, state.sender_registered, self.now)?;
            }
            return Err(refusal_from(state.sender_registered).into());
        }
        match tx.user(userid)? {
            Some(user) => Ok(user),
            None => Err(refusal().into()),
        }
    }

    /// [`Handling::authenticate`] for a command on a board: a refusal names the board (in the Subject,
    /// `Limit Board 101 Error`) and shows it, as every other refusal of a command on a board does. The
    /// board is public, so showing it to a wrong guesser tells nothing.
    pub(super) fn authenticate_on(
        &self,
        tx: &Tx<'_>,
        userid: &str,
        password: &str,
        rules: &dyn GameRules,
        board: u32,
    ) -> Step<User> {
        self.authenticate(tx, userid, password)
            .map_err(|f| match f {
                Failure::Refused(r) if r.board.is_none() => {
                    Refused::on(r.refusal, rules.name(), board).into()
                }
                other => other,
            })
    }
}

/// The userid and password a command logs in with, if any (see [`RawCommand::login`]).
pub(super) fn credentials(cmd: &RawCommand) -> Option<(&str, &str)> {
    cmd.login()
        .map(|(userid, password)| (userid, password.expose()))
}

//! A mail's passwords, and how its answers quote it without them (issue 34, item 3).
//!
//! An answer quotes back only what it read. A command that parsed is rebuilt from its parts with
//! `<password>` in each password place ([`Secrets::quote_command`]); a line that did not parse is
//! quoted only up to where the command it resembles has its password, or up to its first word that
//! is or may be a password ([`Secrets::quote_unread`]), and the parser's explanation of it is shown
//! only when it names none of the words past that point but as `'...'`
//! ([`Secrets::explain_unread`]). The comment is quoted only when checked (its command's password
//! right), and hidden with the mail's passwords before it is stored or relayed
//! ([`Secrets::hide`]). The server's own words are never masked: the answers' texts are masked
//! only inside the quotes of the player's words ([`Secrets::hide_in`]), where an explanation names
//! a userid or a move.
//!
//! Which words are passwords: the words in a password's place of a line that parses (right or
//! wrong: a wrong one may be the real one with a typo, or under a mistyped userid, or a password of
//! another account), and the words found, by checking them, to be the password of an account of
//! whoever wrote the mail. Lines that do not parse have no password places, so their candidates
//! ([`command::password_candidates`]) are checked against the writer's accounts: those it logged in
//! to with the right password in this mail (the word is compared with that password: no argon2
//! run), and those registered at the address the answer goes to (argon2, at most
//! `limits.max_password_checks_per_mail` runs a mail). A word that cannot be checked (a stranger's
//! mail, the runs used up, a command line that names someone else's account, or a mistyped
//! `signup`, whose new password is no account's yet) is a suspect: treated as a password.
//!
//! All of it happens before the write lock, as the logins' checks do (see `auth`).

use std::collections::HashMap;

use crate::accounts;
use crate::command;
use crate::mail_in::Incoming;
use crate::storage::{Db, StorageError};

use super::{Handling, Outcome};

/// What one mail (or admin line) must never show.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(super) struct Secrets {
    /// Passwords: hidden wherever they occur (as whole words when shorter than
    /// [`command::WHOLE_WORD_BELOW`] characters).
    passwords: Vec<String>,
    /// Words written in a password's place of a line that parsed and found to be no password
    /// (nor checked right): hidden as passwords are in the player's words, but not in a command the
    /// server writes out between backquotes, where such a word is the board or userid it also is
    /// (`Subject: limit chat 101` reads as a command with `101` in its password's place).
    slots: Vec<String>,
    /// Words that may be a password and could not be checked: hidden as whole words.
    suspects: Vec<String>,
    /// A word of the mail was checked and found to be the password of an account registered at
    /// its address: the mail proved who wrote it.
    pub(super) proved: bool,
}

impl Secrets {
    fn is_empty(&self) -> bool {
        self.passwords.is_empty() && self.slots.is_empty() && self.suspects.is_empty()
    }

    /// `text` with the passwords, the words in passwords' places and the suspects masked: for the
    /// player's own words only (a comment, a quote of them), never for an answer's text.
    pub(super) fn hide(&self, text: &str) -> String {
        if self.slots.is_empty() {
            return command::mask_passwords(text, &self.passwords, &self.suspects);
        }
        let all: Vec<&String> = self.passwords.iter().chain(&self.slots).collect();
        command::mask_passwords(text, &all, &self.suspects)
    }

    /// True when `word` is, or holds, a password or a suspect of the mail.
    pub(super) fn holds(&self, word: &str) -> bool {
        !self.is_empty() && self.hide(word) != word
    }

    /// A command that parsed, as an answer quotes it back: rebuilt from its parts, with
    /// `<password>` in every password place and for any part that is one of the mail's passwords.
    pub(super) fn quote_command(&self, cmd: &command::RawCommand) -> String {
        cmd.quoted(|w| self.holds(w))
    }

    /// How many words of a line that could not be read an answer shows: those before the first
    /// place where the command it resembles has its password (see [`command::unread_stops`]), and
    /// before the first word that is or may be a password of the mail.
    pub(super) fn unread_shown(&self, line: &str) -> usize {
        let words: Vec<&str> = line.split_whitespace().collect();
        let stop = command::unread_stops(line)
            .first()
            .copied()
            .unwrap_or(words.len());
        let held = words
            .iter()
            .position(|w| self.holds(w))
            .unwrap_or(words.len());
        stop.min(held)
    }

    /// A line that could not be read, as an answer quotes it: its start (see
    /// [`Secrets::unread_shown`]), and `...` for the rest.
    pub(super) fn quote_unread(&self, line: &str) -> String {
        let words: Vec<&str> = line.split_whitespace().collect();
        let shown = self.unread_shown(line);
        if shown >= words.len() {
            return words.join(" ");
        }
        let mut out = words[..shown].join(" ");
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str("...");
        out
    }

    /// What the parser says about `line`, fit to show: a word of the line that the answer does not
    /// quote and that may be a password (one in a password's place, or one of the mail's
    /// passwords and suspects) is written `...` where the explanation quotes it (`'...' is not a
    /// userid`). `None` when the explanation names such a word elsewhere (the answer then says
    /// only that the line was not understood). Words past the password's place that were checked
    /// and are no password of the writer's (`set bob PW subject fixed`: `fixed`) are named as
    /// written: the answer must still say what was wrong.
    pub(super) fn explain_unread(&self, text: &str, line: &str) -> Option<String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let shown = self.unread_shown(line);
        let stops = command::unread_stops(line);
        let hidden: Vec<&str> = words
            .iter()
            .enumerate()
            .skip(shown)
            .filter(|&(i, w)| stops.contains(&i) || self.holds(w))
            .map(|(_, w)| *w)
            .collect();
        if hidden.is_empty() {
            return Some(text.to_string());
        }
        let out = map_quoted(text, |content, _| {
            if hidden.contains(&content) {
                "...".to_string()
            } else {
                content.to_string()
            }
        });
        // The line a mistyped command was meant to be, after "did you mean:", is the player's
        // words too: `signup ... <password>`.
        let mut lines: Vec<String> = Vec::new();
        let mut example = false;
        for line in out.lines() {
            if example {
                let indent = line.len() - line.trim_start().len();
                let words: Vec<&str> = line
                    .split_whitespace()
                    .map(|w| if hidden.contains(&w) { "..." } else { w })
                    .collect();
                lines.push(format!("{}{}", &line[..indent], words.join(" ")));
            } else {
                lines.push(line.to_string());
            }
            example = line.trim_end().ends_with("did you mean:");
        }
        let mut out = lines.join("\n");
        if text.ends_with('\n') {
            out.push('\n');
        }
        (command::mask_words(&out, &hidden) == out && !self.holds_any(&out)).then_some(out)
    }

    /// True when `text` holds one of the mail's passwords or suspects anywhere.
    fn holds_any(&self, text: &str) -> bool {
        !self.is_empty() && self.hide(text) != text
    }

    /// `text` (an answer's) with the mail's passwords and suspects masked where the text quotes
    /// the player's words, and nowhere else: inside `'...'` and `"..."`, as the explanations quote
    /// a userid or a move, and, of the passwords found, inside a command between backquotes
    /// (`password reset <the userid written>`). The server's own words are never masked.
    pub(super) fn hide_quotes(&self, text: &str) -> String {
        if self.is_empty() {
            return text.to_string();
        }
        map_quoted(text, |content, backquoted| {
            if backquoted {
                command::mask_passwords(content, &self.passwords, &[] as &[String])
            } else {
                self.hide(content)
            }
        })
    }

    /// Hides the secrets where an outcome answered to the sender (or shown to the admin) quotes
    /// the player's words ([`Secrets::hide_quotes`]): its text, its Subject and its letters to the
    /// sender. Letters to others carry of the mail only its comment, hidden before it was stored.
    pub(super) fn hide_in(&self, o: &mut Outcome) {
        if self.is_empty() {
            return;
        }
        o.text = self.hide_quotes(&o.text);
        o.subject = self.hide_quotes(&o.subject);
        for l in o.letters.iter_mut().filter(|l| l.reply) {
            l.body = self.hide_quotes(&l.body);
            l.subject = self.hide_quotes(&l.subject);
        }
    }
}

/// `text` with `f` applied to what it quotes, word by word, and to nothing else: the words between
/// `"` or backquotes, and from a word that opens with `'` to one that closes with it (`'bob'`,
/// `'propose peace'`: an apostrophe inside a word, `Let's`, neither opens nor closes). A word's
/// quote marks and the punctuation after them are kept. `f` is told whether the word stands between
/// backquotes only (a command written out).
fn map_quoted(text: &str, f: impl Fn(&str, bool) -> String) -> String {
    let mut out = String::with_capacity(text.len());
    // Inside `'...'`, `"..."`, backquotes.
    let (mut single, mut double, mut back) = (false, false, false);
    let mut rest = text;
    while !rest.is_empty() {
        let blank = rest.len() - rest.trim_start().len();
        // A quote is closed by the end of its paragraph at the latest: a stray quote mark in the
        // player's words does not make the rest of the answer a quote.
        if rest[..blank].matches('\n').count() > 1 {
            (single, double, back) = (false, false, false);
        }
        out.push_str(&rest[..blank]);
        rest = &rest[blank..];
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let word = &rest[..end];
        rest = &rest[end..];
        if word.is_empty() {
            continue;
        }
        let opens_single = word.starts_with('\'');
        let bare_end = word.trim_end_matches(['.', ',', ';', ':', '!', '?', ')']);
        let closes_single = bare_end.ends_with('\'') && (single || opens_single);
        let inside = single || double || back || opens_single || word.contains(['"', '`']);
        if inside {
            // The word without its quote marks and the punctuation after them.
            let head = word.len() - word.trim_start_matches(['\'', '"', '`']).len();
            let tail_start = head.max(bare_end.trim_end_matches(['\'', '"', '`']).len());
            let content = &word[head..tail_start];
            out.push_str(&word[..head]);
            let quoted = single || double || opens_single || word.contains('"');
            out.push_str(&f(content, !quoted));
            out.push_str(&word[tail_start..]);
        } else {
            out.push_str(word);
        }
        if opens_single && !closes_single {
            single = true;
        } else if closes_single {
            single = false;
        }
        if word.matches('"').count() % 2 == 1 {
            double = !double;
        }
        if word.matches('`').count() % 2 == 1 {
            back = !back;
        }
    }
    out
}

/// Where a line of a mail stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    /// A command line, carried out: its userids name whose words they are.
    Command,
    /// The Subject, when the commands are in the body: quoted back when there are none.
    Subject,
    /// A comment line: the writer's own words.
    Comment,
}

impl Place {
    /// True when the userids a line names say whose passwords it may hold: a command's, a Subject's.
    fn names_accounts(self) -> bool {
        matches!(self, Place::Command | Place::Subject)
    }
}

/// A line's words to check.
struct ToCheck<'a> {
    /// Its candidates, registered userids and its own passwords left out.
    candidates: Vec<&'a str>,
    /// The registered userids it names, lowercase.
    named: Vec<String>,
    place: Place,
    /// The line parses: its words stand in their places (the password in its own, hidden), and one
    /// that cannot be checked is shown as written (a new userid; an unknown one, whose answer must
    /// read as a wrong password's).
    parsed: bool,
    /// A line that does not parse and resembles `signup`, `change password` or `password set`: its
    /// new password is no account's yet, so no check can find it. Its candidates are all hidden.
    new_password: bool,
}

/// An account whose password the mail's words are checked against.
struct Writer {
    /// Lowercase.
    userid: String,
    /// Its password, when a line of this mail logged in with it: words are compared with it.
    password: Option<String>,
    /// Its stored hash, to check words against; `None` when they need not be (`password` is known).
    hash: Option<String>,
}

/// What checking a word found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Password,
    NotPassword,
    Unchecked,
}

impl Handling<'_> {
    /// The secrets of a mail: its command lines, its Subject and its comment lines. `sender` is the
    /// address answers go to. Call after [`Handling::precheck`], whose right passwords it reuses.
    pub(super) fn mail_secrets(
        &self,
        db: &Db,
        incoming: &Incoming,
        sender: Option<&str>,
    ) -> Result<Secrets, StorageError> {
        let mut lines: Vec<(&str, Place)> = incoming
            .commands
            .iter()
            .map(|l| (l.as_str(), Place::Command))
            .collect();
        if !incoming.commands.contains(&incoming.subject) {
            lines.push((&incoming.subject, Place::Subject));
        }
        lines.extend(incoming.comment.lines().map(|l| (l, Place::Comment)));
        self.find_secrets(db, &lines, sender)
    }

    /// The secrets of one line typed by the admin at the shell. The admin may see any account, so the
    /// words are checked against the accounts the line names.
    pub(super) fn admin_secrets(&self, db: &Db, line: &str) -> Result<Secrets, StorageError> {
        self.find_secrets(db, &[(line, Place::Command)], None)
    }

    /// The secrets of these lines (see the module documentation). `sender` is `None` for the admin.
    fn find_secrets(
        &self,
        db: &Db,
        lines: &[(&str, Place)],
        sender: Option<&str>,
    ) -> Result<Secrets, StorageError> {
        let names = self.games.names();
        let logins = self.mail.logins.borrow();
        let right = |cmd: &command::RawCommand| {
            cmd.login()
                .is_some_and(|(u, pw)| logins.was_right(u, pw.expose()))
        };
        let mut registered: HashMap<String, bool> = HashMap::new();
        // A registered userid is public (boards, standings): not taken for a password, nor is `bob,`.
        let mut is_registered = |w: &str| -> Result<bool, StorageError> {
            let key = bare_userid(w).to_lowercase();
            if let Some(r) = registered.get(&key) {
                return Ok(*r);
            }
            let r = command::is_userid(&key) && db.userid_taken(&key)?;
            registered.insert(key, r);
            Ok(r)
        };

        let mut passwords: Vec<String> = Vec::new();
        let mut slot_words: Vec<String> = Vec::new();
        let right_passwords: Vec<String> = logins.right().map(|(_, pw)| pw.to_string()).collect();
        // Each line's candidates, and the registered userids it names.
        let mut to_check: Vec<ToCheck<'_>> = Vec::new();
        for &(line, place) in lines {
            // Any first word parses as a game's name: a comment's "Ok: move 12 was a surprise" is
            // read as a command only where it is one.
            let parsed = (place == Place::Command || command::looks_like_command(line, &names))
                .then(|| command::parse(line).ok())
                .flatten();
            let slots: Vec<&str> = parsed.as_ref().map(|c| c.passwords()).unwrap_or_default();
            // A registered userid written as a password (`limit resign 102 robot3 robot3`) is
            // hidden in its place only: elsewhere it is the public userid.
            for s in &slots {
                if right_passwords.iter().any(|p| p == s) {
                    passwords.push(s.to_string());
                } else if !is_registered(s)? {
                    slot_words.push(s.to_string());
                }
            }
            // Userid and password swapped (`limit move 101 hunter2x bob`): a registered userid in
            // the password's place makes the word in the userid's place likely the password.
            if let Some((userid, pw)) = parsed.as_ref().and_then(|c| c.login())
                && is_registered(pw.expose())?
                && !is_registered(userid)?
            {
                passwords.push(userid.to_string());
            }
            // Read as written and logged in with the right password: its words are as meant.
            if parsed.as_ref().is_some_and(right) {
                continue;
            }
            let mut candidates = Vec::new();
            for c in command::password_candidates(line, &names) {
                if !slots.contains(&c) && !is_registered(c)? {
                    candidates.push(c);
                }
            }
            // Whose words a command line holds, when it has words to check (and, for the admin,
            // whose passwords to check them against); a comment line is the writer's own.
            let mut named = Vec::new();
            if place.names_accounts() && !candidates.is_empty() {
                for w in line.split_whitespace() {
                    if is_registered(w)? {
                        named.push(bare_userid(w).to_lowercase());
                    }
                }
            }
            to_check.push(ToCheck {
                new_password: parsed.is_none() && command::sets_new_password(line),
                candidates,
                named,
                place,
                parsed: parsed.is_some(),
            });
        }

        let mut writers = self.writers(db, sender, &to_check)?;
        let mut runs = 0u32;
        let max_runs = self.cfg.limits.max_password_checks_per_mail;
        let mut verdicts: HashMap<&str, Verdict> = HashMap::new();
        let mut suspects: Vec<String> = Vec::new();
        for line in &to_check {
            // A command line that does not parse and names an account that is not the writer's may
            // hold that account's password: checking it would tell the writer whether it is, so
            // what is not the writer's own password is hidden all the same.
            let foreign = !line.parsed
                && line.place.names_accounts()
                && sender.is_some()
                && line
                    .named
                    .iter()
                    .any(|n| writers.iter().all(|w| &w.userid != n));
            for &c in &line.candidates {
                let verdict = if line.new_password || writers.is_empty() {
                    Verdict::Unchecked
                } else if let Some(v) = verdicts.get(c) {
                    *v
                } else {
                    let v = check(c, &mut writers, &mut runs, max_runs);
                    verdicts.insert(c, v);
                    v
                };
                match verdict {
                    Verdict::Password => passwords.push(c.to_string()),
                    Verdict::Unchecked if !line.parsed => suspects.push(c.to_string()),
                    Verdict::NotPassword if foreign => suspects.push(c.to_string()),
                    _ => {}
                }
            }
        }
        passwords.sort();
        passwords.dedup();
        suspects.sort();
        suspects.dedup();
        slot_words.sort();
        slot_words.dedup();
        slot_words.retain(|s| !passwords.contains(s));
        suspects.retain(|s| !passwords.contains(s) && !slot_words.contains(s));
        // A writer known by its hash whose password was found: a check matched.
        let proved = writers
            .iter()
            .any(|w| w.hash.is_some() && w.password.is_some());
        Ok(Secrets {
            passwords,
            slots: slot_words,
            suspects,
            proved,
        })
    }

    /// The accounts the mail's words are checked against: those a line logged in to with the right
    /// password, and those registered at `sender`; for the admin (`sender` `None`), the accounts the
    /// lines name. The hourly allowance of wrong passwords does not stop these checks: they are no
    /// guesses (what they find goes only to the account's own address), and they are bounded per mail.
    fn writers(
        &self,
        db: &Db,
        sender: Option<&str>,
        lines: &[ToCheck<'_>],
    ) -> Result<Vec<Writer>, StorageError> {
        let mut writers: Vec<Writer> = Vec::new();
        for (userid, password) in self.mail.logins.borrow().right() {
            if writers.iter().all(|w| w.userid != userid) {
                writers.push(Writer {
                    userid: userid.to_string(),
                    password: Some(password.to_string()),
                    hash: None,
                });
            }
        }
        let others: Vec<String> = match sender {
            Some(address) => db.userids_at_address(address)?,
            None => lines.iter().flat_map(|l| l.named.iter().cloned()).collect(),
        };
        for userid in others {
            let key = userid.to_lowercase();
            if writers.iter().any(|w| w.userid == key) {
                continue;
            }
            let hash = db.login_state(&key, None, 0)?.password_hash;
            if hash.is_some() {
                writers.push(Writer {
                    userid: key,
                    password: None,
                    hash,
                });
            }
        }
        Ok(writers)
    }
}

/// The userid a word may be, without the punctuation around it (`bob,`, `alice'`).
fn bare_userid(word: &str) -> &str {
    word.trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != '_' && c != '-')
}

/// Whether `word` is the password of one of `writers`: compared with a password known from this mail,
/// else checked against the stored hash while `runs` stays under `max_runs`. A password found is
/// known from then on: the mail's other words are compared with it.
fn check(word: &str, writers: &mut [Writer], runs: &mut u32, max_runs: u32) -> Verdict {
    let mut verdict = Verdict::NotPassword;
    for w in writers {
        match (&w.password, &w.hash) {
            (Some(pw), _) if pw == word => return Verdict::Password,
            (Some(_), _) => {}
            (None, Some(hash)) if *runs < max_runs => {
                *runs += 1;
                if accounts::verify_password(hash, word) {
                    w.password = Some(word.to_string());
                    return Verdict::Password;
                }
            }
            (None, _) => verdict = Verdict::Unchecked,
        }
    }
    verdict
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secrets(passwords: &[&str], suspects: &[&str]) -> Secrets {
        Secrets {
            passwords: passwords.iter().map(|s| s.to_string()).collect(),
            slots: Vec::new(),
            suspects: suspects.iter().map(|s| s.to_string()).collect(),
            proved: false,
        }
    }

    #[test]
    fn only_the_quotes_of_an_answer_are_masked() {
        let s = secrets(&["secret"], &["of", "you"]);
        // The server's words stand, even when a suspect is one of them.
        assert_eq!(
            s.hide_quotes("The rest of the hour, you see. The userid 'secret' and 'of'."),
            "The rest of the hour, you see. The userid '****' and '****'."
        );
        assert_eq!(
            s.hide_quotes("Forgot it? Send `password reset secret`. Let's see."),
            "Forgot it? Send `password reset ****`. Let's see."
        );
        assert_eq!(
            s.hide_quotes("cannot read the move \"2-3 bob secret 4\": of course"),
            "cannot read the move \"2-3 bob **** 4\": of course"
        );
        assert_eq!(
            s.hide_quotes("'propose of' is not a proposal; of"),
            "'propose ****' is not a proposal; of"
        );
        // A word written in a password's place and found no password is the player's word: hidden
        // where an explanation quotes the player, not in a command the server writes out.
        let slot = Secrets {
            passwords: Vec::new(),
            slots: vec!["101".to_string()],
            suspects: Vec::new(),
            proved: false,
        };
        assert_eq!(
            slot.hide_quotes("'101' is odd: write `limit chat 101 alice <password>`."),
            "'****' is odd: write `limit chat 101 alice <password>`."
        );
        // A stray quote mark ends with its paragraph.
        assert_eq!(
            s.hide_quotes("move \"x of\nyou\n\nthe rest of you"),
            "move \"x ****\n****\n\nthe rest of you"
        );
        // An apostrophe inside or after a word opens no quote.
        assert_eq!(s.hide_quotes("players' of you"), "players' of you");
        assert_eq!(secrets(&[], &[]).hide_quotes("'x'"), "'x'");
    }

    #[test]
    fn an_unread_line_is_quoted_up_to_its_password_place() {
        let none = secrets(&[], &[]);
        // The place `move` has its password, whatever stands there.
        assert_eq!(
            none.quote_unread("limit move 101 alice'-- WrongPw r1"),
            "limit move 101 alice'-- ..."
        );
        assert_eq!(
            none.quote_unread("limit move 101 alice Tr0ub4dor&34-1,3"),
            "limit move 101 alice ..."
        );
        assert_eq!(none.quote_unread("set bob pw digets on"), "set bob ...");
        assert_eq!(
            none.quote_unread("change password alice pw"),
            "change password alice ..."
        );
        // Or at the first word that is, or may be, a password, when that comes first.
        let found = secrets(&["Tr0ub4dor&3"], &["zz9"]);
        assert_eq!(
            found.quote_unread("limit move alice Tr0ub4dor&3 4-1,3"),
            "limit move alice ..."
        );
        assert_eq!(
            found.quote_unread("limit show 101 zz9"),
            "limit show 101 ..."
        );
        // A placeholder is no password; a line with no password place is quoted whole.
        assert_eq!(
            none.quote_unread("limit move 101 bob <password> 1-2,3 x"),
            "limit move 101 bob <password> 1-2,3 x"
        );
        assert_eq!(none.quote_unread("lunch on friday?"), "lunch on friday?");
        // A board mail's Subject: up to what is written after it.
        assert_eq!(
            none.quote_unread("Limit Board 101 bob secret 1-2,3"),
            "Limit Board 101 bob ..."
        );
    }

    #[test]
    fn an_explanation_names_no_word_past_the_quote_that_may_be_a_password() {
        let none = secrets(&[], &[]);
        let line = "set bob pw subject fixed";
        // `fixed` is past the password and was checked: it is no password, so it may be named.
        assert_eq!(
            none.explain_unread("'fixed' is not a subject", line)
                .as_deref(),
            Some("'fixed' is not a subject")
        );
        // The word in the password's place is named `...`; named elsewhere, nothing is shown.
        assert_eq!(
            none.explain_unread("'pw' is odd", line).as_deref(),
            Some("'...' is odd")
        );
        assert_eq!(none.explain_unread("did you mean: set bob pw", line), None);
        // The example line after "did you mean:" is the player's words.
        let suspects = secrets(&[], &["alice", "pw"]);
        assert_eq!(
            suspects
                .explain_unread(
                    "'sigup alice' is not a command; did you mean:\n    signup alice <password>",
                    "sigup alice pw"
                )
                .as_deref(),
            Some("'sigup ...' is not a command; did you mean:\n    signup ... <password>")
        );
        let suspect = secrets(&[], &["robert');DROP"]);
        assert_eq!(
            suspect
                .explain_unread("'robert');DROP' is not a userid", "signup robert');DROP pw")
                .as_deref(),
            Some("'...' is not a userid")
        );
    }

    #[test]
    fn a_parsed_command_is_rebuilt_with_its_password_places_written_as_such() {
        let cmd = command::parse("limit move 101 secret bob 1-2,3").unwrap();
        assert_eq!(
            secrets(&[], &[]).quote_command(&cmd),
            "limit move 101 secret <password> 1-2,3"
        );
        // The password found in the userid's place is not quoted either.
        assert_eq!(
            secrets(&["secret"], &[]).quote_command(&cmd),
            "limit move 101 <password> <password> 1-2,3"
        );
        // A short password is no part of a longer word.
        let cmd = command::parse("limit move 101 alice a 1-2,3").unwrap();
        assert_eq!(
            secrets(&[], &[]).quote_command(&cmd),
            "limit move 101 alice <password> 1-2,3"
        );
        let cmd = command::parse("limit challenge --password=pw alice bob").unwrap();
        assert_eq!(
            secrets(&[], &[]).quote_command(&cmd),
            "limit challenge --password=<password> alice bob"
        );
    }
}

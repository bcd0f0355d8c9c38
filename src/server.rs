//! The server: turns commands (from mail or from the shell) into changes of the stored games and the
//! mails that report them.
//!
//! Parse, then validate: [`crate::command`] makes a raw command of a line of text; here it is checked
//! against the accounts, the stored games and the rules. Each incoming mail is handled in one database
//! transaction that also records its Message-ID and queues its replies, so a mail is acted on exactly once
//! and its replies are never lost; the replies are sent after the commit.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::time::Duration;

use crate::accounts;
use crate::command::{self, GameCommand, GamesFilter, RawCommand};
use crate::config::Config;
use crate::games::{self, GameRules, GameState, Status};
use crate::mail_in::{self, Incoming, MailLimits};
use crate::mail_out::{self, Mailer, OutgoingMail};
use crate::storage::{
    Comment, Db, GameFilter, GameRow, Listed, LoginState, SavedStatus, StorageError, Tx, User,
};
use crate::summary::{self, Summary};

// Correspondence play (issue 4), one concern a file; each adds `impl Core` blocks.
mod addresses; // addresses that wait for confirmation, `confirm`
mod clock; // nags, forfeits, vacations, `pbem cron`
mod consent; // who agreed to a game, so that only agreed games are rated
mod message; // player-to-player mail: `message`
mod overrides; // the admin's overrides at the shell: password, end, replace, undo
mod proposals; // undo and draw proposals, queued moves
mod reset; // a forgotten password: `password reset`, `password set`
mod social; // subscriptions, notifications, challenge limits and accept/reject lists
mod standings; // Elo ratings, standings, the history of finished games

pub use clock::CronReport;
pub use overrides::Override;

/// A failure of the server itself (not of a player's command: those are answered by mail).
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The database failed.
    #[error(transparent)]
    Storage(#[from] StorageError),
    /// The mail transport could not be set up.
    #[error("mail transport: {0}")]
    Mail(String),
    /// Reading input failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

impl ServerError {
    /// True when trying again later may succeed (the MTA should retry: exit 75).
    pub fn is_temporary(&self) -> bool {
        match self {
            ServerError::Storage(e) => e.is_temporary(),
            ServerError::Mail(_) => false,
            ServerError::Io(_) => true,
        }
    }
}

/// What became of one incoming message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IngestOutcome {
    /// Acted on; this many mails were queued.
    Handled {
        /// Mails queued (and tried at once).
        mails: usize,
    },
    /// The same message was processed before: nothing done.
    Duplicate,
    /// Mail that must not be answered (bounce, autoreply, list, our own): nothing done.
    Silent(String),
    /// No address to answer to: dropped.
    Dropped(String),
}

/// What a command run from the shell did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdminOutcome {
    /// False when the command was refused.
    pub ok: bool,
    /// The answer, as the sender of the command by mail would have read it.
    pub text: String,
}

/// What `outbox flush` did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FlushReport {
    /// Mails sent.
    pub sent: usize,
    /// Mails that failed this time (left for the next flush).
    pub failed: usize,
    /// Mails a killed sender's sendmail hand-off had delivered: recorded as sent, not sent again.
    pub delivered_earlier: usize,
}

/// Who sent a command, and what to answer to.
struct Origin {
    /// The address replies go to; `None` for the admin at the shell.
    reply_to: Option<String>,
    /// The incoming Message-ID, for threading.
    message_id: Option<String>,
    references: Vec<String>,
}

/// One mail that a command produces, before it gets its headers.
struct Letter {
    to: Vec<String>,
    subject: String,
    body: String,
    /// True for the answer to the sender (auto-replied, threaded); false for mail to others
    /// (auto-generated).
    reply: bool,
    /// The board as SVG, for the picture of a board mail (`mail.pictures`).
    picture: Option<String>,
}

/// What one command did.
struct Outcome {
    ok: bool,
    /// What the admin sees, or the sender's reply when `reply_to_sender` is set.
    text: String,
    subject: String,
    /// Send `subject`/`text` to the sender (errors, show, help, ...). Board mails to players are in
    /// `letters` instead.
    reply_to_sender: bool,
    letters: Vec<Letter>,
}

impl Outcome {
    fn reply(subject: String, text: String) -> Outcome {
        Outcome {
            ok: true,
            text,
            subject,
            reply_to_sender: true,
            letters: Vec::new(),
        }
    }

    /// A notice mailed to a player's registered addresses only (not to whoever sent the command), so
    /// that account changes reach the account's owner.
    fn notice(subject: String, text: String, to: Vec<String>) -> Outcome {
        Outcome {
            ok: true,
            letters: vec![Letter {
                to,
                subject: subject.clone(),
                body: text.clone(),
                reply: false,
                picture: None,
            }],
            text,
            subject,
            reply_to_sender: false,
        }
    }

    /// Nothing done and nothing said (a dropped unsolicited challenge).
    fn silent() -> Outcome {
        Outcome {
            ok: false,
            text: String::new(),
            subject: String::new(),
            reply_to_sender: false,
            letters: Vec::new(),
        }
    }

    fn error(subject: String, text: String) -> Outcome {
        Outcome {
            ok: false,
            text,
            subject,
            reply_to_sender: true,
            letters: Vec::new(),
        }
    }
}

/// A refused command: the message for the player, and the game it concerns (for the error subject and
/// the board shown under the message).
struct Refusal {
    message: String,
    board: Option<(String, u32)>,
}

impl Refusal {
    fn new(message: impl Into<String>) -> Refusal {
        Refusal {
            message: message.into(),
            board: None,
        }
    }

    fn on(message: impl Into<String>, game_type: &str, board: u32) -> Refusal {
        Refusal {
            message: message.into(),
            board: Some((game_type.to_string(), board)),
        }
    }
}

/// Either a command's outcome, a refusal to answer with an error mail, or a storage failure that aborts
/// the whole message.
enum Failure {
    Refused(Refusal),
    Storage(StorageError),
}

impl From<StorageError> for Failure {
    fn from(e: StorageError) -> Self {
        Failure::Storage(e)
    }
}

impl From<Refusal> for Failure {
    fn from(r: Refusal) -> Self {
        Failure::Refused(r)
    }
}

type Step<T> = std::result::Result<T, Failure>;

/// The server: configuration, database and mail transport.
pub struct Server {
    db: Db,
    core: Core,
    /// With [`Server::defer_sending`], the mails of ingested messages wait here for
    /// [`Server::send_deferred`] (claimed in the outbox, so a server that dies first leaves them to
    /// the next flush).
    defer_sending: bool,
    deferred: Vec<(Vec<i64>, Vec<OutgoingMail>)>,
}

/// Everything but the database: the commands run on a transaction of it, which borrows the database.
struct Core {
    cfg: Config,
    mailer: Mailer,
    now: i64,
    seed: Option<u64>,
    /// Seats `(game id, seat)` whose player agreed to their game by the command being carried out
    /// (their first act on it with the password): taken back if the command is refused, since a
    /// refused command changes nothing.
    agreeing: RefCell<Vec<(i64, usize)>>,
    /// Set when a userid and password did not match during the command being carried out: then its
    /// words may hold a password out of place (see [`Core::suspect_words`]).
    login_refused: Cell<bool>,
    /// Set once the mail being handled caused a confirmation mail: one mail causes at most one.
    confirmation_sent: Cell<bool>,
    /// The password checks of the mail (or shell command) being handled (see [`Core::precheck`]).
    logins: RefCell<Logins>,
}

/// The password checks of one mail: who sent it, what was checked, and how many argon2 runs it cost.
#[derive(Debug, Default)]
struct Logins {
    /// The mail's reply address, which the throttle counts by; `None` for the admin at the shell.
    sender: Option<String>,
    /// By (lowercase userid, password): checks made before the write lock.
    checked: HashMap<(String, String), Checked>,
    /// argon2 runs spent on this mail's password checks so far.
    runs: u32,
}

/// The result of a password check made before the write lock.
#[derive(Debug, Clone)]
enum Checked {
    /// Verified against this stored hash; true when it matched.
    Hash(String, bool),
    /// Unknown or signed-off userid: the equal-time dummy check was spent.
    Burned,
    /// The sender or the account had too many wrong passwords in the last hour: not checked.
    Throttled,
    /// The mail had used up its password checks: not checked.
    TooMany,
}

/// The longest a robot account thinks over a move: it thinks while the mail's transaction holds the
/// database's write lock, so other mails wait that long at most.
const ROBOT_THINKING_MILLIS: u64 = 2_000;

/// How far back the password throttle counts, in seconds.
const THROTTLE_WINDOW: i64 = 3600;

impl Server {
    /// Opens the database named in the configuration and sets up the mail transport. `now` is the clock
    /// (unix seconds) used for everything this server does.
    pub fn open(cfg: Config, now: i64) -> Result<Server, ServerError> {
        let db = Db::open(
            &cfg.database.path,
            Duration::from_millis(cfg.database.busy_timeout_ms),
        )?;
        Server::on(db, cfg, now)
    }

    /// A server on a private in-memory database (fuzzing and tests): like [`Server::open`] but nothing
    /// outlives the value; mail goes to the configured transport.
    pub fn open_in_memory(cfg: Config, now: i64) -> Result<Server, ServerError> {
        Server::on(Db::open_in_memory()?, cfg, now)
    }

    fn on(db: Db, cfg: Config, now: i64) -> Result<Server, ServerError> {
        let mailer = Mailer::from_config(&cfg).map_err(|e| ServerError::Mail(e.to_string()))?;
        Ok(Server {
            db,
            defer_sending: false,
            deferred: Vec::new(),
            core: Core {
                cfg,
                mailer,
                now,
                seed: None,
                agreeing: RefCell::new(Vec::new()),
                login_refused: Cell::new(false),
                confirmation_sent: Cell::new(false),
                logins: RefCell::new(Logins::default()),
            },
        })
    }

    /// Fixes the seed of every new game's random layout (the demo and tests use it, through
    /// `PBEM_SEED`; players cannot choose it).
    pub fn with_seed(mut self, seed: Option<u64>) -> Server {
        self.core.seed = seed;
        self
    }

    /// Makes [`Server::ingest`] leave the sending of its mails to [`Server::send_deferred`]: the LMTP
    /// server answers the MTA once a mail is committed, then sends (drawing a board picture, talking
    /// to the relay) while the client goes on.
    pub fn defer_sending(mut self, defer: bool) -> Server {
        self.defer_sending = defer;
        self
    }

    /// Sends the mails that [`Server::ingest`] left with `defer_sending`.
    pub fn send_deferred(&mut self) {
        for (ids, mails) in std::mem::take(&mut self.deferred) {
            self.core.send_claimed(&self.db, &ids, &mails);
        }
    }

    /// Moves this server's clock (a long-lived server in a fuzzer or test; the binary sets it once).
    pub fn set_now(&mut self, now: i64) {
        self.core.now = now;
        *self.core.logins.borrow_mut() = Logins::default();
    }

    /// The open database (for inspection by tools and tests).
    pub fn db(&self) -> &Db {
        &self.db
    }

    /// Handles one RFC 5322 message: acts on its commands and queues and sends the replies.
    pub fn ingest(&mut self, raw: &[u8]) -> Result<IngestOutcome, ServerError> {
        let names: Vec<&str> = games::registry().iter().map(|g| g.name()).collect();
        let incoming = mail_in::parse(
            raw,
            &self.core.limits(),
            &self.core.cfg.server.address,
            &names,
        );
        if let Some(reason) = &incoming.silent {
            return Ok(IngestOutcome::Silent(reason.to_string()));
        }
        let Some(reply_to) = incoming.reply_to.clone() else {
            return Ok(IngestOutcome::Dropped(
                "no From or Reply-To address to answer to".into(),
            ));
        };
        if let Err(e) = accounts::check_address(&reply_to) {
            return Ok(IngestOutcome::Dropped(format!(
                "the reply address is unusable: {e}"
            )));
        }
        let origin = Origin {
            reply_to: Some(reply_to),
            message_id: incoming.message_id.clone(),
            references: incoming.references.clone(),
        };
        if raw.len() > self.core.cfg.limits.max_message_bytes {
            return self.core.refuse_oversized(&mut self.db, &incoming, &origin);
        }
        self.core
            .precheck(&self.db, &incoming.commands, origin.reply_to.clone())?;
        let mut tx = self.db.transaction()?;
        if tx.is_processed(&incoming.key)? {
            return Ok(IngestOutcome::Duplicate);
        }
        let outcomes = self.core.run_mail_commands(&mut tx, &incoming, &origin)?;
        let mails = self.core.letters_to_mails(&tx, &origin, outcomes)?;
        let ids = queue(&tx, &mails, self.core.now)?;
        tx.mark_processed(&incoming.key, self.core.now)?;
        tx.commit()?;
        let count = mails.len();
        if self.defer_sending {
            self.deferred.push((ids, mails));
        } else {
            self.core.send_claimed(&self.db, &ids, &mails);
        }
        Ok(IngestOutcome::Handled { mails: count })
    }

    /// Runs one command line as the admin at the shell: it changes the games exactly as by mail and mails
    /// the players the same way; the answer is returned instead of mailed.
    pub fn run_admin(&mut self, line: &str, comment: &str) -> Result<AdminOutcome, ServerError> {
        let origin = Origin {
            reply_to: None,
            message_id: None,
            references: Vec::new(),
        };
        self.core.precheck(&self.db, &[line.to_string()], None)?;
        let mut tx = self.db.transaction()?;
        let outcome = self.core.execute(&mut tx, line, comment, &origin, &[])?;
        let ok = outcome.ok;
        let text = outcome.text.clone();
        let mails = self.core.letters_to_mails(&tx, &origin, vec![outcome])?;
        let ids = queue(&tx, &mails, self.core.now)?;
        tx.commit()?;
        self.core.send_claimed(&self.db, &ids, &mails);
        Ok(AdminOutcome { ok, text })
    }

    /// Sends what the outbox still holds (mail whose sending failed or was interrupted).
    pub fn flush_outbox(&mut self) -> Result<FlushReport, ServerError> {
        let mut report = FlushReport::default();
        let keep = i64::from(self.core.cfg.mail.outbox_keep_days) * 86_400;
        self.db.prune_sent(self.core.now - keep)?;
        // A claim older than this belongs to a sender that died.
        let stale_before = self.core.now - 600;
        loop {
            let rows = self.db.claim_unsent(self.core.now, stale_before, 100)?;
            if rows.is_empty() {
                return Ok(report);
            }
            let mut any_failed = false;
            for row in rows {
                let now = self.core.now;
                // Delivered by the hand-off of a sender that died before recording it: not again.
                if self.core.mailer.handed_off_status(row.id) == Some(true) {
                    self.db.mark_sent(row.id, now)?;
                    report.delivered_earlier += 1;
                    continue;
                }
                let db = &self.db;
                let sent = match serde_json::from_str::<OutgoingMail>(&row.mail) {
                    Ok(mail) => self
                        .core
                        .mailer
                        .send_outbox(
                            &mail,
                            row.id,
                            |to| db.hand_over_claim(row.id, to).map_err(|e| e.to_string()),
                            || db.mark_sent(row.id, now),
                        )
                        .map_err(|e| e.to_string()),
                    Err(e) => Err(format!("unreadable: {e}")),
                };
                match sent {
                    Ok(recorded) => {
                        recorded?;
                        report.sent += 1;
                    }
                    Err(e) => {
                        self.db.mark_failed(row.id, &e)?;
                        report.failed += 1;
                        any_failed = true;
                    }
                }
            }
            if any_failed {
                // Failed mails were released; trying them again at once would only fail again.
                return Ok(report);
            }
        }
    }
}

impl Core {
    /// Checks the passwords of these command lines before the write lock is taken, so that the argon2
    /// work (tens of milliseconds each) of one process does not hold up every other process. Inside the
    /// transaction, [`Core::authenticate`] uses the result only if the stored hash is still the one
    /// checked here, and records the wrong passwords. `sender` is the mail's reply address (`None`
    /// at the shell). A sender past its hourly allowance of wrong passwords, and every check past the
    /// mail's allowance, is not checked at all: no argon2 run.
    fn precheck(
        &self,
        db: &Db,
        lines: &[String],
        sender: Option<String>,
    ) -> Result<(), StorageError> {
        let mut logins = Logins {
            sender,
            ..Logins::default()
        };
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
        *self.logins.borrow_mut() = logins;
        Ok(())
    }

    /// True when a password from this sender for this account is not to be checked now.
    fn throttled(&self, state: &LoginState) -> bool {
        let l = &self.cfg.limits;
        if state.sender_registered {
            // A registered address has its own allowance for its account: strangers cannot use it up.
            state.sender_failures >= l.password_failures_per_sender_per_hour
        } else {
            state.sender_failures >= l.password_failures_per_sender_per_hour
                || state.account_failures >= l.password_failures_per_account_per_hour
        }
    }

    /// The answer to a mail larger than `max_message_bytes`: nothing of it is acted on, and the
    /// sender is told so (once: the mail counts as processed).
    fn refuse_oversized(
        &self,
        db: &mut Db,
        incoming: &Incoming,
        origin: &Origin,
    ) -> Result<IngestOutcome, ServerError> {
        let max = self.cfg.limits.max_message_bytes;
        let size = if max.is_multiple_of(1024) {
            format!("{} KiB", max / 1024)
        } else {
            format!("{max} bytes")
        };
        let text = summary::error_body(
            &format!(
                "Your mail is larger than {size}, the most this server reads; nothing was done. \
                 Send the command again in a short plain-text mail: without attachments, pictures \
                 or a long quoted conversation."
            ),
            None,
            &command::redact_line(&incoming.subject),
        );
        let tx = db.transaction()?;
        if tx.is_processed(&incoming.key)? {
            return Ok(IngestOutcome::Duplicate);
        }
        let outcome = Outcome::error(summary::error_subject(None, None), text);
        let mails = self.letters_to_mails(&tx, origin, vec![outcome])?;
        let ids = queue(&tx, &mails, self.now)?;
        tx.mark_processed(&incoming.key, self.now)?;
        tx.commit()?;
        self.send_claimed(db, &ids, &mails);
        Ok(IngestOutcome::Handled { mails: mails.len() })
    }

    fn limits(&self) -> MailLimits {
        let l = &self.cfg.limits;
        MailLimits {
            max_bytes: l.max_message_bytes,
            max_lines: l.max_body_lines,
            max_parts: l.max_mime_parts,
            max_commands: l.max_commands_per_mail,
        }
    }

    /// Carries out a mail's commands, then hides in everything they answer and send every word of
    /// the mail that may be a password (see [`Core::suspect_words`]).
    fn run_mail_commands(
        &self,
        tx: &mut Tx<'_>,
        incoming: &Incoming,
        origin: &Origin,
    ) -> Result<Vec<Outcome>, StorageError> {
        self.confirmation_sent.set(false);
        // The comment is stored and shown to the other players: hide the suspects before it is.
        let parsed: Vec<&str> = incoming
            .commands
            .iter()
            .map(String::as_str)
            .filter(|l| command::parse(l).is_ok())
            .collect();
        let before = self.suspect_words(tx, incoming, &parsed)?;
        let before: Vec<&str> = before.iter().map(String::as_str).collect();
        let comment = command::mask_words(&incoming.comment, &before);
        let mut clean = Vec::new();
        let mut outcomes = self.run_commands(tx, incoming, origin, &comment, &mut clean)?;
        // Again after the commands, which may have registered a userid that was a suspect, and
        // leaving out the lines that were read and logged in as written: their password was in its
        // place, so their other words are quoted back as they are.
        let after = self.suspect_words(tx, incoming, &clean)?;
        let after: Vec<&str> = after.iter().map(String::as_str).collect();
        let hide = |text: &str| command::mask_words(text, &after);
        for o in &mut outcomes {
            o.text = hide(&o.text);
            o.subject = hide(&o.subject);
            for l in &mut o.letters {
                l.body = hide(&l.body);
                l.subject = hide(&l.subject);
            }
        }
        Ok(outcomes)
    }

    /// Every word of a mail's command lines, Subject, and comment lines that look like a mistyped
    /// command, that may be a password: the password positions of each line, and every word that is
    /// not part of the command language, a number, a move or a registered userid. Mail the server
    /// writes and rows it stores must contain none of them as a word.
    /// `clean` are command lines left out (ones that parsed and passed their password check, or
    /// needed none). Registered userids are not suspects: they are public (boards, standings), and
    /// hiding them would spoil the boards that answers show.
    fn suspect_words(
        &self,
        tx: &Tx<'_>,
        incoming: &Incoming,
        clean: &[&str],
    ) -> Result<Vec<String>, StorageError> {
        let names: Vec<&str> = games::registry().iter().map(|g| g.name()).collect();
        let lines = incoming
            .commands
            .iter()
            .map(String::as_str)
            .chain([incoming.subject.as_str()])
            .chain(incoming.comment.lines())
            .filter(|l| !clean.contains(l));
        let mut words: Vec<String> = Vec::new();
        for line in lines {
            words.extend(
                command::line_passwords(line)
                    .into_iter()
                    .map(str::to_string),
            );
            for w in command::suspect_words(line, &names) {
                if tx.user(w)?.is_none() {
                    words.push(w.to_string());
                }
            }
        }
        words.sort();
        words.dedup();
        Ok(words)
    }

    fn run_commands<'a>(
        &self,
        tx: &mut Tx<'_>,
        incoming: &'a Incoming,
        origin: &Origin,
        comment: &str,
        clean: &mut Vec<&'a str>,
    ) -> Result<Vec<Outcome>, StorageError> {
        if incoming.commands.is_empty() {
            // A Subject that names a game but no command of it ("limit frobnicate 101") was meant as
            // a command: say what is wrong with it. A reply's "Limit Board 101 bob" was not.
            let mut words = incoming.subject.split_whitespace();
            let first = words.next().unwrap_or("");
            let second = words.next().unwrap_or("");
            let game_named = games::find(first).is_some() && !second.eq_ignore_ascii_case("board");
            // "chess show 101": a game command word after an unknown game's name.
            let unknown_game = command::looks_like_command(&incoming.subject, &[first]);
            // "New Limit Board 101 alice", "Nag: Limit Board 101 alice": a reply to our own mail,
            // although "Limit" after "New" reads like a game command word.
            // "pbem help", "pbem signup alice": the Subject of one of the server's own answers.
            let reply = command::is_board_mail_subject(&incoming.subject)
                || first.eq_ignore_ascii_case(&self.cfg.server.name);
            if (game_named || unknown_game) && !reply {
                return Ok(vec![self.execute(
                    tx,
                    &incoming.subject,
                    "",
                    origin,
                    &[],
                )?]);
            }
            let example = self.example_move(tx, origin)?;
            let text = summary::error_body(
                &format!(
                    "Your mail holds no command. Write the command in the Subject, for example\n\
                     \n    {example}\n\n\
                     with your own password in place of <password>, and anything in the body is \
                     shown to the other players as your comment. Or reply to a board mail with the \
                     command on a line of its own. Send `help` in the Subject for every command.{}",
                    notes_text(&incoming.notes)
                ),
                None,
                &command::redact_line(&incoming.subject),
            );
            return Ok(vec![Outcome::error(
                summary::error_subject(None, None),
                text,
            )]);
        }
        let mut all: Vec<String> = Vec::new();
        // The Subject too: when the commands are in the body, a Subject that looked like a command
        // may still hold a password that a body line repeats (the fuzzer found one).
        for line in incoming.commands.iter().chain([&incoming.subject]) {
            all.extend(
                command::line_passwords(line)
                    .into_iter()
                    .map(str::to_string),
            );
            if let Ok(cmd) = command::parse(line) {
                all.extend(cmd.passwords().into_iter().map(str::to_string));
            }
        }
        all.sort();
        all.dedup();
        let mut outcomes = Vec::new();
        let mut result = Ok(());
        for line in &incoming.commands {
            self.login_refused.set(false);
            match self.execute(tx, line, comment, origin, &all) {
                Ok(o) => {
                    // Clean: read as written, and either carried out or refused after its password
                    // was found right (so the password stood in its place).
                    let clean_line = command::parse(line).is_ok_and(|cmd| {
                        !self.login_refused.get() && (o.ok || !cmd.passwords().is_empty())
                    });
                    if clean_line {
                        clean.push(line.as_str());
                    }
                    outcomes.push(o)
                }
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        // What goes back to the sender hides every password of the mail, wherever a command's
        // answer repeats it (the fuzzer wrote one inside another command's userid).
        for o in &mut outcomes {
            if o.reply_to_sender {
                o.text = mask(&o.text, &all);
                o.subject = mask(&o.subject, &all);
            }
        }
        result.map(|()| outcomes)
    }

    /// A move command to show as an example: the sender's own userid and one of their boards when the
    /// sender is a registered player, with `<password>` where the password goes. The placeholder is
    /// refused before any password check, so an autoresponder that echoes the example costs nothing.
    fn example_move(&self, tx: &Tx<'_>, origin: &Origin) -> Result<String, StorageError> {
        let game = games::registry().first().map_or("limit", |g| g.name());
        let userid = match &origin.reply_to {
            Some(a) => tx.userid_at_address(a)?,
            None => None,
        };
        let board = match &userid {
            Some(u) => tx.an_active_board(u, game)?,
            None => None,
        };
        let userid = userid.unwrap_or_else(|| "<userid>".to_string());
        Ok(format!(
            "{game} move {} {userid} <password> 3-7,4",
            board.unwrap_or(101)
        ))
    }

    /// Sends mails that this process queued and claimed in the transaction it just committed.
    /// Returns how many were sent.
    fn send_claimed(&self, db: &Db, ids: &[i64], mails: &[OutgoingMail]) -> usize {
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
    fn letters_to_mails(
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

    fn mail(
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

    /// Parses, validates and carries out one command line. `mail_passwords` are every password written
    /// in the mail the line came from: what the answer quotes back hides them too, not only the line's
    /// own (found by fuzzing: a move's text holding the next line's password).
    fn execute(
        &self,
        tx: &mut Tx<'_>,
        line: &str,
        comment: &str,
        origin: &Origin,
        mail_passwords: &[String],
    ) -> Result<Outcome, StorageError> {
        let parsed = command::parse(line);
        let game_word = line.split_whitespace().next().map(str::to_lowercase);
        let cmd = match parsed {
            Ok(cmd) => cmd,
            Err(e) => {
                let word = game_word.filter(|w| games::find(w).is_some());
                return Ok(Outcome::error(
                    summary::error_subject(None, word.as_deref()),
                    summary::error_body(
                        &mask(&e.to_string(), mail_passwords),
                        None,
                        &mask(&command::redact_line(line), mail_passwords),
                    ),
                ));
            }
        };
        let mut passwords: Vec<String> = cmd.passwords().iter().map(|p| p.to_string()).collect();
        passwords.extend(mail_passwords.iter().cloned());
        let comment = mask(comment, &passwords);
        let quoted = format!("{}\n{}", mask(&cmd.redacted(), &passwords), comment);
        self.agreeing.borrow_mut().clear();
        let done = self.dispatch(tx, &cmd, &comment, origin);
        let agreeing = std::mem::take(&mut *self.agreeing.borrow_mut());
        if !matches!(&done, Ok(o) if o.ok) {
            for (game_id, seat) in agreeing {
                tx.unagree(game_id, seat)?;
            }
        }
        match done {
            Ok(o) => Ok(o),
            Err(Failure::Storage(e)) => Err(e),
            Err(Failure::Refused(r)) => {
                // The game word goes into the Subject: only a plain word (the parser takes any
                // word here; the fuzzer sent one with NULs, and the answer could not be built).
                let game_word = match &cmd {
                    RawCommand::Game { game, .. }
                        if game.len() <= 20
                            && game
                                .chars()
                                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') =>
                    {
                        Some(game.as_str())
                    }
                    _ => None,
                };
                let (subject, board) = match &r.board {
                    Some((game_type, board)) => {
                        let title = games::find(game_type).map_or("Game", |g| g.title());
                        let shown = self.board_text(tx, game_type, *board)?;
                        (
                            summary::error_subject(Some((title, *board)), game_word),
                            shown,
                        )
                    }
                    None => (summary::error_subject(None, game_word), None),
                };
                Ok(Outcome::error(
                    subject,
                    summary::error_body(&r.message, board.as_deref(), &quoted),
                ))
            }
        }
    }

    /// The current summary of a board, if it exists and loads (for error mails).
    fn board_text(
        &self,
        tx: &Tx<'_>,
        game_type: &str,
        board: u32,
    ) -> Result<Option<String>, StorageError> {
        let Some(rules) = games::find(game_type) else {
            return Ok(None);
        };
        let Some(row) = tx.game(game_type, board)? else {
            return Ok(None);
        };
        let Ok(state) = rules.load(&row.state) else {
            return Ok(None);
        };
        Ok(Some(self.summary(tx, rules, &row, state.as_ref(), &[])?))
    }

    /// A board's summary as its mails show it, with what the server adds to the game itself: open
    /// proposals and vacations under the status, rating changes, subscribers.
    fn summary(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        row: &GameRow,
        state: &dyn GameState,
        comments: &[Comment],
    ) -> Result<String, StorageError> {
        let players = userids(row);
        let mut status_notes = self.proposal_lines(tx, rules, row, state)?;
        status_notes.extend(self.agreement_lines(tx, rules, row, state)?);
        status_notes.extend(self.away_lines(tx, row)?);
        // `show 101#5` of a finished game shows a position before its end: no rating changes there.
        let rating_changes = if matches!(state.status(), Status::Over(_)) {
            self.rating_lines(tx, row)?
        } else {
            Vec::new()
        };
        let subscribers = self.subscriber_names(tx, row)?;
        Ok(Summary {
            title: rules.title(),
            board: row.board,
            state,
            players: &players,
            comments,
            status_notes: &status_notes,
            rating_changes: &rating_changes,
            subscribers: &subscribers,
            started: row.created_at,
            last_move: row.updated_at,
            now: self.now,
            time_used: &tx.time_used(row.id)?,
        }
        .render())
    }

    fn dispatch(
        &self,
        tx: &mut Tx<'_>,
        cmd: &RawCommand,
        comment: &str,
        origin: &Origin,
    ) -> Step<Outcome> {
        match cmd {
            RawCommand::Help { subject } => self.help(subject),
            RawCommand::List { games } => self.list(tx, games),
            RawCommand::Confirm { userid, code } => self.confirm(tx, userid, code, origin),
            RawCommand::Signup {
                userid,
                password,
                addresses,
            } => self.signup(tx, userid, password, addresses, origin),
            RawCommand::ChangePassword { userid, old, new } => {
                self.change_password(tx, userid, old, new)
            }
            RawCommand::ChangeAddress {
                userid,
                password,
                addresses,
            } => self.change_address(tx, userid, password, addresses, origin),
            RawCommand::Signoff { userid, password } => self.signoff(tx, userid, password),
            RawCommand::PasswordReset { userid } => self.password_reset(tx, userid, origin),
            RawCommand::Message {
                userid,
                password,
                to,
            } => self.message(tx, userid, password, to, comment),
            RawCommand::PasswordSet { userid, code, new } => {
                self.password_set(tx, userid, code, new, origin)
            }
            RawCommand::Vacation {
                userid,
                password,
                days,
            } => self.vacation(tx, userid, password, *days, origin),
            RawCommand::Game { game, command } => {
                let rules = games::find(game).ok_or_else(|| {
                    Refusal::new(format!(
                        "This server hosts no game called '{game}'. It hosts: {}. \
                         Send `list` for the list, or `<game> help` for a game's rules.",
                        game_names()
                    ))
                })?;
                self.game_command(tx, rules, command, comment, origin)
            }
        }
    }

    fn help(&self, subject: &[String]) -> Step<Outcome> {
        match subject.first() {
            None => Ok(Outcome::reply("pbem help".into(), general_help(&self.cfg))),
            // `help limit` is the game's rules; `help limit move` how that command is written.
            Some(word) => match games::find(word).filter(|_| subject.len() == 1) {
                Some(rules) => Ok(Outcome::reply(
                    format!("{} help", rules.title()),
                    rules.help(),
                )),
                None => match command::command_usage(subject) {
                    Some(usage) => Ok(Outcome::reply(
                        format!("pbem help {}", subject.join(" ")),
                        format!(
                            "How to write it:\n\n  {}\n\nSend `help` for every command and what it \
                             does, or `help <game>` for a game's rules; the games are: {}.\n",
                            usage.replace('\n', "\n  "),
                            game_names()
                        ),
                    )),
                    None => {
                        let hint = command::nearest_command(word)
                            .map(|c| format!(" Did you mean '{c}'?"))
                            .unwrap_or_default();
                        Err(Refusal::new(format!(
                            "There is no help on '{}'.{hint} Send `help` for the commands, or \
                             `help <game>` for a game's rules; the games are: {}.",
                            subject.join(" "),
                            game_names()
                        ))
                        .into())
                    }
                },
            },
        }
    }

    /// `list [gametype...]`: the games this server hosts; with names, those games with how many
    /// are running and finished.
    fn list(&self, tx: &Tx<'_>, names: &[String]) -> Step<Outcome> {
        let chosen: Vec<&'static dyn GameRules> = if names.is_empty() {
            games::registry().to_vec()
        } else {
            names
                .iter()
                .map(|n| {
                    games::find(n).ok_or_else(|| {
                        Refusal::new(format!(
                            "This server hosts no game called '{n}'. It hosts: {}.",
                            game_names()
                        ))
                    })
                })
                .collect::<Result<_, _>>()?
        };
        let mut text = format!("Games hosted by {}:\n\n", self.cfg.server.name);
        for g in chosen {
            let p = g.players();
            text.push_str(&format!(
                "  {:<10} {} ({}-{} players): send `{} help` for the rules\n",
                g.name(),
                g.title(),
                p.start(),
                p.end(),
                g.name()
            ));
            if !names.is_empty() {
                let (running, finished) = tx.game_counts(g.name())?;
                text.push_str(&format!(
                    "  {:<10} {running} running, {finished} finished; `{} games <userid> next` \
                     lists a player's games waiting for them\n",
                    "",
                    g.name()
                ));
            }
        }
        Ok(Outcome::reply(
            format!("{} games", self.cfg.server.name),
            text,
        ))
    }

    /// Checks a userid and password. Unknown userids, wrong passwords and throttled attempts get the
    /// same answer, so that the answer tells a guesser nothing. Nothing locks an account: a wrong
    /// password is recorded, and a sender past its hourly allowance is not checked (see
    /// [`Core::throttled`]); the account's registered addresses keep their own allowance.
    fn authenticate(&self, tx: &Tx<'_>, userid: &str, password: &str) -> Step<User> {
        let limits = &self.cfg.limits;
        let refusal = || {
            self.login_refused.set(true);
            Refusal::new(format!(
                "The userid '{userid}' and that password do not match a registered player. \
                 Passwords are case-sensitive. To stop guessing, at most {} wrong passwords an \
                 hour are checked from one address, and at most {} an hour for one account from \
                 addresses not registered to it; past that, passwords from there are not checked \
                 until the hour has passed, and get this answer. Mail from an address registered \
                 to the account keeps its own {} an hour whatever anyone else sends, so it always \
                 works with the right password. To register, send `signup <userid> <password>`.",
                limits.password_failures_per_sender_per_hour,
                limits.password_failures_per_account_per_hour,
                limits.password_failures_per_sender_per_hour,
            ))
        };
        let mut logins = self.logins.borrow_mut();
        let key = (userid.to_lowercase(), password.to_string());
        let pre = logins.checked.get(&key).cloned();
        let too_many = || {
            self.login_refused.set(true);
            Refusal::new(format!(
                "Too many password checks in one mail (at most {}); send the rest in another mail.",
                limits.max_password_checks_per_mail
            ))
        };
        match pre {
            Some(Checked::TooMany) => return Err(too_many().into()),
            Some(Checked::Throttled) => return Err(refusal().into()),
            _ => {}
        }
        let sender = logins.sender.clone();
        let state = tx.login_state(userid, sender.as_deref(), self.now - THROTTLE_WINDOW)?;
        // Counted again inside the lock: an earlier line of this mail, or another process, may have
        // added failures since the check.
        if sender.is_some() && self.throttled(&state) {
            return Err(refusal().into());
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
            return Err(refusal().into());
        }
        match tx.user(userid)? {
            Some(user) => Ok(user),
            None => Err(refusal().into()),
        }
    }

    /// [`Core::authenticate`] for a command on a board: a refusal names the board (in the Subject,
    /// `Limit Board 101 Error`) and shows it, as every other refusal of a command on a board does. The
    /// board is public, so showing it to a wrong guesser tells nothing.
    fn authenticate_on(
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
                    Refusal::on(r.message, rules.name(), board).into()
                }
                other => other,
            })
    }

    fn addresses_or_sender(&self, addresses: &[String], origin: &Origin) -> Step<Vec<String>> {
        let list = if addresses.is_empty() {
            match &origin.reply_to {
                Some(a) => vec![a.clone()],
                None => {
                    return Err(Refusal::new(
                        "From the shell, give the player's mail address: \
                         `signup <userid> <password> <address>`.",
                    )
                    .into());
                }
            }
        } else {
            addresses.to_vec()
        };
        for a in &list {
            accounts::check_address(a).map_err(|e| Refusal::new(e.to_string()))?;
        }
        Ok(list)
    }

    fn signup(
        &self,
        tx: &Tx<'_>,
        userid: &str,
        password: &str,
        addresses: &[String],
        origin: &Origin,
    ) -> Step<Outcome> {
        accounts::check_userid(userid).map_err(|e| Refusal::new(e.to_string()))?;
        accounts::check_password(password).map_err(|e| Refusal::new(e.to_string()))?;
        let addresses = self.addresses_or_sender(addresses, origin)?;
        if tx.user(userid)?.is_some() {
            return Err(Refusal::new(format!(
                "The userid '{userid}' is taken. Choose another: `signup <userid> <password> [address...]`."
            ))
            .into());
        }
        let hash = accounts::hash_password(&self.cfg.passwords, password)
            .map_err(|e| Refusal::new(e.to_string()))?;
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
            text.push_str(&format!("\n{}\n", addresses::wrap(&waiting)));
        }
        let subject = format!("{} signup {userid}", self.cfg.server.name);
        let mut outcome = self.confirmation(subject, text, split.confirmed, origin);
        outcome.letters.extend(letter);
        Ok(outcome)
    }

    /// The answer to an account command: to the sender, and to the account's confirmed addresses.
    fn confirmation(
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
            }],
        }
    }

    fn change_password(&self, tx: &Tx<'_>, userid: &str, old: &str, new: &str) -> Step<Outcome> {
        accounts::check_password(new).map_err(|e| Refusal::new(e.to_string()))?;
        let user = self.authenticate(tx, userid, old)?;
        let hash = accounts::hash_password(&self.cfg.passwords, new)
            .map_err(|e| Refusal::new(e.to_string()))?;
        tx.set_password(user.id, Some(&hash))?;
        let text = format!("The password of {} has been changed.\n", user.userid);
        Ok(Outcome::notice(
            format!("{} password changed", self.cfg.server.name),
            text,
            user.addresses,
        ))
    }

    fn change_address(
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
            text.push_str(&format!("\n{}\n", addresses::wrap(&waiting)));
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

    fn signoff(&self, tx: &Tx<'_>, userid: &str, password: &str) -> Step<Outcome> {
        let user = self.authenticate(tx, userid, password)?;
        let active = tx.active_games(user.id)?;
        if active > 0 {
            return Err(Refusal::new(format!(
                "{} still plays {active} game(s). Finish or resign them first \
                 (`<game> resign <board> <userid> <password>`), then sign off.",
                user.userid
            ))
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

    fn load_game(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        board: u32,
    ) -> Step<(GameRow, Box<dyn GameState>)> {
        let row = tx.game(rules.name(), board)?.ok_or_else(|| {
            Refusal::new(format!(
                "There is no {} board {board}. Send `{} games <userid>` for a player's boards.",
                rules.title(),
                rules.name()
            ))
        })?;
        let state = rules.load(&row.state).map_err(|e| {
            Failure::Storage(StorageError::Corrupt(format!(
                "{} board {board}: {e}",
                rules.name()
            )))
        })?;
        Ok((row, state))
    }

    fn game_command(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        cmd: &GameCommand,
        comment: &str,
        origin: &Origin,
    ) -> Step<Outcome> {
        match cmd {
            GameCommand::Help => Ok(Outcome::reply(
                format!("{} help", rules.title()),
                rules.help(),
            )),
            GameCommand::Challenge {
                options,
                server_options,
                userids,
                password,
            } => self.challenge(
                tx,
                rules,
                options,
                server_options,
                userids,
                password.as_deref(),
                comment,
                origin,
            ),
            GameCommand::Move {
                board,
                userid,
                password,
                mv,
                guard,
            } => {
                if mv.trim().eq_ignore_ascii_case("resign") {
                    self.resign(tx, rules, *board, userid, password, comment)
                } else {
                    self.play(tx, rules, *board, userid, password, mv, *guard, comment)
                }
            }
            GameCommand::Resign {
                board,
                userid,
                password,
            } => self.resign(tx, rules, *board, userid, password, comment),
            GameCommand::Show { boards } => self.show(tx, rules, boards),
            GameCommand::History { board, page } => match board {
                Some(board) => self.history(tx, rules, *board),
                None => self.history_all(tx, rules, page.unwrap_or(1)),
            },
            GameCommand::Games { userids, filter } => self.games(tx, rules, userids, *filter),
            GameCommand::Preview { board, moves } => self.preview(tx, rules, *board, moves),
            GameCommand::Chat {
                board,
                userid,
                password,
            } => self.chat(tx, rules, *board, userid, password, comment),
            GameCommand::Ratings => self.ratings(tx, rules),
            GameCommand::Standings => self.standings(tx, rules),
            GameCommand::Subscribe { .. }
            | GameCommand::Unsubscribe { .. }
            | GameCommand::Notify { .. }
            | GameCommand::Limit { .. }
            | GameCommand::Accept { .. }
            | GameCommand::Reject { .. } => self.social_command(tx, rules, cmd),
            GameCommand::Propose {
                board,
                userid,
                password,
                kind,
                guard,
            } => self.propose(tx, rules, *board, userid, password, *kind, *guard, comment),
            GameCommand::Answer {
                board,
                userid,
                password,
                accept,
                guard,
            } => self.answer(
                tx, rules, *board, userid, password, *accept, *guard, comment,
            ),
            GameCommand::Queue {
                board,
                userid,
                password,
                mv,
                guard,
            } => self.queue_move(tx, rules, *board, userid, password, mv, *guard, comment),
        }
    }

    /// `<game> challenge`. The admin's challenge binds every player; by mail, only the first player
    /// and only with `--password`: the others (and a challenger without it) agree later by acting on
    /// the game, and the game counts for ratings only once all have. A player who received
    /// `unsolicited_challenges_per_day` such challenges in the last day gets no more: the challenge is
    /// dropped without an answer, so that a stranger can neither flood them nor hear back.
    #[allow(clippy::too_many_arguments)]
    fn challenge(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        options: &[games::GameOption],
        server_options: &[(String, Option<String>)],
        userids: &[String],
        password: Option<&str>,
        comment: &str,
        origin: &Origin,
    ) -> Step<Outcome> {
        let usage = format!(
            "Write it `{} challenge [options] <userid1> <userid2>{}`.",
            rules.name(),
            if *rules.players().end() > 2 {
                " [<userid3>]"
            } else {
                ""
            }
        );
        let (nag_days, forfeit_days) = self.clock_options(server_options, &usage)?;
        if !rules.players().contains(&userids.len()) {
            return Err(Refusal::new(format!(
                "{} is played by {} to {} players; you named {}. {usage}",
                rules.title(),
                rules.players().start(),
                rules.players().end(),
                userids.len()
            ))
            .into());
        }
        let mut players = Vec::new();
        for u in userids {
            let user = tx
                .user(u)?
                .filter(|u| u.password_hash.is_some() || u.robot.is_some())
                .ok_or_else(|| {
                    Refusal::new(format!(
                        "'{u}' is not a registered player. Every player signs up first with \
                         `signup <userid> <password>`. {usage}"
                    ))
                })?;
            if players.iter().any(|p: &User| p.id == user.id) {
                return Err(Refusal::new(format!(
                    "'{u}' is named twice: a game needs different players. {usage}"
                ))
                .into());
            }
            if user.robot.is_some() && !rules.has_robot() {
                return Err(Refusal::new(format!(
                    "'{u}' is a robot, and there is no robot for {} yet. {usage}",
                    rules.title()
                ))
                .into());
            }
            players.push(user);
        }
        self.check_challenge(tx, rules, &players)?;
        let admin = origin.reply_to.is_none();
        // A robot agrees to every game it is challenged to.
        let mut agreed: Vec<bool> = players.iter().map(|p| admin || p.robot.is_some()).collect();
        if let Some(password) = password {
            self.authenticate(tx, &userids[0], password)?;
            agreed[0] = true;
        }
        if !admin {
            let cap = self.cfg.limits.unsolicited_challenges_per_day;
            for (p, _) in players.iter().zip(&agreed).filter(|(_, a)| !**a) {
                if tx.unsolicited_challenges(p.id, self.now - 86_400)? >= cap {
                    eprintln!(
                        "pbem: {} had {cap} unsolicited challenges in the last day; a challenge \
                         naming them was dropped without an answer",
                        p.userid
                    );
                    return Ok(Outcome::silent());
                }
            }
        }
        let seed = self.seed(userids);
        let state = rules
            .new_game(options, players.len(), seed)
            .map_err(|e| Refusal::new(format!("{e}\n{usage}")))?;
        let board = tx.next_board(rules.name())?;
        // A robot that moves first has moved when the players get the new board.
        let state = self
            .robot_replies(board, &players, state.as_ref())
            .unwrap_or(state);
        let ids: Vec<i64> = players.iter().map(|p| p.id).collect();
        let names: Vec<String> = players.iter().map(|p| p.userid.clone()).collect();
        let game_id = tx.insert_game(
            rules.name(),
            board,
            &state.to_json(),
            &saved_status(state.as_ref(), &names),
            &ids,
            self.now,
        )?;
        if nag_days.is_some() || forfeit_days.is_some() {
            tx.set_clock_days(game_id, nag_days, forfeit_days)?;
        }
        for (seat, _) in agreed.iter().enumerate().filter(|(_, a)| **a) {
            tx.agree(game_id, seat, self.now)?;
        }
        let row = tx
            .game(rules.name(), board)?
            .ok_or_else(|| StorageError::Corrupt(format!("game {game_id} vanished")))?;
        // Robots alone may have played it to the end.
        self.settle_game(tx, rules, &row, state.as_ref())?;
        // The challenge's comment ("Fancy a game?") goes to every player. Signed with the first
        // player's password (--password), it is their comment on the game, kept in its history; a
        // challenge without one may come from anybody, so its comment is shown as unsigned and
        // not kept.
        let comments: Vec<Comment> = if comment.trim().is_empty() {
            Vec::new()
        } else if password.is_some() {
            tx.add_comment(row.id, 1, players[0].id, comment, self.now)?;
            tx.comments(row.id)?
        } else {
            vec![Comment {
                move_number: 1,
                userid: "The challenge (unsigned: sent without --password)".into(),
                body: comment.to_string(),
                created_at: self.now,
            }]
        };
        let mut outcome =
            self.board_mails(tx, rules, &row, state.as_ref(), &comments, true, None)?;
        let letters = self.new_game_letters(tx, rules, &row, &outcome.subject, &outcome.text)?;
        outcome.letters.extend(letters);
        Ok(outcome)
    }

    /// A seed for a new game's random layout: different for every challenge, from the clock, the process
    /// and the players; stored with the game, so the game replays the same.
    fn seed(&self, userids: &[String]) -> u64 {
        if let Some(seed) = self.seed {
            return seed;
        }
        let parts: Vec<&[u8]> = userids.iter().map(|u| u.as_bytes()).collect();
        let d = fresh_digest(self.now, &parts);
        u64::from_le_bytes(d[..8].try_into().expect("8 bytes"))
    }

    /// Every player's own board mail, and each subscriber's. `actor` is the seat that acted (their mail
    /// is the reply).
    #[allow(clippy::too_many_arguments)]
    fn board_mails(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        row: &GameRow,
        state: &dyn GameState,
        comments: &[Comment],
        new: bool,
        actor: Option<usize>,
    ) -> Step<Outcome> {
        let players = userids(row);
        let subject = summary::board_subject(
            rules.title(),
            row.board,
            state,
            &players,
            new,
            !comments.is_empty(),
        );
        let mut body = self.summary(tx, rules, row, state, comments)?;
        if let Some(url) = self.cfg.web.game_url(rules.name(), row.board) {
            body.push_str(&format!("The game on the web: {url}\n"));
        }
        let next = next_move_lines(rules, row, state);
        let picture = if self.cfg.mail.pictures {
            state.svg()
        } else {
            None
        };
        let mut letters: Vec<Letter> = row
            .players
            .iter()
            .enumerate()
            .map(|(seat, p)| Letter {
                to: p.addresses.clone(),
                subject: subject.clone(),
                body: match &next {
                    Some((to_move, lines)) if *to_move == seat => format!("{body}\n{lines}"),
                    _ => body.clone(),
                },
                reply: Some(seat) == actor,
                picture: picture.clone(),
            })
            .collect();
        letters.extend(
            self.subscriber_letters(tx, row, &subject, &body)?
                .into_iter()
                .map(|l| Letter {
                    picture: picture.clone(),
                    ..l
                }),
        );
        Ok(Outcome {
            ok: true,
            text: body,
            subject,
            reply_to_sender: false,
            letters,
        })
    }

    /// A board, and the player named by a command that acts on it with their seat, after checking
    /// the password: the start of every command a player makes on their own game. Such an act is the
    /// player's agreement to the game (see [`Core::challenge`]).
    fn seated(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        board: u32,
        userid: &str,
        password: &str,
    ) -> Step<(GameRow, Box<dyn GameState>, User, usize)> {
        let (row, state, user, seat) = self.seat_of(tx, rules, board, userid, password)?;
        self.agree_by_command(tx, row.id, seat)?;
        Ok((row, state, user, seat))
    }

    /// [`Core::seated`] without recording an agreement: for the acts that decline a game.
    fn seat_of(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        board: u32,
        userid: &str,
        password: &str,
    ) -> Step<(GameRow, Box<dyn GameState>, User, usize)> {
        let (row, state) = self.load_game(tx, rules, board)?;
        let user = self.authenticate_on(tx, userid, password, rules, board)?;
        let Some(seat) = row.players.iter().position(|p| p.id == user.id) else {
            return Err(Refusal::on(
                format!(
                    "{} does not play {} board {board}: its players are {}.",
                    user.userid,
                    rules.title(),
                    userids(&row).join(", ")
                ),
                rules.name(),
                board,
            )
            .into());
        };
        Ok((row, state, user, seat))
    }

    #[allow(clippy::too_many_arguments)]
    fn play(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        board: u32,
        userid: &str,
        password: &str,
        mv: &str,
        guard: Option<u32>,
        comment: &str,
    ) -> Step<Outcome> {
        let (row, mut state, user, seat) = self.seated(tx, rules, board, userid, password)?;
        let refuse = |m: String| Failure::Refused(Refusal::on(m, rules.name(), board));
        let players = userids(&row);
        match state.status() {
            Status::Over(_) => {
                return Err(refuse(format!(
                    "{} board {board} is over: {}",
                    rules.title(),
                    summary::status_line(state.as_ref(), &players)
                )));
            }
            Status::ToMove(s) if s != seat => {
                return Err(refuse(format!(
                    "It is not your turn on board {board}: {}",
                    summary::status_line(state.as_ref(), &players)
                )));
            }
            Status::ToMove(_) => {}
        }
        if let Some(n) = guard
            && n != state.move_number()
        {
            return Err(refuse(format!(
                "Your move was meant for move {n}, but board {board} is at move {}: the board changed \
                 since you looked. Look at the board below and send your move again (with #{} or \
                 without a guard).",
                state.move_number(),
                state.move_number()
            )));
        }
        let before = state.move_number();
        state.play(mv).map_err(|e| {
            refuse(format!(
                "The move '{}' is not legal: {e}\nWrite it `{} move {board} {} <password> <move>`; \
                 the move syntax is in `{} help`.",
                mv.trim(),
                rules.name(),
                user.userid,
                rules.name()
            ))
        })?;
        self.record_turn(
            tx,
            rules,
            row,
            state.as_ref(),
            Some((&user, seat)),
            before,
            comment,
        )
    }

    /// Saves a game after it changed (a move, a resignation, a forfeit, an accepted proposal) and mails
    /// every player the board with the comment that came with it. `actor` is the player who acted, if
    /// a player did (the server's clock acts for nobody). Every game ends through here, so this is
    /// where a finished game is settled (ratings).
    #[allow(clippy::too_many_arguments)]
    fn record_turn(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        row: GameRow,
        state: &dyn GameState,
        actor: Option<(&User, usize)>,
        before: u32,
        comment: &str,
    ) -> Step<Outcome> {
        // A robot whose turn this makes it answers at once, in the same transaction: the players'
        // board mail shows its move.
        let replied = self.robot_replies(row.board, &row.players, state);
        let state = replied.as_deref().unwrap_or(state);
        let status = saved_status(state, &userids(&row));
        let finished = status.finished;
        let row_was_finished = row.finished;
        tx.charge_time(row.id, self.now)?;
        tx.update_game(row.id, &state.to_json(), &status, self.now)?;
        let row = GameRow {
            updated_at: self.now,
            finished,
            ..row
        };
        let mut notes = state.turn_notes(before);
        notes.extend(self.game_changed(tx, &row, state)?);
        if finished && !row_was_finished {
            self.settle_game(tx, rules, &row, state)?;
        }
        let comments = match actor {
            Some((user, _)) => self.comment_at(tx, &row, before, user.id, comment)?,
            None => Vec::new(),
        };
        let outcome = self.board_mails(
            tx,
            rules,
            &row,
            state,
            &comments,
            false,
            actor.map(|(_, seat)| seat),
        )?;
        // A queued move comes due only once this change is saved and its mails are written.
        self.after_turn(tx, rules, &row, state, outcome, &notes)
    }

    /// Plays the robots' moves while a robot is to move (robot1..robot3: see [`GameState::
    /// robot_move`]); `None` when no robot is to move. Each move's seed comes from the board and the
    /// move number, so a game replays the same. A game where robots play each other is played to
    /// its end here.
    fn robot_replies(
        &self,
        board: u32,
        players: &[User],
        state: &dyn GameState,
    ) -> Option<Box<dyn GameState>> {
        let mut next: Option<Box<dyn GameState>> = None;
        loop {
            let now = next.as_deref().unwrap_or(state);
            let Status::ToMove(seat) = now.status() else {
                return next;
            };
            let Some(level) = players.get(seat).and_then(|p| p.robot) else {
                return next;
            };
            let seed = (u64::from(board) << 32) | u64::from(now.move_number());
            let robot = games::Robot::Within {
                level,
                millis: ROBOT_THINKING_MILLIS,
            };
            let Some(mv) = now.robot_move(robot, seed) else {
                eprintln!("pbem: board {board}: the robot found no move; the game waits");
                return next;
            };
            let mut after = now.clone_box();
            if let Err(e) = after.play(&mv) {
                eprintln!(
                    "pbem: board {board}: the robot's move {mv} was refused ({e}); the game waits"
                );
                return next;
            }
            next = Some(after);
        }
    }

    fn comment_at(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
        move_number: u32,
        user_id: i64,
        comment: &str,
    ) -> Step<Vec<Comment>> {
        let body = comment.trim();
        if body.is_empty() {
            return Ok(Vec::new());
        }
        tx.add_comment(row.id, move_number, user_id, body, self.now)?;
        let userid = row
            .players
            .iter()
            .find(|p| p.id == user_id)
            .map_or_else(String::new, |p| p.userid.clone());
        Ok(vec![Comment {
            move_number,
            userid,
            body: body.to_string(),
            created_at: self.now,
        }])
    }

    fn resign(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        board: u32,
        userid: &str,
        password: &str,
        comment: &str,
    ) -> Step<Outcome> {
        let (row, state, user, seat) = self.seat_of(tx, rules, board, userid, password)?;
        self.resign_seated(tx, rules, row, state, &user, seat, comment)
    }

    /// Resigns a player already seated. A player who resigns before ever agreeing to the game
    /// declines it: the game ends as a resignation, and is not rated (see `settle_game`).
    #[allow(clippy::too_many_arguments)]
    fn resign_seated(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        row: GameRow,
        mut state: Box<dyn GameState>,
        user: &User,
        seat: usize,
        comment: &str,
    ) -> Step<Outcome> {
        let board = row.board;
        let before = state.move_number();
        state
            .resign(seat)
            .map_err(|e| Refusal::on(e.to_string(), rules.name(), board))?;
        if !tx.has_agreed(row.id, seat)? {
            tx.add_verdict(
                row.id,
                &format!(
                    "{} declined the game: resigned before ever agreeing to it.",
                    user.userid
                ),
            )?;
        }
        self.record_turn(
            tx,
            rules,
            row,
            state.as_ref(),
            Some((user, seat)),
            before,
            comment,
        )
    }

    fn show(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        boards: &[(u32, Option<u32>)],
    ) -> Step<Outcome> {
        let mut text = String::new();
        let mut subject = None;
        for &(board, at) in boards {
            let (row, state) = self.load_game(tx, rules, board)?;
            let now_at = state.move_number();
            let state = match at {
                Some(n) => state
                    .at_move(n)
                    .map_err(|e| Refusal::on(e.to_string(), rules.name(), board))?,
                None => state,
            };
            let players = userids(&row);
            subject.get_or_insert_with(|| {
                summary::board_subject(rules.title(), board, state.as_ref(), &players, false, false)
            });
            if !text.is_empty() {
                text.push_str("\n\n");
            }
            if let Some(n) = at.filter(|&n| n != now_at) {
                text.push_str(&format!(
                    "This is board {board} as it was at move {n}; the game is now at move \
                     {now_at}. Send `{} show {board}` for the board as it stands.\n\n",
                    rules.name()
                ));
            }
            // The comments that came with the last move, as its board mail showed them.
            let comments: Vec<Comment> = if at.is_none() {
                tx.comments(row.id)?
                    .into_iter()
                    .filter(|c| c.created_at == row.updated_at)
                    .collect()
            } else {
                Vec::new()
            };
            text.push_str(&self.summary(tx, rules, &row, state.as_ref(), &comments)?);
        }
        Ok(Outcome::reply(
            subject.unwrap_or_else(|| format!("{} show", rules.title())),
            text,
        ))
    }

    fn history(&self, tx: &Tx<'_>, rules: &dyn GameRules, board: u32) -> Step<Outcome> {
        let (row, state) = self.load_game(tx, rules, board)?;
        let players = userids(&row);
        let mut text = format!("History of {} Board {board}\n\n", rules.title());
        text.push_str(&summary::status_line(state.as_ref(), &players));
        // What the clock or the admin did to the game, with the reason.
        if let Some(verdict) = tx.game_clock(row.id)?.verdict {
            text.push('\n');
            text.push_str(verdict.trim_end());
        }
        text.push_str("\n\nMoves:\n");
        text.push_str(&summary::move_list(state.as_ref(), &players));
        let comments = tx.comments(row.id)?;
        if !comments.is_empty() {
            text.push_str("\nComments (by the move they came with):\n");
            for c in &comments {
                text.push_str(&format!(
                    "  move {} {} ({}):\n",
                    c.move_number,
                    c.userid,
                    summary::format_time(c.created_at)
                ));
                for l in c.body.lines() {
                    text.push_str(&format!("    {l}\n"));
                }
            }
        }
        text.push_str(&format!(
            "\nGame started: {}\nLast move:    {}\n",
            summary::format_time(row.created_at),
            summary::format_time(row.updated_at)
        ));
        Ok(Outcome::reply(
            format!("{} Board {board} History", rules.title()),
            text,
        ))
    }

    /// `<game> games userid... [active|all|finished|next]`: each player's games of the type, by
    /// board, from the saved status lines (no game is loaded).
    fn games(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        whose: &[String],
        filter: GamesFilter,
    ) -> Step<Outcome> {
        let (stored, word) = match filter {
            GamesFilter::Active => (GameFilter::Active, "active"),
            GamesFilter::All => (GameFilter::All, "all"),
            GamesFilter::Finished => (GameFilter::Finished, "finished"),
            GamesFilter::Next => (GameFilter::Next, "their turn"),
        };
        let mut text = String::new();
        let mut names = Vec::new();
        for userid in whose {
            let user = tx.user(userid)?.ok_or_else(|| {
                Refusal::new(format!(
                    "'{userid}' is not a registered player. Write it `{} games <userid>... \
                     [active|all|finished|next]`.",
                    rules.name()
                ))
            })?;
            if filter == GamesFilter::Next {
                // Games saved before the seat to move was kept: fill it in once.
                for board in tx.games_without_to_move(user.id, rules.name())? {
                    if let Some(row) = tx.game(rules.name(), board)?
                        && let Ok(state) = rules.load(&row.state)
                    {
                        tx.set_status(row.id, &saved_status(state.as_ref(), &userids(&row)))?;
                    }
                }
            }
            let rows = tx.games_of(user.id, rules.name(), stored)?;
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(&format!(
                "{} games of {} ({word}):\n\n",
                rules.title(),
                user.userid
            ));
            if rows.is_empty() {
                text.push_str("  none\n");
            }
            for game in &rows {
                let status = listed_status(tx, rules, game)?;
                text.push_str(&format!(
                    "  Board {}: {}  {status}\n",
                    game.board,
                    game.players.join(" vs ")
                ));
            }
            names.push(user.userid);
        }
        Ok(Outcome::reply(
            format!("{} games {}", rules.title(), names.join(" ")),
            text,
        ))
    }

    fn preview(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        board: u32,
        moves: &[String],
    ) -> Step<Outcome> {
        let (row, state) = self.load_game(tx, rules, board)?;
        let mut trial = state.clone_box();
        for (i, m) in moves.iter().enumerate() {
            if matches!(trial.status(), Status::Over(_)) {
                return Err(Refusal::on(
                    format!("The game is over after move {}; '{m}' cannot follow.", i),
                    rules.name(),
                    board,
                )
                .into());
            }
            trial.play(m).map_err(|e| {
                Refusal::on(
                    format!("Preview move {} '{m}' is not legal: {e}", i + 1),
                    rules.name(),
                    board,
                )
            })?;
        }
        let mut text = format!(
            "Preview of {} Board {board} after {}: nothing has been played.\n\n",
            rules.title(),
            moves.join(" ")
        );
        text.push_str(&self.summary(tx, rules, &row, trial.as_ref(), &[])?);
        Ok(Outcome::reply(
            format!("{} Board {board} Preview", rules.title()),
            text,
        ))
    }

    fn chat(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        board: u32,
        userid: &str,
        password: &str,
        comment: &str,
    ) -> Step<Outcome> {
        let (row, state, user, seat) = self.seated(tx, rules, board, userid, password)?;
        if comment.trim().is_empty() {
            return Err(Refusal::on(
                format!(
                    "A chat needs a message: write it in the body of the mail, with \
                     `{} chat {board} {} <password>` in the Subject.",
                    rules.name(),
                    user.userid
                ),
                rules.name(),
                board,
            )
            .into());
        }
        let comments = self.comment_at(tx, &row, state.move_number(), user.id, comment)?;
        self.board_mails(
            tx,
            rules,
            &row,
            state.as_ref(),
            &comments,
            false,
            Some(seat),
        )
    }
}

/// Queues mails in the outbox inside the caller's transaction, claimed for sending right after the
/// commit. Returns the row ids, in the same order.
fn queue(tx: &Tx<'_>, mails: &[OutgoingMail], now: i64) -> Result<Vec<i64>, StorageError> {
    mails
        .iter()
        .map(|m| {
            let json = serde_json::to_string(m).expect("an OutgoingMail serializes");
            tx.queue_mail(&json, now, true)
        })
        .collect()
}

/// The userid and password a command logs in with, if any.
fn credentials(cmd: &RawCommand) -> Option<(&str, &str)> {
    match cmd {
        RawCommand::ChangePassword { userid, old, .. } => Some((userid, old)),
        RawCommand::Message {
            userid, password, ..
        } => Some((userid, password)),
        RawCommand::ChangeAddress {
            userid, password, ..
        }
        | RawCommand::Signoff { userid, password } => Some((userid, password)),
        RawCommand::Vacation {
            userid, password, ..
        } => Some((userid, password)),
        RawCommand::Game {
            command:
                GameCommand::Move {
                    userid, password, ..
                }
                | GameCommand::Resign {
                    userid, password, ..
                }
                | GameCommand::Chat {
                    userid, password, ..
                }
                | GameCommand::Propose {
                    userid, password, ..
                }
                | GameCommand::Answer {
                    userid, password, ..
                }
                | GameCommand::Queue {
                    userid, password, ..
                },
            ..
        } => Some((userid, password)),
        RawCommand::Game {
            command:
                GameCommand::Challenge {
                    userids,
                    password: Some(password),
                    ..
                },
            ..
        } => userids.first().map(|u| (u.as_str(), password.as_str())),
        RawCommand::Game {
            command:
                GameCommand::Subscribe {
                    userid, password, ..
                }
                | GameCommand::Unsubscribe {
                    userid, password, ..
                }
                | GameCommand::Notify {
                    userid, password, ..
                }
                | GameCommand::Limit {
                    userid, password, ..
                }
                | GameCommand::Accept {
                    userid, password, ..
                }
                | GameCommand::Reject {
                    userid, password, ..
                },
            ..
        } => Some((userid, password)),
        _ => None,
    }
}

/// A digest different on every call: of the clock, the process, the nanosecond and `parts` (for new
/// games' seeds and confirmation codes; unpredictable enough for both, not a secret key).
fn fresh_digest(now: i64, parts: &[&[u8]]) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update(now.to_le_bytes());
    h.update(std::process::id().to_le_bytes());
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    h.update(nanos.to_le_bytes());
    for p in parts {
        h.update(p);
    }
    h.finalize().into()
}

/// A Message-ID as headers write it: `<left@right>`.
fn angle(id: &str) -> String {
    let id = id.trim();
    if id.starts_with('<') && id.ends_with('>') {
        id.to_string()
    } else {
        format!("<{}>", id.trim_matches(|c| c == '<' || c == '>'))
    }
}

fn userids(row: &GameRow) -> Vec<String> {
    row.players.iter().map(|p| p.userid.clone()).collect()
}

/// The end of the board mail to the player on move: the exact line to send, with their board, userid
/// and `<password>`, and a legal move of this position as the example (`None` once the game is over
/// or when the position has no move to show).
fn next_move_lines(
    rules: &dyn GameRules,
    row: &GameRow,
    state: &dyn GameState,
) -> Option<(usize, String)> {
    let Status::ToMove(seat) = state.status() else {
        return None;
    };
    let who = &row.players.get(seat)?.userid;
    let example = state.legal_moves().into_iter().next()?;
    Some((
        seat,
        format!(
            "It is your move, {who}. Send this line as the Subject (or alone on a line\n\
             of a reply), with your password and your move in place of the example:\n\n    \
             {} move {} {who} <password> {example}#{}\n\n\
             ({example} is one legal move here; #{} makes sure the move is played only at move {}.)\n",
            rules.name(),
            row.board,
            state.move_number(),
            state.move_number(),
            state.move_number(),
        ),
    ))
}

/// What the lists show of a game, saved with its state.
fn saved_status(state: &dyn GameState, players: &[String]) -> SavedStatus {
    let (finished, to_move) = match state.status() {
        Status::ToMove(seat) => (false, Some(seat)),
        Status::Over(_) => (true, None),
    };
    SavedStatus {
        finished,
        to_move,
        line: summary::status_line(state, players),
    }
}

/// A listed game's status line: the saved one, or, for a game not saved since the lists began to
/// keep it, its state's (which is then saved, so that this happens once a game).
fn listed_status(
    tx: &Tx<'_>,
    rules: &dyn GameRules,
    game: &Listed,
) -> Result<String, StorageError> {
    if let Some(line) = &game.status {
        return Ok(line.clone());
    }
    match rules.load(&tx.game_state(game.id)?) {
        Ok(state) => {
            let status = saved_status(state.as_ref(), &game.players);
            tx.set_status(game.id, &status)?;
            Ok(status.line)
        }
        Err(e) => Ok(format!("unreadable: {e}")),
    }
}

fn game_names() -> String {
    games::registry()
        .iter()
        .map(|g| g.name())
        .collect::<Vec<_>>()
        .join(", ")
}

fn notes_text(notes: &[String]) -> String {
    if notes.is_empty() {
        String::new()
    } else {
        format!("\n\nAbout your mail: {}", notes.join("; "))
    }
}

/// Replaces every occurrence of the passwords in `text` with `****`.
pub fn mask(text: &str, passwords: &[String]) -> String {
    let mut out = text.to_string();
    for p in passwords {
        if !p.is_empty() {
            out = out.replace(p.as_str(), "****");
        }
    }
    out
}

fn general_help(cfg: &Config) -> String {
    let mut text = format!(
        "{} is a play-by-email game server. Write one command in the Subject of a mail (the body is a\n\
         comment for the other players), or the Subject `multiple` and one command per line of the body.\n\n\
         Server commands:\n\
         \x20 help [subject...]                      this help, or a game's help: help limit\n\
         \x20 signup userid password [address...]    register (userid: 1-20 letters, digits, _ or -)\n\
         \x20 change password userid old new\n\
         \x20 change address userid password [address...]\n\
         \x20 signoff userid password\n\
         \x20 message userid password to-userid...   the mail's body to other players (no addresses shown)\n\
         \x20 password reset userid                  forgot it: a one-time code goes to your address\n\
         \x20 password set userid code new           a new password with that code (within 24 hours)\n\
         \x20 confirm userid code                    from an address given to signup or change\n\
         \x20                                        address: the code of its confirmation mail\n\
         \x20 list                                   the games this server hosts\n\
         \x20 vacation userid password FROM TO       away from day FROM to day TO (YYYY-MM-DD, UTC,\n\
         \x20                                        at most 60 days): no reminders or forfeits\n\
         \x20 vacation userid password off           back early (also drops a planned vacation)\n\n\
         Game commands (for each game, here <game>):\n\
         \x20 <game> help\n\
         \x20 <game> challenge [options] [--password=PW] userid1 userid2 [userid3]\n\
         \x20 <game> move board userid password move[#N]   (move may be `resign`)\n\
         \x20 <game> move board userid password accept|reject   agree to a new game, or decline it\n\
         \x20 <game> resign board userid password\n\
         \x20 <game> show board[#N]...\n\
         \x20 <game> history [board]                finished games with rating changes, or one game\n\
         \x20 <game> ratings                        the rating list (Elo, from 1600)\n\
         \x20 <game> standings                      games played, won, lost, drawn, active\n\
         \x20 <game> games userid [active|all|finished]\n\
         \x20 <game> preview board move...\n\
         \x20 <game> chat board userid password     (the body is the message)\n\
         \x20 <game> subscribe board userid password     every board mail of a game, as a spectator\n\
         \x20 <game> unsubscribe board userid password\n\
         \x20 <game> notify userid password [on|off|board...]   mail me about each new game\n\
         \x20                                        (board numbers: subscribe to those games)\n\
         \x20 <game> limit userid password [N|off]   at most N active games by challenge (0: none)\n\
         \x20 <game> accept userid password [userid...]   challenges only from these (none: anyone)\n\
         \x20 <game> reject userid password [userid...]   no challenges from these (none: clear)\n\
         \x20   (limit, accept and reject concern challenges by others, never your own: the first\n\
         \x20   userid of a challenge is the challenger)\n\n\
         A move ending in #N is played only if the game is still at move N (every board mail says\n\
         `Move N`), so a move written against an old board is refused rather than misplayed.\n\
         Passwords are case-sensitive and are never shown in any mail.\n\n\
         A game counts for the ratings only when every player agreed to it: by a move or other\n\
         command with their password, by `accept`, or, for the challenger, by --password=PW (the\n\
         first userid's password). Declining (`reject`, or resigning before agreeing) ends it\n\
         unrated. Nobody is put into more than {} new games a day that they did not agree to.\n\n",
        cfg.server.name, cfg.limits.unsolicited_challenges_per_day
    );
    text.push_str(&format!(
        "The player to move is reminded after {} days without a move, and again every {} days;\n\
         after {} days they forfeit (an open draw proposal is accepted instead). Days on vacation do\n\
         not count. A challenge may set its own times, in days:\n\
         \x20 <game> challenge --nagtime=DAYS --forfeittime=DAYS userid1 userid2\n\n",
        cfg.time.nag_days, cfg.time.nag_days, cfg.time.forfeit_days
    ));
    text.push_str(proposals::HELP);
    text.push('\n');
    text.push_str("Games: ");
    text.push_str(&game_names());
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mask_hides_every_occurrence() {
        assert_eq!(
            mask("my pw is s3cret, s3cret!", &["s3cret".into()]),
            "my pw is ****, ****!"
        );
        assert_eq!(mask("nothing", &[String::new()]), "nothing");
    }
}

//! The server: turns commands (from mail or from the shell) into changes of the stored games and the
//! mails that report them.
//!
//! Parse, then validate: [`crate::command`] makes a raw command of a line of text; here it is checked
//! against the accounts, the stored games and the rules. Each incoming mail is handled in one database
//! transaction that also records its Message-ID and queues its replies, so a mail is acted on exactly once
//! and its replies are never lost; the replies are sent after the commit.

use std::cell::{Cell, RefCell};
use std::sync::Arc;
use std::time::Duration;

use crate::clock::{Clock, FixedClock};
use crate::config::Config;
use crate::decision::{self, Event, Listing, Refusal, Refused};
use crate::games::{GameRules, GameState, Registry};
use crate::mail_in;
use crate::mail_out::{FileAttachment, Mailer, OutgoingMail, SendError};
use crate::mail_text;
use crate::storage::{Db, GameRow, StorageError};

// One concern a file; each adds `impl Core` blocks.
mod accounts; // signup, change password/address, signoff
mod act; // a player's command on one board, and whose mail a change answers
mod addresses; // addresses that wait for confirmation, `confirm`
mod auth; // password checks before the write lock, the throttle, authenticate
mod boards; // summaries, board mails, `show`
mod bounces; // signed envelope senders (VERP) and the delivery reports that come back to them
mod clock; // nags, forfeits, vacations, `pbem cron`
mod consent; // who agreed to a game, so that only agreed games are rated
mod digest; // the daily digest and text-only mail: which board mails wait, the digest
mod help; // `help` pages
mod intake; // one mail's commands: size limit, password hiding, execute, dispatch
mod letters; // headers, threading, reply allowance, outbox, sending
mod listing; // `list`, `history`, `games`
mod message; // player-to-player mail: `message`, `chat`
mod overrides; // the admin's overrides at the shell: password, end, replace, undo
mod play; // challenge, move, resign, preview, robot answers
mod proposals; // undo and draw proposals
#[cfg(test)]
mod query_plans; // every statement of the mail path and of cron reads by an index
mod queued; // queued moves: kept, played when the turn comes, or dropped
mod reply; // replies to a signed Reply-To: commands without userid and password
mod reset; // a forgotten password: `password reset`, `password set`
mod robot_answers; // how robots answer draw and undo proposals
mod robots; // the robots' moves, thought out with no lock held
mod secrets; // a mail's passwords, found and hidden in what it causes
mod social; // subscriptions, notifications, challenge limits and accept/reject lists
mod standings; // Elo ratings, standings, the history of finished games

use auth::{Logins, THROTTLE_WINDOW};
use boards::{listed_status, saved_status, userids};
use letters::queue;

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
    /// Mail to one of the server's bounce addresses: a delivery report about a mail it sent (what
    /// was recorded), never answered.
    Report(String),
}

/// What a command run from the shell did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdminOutcome {
    /// False when the command was refused.
    pub ok: bool,
    /// The answer, as the sender of the command by mail would have read it.
    pub text: String,
    /// Why the command was refused, as a value (`text` words it).
    pub refusal: Option<Refusal>,
    /// What the command did to the games, as values (for now the play family's: see
    /// [`crate::decision::Event`]).
    pub events: Vec<Event>,
    /// What a listing command (`list`, `games`, `ratings`, `standings`, `history`) looked up.
    pub listing: Option<Listing>,
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
    /// Mails refused for good (SMTP 5xx): never tried again.
    pub refused: usize,
}

/// Who sent a command, and what to answer to.
#[derive(Default)]
struct Origin {
    /// The address replies go to; `None` for the admin at the shell.
    reply_to: Option<String>,
    /// The incoming Message-ID, for threading.
    message_id: Option<String>,
    references: Vec<String>,
    /// What the mail showed of who wrote it (nothing at the shell).
    proof: Proof,
    /// A reply to a board mail of this game and board, from an address not registered to the
    /// player it went to (see [`Handling::unregistered_reply`]).
    unregistered_reply: Option<(String, u32)>,
}

/// What one mail showed of who wrote it: the quiet spell after a run of error answers is for
/// mails that prove nothing or look automatic (issue 34, item 4; see [`Handling::letters_to_mails`]).
#[derive(Debug, Clone, Default)]
struct Proof {
    /// The mail carried the right password of an account registered at the address answers go to
    /// (in a command, or a word of it found to be that password), or came to a valid signed reply
    /// address. A right password under a stranger's `Reply-To` proves nothing about that address.
    proved: bool,
    /// A digest of its Subject, commands and comment as read, its passwords hidden: the same text
    /// again from an address looks automatic, whatever it proves.
    digest: Option<String>,
}

impl Proof {
    /// A mail's text as read, before a reply to a signed address became its command (that
    /// command carries a word made for each mail).
    fn text_of(incoming: &mail_in::Incoming) -> String {
        let mut text = incoming.subject.clone();
        for part in incoming.commands.iter().chain([&incoming.comment]) {
            text.push('\n');
            text.push_str(part);
        }
        text
    }

    /// The digest kept of `text`. Hidden first: a fast digest of a text that holds a password
    /// would let whoever reads the database test guesses far faster than the argon2 hashes do.
    fn digest_of(text: &str, secrets: &secrets::Secrets) -> String {
        use sha2::{Digest, Sha256};
        let digest = Sha256::digest(secrets.hide(text).as_bytes());
        digest[..16].iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// One hosted game as a command sees it: the rules of its type, its stored row and a state of it
/// (the stored one, or the one a command just made of it). The functions that work on a game take
/// this one value rather than the three.
#[derive(Clone, Copy)]
struct HostedGame<'a> {
    rules: &'a dyn GameRules,
    row: &'a GameRow,
    state: &'a dyn GameState,
}

impl<'a> HostedGame<'a> {
    /// The game's three parts as one value.
    fn new(rules: &'a dyn GameRules, row: &'a GameRow, state: &'a dyn GameState) -> Self {
        HostedGame { rules, row, state }
    }
}

/// One mail that a command produces, before it gets its headers.
struct Letter {
    to: Vec<String>,
    subject: String,
    body: String,
    /// True for the answer to the sender (auto-replied, threaded); false for mail to others
    /// (auto-generated).
    reply: bool,
    /// The board's picture, for a board mail (`mail.pictures`), with what the HTML
    /// part shows around it.
    picture: Option<Picture>,
    /// A letter to one player that a reply may answer without a password: it gets that player's
    /// signed `Reply-To` (see `server/reply.rs`).
    sign: Option<Sign>,
    /// A board mail's place in its game's thread for this reader (`None`: not a board mail).
    thread: Option<letters::Thread>,
    /// Under a game's one Subject (issue 37), the state its Subject would have said (`Limit Board
    /// 101: your move`): the body's first line, above any notice added later, which Gmail's list
    /// shows after the Subject.
    headline: Option<String>,
}

/// Whose signed reply address a letter carries, and what a reply to it answers.
#[derive(Debug, Clone, Copy)]
struct Sign {
    /// The reader's account row.
    reader: i64,
    target: crate::reply_token::Target,
}

/// A board mail's picture (the board's PNG, painted once for every mail of the move) and its HTML
/// part's words.
#[derive(Clone)]
struct Picture {
    png: crate::mail_out::Png,
    page: crate::mail_out::BoardPage,
}

/// What one command did. The default is a refusal that says nothing and sends nothing.
#[derive(Default)]
struct Outcome {
    ok: bool,
    /// What the admin sees, or the sender's reply when `reply_to_sender` is set.
    text: String,
    subject: String,
    /// Send `subject`/`text` to the sender (errors, show, help, ...). Board mails to players are in
    /// `letters` instead.
    reply_to_sender: bool,
    letters: Vec<Letter>,
    /// What the command did, as values (the play family's events so far).
    events: Vec<Event>,
    /// Why it was refused, for an error answer to a refused command.
    refusal: Option<Refusal>,
    /// What a listing command looked up, for an answer that shows things.
    listing: Option<Listing>,
    /// Files the answer to the sender carries (a game record).
    attachments: Vec<FileAttachment>,
    /// Carried out with an account's password or a code mailed to the sender: the sender's address
    /// belongs to a player (see [`Handling::letters_to_mails`]).
    proved: bool,
    /// For an answer to a player about their own game (a refused move): the game's thread and the
    /// player's signed Reply-To, so that the answer sits in the game's conversation and a corrected
    /// move written as a reply to it plays.
    in_game: Option<(Sign, letters::Thread)>,
}

impl Outcome {
    fn reply(subject: String, text: String) -> Outcome {
        Outcome {
            ok: true,
            reply_to_sender: true,
            ..Outcome::error(subject, text)
        }
    }

    /// The answer to a listing command: the listing, worded by [`mail_text::listing`].
    fn listed(listing: Listing) -> Outcome {
        let (subject, text) = mail_text::listing(&listing);
        Outcome {
            listing: Some(listing),
            ..Outcome::reply(subject, text)
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
                sign: None,
                thread: None,
                headline: None,
            }],
            text,
            subject,
            ..Outcome::default()
        }
    }

    /// Nothing done and nothing said (a dropped unsolicited challenge).
    fn silent() -> Outcome {
        Outcome::default()
    }

    /// A refusal answered to the sender.
    fn error(subject: String, text: String) -> Outcome {
        Outcome {
            text,
            subject,
            reply_to_sender: true,
            ..Outcome::default()
        }
    }
}

/// Either a command's outcome, a refusal to answer with an error mail, or a storage failure that aborts
/// the whole message.
enum Failure {
    /// Boxed: a refusal carries its texts' data, and `Step` is returned everywhere.
    Refused(Box<Refused>),
    Storage(StorageError),
}

impl From<StorageError> for Failure {
    fn from(e: StorageError) -> Self {
        Failure::Storage(e)
    }
}

impl From<Refused> for Failure {
    fn from(r: Refused) -> Self {
        Failure::Refused(Box::new(r))
    }
}

// A family's refusal that concerns no particular board (`Refused::on` names the board).
macro_rules! refusal_family {
    ($($family:ty),* $(,)?) => {
        $(impl From<$family> for Failure {
            fn from(r: $family) -> Self {
                Failure::Refused(Box::new(Refused::new(r)))
            }
        })*
    };
}

refusal_family!(
    decision::Refusal,
    decision::AccountRefusal,
    decision::PlayRefusal,
    decision::ProposalRefusal,
    decision::SocialRefusal,
    decision::ClockRefusal,
    decision::MessageRefusal,
    decision::HelpRefusal,
    decision::ListRefusal,
    decision::AdminRefusal,
    decision::MailRefusal,
);

type Step<T> = std::result::Result<T, Failure>;

/// The server: configuration, database and mail transport.
///
/// A server is one worker's: it holds one database connection and per-mail state, so it is
/// [`Send`] (a listener moves one into each worker thread) but not [`Sync`]; a web page or listener
/// that serves many threads gives each its own server on the same database file.
pub struct Server {
    db: Db,
    clock: Arc<dyn Clock>,
    core: Core,
    /// With [`Server::defer_sending`], the mails of ingested messages wait here for
    /// [`Server::send_deferred`] (claimed in the outbox, so a server that dies first leaves them to
    /// the next flush).
    defer_sending: bool,
    deferred: Vec<(Vec<i64>, Vec<OutgoingMail>)>,
}

/// What a server is given rather than finds for itself: the clock it acts at and the mail transport.
pub struct Parts {
    /// The time each mail and command is handled at.
    pub clock: Arc<dyn Clock>,
    /// The games hosted.
    pub games: Registry,
    /// How mail leaves (SMTP, sendmail, a folder, the outbox only).
    pub mailer: Mailer,
}

impl Parts {
    /// The parts a configuration names: its mail transport and every game this crate has, with the
    /// clock given.
    pub fn from_config(cfg: &Config, clock: Arc<dyn Clock>) -> Result<Parts, ServerError> {
        let mailer = Mailer::from_config(cfg).map_err(|e| ServerError::Mail(e.to_string()))?;
        Ok(Parts {
            clock,
            games: Registry::standard(),
            mailer,
        })
    }
}

// A listener moves a server into a worker thread (see the doc of `Server`).
const _: fn() = || {
    fn is_send<T: Send>() {}
    is_send::<Server>();
};

/// Everything but the database: the commands run on a transaction of it, which borrows the database.
struct Core {
    cfg: Config,
    /// The games hosted.
    games: Registry,
    mailer: Mailer,
    now: i64,
    seed: Option<u64>,
}

impl Core {
    /// The server's parts with the state of the mail (or shell command, or cron run) being
    /// handled: what its commands run on.
    fn with<'a>(&'a self, mail: &'a MailState) -> Handling<'a> {
        Handling { core: self, mail }
    }
}

/// What the handling of one mail (or shell command, or cron run) keeps while it lasts, made afresh
/// for each: nothing of one mail's handling leaks into the next. Its commands take it by shared
/// reference (through [`Handling`]), so what they change of it is in cells.
#[derive(Default)]
struct MailState {
    /// Seats `(game id, seat)` whose player agreed to their game by the command being carried out
    /// (their first act on it with the password): taken back if the command is refused, since a
    /// refused command changes nothing.
    agreeing: RefCell<Vec<(i64, usize)>>,
    /// Set once the pass over the mail's commands caused a confirmation mail: one mail causes at
    /// most one.
    confirmation_sent: Cell<bool>,
    /// The password checks of the mail (see [`Handling::precheck`]).
    logins: RefCell<Logins>,
    /// The robots' answers thought out for the mail, and the positions still waiting for one (see
    /// `server/robots.rs`).
    robots: RefCell<robots::RobotTurns>,
}

impl MailState {
    /// The state of a mail whose robots may think `budget` milliseconds in all (`None`: no bound
    /// but each move's own: the shell and `pbem cron`, which have no worker to free).
    fn new(budget: Option<u64>) -> MailState {
        MailState {
            robots: RefCell::new(robots::RobotTurns::with_budget(budget)),
            ..MailState::default()
        }
    }
}

/// The server's parts and one mail's state: the commands, the answers and the robots' turns are
/// its methods. It reads as the [`Core`] it holds.
struct Handling<'a> {
    core: &'a Core,
    mail: &'a MailState,
}

impl std::ops::Deref for Handling<'_> {
    type Target = Core;

    fn deref(&self) -> &Core {
        self.core
    }
}

impl Server {
    /// Opens the database named in the configuration with the parts the configuration names (its
    /// mail transport, every hosted game), at a clock that stands at `now` (unix seconds); see
    /// [`Server::open_with`] for a server given its parts.
    pub fn open(cfg: Config, now: i64) -> Result<Server, ServerError> {
        Server::open_at(cfg, Arc::new(FixedClock::new(now)))
    }

    /// Opens the database named in the configuration with the parts the configuration names, at
    /// the clock given (the binary's: the system time, or `PBEM_NOW`).
    pub fn open_at(cfg: Config, clock: Arc<dyn Clock>) -> Result<Server, ServerError> {
        let parts = Parts::from_config(&cfg, clock)?;
        Server::open_with(cfg, parts)
    }

    /// Opens the database named in the configuration, with the parts given.
    pub fn open_with(cfg: Config, parts: Parts) -> Result<Server, ServerError> {
        let db = Db::open(
            &cfg.database.path,
            Duration::from_millis(cfg.database.busy_timeout_ms),
        )?;
        Ok(Server::on(db, cfg, parts))
    }

    /// A server on a private in-memory database (fuzzing and tests): like [`Server::open`] but nothing
    /// outlives the value; mail goes to the configured transport.
    pub fn open_in_memory(cfg: Config, now: i64) -> Result<Server, ServerError> {
        let parts = Parts::from_config(&cfg, Arc::new(FixedClock::new(now)))?;
        Ok(Server::on(Db::open_in_memory()?, cfg, parts))
    }

    fn on(db: Db, cfg: Config, parts: Parts) -> Server {
        let Parts {
            clock,
            games,
            mailer,
        } = parts;
        let now = clock.now();
        Server {
            db,
            clock,
            defer_sending: false,
            deferred: Vec::new(),
            core: Core {
                cfg,
                games,
                mailer,
                now,
                seed: None,
            },
        }
    }

    /// Reads the clock: called as each mail or command begins, which then acts at that one time.
    fn tick(&mut self) {
        self.core.now = self.clock.now();
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

    /// Stops this server's clock at `now` (a long-lived server in a fuzzer or test), in place of
    /// the clock it was given.
    pub fn set_now(&mut self, now: i64) {
        // Every entry point reads the clock and checks its mail's passwords afresh.
        self.clock = Arc::new(FixedClock::new(now));
    }

    /// The open database (for inspection by tools and tests).
    pub fn db(&self) -> &Db {
        &self.db
    }

    /// Handles one RFC 5322 message: acts on its commands and queues and sends the replies. The
    /// recipient of a reply to a signed `Reply-To` is read from the mail's headers (see
    /// [`Server::ingest_to`]).
    pub fn ingest(&mut self, raw: &[u8]) -> Result<IngestOutcome, ServerError> {
        self.ingest_to(raw, &[])
    }

    /// [`Server::ingest`] of a message whose envelope recipients the MTA gave (LMTP's `RCPT TO`):
    /// they are looked at first for a signed reply address, then the mail's headers.
    pub fn ingest_to(
        &mut self,
        raw: &[u8],
        envelope: &[String],
    ) -> Result<IngestOutcome, ServerError> {
        self.tick();
        let mail = MailState::new(Some(self.core.cfg.limits.robot_thinking_millis_per_mail));
        let core = self.core.with(&mail);
        let names: Vec<&str> = core.games.names();
        let incoming = mail_in::parse(raw, &core.limits(), &core.cfg.server.address, &names);
        // Before the silent mail: a delivery report is silent mail, and the one kind that is read.
        if let Some(token) = core.bounce_token_of(envelope, &incoming) {
            let token = token.to_string();
            return self.delivery_report(raw, &token);
        }
        if let Some(reason) = &incoming.silent {
            return Ok(IngestOutcome::Silent(reason.to_string()));
        }
        let Some(reply_to) = incoming.reply_to.clone() else {
            return Ok(IngestOutcome::Dropped(
                "no From or Reply-To address to answer to".into(),
            ));
        };
        if let Err(e) = crate::accounts::check_address(&reply_to) {
            return Ok(IngestOutcome::Dropped(format!(
                "the reply address is unusable: {e}"
            )));
        }
        let mut origin = Origin {
            reply_to: Some(reply_to),
            message_id: incoming.message_id.clone(),
            references: incoming.references.clone(),
            proof: Proof::default(),
            unregistered_reply: None,
        };
        let text = Proof::text_of(&incoming);
        // An oversized mail's commands are not run, so their passwords are not checked.
        let oversized = raw.len() > core.cfg.limits.max_message_bytes;
        let grant = match (&origin.reply_to, oversized) {
            (Some(to), false) => core.reply_grant(&self.db, &incoming, envelope, to)?,
            _ => None,
        };
        if grant.is_none() && !oversized && incoming.commands.is_empty() {
            origin.unregistered_reply = core.unregistered_reply(&self.db, &incoming, envelope)?;
        }
        let mut incoming = match &grant {
            Some(g) => core.reply_commands(g, &incoming),
            None => incoming,
        };
        // The cap counts the commands that run, after a reply became its command.
        incoming.cap_commands(core.cfg.limits.max_commands_per_mail);
        let commands = if oversized {
            &[][..]
        } else {
            &incoming.commands[..]
        };
        core.precheck(&self.db, commands, origin.reply_to.clone(), grant.as_ref())?;
        // The mail's passwords are found once, before any pass: a second pass (after the robots
        // thought) hides the same words and runs no argon2 again.
        let secrets = core.mail_secrets(&self.db, &incoming, origin.reply_to.as_deref())?;
        origin.proof = Proof {
            proved: grant.is_some()
                || secrets.proved
                || core.logged_in_at(&self.db, origin.reply_to.as_deref())?,
            digest: Some(Proof::digest_of(&text, &secrets)),
        };
        if oversized {
            return core.refuse_oversized(&mut self.db, &incoming, &origin, &secrets);
        }
        let runs = core.password_runs();
        let mut rounds = 0;
        let (ids, mails) = loop {
            let mut tx = self.db.transaction()?;
            if tx.is_processed(&incoming.key)? {
                return Ok(IngestOutcome::Duplicate);
            }
            core.robots_begin_pass();
            core.restore_password_runs(runs);
            let outcomes = core.run_mail_commands(&mut tx, &incoming, &origin, &secrets)?;
            if let Some(ask) = core.to_think(&mut rounds) {
                // A robot is to answer: this pass is rolled back (the lock goes with it), the
                // robots think with no lock held, and another pass plays their answers.
                drop(tx);
                core.think(&ask);
                continue;
            }
            let mails = core.letters_to_mails(&tx, &origin, outcomes)?;
            let ids = queue(&tx, &mails, core.now)?;
            tx.mark_processed(&incoming.key, core.now)?;
            tx.commit()?;
            break (ids, mails);
        };
        let count = mails.len();
        let waiting = core.robots_waiting();
        self.send_or_defer(ids, mails);
        self.robots_after_commit(&mail, waiting, true);
        Ok(IngestOutcome::Handled { mails: count })
    }

    /// Sends a committed transaction's mails now, or leaves them for [`Server::send_deferred`].
    fn send_or_defer(&mut self, ids: Vec<i64>, mails: Vec<OutgoingMail>) {
        if self.defer_sending {
            self.deferred.push((ids, mails));
        } else {
            self.core.send_claimed(&self.db, &ids, &mails);
        }
    }

    /// After a mail's or command's commit: plays the robots it left to move (see
    /// `server/robots.rs`) and, with `stale`, one that a dead process left. A failure here leaves
    /// the robot to move for the next mail or `pbem cron`; what was committed stands.
    fn robots_after_commit(
        &mut self,
        mail: &MailState,
        waiting: Vec<robots::Waiting>,
        stale: bool,
    ) {
        let mut played = self.play_robots(mail, &waiting, usize::MAX);
        if stale {
            played = played.and_then(|_| self.play_stale_robot(mail));
        }
        if let Err(e) = played {
            eprintln!("pbem: a robot's move is left for later: {e}");
        }
    }

    /// Runs one command line as the admin at the shell: it changes the games exactly as by mail and mails
    /// the players the same way; the answer is returned instead of mailed.
    pub fn run_admin(&mut self, line: &str, comment: &str) -> Result<AdminOutcome, ServerError> {
        self.tick();
        let origin = Origin::default();
        let mail = MailState::new(None);
        let core = self.core.with(&mail);
        core.precheck(&self.db, &[line.to_string()], None, None)?;
        // What the shell prints may end up in a log or a terminal's scrollback: no password either.
        let secrets = core.admin_secrets(&self.db, line)?;
        let comment = secrets.hide(comment);
        let runs = core.password_runs();
        let mut rounds = 0;
        let (answer, ids, mails) = loop {
            let mut tx = self.db.transaction()?;
            core.robots_begin_pass();
            core.restore_password_runs(runs);
            let mut outcome = core.execute(&mut tx, line, &comment, &origin, &secrets)?;
            if let Some(ask) = core.to_think(&mut rounds) {
                // As for a mail (see `Server::ingest`): no robot thinks while the lock is held.
                drop(tx);
                core.think(&ask);
                continue;
            }
            secrets.hide_in(&mut outcome);
            // The mails need only the texts and letters: the values move to the answer.
            let answer = AdminOutcome {
                ok: outcome.ok,
                text: outcome.text.clone(),
                refusal: outcome.refusal.take(),
                events: std::mem::take(&mut outcome.events),
                listing: outcome.listing.take(),
            };
            let mails = core.letters_to_mails(&tx, &origin, vec![outcome])?;
            let ids = queue(&tx, &mails, core.now)?;
            tx.commit()?;
            break (answer, ids, mails);
        };
        core.send_claimed(&self.db, &ids, &mails);
        let waiting = core.robots_waiting();
        self.robots_after_commit(&mail, waiting, false);
        Ok(answer)
    }

    /// Sends what the outbox still holds (mail whose sending failed or was interrupted).
    pub fn flush_outbox(&mut self) -> Result<FlushReport, ServerError> {
        self.tick();
        let mut report = FlushReport::default();
        let keep = i64::from(self.core.cfg.mail.outbox_keep_days) * 86_400;
        self.db.prune_sent(self.core.now - keep)?;
        self.db.prune_pictures(self.core.now - keep)?;
        // A claim older than this belongs to a sender that died.
        let stale_before = self.core.now - 600;
        loop {
            let rows = self.db.claim_unsent(self.core.now, stale_before, 100)?;
            if rows.is_empty() {
                return Ok(report);
            }
            let secret = self.db.reply_secret()?;
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
                let mail = serde_json::from_str::<OutgoingMail>(&row.mail);
                let sent = match &mail {
                    Ok(mail) => self.core.mailer.send_outbox(
                        &self.core.with_return_path(secret.as_deref(), row.id, mail),
                        row.id,
                        |to| db.hand_over_claim(row.id, to).map_err(|e| e.to_string()),
                        || db.mark_sent(row.id, now),
                    ),
                    Err(e) => Err(SendError::Permanent(format!("unreadable: {e}"))),
                };
                let mail = mail.ok();
                match sent {
                    Ok(recorded) => {
                        recorded?;
                        report.sent += 1;
                        if let Some(m) = &mail {
                            db.clear_bounces(&m.to)?;
                        }
                    }
                    Err(e) => {
                        self.core.record_failure(db, row.id, mail.as_ref(), &e)?;
                        if e.is_temporary() {
                            report.failed += 1;
                            any_failed = true;
                        } else {
                            report.refused += 1;
                        }
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

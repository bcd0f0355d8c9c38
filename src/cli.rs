//! The binary's own flags and subcommands (clap), and the one place where outcomes become exit statuses
//! (the statuses themselves are in [`crate::exit`]).
//!
//! Exit statuses follow sysexits, as an MTA expects of a delivery program: 0 when a message was handled
//! (a player's mistake is answered by mail, not bounced), 75 (`EX_TEMPFAIL`) when the MTA should try again
//! later (database busy past the timeout, disk full), 1 for a command refused at the shell, 64 for a
//! usage error, 70 for anything else.
//!
//! Every failure an admin can fix in the file system (a database file or folder the pbem user may not
//! write, a missing folder, a full disk, a file-size limit) is 75, so the MTA keeps the mail until it
//! is fixed, with one line on stderr that names the path and the fix.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use clap::{Parser, Subcommand};

use crate::config::{Config, Transport};
use crate::exit::{
    EX_CONFIG, EX_OK, EX_REFUSED, EX_TEMPFAIL, EX_USAGE, failure_status, outcome_note,
};
use crate::server::{IngestOutcome, Override, Server, ServerError};

/// `pbem`: a play-by-email game server.
#[derive(Debug, Parser)]
// `pbem help ...` is the command language's help (as by mail), not clap's.
#[command(
    name = "pbem",
    version,
    about,
    after_help = AFTER_HELP,
    disable_help_subcommand = true
)]
pub struct Args {
    /// TOML configuration file (default: built-in defaults).
    #[arg(long, env = "PBEM_CONFIG", global = true)]
    pub config: Option<PathBuf>,
    /// The SQLite database file, overriding the configuration.
    #[arg(long, global = true)]
    pub db: Option<PathBuf>,
    /// Use the file transport into this folder, overriding the configuration.
    #[arg(long, global = true)]
    pub outbox: Option<PathBuf>,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

const AFTER_HELP: &str = "Any command of the mail language also runs from the shell, as the admin:\n  \
pbem limit show 101\n  pbem signup alice secret alice@example.org\n\n\
PBEM_NOW (unix seconds) sets the clock and PBEM_SEED the seed of new games' layouts,\nfor tests and the demo.";

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Read one RFC 5322 message on stdin (as an MTA pipe delivers it), or messages from files.
    Ingest {
        /// Message files; none: read one message from stdin.
        files: Vec<PathBuf>,
    },
    /// Process the messages in DIR/new and move them to DIR/cur (for cron with a Maildir).
    Maildir {
        /// The Maildir (holding new/ and cur/).
        dir: PathBuf,
    },
    /// Run as a resident LMTP server (RFC 2033) that the MTA hands mail to (Postfix: lmtp:unix:PATH
    /// or lmtp:inet:HOST:PORT), instead of starting `ingest` for each mail. Stops on SIGTERM/SIGINT
    /// after the mails in hand.
    Lmtp {
        /// Where to listen, overriding `[lmtp] listen`: unix:/path/to/socket or inet:host:port.
        #[arg(long)]
        listen: Option<String>,
    },
    /// Serve read-only web pages of the games (boards, move lists, ratings, standings) over HTTP.
    /// Stops on SIGTERM/SIGINT.
    Web {
        /// Where to listen, overriding `[web] listen`: host:port (port 0: any free port, printed).
        #[arg(long)]
        listen: Option<String>,
    },
    /// Run the clock (daily or hourly, from cron): nag every player whose move is overdue, forfeit
    /// those past the forfeit time, then send what the outbox holds. Safe to run twice at once.
    Cron,
    /// Rewrites the database file so that space freed by pruning goes back to the file system from
    /// then on (once, for a database made by a pbem older than migration 0011; it waits for other
    /// writers like any command).
    Compact,
    /// The mail waiting to be sent.
    Outbox {
        /// flush: send what is waiting; list: show it.
        #[command(subcommand)]
        action: OutboxAction,
    },
    /// Drive a rules engine from the shell: `pbem engine limit new|moves|play|status|show|perft|playout`.
    Engine {
        /// The game and the engine command with its arguments.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// The admin's overrides, at the shell only: each is written into the game's history with the
    /// reason, and the players get the board.
    Admin {
        /// What to do.
        #[command(subcommand)]
        action: AdminAction,
    },
    /// Any command line of the mail language, run as the admin: `pbem limit show 101`.
    #[command(external_subcommand)]
    Mail(Vec<String>),
}

/// `pbem admin ...`
#[derive(Debug, Subcommand)]
pub enum AdminAction {
    /// Sets a player's password.
    Password {
        /// The player.
        userid: String,
        /// The new password.
        password: String,
    },
    /// Ends a running game: a winner, a draw, or cancelled (unrated).
    End {
        /// The game type: limit.
        game: String,
        /// The board number.
        board: u32,
        /// The player who wins (the others forfeit).
        #[arg(long, conflicts_with_all = ["draw", "cancel"])]
        winner: Option<String>,
        /// A draw between the players still in (rated).
        #[arg(long, conflicts_with = "cancel")]
        draw: bool,
        /// Ends it unrated, as if never played.
        #[arg(long)]
        cancel: bool,
        /// Why, as the players will read it.
        #[arg(long)]
        reason: String,
    },
    /// Puts another player in a player's seat.
    Replace {
        /// The game type: limit.
        game: String,
        /// The board number.
        board: u32,
        /// The player leaving.
        old: String,
        /// The player coming in.
        new: String,
        /// Why, as the players will read it.
        #[arg(long)]
        reason: String,
    },
    /// Takes back the last move of a running game.
    Undo {
        /// The game type: limit.
        game: String,
        /// The board number.
        board: u32,
        /// Why, as the players will read it.
        #[arg(long)]
        reason: String,
    },
}

/// `pbem outbox ...`
#[derive(Debug, Subcommand)]
pub enum OutboxAction {
    /// Send every mail still waiting (cron calls this).
    Flush,
    /// List the mails still waiting.
    List {
        /// List the sent ones too.
        #[arg(long)]
        all: bool,
    },
}

/// Reads the configuration and applies the flags that override it.
pub fn config(args: &Args) -> Result<Config, String> {
    let mut cfg = Config::load(args.config.as_deref()).map_err(|e| e.to_string())?;
    if let Some(db) = &args.db {
        cfg.database.path = db.clone();
    }
    if let Some(dir) = &args.outbox {
        cfg.mail.transport = Transport::File;
        cfg.mail.outbox_dir = dir.clone();
    }
    Ok(cfg)
}

/// Parses the binary's own flags: help and version are printed (exit 0), any other mistake is a
/// usage error (exit 64, as the README promises; clap's own is 2).
pub fn parse_args() -> Result<Args, i32> {
    Args::try_parse().map_err(|e| {
        let _ = e.print();
        if e.use_stderr() { EX_USAGE } else { EX_OK }
    })
}

/// What a run takes from around it besides its flags: `PBEM_NOW` and `PBEM_SEED` as the
/// environment has them, and its standard streams. The binary gives its own process's ([`run`]); the
/// end-to-end tests (tests/it/common) give theirs to run a command inside the test process, which
/// spares a process start for each mail of a test that is not about processes.
pub struct Surroundings<'a> {
    /// `PBEM_NOW`: the clock stands at these unix seconds; `None`: the system's time.
    pub now: Option<String>,
    /// `PBEM_SEED`: the seed of new games' layouts; `None`: a random one.
    pub seed: Option<String>,
    /// The argon2 cost of new hashes and of the unknown-userid check in place of the
    /// configuration's `[passwords]`. Only code that links the library can set it: the binary
    /// gives `None`, and no flag, environment variable or configuration key leads here, so it
    /// cannot cheapen a server's hashes. The tests set a cheap one where the cost is not what
    /// they test (tests/it/common).
    pub passwords: Option<crate::accounts::PasswordConfig>,
    /// Standard input (the message of `ingest` without files, the game of `engine`).
    pub stdin: &'a mut dyn Read,
    /// Standard output.
    pub out: &'a mut dyn Write,
    /// Standard error. The server's own notes (a robot's move left for later, a mail not sent) are
    /// not written here but to the process's standard error.
    pub err: &'a mut dyn Write,
}

/// Runs the command and returns the exit status.
pub fn run(args: Args) -> i32 {
    crate::sys::ignore_file_size_signal();
    // Not locked for the whole run: `lmtp`'s and `web`'s threads write to stderr too.
    run_with(
        args,
        Surroundings {
            now: std::env::var("PBEM_NOW").ok(),
            seed: std::env::var("PBEM_SEED").ok(),
            passwords: None,
            stdin: &mut std::io::stdin().lock(),
            out: &mut std::io::stdout(),
            err: &mut std::io::stderr(),
        },
    )
}

/// [`run`] with its surroundings given: the whole of the binary but for reading its environment.
pub fn run_with(args: Args, around: Surroundings<'_>) -> i32 {
    let Surroundings {
        now,
        seed,
        passwords,
        stdin,
        out,
        err,
    } = around;
    if let Command::Engine { args } = &args.command {
        return crate::engine_cli::run(&crate::games::Registry::standard(), args, stdin, out, err);
    }
    let mut cfg = match config(&args) {
        Ok(c) => c,
        Err(e) => {
            let _ = writeln!(err, "pbem: {e}");
            return EX_CONFIG;
        }
    };
    if let Some(p) = passwords {
        cfg.passwords = p;
    }
    if let Some(path) = &args.config
        && let Some(warning) = crate::config::exposed_secret(path, &cfg)
    {
        let _ = writeln!(err, "pbem: warning: {warning}");
    }
    let db_path = cfg.database.path.clone();
    let db = db_path.as_path();
    let clock = match crate::clock::from_value(now.as_deref()) {
        Ok(n) => n,
        Err(e) => {
            let _ = writeln!(err, "pbem: {e}");
            return EX_USAGE;
        }
    };
    let seed = match seed {
        Some(v) => match v.trim().parse::<u64>() {
            Ok(n) => Some(n),
            Err(_) => {
                let _ = writeln!(err, "pbem: PBEM_SEED must be a whole number; it is '{v}'");
                return EX_USAGE;
            }
        },
        None => None,
    };
    // The message on stdin is read before the database is opened, so that an MTA writing it never
    // meets a closed pipe, even when the database is busy and the answer is "try again" (75).
    // Only one byte more than the limit is kept: enough to know the mail is too big, so that 400 MB
    // on stdin cost no more memory than 256 KiB. The rest is read and dropped, so that the MTA
    // writing it never meets a closed pipe.
    let max_bytes = cfg.limits.max_message_bytes;
    let stdin_message = match &args.command {
        Command::Ingest { files } if files.is_empty() => {
            let mut raw = Vec::new();
            let read = read_bounded(stdin, max_bytes, &mut raw)
                .and_then(|()| std::io::copy(stdin, &mut std::io::sink()).map(|_| ()));
            if let Err(e) = read {
                let _ = writeln!(err, "pbem: reading stdin: {e}");
                return EX_TEMPFAIL;
            }
            Some(raw)
        }
        _ => None,
    };
    if let Command::Web { listen } = &args.command {
        let listen = listen.clone().unwrap_or_else(|| cfg.web.listen.clone());
        if let Err(e) = crate::config::check_host_port(&listen) {
            let _ = writeln!(err, "pbem: --listen: {e}");
            return EX_USAGE;
        }
        return crate::web::run(&cfg, &listen, &crate::games::Registry::standard());
    }
    if let Command::Lmtp { listen } = &args.command {
        let listen = match listen {
            Some(s) => crate::config::Listen::parse(s).map_err(|e| format!("--listen: {e}")),
            None => crate::config::Listen::of(&cfg),
        };
        return match listen {
            Ok(listen) => crate::lmtp::run(cfg, &listen, seed, clock),
            Err(e) => {
                let _ = writeln!(err, "pbem: {e}");
                EX_USAGE
            }
        };
    }
    let cfg_keep_days = cfg.mail.outbox_keep_days;
    // `help` reads nothing stored: run where no database is (any folder, a user without the pbem
    // user's rights), it must not leave a pbem.sqlite behind, so it gets a private one in memory.
    let opened = if needs_no_database(&args.command) {
        Server::open_in_memory(cfg, clock.now())
    } else {
        Server::open_at(cfg, clock)
    };
    let mut server = match opened {
        Ok(s) => s.with_seed(seed),
        Err(e) => return server_failure(err, &e, db),
    };
    match args.command {
        Command::Engine { .. } | Command::Lmtp { .. } | Command::Web { .. } => {
            unreachable!("handled above")
        }
        Command::Ingest { files } => match stdin_message {
            Some(raw) => ingest_one(&mut server, &raw, "stdin", db, err, &mut Tally::default()),
            None => ingest(&mut server, &files, max_bytes, db, err),
        },
        Command::Maildir { dir } => maildir(&mut server, &dir, max_bytes, db, err),
        Command::Cron => match server.cron() {
            Ok(r) => {
                let _ = writeln!(out, "{}", r.line());
                if r.failed > 0 { EX_TEMPFAIL } else { EX_OK }
            }
            Err(e) => server_failure(err, &e, db),
        },
        Command::Compact => {
            let before = file_size(db);
            match server.db().compact() {
                Ok(()) => {
                    let _ = writeln!(
                        out,
                        "compact: {} bytes before, {} after",
                        before,
                        file_size(db)
                    );
                    EX_OK
                }
                Err(e) => server_failure(err, &ServerError::Storage(e), db),
            }
        }
        Command::Outbox {
            action: OutboxAction::Flush,
        } => match server.flush_outbox() {
            Ok(r) => {
                let _ = write!(out, "sent {}, failed {}", r.sent, r.failed);
                if r.refused > 0 {
                    let _ = write!(out, ", refused for good {} (not tried again)", r.refused);
                }
                if r.delivered_earlier > 0 {
                    let _ = write!(
                        out,
                        ", {} delivered by a killed sender's hand-off",
                        r.delivered_earlier
                    );
                }
                let _ = writeln!(out);
                if r.failed > 0 { EX_TEMPFAIL } else { EX_OK }
            }
            Err(e) => server_failure(err, &e, db),
        },
        Command::Outbox {
            action: OutboxAction::List { all },
        } => match server.db().outbox(!all) {
            Ok(rows) => {
                let waiting = rows
                    .iter()
                    .filter(|r| r.sent_at.is_none() && r.refused_at.is_none())
                    .count();
                let _ = writeln!(
                    err,
                    "outbox: {waiting} waiting{} (sent mail is kept {} days)",
                    if all {
                        format!(", {} sent", rows.len() - waiting)
                    } else {
                        String::new()
                    },
                    cfg_keep_days
                );
                for r in rows {
                    let (to, subject) =
                        match serde_json::from_str::<crate::mail_out::OutgoingMail>(&r.mail) {
                            Ok(m) => (m.to.join(","), m.subject),
                            Err(_) => ("?".into(), "(unreadable)".into()),
                        };
                    let state = match (r.sent_at, r.refused_at) {
                        // Taken by the MTA, then refused by the far end (a delivery report).
                        (Some(_), Some(at)) => format!(
                            "sent, then refused for good {} ({})",
                            crate::summary::format_time(at),
                            r.last_error.as_deref().unwrap_or("")
                        ),
                        (Some(_), None) => "sent".to_string(),
                        (None, Some(at)) => format!(
                            "refused for good {} ({}), not tried again",
                            crate::summary::format_time(at),
                            r.last_error.as_deref().unwrap_or("")
                        ),
                        (None, None) => format!("waiting, {} tries", r.attempts),
                    };
                    let _ = writeln!(out, "{}\t{state}\t{to}\t{subject}", r.id);
                }
                list_bounces(&server, out, err)
            }
            Err(e) => server_failure(err, &ServerError::Storage(e), db),
        },
        Command::Admin { action } => {
            let what = match action {
                AdminAction::Password { userid, password } => {
                    Override::Password { userid, password }
                }
                AdminAction::End {
                    game,
                    board,
                    winner,
                    draw,
                    cancel,
                    reason,
                } => {
                    if winner.is_none() && !draw && !cancel {
                        let _ = writeln!(
                            err,
                            "pbem: admin end: say how it ends: --winner USERID, --draw or --cancel"
                        );
                        return EX_USAGE;
                    }
                    Override::End {
                        game,
                        board,
                        winner,
                        cancel,
                        reason,
                    }
                }
                AdminAction::Replace {
                    game,
                    board,
                    old,
                    new,
                    reason,
                } => Override::Replace {
                    game,
                    board,
                    old,
                    new,
                    reason,
                },
                AdminAction::Undo {
                    game,
                    board,
                    reason,
                } => Override::Undo {
                    game,
                    board,
                    reason,
                },
            };
            match server.admin_override(&what) {
                Ok((ok, text)) => {
                    let _ = out.write_all(text.as_bytes());
                    if ok { EX_OK } else { EX_REFUSED }
                }
                Err(e) => server_failure(err, &e, db),
            }
        }
        Command::Mail(words) => {
            let line = words.join(" ");
            // A line that is no command of the language is a usage error (64), answered with the
            // text a mail would get; a command refused by the server (wrong password, illegal
            // move) is 1.
            let unreadable = crate::command::parse(&line).is_err();
            match server.run_admin(&line, "") {
                Ok(o) => {
                    let _ = out.write_all(o.text.as_bytes());
                    match (o.ok, unreadable) {
                        (true, _) => EX_OK,
                        (false, true) => EX_USAGE,
                        (false, false) => EX_REFUSED,
                    }
                }
                Err(e) => server_failure(err, &e, db),
            }
        }
    }
}

/// True for a command that reads and writes nothing stored: `help ...` and `<game> help`, whose
/// answers come from the command table and the games' rules alone.
fn needs_no_database(command: &Command) -> bool {
    let Command::Mail(words) = command else {
        return false;
    };
    matches!(
        crate::command::parse(&words.join(" ")),
        Ok(crate::command::RawCommand::Help { .. }
            | crate::command::RawCommand::Game {
                command: crate::command::GameCommand::Help,
                ..
            })
    )
}

/// Reports a failure of the server on one line and returns its exit status.
fn server_failure(err: &mut dyn Write, e: &ServerError, db: &Path) -> i32 {
    let (status, line) = failure_status(e, db);
    let _ = writeln!(err, "pbem: {line}");
    status
}

/// What became of the messages of one `ingest` or `maildir` run, for its summary line.
#[derive(Debug, Default)]
struct Tally {
    handled: usize,
    silent: usize,
    duplicate: usize,
    retried: usize,
    failed: usize,
}

impl Tally {
    /// `maildir: 12 messages: 9 handled, 1 not answered, 1 duplicate, 1 left for a retry`.
    fn line(&self, what: &str) -> String {
        let total = self.handled + self.silent + self.duplicate + self.retried + self.failed;
        let mut s = format!(
            "{what}: {total} messages: {} handled, {} not answered (bounces, lists, autoreplies, \
             no address), {} duplicate, {} left for a retry",
            self.handled, self.silent, self.duplicate, self.retried
        );
        if self.failed > 0 {
            s.push_str(&format!(", {} failed", self.failed));
        }
        s
    }
}

/// Ingests one message and counts what became of it.
fn ingest_one(
    server: &mut Server,
    raw: &[u8],
    name: &str,
    db: &Path,
    err: &mut dyn Write,
    tally: &mut Tally,
) -> i32 {
    match server.ingest(raw) {
        Ok(outcome) => {
            match &outcome {
                IngestOutcome::Handled { .. } => tally.handled += 1,
                IngestOutcome::Duplicate => tally.duplicate += 1,
                IngestOutcome::Silent(_) | IngestOutcome::Dropped(_) | IngestOutcome::Report(_) => {
                    tally.silent += 1
                }
            }
            if let Some(note) = outcome_note(&outcome) {
                let _ = writeln!(err, "pbem: {name}: {note}");
            }
            EX_OK
        }
        Err(e) => {
            let code = server_failure(err, &e, db);
            if code == EX_TEMPFAIL {
                tally.retried += 1;
            } else {
                tally.failed += 1;
            }
            code
        }
    }
}

/// A file's size in bytes, 0 if it cannot be read.
fn file_size(path: &Path) -> u64 {
    std::fs::metadata(path).map(|m| m.len()).unwrap_or(0)
}

fn worse(a: i32, b: i32) -> i32 {
    // Temporary failure outranks the others: the MTA must retry.
    let rank = |c: i32| match c {
        EX_OK => 0,
        EX_TEMPFAIL => 2,
        _ => 1,
    };
    if rank(b) > rank(a) { b } else { a }
}

/// Reads at most `max_bytes + 1` bytes of `from` into `raw`: a longer message is known to be too
/// long (and refused by [`Server::ingest`]) without holding all of it.
fn read_bounded(from: &mut dyn Read, max_bytes: usize, raw: &mut Vec<u8>) -> std::io::Result<()> {
    let limit = u64::try_from(max_bytes)
        .unwrap_or(u64::MAX)
        .saturating_add(1);
    from.take(limit).read_to_end(raw).map(|_| ())
}

/// A message file, read as far as [`read_bounded`] goes.
fn read_message(path: &Path, max_bytes: usize) -> std::io::Result<Vec<u8>> {
    let mut raw = Vec::new();
    read_bounded(&mut std::fs::File::open(path)?, max_bytes, &mut raw)?;
    Ok(raw)
}

/// With `PBEM_REPORT_RSS=1`, prints the process's peak resident memory (VmHWM), its argon2 runs and
/// the board pictures it drew on stderr: the memory figures of the tests and of
/// scripts/abuse/memory.sh, and the tests' count of drawings, come from here.
pub fn report_rss() {
    if std::env::var("PBEM_REPORT_RSS").as_deref() != Ok("1") {
        return;
    }
    let peak = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .map(|v| v.trim().trim_end_matches("kB").trim().to_string())
        })
        .unwrap_or_else(|| "?".to_string());
    eprintln!(
        "pbem: peak RSS {peak} kB, argon2 hashes {}, pictures drawn {}",
        crate::accounts::hashes_run(),
        crate::picture::draws_in_process()
    );
}

fn ingest(
    server: &mut Server,
    files: &[PathBuf],
    max_bytes: usize,
    db: &Path,
    err: &mut dyn Write,
) -> i32 {
    let mut status = EX_OK;
    let mut tally = Tally::default();
    for f in files {
        let code = match read_message(f, max_bytes) {
            Ok(raw) => ingest_one(server, &raw, &f.display().to_string(), db, err, &mut tally),
            Err(e) => {
                let _ = writeln!(err, "pbem: {}: {e}", f.display());
                tally.failed += 1;
                EX_USAGE
            }
        };
        status = worse(status, code);
    }
    if files.len() > 1 {
        let _ = writeln!(err, "pbem: {}", tally.line("ingest"));
    }
    status
}

/// Processes `DIR/new` into `DIR/cur`. A message that failed for a temporary reason stays in `new` for
/// the next run; every other one moves to `cur` (flagged seen), so nothing is processed in a loop.
fn maildir(
    server: &mut Server,
    dir: &Path,
    max_bytes: usize,
    db: &Path,
    err: &mut dyn Write,
) -> i32 {
    let new = dir.join("new");
    let cur = dir.join("cur");
    let entries = match std::fs::read_dir(&new) {
        Ok(e) => e,
        Err(e) => {
            let _ = writeln!(
                err,
                "pbem: {}: {e} (a Maildir holds new/, cur/ and tmp/)",
                new.display()
            );
            return EX_USAGE;
        }
    };
    if let Err(e) = std::fs::create_dir_all(&cur) {
        let _ = writeln!(err, "pbem: {}: {e}", cur.display());
        return EX_TEMPFAIL;
    }
    let mut names: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    // Maildir names start with the delivery time: sorting keeps the players' order of moves.
    names.sort();
    let mut status = EX_OK;
    let mut tally = Tally::default();
    for path in names {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let code = match read_message(&path, max_bytes) {
            Ok(raw) => ingest_one(server, &raw, &name, db, err, &mut tally),
            Err(e) => {
                let _ = writeln!(err, "pbem: {}: {e}", path.display());
                tally.retried += 1;
                EX_TEMPFAIL
            }
        };
        if code != EX_TEMPFAIL {
            let base = name.split(':').next().unwrap_or(&name).to_string();
            if let Err(e) = std::fs::rename(&path, cur.join(format!("{base}:2,S"))) {
                let _ = writeln!(err, "pbem: moving {name} to cur: {e}");
                status = worse(status, EX_TEMPFAIL);
            }
        }
        status = worse(status, code);
    }
    let _ = writeln!(err, "pbem: {}", tally.line("maildir"));
    status
}

/// The end of `pbem outbox list`: the addresses that refuse mail, which the server mails no more.
fn list_bounces(server: &Server, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    match server.db().bounces() {
        Ok(bounces) => {
            for b in bounces {
                let _ = writeln!(
                    out,
                    "bounces\t{}\trefused since {}, last {}: {}; {} mail(s) not sent to it since \
                     (mailed again once an answer to a mail from it gets through)",
                    b.address,
                    crate::summary::format_time(b.first_at),
                    crate::summary::format_time(b.last_at),
                    b.refusal,
                    b.held
                );
            }
            EX_OK
        }
        Err(e) => {
            let _ = writeln!(err, "pbem: {e}");
            crate::exit::EX_SOFTWARE
        }
    }
}

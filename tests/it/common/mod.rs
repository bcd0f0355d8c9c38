//! Shared helpers for the end-to-end tests: a server in a temporary folder (real SQLite file, file
//! transport into an outbox folder), real `.eml` messages fed to `pbem ingest`, and the mails that
//! come out read back with mail-parser.
//!
//! `pbem` runs two ways. [`Env::cmd`] starts the real binary: for the tests about processes, exit
//! statuses, kills, the environment and the README's commands. [`Env::ingest`], [`Env::deliver`],
//! [`Env::admin`] and the helpers built on them run the same command through the binary's own entry
//! (`pbem::cli::run_with`, the whole of `main` but for reading the environment) inside the test
//! process, with cheap password hashes ([`TEST_PASSWORDS`]): a process start and a full-cost argon2
//! run per mail were most of the tests' CPU (docs/performance.md, "The tests' CPU").

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::atomic::{AtomicU32, Ordering};

use mail_parser::MessageParser;

mod command;
/// The property tests' settings (proptest): the unit tests' own file, so both run the same way.
#[path = "../../../src/props.rs"]
#[allow(dead_code)]
pub mod props;
pub use command::Command;

/// The clock every test runs at: 2026-11-18 11:06:40 UTC.
pub const NOW: i64 = 1_795_000_000;
/// The seed of every new game's layout in these tests.
pub const SEED: u64 = 7;

/// A server living in a temporary folder.
pub struct Env {
    pub dir: tempfile::TempDir,
    pub db: PathBuf,
    pub outbox: PathBuf,
    pub now: i64,
    /// A configuration file every command is given (`--config`), if any.
    pub config: Option<PathBuf>,
    /// [`Env::run`] hashes at the cost of a default install, not [`TEST_PASSWORDS`].
    pub production_passwords: bool,
}

/// The argon2 cost of the passwords hashed by [`Env::run`]: the least argon2 allows (8 KiB, one
/// pass) instead of a default install's 19 MiB and two passes, which cost about 30 ms a hash, the
/// most expensive part of most tests. The tests of what passwords cost use the binary or
/// [`Env::with_production_passwords`]; `passwords_of_a_default_install_cost_what_owasp_asks`
/// checks that a default install hashes at full cost.
pub const TEST_PASSWORDS: pbem::accounts::PasswordConfig = pbem::accounts::PasswordConfig {
    memory_kib: 8,
    iterations: 1,
    parallelism: 1,
};

/// [`TEST_PASSWORDS`] as a configuration file's `[passwords]` section (the key an install has too),
/// for a test that starts the binary many times over and is not about what passwords cost.
pub const CHEAP_PASSWORDS: &str = "[passwords]\nmemory_kib = 8\niterations = 1\nparallelism = 1\n";

/// True when every command must run in the binary: `PBEM_IT_BIN` names another build, or
/// `PBEM_IT_PROCESSES=1`.
pub fn processes_only() -> bool {
    std::env::var_os("PBEM_IT_BIN").is_some()
        || std::env::var("PBEM_IT_PROCESSES").as_deref() == Ok("1")
}

/// True under `PBEM_IT_THOROUGH=1`: the tests that repeat one check over seeds, positions or rounds
/// run every repetition they ran before issue 35 cut them to a sample (robot searches at each seed,
/// a thousand rounds of abuse), for a run that may take longer (docs/performance.md, "The tests'
/// CPU").
pub fn thorough() -> bool {
    std::env::var("PBEM_IT_THOROUGH").as_deref() == Ok("1")
}

/// The configuration of tests that compare every answer a sender gets: the allowances of answers to
/// one address that issue 22 added (a few a day to an address that is no player's, none after a run
/// of error answers) are off, so that each mail is answered.
pub const EVERY_ANSWER: &str =
    "[limits]\nreplies_per_new_address_per_day = 100000\nerror_answers_before_quiet = 0\n";

/// One mail the server sent, read back from the outbox folder.
#[derive(Debug, Clone)]
pub struct Sent {
    pub to: Vec<String>,
    pub subject: String,
    pub body: String,
    pub raw: String,
}

impl Sent {
    /// The body with its lines joined by single spaces: error explanations are wrapped at 72
    /// columns, so a phrase may straddle two lines.
    pub fn flat_body(&self) -> String {
        flat(&self.body)
    }

    /// The body's first line: under a game's one Subject (the default, issue 37) a board mail's
    /// state, as `subject state` puts it in the Subject (`Limit Board 101: your move`).
    pub fn first_line(&self) -> &str {
        self.body.lines().next().unwrap_or("")
    }

    /// The body under that first line and the blank line after it: a board mail's news.
    pub fn after_state(&self) -> &str {
        self.body.split_once("\n\n").map_or("", |(_, rest)| rest)
    }

    /// The value of a header, by name (case-insensitive), as it stands in the raw message.
    pub fn header(&self, name: &str) -> Option<String> {
        let msg = MessageParser::default().parse(self.raw.as_bytes())?;
        msg.header_raw(name).map(|v| v.trim().to_string())
    }
}

/// Text with every run of blanks and line breaks made one space.
pub fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

static COUNTER: AtomicU32 = AtomicU32::new(0);

/// A plain-text message as a mail client sends it.
pub fn eml(from: &str, subject: &str, body: &str) -> String {
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let pid = std::process::id();
    format!(
        "From: {from}\r\nTo: pbem@localhost\r\nSubject: {subject}\r\nDate: Wed, 18 Nov 2026 10:00:00 +0000\r\n\
         Message-ID: <t{pid}-{n}@client.example>\r\nMIME-Version: 1.0\r\n\
         Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{}",
        body.replace('\n', "\r\n")
    )
}

impl Env {
    pub fn new() -> Env {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("pbem.sqlite");
        let outbox = dir.path().join("outbox");
        Env {
            dir,
            db,
            outbox,
            now: NOW,
            config: None,
            production_passwords: false,
        }
    }

    /// The same env with the argon2 cost of a default install in [`Env::run`] too, for a test of
    /// what passwords cost.
    pub fn with_production_passwords(mut self) -> Env {
        self.production_passwords = true;
        self
    }

    /// `pbem ARGS` with `stdin`, as [`Env::cmd`] runs it, but inside the test process
    /// (`pbem::cli::run_with`): what a test that is not about processes needs, without a process
    /// start, and with cheap password hashes ([`TEST_PASSWORDS`]) unless the configuration has a
    /// `[passwords]` section or the env [`Env::with_production_passwords`]. Two things differ from
    /// the binary: the server's own notes on stderr (a robot's move left for later, a mail not
    /// sent) go to the test's output instead of `stderr`, and a panic fails the test instead of
    /// exiting 101. Under `PBEM_IT_BIN` or `PBEM_IT_PROCESSES=1` it starts the binary like
    /// [`Env::cmd`], e.g. to see that a test means the same either way.
    pub fn run(&self, args: &[&str], stdin: &[u8]) -> Output {
        if processes_only() {
            return self.cmd().args(args).write_stdin(stdin).output().unwrap();
        }
        let mut argv: Vec<std::ffi::OsString> = vec!["pbem".into(), "--db".into()];
        argv.push(self.db.clone().into());
        argv.push("--outbox".into());
        argv.push(self.outbox.clone().into());
        if let Some(cfg) = &self.config {
            argv.push("--config".into());
            argv.push(cfg.clone().into());
        }
        argv.extend(args.iter().map(std::ffi::OsString::from));
        let mut parsed = match <pbem::cli::Args as clap::Parser>::try_parse_from(&argv) {
            Ok(a) => a,
            // Usage errors are the binary's to word and number.
            Err(_) => return self.cmd().args(args).write_stdin(stdin).output().unwrap(),
        };
        // clap reads PBEM_CONFIG from the environment; the binary's is removed (`std_cmd`).
        parsed.config = self.config.clone();
        let own_passwords = self.production_passwords
            || self.config.as_ref().is_some_and(|c| {
                std::fs::read_to_string(c).is_ok_and(|t| t.contains("[passwords]"))
            });
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = pbem::cli::run_with(
            parsed,
            pbem::cli::Surroundings {
                now: Some(self.now.to_string()),
                seed: Some(SEED.to_string()),
                passwords: (!own_passwords).then_some(TEST_PASSWORDS),
                stdin: &mut &stdin[..],
                out: &mut out,
                err: &mut err,
            },
        );
        Output {
            status: std::os::unix::process::ExitStatusExt::from_raw((code & 0xff) << 8),
            stdout: out,
            stderr: err,
        }
    }

    /// The same env with a configuration file holding `toml` (see [`EVERY_ANSWER`]).
    pub fn with_config(mut self, toml: &str) -> Env {
        let path = self.dir.path().join("pbem.toml");
        std::fs::write(&path, toml).unwrap();
        self.config = Some(path);
        self
    }

    /// `pbem --db … --outbox … ARGS` with the test clock and seed.
    pub fn cmd(&self) -> Command {
        Command::from_std(self.std_cmd())
    }

    /// Feeds one message to `pbem ingest` on stdin, as an MTA pipe does, inside the test process
    /// (see [`Env::run`]; `cmd().arg("ingest")` starts the binary).
    pub fn ingest(&self, message: &str) -> Output {
        self.run(&["ingest"], message.as_bytes())
    }

    /// Ingests and asserts exit status 0 (handled).
    pub fn deliver(&self, message: &str) {
        let out = self.ingest(message);
        assert_eq!(
            out.status.code(),
            Some(0),
            "ingest failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Runs a mail-language command from the shell, as the admin, inside the test process (see
    /// [`Env::run`]).
    pub fn admin(&self, line: &str) -> Output {
        self.run(&line.split_whitespace().collect::<Vec<_>>(), b"")
    }

    /// The mails sent since the last call (they are removed from the outbox folder), sorted by
    /// recipient and subject.
    pub fn take_mails(&self) -> Vec<Sent> {
        let mut out = Vec::new();
        let Ok(entries) = std::fs::read_dir(&self.outbox) else {
            return out;
        };
        for e in entries {
            let path = e.unwrap().path();
            if path.extension().and_then(|x| x.to_str()) != Some("eml") {
                continue;
            }
            out.push(read_mail(&path));
            std::fs::remove_file(&path).unwrap();
        }
        out.sort_by(|a, b| (&a.to, &a.subject).cmp(&(&b.to, &b.subject)));
        out
    }

    /// Runs a mail-language command from the shell; it must succeed. Returns what it printed.
    pub fn admin_ok(&self, line: &str) -> String {
        let out = self.admin(line);
        assert!(
            out.status.success(),
            "{line}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    /// The one mail to `to` among those sent since the last call (the others are dropped).
    pub fn only_mail_to(&self, to: &str) -> Sent {
        let mails: Vec<Sent> = self
            .take_mails()
            .into_iter()
            .filter(|m| m.to.iter().any(|t| t == to))
            .collect();
        assert_eq!(mails.len(), 1, "{mails:#?}");
        mails.into_iter().next().unwrap()
    }

    /// Signs up alice and bob (and carol) by mail and drops the confirmations.
    pub fn players(&self, names: &[&str]) {
        for n in names {
            self.deliver(&eml(
                &format!("{n}@example.org"),
                &format!("signup {n} pw-{n}"),
                "",
            ));
        }
        self.take_mails();
    }
}

fn read_mail(path: &Path) -> Sent {
    let raw = std::fs::read_to_string(path).unwrap();
    let msg = MessageParser::default()
        .parse(raw.as_bytes())
        .expect("the server's mail parses");
    let to = msg
        .to()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.address().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    Sent {
        to,
        subject: msg.subject().unwrap_or_default().to_string(),
        body: msg
            .body_text(0)
            .map(|b| b.replace("\r\n", "\n"))
            .unwrap_or_default(),
        raw,
    }
}

/// The new game of the tests' seed, after these moves: its legal moves now.
pub fn legal_moves_after(options: &[&str], players: usize, moves: &[&str]) -> Vec<String> {
    let opts: Vec<_> = options
        .iter()
        .map(|o| pbem::games::GameOption::parse(o).unwrap())
        .collect();
    let mut g = pbem::games::Registry::standard()
        .find("limit")
        .unwrap()
        .new_game(&opts, players, SEED)
        .unwrap();
    for m in moves {
        g.play(m).unwrap();
    }
    g.legal_moves()
}

/// A plain-text message with a Message-ID of the test's choosing (`id` without angle brackets), so that
/// the same message can be delivered several times and its replies found by In-Reply-To.
pub fn eml_with_id(from: &str, subject: &str, body: &str, id: &str) -> String {
    format!(
        "From: {from}\r\nTo: pbem@localhost\r\nSubject: {subject}\r\nDate: Wed, 18 Nov 2026 10:00:00 +0000\r\n\
         Message-ID: <{id}>\r\nMIME-Version: 1.0\r\n\
         Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{}",
        body.replace('\n', "\r\n")
    )
}

/// The `pbem` binary that cargo built for these tests, or `PBEM_IT_BIN` when set (to see a test fail
/// on an older build: `PBEM_IT_BIN=/tmp/pbem-old cargo test --test it NAME`).
pub fn pbem_bin() -> PathBuf {
    std::env::var_os("PBEM_IT_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_pbem")))
}

impl Sent {
    /// The address of the mail's `Reply-To` (a board mail's signed `pbem+…@` one), without the
    /// display name and angle brackets.
    pub fn reply_address(&self) -> String {
        let h = self
            .header("Reply-To")
            .unwrap_or_else(|| panic!("no Reply-To in\n{}", self.raw));
        h.rsplit_once('<')
            .map_or(h.as_str(), |(_, a)| a.trim_end_matches('>'))
            .to_string()
    }

    /// The Message-ID this mail answers (In-Reply-To), without angle brackets.
    pub fn in_reply_to(&self) -> Option<String> {
        self.header("In-Reply-To")
            .map(|v| v.trim_matches(|c| c == '<' || c == '>').to_string())
    }
}

impl Env {
    /// `pbem --db … --outbox …` with the test clock and seed, as a plain std Command: for starting many
    /// processes side by side and feeding them their stdin later.
    pub fn std_cmd(&self) -> std::process::Command {
        let mut c = std::process::Command::new(pbem_bin());
        c.arg("--db")
            .arg(&self.db)
            .arg("--outbox")
            .arg(&self.outbox)
            .env("PBEM_NOW", self.now.to_string())
            .env("PBEM_SEED", SEED.to_string())
            .env_remove("PBEM_CONFIG");
        if let Some(cfg) = &self.config {
            c.arg("--config").arg(cfg);
        }
        c
    }

    /// The SQLite file, opened directly (for checks the shell interface does not offer).
    pub fn sqlite(&self) -> rusqlite::Connection {
        let c = rusqlite::Connection::open(&self.db).unwrap();
        c.busy_timeout(std::time::Duration::from_secs(10)).unwrap();
        c
    }

    /// The move list of a `limit` board as stored in the database, `(Auto)` entries included.
    pub fn stored_moves(&self, board: u32) -> Vec<pbem::games::MoveRecord> {
        self.stored_game(board).moves()
    }

    /// A `limit` board as stored in the database.
    pub fn stored_game(&self, board: u32) -> Box<dyn pbem::games::GameState> {
        self.stored_game_of("limit", board)
    }

    /// A board of the game `game` as stored in the database.
    pub fn stored_game_of(&self, game: &str, board: u32) -> Box<dyn pbem::games::GameState> {
        let state: String = self
            .sqlite()
            .query_row(
                "SELECT st.state FROM games g JOIN game_states st ON st.game_id = g.id
                 WHERE g.game_type = ?1 AND g.board = ?2",
                rusqlite::params![game, board],
                |r| r.get(0),
            )
            .unwrap();
        pbem::games::Registry::standard()
            .find(game)
            .unwrap()
            .load(&state)
            .unwrap()
    }

    /// `PRAGMA integrity_check` on the database file: `ok` when all is well.
    pub fn integrity_check(&self) -> String {
        self.sqlite()
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .unwrap()
    }
}

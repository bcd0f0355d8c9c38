//! Shared helpers for the end-to-end tests: a server in a temporary folder (real SQLite file, file
//! transport into an outbox folder), real `.eml` messages fed to the real `pbem` binary, and the mails
//! that come out read back with mail-parser.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::atomic::{AtomicU32, Ordering};

use mail_parser::MessageParser;

/// Randomized property tests, shared with the unit tests (the crate's `cases` module is test-only).
#[path = "../../../src/cases.rs"]
pub mod cases;
mod command;
#[path = "../../../src/scratch.rs"]
pub mod scratch;
pub use command::Command;

/// The clock every test runs at: 2026-11-18 11:06:40 UTC.
pub const NOW: i64 = 1_795_000_000;
/// The seed of every new game's layout in these tests.
pub const SEED: u64 = 7;

/// A server living in a temporary folder.
pub struct Env {
    pub dir: crate::common::scratch::TempDir,
    pub db: PathBuf,
    pub outbox: PathBuf,
    pub now: i64,
    /// A configuration file every command is given (`--config`), if any.
    pub config: Option<PathBuf>,
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
        let dir = crate::common::scratch::tempdir().unwrap();
        let db = dir.path().join("pbem.sqlite");
        let outbox = dir.path().join("outbox");
        Env {
            dir,
            db,
            outbox,
            now: NOW,
            config: None,
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

    /// Feeds one message to `pbem ingest` on stdin, as an MTA pipe does.
    pub fn ingest(&self, message: &str) -> Output {
        self.cmd()
            .arg("ingest")
            .write_stdin(message.as_bytes().to_vec())
            .output()
            .unwrap()
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

    /// Runs a mail-language command from the shell, as the admin.
    pub fn admin(&self, line: &str) -> Output {
        self.cmd().args(line.split_whitespace()).output().unwrap()
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

/// Compares `text` with the snapshot `tests/it/snapshots/it__NAME.snap` (see `scratch::assert_snapshot`).
#[track_caller]
pub fn assert_snapshot(name: &str, text: &str) {
    scratch::assert_snapshot("tests/it/snapshots", &format!("it__{name}"), text);
}

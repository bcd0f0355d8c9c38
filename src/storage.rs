//! The SQLite database: schema migrations, and the reads and writes the server makes.
//!
//! Every read-check-write happens inside one [`Tx`], opened with `BEGIN IMMEDIATE` so that two deliveries
//! of mail for the same game are strictly one after the other: the second sees the first one's move. The
//! move, the mails that report it and the processed Message-ID are committed together, so a crash leaves
//! either all of them or none.

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, ErrorCode, OptionalExtension, TransactionBehavior, params};

use crate::sys::ProcessId;

/// The schema steps, in order. Step `i` (0-based) takes the database from `user_version` `i` to `i + 1`.
/// Never edit a step once it has landed: add a new file.
// Storage of correspondence play (issue 4), one concern a file; each adds `impl Tx` blocks.
mod accounts;
mod clock;
mod games;
mod listing;
mod mail_settings;
mod outbox;
mod passwords;
mod pictures;
mod proposals;
mod ratings;
mod reply_keys;
mod social;
mod standing;
mod trust;

pub use crate::model::GamesFilter;
pub use clock::{GameClock, Vacation};
pub use listing::{ClockCandidate, GameView, Listed};
pub use mail_settings::{DigestGame, MailSettings};
pub use outbox::OutboxRow;
pub use passwords::LoginState;
pub use proposals::{Proposal, QueuedMove};
pub use ratings::{GameResult, SeatRecord, Standing};
pub use reply_keys::ReplyReader;
pub use social::ChallengeList;
pub use standing::{Bounce, ReplyStanding};

const MIGRATIONS: &[(&str, &str)] = &[
    (
        "0001_initial",
        include_str!("../migrations/0001_initial.sql"),
    ),
    (
        "0002_reply_log",
        include_str!("../migrations/0002_reply_log.sql"),
    ),
    ("0003_clock", include_str!("../migrations/0003_clock.sql")),
    (
        "0004_ratings",
        include_str!("../migrations/0004_ratings.sql"),
    ),
    (
        "0005_proposals",
        include_str!("../migrations/0005_proposals.sql"),
    ),
    ("0006_social", include_str!("../migrations/0006_social.sql")),
    (
        "0007_password_failures",
        include_str!("../migrations/0007_password_failures.sql"),
    ),
    (
        "0008_outbox_claimer",
        include_str!("../migrations/0008_outbox_claimer.sql"),
    ),
    (
        "0009_consent",
        include_str!("../migrations/0009_consent.sql"),
    ),
    (
        "0010_pending_addresses",
        include_str!("../migrations/0010_pending_addresses.sql"),
    ),
    (
        "0011_listing",
        include_str!("../migrations/0011_listing.sql"),
    ),
    ("0012_robots", include_str!("../migrations/0012_robots.sql")),
    (
        "0013_password_resets",
        include_str!("../migrations/0013_password_resets.sql"),
    ),
    (
        "0014_messages",
        include_str!("../migrations/0014_messages.sql"),
    ),
    (
        "0015_time_used",
        include_str!("../migrations/0015_time_used.sql"),
    ),
    (
        "0016_cancelled",
        include_str!("../migrations/0016_cancelled.sql"),
    ),
    (
        "0017_confirmation_senders",
        include_str!("../migrations/0017_confirmation_senders.sql"),
    ),
    (
        "0018_reply_standing",
        include_str!("../migrations/0018_reply_standing.sql"),
    ),
    (
        "0019_bounces",
        include_str!("../migrations/0019_bounces.sql"),
    ),
    (
        "0021_reply_keys",
        include_str!("../migrations/0021_reply_keys.sql"),
    ),
    (
        "0022_threads",
        include_str!("../migrations/0022_threads.sql"),
    ),
    (
        "0024_mail_settings",
        include_str!("../migrations/0024_mail_settings.sql"),
    ),
    (
        "0025_plain_subjects",
        include_str!("../migrations/0025_plain_subjects.sql"),
    ),
    (
        "0040_talk_caps",
        include_str!("../migrations/0040_talk_caps.sql"),
    ),
    (
        "0042_failures_without_unknown_userids",
        include_str!("../migrations/0042_failures_without_unknown_userids.sql"),
    ),
    (
        "0044_robot_turns",
        include_str!("../migrations/0044_robot_turns.sql"),
    ),
    (
        "0046_pictures",
        include_str!("../migrations/0046_pictures.sql"),
    ),
    (
        "0048_state_subjects",
        include_str!("../migrations/0048_state_subjects.sql"),
    ),
    (
        "0050_indexed_mail_path_and_clock",
        include_str!("../migrations/0050_indexed_mail_path_and_clock.sql"),
    ),
];

/// The schema version this binary writes.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// The database file was written by a newer pbem.
    #[error(
        "the database has schema version {found}, newer than this pbem knows ({known}); use a newer pbem"
    )]
    TooNew {
        /// The database's `user_version`.
        found: u32,
        /// [`SCHEMA_VERSION`].
        known: u32,
    },
    /// A stored document could not be read back.
    #[error("the database holds something unreadable: {0}")]
    Corrupt(String),
    /// SQLite said no.
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
}

impl StorageError {
    /// True for failures that may go away by themselves (the database was busy past the timeout, the disk
    /// is full, the file could not be opened): the MTA should deliver the message again later.
    pub fn is_temporary(&self) -> bool {
        match self {
            StorageError::Sqlite(rusqlite::Error::SqliteFailure(e, _)) => matches!(
                e.code,
                ErrorCode::DatabaseBusy
                    | ErrorCode::DatabaseLocked
                    | ErrorCode::DiskFull
                    | ErrorCode::CannotOpen
                    | ErrorCode::SystemIoFailure
                    | ErrorCode::OutOfMemory
                    // A file or folder the pbem user may not write: the admin fixes the rights and
                    // the MTA's next try gets through.
                    | ErrorCode::ReadOnly
                    | ErrorCode::PermissionDenied
            ),
            _ => false,
        }
    }

    /// True when SQLite failed to open, read or write the file itself (rights, space, limits), so
    /// that the cause is worth looking for in the file system: see [`crate::sys::diagnose_database`].
    pub fn is_file_trouble(&self) -> bool {
        match self {
            StorageError::Sqlite(rusqlite::Error::SqliteFailure(e, _)) => matches!(
                e.code,
                ErrorCode::DiskFull
                    | ErrorCode::CannotOpen
                    | ErrorCode::SystemIoFailure
                    | ErrorCode::ReadOnly
                    | ErrorCode::PermissionDenied
            ),
            _ => false,
        }
    }
}

/// Shorthand for storage results.
pub type Result<T, E = StorageError> = std::result::Result<T, E>;

/// An open database.
pub struct Db {
    conn: Connection,
    /// This process, recorded with every outbox claim it makes; `None` where it cannot be told.
    claimer: Option<ProcessId>,
}

/// A registered player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    /// Row id.
    pub id: i64,
    /// The userid as signed up.
    pub userid: String,
    /// The argon2id PHC string; `None` once signed off.
    pub password_hash: Option<String>,
    /// Where the player's mail goes.
    pub addresses: Vec<String>,
    /// For a robot account (robot1..robot3), its level; `None` for a person.
    pub robot: Option<u8>,
}

/// A stored game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    /// Row id.
    pub id: i64,
    /// The game's command word.
    pub game_type: String,
    /// The board number.
    pub board: u32,
    /// The rules engine's JSON document.
    pub state: String,
    /// True once the game is over.
    pub finished: bool,
    /// Unix seconds.
    pub created_at: i64,
    /// Unix seconds of the last move.
    pub updated_at: i64,
    /// The players, seat by seat.
    pub players: Vec<User>,
}

/// What the lists (`games`, `history`, `standings`) and the clock read of a game instead of its state:
/// written with every save, so that no list has to load (replay) a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedStatus {
    /// True once the game is over.
    pub finished: bool,
    /// The seat to move; `None` once the game is over.
    pub to_move: Option<usize>,
    /// The status line as the summaries print it: `Red (alice) to move.`
    pub line: String,
}

#[cfg(test)]
impl SavedStatus {
    /// A status for storage tests, which store `{}` as the state.
    pub(crate) fn bare(finished: bool) -> SavedStatus {
        SavedStatus {
            finished,
            to_move: (!finished).then_some(0),
            line: String::new(),
        }
    }
}

/// A comment attached to a move or a chat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comment {
    /// The move awaited when it was written.
    pub move_number: u32,
    /// Who wrote it.
    pub userid: String,
    /// The text, passwords masked.
    pub body: String,
    /// Unix seconds.
    pub created_at: i64,
}

impl Db {
    /// Opens (creating if need be) the database file and brings its schema up to date.
    pub fn open(path: &Path, busy_timeout: Duration) -> Result<Db> {
        let conn = Connection::open(path)?;
        Self::setup(conn, busy_timeout, true)
    }

    /// Opens the database file read-only, for `pbem web`: SQLite itself refuses every write on this
    /// connection, so that a bug or a hostile request cannot change a game. The schema must be this
    /// binary's (a read-only connection cannot migrate): an older file is brought up to date by any
    /// other pbem command, such as `pbem outbox list`.
    pub fn open_read_only(path: &Path, busy_timeout: Duration) -> Result<Db> {
        let conn = Connection::open_with_flags(
            path,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.busy_timeout(busy_timeout)?;
        let db = Db {
            conn,
            claimer: None,
        };
        let found = db.schema_version()?;
        if found > SCHEMA_VERSION {
            return Err(StorageError::TooNew {
                found,
                known: SCHEMA_VERSION,
            });
        }
        if found < SCHEMA_VERSION {
            return Err(StorageError::Corrupt(format!(
                "schema version {found}, older than this pbem's ({SCHEMA_VERSION}); run any other \
                 pbem command once (e.g. pbem outbox list) to bring it up to date"
            )));
        }
        Ok(db)
    }

    /// A private in-memory database (tests and fuzzing).
    pub fn open_in_memory() -> Result<Db> {
        let conn = Connection::open_in_memory()?;
        Self::setup(conn, Duration::from_secs(5), false)
    }

    fn setup(conn: Connection, busy_timeout: Duration, wal: bool) -> Result<Db> {
        conn.busy_timeout(busy_timeout)?;
        // A new file frees pages as the outbox is pruned (see `Db::tidy`). This takes effect only
        // before the first table is made, and is set only then: on an existing file the pragma
        // writes the header (a write and its fsyncs for every command, even a read).
        let tables: i64 = conn.query_row("SELECT COUNT(*) FROM sqlite_master", [], |r| r.get(0))?;
        if tables == 0 {
            conn.pragma_update(None, "auto_vacuum", "INCREMENTAL")?;
        }
        if wal {
            // WAL lets readers go on while one process writes; NORMAL sync is durable at each commit
            // in WAL mode except on power loss, which the MTA's own retry covers.
            conn.pragma_update(None, "journal_mode", "WAL")?;
            conn.pragma_update(None, "synchronous", "NORMAL")?;
        }
        conn.pragma_update(None, "foreign_keys", "ON")?;
        let mut db = Db {
            conn,
            claimer: ProcessId::current(),
        };
        db.migrate()?;
        Ok(db)
    }

    /// Applies the missing migrations, each in its own transaction; refuses a database newer than this
    /// binary. Safe when several processes open a new database at once: each step re-reads the version
    /// under the write lock.
    fn migrate(&mut self) -> Result<()> {
        // Up to date (nearly always): no write lock, so that opening the database never waits for
        // another process's write.
        let version: u32 = self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))?;
        if version == SCHEMA_VERSION {
            return Ok(());
        }
        loop {
            let tx = self
                .conn
                .transaction_with_behavior(TransactionBehavior::Immediate)?;
            let version: u32 = tx.pragma_query_value(None, "user_version", |r| r.get(0))?;
            if version > SCHEMA_VERSION {
                return Err(StorageError::TooNew {
                    found: version,
                    known: SCHEMA_VERSION,
                });
            }
            let Some((_name, sql)) = MIGRATIONS.get(version as usize) else {
                break;
            };
            tx.execute_batch(sql)?;
            tx.pragma_update(None, "user_version", version + 1)?;
            tx.commit()?;
        }
        // Each step wrote its own copies of the schema's pages to the WAL: for a new file about 0.7
        // MB, most of it the same pages again. Copied into the file and the WAL emptied now, so that
        // a nearly full disk holds the file once, not the file and the steps (tests/it/trust_mta.rs,
        // a full disk). Best effort: another process reading only makes it wait or do less.
        let _ = self
            .conn
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
        Ok(())
    }

    /// The schema version of the open database.
    pub fn schema_version(&self) -> Result<u32> {
        Ok(self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))?)
    }

    /// Starts a write transaction (`BEGIN IMMEDIATE`): it waits for other writers up to the busy timeout.
    pub fn transaction(&mut self) -> Result<Tx<'_>> {
        Ok(Tx(
            self.conn
                .transaction_with_behavior(TransactionBehavior::Immediate)?,
            self.claimer.as_ref(),
        ))
    }

    /// Starts a read transaction (`BEGIN DEFERRED`): one consistent view of the database for a page
    /// of `pbem web`, without the write lock that [`Db::transaction`] takes.
    pub fn read(&mut self) -> Result<Tx<'_>> {
        Ok(Tx(
            self.conn
                .transaction_with_behavior(TransactionBehavior::Deferred)?,
            self.claimer.as_ref(),
        ))
    }

    /// Rows changed since this connection was opened, rolled-back ones included: a cheap way for
    /// fuzzing and tests to see that an operation wrote nothing at all.
    pub fn total_changes(&self) -> u64 {
        self.conn.total_changes()
    }

    /// A SHA-256 over every row of these tables in rowid order: equal digests mean equal contents, so a
    /// test can show that bad input changed nothing. The table names are the caller's, never a user's.
    pub fn content_digest(&self, tables: &[&str]) -> Result<String> {
        use sha2::{Digest, Sha256};
        let mut h = Sha256::new();
        for t in tables {
            h.update(t.as_bytes());
            let mut stmt = self
                .conn
                .prepare(&format!("SELECT * FROM {t} ORDER BY rowid"))?;
            let n = stmt.column_count();
            let mut rows = stmt.query([])?;
            while let Some(row) = rows.next()? {
                for i in 0..n {
                    let v: rusqlite::types::Value = row.get(i)?;
                    h.update(format!("{v:?}\u{1f}").as_bytes());
                }
                h.update(b"\x1e");
            }
        }
        Ok(format!("{:x}", h.finalize()))
    }

    /// Runs `PRAGMA integrity_check`; returns its answer (`ok` when all is well).
    pub fn integrity_check(&self) -> Result<String> {
        Ok(self
            .conn
            .pragma_query_value(None, "integrity_check", |r| r.get(0))?)
    }
}

/// One write transaction. Dropped without [`Tx::commit`], it rolls back and leaves no trace.
pub struct Tx<'a>(rusqlite::Transaction<'a>, Option<&'a ProcessId>);

impl Tx<'_> {
    /// Makes everything written in this transaction permanent.
    pub fn commit(self) -> Result<()> {
        self.0.commit()?;
        Ok(())
    }

    /// True when a message with this key was processed before.
    pub fn is_processed(&self, key: &str) -> Result<bool> {
        Ok(self
            .0
            .query_row(
                "SELECT 1 FROM processed WHERE message_key = ?1",
                [key],
                |_| Ok(()),
            )
            .optional()?
            .is_some())
    }

    /// Records a message as processed.
    pub fn mark_processed(&self, key: &str, now: i64) -> Result<()> {
        self.0.execute(
            "INSERT INTO processed (message_key, processed_at) VALUES (?1, ?2)",
            params![key, now],
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_db() -> (tempfile::TempDir, Db) {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("t.sqlite"), Duration::from_secs(5)).unwrap();
        (dir, db)
    }

    #[test]
    fn migrations_bring_a_new_file_to_the_current_version_and_wal() {
        let (dir, db) = temp_db();
        assert_eq!(db.schema_version().unwrap(), SCHEMA_VERSION);
        let mode: String = db
            .conn
            .pragma_query_value(None, "journal_mode", |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
        let vacuum: i64 = db
            .conn
            .pragma_query_value(None, "auto_vacuum", |r| r.get(0))
            .unwrap();
        assert_eq!(
            vacuum, 2,
            "a new file is made with auto_vacuum = INCREMENTAL"
        );
        drop(db);
        // Opening again applies nothing and keeps the version.
        let db = Db::open(&dir.path().join("t.sqlite"), Duration::from_secs(5)).unwrap();
        assert_eq!(db.schema_version().unwrap(), SCHEMA_VERSION);
        assert_eq!(db.integrity_check().unwrap(), "ok");
    }

    #[test]
    fn pruned_mail_gives_its_pages_back_at_tidy() {
        let (_dir, mut db) = temp_db();
        let pages = |db: &Db| -> i64 {
            db.conn
                .pragma_query_value(None, "page_count", |r| r.get(0))
                .unwrap()
        };
        let body = "x".repeat(4_000);
        let tx = db.transaction().unwrap();
        for t in 0..500 {
            let id = tx.queue_mail(&body, t, true).unwrap();
            tx.0.execute(
                "UPDATE outbox SET sent_at = ?1 WHERE id = ?2",
                params![t, id],
            )
            .unwrap();
        }
        tx.commit().unwrap();
        let full = pages(&db);
        assert!(full > 500, "{full} pages");
        assert_eq!(db.prune_sent(400).unwrap(), 400);
        db.tidy().unwrap();
        let after = pages(&db);
        assert!(
            after < full / 3,
            "{full} pages before pruning, {after} after: the freed pages were not given back"
        );
        assert_eq!(db.outbox(false).unwrap().len(), 100);
    }

    #[test]
    fn a_database_newer_than_the_binary_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.sqlite");
        let conn = Connection::open(&path).unwrap();
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
            .unwrap();
        drop(conn);
        let err = Db::open(&path, Duration::from_secs(1)).err().unwrap();
        assert!(matches!(err, StorageError::TooNew { .. }), "{err}");
        assert!(err.to_string().contains("newer"));
    }

    #[test]
    fn users_compare_ignoring_case_and_keep_their_spelling() {
        let (_dir, mut db) = temp_db();
        let tx = db.transaction().unwrap();
        tx.insert_user("Alice", "hash", &["a@example.org".into()], 1)
            .unwrap();
        let u = tx.user("ALICE").unwrap().unwrap();
        assert_eq!(u.userid, "Alice");
        assert_eq!(u.addresses, vec!["a@example.org".to_string()]);
        assert!(tx.insert_user("alice", "h2", &[], 2).is_err());
        tx.commit().unwrap();
    }

    #[test]
    fn boards_count_from_101_per_game_type() {
        let (_dir, mut db) = temp_db();
        let tx = db.transaction().unwrap();
        let a = tx.insert_user("a", "h", &[], 1).unwrap();
        let b = tx.insert_user("b", "h", &[], 1).unwrap();
        assert_eq!(tx.next_board("limit").unwrap(), 101);
        tx.insert_game("limit", 101, "{}", &SavedStatus::bare(false), &[a, b], 1)
            .unwrap();
        assert_eq!(tx.next_board("limit").unwrap(), 102);
        assert_eq!(tx.next_board("other").unwrap(), 101);
        let g = tx.game("limit", 101).unwrap().unwrap();
        assert_eq!(
            g.players
                .iter()
                .map(|p| p.userid.as_str())
                .collect::<Vec<_>>(),
            ["a", "b"]
        );
        assert_eq!(
            tx.games_of(b, "limit", GamesFilter::Active).unwrap().len(),
            1
        );
        assert_eq!(
            tx.games_of(b, "limit", GamesFilter::Finished)
                .unwrap()
                .len(),
            0
        );
        tx.commit().unwrap();
    }

    #[test]
    fn a_dropped_transaction_leaves_nothing() {
        let (_dir, mut db) = temp_db();
        {
            let tx = db.transaction().unwrap();
            tx.mark_processed("<m1@x>", 1).unwrap();
            tx.queue_mail("{}", 1, false).unwrap();
        }
        let tx = db.transaction().unwrap();
        assert!(!tx.is_processed("<m1@x>").unwrap());
        drop(tx);
        assert!(db.outbox(false).unwrap().is_empty());
    }

    #[test]
    fn replies_per_address_are_bounded_per_hour() {
        let (_dir, mut db) = temp_db();
        let tx = db.transaction().unwrap();
        assert!(tx.allow_reply("A@x", 0, 100, 2).unwrap());
        assert!(tx.allow_reply("a@x", 0, 200, 2).unwrap());
        assert!(
            !tx.allow_reply("a@X", 0, 300, 2).unwrap(),
            "third within the hour"
        );
        assert!(tx.allow_reply("b@x", 0, 300, 2).unwrap(), "another address");
        // An hour later the first two no longer count.
        assert!(tx.allow_reply("a@x", 150, 3700, 2).unwrap());
    }

    #[test]
    fn password_failures_count_by_sender_and_account_within_the_window() {
        let (_dir, mut db) = temp_db();
        let tx = db.transaction().unwrap();
        tx.insert_user("a", "h", &["A@home.example".to_string()], 1)
            .unwrap();
        // The registered address is recognised ignoring case, and counts only its own failures.
        let own = tx.login_state("A", Some("a@HOME.example"), 0).unwrap();
        assert!(own.sender_registered);
        assert_eq!(own.password_hash.as_deref(), Some("h"));
        tx.record_password_failure("a", "a@home.example", true, 100)
            .unwrap();
        for (userid, t) in [("a", 110), ("a", 120), ("nobody", 130)] {
            tx.record_password_failure(userid, "X@evil.example", false, t)
                .unwrap();
        }
        tx.record_password_failure("a", "y@evil.example", false, 140)
            .unwrap();
        let own = tx.login_state("a", Some("a@home.example"), 0).unwrap();
        assert_eq!((own.sender_failures, own.account_failures), (1, 3));
        // A stranger's count is across every userid; the account's over every stranger.
        let x = tx.login_state("a", Some("x@evil.example"), 0).unwrap();
        assert!(!x.sender_registered);
        assert_eq!((x.sender_failures, x.account_failures), (3, 3));
        // Only what is after the cut-off counts.
        let x = tx.login_state("a", Some("x@evil.example"), 115).unwrap();
        assert_eq!((x.sender_failures, x.account_failures), (2, 2));
        // The admin (no sender) is not counted at all; an unknown userid has no hash.
        let admin = tx.login_state("a", None, 0).unwrap();
        assert_eq!((admin.sender_failures, admin.account_failures), (0, 0));
        assert_eq!(
            tx.login_state("nobody", Some("z@x.example"), 0)
                .unwrap()
                .password_hash,
            None
        );
        // Old rows are dropped as new ones come.
        tx.record_password_failure("a", "z@x.example", false, 100 + 86_400)
            .unwrap();
        let n: i64 =
            tx.0.query_row("SELECT COUNT(*) FROM password_failures", [], |r| r.get(0))
                .unwrap();
        assert_eq!(n, 5, "the row of t=100 is gone");
    }

    #[test]
    fn claimed_mail_is_not_claimed_twice_until_stale() {
        let (_dir, mut db) = temp_db();
        let tx = db.transaction().unwrap();
        tx.queue_mail("{\"a\":1}", 10, false).unwrap();
        tx.queue_mail("{\"b\":2}", 10, true).unwrap();
        tx.commit().unwrap();
        let first = db.claim_unsent(20, 0, 10).unwrap();
        assert_eq!(first.len(), 1, "the mail claimed at insert is not free");
        assert!(db.claim_unsent(21, 0, 10).unwrap().is_empty());
        // A claim older than the stale mark is taken again (its sender died).
        let again = db.claim_unsent(1000, 500, 10).unwrap();
        assert_eq!(again.len(), 2);
        db.mark_sent(again[0].id, 1000).unwrap();
        db.mark_failed(again[1].id, "refused").unwrap();
        let unsent = db.outbox(true).unwrap();
        assert_eq!(unsent.len(), 1);
        assert_eq!(unsent[0].last_error.as_deref(), Some("refused"));
    }

    #[test]
    fn the_mail_of_a_dead_claimer_is_claimed_at_once() {
        let (_dir, mut db) = temp_db();
        let me = ProcessId::current().expect("Linux has /proc");
        let (host, ticks) = me.start.rsplit_once('/').unwrap();
        // Our own pid with another start time: a process that had this pid before us.
        let dead = format!("{host}/{}", ticks.parse::<u64>().unwrap() + 1);
        let tx = db.transaction().unwrap();
        let alive = tx.queue_mail("{\"a\":1}", 10, true).unwrap();
        let orphan = tx.queue_mail("{\"b\":2}", 10, true).unwrap();
        tx.commit().unwrap();
        db.conn
            .execute(
                "UPDATE outbox SET claimed_pid = ?1, claimed_start = ?2 WHERE id = ?3",
                params![me.pid, dead, orphan],
            )
            .unwrap();
        let taken = db.claim_unsent(11, 0, 10).unwrap();
        assert_eq!(taken.iter().map(|r| r.id).collect::<Vec<_>>(), [orphan]);
        // Now ours: a second flush leaves it alone, like the one claimed by this live process.
        assert!(db.claim_unsent(12, 0, 10).unwrap().is_empty());
        let stale = db.claim_unsent(1000, 500, 10).unwrap();
        assert_eq!(stale.len(), 2, "{alive} and {orphan} once stale");
    }
}

/// Every query that runs for each mail or each `pbem cron` and reads a table that grows with the
/// games or the mail reads it by an index (issue 35, item 1): `EXPLAIN QUERY PLAN` of the very
/// statement the code runs, on a database brought up to date by the migrations.
#[cfg(test)]
impl Db {
    /// Hands `sink` the text of every statement this connection runs from now on (each trigger
    /// program too, as `-- TRIGGER name`): the tests of query plans read what the server really ran.
    pub(crate) fn trace_statements(&mut self, mut sink: impl FnMut(&str) + Send + 'static) {
        use rusqlite::trace::{TraceEvent, TraceEventCodes};
        self.conn
            .trace_v2(
                TraceEventCodes::SQLITE_TRACE_STMT,
                Some(move |e: TraceEvent<'_>| {
                    if let TraceEvent::Stmt(stmt, _) = e {
                        sink(&stmt.sql());
                    }
                }),
            )
            .expect("SQLite takes a trace callback");
    }

    /// The names of the schema's tables.
    pub(crate) fn table_names(&self) -> rusqlite::Result<Vec<String>> {
        let mut stmt = self
            .conn
            .prepare("SELECT name FROM sqlite_schema WHERE type = 'table'")?;
        stmt.query_map([], |r| r.get(0))?.collect()
    }

    /// The plan lines of `sql` (every parameter bound to 0), as `EXPLAIN QUERY PLAN` gives them.
    pub(crate) fn query_plan(&self, sql: &str) -> rusqlite::Result<Vec<String>> {
        let mut stmt = self.conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}"))?;
        let params: Vec<i64> = vec![0; stmt.parameter_count()];
        stmt.query_map(rusqlite::params_from_iter(params), |r| {
            r.get::<_, String>(3)
        })?
        .collect()
    }
}

#[cfg(test)]
mod query_plans {
    use super::*;

    /// The plan's lines of `sql` (its `?N` bound to 0).
    fn plan(db: &Db, sql: &str) -> Vec<String> {
        let mut stmt = db
            .conn
            .prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
            .unwrap();
        let n = stmt.parameter_count();
        let params: Vec<i64> = vec![0; n];
        stmt.query_map(rusqlite::params_from_iter(params), |r| {
            r.get::<_, String>(3)
        })
        .unwrap()
        .collect::<rusqlite::Result<Vec<_>>>()
        .unwrap()
    }

    /// Asserts that `sql` reads `table` by each of `indexes` and nothing by a scan of a whole table.
    fn uses_index(sql: &str, table: &str, indexes: &[&str]) {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("t.sqlite"), Duration::from_secs(5)).unwrap();
        let lines = plan(&db, sql);
        for index in indexes {
            assert!(
                lines
                    .iter()
                    .any(|l| l.contains(&format!("{table} USING INDEX {index} "))
                        || l.contains(&format!("{table} USING COVERING INDEX {index} "))),
                "{sql}\nis not read by {index}: {lines:?}"
            );
        }
        for l in &lines {
            let whole_table = l.starts_with("SCAN ") && !l.contains(" USING ");
            assert!(!whole_table, "{sql}\nscans a whole table: {lines:?}");
        }
    }

    #[test]
    fn the_robots_to_move_are_read_by_their_index() {
        uses_index(listing::ROBOTS_TO_MOVE, "games", &["games_robot_turn"]);
    }

    #[test]
    fn the_outbox_prune_reads_the_sent_and_the_refused_rows_by_their_indexes() {
        uses_index(
            outbox::PRUNE_SENT,
            "outbox",
            &["outbox_sent", "outbox_refused"],
        );
    }

    #[test]
    fn the_pictures_are_read_trimmed_and_pruned_by_their_indexes() {
        let by_game = ["sqlite_autoindex_pictures_1"];
        uses_index(pictures::PICTURE, "pictures", &by_game);
        uses_index(pictures::TRIM, "pictures", &by_game);
        uses_index(pictures::PRUNE, "pictures", &["pictures_drawn"]);
    }

    /// The column the index of robots' turns holds follows every change of the seat to move, the
    /// end of a game, a seat's player and an account's robot level (the triggers of migration 0044).
    #[test]
    fn the_robots_to_move_follow_moves_ends_seats_and_robot_levels() {
        let dir = tempfile::tempdir().unwrap();
        let mut db = Db::open(&dir.path().join("t.sqlite"), Duration::from_secs(5)).unwrap();
        let tx = db.transaction().unwrap();
        let alice = tx.insert_user("alice", "h", &[], 1).unwrap();
        let bob = tx.insert_user("bob", "h", &[], 1).unwrap();
        let robot = tx
            .user("robot1")
            .unwrap()
            .expect("made by migration 0012")
            .id;
        let status = |to_move: Option<usize>| SavedStatus {
            finished: to_move.is_none(),
            to_move,
            line: String::new(),
        };
        // Game 1: alice against robot1, alice to move; game 2: robot1 against bob, robot1 to move.
        let g1 = tx
            .insert_game("limit", 101, "{}", &status(Some(0)), &[alice, robot], 10)
            .unwrap();
        let g2 = tx
            .insert_game("limit", 102, "{}", &status(Some(0)), &[robot, bob], 20)
            .unwrap();
        tx.commit().unwrap();
        let to_move = |db: &Db| -> Vec<u32> {
            db.robots_to_move(i64::MAX, 100)
                .unwrap()
                .into_iter()
                .map(|(_, b)| b)
                .collect()
        };
        assert_eq!(to_move(&db), [102]);
        let tx = db.transaction().unwrap();
        tx.update_game(g1, "{}", &status(Some(1)), 30).unwrap();
        tx.commit().unwrap();
        assert_eq!(to_move(&db), [102, 101], "oldest first");
        assert_eq!(
            db.robots_to_move(25, 100).unwrap().len(),
            1,
            "since 25 or before"
        );
        let tx = db.transaction().unwrap();
        tx.update_game(g2, "{}", &status(None), 40).unwrap();
        // A person takes the robot's seat.
        tx.replace_seat(g1, 1, bob, 50).unwrap();
        tx.commit().unwrap();
        assert!(to_move(&db).is_empty());
        let tx = db.transaction().unwrap();
        tx.replace_seat(g1, 1, robot, 60).unwrap();
        tx.commit().unwrap();
        assert_eq!(to_move(&db), [101]);
        // An account that stops being a robot (and one that becomes one).
        db.conn
            .execute("UPDATE users SET robot = NULL WHERE id = ?1", [robot])
            .unwrap();
        assert!(to_move(&db).is_empty());
        db.conn
            .execute("UPDATE users SET robot = 1 WHERE id = ?1", [robot])
            .unwrap();
        assert_eq!(to_move(&db), [101]);
    }
}

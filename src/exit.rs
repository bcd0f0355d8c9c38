//! Exit statuses (sysexits, as an MTA expects of a delivery program) and the one line that explains a
//! failure: shared by the shell commands ([`crate::cli`]) and the long-running listeners
//! ([`crate::lmtp`], [`crate::web`]), which answer with the same statuses and lines.

use std::path::Path;

use crate::server::{IngestOutcome, ServerError};

/// Handled.
pub const EX_OK: i32 = 0;
/// A command refused at the shell.
pub const EX_REFUSED: i32 = 1;
/// Bad flags or arguments.
pub const EX_USAGE: i32 = 64;
/// `pbem lmtp` cannot listen where it was told to (the socket is taken, the folder missing).
pub const EX_UNAVAILABLE: i32 = 69;
/// A failure of our own that retrying will not fix.
pub const EX_SOFTWARE: i32 = 70;
/// A configuration file that cannot be used.
pub const EX_CONFIG: i32 = 78;
/// Try again later.
pub const EX_TEMPFAIL: i32 = 75;

/// The exit status of a failure of the server and the line that explains it (`ingest` prints it,
/// `lmtp` also answers with it). A database that cannot be opened or written is looked at for a cause
/// the admin can fix (`db` is its path), which is then what the line says.
pub fn failure_status(e: &ServerError, db: &Path) -> (i32, String) {
    if let ServerError::Storage(s) = e
        && s.is_file_trouble()
        && let Some(cause) = crate::sys::diagnose_database(db)
    {
        let said = match s {
            crate::storage::StorageError::Sqlite(inner) => inner.to_string(),
            other => other.to_string(),
        };
        return (EX_TEMPFAIL, format!("{cause} (SQLite: {said})"));
    }
    let status = if e.is_temporary() {
        EX_TEMPFAIL
    } else {
        EX_SOFTWARE
    };
    (status, e.to_string())
}

/// What the log says of a message that was not acted on (`None`: it was handled).
pub fn outcome_note(outcome: &IngestOutcome) -> Option<String> {
    match outcome {
        IngestOutcome::Handled { .. } => None,
        IngestOutcome::Duplicate => Some("already processed; ignored".to_string()),
        IngestOutcome::Silent(why) => Some(format!("not answered: {why}")),
        IngestOutcome::Dropped(why) => Some(format!("dropped: {why}")),
        IngestOutcome::Report(what) => Some(format!("delivery report: {what}")),
    }
}

//! Handing a mail to the sendmail program, and the `.eml` files of the file transport.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::{OutgoingMail, SendError};

/// Writes the message as `DIR/<date>-<message id>.eml`, atomically (a temporary file renamed into
/// place), so that a reader never sees half a message and sending the same mail twice leaves one
/// file.
pub(super) fn write_eml(dir: &Path, mail: &OutgoingMail, bytes: &[u8]) -> Result<(), SendError> {
    let temp = |what: &str, e: std::io::Error| {
        SendError::Temporary(format!(
            "{what} in the outbox folder {}: {e}",
            dir.display()
        ))
    };
    fs::create_dir_all(dir).map_err(|e| temp("cannot create it", e))?;
    let id: String = mail
        .message_id
        .trim_matches(['<', '>'])
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .take(160)
        .collect();
    let name = format!("{:010}-{id}.eml", mail.date_unix.max(0));
    let tmp_path = dir.join(format!(".{name}.tmp"));
    let result = (|| {
        let mut f = fs::File::create(&tmp_path)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        fs::rename(&tmp_path, dir.join(&name))
    })();
    result.map_err(|e| {
        let _ = fs::remove_file(&tmp_path);
        temp(&format!("cannot write {name}"), e)
    })
}

/// The spool files of a sendmail hand-off of outbox row `row`.
pub(super) struct SpoolFiles {
    message: PathBuf,
    /// The exit status sendmail left, once it finished.
    pub(super) status: PathBuf,
    stderr: PathBuf,
}

/// Where the hand-off of outbox row `row` keeps its files under `spool`.
pub(super) fn spool_files(spool: &Path, row: i64) -> SpoolFiles {
    SpoolFiles {
        message: spool.join(format!("{row}.eml")),
        status: spool.join(format!("{row}.status")),
        stderr: spool.join(format!("{row}.err")),
    }
}

impl SpoolFiles {
    /// Removes the files; those already gone are no error.
    pub(super) fn remove(&self) {
        for p in [&self.message, &self.status, &self.stderr] {
            let _ = fs::remove_file(p);
        }
    }
}

/// The shell of a hand-off: waits for "go" on its input (end of input without it: pbem died before
/// handing over, so nothing is sent), runs sendmail on the spooled message and leaves its exit status.
const HANDOFF_SCRIPT: &str = r#"IFS= read -r go || exit 75
[ "$go" = go ] || exit 75
"$0" "$@" <"$PBEM_SPOOL_MESSAGE" >/dev/null 2>"$PBEM_SPOOL_STDERR"
s=$?
echo "$s" >"$PBEM_SPOOL_STATUS.tmp" && mv "$PBEM_SPOOL_STATUS.tmp" "$PBEM_SPOOL_STATUS"
exit "$s""#;

/// [`run_sendmail`] through a hand-off shell (see [`Mailer::send_outbox`]); where the shell's process
/// cannot be named (no `/proc`), sendmail runs directly.
pub(super) fn run_sendmail_handed_off(
    cmd: &Path,
    spool: &Path,
    row: i64,
    mail: &OutgoingMail,
    bytes: &[u8],
    hand_over: impl FnOnce(&crate::sys::ProcessId) -> Result<(), String>,
) -> Result<(), SendError> {
    let temp = |what: &str, e: &dyn std::fmt::Display| {
        SendError::Temporary(format!("{what} {}: {e}", spool.display()))
    };
    fs::create_dir_all(spool).map_err(|e| temp("cannot make the spool folder", &e))?;
    let files = spool_files(spool, row);
    files.remove();
    fs::write(&files.message, bytes).map_err(|e| temp("cannot write into", &e))?;
    let mut child = match Command::new("/bin/sh")
        .arg("-c")
        .arg(HANDOFF_SCRIPT)
        .arg(cmd)
        .arg("-i")
        .arg("-f")
        .arg(mail.envelope_from())
        .arg("--")
        .args(&mail.to)
        .env("PBEM_SPOOL_MESSAGE", &files.message)
        .env("PBEM_SPOOL_STATUS", &files.status)
        .env("PBEM_SPOOL_STDERR", &files.stderr)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
    {
        Ok(c) => c,
        Err(_) => {
            files.remove();
            return run_sendmail(cmd, mail, bytes);
        }
    };
    let Some(id) = crate::sys::ProcessId::of(child.id()) else {
        drop(child.stdin.take());
        let _ = child.wait();
        files.remove();
        return run_sendmail(cmd, mail, bytes);
    };
    if let Err(e) = hand_over(&id) {
        drop(child.stdin.take());
        let _ = child.wait();
        files.remove();
        return Err(SendError::Temporary(format!(
            "cannot hand the mail over: {e}"
        )));
    }
    let go = child
        .stdin
        .take()
        .map(|mut stdin| stdin.write_all(b"go\n"))
        .unwrap_or(Ok(()));
    let status = child
        .wait()
        .map_err(|e| SendError::Temporary(format!("waiting for {}: {e}", cmd.display())));
    let stderr = fs::read_to_string(&files.stderr).unwrap_or_default();
    let code = fs::read_to_string(&files.status)
        .ok()
        .and_then(|s| s.trim().parse::<i32>().ok());
    let result = status.and_then(|_| {
        go.map_err(|e| SendError::Temporary(format!("cannot start the hand-off: {e}")))?;
        sendmail_result(cmd, code, &stderr, Ok(()))
    });
    // A delivered mail's spool files stay until its row is recorded as sent (the caller removes
    // them then): a pbem killed in between leaves sendmail's status to `outbox flush`, which records
    // the mail instead of sending it a second time.
    if result.is_err() {
        files.remove();
    }
    result
}

/// Pipes the message into `CMD -i -f FROM -- TO...` and reads its exit status the sysexits way.
pub(super) fn run_sendmail(cmd: &Path, mail: &OutgoingMail, bytes: &[u8]) -> Result<(), SendError> {
    let mut command = Command::new(cmd);
    // Killed with pbem before it saw the end of the message, sendmail delivers nothing: the mail
    // stays unsent in the outbox and the next flush sends it once, instead of a child that goes on
    // delivering what pbem never gets to record as sent.
    crate::sys::die_with_parent(&mut command);
    let mut child = command
        .arg("-i")
        .arg("-f")
        .arg(mail.envelope_from())
        .arg("--")
        .args(&mail.to)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| SendError::Temporary(format!("cannot run {}: {e}", cmd.display())))?;
    // A sendmail that exits without reading everything makes this fail with a broken pipe; its exit
    // status below says why, so the write error itself is only reported if the exit was clean.
    let write_result = child
        .stdin
        .take()
        .map(|mut stdin| stdin.write_all(bytes))
        .unwrap_or(Ok(()));
    let out = child
        .wait_with_output()
        .map_err(|e| SendError::Temporary(format!("waiting for {}: {e}", cmd.display())))?;
    sendmail_result(
        cmd,
        out.status.code(),
        &String::from_utf8_lossy(&out.stderr),
        write_result,
    )
}

/// A sendmail's exit status (`None`: killed by a signal) read the sysexits way.
fn sendmail_result(
    cmd: &Path,
    code: Option<i32>,
    stderr: &str,
    write_result: std::io::Result<()>,
) -> Result<(), SendError> {
    let said = if stderr.trim().is_empty() {
        String::new()
    } else {
        format!(": {}", stderr.trim())
    };
    match code {
        Some(0) => write_result.map_err(|e| {
            SendError::Temporary(format!(
                "{} exited 0 but did not read the whole message: {e}",
                cmd.display()
            ))
        }),
        // EX_DATAERR: about this message, so sending it again cannot help.
        Some(65) => Err(SendError::Permanent(format!(
            "{} refused the mail (exit status 65){said}",
            cmd.display()
        ))),
        // EX_NOUSER, EX_NOHOST: about the address, which refuses mail.
        Some(code @ (67 | 68)) => Err(SendError::Refused(format!(
            "{} refused the mail (exit status {code}){said}",
            cmd.display()
        ))),
        // EX_TEMPFAIL and everything else (configuration, resources, unknown codes): keep the mail,
        // someone can fix the cause and flush the outbox again.
        Some(code) => Err(SendError::Temporary(format!(
            "{} failed (exit status {code}){said}",
            cmd.display()
        ))),
        None => Err(SendError::Temporary(format!(
            "{} was killed by a signal{said}",
            cmd.display()
        ))),
    }
}

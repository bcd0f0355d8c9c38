//! Issue "Trust", items 8 and 9, end to end through the real binary.
//!
//! Sent twice: a mail claimed by a process that died is sent by the next `outbox flush` at once (not
//! ten minutes later), one claimed by a live process is left to it, and the sendmail hand-off of a
//! killed `pbem ingest` finishes its delivery, which the next flush records instead of sending again.
//!
//! What the MTA is told: every database trouble an admin can fix (a file or folder the pbem user may
//! not write, a missing folder, a read-only file system, a full disk, a file-size limit) exits 75 with
//! one stderr line naming the path and the fix, and the same mail goes through once it is fixed. A
//! configuration file holding the SMTP password that others can read draws a warning.
//!
//! The tests run here as root: a permission test runs pbem as `nobody` through `setpriv` (root would
//! ignore the rights); as another user pbem runs directly. The full disk and the read-only file
//! system are a small tmpfs mounted in a private mount namespace (`unshare -m`, or `unshare -rm`
//! where user namespaces allow it); where neither works that test says so and checks nothing.

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{Env, NOW, eml, eml_with_id, pbem_bin};

fn is_root() -> bool {
    // SAFETY: geteuid cannot fail.
    unsafe { libc::geteuid() == 0 }
}

fn stderr_lines(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .map(str::to_string)
        .collect()
}

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

fn chown(path: &Path, uid: u32) {
    std::os::unix::fs::chown(path, Some(uid), Some(uid)).unwrap();
}

/// `pbem --db DB --outbox OUTBOX ingest` fed `message`, through `wrap` (a command and its arguments
/// put in front, e.g. setpriv), with the tests' clock.
fn ingest_via(wrap: &[&str], db: &Path, outbox: &Path, message: &str) -> Output {
    let mut cmd = match wrap.split_first() {
        Some((first, rest)) => {
            let mut c = Command::new(first);
            c.args(rest).arg(pbem_bin());
            c
        }
        None => Command::new(pbem_bin()),
    };
    cmd.arg("--db")
        .arg(db)
        .arg("--outbox")
        .arg(outbox)
        .arg("ingest")
        .env("PBEM_NOW", NOW.to_string())
        .env_remove("PBEM_CONFIG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("start pbem");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(message.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// How to run pbem as a user other than the owner of the files: as root, `nobody` through setpriv;
/// as anyone else, directly (the rights then apply to us).
fn other_user() -> (Vec<&'static str>, &'static str) {
    if is_root() {
        (
            vec![
                "setpriv",
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
            ],
            "uid 65534",
        )
    } else {
        (Vec::new(), "")
    }
}

/// A test folder the other user can reach, holding a database made by us with one player.
fn shared_env() -> Env {
    let env = Env::new();
    chmod(env.dir.path(), 0o755);
    env.players(&["alice"]);
    std::fs::create_dir_all(&env.outbox).unwrap();
    chmod(&env.outbox, 0o777);
    env
}

/// Asserts that `out` is the MTA's "try again later" with one stderr line that starts with
/// `cannot write the database PATH (` and says `why` and `fix`.
fn assert_tempfail(out: &Output, db: &Path, why: &str, fix: &str) {
    let lines = stderr_lines(out);
    assert_eq!(out.status.code(), Some(75), "{lines:?}");
    assert_eq!(lines.len(), 1, "one line on stderr: {lines:?}");
    let line = &lines[0];
    let head = format!("pbem: cannot write the database {} (", db.display());
    assert!(line.starts_with(&head), "{line}");
    assert!(line.contains(why), "{line}\nshould say: {why}");
    assert!(line.contains(fix), "{line}\nshould say: {fix}");
}

#[test]
fn a_database_file_the_pbem_user_cannot_write_exits_75_and_the_mail_goes_through_once_fixed() {
    let env = shared_env();
    let (wrap, uid) = other_user();
    chmod(&env.db, 0o644);
    if !is_root() {
        chmod(&env.db, 0o444);
    }
    let msg = eml("bob@example.org", "signup bob pw-bob", "");
    let out = ingest_via(&wrap, &env.db, &env.outbox, &msg);
    assert_tempfail(
        &out,
        &env.db,
        &format!("permission denied for user nobody ({uid}"),
        "): give that user write access to it and its folder",
    );
    assert!(env.take_mails().is_empty(), "nothing answered");
    // The admin gives the rights; the MTA's next try is handled.
    if is_root() {
        chown(&env.db, 65534);
        chown(env.dir.path(), 65534);
    } else {
        chmod(&env.db, 0o644);
    }
    let out = ingest_via(&wrap, &env.db, &env.outbox, &msg);
    assert_eq!(out.status.code(), Some(0), "{:?}", stderr_lines(&out));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].to, ["bob@example.org"]);
}

#[test]
fn a_folder_the_pbem_user_cannot_write_exits_75_naming_the_folder() {
    let env = shared_env();
    let (wrap, uid) = other_user();
    // The file is the other user's, but not its folder, where SQLite must create pbem.sqlite-wal.
    if is_root() {
        chown(&env.db, 65534);
    } else {
        chmod(env.dir.path(), 0o555);
    }
    let out = ingest_via(
        &wrap,
        &env.db,
        &env.outbox,
        &eml("bob@example.org", "signup bob pw-bob", ""),
    );
    if !is_root() {
        chmod(env.dir.path(), 0o755);
    }
    assert_tempfail(
        &out,
        &env.db,
        &format!(
            "permission denied for user nobody ({uid}) on its folder {}, where SQLite keeps the \
             -wal and -shm files",
            env.dir.path().display()
        ),
        "): give that user write access to the folder and the database file",
    );

    // A new database in a folder the user cannot write is refused the same way.
    let fresh = env.dir.path().join("sub").join("pbem.sqlite");
    std::fs::create_dir(fresh.parent().unwrap()).unwrap();
    chmod(fresh.parent().unwrap(), 0o555);
    let out = ingest_via(
        &wrap,
        &fresh,
        &env.outbox,
        &eml("bob@example.org", "signup bob pw-bob", ""),
    );
    assert_tempfail(&out, &fresh, "on its folder", "give that user write access");
}

#[test]
fn a_missing_folder_exits_75_and_says_to_create_it() {
    let env = Env::new();
    let db = env.dir.path().join("no").join("such").join("pbem.sqlite");
    let out = ingest_via(
        &[],
        &db,
        &env.outbox,
        &eml("bob@example.org", "signup bob pw-bob", ""),
    );
    let folder = db.parent().unwrap().display().to_string();
    assert_tempfail(
        &out,
        &db,
        &format!("its folder {folder} does not exist"),
        &format!("create it (mkdir -p {folder}) and give user "),
    );
    assert!(!db.exists());
}

#[test]
fn a_file_size_limit_exits_75_instead_of_killing_pbem() {
    let env = Env::new();
    env.players(&["alice"]);
    // 8 KiB: the next transaction's write-ahead log grows past it.
    let out = Command::new("bash")
        .arg("-c")
        .arg(r#"ulimit -f 8 && exec "$0" --db "$1" --outbox "$2" ingest"#)
        .arg(pbem_bin())
        .arg(&env.db)
        .arg(&env.outbox)
        .env("PBEM_NOW", NOW.to_string())
        .env_remove("PBEM_CONFIG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin
                .take()
                .unwrap()
                .write_all(eml("bob@example.org", "signup bob pw-bob", "").as_bytes())?;
            c.wait_with_output()
        })
        .unwrap();
    // bash counts `ulimit -f` in KiB (dash in 512-byte blocks).
    let limit = 8 * 1024;
    assert_tempfail(
        &out,
        &env.db,
        &format!("the file-size limit (ulimit -f) of {limit} bytes is reached"),
        "): raise or remove the limit for the program that runs pbem",
    );
    // Without the limit the same mail goes through.
    env.deliver(&eml("bob@example.org", "signup bob pw-bob", ""));
    assert_eq!(env.take_mails().len(), 1);
    assert_eq!(env.integrity_check(), "ok");
}

/// Runs `script` (bash) in a private mount namespace, with `$PBEM` the binary and `$D` a folder where
/// it may mount; returns its output, or `None` where mounting is not allowed to us.
fn in_mount_namespace(dir: &Path, script: &str) -> Option<Output> {
    let flags = if is_root() { "-m" } else { "-rm" };
    let probe = Command::new("unshare")
        .args([flags, "true"])
        .output()
        .ok()?;
    if !probe.status.success() {
        eprintln!(
            "skipped: no private mount namespace here (run as root, or allow user namespaces)"
        );
        return None;
    }
    Some(
        Command::new("unshare")
            .args([flags, "bash", "-c", script])
            .env("PBEM", pbem_bin())
            .env("D", dir)
            .env("PBEM_NOW", NOW.to_string())
            .env_remove("PBEM_CONFIG")
            .output()
            .unwrap(),
    )
}

/// Splits the output of a mount-namespace script into the `name=status` lines it printed and the
/// stderr lines, by name.
fn statuses(out: &Output) -> Vec<(String, String)> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

const MESSAGES: &str = r#"
msg() { printf 'From: %s@example.org\r\nTo: pbem@localhost\r\nSubject: signup %s pw-%s\r\nMessage-ID: <%s@client.example>\r\n\r\n' "$1" "$1" "$1" "$1"; }
run() { name=$1; shift; msg "$1" | "$PBEM" --db "$D/m/pbem.sqlite" --outbox "$D/m/outbox" ingest 2>"$D/$name.err"; echo "$name=$?"; }
mkdir -p "$D/m"
"#;

#[test]
fn a_full_disk_exits_75_and_the_mail_goes_through_once_there_is_room() {
    let dir = tempfile::tempdir().unwrap();
    // 4 MiB: a new database and its write-ahead log take about 1 MiB (the migrations' pages), and
    // each new migration adds to it; `dd` fills whatever is left.
    let script = format!(
        r#"{MESSAGES}
mount -t tmpfs -o size=4m tmpfs "$D/m" || exit 99
run first alice
dd if=/dev/zero of="$D/m/filler" bs=4k 2>/dev/null
run full bob
rm "$D/m/filler"
run freed bob
ls "$D/m/outbox" | wc -l | sed 's/^/mails=/'
"#
    );
    let Some(out) = in_mount_namespace(dir.path(), &script) else {
        return;
    };
    let got = statuses(&out);
    let db = dir.path().join("m").join("pbem.sqlite");
    assert_eq!(
        got,
        [
            ("first".to_string(), "0".to_string()),
            ("full".to_string(), "75".to_string()),
            ("freed".to_string(), "0".to_string()),
            ("mails".to_string(), "2".to_string()),
        ],
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let err = std::fs::read_to_string(dir.path().join("full.err")).unwrap();
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(
        lines[0].starts_with(&format!(
            "pbem: cannot write the database {} (the disk is full: 0 KiB free for ",
            db.display()
        )),
        "{err}"
    );
    assert!(
        lines[0].contains("): free space on that file system"),
        "{err}"
    );
}

#[test]
fn a_read_only_file_system_exits_75_and_says_to_remount() {
    let dir = tempfile::tempdir().unwrap();
    let script = format!(
        r#"{MESSAGES}
mount -t tmpfs -o size=4m tmpfs "$D/m" || exit 99
run first alice
mount -o remount,ro "$D/m" || exit 98
run readonly bob
"#
    );
    let Some(out) = in_mount_namespace(dir.path(), &script) else {
        return;
    };
    let got = statuses(&out);
    assert_eq!(
        got,
        [
            ("first".to_string(), "0".to_string()),
            ("readonly".to_string(), "75".to_string()),
        ],
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let err = std::fs::read_to_string(dir.path().join("readonly.err")).unwrap();
    let db = dir.path().join("m").join("pbem.sqlite");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(&format!(
            "pbem: cannot write the database {} (the file system of {} is read-only): remount it \
             read-write, or set [database] path to a writable place",
            db.display(),
            db.parent().unwrap().display()
        )),
        "{err}"
    );
}

#[test]
fn a_config_file_with_the_smtp_password_that_others_can_read_draws_a_warning() {
    let env = Env::new();
    let config = env.dir.path().join("pbem.toml");
    std::fs::write(
        &config,
        "[mail.smtp]\nhost = \"localhost\"\nusername = \"pbem\"\npassword = \"relay secret\"\n",
    )
    .unwrap();
    let list = |mode: u32| {
        chmod(&config, mode);
        let out = env
            .cmd()
            .arg("--config")
            .arg(&config)
            .args(["outbox", "list"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        // Without the count `outbox list` prints (issue 16).
        stderr_lines(&out)
            .into_iter()
            .filter(|l| !l.starts_with("outbox: "))
            .collect::<Vec<_>>()
    };
    let path = config.display();
    assert_eq!(
        list(0o644),
        [format!(
            "pbem: warning: {path} holds the SMTP password ([mail.smtp] password) and its group \
             and all users can read it (mode 644): chmod 600 {path}"
        )]
    );
    assert_eq!(list(0o604).len(), 1);
    assert!(list(0o640)[0].contains("its group can read it (mode 640)"));
    assert!(list(0o600).is_empty());
    // No password, nothing to hide.
    std::fs::write(&config, "[mail.smtp]\nhost = \"localhost\"\n").unwrap();
    assert!(list(0o644).is_empty());
}

// ---- sent twice ------------------------------------------------------------------------------

/// A sendmail-compatible program that, like the real ones, delivers only after it has read the whole
/// message: it notes that it started, waits `$FAKE_DELAY` seconds, reads stdin, then moves the
/// message into `delivered/` in one step.
fn fake_sendmail(dir: &Path) -> PathBuf {
    let path = dir.join("fake-sendmail");
    std::fs::create_dir_all(dir.join("delivered")).unwrap();
    std::fs::write(
        &path,
        format!(
            "#!/bin/sh\n\
             echo $$ > '{d}/started.'$$\n\
             if [ -n \"$FAKE_DELAY\" ]; then sleep \"$FAKE_DELAY\"; fi\n\
             cat > '{d}/tmp.'$$ || exit 75\n\
             exec mv '{d}/tmp.'$$ '{d}/delivered/'$$.eml\n",
            d = dir.display()
        ),
    )
    .unwrap();
    chmod(&path, 0o755);
    path
}

fn sendmail_config(env: &Env, sendmail: &Path) -> PathBuf {
    let config = env.dir.path().join("pbem.toml");
    std::fs::write(
        &config,
        format!(
            "[mail]\ntransport = \"sendmail\"\nsendmail_command = \"{}\"\n",
            sendmail.display()
        ),
    )
    .unwrap();
    config
}

fn delivered(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir.join("delivered"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    v.sort();
    v
}

/// Waits up to `limit` for `cond`.
fn wait_for(limit: Duration, mut cond: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if cond() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    cond()
}

/// True while `pid` runs (a zombie has ended).
fn running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(s) => {
            let state = s
                .rsplit_once(')')
                .map(|(_, r)| r.trim_start().chars().next());
            !matches!(state, Some(Some('Z' | 'X')))
        }
        Err(_) => false,
    }
}

#[test]
fn a_killed_ingests_sendmail_hand_off_delivers_once_and_the_flush_records_it() {
    let env = Env::new();
    let work = env.dir.path().join("mta");
    let sendmail = fake_sendmail(&work);
    let config = sendmail_config(&env, &sendmail);
    let pbem = |args: &[&str]| {
        let mut c = Command::new(pbem_bin());
        c.arg("--config")
            .arg(&config)
            .arg("--db")
            .arg(&env.db)
            .args(args)
            .env("PBEM_NOW", NOW.to_string())
            .env_remove("PBEM_CONFIG")
            .env_remove("FAKE_DELAY");
        c
    };
    let message = eml_with_id("bob@example.org", "help", "", "slow@client.example");
    let mut ingest = pbem(&["ingest"])
        .env("FAKE_DELAY", "2")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    ingest
        .stdin
        .take()
        .unwrap()
        .write_all(message.as_bytes())
        .unwrap();
    // The answer is committed (claimed by the ingest) before sendmail starts.
    let mut child_pid = None;
    assert!(
        wait_for(Duration::from_secs(20), || {
            child_pid = std::fs::read_dir(&work)
                .unwrap()
                .filter_map(|e| e.ok())
                .find_map(|e| {
                    let name = e.file_name().to_string_lossy().into_owned();
                    name.strip_prefix("started.")?.parse::<u32>().ok()
                });
            child_pid.is_some()
        }),
        "the fake sendmail never started"
    );
    let child_pid = child_pid.unwrap();

    // A flush while the ingest lives leaves its mail to it.
    let out = pbem(&["outbox", "flush"]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "sent 0, failed 0\n");

    ingest.kill().unwrap();
    ingest.wait().unwrap();
    // The hand-off outlives the killed ingest: its sendmail finishes and delivers, once.
    assert!(
        wait_for(Duration::from_secs(10), || !running(child_pid)),
        "sendmail {child_pid} never finished"
    );
    assert_eq!(delivered(&work).len(), 1, "the hand-off did not deliver");
    // The flush records it as sent instead of sending it again (while the hand-off still runs,
    // it leaves the mail alone).
    let mut last = String::new();
    assert!(
        wait_for(Duration::from_secs(10), || {
            let out = pbem(&["outbox", "flush"]).output().unwrap();
            last = String::from_utf8_lossy(&out.stdout).into_owned();
            assert!(last.starts_with("sent 0, failed 0"), "{last}");
            last.contains("1 delivered by a killed sender's hand-off")
        }),
        "the flush never saw the hand-off's delivery: {last}"
    );
    assert_eq!(delivered(&work).len(), 1, "sent twice");
    let mails = delivered(&work);
    assert!(
        mails[0].contains("In-Reply-To: <slow@client.example>"),
        "{}",
        mails[0]
    );
    let out = pbem(&["outbox", "flush"]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "sent 0, failed 0\n");
}

#[test]
fn flush_takes_a_dead_claimers_mail_at_once_and_leaves_a_live_claimers_alone() {
    let env = Env::new();
    env.players(&["alice", "bob", "carol"]);
    // A process that ran and is gone, with its identity as pbem records it.
    let mut gone = Command::new("sleep").arg("0.2").spawn().unwrap();
    let stat = std::fs::read_to_string(format!("/proc/{}/stat", gone.id())).unwrap();
    let ticks: u64 = stat
        .rsplit_once(')')
        .unwrap()
        .1
        .split_whitespace()
        .nth(19)
        .unwrap()
        .parse()
        .unwrap();
    gone.wait().unwrap();
    let me = pbem::sys::ProcessId::current().unwrap();
    let host = me.start.rsplit_once('/').unwrap().0.to_string();
    let dead = (i64::from(gone.id()), format!("{host}/{ticks}"));
    let alive = (me.pid, me.start.clone());

    // Three mails, claimed a minute ago: by the dead process, by this live one, and by a process
    // of an older pbem that recorded nobody.
    let conn = env.sqlite();
    let claimed_at = NOW - 60;
    for (n, who) in [Some(&dead), Some(&alive), None].into_iter().enumerate() {
        let mail = pbem::mail_out::OutgoingMail {
            from: "pbem <pbem@localhost>".into(),
            to: vec![format!("p{n}@example.org")],
            subject: format!("claim {n}"),
            body: "body\n".into(),
            message_id: format!("<claim{n}@localhost>"),
            in_reply_to: None,
            references: vec![],
            auto_submitted: "auto-generated".into(),
            x_loop: "pbem@localhost".into(),
            date_unix: NOW,
            picture: None,
            page: None,
            attachments: Vec::new(),
            reply_to: None,
            thread_topic: None,
            return_path: None,
        };
        conn.execute(
            "INSERT INTO outbox (mail, created_at, claimed_at, attempts, claimed_pid, claimed_start)
             VALUES (?1, ?2, ?2, 1, ?3, ?4)",
            rusqlite::params![
                serde_json::to_string(&mail).unwrap(),
                claimed_at,
                who.map(|w| w.0),
                who.map(|w| w.1.clone())
            ],
        )
        .unwrap();
    }
    drop(conn);
    let flush = |now: i64| {
        let out = env
            .cmd()
            .env("PBEM_NOW", now.to_string())
            .args(["outbox", "flush"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert_eq!(flush(NOW), "sent 1, failed 0\n");
    let subjects: Vec<String> = env.take_mails().into_iter().map(|m| m.subject).collect();
    assert_eq!(subjects, ["claim 0"], "only the dead claimer's mail");
    // Ten minutes after the claim, the stale rule takes the other two (the live claimer may be
    // stuck; the unknown one may be dead).
    assert_eq!(flush(NOW + 540), "sent 0, failed 0\n");
    assert_eq!(flush(claimed_at + 601), "sent 2, failed 0\n");
    let subjects: Vec<String> = env.take_mails().into_iter().map(|m| m.subject).collect();
    assert_eq!(subjects, ["claim 1", "claim 2"]);
}

//! End-to-end: `pbem maildir DIR` (cron with a Maildir) and the outbox (`pbem outbox list|flush`):
//! real message files in a real Maildir, mail that cannot be sent because the SMTP port on 127.0.0.1 is
//! closed, a sender killed while it was sending, and the mail finally delivered by the file transport.

use crate::common;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{Env, eml_with_id, legal_moves_after};

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A Maildir with new/, cur/ and tmp/.
fn maildir(root: &Path) -> PathBuf {
    let dir = root.join("Maildir");
    for sub in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    dir
}

/// Delivers a message into `new/` as an MDA does: written in tmp/, then renamed. `seq` orders the
/// names as delivery times do.
fn drop_in(dir: &Path, seq: u32, message: &str) -> String {
    let name = format!("{}.M{seq:04}P1.testhost", 1_795_000_000 + seq);
    let tmp = dir.join("tmp").join(&name);
    std::fs::write(&tmp, message).unwrap();
    std::fs::rename(&tmp, dir.join("new").join(&name)).unwrap();
    name
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn run_maildir(env: &Env, dir: &Path, extra: &[&str]) -> Output {
    env.cmd()
        .args(extra)
        .arg("maildir")
        .arg(dir)
        .output()
        .unwrap()
}

fn board_101(env: &Env) -> String {
    let out = env.admin("limit show 101");
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out)
}

#[test]
fn maildir_processes_new_into_cur_once() {
    let env = Env::new();
    let dir = maildir(env.dir.path());
    let m1 = legal_moves_after(&[], 2, &[])[0].clone();
    let move_mail = eml_with_id(
        "alice@example.org",
        &format!("limit move 101 alice pw-alice {m1}#1"),
        "my first move",
        "move1@client.example",
    );
    let mut names = [
        drop_in(
            &dir,
            1,
            &eml_with_id("alice@example.org", "signup alice pw-alice", "", "s1@c"),
        ),
        drop_in(
            &dir,
            2,
            &eml_with_id("bob@example.org", "signup bob pw-bob", "", "s2@c"),
        ),
        drop_in(
            &dir,
            3,
            &eml_with_id("alice@example.org", "limit challenge alice bob", "", "c1@c"),
        ),
        drop_in(&dir, 4, &move_mail),
        // The MTA delivered the move twice: the second copy must do nothing.
        drop_in(&dir, 5, &move_mail),
        // A bounce: never acted on, never answered.
        drop_in(
            &dir,
            6,
            &eml_with_id(
                "MAILER-DAEMON@mx.example.org",
                "Undelivered Mail Returned to Sender",
                &format!("limit move 101 bob pw-bob {m1}\n"),
                "bounce@mx",
            ),
        ),
    ];
    names.sort();

    let out = run_maildir(&env, &dir, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(names_in(&dir.join("new")).is_empty());
    let cur: Vec<String> = names.iter().map(|n| format!("{n}:2,S")).collect();
    assert_eq!(names_in(&dir.join("cur")), cur);
    let err = stderr(&out);
    assert!(
        err.contains(&format!("{}: already processed", names[4])),
        "{err}"
    );
    assert!(
        err.contains(&format!("{}: not answered", names[5])),
        "{err}"
    );

    // Two signup confirmations, two new boards, two board mails for the move: nothing for the
    // duplicate and the bounce.
    let mails = env.take_mails();
    // A board mail's state is its first line under the game's one Subject (issue 37).
    let mut subjects: Vec<(&str, &str)> = mails
        .iter()
        .map(|m| match m.subject.as_str() {
            "Limit Board 101" => (m.to[0].as_str(), m.first_line()),
            other => (m.to[0].as_str(), other),
        })
        .collect();
    subjects.sort();
    assert_eq!(
        subjects,
        [
            (
                "alice@example.org",
                "Limit Board 101: bob to move (with a comment)"
            ),
            ("alice@example.org", "Limit Board 101: new game, your move"),
            ("alice@example.org", "pbem signup alice"),
            (
                "bob@example.org",
                "Limit Board 101: new game, alice to move"
            ),
            (
                "bob@example.org",
                "Limit Board 101: your move (with a comment)"
            ),
            ("bob@example.org", "pbem signup bob"),
        ]
    );
    let board = board_101(&env);
    assert!(board.contains("Move 2\n"), "{board}");
    assert_eq!(
        board.matches(&format!("Red (alice)  {m1}")).count(),
        1,
        "{board}"
    );

    // Running it again does nothing more.
    let out = run_maildir(&env, &dir, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(names_in(&dir.join("cur")), cur);
    assert!(env.take_mails().is_empty());
    assert_eq!(board_101(&env), board);

    // A message that arrives later is the only one processed by the next run.
    let m2 = legal_moves_after(&[], 2, &[&m1])[0].clone();
    let late = drop_in(
        &dir,
        7,
        &eml_with_id(
            "bob@example.org",
            &format!("limit move 101 bob pw-bob {m2}#2"),
            "",
            "move2@client.example",
        ),
    );
    let out = run_maildir(&env, &dir, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(names_in(&dir.join("cur")).len(), 7);
    assert!(names_in(&dir.join("cur")).contains(&format!("{late}:2,S")));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 2, "{mails:#?}");
    assert!(mails.iter().all(|m| m.first_line()
        == if m.to == ["alice@example.org"] {
            "Limit Board 101: your move"
        } else {
            "Limit Board 101: alice to move"
        }));
    assert!(board_101(&env).contains("Move 3\n"));
    assert_eq!(env.integrity_check(), "ok");
}

/// While another process holds the database past the busy timeout, the message fails temporarily
/// (exit 75) and stays in new/; the next run, once the database is free, processes it.
#[test]
fn maildir_leaves_a_temporarily_failed_message_in_new() {
    let env = Env::new();
    let dir = maildir(env.dir.path());
    env.admin("list"); // creates the database and its schema
    let cfg = env.dir.path().join("short-timeout.toml");
    std::fs::write(&cfg, "[database]\nbusy_timeout_ms = 200\n").unwrap();
    let cfg = cfg.to_string_lossy().into_owned();
    let name = drop_in(
        &dir,
        1,
        &eml_with_id("alice@example.org", "signup alice pw-alice", "", "s1@c"),
    );

    let lock = env.sqlite();
    lock.execute_batch("BEGIN IMMEDIATE").unwrap();
    let out = run_maildir(&env, &dir, &["--config", &cfg]);
    assert_eq!(out.status.code(), Some(75), "{}", stderr(&out));
    assert!(stderr(&out).contains("database"), "{}", stderr(&out));
    assert_eq!(names_in(&dir.join("new")), std::slice::from_ref(&name));
    assert!(names_in(&dir.join("cur")).is_empty());
    lock.execute_batch("ROLLBACK").unwrap();

    let out = run_maildir(&env, &dir, &["--config", &cfg]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(names_in(&dir.join("new")).is_empty());
    assert_eq!(names_in(&dir.join("cur")), [format!("{name}:2,S")]);
    let mails = env.take_mails();
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].subject, "pbem signup alice");
}

#[test]
fn maildir_without_new_is_a_usage_error() {
    let env = Env::new();
    let missing = env.dir.path().join("NoSuchMaildir");
    let out = run_maildir(&env, &missing, &[]);
    assert_eq!(out.status.code(), Some(64));
    let err = stderr(&out);
    assert!(err.contains("NoSuchMaildir/new"), "{err}");
    assert!(err.contains("a Maildir holds new/, cur/ and tmp/"), "{err}");
}

/// A TCP port on 127.0.0.1 that nothing listens on (bound, then released).
fn closed_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

/// `pbem --db … --config CFG` (no --outbox: the transport is the configuration's).
fn with_config(env: &Env, cfg: &Path) -> std::process::Command {
    let mut c = std::process::Command::new(common::pbem_bin());
    c.arg("--db")
        .arg(&env.db)
        .arg("--config")
        .arg(cfg)
        .env("PBEM_NOW", env.now.to_string())
        .env("PBEM_SEED", common::SEED.to_string())
        .env_remove("PBEM_CONFIG");
    c
}

fn ingest_with(cmd: &mut std::process::Command, message: &str) -> Output {
    use std::io::Write;
    let mut child = cmd
        .arg("ingest")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(message.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// The rows `outbox list` prints: (state, to, subject).
fn outbox_list(env: &Env, all: bool) -> Vec<(String, String, String)> {
    let mut c = env.cmd();
    c.args(["outbox", "list"]);
    if all {
        c.arg("--all");
    }
    let out = c.output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    stdout(&out)
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 4, "{l}");
            (f[1].to_string(), f[2].to_string(), f[3].to_string())
        })
        .collect()
}

fn flush(env: &Env) -> Output {
    env.cmd().args(["outbox", "flush"]).output().unwrap()
}

#[test]
fn unsendable_mail_waits_in_the_outbox_until_a_flush_sends_it_once() {
    let env = Env::new();
    let port = closed_port();
    let cfg = env.dir.path().join("smtp-closed.toml");
    std::fs::write(
        &cfg,
        format!(
            "[mail]\ntransport = \"smtp\"\n\n[mail.smtp]\nhost = \"127.0.0.1\"\nport = {port}\n\
             tls = \"none\"\ntimeout_secs = 2\n"
        ),
    )
    .unwrap();

    // The relay is down: the message is still handled (exit 0), its mail waits.
    let out = ingest_with(
        &mut with_config(&env, &cfg),
        &eml_with_id("alice@example.org", "signup alice S3cret-pw", "", "s1@c"),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("not sent yet") && stderr(&out).contains("outbox flush"),
        "{}",
        stderr(&out)
    );
    let out = ingest_with(
        &mut with_config(&env, &cfg),
        &eml_with_id("carol@example.net", "help", "", "h1@c"),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        outbox_list(&env, false),
        [
            (
                "waiting, 1 tries".to_string(),
                "alice@example.org".to_string(),
                "pbem signup alice".to_string()
            ),
            (
                "waiting, 1 tries".to_string(),
                "carol@example.net".to_string(),
                "pbem help".to_string()
            ),
        ]
    );
    // Nothing reached the file outbox, and the move was done all the same: alice exists.
    assert!(env.take_mails().is_empty());
    assert!(env.admin("limit games alice").status.success());

    // A flush through the dead relay fails again (exit 75 for cron's log) and keeps both.
    let out = with_config(&env, &cfg)
        .args(["outbox", "flush"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(75), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "sent 0, failed 2");
    let waiting = outbox_list(&env, false);
    assert_eq!(waiting.len(), 2);
    assert!(
        waiting.iter().all(|w| w.0 == "waiting, 2 tries"),
        "{waiting:?}"
    );

    // A flush with a working transport sends each exactly once.
    let out = flush(&env);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "sent 2, failed 0");
    let mails = env.take_mails();
    assert_eq!(mails.len(), 2, "{mails:#?}");
    assert_eq!(mails[0].to, ["alice@example.org"]);
    assert_eq!(mails[0].subject, "pbem signup alice");
    assert!(mails[0].body.contains("Welcome"));
    assert!(!mails[0].raw.contains("S3cret-pw"), "the password leaked");
    // Still threaded to the message it answers, though sent later.
    assert_eq!(mails[0].in_reply_to().as_deref(), Some("s1@c"));
    assert_eq!(mails[1].to, ["carol@example.net"]);
    assert_eq!(mails[1].subject, "pbem help");
    assert!(outbox_list(&env, false).is_empty());
    let all = outbox_list(&env, true);
    assert_eq!(all.len(), 2);
    assert!(all.iter().all(|r| r.0 == "sent"), "{all:?}");

    // A second flush sends nothing.
    let out = flush(&env);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "sent 0, failed 0");
    assert!(env.take_mails().is_empty());
    assert_eq!(env.integrity_check(), "ok");
}

/// A sender killed while handing a mail to sendmail leaves it claimed but unsent: the claim names the
/// sender's pid and start time, so the next flush sees it dead and sends the mail at once, once (a
/// live sender's mail is left to it: tests/it/trust_mta.rs).
#[test]
fn a_mail_claimed_by_a_killed_sender_is_sent_once_by_the_next_flush() {
    let env = Env::new();
    let hang = env.dir.path().join("hanging-sendmail");
    std::fs::write(&hang, "#!/bin/sh\nexec sleep 5\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&hang, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let cfg = env.dir.path().join("sendmail.toml");
    std::fs::write(
        &cfg,
        format!(
            "[mail]\ntransport = \"sendmail\"\nsendmail_command = \"{}\"\n",
            hang.display()
        ),
    )
    .unwrap();

    let mut child = with_config(&env, &cfg)
        .arg("ingest")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin
            .write_all(eml_with_id("carol@example.net", "list", "", "l1@c").as_bytes())
            .unwrap();
    }
    // Wait until the transaction is committed (the mail is queued and claimed), then kill the sender
    // while sendmail hangs.
    let started = Instant::now();
    loop {
        let queued: i64 = env
            .sqlite()
            .query_row(
                "SELECT COUNT(*) FROM outbox WHERE claimed_at IS NOT NULL AND sent_at IS NULL",
                [],
                |r| r.get(0),
            )
            .unwrap_or(0);
        if queued == 1 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the mail was never queued"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // The sendmail hand-off that took the claim over dies too (as when the MTA kills the whole
    // process group): then nobody delivered the mail, and the next flush must.
    let holder: Option<i64> = env
        .sqlite()
        .query_row(
            "SELECT claimed_pid FROM outbox WHERE sent_at IS NULL",
            [],
            |r| r.get(0),
        )
        .unwrap();
    if let Some(pid) = holder {
        let _ = std::process::Command::new("kill")
            .args(["-9", &pid.to_string()])
            .status();
        let started = Instant::now();
        while std::path::Path::new(&format!("/proc/{pid}")).exists()
            && started.elapsed() < Duration::from_secs(5)
        {
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    assert_eq!(
        outbox_list(&env, false),
        [(
            "waiting, 1 tries".to_string(),
            "carol@example.net".to_string(),
            "pbem games".to_string()
        )]
    );
    // At the same clock, without waiting for the claim to grow stale: sent, once.
    let later = |env: &Env| {
        let mut c = env.cmd();
        c.env("PBEM_NOW", env.now.to_string());
        c
    };
    let out = later(&env).args(["outbox", "flush"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "sent 1, failed 0");
    let mails = env.take_mails();
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].to, ["carol@example.net"]);
    assert_eq!(mails[0].subject, "pbem games");
    let out = later(&env).args(["outbox", "flush"]).output().unwrap();
    assert_eq!(stdout(&out).trim(), "sent 0, failed 0");
    assert!(env.take_mails().is_empty());
    assert!(outbox_list(&env, false).is_empty());
}

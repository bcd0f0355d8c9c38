//! Delivery reports (issue 34, item 5b): with the `sendmail` transport the MTA takes every mail, and a
//! refusal comes back later as an RFC 3464 report to the envelope sender. Each mail goes out with its
//! own signed bounce address (`pbem+b<row>-<mac>@host`); a report to it, fed through `pbem ingest`
//! as a pipe would, records the refusal, and the address is then mailed no more.

use std::path::{Path, PathBuf};

use crate::common::{self, Env};

/// A sendmail-compatible program that keeps each call's arguments (`N.args`, one a line) and message
/// (`N.eml`) in `DIR/sent`, as an MTA that takes everything does.
fn recording_sendmail(dir: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let sent = dir.join("sent");
    std::fs::create_dir_all(&sent).unwrap();
    let path = dir.join("sendmail");
    std::fs::write(
        &path,
        format!(
            "#!/bin/sh\nn=$(date +%s%N)-$$\nprintf '%s\\n' \"$@\" > '{d}/'$n.args\ncat > '{d}/'$n.eml\n",
            d = sent.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// The envelope senders (`-f`) of the mails handed to sendmail for `to`, oldest first; the calls
/// are removed.
fn envelope_senders_to(dir: &Path, to: &str) -> Vec<String> {
    let mut calls: Vec<(PathBuf, Vec<String>)> = std::fs::read_dir(dir.join("sent"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "args"))
        .map(|p| {
            let args = std::fs::read_to_string(&p).unwrap();
            (p, args.lines().map(str::to_string).collect())
        })
        .collect();
    calls.sort();
    let mut out = Vec::new();
    for (path, args) in calls {
        let rcpts = args.iter().skip_while(|a| *a != "--").skip(1);
        if rcpts.clone().any(|r| r == to) {
            let f = args
                .iter()
                .position(|a| a == "-f")
                .map(|i| args[i + 1].clone());
            out.push(f.unwrap_or_default());
        }
        std::fs::remove_file(&path).unwrap();
        let _ = std::fs::remove_file(path.with_extension("eml"));
    }
    out
}

/// The report Postfix 3.7 sends back for a mail its `error:5.2.1` transport refused (the shape of
/// the one scripts/postfix-e2e.sh receives), addressed to `verp` as Postfix's pipe delivers it
/// (`Delivered-To`, with `flags=D`).
fn postfix_report(verp: &str, refused: &str, n: usize) -> String {
    format!(
        "Return-Path: <>\r\nDelivered-To: {verp}\r\nReceived: by vm (Postfix)\r\n\tid 4DqS0{n}; \
         Wed, 18 Nov 2026 10:00:01 +0000 (UTC)\r\nDate: Wed, 18 Nov 2026 10:00:01 +0000 (UTC)\r\n\
         From: MAILER-DAEMON@vm (Mail Delivery System)\r\nSubject: Undelivered Mail Returned to Sender\r\n\
         To: {verp}\r\nAuto-Submitted: auto-replied\r\nMIME-Version: 1.0\r\n\
         Content-Type: multipart/report; report-type=delivery-status;\r\n\tboundary=\"4DqS0{n}.1/vm\"\r\n\
         Content-Transfer-Encoding: 7bit\r\nMessage-Id: <20261118100001.4DqS0{n}@vm>\r\n\r\n\
         This is a MIME-encapsulated message.\r\n\r\n--4DqS0{n}.1/vm\r\n\
         Content-Description: Notification\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\n\
         This is the mail system at host vm.\r\n\r\nI'm sorry to have to inform you that your message \
         could not\r\nbe delivered to one or more recipients.\r\n\r\n<{refused}>: mailbox disabled\r\n\r\n\
         --4DqS0{n}.1/vm\r\nContent-Description: Delivery report\r\nContent-Type: message/delivery-status\r\n\r\n\
         Reporting-MTA: dns; vm\r\nX-Postfix-Queue-ID: 4DqS0{n}\r\nX-Postfix-Sender: rfc822; {verp}\r\n\
         Arrival-Date: Wed, 18 Nov 2026 10:00:00 +0000 (UTC)\r\n\r\n\
         Final-Recipient: rfc822; {refused}\r\nOriginal-Recipient: rfc822;{refused}\r\nAction: failed\r\n\
         Status: 5.2.1\r\nDiagnostic-Code: X-Postfix; mailbox disabled\r\n\r\n\
         --4DqS0{n}.1/vm\r\nContent-Description: Undelivered Message Headers\r\n\
         Content-Type: text/rfc822-headers\r\n\r\nFrom: pbem@localhost\r\nTo: {refused}\r\n\
         Subject: Limit Board 10{n}\r\nAuto-Submitted: auto-generated\r\nX-Loop: pbem@localhost\r\n\r\n\
         --4DqS0{n}.1/vm--\r\n"
    )
}

/// `pbem --db … --config … ARGS` with the tests' clock (no `--outbox`, which would choose the file
/// transport), `stdin` fed to it: exit status, stdout, stderr.
fn run(env: &Env, args: &[&str], stdin: &str) -> (Option<i32>, String, String) {
    let out = common::Command::new(common::pbem_bin())
        .arg("--db")
        .arg(&env.db)
        .arg("--config")
        .arg(env.config.as_ref().unwrap())
        .args(args)
        .env("PBEM_NOW", env.now.to_string())
        .env("PBEM_SEED", common::SEED.to_string())
        .write_stdin(stdin.as_bytes().to_vec())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Ingests a mail; it must be handled (exit 0). Returns the log.
fn deliver(env: &Env, mail: &str) -> String {
    let (code, _, err) = run(env, &["ingest"], mail);
    assert_eq!(code, Some(0), "{err}");
    err
}

#[test]
fn delivery_reports_to_the_signed_bounce_address_are_recorded_and_stop_the_mailing() {
    let env = Env::new();
    let sendmail = recording_sendmail(env.dir.path());
    let env = env.with_config(&format!(
        "[mail]\ntransport = \"sendmail\"\nsendmail_command = \"{}\"\n",
        sendmail.display()
    ));
    for n in ["alice", "bob"] {
        deliver(
            &env,
            &common::eml(
                &format!("{n}@example.org"),
                &format!("signup {n} pw-{n}"),
                "",
            ),
        );
    }
    envelope_senders_to(env.dir.path(), "");
    // Three board mails to bob: the MTA takes each (sendmail exits 0); each has a bounce address of
    // its own.
    for _ in 0..3 {
        deliver(
            &env,
            &common::eml("alice@example.org", "limit challenge alice bob", ""),
        );
    }
    let verps = envelope_senders_to(env.dir.path(), "bob@example.org");
    assert_eq!(verps.len(), 3, "{verps:?}");
    for v in &verps {
        let token = v
            .strip_prefix("pbem+b")
            .and_then(|t| t.strip_suffix("@localhost"))
            .unwrap_or_else(|| panic!("the envelope sender {v} is no signed bounce address"));
        let (row, mac) = token.split_once('-').unwrap();
        assert!(row.parse::<i64>().is_ok() && mac.len() == 24, "{v}");
    }
    assert!(verps[0] != verps[1] && verps[1] != verps[2], "{verps:?}");

    // A stranger's report: the same shape, a bounce address with one digit of its MAC changed, or
    // the server's plain address. Nothing is recorded.
    let forged = {
        let mut v = verps[0].clone().into_bytes();
        let i = v.iter().position(|&b| b == b'@').unwrap() - 1;
        v[i] = if v[i] == b'0' { b'1' } else { b'0' };
        String::from_utf8(v).unwrap()
    };
    let (code, _, err) = run(
        &env,
        &["ingest"],
        &postfix_report(&forged, "bob@example.org", 0),
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("did not make"), "{err}");
    let (code, _, err) = run(
        &env,
        &["ingest"],
        &postfix_report("pbem@localhost", "bob@example.org", 0),
    );
    assert_eq!(code, Some(0), "{err}");
    let (_, list, _) = run(&env, &["outbox", "list"], "");
    assert!(
        !list.contains("bounces\t") && !list.contains("refused"),
        "{list}"
    );

    // The three reports come back, through the pipe: each refusal is recorded on its row.
    for (n, v) in verps.iter().enumerate() {
        let (code, _, err) = run(
            &env,
            &["ingest"],
            &postfix_report(v, "bob@example.org", n + 1),
        );
        assert_eq!(code, Some(0), "{err}");
        assert!(
            err.contains(
                "to bob@example.org was refused (delivery report: 5.2.1 (mailbox disabled))"
            ),
            "{err}"
        );
        // The same report again (the MTA delivered it twice) changes nothing.
        run(
            &env,
            &["ingest"],
            &postfix_report(v, "bob@example.org", n + 1),
        );
    }
    let (code, list, _) = run(&env, &["outbox", "list"], "");
    assert_eq!(code, Some(0));
    assert_eq!(
        list.matches("sent, then refused for good").count(),
        3,
        "{list}"
    );
    assert!(
        list.contains("delivery report: 5.2.1 (mailbox disabled)"),
        "{list}"
    );
    assert!(
        list.contains("bounces\tbob@example.org\trefused since"),
        "{list}"
    );

    // The mailing stops: alice's next game mails alice only; bob's board mail is held and counted.
    deliver(
        &env,
        &common::eml("alice@example.org", "limit challenge alice bob", ""),
    );
    assert_eq!(
        envelope_senders_to(env.dir.path(), "bob@example.org"),
        Vec::<String>::new()
    );
    let (_, list, _) = run(&env, &["outbox", "list"], "");
    assert!(list.contains("1 mail(s) not sent to it since"), "{list}");
    // Mail to a bounce address that is no report (an autoresponder answering the envelope
    // sender) is not answered and changes nothing.
    let autoreply = format!(
        "From: bob@example.org\r\nTo: {}\r\nSubject: Out of office\r\nMessage-ID: <ooo@example.org>\r\n\r\nhelp\r\n",
        verps[0]
    );
    let (code, _, err) = run(&env, &["ingest"], &autoreply);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("no delivery report"), "{err}");
    assert_eq!(
        envelope_senders_to(env.dir.path(), "bob@example.org"),
        Vec::<String>::new()
    );
}

/// The same over LMTP, as Postfix's `lmtp` transport delivers a report: the bounce address only in
/// `RCPT TO` (the headers name the server's plain address), and `MAIL FROM:<>`.
#[test]
fn a_delivery_report_over_lmtp_is_read_from_its_envelope_recipient() {
    let env = Env::new();
    let sendmail = recording_sendmail(env.dir.path());
    let env = env.with_config(&format!(
        "[mail]\ntransport = \"sendmail\"\nsendmail_command = \"{}\"\n",
        sendmail.display()
    ));
    for n in ["alice", "bob"] {
        deliver(
            &env,
            &common::eml(
                &format!("{n}@example.org"),
                &format!("signup {n} pw-{n}"),
                "",
            ),
        );
    }
    envelope_senders_to(env.dir.path(), "");
    deliver(
        &env,
        &common::eml("alice@example.org", "limit challenge alice bob", ""),
    );
    let verps = envelope_senders_to(env.dir.path(), "bob@example.org");
    assert_eq!(verps.len(), 1, "{verps:?}");
    let verp = &verps[0];
    assert!(verp.starts_with("pbem+b"), "{verp}");
    let report = postfix_report(verp, "bob@example.org", 1)
        .replace(&format!("Delivered-To: {verp}\r\n"), "")
        .replace(&format!("To: {verp}\r\n"), "To: pbem@localhost\r\n");
    let headers = &report[..report.find("\r\n\r\n").unwrap()];
    assert!(!headers.contains(verp.as_str()), "{headers}");
    let mut server = crate::lmtp::Lmtp::start_with_transport(
        &env,
        "inet:127.0.0.1:0",
        env.config.as_ref().unwrap(),
    );
    let mut client = server.connect();
    let said = client.send("", &[verp], &report);
    assert_eq!(said.len(), 1);
    assert!(
        said[0].starts_with(&format!(
            "250 2.0.0 <{verp}> delivery report: mail {} to bob@example.org was refused",
            verp.trim_start_matches("pbem+b").split('-').next().unwrap()
        )),
        "{said:?}"
    );
    server.stop();
    let (_, list, _) = run(&env, &["outbox", "list"], "");
    assert!(list.contains("sent, then refused for good"), "{list}");
    assert!(
        list.contains("bounces\tbob@example.org\trefused since"),
        "{list}"
    );
    // Nothing was answered: a report's sender is nobody to write to.
    let calls = std::fs::read_dir(env.dir.path().join("sent"))
        .unwrap()
        .count();
    assert_eq!(calls, 0, "sendmail was run for the report");
}

/// `mail.bounce_addresses = false` (a relay that takes only the From as envelope sender): the plain
/// address again, and a report to it is silent mail, as before.
#[test]
fn with_bounce_addresses_off_the_envelope_sender_is_the_plain_address() {
    let env = Env::new();
    let sendmail = recording_sendmail(env.dir.path());
    let env = env.with_config(&format!(
        "[mail]\ntransport = \"sendmail\"\nsendmail_command = \"{}\"\nbounce_addresses = false\n",
        sendmail.display()
    ));
    deliver(
        &env,
        &common::eml("bob@example.org", "signup bob pw-bob", ""),
    );
    assert_eq!(
        envelope_senders_to(env.dir.path(), "bob@example.org"),
        ["pbem@localhost"]
    );
}

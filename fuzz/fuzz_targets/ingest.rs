//! Mail ingest against an in-memory database, with a game between alice and bob under way.
//!
//! Properties checked on every input (a failed check panics, which libFuzzer reports as a crash):
//! * no panic, and each ingest ends within `MAX_INGEST` (libFuzzer's `-timeout` backs this up);
//! * no CR, LF or other control character in a header of any mail the server writes (decoded);
//! * no password the mail writes in a password's place, or as a candidate of a line that does not
//!   parse (see `credentials_used`), appears in any mail the server writes (Subject and body decoded,
//!   other header fields as written), except inside the sender's own address or message id repeated
//!   verbatim in To, In-Reply-To or References;
//! * every mail the server queues is sent at once (none is left failing in the outbox);
//! * the same mail ingested a second time writes nothing to the database and sends nothing;
//! * with the first input byte odd, the input becomes the body of a reply in which every line is
//!   `>` quoted (or follows a `-- ` signature): then no game, seat, user, address or comment changes.
//!
//! The server is reused for `RESET_EVERY` inputs (building one costs more than most inputs), and its clock
//! moves on an hour and a half per input so that no reply allowance or lock-out outlasts an input.
//! A crash that needs earlier inputs' state is rare; rerunning the artifact alone shows if it does.

#![no_main]

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use libfuzzer_sys::fuzz_target;
use mail_parser::MessageParser;
use pbem::config::Config;
use pbem::mail_in::{self, MailLimits};
use pbem::server::{IngestOutcome, Server};

const SECRETS: [&str; 2] = ["Alice-pw-1", "Bob-pw-22"];
const RESET_EVERY: u32 = 500;
const MAX_INGEST: Duration = Duration::from_secs(3);
const START: i64 = 1_795_000_000;
/// The tables that hold the games and the accounts (not the logs of mail).
const STATE_TABLES: [&str; 5] = ["users", "addresses", "games", "seats", "comments"];

struct World {
    _dir: tempfile::TempDir,
    outbox: PathBuf,
    cfg: Config,
    server: Server,
    used: u32,
    now: i64,
}

thread_local! {
    static WORLD: RefCell<Option<World>> = const { RefCell::new(None) };
}

fn config(outbox: &Path) -> Config {
    let mut cfg = Config::default();
    cfg.server.address = "pbem@games.example".into();
    cfg.mail.outbox_dir = outbox.to_path_buf();
    // The cheapest argon2 the configuration accepts: the fuzzer is after logic, not hashing.
    cfg.passwords.memory_kib = 8;
    cfg.passwords.iterations = 1;
    cfg.passwords.parallelism = 1;
    // Small allowances, so that the throttle and the per-mail cap are reached and fuzzed too.
    cfg.limits.password_failures_per_sender_per_hour = 3;
    cfg.limits.password_failures_per_account_per_hour = 5;
    cfg
}

fn fresh_server(cfg: &Config, now: i64, outbox: &Path) -> Server {
    let mut server = Server::open_in_memory(cfg.clone(), now)
        .expect("in-memory server")
        .with_seed(Some(7));
    for line in [
        "signup alice Alice-pw-1 alice@example.org",
        "signup bob Bob-pw-22 bob@example.org",
        "limit challenge alice bob",
    ] {
        let out = server.run_admin(line, "").expect("setup");
        assert!(out.ok, "setup `{line}`: {}", out.text);
    }
    drain(outbox);
    server
}

/// Reads and removes every mail the server wrote.
fn drain(outbox: &Path) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(outbox) else {
        return out;
    };
    for e in entries.flatten() {
        let p = e.path();
        if let Ok(bytes) = std::fs::read(&p) {
            out.push(bytes);
        }
        let _ = std::fs::remove_file(&p);
    }
    out
}

/// The secrets this mail writes where the server must hide them, read the way the server reads the
/// mail: in a password's place of a command line (or Subject) that parses, or among the candidates of
/// one that does not (`command::password_candidates`: checked against the writer's password, or
/// hidden unchecked). A word a line that parses puts in another place (a userid) is shown as written
/// when it cannot be checked, so it does not count here.
fn credentials_used(raw: &[u8], cfg: &Config) -> Vec<&'static str> {
    let limits = MailLimits {
        max_bytes: cfg.limits.max_message_bytes,
        max_lines: cfg.limits.max_body_lines,
        max_parts: cfg.limits.max_mime_parts,
        max_commands: cfg.limits.max_commands_per_mail,
    };
    let inc = mail_in::parse(raw, &limits, &cfg.server.address, &["limit"]);
    let mut lines = inc.commands.clone();
    lines.push(inc.subject.clone());
    let mut used = Vec::new();
    for line in &lines {
        let pw: Vec<String> = match pbem::command::parse(line) {
            Ok(cmd) => cmd.passwords().into_iter().map(str::to_string).collect(),
            Err(_) => pbem::command::password_candidates(line, &["limit"])
                .into_iter()
                .map(str::to_string)
                .collect(),
        };
        for s in SECRETS {
            if pw.iter().any(|p| p == s) && !used.contains(&s) {
                used.push(s);
            }
        }
    }
    used
}

fn check_mails(mails: &[Vec<u8>], secrets: &[&str], input: &[u8]) {
    for raw in mails {
        // Headers end at the first empty line; each header line must be a field or a folded
        // continuation, never a bare CR or LF inside a value.
        let text = String::from_utf8_lossy(raw);
        let head = text.split("\r\n\r\n").next().unwrap_or("");
        for line in head.split("\r\n") {
            assert!(
                !line.contains('\r') && !line.contains('\n'),
                "bare CR/LF in a header line {line:?} for input {input:?}"
            );
        }
        let msg = MessageParser::default()
            .parse(raw.as_slice())
            .expect("our mail parses");
        let subject = msg.subject().unwrap_or_default();
        assert!(
            !subject.chars().any(char::is_control),
            "control character in Subject {subject:?}"
        );
        for a in msg.to().into_iter().flat_map(|a| a.iter()) {
            let addr = a.address().unwrap_or_default();
            assert!(
                !addr.chars().any(|c| c.is_control() || c.is_whitespace()),
                "bad To address {addr:?}"
            );
        }
        let body = msg.body_text(0).unwrap_or_default();
        let rest = other_header_fields(&text, secrets, input);
        for s in secrets {
            assert!(
                !body.contains(s) && !subject.contains(s) && !rest.contains(s),
                "password {s} leaked in a mail:\n{text}\nfor input {input:?}"
            );
        }
    }
}

/// The mail's header fields as written, less those checked elsewhere: Subject and the body are checked
/// decoded (their raw quoted-printable can spell a password that the text does not hold: `=BA` +
/// `lice-pw-1`), and To, In-Reply-To and References once every word of theirs that holds a secret is
/// found to be copied verbatim from the input: an answer must repeat the sender's own address and
/// message id to reach them and to thread, whatever the sender put in them.
fn other_header_fields(text: &str, secrets: &[&str], input: &[u8]) -> String {
    let head = text.split_once("\r\n\r\n").map_or(text, |(h, _)| h);
    let mut kept = String::new();
    let mut field = String::new();
    for line in head.split("\r\n") {
        if !line.starts_with([' ', '\t']) {
            field = line.split(':').next().unwrap_or("").to_ascii_lowercase();
        }
        match field.as_str() {
            "subject" => {}
            "to" | "in-reply-to" | "references" => {
                let value = line.split_once(':').map_or(line, |(_, v)| v);
                for word in value.split([' ', '\t', ',', '<', '>']) {
                    if secrets.iter().any(|s| word.contains(s)) {
                        assert!(
                            input.windows(word.len()).any(|w| w == word.as_bytes()),
                            "a password in {line:?}, which the input does not hold: {input:?}"
                        );
                    }
                }
            }
            _ => {
                kept.push_str(line);
                kept.push_str("\r\n");
            }
        }
    }
    kept
}

fn timed(server: &mut Server, raw: &[u8]) -> IngestOutcome {
    let t = Instant::now();
    let out = server.ingest(raw).expect("in-memory ingest does not fail");
    let took = t.elapsed();
    assert!(took < MAX_INGEST, "ingest took {took:?}");
    out
}

/// A reply whose every line of `text` is quoted, or (variant) follows a signature.
fn quoted_mail(text: &str, after_signature: bool, n: u64) -> Vec<u8> {
    let mut body = String::from("Thanks, see below.\r\n");
    if after_signature {
        body.push_str("-- \r\n");
    }
    for line in text.lines() {
        if !after_signature {
            body.push_str("> ");
        }
        body.push_str(line);
        body.push_str("\r\n");
    }
    format!(
        "From: alice@example.org\r\nTo: pbem@games.example\r\nSubject: Re: Limit Board 101\r\n\
         Message-ID: <q{n}@client.example>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}"
    )
    .into_bytes()
}

/// libfuzzer-sys aborts on every panic, even one caught further up. One panic is caught on purpose:
/// mail-parser 0.11.9's `debug_assert!` on some broken nested multiparts, which `mail_in::parse`
/// catches and answers as an unreadable mail (release builds do not have the assertion). Only that
/// one is let through to unwind; any other panic still ends the run as a crash.
fn let_the_known_parser_assertion_unwind() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let abort = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let in_parser = info
                .location()
                .is_some_and(|l| l.file().contains("mail-parser-0.11"));
            let known = info
                .payload()
                .downcast_ref::<&str>()
                .is_some_and(|m| *m == "Invalid part ID, could not find multipart.");
            if !(in_parser && known) {
                abort(info);
            }
        }));
    });
}

fuzz_target!(|data: &[u8]| {
    let_the_known_parser_assertion_unwind();
    WORLD.with(|w| {
        let mut w = w.borrow_mut();
        if w.as_ref().is_none_or(|w| w.used >= RESET_EVERY) {
            // The file transport syncs every mail to disk; on tmpfs that costs nothing.
            let shm = Path::new("/dev/shm");
            let dir = if shm.is_dir() {
                tempfile::tempdir_in(shm)
            } else {
                tempfile::tempdir()
            }
            .expect("temp dir");
            let outbox = dir.path().join("outbox");
            let cfg = config(&outbox);
            let server = fresh_server(&cfg, START, &outbox);
            *w = Some(World {
                _dir: dir,
                outbox,
                cfg,
                server,
                used: 0,
                now: START,
            });
        }
        let w = w.as_mut().unwrap();
        w.used += 1;
        w.now += 5400;
        w.server.set_now(w.now);

        let quoted_mode = data.first().is_some_and(|b| b & 1 == 1);
        if quoted_mode {
            let text = String::from_utf8_lossy(&data[1..]);
            let before = w.server.db().content_digest(&STATE_TABLES).unwrap();
            let mail = quoted_mail(&text, data[0] & 2 == 2, u64::from(w.used));
            timed(&mut w.server, &mail);
            let after = w.server.db().content_digest(&STATE_TABLES).unwrap();
            assert_eq!(
                before, after,
                "a quoted command changed the state: {text:?}"
            );
            let mails = drain(&w.outbox);
            check_mails(&mails, &[], data);
            return;
        }

        let secrets = credentials_used(data, &w.cfg);
        let first = timed(&mut w.server, data);
        let unsent = w.server.db().outbox(true).unwrap();
        assert!(
            unsent.is_empty(),
            "mail left unsent: {:?}",
            unsent.iter().map(|r| &r.last_error).collect::<Vec<_>>()
        );
        let mails = drain(&w.outbox);
        check_mails(&mails, &secrets, data);

        let changes = w.server.db().total_changes();
        let second = timed(&mut w.server, data);
        assert_eq!(
            w.server.db().total_changes(),
            changes,
            "the second delivery wrote to the database ({first:?} then {second:?})"
        );
        let again = drain(&w.outbox);
        assert!(again.is_empty(), "the second delivery sent mail");
        match first {
            IngestOutcome::Handled { .. } | IngestOutcome::Duplicate => {
                assert_eq!(second, IngestOutcome::Duplicate)
            }
            other => assert_eq!(second, other),
        }
    });
});

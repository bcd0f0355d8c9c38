//! Real messages, in the shapes real mail clients send, read by `pbem::mail_in::parse`.
//!
//! The fixtures in `tests/fixtures/mail/` are also fed to `pbem ingest` by the end-to-end tests. Their
//! players: `alice` (password `secret`, alice@example.org) and `bob` (password `hunter2`,
//! bob@example.org); the server is pbem@example.org; the game is board `limit` 101.

use std::path::PathBuf;

use pbem::command::{self, RawCommand};
use pbem::mail_in::{Incoming, MailLimits, SilentReason, parse};

const OWN: &str = "pbem@example.org";
const GAMES: &[&str] = &["limit"];
const PASSWORDS: &[&str] = &["secret", "hunter2"];

fn fixture_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mail")
}

fn raw(name: &str) -> Vec<u8> {
    let p = fixture_dir().join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn read(name: &str) -> Incoming {
    parse(&raw(name), &MailLimits::default(), OWN, GAMES)
}

/// What one fixture must give.
struct Want {
    file: &'static str,
    subject: &'static str,
    reply_to: Option<&'static str>,
    silent: Option<SilentReason>,
    commands: &'static [&'static str],
    comment: &'static str,
}

fn wants() -> Vec<Want> {
    vec![
        Want {
            file: "subject_move_thunderbird.eml",
            subject: "limit move 101 alice secret 3-7,4",
            reply_to: Some("alice@example.org"),
            silent: None,
            commands: &["limit move 101 alice secret 3-7,4"],
            comment: "Your move, Bob. I think the left side is mine now.\n\nCheers,\nAlice",
        },
        Want {
            file: "flowed_thunderbird.eml",
            subject: "A game of Limit with the test options?",
            reply_to: Some("alice@example.org"),
            silent: None,
            // format=flowed: the challenge Thunderbird wrapped at 72 columns is whole again.
            commands: &[
                "limit challenge -size=6 -must_touch=2 -free_edges=2 -no_equaliser alice bob",
            ],
            comment: "Hi Bob, here is the challenge with the test options, as we agreed on the phone \
                      yesterday:\n\nSee you on the board.",
        },
        Want {
            file: "mult.eml",
            subject: "mult",
            reply_to: Some("bob@example.org"),
            silent: None,
            commands: &[
                "limit show 101",
                "limit move 101 bob hunter2 9-5,2",
                "limit history 101",
            ],
            comment: "",
        },
        Want {
            file: "reply_thunderbird.eml",
            subject: "Limit Board 101 Alice",
            reply_to: Some("alice@example.org"),
            silent: None,
            commands: &["limit move 101 alice secret 3-7,4"],
            comment: "Hi Bob,\n\ngood game so far!",
        },
        Want {
            file: "reply_gmail.eml",
            subject: "Limit Board 101 Bob",
            reply_to: Some("bob@example.org"),
            silent: None,
            commands: &["limit move 101 bob hunter2 9-5,2"],
            comment: "Nice one. Your turn, Alice \u{2014} good luck getting out of that corner!",
        },
        Want {
            file: "reply_outlook_original.eml",
            subject: "Limit Board 101 Alice",
            reply_to: Some("alice@example.org"),
            silent: None,
            commands: &["limit move 101 alice secret 6-2,8"],
            comment: "Bob, that was sneaky.\n\nAlice",
        },
        Want {
            file: "reply_outlook_from_sent.eml",
            subject: "Limit Board 101 Bob",
            reply_to: Some("bob@example.org"),
            silent: None,
            commands: &["limit move 101 bob hunter2 4-1,5"],
            comment: "Ha! Didn't see that coming, did you?",
        },
        Want {
            file: "multipart_alternative.eml",
            subject: "limit move 101 alice secret 3-7,4#14",
            reply_to: Some("alice@example.org"),
            silent: None,
            commands: &["limit move 101 alice secret 3-7,4#14"],
            comment: "Sent from the train. Back to you, Bob.",
        },
        Want {
            file: "html_only.eml",
            subject: "Limit Board 101 Bob",
            reply_to: Some("bob@example.org"),
            silent: None,
            // `&nbsp;` read as a space; the move's own spacing is the game's business.
            commands: &["limit move 101 bob hunter2 5-9, 6"],
            comment: "Hello Alice,\nThat's my answer & I\u{2019}m sticking to it.",
        },
        Want {
            file: "quoted_printable.eml",
            subject: "limit move 101 alice secret 2-6,1",
            reply_to: Some("alice@example.org"),
            silent: None,
            commands: &["limit move 101 alice secret 2-6,1"],
            comment: "Très bien joué — but the next one is mine. Très bien joué — but the next one is \
                      mine. Très bien joué — but the next one is mine.\n\nA bientôt,\nAlice",
        },
        Want {
            file: "base64.eml",
            subject: "Limit Board 101 Bob",
            reply_to: Some("bob@example.org"),
            silent: None,
            commands: &["limit move 101 bob hunter2 7-3,9"],
            comment: "Typed on my phone, sorry for typos.",
        },
        Want {
            file: "latin1.eml",
            // ISO-8859-1 is read as its superset windows-1252, as browsers and mail clients do: 0x96 is
            // the en dash.
            subject: "Limit Board 101 Alice \u{2013} à toi de jouer",
            reply_to: Some("alice@example.org"),
            silent: None,
            commands: &["limit move 101 alice secret 8-4,3"],
            comment: "Très joué, Bob ! À bientôt.\nGrüße, Alice",
        },
        Want {
            file: "command_only_quoted.eml",
            subject: "Limit Board 101 Bob",
            reply_to: Some("bob@example.org"),
            silent: None,
            commands: &[],
            comment: "Thanks, I will think about it overnight.",
        },
        Want {
            file: "command_after_signature.eml",
            subject: "Limit Board 101 Alice",
            reply_to: Some("alice@example.org"),
            silent: None,
            commands: &[],
            comment: "Hi Bob, I need a day to think.",
        },
        Want {
            file: "bounce_dsn.eml",
            subject: "Undelivered Mail Returned to Sender",
            reply_to: Some("MAILER-DAEMON@mx.example.org"),
            silent: Some(SilentReason::DeliveryReport("multipart/report".into())),
            commands: &[],
            comment: "",
        },
        Want {
            file: "vacation_autoreply.eml",
            subject: "Auto: limit move 101 alice secret 3-7,4",
            reply_to: Some("bob@example.org"),
            silent: Some(SilentReason::AutoSubmitted("auto-replied".into())),
            commands: &[],
            comment: "",
        },
        Want {
            file: "precedence_bulk.eml",
            subject: "help",
            reply_to: Some("news@lists.example.com"),
            silent: Some(SilentReason::Precedence("bulk".into())),
            commands: &[],
            comment: "",
        },
        Want {
            file: "own_xloop.eml",
            subject: "Limit Board 101 Bob",
            reply_to: Some("alice@example.org"),
            silent: Some(SilentReason::OwnLoop),
            commands: &[],
            comment: "",
        },
        Want {
            file: "no_message_id.eml",
            subject: "limit show 101",
            reply_to: Some("alice@example.org"),
            silent: None,
            commands: &["limit show 101"],
            comment: "",
        },
        Want {
            file: "no_from.eml",
            subject: "limit show 101",
            reply_to: None,
            silent: None,
            commands: &["limit show 101"],
            comment: "Who am I?",
        },
        Want {
            file: "crlf_header_tricks.eml",
            // The encoded CR LF became a space: nothing can start a new header line.
            subject: "limit show 101 Bcc: victim@evil.example",
            reply_to: Some("alice@example.org"),
            silent: None,
            commands: &["limit show 101 Bcc: victim@evil.example"],
            comment: "hi",
        },
        Want {
            file: "signup_alice.eml",
            subject: "signup alice secret",
            reply_to: Some("alice@example.org"),
            silent: None,
            commands: &["signup alice secret"],
            comment: "",
        },
        Want {
            file: "signup_bob.eml",
            subject: "signup bob hunter2",
            reply_to: Some("bob@example.org"),
            silent: None,
            commands: &["signup bob hunter2"],
            comment: "",
        },
        Want {
            file: "challenge.eml",
            subject: "limit challenge alice bob",
            reply_to: Some("alice@example.org"),
            silent: None,
            commands: &["limit challenge alice bob"],
            comment: "Fancy a game of Limit, Bob?",
        },
    ]
}

#[test]
fn every_fixture_reads_as_expected() {
    let wants = wants();
    for w in &wants {
        let m = read(w.file);
        assert_eq!(m.subject, w.subject, "{}: subject", w.file);
        assert_eq!(m.reply_to.as_deref(), w.reply_to, "{}: reply_to", w.file);
        assert_eq!(m.silent, w.silent, "{}: silent", w.file);
        assert_eq!(m.commands, w.commands, "{}: commands", w.file);
        assert_eq!(m.comment, w.comment, "{}: comment", w.file);
        assert!(m.notes.is_empty(), "{}: notes {:?}", w.file, m.notes);
    }
    // Every fixture on disk is checked above.
    let mut on_disk: Vec<String> = std::fs::read_dir(fixture_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".eml"))
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = wants.iter().map(|w| w.file.to_string()).collect();
    listed.sort();
    assert_eq!(on_disk, listed);
}

#[test]
fn every_command_from_a_fixture_parses() {
    for w in wants() {
        let m = read(w.file);
        for c in &m.commands {
            // The CR/LF fixture is meant to give a command the parser refuses.
            if w.file == "crlf_header_tricks.eml" {
                let e = command::parse(c).unwrap_err().to_string();
                assert!(e.contains("'Bcc:' is not a board number"), "{e}");
                continue;
            }
            let parsed = command::parse(c).unwrap_or_else(|e| panic!("{}: {c}: {e}", w.file));
            assert!(
                !matches!(parsed, RawCommand::Help { .. }),
                "{}: {c}",
                w.file
            );
        }
    }
}

#[test]
fn no_password_in_any_comment_or_note() {
    for w in wants() {
        let m = read(w.file);
        for pw in PASSWORDS {
            assert!(!m.comment.contains(pw), "{}: {:?}", w.file, m.comment);
            assert!(m.notes.iter().all(|n| !n.contains(pw)), "{}", w.file);
        }
    }
}

#[test]
fn threading_and_keys() {
    let m = read("reply_thunderbird.eml");
    assert_eq!(
        m.key,
        "a7f1c2d3-reply-tb@example.org from alice@example.org"
    );
    assert_eq!(
        m.message_id.as_deref(),
        Some("a7f1c2d3-reply-tb@example.org")
    );
    assert_eq!(
        m.references,
        vec!["board-101-13.1763758620@pbem.example.org"]
    );
    assert_eq!(m.from.as_deref(), Some("alice@example.org"));

    let m = read("reply_outlook_original.eml");
    assert_eq!(
        m.key,
        format!(
            "000001dc5b1a$2f3e4d50$8dbae7f0$@example.org from {}",
            m.from.clone().unwrap()
        )
    );

    // No Message-ID: the key is the SHA-256 of the bytes, the same every time, and another message
    // gets another key.
    let a = read("no_message_id.eml");
    assert_eq!(a.message_id, None);
    let hex = a.key.strip_prefix("sha256:").expect("a hash key");
    assert_eq!(hex.len(), 64);
    assert!(
        hex.chars()
            .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
    );
    assert_eq!(read("no_message_id.eml").key, a.key);
    let mut changed = raw("no_message_id.eml");
    changed.extend_from_slice(b"one more line\n");
    assert_ne!(
        parse(&changed, &MailLimits::default(), OWN, GAMES).key,
        a.key
    );
}

#[test]
fn bounce_is_silent_even_with_its_own_checks_removed() {
    // Remove the Return-Path and Auto-Submitted headers: the report structure alone still silences it,
    // and the command in the bounced message is still not run.
    let text = String::from_utf8(raw("bounce_dsn.eml")).unwrap();
    let stripped: String = text
        .lines()
        .filter(|l| !l.starts_with("Return-Path:") && !l.starts_with("Auto-Submitted:"))
        .map(|l| format!("{l}\n"))
        .collect();
    let m = parse(stripped.as_bytes(), &MailLimits::default(), OWN, GAMES);
    assert!(matches!(m.silent, Some(SilentReason::DeliveryReport(_))));
    assert!(m.commands.is_empty());
    // And the reason reads well in a log.
    assert_eq!(
        m.silent.unwrap().to_string(),
        "a delivery report (multipart/report)"
    );
}

#[test]
fn line_endings_do_not_matter() {
    // An MTA pipe hands LF; SMTP and some Maildir writers hand CRLF: both give the same reading.
    for w in wants() {
        let bytes = raw(w.file);
        let mut lf = Vec::with_capacity(bytes.len());
        for (i, b) in bytes.iter().enumerate() {
            if *b == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                continue;
            }
            lf.push(*b);
        }
        let mut crlf = Vec::with_capacity(lf.len() * 2);
        for b in &lf {
            if *b == b'\n' {
                crlf.push(b'\r');
            }
            crlf.push(*b);
        }
        let a = parse(&lf, &MailLimits::default(), OWN, GAMES);
        let b = parse(&crlf, &MailLimits::default(), OWN, GAMES);
        assert_eq!(a.commands, b.commands, "{}", w.file);
        assert_eq!(a.comment, b.comment, "{}", w.file);
        assert_eq!(a.silent, b.silent, "{}", w.file);
        assert_eq!(a.reply_to, b.reply_to, "{}", w.file);
        assert_eq!(a.commands, w.commands, "{}", w.file);
    }
}

#[test]
fn many_parts_are_not_all_read() {
    // A multipart/mixed mail of 120 attachments whose text part comes last: past max_parts, unread.
    let mut m = String::from(
        "From: alice@example.org\nTo: pbem@example.org\nSubject: Re: Limit Board 101 Alice\n\
         Message-ID: <parts@example.org>\nMIME-Version: 1.0\n\
         Content-Type: multipart/mixed; boundary=\"b\"\n\n",
    );
    for i in 0..120 {
        m.push_str(&format!(
            "--b\nContent-Type: application/octet-stream\nContent-Disposition: attachment; \
             filename=\"f{i}.bin\"\nContent-Transfer-Encoding: base64\n\nAAAA\n"
        ));
    }
    m.push_str("--b\nContent-Type: text/plain\n\nlimit move 101 alice secret 3-7,4\n--b--\n");
    let limits = MailLimits::default();
    let got = parse(m.as_bytes(), &limits, OWN, GAMES);
    assert!(got.commands.is_empty(), "{:?}", got.commands);
    assert!(
        got.notes
            .iter()
            .any(|n| n.contains(&format!("only the first {} of its", limits.max_parts))),
        "{:?}",
        got.notes
    );
    // With room for every part, the same mail's command is read.
    let roomy = MailLimits {
        max_parts: 500,
        ..limits
    };
    let got = parse(m.as_bytes(), &roomy, OWN, GAMES);
    assert_eq!(got.commands, vec!["limit move 101 alice secret 3-7,4"]);
}

#[test]
fn oversized_mail_is_cut_and_said_so() {
    let mut m = raw("subject_move_thunderbird.eml");
    m.extend(std::iter::repeat_n(b'x', 3_000_000));
    let limits = MailLimits::default();
    let got = parse(&m, &limits, OWN, GAMES);
    assert_eq!(got.commands, vec!["limit move 101 alice secret 3-7,4"]);
    assert!(
        got.notes
            .iter()
            .any(|n| n.contains(&format!("cut at {} bytes", limits.max_bytes))),
        "{:?}",
        got.notes
    );
    // The key still comes from the Message-ID, which lies in the part that was read.
    assert_eq!(
        got.key,
        format!(
            "5b3c7e2a-1f4d-4a8e-9c61-0d2f7a1b9e01@example.org from {}",
            got.from.clone().unwrap()
        )
    );
}

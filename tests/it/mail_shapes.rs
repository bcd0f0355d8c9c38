//! End-to-end over the client-shaped fixtures in tests/fixtures/mail/: each goes through the real
//! `pbem ingest`, and the command in it must reach the game (multipart/alternative, HTML-only,
//! quoted-printable, base64, latin-1, replies from several clients), or, for the kinds that must not
//! be answered, nothing at all must come out.

use crate::common::{EVERY_ANSWER, Env, eml};

/// alice (password `secret`) and bob (`hunter2`), as the fixtures write them, with board 101 started.
fn env() -> Env {
    // Each shape's answer is read: the per-address allowances of answers are off.
    let env = Env::new().with_config(EVERY_ANSWER);
    env.deliver(&eml("alice@example.org", "signup alice secret", ""));
    env.deliver(&eml("bob@example.org", "signup bob hunter2", ""));
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    env.take_mails();
    env
}

fn fixture(name: &str) -> String {
    let path = format!(
        "{}/tests/fixtures/mail/{name}.eml",
        env!("CARGO_MANIFEST_DIR")
    );
    String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned()
}

#[test]
fn the_command_is_read_from_every_shape_real_clients_send() {
    let env = env();
    for (name, who) in [
        ("multipart_alternative", "alice"),
        ("html_only", "bob"),
        ("quoted_printable", "alice"),
        ("base64", "bob"),
        ("latin1", "alice"),
        ("reply_thunderbird", "alice"),
        ("reply_gmail", "bob"),
        ("reply_outlook_original", "alice"),
        ("reply_outlook_from_sent", "bob"),
        ("subject_move_thunderbird", "alice"),
    ] {
        env.deliver(&fixture(name));
        let mails = env.take_mails();
        assert!(!mails.is_empty(), "{name}: no answer");
        // The fixtures' moves are not legal on this board (its layout is random), so the answer is
        // the board's error mail, which proves the command reached the game and was checked there.
        let answer = &mails[0];
        // From a player of the game: its one Subject, and the first line says it was refused.
        assert_eq!(answer.subject, "Limit Board 101", "{name}: {}", answer.body);
        assert_eq!(
            answer.first_line(),
            "Your command was not carried out:",
            "{name}"
        );
        assert!(
            answer
                .body
                .contains(&format!("limit move 101 {who} <password>")),
            "{name}: the command is not quoted back (masked):\n{}",
            answer.body
        );
        assert!(
            !answer.raw.contains("secret") && !answer.raw.contains("hunter2"),
            "{name}: password leaked"
        );
    }
}

#[test]
fn a_long_command_wrapped_by_format_flowed_is_read_whole() {
    let env = env();
    env.deliver(&fixture("flowed_thunderbird"));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 2, "{mails:#?}");
    // The challenge's comment is shown to the players (issue 16): hence `(with a comment)`.
    assert_eq!(
        mails[0].first_line(),
        "Limit Board 102: new game, your move (with a comment)"
    );
    assert!(mails[0].body.contains("-size=6"), "{}", mails[0].body);
    assert!(
        mails[0].body.contains("See you on the board."),
        "{}",
        mails[0].body
    );
}

#[test]
fn commands_only_in_quotes_or_after_the_signature_are_not_acted_on() {
    let env = env();
    for name in ["command_only_quoted", "command_after_signature"] {
        env.deliver(&fixture(name));
        let mails = env.take_mails();
        assert_eq!(mails.len(), 1, "{name}");
        assert!(
            mails[0].body.contains("holds no command"),
            "{name}: {}",
            mails[0].body
        );
    }
}

#[test]
fn bounces_autoreplies_bulk_and_our_own_mail_are_not_answered() {
    let env = env();
    for name in [
        "bounce_dsn",
        "vacation_autoreply",
        "precedence_bulk",
        "own_xloop",
        "no_from",
    ] {
        // The fixtures' server is pbem@example.org; these tests run as pbem@localhost.
        let out = env.ingest(&fixture(name).replace("pbem@example.org", "pbem@localhost"));
        assert_eq!(out.status.code(), Some(0), "{name}");
        assert!(env.take_mails().is_empty(), "{name} was answered");
    }
}

#[test]
fn header_injection_in_the_subject_cannot_add_recipients() {
    let env = env();
    env.deliver(&fixture("crlf_header_tricks"));
    let mails = env.take_mails();
    // It is answered (so the check below is about a real mail), and only to its sender.
    assert_eq!(mails.len(), 1, "{mails:#?}");
    for m in mails {
        let headers = m.raw.split("\r\n\r\n").next().unwrap().to_lowercase();
        assert!(!headers.contains("bcc:"), "{}", m.raw);
        assert!(m.to.iter().all(|t| !t.contains("evil")), "{:?}", m.to);
    }
}

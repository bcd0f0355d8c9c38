//! End-to-end: the player's and the admin's day (issue 16), through the real binary with real `.eml`
//! messages and a real SQLite file, the mails read back from the file transport.

mod common;

use common::{Env, NOW, Sent, eml};

const DAY: i64 = 86_400;

/// The one mail the last command sent to `to`.
fn only_mail_to(env: &Env, to: &str) -> Sent {
    let mails: Vec<Sent> = env
        .take_mails()
        .into_iter()
        .filter(|m| m.to.iter().any(|t| t == to))
        .collect();
    assert_eq!(mails.len(), 1, "{mails:#?}");
    mails.into_iter().next().unwrap()
}

/// A reply to a mail of the server, as a mail client writes it: `Re:` and the quoted text, with a
/// word of thanks and no command.
fn reply_to(mail: &Sent, from: &str) -> String {
    let quoted: String = mail
        .body
        .lines()
        .take(12)
        .map(|l| format!("> {l}\n"))
        .collect();
    eml(
        from,
        &format!("Re: {}", mail.subject),
        &format!("{quoted}\nThanks!\n"),
    )
}

/// Asserts that `answer` is the clear answer to a mail without a command, quoting `subject` as it
/// was written (nothing in it is a password).
fn assert_no_command_answer(answer: &Sent, subject: &str) {
    assert_eq!(answer.subject, "pbem error", "{answer:#?}");
    let body = common::flat(&answer.body);
    assert!(body.contains("Your mail holds no command."), "{body}");
    assert!(
        body.contains(&format!("> Re: {subject}")) || body.contains(&format!("> {subject}")),
        "{body}"
    );
    assert!(
        !body.contains("****"),
        "nothing to mask in {subject:?}: {body}"
    );
}

#[test]
fn a_reply_without_a_command_to_any_mail_of_the_server_gets_the_no_command_answer() {
    let mut env = Env::new();
    env.deliver(&eml("alice@example.org", "signup alice pw-alice", ""));
    let signup = only_mail_to(&env, "alice@example.org");
    env.deliver(&eml("bob@example.org", "signup bob pw-bob", ""));
    env.take_mails();

    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    let new_board = only_mail_to(&env, "bob@example.org");
    assert!(
        new_board.subject.starts_with("New Limit Board 101 "),
        "{new_board:#?}"
    );

    env.deliver(&eml(
        "bob@example.org",
        "limit move 101 bob wrong 1-2,3",
        "",
    ));
    let error = only_mail_to(&env, "bob@example.org");
    assert_eq!(error.subject, "Limit Board 101 Error");

    env.deliver(&eml("carol@example.net", "help", ""));
    let help = only_mail_to(&env, "carol@example.net");
    assert_eq!(help.subject, "pbem help");

    env.now = NOW + 7 * DAY;
    let out = env.cmd().arg("cron").output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let nag = only_mail_to(&env, "alice@example.org");
    assert_eq!(nag.subject, "Nag: Limit Board 101 alice");

    for (mail, from) in [
        (&signup, "alice@example.org"),
        (&new_board, "bob@example.org"),
        (&error, "bob@example.org"),
        (&help, "carol@example.net"),
        (&nag, "alice@example.org"),
    ] {
        env.deliver(&reply_to(mail, from));
        let answer = only_mail_to(&env, from);
        assert_no_command_answer(&answer, &mail.subject);
    }
    // Nothing was changed by the replies: the game waits for alice's first move.
    assert_eq!(env.stored_moves(101).len(), 0);
}

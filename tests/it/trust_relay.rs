//! The server is no relay, end to end through the real `pbem ingest`: one incoming mail causes mail
//! only to its sender, the players of the games it touches, and at most one confirmation mail; an
//! address that is not the sender's gets nothing of the account until it confirms.

use std::collections::BTreeSet;

use crate::common::{Env, Sent, eml};

#[test]
fn twenty_signups_with_many_addresses_mail_only_the_sender_and_one_confirmation() {
    let env = Env::new();
    let body: String = (0..20)
        .map(|n| {
            let list: Vec<String> = (0..10).map(|k| format!("v{n}x{k}@q.io")).collect();
            format!("signup sp{n} pw{n} {}\n", list.join(" "))
        })
        .collect();
    env.deliver(&eml("spammer@evil.example", "mult", &body));
    let mails = env.take_mails();
    let to: BTreeSet<String> = mails.iter().flat_map(|m| m.to.clone()).collect();
    let others: Vec<&String> = to.iter().filter(|a| *a != "spammer@evil.example").collect();
    assert!(others.len() <= 1, "mail went to {others:?}");
    assert_eq!(
        mails
            .iter()
            .filter(|m| m.to == ["spammer@evil.example"])
            .count(),
        20,
        "one answer a command, to the sender"
    );
    // None of the 200 addresses is an account's address yet.
    let n: i64 = env
        .sqlite()
        .query_row("SELECT count(*) FROM addresses", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 0);
}

#[test]
fn a_second_address_gets_mail_only_once_it_answered_its_confirmation() {
    let mut env = Env::new();
    env.deliver(&eml(
        "alice@home.example",
        "signup alice pw-alice alice@home.example alice@work.example",
        "",
    ));
    let mails = env.take_mails();
    let confirm: Vec<_> = mails
        .iter()
        .filter(|m| m.to == ["alice@work.example"])
        .collect();
    assert_eq!(confirm.len(), 1, "{mails:#?}");
    let subject = confirm[0].subject.clone();
    assert!(subject.starts_with("confirm alice "), "{subject}");
    let answer = mails
        .iter()
        .find(|m| m.to == ["alice@home.example"])
        .unwrap();
    assert!(
        answer
            .body
            .contains("Not confirmed yet: alice@work.example"),
        "{}",
        answer.body
    );
    env.players(&["bob"]);
    env.deliver(&eml("bob@example.org", "limit challenge bob alice", ""));
    let to: BTreeSet<String> = env.take_mails().iter().flat_map(|m| m.to.clone()).collect();
    assert!(!to.contains("alice@work.example"), "{to:?}");
    assert!(to.contains("alice@home.example"));
    // A wrong code, or the right code from another address, confirms nothing.
    let code = subject.rsplit(' ').next().unwrap();
    for (from, subj) in [
        (
            "alice@work.example",
            "Re: confirm alice 0000000000".to_string(),
        ),
        ("mallory@evil.example", format!("Re: {subject}")),
    ] {
        env.deliver(&eml(from, &subj, ""));
        let m = env.take_mails();
        assert_eq!(m.len(), 1);
        assert!(
            m[0].body.contains("waits for confirmation"),
            "{}",
            m[0].body
        );
    }
    // The reply from the address itself, an hour later, confirms it.
    env.now += 3600;
    env.deliver(&eml(
        "alice@work.example",
        &format!("Re: confirm alice {code}"),
        "> quoted\n",
    ));
    let m = env.take_mails();
    assert_eq!(m.len(), 1);
    assert!(
        m[0].body.contains("alice@work.example is confirmed"),
        "{}",
        m[0].body
    );
    let confirmed_at: i64 = env
        .sqlite()
        .query_row(
            "SELECT confirmed_at FROM pending_addresses WHERE address = 'alice@work.example'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(
        confirmed_at, env.now,
        "recorded at the time of the confirmation"
    );
    env.deliver(&eml("bob@example.org", "limit challenge bob alice", ""));
    let to: BTreeSet<String> = env.take_mails().iter().flat_map(|m| m.to.clone()).collect();
    assert!(to.contains("alice@work.example"), "{to:?}");
}

/// Issue 22, item 5b: the hourly cap on confirmation mails counts per sender, so one stranger's
/// twenty signups do not hold back a player's confirmation (before, the server-wide 20 did).
#[test]
fn confirmation_mails_are_capped_per_sender() {
    let env = Env::new();
    for n in 0..20 {
        env.deliver(&eml(
            "stranger@senders.example",
            &format!("signup u{n} pw-u{n} other{n}@q.io"),
            "",
        ));
    }
    let confirmations = env
        .take_mails()
        .iter()
        .filter(|m| m.subject.starts_with("confirm "))
        .count();
    assert_eq!(
        confirmations, 3,
        "limits.unconfirmed_mails_per_sender_per_hour"
    );
    // A player from his own address, the same hour: his second address gets its confirmation.
    env.deliver(&eml(
        "alice@example.org",
        "signup alice pw-alice alice@example.org alice@work.example",
        "",
    ));
    let to_work: Vec<Sent> = env
        .take_mails()
        .into_iter()
        .filter(|m| m.to == ["alice@work.example"])
        .collect();
    assert_eq!(to_work.len(), 1, "{to_work:#?}");
    assert!(
        to_work[0].subject.starts_with("confirm alice "),
        "{}",
        to_work[0].subject
    );
}

/// The server-wide ceiling still holds over many senders.
#[test]
fn confirmation_mails_are_capped_per_hour_server_wide() {
    let env = Env::new();
    let config = env.dir.path().join("pbem.toml");
    std::fs::write(&config, "[limits]\nunconfirmed_mails_per_hour = 5\n").unwrap();
    for n in 0..8 {
        let out = env
            .cmd()
            .arg("--config")
            .arg(&config)
            .arg("ingest")
            .write_stdin(
                eml(
                    &format!("s{n}@senders.example"),
                    &format!("signup u{n} pw{n} s{n}@senders.example other{n}@q.io"),
                    "",
                )
                .into_bytes(),
            )
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
    }
    let mails = env.take_mails();
    let confirmations = mails
        .iter()
        .filter(|m| m.subject.starts_with("confirm "))
        .count();
    assert_eq!(confirmations, 5, "limits.unconfirmed_mails_per_hour");
}

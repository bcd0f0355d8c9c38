//! Trust, end to end through the real `pbem ingest`: mail that must never be answered (autoreplies,
//! lists, mail systems), an echo of our own "no command" answer that must cost no password check, and a
//! stranger who takes a player's Message-ID first.

use crate::common::{Env, eml, eml_with_id, legal_moves_after};

fn count(env: &Env, sql: &str) -> i64 {
    env.sqlite().query_row(sql, [], |r| r.get(0)).unwrap()
}

/// A mail with extra header lines, from `from`, with a command that would change something if run.
fn with_headers(from: &str, extra: &str, subject: &str) -> String {
    let plain = eml(from, subject, "");
    plain.replacen("\r\nTo:", &format!("\r\n{extra}\r\nTo:"), 1)
}

#[test]
fn autoreplies_lists_and_mail_systems_get_no_answer_and_change_nothing() {
    let env = Env::new();
    env.players(&["alice"]);
    let cases: &[(&str, &str)] = &[
        ("x1@example.org", "Precedence: auto_reply"),
        ("x2@example.org", "X-Auto-Response-Suppress: All"),
        ("x3@example.org", "List-Id: <games.lists.example.org>"),
        (
            "x4@example.org",
            "List-Unsubscribe: <mailto:leave@lists.example.org>",
        ),
        (
            "x5@example.org",
            "Mailing-List: contact games-help@example.org",
        ),
        ("x6@example.org", "X-Mailing-List: games@example.org"),
        ("mailer@example.org", "X-Note: plain"),
        ("MAILER-DAEMON@example.org", "X-Note: plain"),
        ("postmaster@example.org", "X-Note: plain"),
    ];
    for (i, (from, header)) in cases.iter().enumerate() {
        let out = env.ingest(&with_headers(
            from,
            header,
            &format!("signup quiet{i} pw-quiet{i}"),
        ));
        assert_eq!(out.status.code(), Some(0), "{header}");
        let mails = env.take_mails();
        assert!(
            mails.is_empty(),
            "{from} / {header} was answered: {mails:?}"
        );
    }
    assert_eq!(
        count(
            &env,
            "SELECT count(*) FROM users WHERE userid LIKE 'quiet%'"
        ),
        0,
        "a silent mail signed someone up"
    );
    // The same signup without those headers is answered: the cases above were silent for their headers.
    env.deliver(&eml("x9@example.org", "signup quiet9 pw-quiet9", ""));
    assert_eq!(env.take_mails().len(), 1);
}

#[test]
fn the_no_command_answer_names_the_player_and_its_echo_costs_no_password_check() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    env.take_mails();
    env.deliver(&eml(
        "alice@example.org",
        "Hello there",
        "What do I do now?\n",
    ));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 1, "{mails:?}");
    let answer = &mails[0];
    assert!(
        answer
            .body
            .contains("limit move 101 alice <password> 3-7,4"),
        "{}",
        answer.body
    );
    // An autoresponder (one that sets none of the headers) sends the answer back, unquoted.
    let out = env
        .cmd()
        .arg("ingest")
        .env("PBEM_REPORT_RSS", "1")
        .write_stdin(eml("alice@example.org", "Re: limit error", &answer.body).into_bytes())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("argon2 hashes 0"),
        "the echo reached a password check: {stderr}"
    );
    let mails = env.take_mails();
    assert_eq!(mails.len(), 1, "{mails:?}");
    assert!(
        mails[0].body.contains("still holds the placeholder"),
        "{}",
        mails[0].body
    );
    assert!(env.stored_moves(101).is_empty(), "the echo played a move");
}

#[test]
fn a_strangers_mail_under_a_players_message_id_does_not_shadow_it() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    env.take_mails();
    let mv = legal_moves_after(&[], 2, &[])[0].clone();
    let id = "future-move-1@mail.example.org";
    // The stranger guesses the id of alice's next mail and sends first.
    env.deliver(&eml_with_id(
        "mallory@evil.example",
        "limit show 101",
        "",
        id,
    ));
    assert_eq!(env.take_mails().len(), 1);
    env.deliver(&eml_with_id(
        "alice@example.org",
        &format!("limit move 101 alice pw-alice {mv}"),
        "",
        id,
    ));
    assert_eq!(env.stored_moves(101).len(), 1, "alice's move was dropped");
    assert!(!env.take_mails().is_empty());
    // Her own second delivery of the same mail is still a duplicate.
    env.deliver(&eml_with_id(
        "alice@example.org",
        &format!("limit move 101 alice pw-alice {mv}"),
        "",
        id,
    ));
    assert_eq!(env.stored_moves(101).len(), 1);
    assert!(env.take_mails().is_empty());
}

//! Passwords never come back, end to end through the real `pbem ingest`: a table of realistic typos
//! of commands with a password in them, each mailed by the real user; afterwards no mail the server
//! wrote and no row of the database holds any of the passwords as a word.

mod common;

use common::{Env, eml, legal_moves_after};

/// alice's password, and the passwords typed in signup and change-password typos.
const PW: &str = "Tr0ub4dor&3";
const PASSWORDS: &[&str] = &[PW, "Sup3rSecret", "NewPass1x", "NewPass2x"];

/// Where a typo goes: the Subject, or a body line (under a Subject of its own).
enum At {
    Subject,
    Body(&'static str),
}

/// The typo table: `{PW}` is alice's password, `{M}` a legal first move.
const TYPOS: &[(&str, At)] = &[
    ("limit move alice {PW} {M}", At::Subject),
    ("limit move 101 {PW} {M}", At::Subject),
    ("move 101 alice {PW} {M}", At::Subject),
    ("limit show 101 alice {PW}", At::Subject),
    ("limit queue alice {PW} {M}", At::Subject),
    ("signup Dan Smith Sup3rSecret dan@d.example", At::Subject),
    ("signup Dan Smith Sup3rSecret", At::Subject),
    ("add Dan Smith Sup3rSecret", At::Subject),
    ("limit mvoe 101 alice {PW} {M}", At::Subject),
    ("lmiit move 101 alice {PW} {M}", At::Subject),
    ("limit move 101 alice {M} {PW}", At::Subject),
    ("limit move 101 {PW} alice {M}", At::Subject),
    ("limit move 10l alice {PW} {M}", At::Subject),
    ("limit move 101 alcie {PW} {M}", At::Subject),
    ("limit move 101 alice {PW}", At::Subject),
    ("limit move 101 alice {PW}, {M}", At::Subject),
    ("limit move 101 alice:{PW} {M}", At::Subject),
    ("Limit Move 101 Alice {PW} {M}", At::Subject),
    ("limit resign alice {PW}", At::Subject),
    ("limit resign 101 {PW}", At::Subject),
    ("limit chat alice {PW}", At::Subject),
    ("limit chat 101 {PW}", At::Subject),
    ("change password alice {PW}", At::Subject),
    ("change password {PW} NewPass1x", At::Subject),
    ("change pasword alice {PW} NewPass2x", At::Subject),
    ("change address {PW} alice@example.org", At::Subject),
    ("signoff {PW}", At::Subject),
    ("signof alice {PW}", At::Subject),
    ("vacation {PW} 2026-12-01 2026-12-05", At::Subject),
    ("vacation alice 2026-12-01 {PW}", At::Subject),
    ("limit notify {PW} on", At::Subject),
    ("limit subscribe alice {PW}", At::Subject),
    ("limit move 101 alice {PW} propose", At::Subject),
    ("limit move 101 alice {PW} acept", At::Subject),
    ("limit queue 101 {PW} {M}", At::Subject),
    ("limit history 101 alice {PW}", At::Subject),
    ("limit games alice {PW}", At::Subject),
    ("limit preview 101 alice {PW} {M}", At::Subject),
    ("limit challenge --password {PW} alice bob", At::Subject),
    ("limit challenge --pasword={PW} alice bob", At::Subject),
    ("move 101 alice {PW} {M}", At::Body("limit show 101")),
    ("limit move alice {PW} {M}", At::Body("mult")),
    (
        "limit show 101 alice {PW}",
        At::Body("Re: Limit Board 101 alice"),
    ),
    ("move 101 alice {PW} {M}", At::Body("limit history")),
    (
        "limit move 101 alice {PW} {M}",
        At::Body("limit move 101 alice {PW} {M}"),
    ),
];

/// True when `pw` occurs in `text` with no letter, digit or `_` right before or after it.
fn has_word(text: &str, pw: &str) -> bool {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(pw).any(|(i, _)| {
        !text[..i].chars().next_back().is_some_and(is_word)
            && !text[i + pw.len()..].chars().next().is_some_and(is_word)
    })
}

/// Every value of every row of every table, as text (what `sqlite3 .dump` would show of the data).
fn dump(env: &Env) -> String {
    let conn = env.sqlite();
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let mut out = String::new();
    for t in tables {
        let mut stmt = conn.prepare(&format!("SELECT * FROM \"{t}\"")).unwrap();
        let n = stmt.column_count();
        let mut rows = stmt.query([]).unwrap();
        while let Some(row) = rows.next().unwrap() {
            for i in 0..n {
                match row.get::<_, rusqlite::types::Value>(i).unwrap() {
                    rusqlite::types::Value::Text(s) => out.push_str(&s),
                    rusqlite::types::Value::Blob(b) => out.push_str(&String::from_utf8_lossy(&b)),
                    v => out.push_str(&format!("{v:?}")),
                }
                out.push('|');
            }
            out.push('\n');
        }
    }
    out
}

/// A Subject as an RFC 2047 encoded word, every byte escaped (so that control bytes survive).
fn encoded_subject(text: &str) -> String {
    let q: String = text.bytes().map(|b| format!("={b:02X}")).collect();
    format!("=?utf-8?q?{q}?=")
}

#[test]
fn no_typo_brings_a_password_back_in_mail_or_database() {
    let mut env = Env::new();
    env.deliver(&eml("alice@example.org", &format!("signup alice {PW}"), ""));
    env.players(&["bob"]);
    env.deliver(&eml(
        "alice@example.org",
        &format!("limit challenge --password={PW} alice bob"),
        "",
    ));
    let mv = legal_moves_after(&[], 2, &[])[0].clone();
    let fill = |s: &str| s.replace("{PW}", PW).replace("{M}", &mv);
    let mut forms = 0;
    for (typo, at) in TYPOS {
        let line = fill(typo);
        let raw = match at {
            At::Subject => eml("alice@example.org", &line, "Sent from my phone\n"),
            At::Body(subject) => eml("alice@example.org", &fill(subject), &format!("{line}\n")),
        };
        // Spaced out, so that the hourly cap on replies to one address answers every one, and
        // with a command carried out every few typos, so that the run of error answers never
        // makes the address quiet.
        env.now += 150;
        env.deliver(&raw);
        forms += 1;
        if forms % 4 == 0 {
            env.now += 150;
            env.deliver(&eml("alice@example.org", "help", ""));
        }
    }
    // Control characters in the Subject become spaces, and shift the words.
    for typo in [
        "limit move 101 al\u{1}ice {PW} {M}",
        "limit\u{7}move 101 alice {PW}\u{0}{M}",
    ] {
        let subject = encoded_subject(&fill(typo));
        env.now += 150;
        env.deliver(&eml("alice@example.org", &subject, ""));
        forms += 1;
    }
    assert!(forms >= 40, "{forms} typo forms");
    let mails = env.take_mails();
    assert!(mails.len() >= 40, "{} mails", mails.len());
    let db = dump(&env);
    for pw in PASSWORDS {
        for m in &mails {
            assert!(
                !has_word(&m.subject, pw) && !has_word(&m.body, pw),
                "{pw} came back in a mail to {:?}:\n{}\n{}",
                m.to,
                m.subject,
                m.body
            );
        }
        assert!(!has_word(&db, pw), "{pw} is stored in the database");
    }
    // The last typo's Subject was a right move: it was played, and bob's board mail still names alice.
    let moves = env.stored_moves(101);
    assert_eq!(moves.len(), 1, "{moves:?}");
    let bobs: Vec<_> = mails
        .iter()
        .filter(|m| m.to == ["bob@example.org"] && m.subject.starts_with("Limit Board 101"))
        .collect();
    assert!(!bobs.is_empty());
    assert!(bobs[0].body.contains("Red (alice)"), "{}", bobs[0].body);
}

#[test]
fn sent_mail_is_pruned_from_the_outbox_after_the_configured_days() {
    let mut env = Env::new();
    env.players(&["alice", "bob"]);
    let rows = |env: &Env| -> i64 {
        env.sqlite()
            .query_row("SELECT count(*) FROM outbox", [], |r| r.get(0))
            .unwrap()
    };
    assert_eq!(rows(&env), 2, "the two welcome mails, sent");
    env.now += 6 * 86_400;
    assert!(
        env.cmd()
            .args(["outbox", "flush"])
            .output()
            .unwrap()
            .status
            .success()
    );
    assert_eq!(rows(&env), 2, "kept for 7 days");
    env.now += 2 * 86_400;
    assert!(env.cmd().arg("cron").output().unwrap().status.success());
    assert_eq!(rows(&env), 0, "pruned after 7 days");
}

//! Passwords never come back, end to end through the real `pbem ingest`: a table of realistic typos
//! of commands with a password in them, each mailed by the real user; afterwards no mail the server
//! wrote and no row of the database holds any of the passwords as a word.

use crate::common;
use crate::common::{Env, eml, flat, legal_moves_after};

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
    // The password glued to the move (issue 34: one typo in 23 still came back as written).
    ("limit move 101 alice {PW}{M}", At::Subject),
    ("limit move 101 alice {PW}#1 {M}", At::Subject),
    ("set alice {PW} digets on", At::Subject),
    ("mesage alice {PW} bob", At::Subject),
    ("signup dan Sup3rSecret no-address", At::Subject),
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

/// True when `word` holds a mask: a run of exactly four `*` (a comment's frame is a longer run).
fn has_mask(word: &str) -> bool {
    word.split(|c| c != '*').any(|run| run.len() == 4)
}

/// The words of `text` that show a mask outside the quotes of the player's words (`'...'`, `"..."`,
/// backquotes, the `> ` lines of "Your message", a relayed comment): a server's own word masked.
fn masked_server_words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut back = false;
    for line in text.lines() {
        if line.starts_with("> ") {
            continue;
        }
        for w in line.split_whitespace() {
            let quoted = back
                || w.starts_with(['\'', '"', '`'])
                || w.trim_end_matches(['.', ',', ':', ')'])
                    .ends_with(['\'', '"', '`']);
            if has_mask(w) && !quoted {
                out.push(w.to_string());
            }
            if w.matches('`').count() % 2 == 1 {
                back = !back;
            }
        }
    }
    out
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
    // Anywhere, even glued to another word; in the outbox rows too (they are in the dump).
    for pw in PASSWORDS {
        for m in &mails {
            assert!(
                !m.subject.contains(pw) && !m.body.contains(pw) && !m.raw.contains(pw),
                "{pw} came back in a mail to {:?}:\n{}\n{}",
                m.to,
                m.subject,
                m.body
            );
        }
        assert!(!db.contains(pw), "{pw} is stored in the database");
    }
    // The server's own words stand as written in every answer; every error answer says what was
    // wrong and that nothing changed.
    for m in &mails {
        assert!(!m.subject.contains("****"), "{}", m.subject);
        let masked = masked_server_words(&m.body);
        assert!(masked.is_empty(), "{masked:?} in\n{}", m.body);
        if m.subject.contains("rror") {
            assert!(
                m.body.starts_with("Your command was not carried out:\n"),
                "{}",
                m.body
            );
            assert!(
                m.body
                    .contains("\nNothing was changed. Send `help` for the list of commands.\n"),
                "{}",
                m.body
            );
        }
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

/// bob's password in the masking tests: a plain word, as people choose them.
const BOB_PW: &str = "secret";

/// Every outgoing mail of the masking tests: none may hold `secrets` anywhere (not even inside a
/// word), raw or decoded.
fn assert_nowhere(mails: &[common::Sent], secrets: &[&str]) {
    for m in mails {
        for s in secrets {
            assert!(
                !m.raw.contains(s) && !m.subject.contains(s) && !m.body.contains(s),
                "{s} came back in a mail to {:?}:\n{}\n{}",
                m.to,
                m.subject,
                m.body
            );
        }
    }
}

/// alice and bob (bob's password is [`BOB_PW`]) on board 101, alice's first move played.
fn masking_env() -> (Env, String) {
    let mut env = Env::new();
    env.deliver(&eml("alice@example.org", "signup alice pw-alice", ""));
    env.deliver(&eml("bob@example.org", &format!("signup bob {BOB_PW}"), ""));
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    let first = legal_moves_after(&[], 2, &[])[0].clone();
    env.deliver(&eml(
        "alice@example.org",
        &format!("limit move 101 alice pw-alice {first}"),
        "",
    ));
    env.take_mails();
    env.now += 150;
    let second = legal_moves_after(&[], 2, &[&first])[0].clone();
    (env, second)
}

/// The one answer to `to` among `mails`.
fn answer_to<'a>(mails: &'a [common::Sent], to: &str) -> &'a common::Sent {
    let to_them: Vec<_> = mails.iter().filter(|m| m.to == [to]).collect();
    assert_eq!(to_them.len(), 1, "{mails:#?}");
    to_them[0]
}

/// Mails `subject` (and `body`) from `from` and returns the one answer to `from`; no mail the server
/// wrote holds bob's or alice's password, nor bob's mistyped one.
fn ask(env: &mut Env, from: &str, subject: &str, body: &str) -> common::Sent {
    env.now += 150;
    env.deliver(&eml(from, subject, body));
    let mails = env.take_mails();
    assert_nowhere(&mails, &[BOB_PW, "secrte", "pw-alice"]);
    answer_to(&mails, from).clone()
}

#[test]
fn a_forwarded_board_subject_is_no_password() {
    let (mut env, mv) = masking_env();
    // A Dutch Outlook forwards with "VB:", which is no reply prefix: the Subject used to make "101"
    // a password, masked in every mail the move caused.
    env.deliver(&eml(
        "bob@example.org",
        "VB: Limit Board 101 bob **",
        &format!("limit move 101 bob {BOB_PW} {mv}\nsee you\n"),
    ));
    let mails = env.take_mails();
    assert_nowhere(&mails, &[BOB_PW]);
    assert_eq!(env.stored_moves(101).len(), 2, "bob's move was played");
    let alices = answer_to(&mails, "alice@example.org");
    assert_eq!(
        alices.first_line(),
        "Limit Board 101: your move (with a comment)"
    );
    assert!(
        alices.body.contains("Summary of Limit Board 101\n"),
        "{}",
        alices.body
    );
    assert!(
        alices.body.contains("limit move 101 alice <password>"),
        "{}",
        alices.body
    );
    assert_eq!(
        answer_to(&mails, "bob@example.org").first_line(),
        "Limit Board 101: alice to move (with a comment)"
    );
    // An illegal move under the forwarded Subject: the quote shows the board, not "****".
    let error = ask(
        &mut env,
        "alice@example.org",
        "VB: Limit Board 101 alice **",
        "limit move 101 alice pw-alice 8-19,8#10\n",
    );
    assert_eq!(error.subject, "Limit Board 101");
    assert!(
        error
            .body
            .contains("> limit move 101 alice <password> 8-19,8#10\n"),
        "{}",
        error.body
    );
}

#[test]
fn a_comment_is_relayed_as_written_but_for_the_password() {
    let (env, mv) = masking_env();
    env.deliver(&eml(
        "bob@example.org",
        &format!("limit move 101 bob {BOB_PW} {mv}"),
        &format!(
            "Move 12 was a surprise for you\nPs: move 12 was a surprise\nthank you, my password \
             is {BOB_PW}\n"
        ),
    ));
    let mails = env.take_mails();
    assert_nowhere(&mails, &[BOB_PW]);
    let alices = answer_to(&mails, "alice@example.org");
    assert!(
        alices.body.contains("Move 12 was a surprise for you\n"),
        "{}",
        alices.body
    );
    // Any first word parses as a game's name: this line reads as `<game> move 12 was a ...` with
    // `a` for a password, but it is a comment.
    assert!(
        alices.body.contains("Ps: move 12 was a surprise\n"),
        "{}",
        alices.body
    );
    assert!(
        alices.body.contains("thank you, my password is ****\n"),
        "{}",
        alices.body
    );
}

#[test]
fn a_typo_of_the_real_user_hides_only_the_password() {
    let (mut env, _) = masking_env();
    // `secret` is checked against bob's password and found to be it; the rest is shown.
    let a = ask(
        &mut env,
        "bob@example.org",
        "limit mvoe 101 bob secret 1-2,3",
        "",
    );
    assert!(
        a.flat_body().contains(
            "'limit mvoe' is not a command; did you mean: limit move 101 bob <password> 1-2,3"
        ),
        "{}",
        a.body
    );
    // A line it could not read is quoted only up to where the password goes.
    assert!(a.body.contains("> limit mvoe 101 bob ...\n"), "{}", a.body);
    assert!(!a.body.contains("****"), "{}", a.body);
}

#[test]
fn a_strangers_typo_hides_what_may_be_a_password() {
    let (mut env, _) = masking_env();
    // A stranger's words cannot be checked against anyone's password: the words that may be one are
    // hidden; the command's words, the board, a registered userid and the move are not.
    let a = ask(
        &mut env,
        "mallory@evil.example",
        "limit mvoe 101 bob secret 1-2,3",
        "",
    );
    assert!(
        a.flat_body().contains("'limit mvoe' is not a command"),
        "{}",
        a.body
    );
    // A line it could not read is quoted only up to where the password goes.
    assert!(a.body.contains("> limit mvoe 101 bob ...\n"), "{}", a.body);
    assert!(!a.body.contains("****"), "{}", a.body);
}

#[test]
fn a_placeholder_is_no_password() {
    let (mut env, _) = masking_env();
    let a = ask(
        &mut env,
        "bob@example.org",
        "limit move 101 bob <password> 1-2,3",
        "",
    );
    assert!(
        a.flat_body()
            .contains("the command still holds the placeholder `<password>`"),
        "{}",
        a.body
    );
    assert!(
        a.body
            .contains("usage: limit move 101 bob <password> 1-2,3"),
        "{}",
        a.body
    );
    assert!(
        a.body.contains("> limit move 101 bob <password> 1-2,3\n"),
        "{}",
        a.body
    );
}

#[test]
fn an_unknown_userid_is_shown_as_written_and_its_password_hidden() {
    let (mut env, _) = masking_env();
    for from in ["bob@example.org", "mallory@evil.example"] {
        let a = ask(&mut env, from, "limit move 101 bobb secret 1-2,3", "");
        assert!(
            a.flat_body().contains("The userid 'bobb'"),
            "{from}: {}",
            a.body
        );
        assert!(
            a.body.contains("> limit move 101 bobb <password> 1-2,3\n"),
            "{}",
            a.body
        );
    }
}

#[test]
fn a_wrong_password_in_its_place_is_hidden_too() {
    let (mut env, _) = masking_env();
    // It may be the real one mistyped: it never comes back either.
    let a = ask(
        &mut env,
        "bob@example.org",
        "limit move 101 bob secrte 1-2,3",
        "",
    );
    assert!(a.flat_body().contains("The userid 'bob'"), "{}", a.body);
    assert!(
        a.body.contains("> limit move 101 bob <password> 1-2,3\n"),
        "{}",
        a.body
    );
}

#[test]
fn a_board_subject_holding_the_password_is_quoted_without_it() {
    let (mut env, _) = masking_env();
    let a = ask(
        &mut env,
        "bob@example.org",
        "Re: Limit Board 101 bob secret 1-2,3",
        "",
    );
    assert!(
        a.flat_body().contains("Your mail holds no command"),
        "{}",
        a.body
    );
    assert!(a.body.contains("> Limit Board 101 bob ...\n"), "{}", a.body);
}

#[test]
fn the_password_in_the_userids_place_is_found_and_hidden() {
    let (mut env, _) = masking_env();
    let a = ask(
        &mut env,
        "bob@example.org",
        "limit move 101 secret bob 1-2,3",
        "",
    );
    assert!(a.flat_body().contains("The userid '****'"), "{}", a.body);
}

#[test]
fn the_checks_of_a_typo_are_bounded_and_what_is_left_unchecked_is_hidden() {
    let (mut env, _) = masking_env();
    env.now += 150;
    let out = env
        .cmd()
        .arg("ingest")
        .env("PBEM_REPORT_RSS", "1")
        .write_stdin(
            eml(
                "bob@example.org",
                "limit mvoe 101 bob alpha beta gamma delta secret",
                "",
            )
            .into_bytes(),
        )
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    // limits.max_password_checks_per_mail (3): the place of the password first, then in order.
    assert!(stderr.contains("argon2 hashes 3"), "{stderr}");
    let mails = env.take_mails();
    assert_nowhere(&mails, &[BOB_PW]);
    let a = answer_to(&mails, "bob@example.org");
    // Words past the password's place are neither quoted nor put in the hint.
    assert!(a.body.contains("> limit mvoe 101 bob ...\n"), "{}", a.body);
    assert!(
        a.flat_body()
            .contains("did you mean: limit move 101 bob <password> ..."),
        "{}",
        a.body
    );
    assert!(!a.body.contains("alpha"), "{}", a.body);
}

#[test]
fn the_admin_shell_never_prints_a_password() {
    let (env, _) = masking_env();
    let out = env.admin("limit move 101 secret bob 1-2,3");
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains(BOB_PW), "{stdout}");
    assert!(flat(&stdout).contains("The userid '****'"), "{stdout}");
    let out = env.admin("limit mvoe 101 bob secret 1-2,3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains(BOB_PW), "{stdout}");
    assert!(stdout.contains("'limit mvoe' is not a command"), "{stdout}");
    assert_nowhere(&env.take_mails(), &[BOB_PW]);
}

//! Answers quote only what they read (issue 34, item 3), end to end through the real `pbem ingest`:
//! a command that parsed comes back rebuilt with `<password>` in its password places, a line that
//! did not parse only up to where its password goes, a comment only when its command's password
//! was right; the server's own words are never masked; and no outbox row nor any other row of the
//! database holds a password a mail carried, right or wrong.

use crate::common::{EVERY_ANSWER, Env, Sent, eml, legal_moves_after};

/// alice's password.
const PW: &str = "Tr0ub4dor&3";
/// A wrong password, as a player mistypes or mixes up one.
const WRONG: &str = "WrongPw-Kx93Lm";

/// alice and bob on board 101, alice to move; the mails so far taken. Returns alice's first move.
/// Every mail is answered (no quiet spell after a run of error answers).
fn started() -> (Env, String) {
    let mut env = Env::new().with_config(EVERY_ANSWER);
    env.deliver(&eml("alice@example.org", &format!("signup alice {PW}"), ""));
    env.deliver(&eml("bob@example.org", "signup bob pw-bob", ""));
    env.deliver(&eml(
        "alice@example.org",
        &format!("limit challenge --password={PW} alice bob"),
        "",
    ));
    env.take_mails();
    env.now += 150;
    let first = legal_moves_after(&[], 2, &[])[0].clone();
    (env, first)
}

/// Every value of every row of every table, as text.
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

/// The outbox rows' messages, as stored (what `pbem outbox list` and a flush read).
fn outbox_rows(env: &Env) -> Vec<String> {
    let conn = env.sqlite();
    let mut stmt = conn.prepare("SELECT * FROM outbox").unwrap();
    let n = stmt.column_count();
    let mut rows = stmt.query([]).unwrap();
    let mut out = Vec::new();
    while let Some(row) = rows.next().unwrap() {
        let mut text = String::new();
        for i in 0..n {
            match row.get::<_, rusqlite::types::Value>(i).unwrap() {
                rusqlite::types::Value::Text(s) => text.push_str(&s),
                rusqlite::types::Value::Blob(b) => text.push_str(&String::from_utf8_lossy(&b)),
                _ => {}
            }
            text.push('|');
        }
        out.push(text);
    }
    assert!(!out.is_empty(), "the outbox keeps the rows it sent");
    out
}

/// `secret` nowhere: not in any mail (raw or decoded, even inside a word), not in any outbox row,
/// not in any other row of the database.
fn assert_nowhere(env: &Env, mails: &[Sent], secret: &str) {
    for m in mails {
        assert!(
            !m.raw.contains(secret) && !m.subject.contains(secret) && !m.body.contains(secret),
            "{secret} came back in a mail to {:?}:\n{}\n{}",
            m.to,
            m.subject,
            m.body
        );
    }
    for row in outbox_rows(env) {
        assert!(!row.contains(secret), "{secret} is in an outbox row");
    }
    assert!(!dump(env).contains(secret), "{secret} is in the database");
}

/// The one mail to `to` among `mails`.
fn only_to<'a>(mails: &'a [Sent], to: &str) -> &'a Sent {
    let to_them: Vec<_> = mails.iter().filter(|m| m.to == [to]).collect();
    assert_eq!(to_them.len(), 1, "{mails:#?}");
    to_them[0]
}

/// The sentences of the server's error answer that must stand as written.
fn assert_server_words_whole(a: &Sent) {
    for words in [
        "Your command was not carried out:\n",
        "Nothing was changed. Send `help` for the list of commands.\n",
        "----- Your message -----\n",
    ] {
        assert!(
            a.body.contains(words),
            "{words:?} not whole in:\n{}",
            a.body
        );
    }
    assert!(!a.subject.contains("****"), "{}", a.subject);
}

#[test]
fn a_wrong_password_with_a_comment_leaves_the_servers_words_whole() {
    let (mut env, mv) = started();
    env.now += 150;
    env.deliver(&eml(
        "alice@example.org",
        &format!("limit move 101 alice {WRONG} {mv}"),
        "Your move! Let's see you get out of that one.\n",
    ));
    let mails = env.take_mails();
    let a = only_to(&mails, "alice@example.org");
    assert_server_words_whole(a);
    assert_eq!(a.subject, "Limit Board 101");
    // 8096aec hid every word of the unchecked comment wherever it stood: "carried ****:",
    // "the rest **** the hour", "Summary **** Limit Board 101".
    assert!(!a.body.contains("****"), "{}", a.body);
    for words in [
        "passwords are not checked for the rest of the hour",
        "Summary of Limit Board 101\n",
    ] {
        assert!(
            a.flat_body().contains(words) || a.body.contains(words),
            "{}",
            a.body
        );
    }
    // The command as read, its password place written `<password>`; the comment, which nobody
    // checked, is not quoted (only said to be there).
    assert!(
        a.body
            .contains(&format!("> limit move 101 alice <password> {mv}\n")),
        "{}",
        a.body
    );
    assert!(
        a.body
            .contains("> [your comment, 1 line, is not quoted back]\n"),
        "{}",
        a.body
    );
    assert!(!a.body.contains("get out of that one"), "{}", a.body);
    assert_nowhere(&env, &mails, WRONG);
    assert!(env.stored_moves(101).is_empty());
}

#[test]
fn a_checked_comment_is_quoted_with_a_refused_command() {
    let (mut env, _) = started();
    env.now += 150;
    // The right password, an illegal move: the comment was written by alice, so it comes back to
    // her as she wrote it (but for her password).
    env.deliver(&eml(
        "alice@example.org",
        &format!("limit move 101 alice {PW} 8-19,8"),
        &format!("Your move! Let's see you get out of that one.\nmy password is {PW}\n"),
    ));
    let mails = env.take_mails();
    let a = only_to(&mails, "alice@example.org");
    assert_server_words_whole(a);
    assert!(
        a.body.contains(
            "> limit move 101 alice <password> 8-19,8\n> Your move! Let's see you get out of \
             that one.\n> my password is ****\n"
        ),
        "{}",
        a.body
    );
    assert_nowhere(&env, &mails, PW);
}

#[test]
fn a_mangled_userid_quotes_the_line_only_up_to_the_password() {
    let (mut env, _) = started();
    env.now += 150;
    env.deliver(&eml(
        "alice@example.org",
        &format!("limit move 101 alice'-- {WRONG} r1"),
        "",
    ));
    let mails = env.take_mails();
    // 8096aec quoted the line as written: the wrong password in the mail and in its outbox row.
    assert_nowhere(&env, &mails, WRONG);
    let a = only_to(&mails, "alice@example.org");
    assert_server_words_whole(a);
    // What was wrong, and how to write it, still come back.
    assert!(a.body.contains("'alice'--' is not a userid"), "{}", a.body);
    assert!(
        a.body
            .contains("usage: limit move <board> <userid> <password> <move>[#N]"),
        "{}",
        a.body
    );
    assert!(
        a.body.contains("> limit move 101 alice'-- ...\n"),
        "{}",
        a.body
    );
}

#[test]
fn a_password_glued_to_the_move_is_not_quoted() {
    let (mut env, mv) = started();
    for line in [
        format!("limit move 101 alice {PW}{mv}"),
        format!("limit move 101 alice <password>{mv}"),
    ] {
        env.now += 150;
        env.deliver(&eml("alice@example.org", &line, ""));
        let mails = env.take_mails();
        // 8096aec quoted `Tr0ub4dor&34-1,3` as written: no mask matched it as a word.
        assert_nowhere(&env, &mails, PW);
        let a = only_to(&mails, "alice@example.org");
        assert_server_words_whole(a);
        assert!(
            a.body.contains("> limit move 101 alice ...\n"),
            "{}",
            a.body
        );
        assert!(
            a.body.contains("'limit move' is missing the move"),
            "{}",
            a.body
        );
    }
}

#[test]
fn a_pasted_subject_line_masks_nothing_of_the_answer() {
    let (mut env, mv) = started();
    env.now += 150;
    // A wrong password, and the player's notes pasted below it: the answer's Subject and words
    // are the server's.
    env.deliver(&eml(
        "alice@example.org",
        &format!("limit chat 101 alice {WRONG}"),
        &format!(
            "Subject: limit chat 101 alice {WRONG}\nYour move! Let's see you get out of that one.\n"
        ),
    ));
    let mails = env.take_mails();
    let a = only_to(&mails, "alice@example.org");
    assert_server_words_whole(a);
    assert!(!a.body.contains("****"), "{}", a.body);
    assert_eq!(a.subject, "Limit Board 101");
    assert!(
        a.body.contains("> limit chat 101 alice <password>\n"),
        "{}",
        a.body
    );
    assert!(
        a.body
            .contains("> [your comment, 2 lines, is not quoted back]\n"),
        "{}",
        a.body
    );
    assert_nowhere(&env, &mails, WRONG);
    // With the right password the chat is relayed, the pasted line with the password hidden,
    // and the board mails' Subjects are whole.
    env.now += 150;
    env.deliver(&eml(
        "alice@example.org",
        &format!("limit chat 101 alice {PW}"),
        &format!("Subject: limit chat 101 alice {PW}\n{mv} next?\n"),
    ));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 2, "{mails:#?}");
    for m in &mails {
        assert_eq!(m.subject, "Limit Board 101");
        // bob reads the words; alice, who wrote them, gets one line saying where they went.
        if m.to == ["alice@example.org"] {
            assert!(m.body.starts_with("Your words went to bob"), "{}", m.body);
        } else {
            assert!(
                m.body.contains("Subject: limit chat 101 alice ****\n"),
                "{}",
                m.body
            );
        }
    }
    assert_nowhere(&env, &mails, PW);
}

#[test]
fn typos_of_commands_with_passwords_quote_no_word_past_the_password_place() {
    let (mut env, mv) = started();
    // Each command with a password, written so that it does not parse: the answer shows its start
    // up to the password's place, says what was wrong, and holds no word from there on.
    let lines = [
        // 8096aec quoted this one as written: its words were checked against alice's password,
        // and the wrong one is not hers.
        format!("set alice {WRONG} digets on"),
        format!("signup dan {WRONG} not-an-address"),
        format!("change password alice {WRONG}"),
        format!("change pasword alice {WRONG} NewPass2x"),
        format!("message alice {WRONG}"),
        format!("mesage alice {WRONG} bob"),
        format!("vacation alice {WRONG} 2026-12-01 someday"),
        format!("limit move 101 alice {WRONG} {mv} extra#x"),
        format!("limit chta 101 alice {WRONG} hello there"),
    ];
    for line in &lines {
        env.now += 150;
        env.deliver(&eml("alice@example.org", line, ""));
        let mails = env.take_mails();
        assert_nowhere(&env, &mails, WRONG);
        let a = only_to(&mails, "alice@example.org");
        assert_server_words_whole(a);
        let quote = a
            .body
            .lines()
            .find(|l| l.starts_with("> "))
            .unwrap_or_else(|| panic!("{line}: no quote in\n{}", a.body));
        assert!(quote.ends_with(" ..."), "{line}: {quote}");
        assert!(!a.body.contains("NewPass2x"), "{line}:\n{}", a.body);
    }
}

#[test]
fn a_password_in_the_userids_place_is_neither_quoted_nor_stored() {
    let (mut env, mv) = started();
    env.now += 150;
    // Userid and password swapped, the password a wrong one (not alice's): it came back in no
    // mail on 8096aec either, but its row of the password throttle kept it as written for a day.
    env.deliver(&eml(
        "alice@example.org",
        &format!("limit move 101 {WRONG} alice {mv}"),
        "",
    ));
    let mails = env.take_mails();
    let lower = WRONG.to_lowercase();
    assert!(!dump(&env).to_lowercase().contains(&lower), "stored");
    assert_nowhere(&env, &mails, WRONG);
    let a = only_to(&mails, "alice@example.org");
    assert_server_words_whole(a);
    assert!(
        a.body
            .contains(&format!("> limit move 101 <password> <password> {mv}\n")),
        "{}",
        a.body
    );
    // The throttle still counts the wrong password, under the word's hash.
    let rows: i64 = env
        .sqlite()
        .query_row(
            "SELECT count(*) FROM password_failures WHERE userid_key LIKE 'sha256:%'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(rows, 1);
}

#[test]
fn a_pasted_subject_line_in_a_mult_mail_leaves_the_answers_subject_whole() {
    let (mut env, _) = started();
    env.now += 150;
    // `Subject: limit chat 101` parses as the command `limit` of a game called `subject:`, with
    // `101` in its password's place: 8096aec masked `101` wherever it stood, the Subject of the
    // chat's answer included (`Limit Board **** Error`).
    env.deliver(&eml(
        "alice@example.org",
        "mult",
        &format!("limit chat 101 alice {PW}\nSubject: limit chat 101\n"),
    ));
    let mails = env.take_mails();
    assert_nowhere(&env, &mails, PW);
    let subjects: Vec<&str> = mails.iter().map(|m| m.subject.as_str()).collect();
    assert!(subjects.contains(&"Limit Board 101"), "{subjects:?}");
    for m in &mails {
        assert_server_words_whole(m);
        assert!(!m.body.contains("****"), "{}", m.body);
    }
}

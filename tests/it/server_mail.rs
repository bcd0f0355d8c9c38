//! End-to-end: real `.eml` messages through `pbem ingest`, a real SQLite file, and the mails that come
//! out of the file transport read back and checked.

use crate::common::{Env, eml, legal_moves_after};

/// alice and bob signed up, game 101 started between them; the mails so far dropped.
fn started() -> Env {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    env.take_mails();
    env
}

fn show_101(env: &Env) -> String {
    let out = env.admin("limit show 101");
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn signup_is_confirmed_to_the_registered_address_and_never_shows_the_password() {
    let env = Env::new();
    env.deliver(&eml("Alice <alice@example.org>", "signup alice Sekr1t", ""));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].to, ["alice@example.org"]);
    assert!(mails[0].body.contains("Welcome"), "{}", mails[0].body);
    assert!(!mails[0].raw.contains("Sekr1t"));
    assert_eq!(
        mails[0].header("Auto-Submitted").as_deref(),
        Some("auto-replied")
    );
    assert_eq!(mails[0].header("X-Loop").as_deref(), Some("pbem@localhost"));
    // The same userid again, in another case, is refused.
    env.deliver(&eml("x@example.org", "signup ALICE Xyzzy-77", ""));
    let mails = env.take_mails();
    assert_eq!(mails[0].subject, "pbem error");
    assert!(mails[0].body.contains("taken"), "{}", mails[0].body);
    assert!(!mails[0].raw.contains("Xyzzy-77"), "the password leaked");
}

#[test]
fn a_challenge_mails_each_player_a_new_board() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 2, "{mails:#?}");
    assert_eq!(mails[0].to, ["alice@example.org"]);
    assert_eq!(mails[1].to, ["bob@example.org"]);
    for m in &mails {
        let alice = m.to == ["alice@example.org"];
        let (subject, top) = if alice {
            ("your move", "Your move, alice:")
        } else {
            ("alice to move", "Summary of Limit Board 101\n")
        };
        assert_eq!(
            m.first_line(),
            format!("Limit Board 101: new game, {subject}")
        );
        // The news first (issue 25): the new game itself, for both.
        let news = "A new game on Limit Board 101: Red (alice), Blue (bob).\n\n";
        assert!(
            m.after_state().starts_with(&format!("{news}{top}")),
            "{}",
            m.body
        );
        assert!(m.body.contains("Red (alice) to move."));
        assert!(m.body.contains("Move 1\n"));
        assert_eq!(
            m.header("Auto-Submitted").as_deref(),
            Some("auto-generated")
        );
    }
    // Board numbers count up from 101.
    env.deliver(&eml(
        "bob@example.org",
        "limit challenge -size=4 bob alice",
        "",
    ));
    let mails = env.take_mails();
    assert!(
        mails
            .iter()
            .all(|m| m.first_line().starts_with("Limit Board 102: new game, "))
    );
}

#[test]
fn a_move_by_subject_with_a_comment_reaches_every_player() {
    let env = started();
    let m = legal_moves_after(&[], 2, &[])[0].clone();
    env.deliver(&eml(
        "alice@example.org",
        &format!("limit move 101 alice pw-alice {m}#1"),
        "Good luck, Bob!\nmy password is pw-alice\n",
    ));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 2, "{mails:#?}");
    for mail in &mails {
        let state = if mail.to == ["bob@example.org"] {
            "your move"
        } else {
            "bob to move"
        };
        assert_eq!(
            mail.first_line(),
            format!("Limit Board 101: {state} (with a comment)")
        );
        assert!(mail.body.contains("Blue (bob) to move."), "{}", mail.body);
        assert!(mail.body.contains("alice writes:\nGood luck, Bob!"));
        assert!(
            mail.body.contains(&format!("Red (alice)  {m}")),
            "{}",
            mail.body
        );
        assert!(
            !mail.raw.contains("pw-alice"),
            "password leaked:\n{}",
            mail.raw
        );
    }
    // The mover's own copy is the threaded reply; the other player's is auto-generated.
    let alice = &mails[0];
    assert_eq!(
        alice.header("Auto-Submitted").as_deref(),
        Some("auto-replied")
    );
    assert!(alice.header("In-Reply-To").is_some());
    assert_eq!(
        mails[1].header("Auto-Submitted").as_deref(),
        Some("auto-generated")
    );
    assert!(show_101(&env).contains("Move 2\n"));
}

#[test]
fn moves_by_multiple_and_by_reply_to_a_board_mail() {
    let env = started();
    let m1 = legal_moves_after(&[], 2, &[])[0].clone();
    let m2 = legal_moves_after(&[], 2, &[&m1])[0].clone();
    env.deliver(&eml(
        "alice@example.org",
        "mult",
        &format!("limit move 101 alice pw-alice {m1}\nlimit show 101\n"),
    ));
    let mails = env.take_mails();
    // Two board mails for the move, and the show reply.
    assert_eq!(mails.len(), 3, "{mails:#?}");
    assert!(show_101(&env).contains("Move 2\n"));

    // Bob hits Reply: the quoted board and a quoted old command must not be acted on; his command line
    // is, and "Hi Alice" is his comment; nothing after the signature counts.
    let body = format!(
        "Hi Alice,\n\nlimit move 101 bob pw-bob {m2}\n\nOn Wed, 18 Nov 2026, pbem wrote:\n\
         > Summary of Limit Board 101\n> limit move 101 alice pw-alice {m1}\n\n-- \nBob\n\
         limit resign 101 bob pw-bob\n"
    );
    env.deliver(&eml("bob@example.org", "Re: Limit Board 101 bob", &body));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 2, "{mails:#?}");
    assert!(
        mails[0].body.contains("bob writes:\nHi Alice,"),
        "{}",
        mails[0].body
    );
    let board = show_101(&env);
    assert!(board.contains("Move 3\n"), "{board}");
    assert!(!board.contains("resign"));
}

#[test]
fn refused_commands_are_answered_with_an_error_and_change_nothing() {
    let env = started();
    let legal = legal_moves_after(&[], 2, &[]);
    let before = show_101(&env);
    let cases = [
        // (from, subject, what the answer must say)
        (
            "alice@example.org",
            format!("limit move 101 alice wrong {}", legal[0]),
            "do not match",
        ),
        (
            "alice@example.org",
            format!("limit move 101 nobody pw {}", legal[0]),
            "do not match",
        ),
        (
            "bob@example.org",
            format!("limit move 101 bob pw-bob {}", legal[0]),
            "not your turn",
        ),
        (
            "alice@example.org",
            "limit move 101 alice pw-alice 1-1,1".to_string(),
            "not legal",
        ),
        (
            "alice@example.org",
            "limit move 101 alice pw-alice zz".to_string(),
            "not legal",
        ),
        (
            "alice@example.org",
            format!("limit move 101 alice pw-alice {}#7", legal[0]),
            "move 7",
        ),
        (
            "alice@example.org",
            format!("limit move 999 alice pw-alice {}", legal[0]),
            "no Limit board 999",
        ),
        (
            "alice@example.org",
            "limit frobnicate 101".to_string(),
            "is not a command",
        ),
        (
            "alice@example.org",
            "chess show 101".to_string(),
            "no game called",
        ),
        (
            "alice@example.org",
            "limit challenge -size=99 alice bob".to_string(),
            "size",
        ),
        (
            "alice@example.org",
            "limit challenge -random alice bob".to_string(),
            "random",
        ),
        (
            "alice@example.org",
            "limit challenge alice alice".to_string(),
            "twice",
        ),
    ];
    for (i, (from, subject, says)) in cases.iter().enumerate() {
        if i % 4 == 3 {
            // A command carried out now and then: five error answers in a row would make the
            // address quiet (limits.error_answers_before_quiet).
            env.deliver(&eml(from, "help", ""));
            env.take_mails();
        }
        env.deliver(&eml(from, subject, ""));
        let mails = env.take_mails();
        assert_eq!(mails.len(), 1, "{subject}: {mails:#?}");
        let m = &mails[0];
        assert_eq!(m.to, [from.to_string()], "{subject}");
        assert!(
            m.body.starts_with("Your command was not carried out:"),
            "{subject}: {}",
            m.subject
        );
        assert!(
            m.body.to_lowercase().contains(&says.to_lowercase()),
            "{subject}: the answer does not say '{says}':\n{}",
            m.body
        );
        assert!(
            !m.raw.contains("pw-alice") && !m.raw.contains("pw-bob"),
            "{subject}: password leaked"
        );
    }
    assert_eq!(
        show_101(&env).replace("Now:", ""),
        before.replace("Now:", "")
    );
    // The board error names the board in its subject.
    env.deliver(&eml(
        "bob@example.org",
        &format!("limit move 101 bob pw-bob {}", legal[0]),
        "",
    ));
    assert_eq!(env.take_mails()[0].subject, "Limit Board 101");
}

#[test]
fn a_mail_without_a_command_gets_a_reply_saying_how_to_write_one() {
    let env = Env::new();
    env.deliver(&eml("carol@example.org", "Hello there", "Can I play?\n"));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 1);
    assert!(
        mails[0].body.contains("holds no command"),
        "{}",
        mails[0].body
    );
    assert!(mails[0].body.contains("limit move 101"));
}

#[test]
fn the_same_message_twice_has_one_effect() {
    let env = started();
    let m = legal_moves_after(&[], 2, &[])[0].clone();
    let msg = eml(
        "alice@example.org",
        &format!("limit move 101 alice pw-alice {m}"),
        "",
    );
    env.deliver(&msg);
    assert_eq!(env.take_mails().len(), 2);
    env.deliver(&msg);
    assert!(
        env.take_mails().is_empty(),
        "a second delivery must be silent"
    );
    assert!(show_101(&env).contains("Move 2\n"));
}

#[test]
fn mail_that_must_not_be_answered_is_neither_answered_nor_acted_on() {
    let env = started();
    let m = legal_moves_after(&[], 2, &[])[0].clone();
    let cmd = format!("limit move 101 alice pw-alice {m}");
    let autoreply = eml("alice@example.org", &cmd, "I am on holiday.").replace(
        "MIME-Version",
        "Auto-Submitted: auto-replied\r\nMIME-Version",
    );
    let bulk = eml("alice@example.org", &cmd, "")
        .replace("MIME-Version", "Precedence: bulk\r\nMIME-Version");
    let looped = eml("alice@example.org", &cmd, "")
        .replace("MIME-Version", "X-Loop: pbem@localhost\r\nMIME-Version");
    let daemon = eml("MAILER-DAEMON@example.org", &cmd, "");
    for msg in [autoreply, bulk, looped, daemon] {
        env.deliver(&msg);
        assert!(env.take_mails().is_empty());
    }
    assert!(show_101(&env).contains("Move 1\n"));
}

#[test]
fn the_shell_runs_the_same_commands_and_mails_the_players() {
    let env = Env::new();
    let out = env.admin("signup alice pw-alice alice@example.org");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = env.admin("signup bob pw-bob bob@example.org");
    assert!(out.status.success());
    env.take_mails();
    let out = env.admin("limit challenge alice bob");
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("Summary of Limit Board 101"));
    assert_eq!(env.take_mails().len(), 2);
    let m = legal_moves_after(&[], 2, &[])[0].clone();
    let out = env.admin(&format!("limit move 101 alice pw-alice {m}"));
    assert!(out.status.success());
    assert_eq!(env.take_mails().len(), 2);
    // A refused command prints the error and exits 1.
    let out = env.admin(&format!("limit move 101 alice pw-alice {m}"));
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("not your turn"));
    assert!(env.take_mails().is_empty());
}

#[test]
fn resign_ends_a_two_player_game() {
    let env = started();
    env.deliver(&eml("bob@example.org", "limit resign 101 bob pw-bob", "gg"));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 2);
    assert_eq!(
        mails[0].first_line(),
        "Limit Board 101: over (with a comment)"
    );
    assert!(
        mails[0].body.contains("Red (alice) wins"),
        "{}",
        mails[0].body
    );
    let out = env.admin("limit games bob all");
    assert!(String::from_utf8_lossy(&out.stdout).contains("Board 101"));
}

#[test]
fn a_player_gets_at_most_the_hourly_allowance_of_answers() {
    let env = Env::new();
    env.players(&["robot"]);
    // The default allowance is 30 replies per address per hour.
    for _ in 0..35 {
        env.deliver(&eml("robot@example.org", "help", ""));
    }
    // The welcome to the signup was the first of the hour's 30.
    assert_eq!(env.take_mails().len(), 29);
    // An hour later it is answered again.
    let mut later = Env::new();
    later.dir = env.dir;
    later.db = env.db;
    later.outbox = env.outbox;
    later.now = env.now + 3601;
    later.deliver(&eml("robot@example.org", "help", ""));
    assert_eq!(later.take_mails().len(), 1);
}

#[test]
fn an_autoresponder_without_the_usual_headers_gets_a_few_error_mails() {
    let env = Env::new();
    for i in 0..35 {
        env.deliver(&eml(
            "robot@example.org",
            &format!("Re: your mail {i}"),
            "I got your mail.",
        ));
    }
    // An address that is no player's: 3 answers a day (limits.replies_per_new_address_per_day).
    assert_eq!(env.take_mails().len(), 3);
}

#[test]
fn show_at_an_earlier_move_preview_help_and_list() {
    let env = started();
    let m1 = legal_moves_after(&[], 2, &[])[0].clone();
    env.deliver(&eml(
        "alice@example.org",
        &format!("limit move 101 alice pw-alice {m1}"),
        "",
    ));
    env.take_mails();
    let out = env.admin("limit show 101#1");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("Move 1\n") && text.contains("Red (alice) to move."),
        "{text}"
    );
    // A preview plays nothing.
    let m2 = legal_moves_after(&[], 2, &[&m1])[0].clone();
    env.deliver(&eml(
        "carol@example.org",
        &format!("limit preview 101 {m2}"),
        "",
    ));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 1);
    assert!(
        mails[0].body.contains("nothing has been played"),
        "{}",
        mails[0].body
    );
    assert!(mails[0].body.contains("Move 3\n"));
    assert!(show_101(&env).contains("Move 2\n"));
    env.deliver(&eml("carol@example.org", "limit help", ""));
    assert!(env.take_mails()[0].body.contains("Limit"));
    env.deliver(&eml("carol@example.org", "list", ""));
    assert!(env.take_mails()[0].body.contains("limit"));
}

#[test]
fn account_changes_are_told_to_the_registered_addresses() {
    let env = started();
    // A password change: told to alice's address, and only the new password works afterwards.
    env.deliver(&eml(
        "someone@else.example",
        "change password alice pw-alice Fresh-9",
        "",
    ));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 1, "{mails:#?}");
    assert_eq!(mails[0].to, ["alice@example.org"]);
    assert!(mails[0].body.contains("password of alice has been changed"));
    assert!(!mails[0].raw.contains("Fresh-9") && !mails[0].raw.contains("pw-alice"));
    let m = legal_moves_after(&[], 2, &[])[0].clone();
    let out = env.admin(&format!("limit move 101 alice pw-alice {m}"));
    assert_eq!(out.status.code(), Some(1));
    let out = env.admin(&format!("limit move 101 alice Fresh-9 {m}"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    env.take_mails();

    // An address change is told to the new and the old address.
    env.deliver(&eml(
        "bob@example.org",
        "change address bob pw-bob bob@new.example",
        "",
    ));
    let mails = env.take_mails();
    let to: Vec<_> = mails.iter().flat_map(|m| m.to.clone()).collect();
    assert!(to.contains(&"bob@new.example".to_string()), "{to:?}");
    assert!(to.contains(&"bob@example.org".to_string()), "{to:?}");
    // The new address is not the sender's: it takes bob's mail once it answers its confirmation.
    let confirm = mails
        .iter()
        .find(|m| m.to == ["bob@new.example"])
        .expect("a confirmation mail");
    assert!(
        confirm.subject.starts_with("confirm bob "),
        "{}",
        confirm.subject
    );
    env.deliver(&eml(
        "bob@new.example",
        &format!("Re: {}", confirm.subject),
        "",
    ));
    env.take_mails();
    env.deliver(&eml(
        "bob@new.example",
        "change address bob pw-bob bob@new.example",
        "",
    ));
    env.take_mails();

    // Signing off is refused while a game is on, and done once it is over.
    env.deliver(&eml("bob@new.example", "signoff bob pw-bob", ""));
    let mails = env.take_mails();
    assert!(
        mails[0].body.contains("still plays 1 game"),
        "{}",
        mails[0].body
    );
    env.deliver(&eml("bob@new.example", "limit resign 101 bob pw-bob", ""));
    env.take_mails();
    env.deliver(&eml("bob@new.example", "signoff bob pw-bob", ""));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].to, ["bob@new.example"]);
    assert!(
        mails[0].body.contains("bob has signed off"),
        "{}",
        mails[0].body
    );
    // Signed off: the password no longer logs in.
    let out = env.admin("limit chat 101 bob pw-bob");
    assert_eq!(out.status.code(), Some(1));
}

//! End-to-end: the player's and the admin's day (issue 16), through the real binary with real `.eml`
//! messages and a real SQLite file, the mails read back from the file transport.

use crate::common;
use crate::common::{Env, NOW, Sent, eml};

const DAY: i64 = 86_400;

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
    let signup = env.only_mail_to("alice@example.org");
    env.deliver(&eml("bob@example.org", "signup bob pw-bob", ""));
    env.take_mails();

    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    let new_board = env.only_mail_to("bob@example.org");
    assert!(
        new_board
            .first_line()
            .starts_with("Limit Board 101: new game, "),
        "{new_board:#?}"
    );

    env.deliver(&eml(
        "bob@example.org",
        "limit move 101 bob wrong 1-2,3",
        "",
    ));
    let error = env.only_mail_to("bob@example.org");
    // In the game's thread, under its one Subject: the first line says it was refused.
    assert_eq!(error.subject, "Limit Board 101");
    assert_eq!(error.first_line(), "Your command was not carried out:");

    env.deliver(&eml("carol@example.net", "help", ""));
    let help = env.only_mail_to("carol@example.net");
    assert_eq!(help.subject, "pbem help");

    env.now = NOW + 7 * DAY;
    let out = env.cmd().arg("cron").output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let nag = env.only_mail_to("alice@example.org");
    assert_eq!(nag.first_line(), "Nag: Limit Board 101 alice");

    for (mail, from) in [
        (&signup, "alice@example.org"),
        (&new_board, "bob@example.org"),
        (&error, "bob@example.org"),
        (&help, "carol@example.net"),
        (&nag, "alice@example.org"),
    ] {
        env.deliver(&reply_to(mail, from));
        let answer = env.only_mail_to(from);
        assert_no_command_answer(&answer, &mail.subject);
    }
    // Nothing was changed by the replies: the game waits for alice's first move.
    assert_eq!(env.stored_moves(101).len(), 0);
}

#[test]
fn a_challenges_comment_reaches_the_other_players() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    // From alice's registered address (issue 25): her agreement and her comment, kept.
    env.deliver(&eml(
        "alice@example.org",
        "limit challenge alice bob",
        "Fancy a game?\n",
    ));
    let bob = env.only_mail_to("bob@example.org");
    assert!(
        bob.first_line().starts_with("Limit Board 101: new game, ")
            && bob.first_line().ends_with(" (with a comment)"),
        "{}",
        bob.subject
    );
    assert!(
        bob.body.contains("alice writes:\nFancy a game?\n"),
        "{}",
        bob.body
    );
    // Only bob still has to agree: one line, his.
    assert!(
        bob.body
            .contains("(`reject` in place of `accept` declines, unrated):\n  limit move 101 bob <password> accept\n"),
        "{}",
        bob.body
    );
    assert!(
        !bob.body.contains("alice <password> accept"),
        "{}",
        bob.body
    );
    let history = String::from_utf8(env.admin("limit history 101").stdout).unwrap();
    assert!(history.contains("Fancy"), "{history}");

    // From an address that is not the challenger's: unsigned, shown to every player, not kept.
    env.deliver(&eml(
        "someone@example.net",
        "limit challenge alice bob",
        "Fancy another?\n",
    ));
    let bob = env.only_mail_to("bob@example.org");
    assert!(
        bob.body.contains(
            "The challenge (unsigned: sent without --password) writes:\nFancy another?\n"
        ),
        "{}",
        bob.body
    );
    let history = env.admin("limit history 102");
    assert!(!String::from_utf8_lossy(&history.stdout).contains("Fancy another"));

    // Signed with the challenger's password: alice's comment, kept.
    env.deliver(&eml(
        "alice@example.org",
        "limit challenge --password=pw-alice alice bob",
        "A rematch?\n",
    ));
    let bob = env.only_mail_to("bob@example.org");
    assert!(
        bob.body.contains("alice writes:\nA rematch?\n"),
        "{}",
        bob.body
    );
    assert!(!bob.body.contains("pw-alice"), "{}", bob.body);
    let history = String::from_utf8(env.admin("limit history 103").stdout).unwrap();
    assert!(history.contains("A rematch?"), "{history}");
}

#[test]
fn the_board_mail_to_the_player_on_move_shows_the_line_to_send_before_the_board() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("bob@example.org", "limit challenge alice bob", ""));
    // Each player on move in turn: their mail's last command line, with the password filled in,
    // is a move the server takes; the other player's mail has no such line.
    let mut to_move = ("alice", "pw-alice", "bob");
    for turn in 1..=4 {
        let mails = env.take_mails();
        let mine = mails
            .iter()
            .find(|m| m.to == [format!("{}@example.org", to_move.0)])
            .unwrap_or_else(|| panic!("no mail to {}: {mails:#?}", to_move.0));
        let theirs = mails
            .iter()
            .find(|m| m.to == [format!("{}@example.org", to_move.2)])
            .unwrap();
        assert!(
            !theirs.body.contains("reply with just your move"),
            "{}",
            theirs.body
        );
        let line = mine
            .body
            .lines()
            .rev()
            .find(|l| l.trim_start().starts_with("limit move ") && l.contains('#'))
            .unwrap_or_else(|| panic!("no line to send:\n{}", mine.body))
            .trim()
            .to_string();
        assert!(
            line.starts_with(&format!("limit move 101 {} <password> ", to_move.0)),
            "{line}"
        );
        assert!(line.ends_with(&format!("#{turn}")), "{line}");
        // What to do comes first (issue 25): the line and its explanation, then the board.
        let summary = mine.body.find("Summary of Limit Board 101").unwrap();
        let explained = mine.body.find("reply with just your move").unwrap();
        assert!(explained < summary, "{}", mine.body);
        env.deliver(&eml(
            &format!("{}@example.org", to_move.0),
            &line.replace("<password>", to_move.1),
            "",
        ));
        assert_eq!(
            env.stored_moves(101).len() as u32,
            turn,
            "turn {turn}: {line}"
        );
        to_move = if to_move.0 == "alice" {
            ("bob", "pw-bob", "alice")
        } else {
            ("alice", "pw-alice", "bob")
        };
    }
}

#[test]
fn the_demo_says_what_each_mail_did_shows_the_whole_board_and_keeps_its_work() {
    let out = std::process::Command::new(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/demo.sh"))
        .env("PBEM_BIN", env!("CARGO_BIN_EXE_pbem"))
        .env_remove("PBEM_CONFIG")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for needle in [
        "== 01-signup-alice.eml: from Alice <alice@example.org>, Subject: signup alice alicepw\n   handled; 1 mail(s) sent:\n     to alice@example.org: pbem signup alice\n",
        "== 03-challenge.eml: from Alice <alice@example.org>, Subject: limit challenge alice bob\n   handled; 2 mail(s) sent:\n",
        "     to bob@example.org: Limit Board 101\n",
        // The reply and the mail of several commands show how they were written.
        "   the body as written:\n   | Thanks Alice!\n   | \n   | limit move 101 bob bobpw 2-3,57\n",
        "Subject: multiple\n   the body as written:\n   | limit move 101 alice alicepw 1-2,15\n   | limit history 101\n",
        // bob's bare reply to his board mail plays, without userid or password.
        "   | 3-1,3\n",
        "== 07-bare-reply-bob.eml: from Bob <bob@example.org>, Subject: Re: Limit Board 101\n",
        "   handled; 2 mail(s) sent:\n     to alice@example.org: Limit Board 101\n",
        "== 13 mails went out in all; the last board mail to bob, as he reads it:\n",
        "== pbem limit show 101 (as the admin):\n",
    ] {
        assert!(text.contains(needle), "{needle:?} missing in:\n{text}");
    }
    // The admin's board is whole: the summary goes on to its last line.
    let show = &text[text.find("== pbem limit show 101").unwrap()..];
    assert!(
        show.contains("Players:\n  Red (alice)\n  Blue (bob)\n"),
        "{show}"
    );
    assert!(
        show.contains("Now:          2026-11-18 11:06 UTC"),
        "{show}"
    );
    // The work folder is kept, and named.
    let kept = text
        .lines()
        .find_map(|l| l.strip_prefix("== the demo's database and sent mails are kept in "))
        .unwrap_or_else(|| panic!("no folder named:\n{text}"));
    let kept = std::path::Path::new(kept.trim());
    assert!(kept.join("pbem.sqlite").is_file(), "{}", kept.display());
    // 13 mails and the bare reply the demo wrote.
    assert_eq!(std::fs::read_dir(kept.join("outbox")).unwrap().count(), 13);
    assert!(kept.join("07-bare-reply-bob.eml").is_file());
    std::fs::remove_dir_all(kept).unwrap();
}

#[test]
fn the_shell_answers_as_the_mail_would_with_64_for_usage_errors() {
    let env = Env::new();
    let run = |args: &[&str]| {
        let out = env.cmd().args(args).output().unwrap();
        (
            out.status.code().unwrap(),
            String::from_utf8_lossy(&out.stdout).into_owned()
                + &String::from_utf8_lossy(&out.stderr),
        )
    };
    // `help` is the command language's help, as by mail, and so is help on one command.
    let (code, text) = run(&["help"]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("signup"), "{text}");
    assert!(!text.contains("Usage: pbem"), "clap's help instead: {text}");
    let (code, text) = run(&["help", "signup"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("signup <userid> <password> [<address>...]"),
        "{text}"
    );
    let (code, text) = run(&["help", "limit", "move"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("limit move <board> <userid> <password> <move>[#N]"),
        "{text}"
    );
    let (code, text) = run(&["help", "sigup"]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("Did you mean 'signup'?"), "{text}");
    // A line that is no command: 64, the nearest command suggested.
    let (code, text) = run(&["frobnicate"]);
    assert_eq!(code, 64, "{text}");
    assert!(text.contains("'frobnicate' is not a command"), "{text}");
    assert!(!text.contains("'frobnicate' needs"), "{text}");
    // Not the 30 lines of every command (issue 25): `help` has them.
    assert!(
        !text.contains("signup <userid> <password>"),
        "the commands are listed: {text}"
    );
    let (code, text) = run(&["sigup", "alice", "pw"]);
    assert_eq!(code, 64, "{text}");
    // The line it was meant to be (the shell hides the words that may be passwords).
    assert!(text.contains("did you mean:\n      signup "), "{text}");
    assert!(text.contains(" <password>\n"), "{text}");
    let (code, text) = run(&["limit", "chalenge", "alice", "bob"]);
    assert_eq!(code, 64, "{text}");
    assert!(
        text.contains("did you mean:\n      limit challenge "),
        "{text}"
    );
    // A bad flag of the binary: 64 too (clap's own status is 2).
    let (code, text) = run(&["--frobnicate"]);
    assert_eq!(code, 64, "{text}");
    // A well-formed command the server refuses: 1.
    let (code, text) = run(&["limit", "show", "999"]);
    assert_eq!(code, 1, "{text}");
    // Help and version of the binary itself: 0.
    assert_eq!(run(&["--help"]).0, 0);
    assert_eq!(run(&["--version"]).0, 0);
}

#[test]
fn maildir_and_outbox_list_print_their_counts() {
    let env = Env::new();
    let maildir = env.dir.path().join("Maildir");
    std::fs::create_dir_all(maildir.join("new")).unwrap();
    let signup = common::eml_with_id("alice@example.org", "signup alice pw-alice", "", "<one@x>");
    std::fs::write(maildir.join("new/1.a"), &signup).unwrap();
    std::fs::write(maildir.join("new/2.a"), &signup).unwrap();
    std::fs::write(
        maildir.join("new/3.a"),
        "From: MAILER-DAEMON@example.org\r\nSubject: Undelivered Mail\r\n\r\nbounce\r\n",
    )
    .unwrap();
    let run = |args: &[&str]| {
        let out = env.cmd().args(args).output().unwrap();
        (
            out.status.code().unwrap(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, _, err) = run(&["maildir", maildir.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("maildir: 3 messages: 1 handled, 1 not answered (bounces, lists, autoreplies, no address), 1 duplicate, 0 left for a retry"),
        "{err}"
    );
    // The mail went out at once: nothing waits; with --all the sent one is listed.
    let (code, out, err) = run(&["outbox", "list"]);
    assert_eq!((code, out.as_str()), (0, ""));
    assert!(
        err.contains("outbox: 0 waiting (sent mail is kept 7 days)"),
        "{err}"
    );
    let (_, out, err) = run(&["outbox", "list", "--all"]);
    assert!(err.contains("outbox: 0 waiting, 1 sent"), "{err}");
    assert!(
        out.contains("\tsent\talice@example.org\tpbem signup alice"),
        "{out}"
    );

    // A database held by another writer: the messages stay in new/ for a retry, and say so.
    std::fs::write(
        maildir.join("new/4.a"),
        eml("bob@example.org", "signup bob pw-bob", ""),
    )
    .unwrap();
    let config = env.dir.path().join("pbem.toml");
    std::fs::write(&config, "[database]\nbusy_timeout_ms = 100\n").unwrap();
    let lock = env.sqlite();
    lock.execute_batch("BEGIN IMMEDIATE").unwrap();
    let out = env
        .cmd()
        .arg("--config")
        .arg(&config)
        .args(["maildir", maildir.to_str().unwrap()])
        .output()
        .unwrap();
    lock.execute_batch("ROLLBACK").unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(75), "{err}");
    assert!(err.contains("maildir: 1 messages: 0 handled, 0 not answered (bounces, lists, autoreplies, no address), 0 duplicate, 1 left for a retry"), "{err}");
    assert!(maildir.join("new/4.a").exists());
}

#[test]
fn a_forgotten_password_is_reset_with_a_code_mailed_to_the_registered_address() {
    let env = Env::new();
    env.players(&["alice"]);
    // Asked from a stranger's address: the code goes to alice's address, not to the stranger; the
    // stranger's answer is the one an unknown userid gets too.
    env.deliver(&eml("mallory@example.net", "password reset alice", ""));
    let mails = env.take_mails();
    let to_mallory: Vec<&Sent> = mails
        .iter()
        .filter(|m| m.to == ["mallory@example.net"])
        .collect();
    let to_alice: Vec<&Sent> = mails
        .iter()
        .filter(|m| m.to == ["alice@example.org"])
        .collect();
    assert_eq!((to_mallory.len(), to_alice.len()), (1, 1), "{mails:#?}");
    let code_line = to_alice[0]
        .body
        .lines()
        .find(|l| l.contains("password set alice "))
        .unwrap();
    let code = code_line.split_whitespace().nth(3).unwrap().to_string();
    assert!(
        !to_mallory[0].raw.contains(&code),
        "the code reached the stranger"
    );
    env.deliver(&eml("mallory@example.net", "password reset nobody", ""));
    let unknown = env.only_mail_to("mallory@example.net");
    assert_eq!(
        unknown.body.replace("nobody", "USER"),
        to_mallory[0].body.replace("alice", "USER"),
        "an unknown userid is answered alike"
    );

    // A wrong code changes nothing; the old password still works.
    env.deliver(&eml(
        "mallory@example.net",
        "password set alice AAAAAAAAAA stolen-pw",
        "",
    ));
    let wrong = env.only_mail_to("mallory@example.net");
    assert!(
        wrong
            .body
            .contains("That code does not set a password of alice"),
        "{}",
        wrong.body
    );
    assert!(
        !wrong.raw.contains("stolen-pw") && !wrong.raw.contains("AAAAAAAAAA"),
        "{}",
        wrong.raw
    );
    let out = env.admin("change password alice pw-alice pw-alice2");
    assert!(out.status.success(), "{out:?}");
    env.take_mails();

    // The right code sets the new password, once.
    env.deliver(&eml(
        "alice@example.org",
        &format!("password set alice {code} fresh-pw"),
        "",
    ));
    let done = env.only_mail_to("alice@example.org");
    assert!(
        done.body.contains("The password of alice has been set"),
        "{}",
        done.body
    );
    assert!(
        !done.raw.contains(&code) && !done.raw.contains("fresh-pw"),
        "{}",
        done.raw
    );
    assert!(
        env.admin("change password alice pw-alice2 x-pw-x")
            .status
            .code()
            != Some(0)
    );
    env.take_mails();
    assert!(
        env.admin("change password alice fresh-pw pw-alice")
            .status
            .success()
    );
    env.take_mails();
    env.deliver(&eml(
        "alice@example.org",
        &format!("password set alice {code} again-pw"),
        "",
    ));
    let again = env.only_mail_to("alice@example.org");
    assert!(
        again.body.contains("does not set a password"),
        "used once: {}",
        again.body
    );

    // At most three codes a day go to the account; the asker's answer stays the same.
    for n in 0..4 {
        env.deliver(&eml("alice@example.org", "password reset alice", ""));
        let mails = env.take_mails();
        let codes = mails
            .iter()
            .filter(|m| m.subject.starts_with("pbem password reset alice"))
            .count();
        // The first reset of the test was the first of the day.
        assert_eq!(codes, usize::from(n < 2), "reset {n}: {mails:#?}");
    }
}

#[test]
fn a_code_expires_after_a_day() {
    let mut env = Env::new();
    env.players(&["alice"]);
    env.deliver(&eml("alice@example.org", "password reset alice", ""));
    let mails = env.take_mails();
    let mail = mails
        .iter()
        .find(|m| m.subject == "pbem password reset alice")
        .unwrap();
    let line = mail
        .body
        .lines()
        .find(|l| l.contains("password set alice "))
        .unwrap();
    let code = line.split_whitespace().nth(3).unwrap().to_string();
    env.now = NOW + DAY + 1;
    env.deliver(&eml(
        "alice@example.org",
        &format!("password set alice {code} late-pw"),
        "",
    ));
    let late = env.only_mail_to("alice@example.org");
    assert!(late.body.contains("older than 24 hours"), "{}", late.body);
    assert!(
        env.admin("change password alice pw-alice pw-2")
            .status
            .success()
    );
}

#[test]
fn games_next_and_several_players_and_list_of_a_game() {
    let env = Env::new();
    env.players(&["alice", "bob", "carol"]);
    let admin = |line: &str| {
        let out = env.admin(line);
        (
            out.status.code().unwrap(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    admin("limit challenge alice bob"); // 101: alice to move
    admin("limit challenge carol alice"); // 102: carol to move
    admin("limit challenge bob alice"); // 103: bob to move, then over
    assert_eq!(admin("limit resign 103 bob pw-bob").0, 0);
    env.take_mails();

    let (code, next) = admin("limit games alice next");
    assert_eq!(code, 0, "{next}");
    assert!(next.contains("Limit games of alice (their turn):\n\n  Board 101: alice vs bob  Red (alice) to move.\n"), "{next}");
    assert!(
        !next.contains("Board 102") && !next.contains("Board 103"),
        "{next}"
    );

    let (_, both) = admin("limit games alice carol next");
    assert!(both.contains("Limit games of carol (their turn):\n\n  Board 102: carol vs alice  Red (carol) to move.\n"), "{both}");
    assert!(both.contains("Board 101"), "{both}");

    let (_, old) = admin("limit games alice inactive");
    assert!(old.contains("(finished)"), "{old}");
    assert!(
        old.contains("Board 103: bob vs alice  Game over: Blue (alice) wins."),
        "{old}"
    );
    assert!(!old.contains("Board 101"), "{old}");

    // A game saved before the seat to move was kept is found too, once filled in.
    env.sqlite()
        .execute(
            "UPDATE games SET to_move = NULL, status = NULL WHERE board = 101",
            [],
        )
        .unwrap();
    let (_, again) = admin("limit games alice next");
    assert!(
        again.contains("Board 101: alice vs bob  Red (alice) to move."),
        "{again}"
    );

    let (code, list) = admin("list limit");
    assert_eq!(code, 0, "{list}");
    assert!(list.contains("2 running, 1 finished"), "{list}");
    let (code, list) = admin("list chess");
    assert_eq!(code, 1, "{list}");
    assert!(list.contains("no game called 'chess'"), "{list}");
    let (code, _) = admin("limit games");
    assert_eq!(code, 64);
}

#[test]
fn players_write_to_each_other_through_the_server_without_seeing_addresses() {
    let env = Env::new();
    env.players(&["alice", "bob", "carol"]);
    env.deliver(&eml(
        "alice@example.org",
        "message alice pw-alice bob carol",
        "Shall we start a three-player game on Friday?\n",
    ));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 3, "{mails:#?}");
    for who in ["bob", "carol"] {
        let m = mails
            .iter()
            .find(|m| m.to == [format!("{who}@example.org")])
            .unwrap();
        assert_eq!(m.subject, "pbem message from alice");
        assert!(
            m.body
                .contains("Shall we start a three-player game on Friday?"),
            "{}",
            m.body
        );
        assert!(
            m.body.contains(&format!("message {who} <password> alice")),
            "{}",
            m.body
        );
        assert!(
            !m.raw.contains("alice@example.org"),
            "alice's address shown:\n{}",
            m.raw
        );
        assert!(!m.raw.contains("pw-alice"), "{}", m.raw);
    }
    let answer = mails
        .iter()
        .find(|m| m.to == ["alice@example.org"])
        .unwrap();
    assert!(
        answer.body.contains("Your message went to bob, carol."),
        "{}",
        answer.body
    );
    assert!(!answer.raw.contains("bob@example.org"), "{}", answer.raw);

    // Refused, and nothing sent to anyone: an unknown recipient, a robot, a wrong password, no text.
    for (subject, body, why) in [
        (
            "message alice pw-alice bob nobody",
            "hi",
            "'nobody' is not a registered player",
        ),
        (
            "message alice pw-alice robot1",
            "hi",
            "'robot1' is not a registered player",
        ),
        ("message alice wrong bob", "hi", "password"),
        ("message alice pw-alice bob", "", "it is empty"),
    ] {
        env.deliver(&eml("alice@example.org", subject, body));
        let mails = env.take_mails();
        assert_eq!(mails.len(), 1, "{subject}: {mails:#?}");
        assert_eq!(mails[0].to, ["alice@example.org"]);
        assert!(mails[0].body.contains(why), "{subject}: {}", mails[0].body);
    }
    // At most 30 recipients a day: 2 so far, 28 more, then no more.
    for n in 0..15 {
        env.deliver(&eml(
            "alice@example.org",
            "message alice pw-alice bob carol",
            &format!("note {n}"),
        ));
        let mails = env.take_mails();
        assert_eq!(
            mails.len(),
            if n < 14 { 3 } else { 1 },
            "message {n}: {mails:#?}"
        );
    }
}

#[test]
fn the_board_mail_shows_the_time_each_player_used() {
    let mut env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    env.take_mails();
    // alice takes 2 hours over her move, bob 3 days and 4 hours over his.
    for (at, who) in [(2 * 3600, "alice"), (2 * 3600 + 3 * DAY + 4 * 3600, "bob")] {
        env.now = NOW + at;
        let mv = env.stored_game(101).legal_moves()[0].clone();
        env.deliver(&eml(
            &format!("{who}@example.org"),
            &format!("limit move 101 {who} pw-{who} {mv}"),
            "",
        ));
        if who == "alice" {
            let mail = env.only_mail_to("alice@example.org");
            assert!(
                mail.body.contains("Time used:    alice 2h 0m, bob 0m\n"),
                "{}",
                mail.body
            );
        }
    }
    let mail = env.only_mail_to("alice@example.org");
    assert!(
        mail.body.contains("Time used:    alice 2h 0m, bob 3d 4h\n"),
        "{}",
        mail.body
    );
}

#[test]
fn the_admin_can_override_at_the_shell_and_every_override_is_recorded_with_its_reason() {
    let env = Env::new();
    env.players(&["alice", "bob", "carol"]);
    let admin = |args: &[&str]| {
        let out = env.cmd().args(args).output().unwrap();
        (
            out.status.code().unwrap(),
            String::from_utf8_lossy(&out.stdout).into_owned()
                + &String::from_utf8_lossy(&out.stderr),
        )
    };
    let shell = |line: &str| admin(&line.split_whitespace().collect::<Vec<_>>());
    shell("limit challenge alice bob"); // 101
    shell("limit challenge alice bob"); // 102
    shell("limit challenge alice bob"); // 103
    env.take_mails();

    // Undo: alice's first move taken back; everyone gets the board, the history says why.
    let mv = env.stored_game(101).legal_moves()[0].clone();
    env.deliver(&eml(
        "alice@example.org",
        &format!("limit move 101 alice pw-alice {mv}"),
        "",
    ));
    env.take_mails();
    let (code, text) = admin(&[
        "admin",
        "undo",
        "limit",
        "101",
        "--reason",
        "alice mistyped",
    ]);
    assert_eq!(code, 0, "{text}");
    assert_eq!(env.stored_moves(101).len(), 0);
    let mails = env.take_mails();
    assert_eq!(mails.len(), 2, "{mails:#?}");
    assert!(
        mails[0]
            .body
            .contains("The server's admin took back move 1"),
        "{}",
        mails[0].body
    );
    let (_, history) = shell("limit history 101");
    assert!(
        history.contains("took back move 1") && history.contains("alice mistyped"),
        "{history}"
    );

    // Replace: carol takes bob's seat, and agrees by it.
    let (code, text) = admin(&[
        "admin", "replace", "limit", "101", "bob", "carol", "--reason", "bob left",
    ]);
    assert_eq!(code, 0, "{text}");
    let (_, games) = shell("limit games carol");
    assert!(games.contains("Board 101: alice vs carol"), "{games}");
    let mails = env.take_mails();
    assert!(
        mails.iter().any(|m| m.to == ["carol@example.org"]),
        "{mails:#?}"
    );
    assert!(
        !mails.iter().any(|m| m.to == ["bob@example.org"]),
        "{mails:#?}"
    );

    // End: adjudicated (rated), or cancelled (not rated).
    let (code, text) = admin(&[
        "admin",
        "end",
        "limit",
        "102",
        "--winner",
        "bob",
        "--reason",
        "alice lost on time by mail",
    ]);
    assert_eq!(code, 0, "{text}");
    let (_, history) = shell("limit history");
    assert!(
        history.contains("Board 102: alice vs bob") && history.contains("Won by bob."),
        "{history}"
    );
    let (code, text) = admin(&[
        "admin",
        "end",
        "limit",
        "103",
        "--cancel",
        "--reason",
        "test game",
    ]);
    assert_eq!(code, 0, "{text}");
    let (_, one) = shell("limit history 103");
    assert!(
        one.contains("Cancelled by the server's admin, not rated"),
        "{one}"
    );
    let (_, history) = shell("limit history");
    assert!(
        history.contains("Board 103: alice vs bob") && history.contains("Not rated."),
        "{history}"
    );
    env.take_mails();

    // Password.
    let (code, text) = admin(&["admin", "password", "alice", "new-pw-alice"]);
    assert_eq!(code, 0, "{text}");
    assert!(shell("change password alice new-pw-alice pw-alice").0 == 0);

    // Refused: no reason, a finished game, a bad flag mix; and by mail, never.
    assert_eq!(
        admin(&["admin", "undo", "limit", "101", "--reason", " "]).0,
        1
    );
    assert_eq!(
        admin(&["admin", "undo", "limit", "102", "--reason", "x"]).0,
        1
    );
    assert_eq!(
        admin(&["admin", "end", "limit", "101", "--reason", "x"]).0,
        64
    );
    assert_eq!(
        admin(&[
            "admin", "end", "limit", "101", "--draw", "--cancel", "--reason", "x"
        ])
        .0,
        64
    );
    env.take_mails();
    env.deliver(&eml(
        "alice@example.org",
        "admin undo limit 101 --reason x",
        "",
    ));
    let answer = env.only_mail_to("alice@example.org");
    assert!(
        answer
            .body
            .contains("'admin' is the server admin's, at the shell"),
        "{}",
        answer.body
    );
    assert_eq!(env.stored_moves(101).len(), 0);
}

/// Each side's pawns on the board, from a stored game.
fn on_board(env: &Env) -> Vec<u64> {
    env.stored_game(101)
        .board_view()
        .sides
        .iter()
        .map(|s| u64::from(s.on_board))
        .collect()
}

#[test]
fn the_board_mail_says_which_pawns_were_captured() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    env.take_mails();
    let mut told = 0;
    for _ in 0..200 {
        let game = env.stored_game(101);
        let pbem::games::Status::ToMove(seat) = game.status() else {
            break;
        };
        let who = ["alice", "bob"][seat];
        let before = on_board(&env);
        // The last legal move: it removes a tile late in the list, which captures now and then.
        let mv = game.legal_moves().last().unwrap().clone();
        env.deliver(&eml(
            &format!("{who}@example.org"),
            &format!("limit move 101 {who} pw-{who} {mv}"),
            "",
        ));
        let after = on_board(&env);
        // Alice's copy (the mails are sorted by recipient): her news names bob's pawns and hers.
        let mail = env.take_mails().into_iter().next().unwrap();
        let news = mail
            .after_state()
            .lines()
            .next()
            .unwrap_or_default()
            .to_string();
        let mover_is_alice = who == "alice";
        for (side, owner) in [(0, "your"), (1, "bob's")] {
            let lost = before[side] - after[side];
            // Own pawns lost by the mover: `your own` (alice) or `their own` (bob).
            let owner = match (side == seat, mover_is_alice) {
                (true, true) => "your own",
                (true, false) => "their own",
                _ => owner,
            };
            let says = news
                .split(&format!("{owner} pawn"))
                .nth(1)
                .filter(|_| news.contains(" played "));
            match (lost, says) {
                (0, None) => {}
                (n, Some(rest)) => {
                    let cells = rest.split(" on ").nth(1).unwrap();
                    let cells = cells
                        .split([' ', ',', '.'])
                        .take_while(|w| !w.starts_with("captured") && !w.starts_with("lost"))
                        .filter(|w| w.parse::<u32>().is_ok())
                        .count();
                    assert_eq!(cells as u64, n, "{news}\n{}", mail.body);
                    told += 1;
                }
                (n, None) => panic!(
                    "side {side} lost {n} pawns and the mail does not say so:\n{}",
                    mail.body
                ),
            }
        }
    }
    assert!(
        told > 0,
        "no capture happened in the game: pick other moves"
    );
}

#[test]
fn an_old_position_and_an_open_proposal_say_so() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    for who in ["alice", "bob"] {
        let mv = env.stored_game(101).legal_moves()[0].clone();
        env.deliver(&eml(
            &format!("{who}@example.org"),
            &format!("limit move 101 {who} pw-{who} {mv}"),
            "",
        ));
    }
    env.take_mails();
    env.deliver(&eml("carol@example.net", "limit show 101#2", ""));
    let old = env.only_mail_to("carol@example.net");
    assert!(
        old.body
            .contains("This is board 101 as it was at move 2; the game is now at move 3."),
        "{}",
        old.body
    );

    env.deliver(&eml(
        "alice@example.org",
        "limit move 101 alice pw-alice propose draw",
        "",
    ));
    let mails = env.take_mails();
    let bob = mails.iter().find(|m| m.to == ["bob@example.org"]).unwrap();
    assert!(
        bob.body.contains("limit move 101 bob <password> accept"),
        "{}",
        bob.body
    );
    assert!(
        bob.body.contains("limit move 101 bob <password> reject"),
        "{}",
        bob.body
    );
}

#[test]
fn the_nag_says_what_the_forfeit_time_brings() {
    let mut env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    // On 102 bob has proposed a draw that alice leaves open.
    env.deliver(&eml(
        "bob@example.org",
        "limit move 102 bob pw-bob propose draw",
        "",
    ));
    env.take_mails();
    env.now = NOW + 7 * DAY;
    assert!(env.cmd().arg("cron").output().unwrap().status.success());
    let mails = env.take_mails();
    let nag = |board: u32| {
        mails
            .iter()
            .find(|m| m.first_line() == format!("Nag: Limit Board {board} alice"))
            .unwrap_or_else(|| panic!("no nag for {board}: {mails:#?}"))
            .flat_body()
    };
    assert!(
        nag(101).contains("After 21 days without a move you forfeit the game"),
        "{}",
        nag(101)
    );
    assert!(
        nag(102).contains(
            "After 21 days without a move the open draw proposal is accepted and the game is drawn"
        ),
        "{}",
        nag(102)
    );
}

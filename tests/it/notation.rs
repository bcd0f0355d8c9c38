//! Notation as players write it (issue 37, item 4): Ataxx jumps with a hyphen (`a7-c5`), an option's
//! value as a word of its own (`-size 9`), coordinates in either case (`D4` in Go), by mail with the
//! password and by a bare reply. Real `.eml` mails through `pbem ingest`, a real SQLite file.

use crate::common::{Env, eml};

/// How many entries the move list of Ataxx board 101 holds, as stored.
fn ataxx_moves(env: &Env) -> usize {
    env.stored_game_of("ataxx", 101).moves().len()
}

#[test]
fn an_option_value_as_its_own_word_and_a_hyphenated_jump_are_read() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml(
        "alice@example.org",
        "ataxx challenge -size 8 alice bob",
        "",
    ));
    let started = env.take_mails();
    let to_alice = started
        .iter()
        .find(|m| m.to == ["alice@example.org"])
        .unwrap_or_else(|| panic!("no board mail to alice: {started:#?}"));
    assert!(
        to_alice.body.contains("Options: -size=8"),
        "the game is 8x8 and the mail shows the option as written with =:\n{}",
        to_alice.body
    );
    // On 8x8 Black starts in a8 and h1: a8-c6 is a jump, written with a hyphen.
    env.deliver(&eml(
        "alice@example.org",
        "ataxx move 101 alice pw-alice a8-c6",
        "",
    ));
    let mails = env.take_mails();
    let to_bob = mails
        .iter()
        .find(|m| m.to == ["bob@example.org"])
        .unwrap_or_else(|| panic!("no board mail to bob: {mails:#?}"));
    assert!(to_bob.body.contains("alice played a8c6"), "{}", to_bob.body);
    // Bob answers by a bare reply, in capitals and with the hyphen.
    let reply = to_bob.reply_address();
    assert_eq!(ataxx_moves(&env), 1);
    env.deliver(&format!(
        "From: bob@example.org\r\nTo: {reply}\r\nSubject: Re: {}\r\nMessage-ID: <bob-1@example.org>\r\n\r\nH8-F6\r\n\r\n> the board\r\n",
        to_bob.subject
    ));
    let mails = env.take_mails();
    assert!(
        mails
            .iter()
            .any(|m| m.to == ["alice@example.org"] && m.body.contains("bob played h8f6")),
        "{mails:#?}"
    );
    assert_eq!(ataxx_moves(&env), 2);
}

#[test]
fn a_go_point_in_capitals_plays_by_mail_and_by_reply() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml(
        "alice@example.org",
        "go challenge -size 9 alice bob",
        "",
    ));
    env.take_mails();
    env.deliver(&eml(
        "alice@example.org",
        "go move 101 alice pw-alice D4",
        "",
    ));
    let mails = env.take_mails();
    let to_bob = mails
        .iter()
        .find(|m| m.to == ["bob@example.org"])
        .unwrap_or_else(|| panic!("no board mail to bob: {mails:#?}"));
    assert!(to_bob.body.contains("alice played d4"), "{}", to_bob.body);
    assert!(to_bob.body.contains("Options: -size=9"), "{}", to_bob.body);
    let reply = to_bob.reply_address();
    env.deliver(&format!(
        "From: bob@example.org\r\nTo: {reply}\r\nSubject: Re: {}\r\nMessage-ID: <bob-2@example.org>\r\n\r\nF6\r\n",
        to_bob.subject
    ));
    let mails = env.take_mails();
    assert!(
        mails
            .iter()
            .any(|m| m.to == ["alice@example.org"] && m.body.contains("bob played f6")),
        "{mails:#?}"
    );
}

#[test]
fn a_refused_jump_names_the_forms_that_work() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("alice@example.org", "ataxx challenge alice bob", ""));
    env.take_mails();
    env.deliver(&eml(
        "alice@example.org",
        "ataxx move 101 alice pw-alice a7-",
        "",
    ));
    let answer = env.only_mail_to("alice@example.org");
    let flat = crate::common::flat(&answer.body);
    assert!(flat.contains("a1c3 or a1-c3"), "{}", answer.body);
    assert_eq!(ataxx_moves(&env), 0);
}

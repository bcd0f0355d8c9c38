//! What a player writes in a reply (issue 37, item 1): the lines phones, mail apps and mutt add
//! (`Sent from my iPhone`, `* pbem <…> [date]:`, `bob writes:`) never become a comment the other
//! player reads. Real `.eml` replies to the signed Reply-To through `pbem ingest`.

use crate::common::{Env, Sent, eml};

/// Hex board 101 between alice (to move) and bob: alice's first board mail.
fn hex_started() -> (Env, Sent) {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("alice@example.org", "hex challenge alice bob", ""));
    let mails = env.take_mails();
    let to_alice = mails
        .iter()
        .find(|m| m.to == ["alice@example.org"])
        .unwrap_or_else(|| panic!("no board mail to alice: {mails:#?}"))
        .clone();
    (env, to_alice)
}

#[test]
fn signatures_and_attribution_lines_are_not_comments() {
    let bodies = [
        "c3\r\n\r\nSent from my iPhone\r\n\r\n> Hex Board 101\r\n",
        "c3\r\n\r\n* pbem <pbem@localhost> [2026-11-29 10:00]:\r\n> Hex Board 101\r\n> your move\r\n",
        "c3\r\n\r\nalice <alice@example.org> writes:\r\n> Hex Board 101\r\n",
        "c3\r\nGet Outlook for Android\r\n",
    ];
    for body in bodies {
        let (env, to_alice) = hex_started();
        let raw = format!(
            "From: alice@example.org\r\nTo: {}\r\nSubject: Re: {}\r\nMessage-ID: <a1@example.org>\r\n\r\n{body}",
            to_alice.reply_address(),
            to_alice.subject
        );
        env.deliver(&raw);
        let mails = env.take_mails();
        let to_bob = mails
            .iter()
            .find(|m| m.to == ["bob@example.org"])
            .unwrap_or_else(|| panic!("{body:?}: no board mail to bob: {mails:#?}"));
        assert!(
            to_bob.body.contains("alice played c3"),
            "{body:?}: {}",
            to_bob.body
        );
        assert!(
            !to_bob.first_line().contains("with a comment"),
            "{body:?}: {}",
            to_bob.subject
        );
        for line in ["Sent from", "pbem <", "writes:", "Outlook"] {
            assert!(
                !to_bob.body.contains(line),
                "{body:?}: bob's mail shows {line:?}:\n{}",
                to_bob.body
            );
        }
    }
}

/// A reply of words only is table talk (issue 37, item 1): it goes to the other player as a chat,
/// from the player on move or not, and in a game that is over; nothing is played, nothing is lost.
#[test]
fn a_reply_of_words_only_is_a_chat_to_the_other_player() {
    let (env, to_alice) = hex_started();
    let reply = |who: &str, to: &Sent, body: &str, id: &str| {
        format!(
            "From: {who}@example.org\r\nTo: {}\r\nSubject: Re: {}\r\nMessage-ID: <{id}@example.org>\r\n\r\n{body}\r\n\r\n> Hex Board 101\r\n",
            to.reply_address(),
            to.subject
        )
    };
    // alice, on move, writes words only.
    env.deliver(&reply(
        "alice",
        &to_alice,
        "Nice opening! Let me think about it.",
        "a-words",
    ));
    let mails = env.take_mails();
    let to_bob = mails
        .iter()
        .find(|m| m.to == ["bob@example.org"])
        .unwrap_or_else(|| panic!("no chat to bob: {mails:#?}"));
    assert!(
        to_bob.body.contains("Nice opening! Let me think about it."),
        "{}",
        to_bob.body
    );
    assert!(
        !mails
            .iter()
            .any(|m| m.subject.to_lowercase().contains("error")),
        "{mails:#?}"
    );
    // The writer gets one line saying where the words went, in the game's thread.
    let to_alice_now = mails
        .iter()
        .find(|m| m.to == ["alice@example.org"])
        .unwrap_or_else(|| panic!("no confirmation to alice: {mails:#?}"));
    assert_eq!(
        to_alice_now.body.trim(),
        "Your words went to bob as a chat on Hex Board 101; nothing was played."
    );
    assert!(to_alice_now.header("Reply-To").is_some());
    // Nothing was played: alice is still to move, and c3 plays now.
    env.deliver(&reply("alice", &to_alice, "c3", "a-move"));
    let mails = env.take_mails();
    let to_bob = mails
        .iter()
        .find(|m| m.to == ["bob@example.org"])
        .unwrap_or_else(|| panic!("no board mail to bob: {mails:#?}"))
        .clone();
    assert!(to_bob.body.contains("alice played c3"), "{}", to_bob.body);
    // alice, not on move, writes words only: a chat, not "not your turn".
    env.deliver(&reply("alice", &to_alice, "Take your time :)", "a-wait"));
    let mails = env.take_mails();
    assert!(
        mails
            .iter()
            .any(|m| m.to == ["bob@example.org"] && m.body.contains("Take your time :)")),
        "{mails:#?}"
    );
    assert!(
        !mails.iter().any(|m| m.body.contains("not your turn")),
        "{mails:#?}"
    );
    // A move gone wrong is still answered as a move: it says why.
    env.deliver(&reply("bob", &to_bob, "c33", "b-typo"));
    let mails = env.take_mails();
    assert!(
        mails.iter().any(|m| m.to == ["bob@example.org"]
            && m.body.starts_with("Your command was not carried out:")),
        "{mails:#?}"
    );
    // After the game: bob resigns, then alice writes words only on the game-over mail.
    env.deliver(&reply("bob", &to_bob, "resign", "b-resign"));
    let over = env.take_mails();
    let alice_over = over
        .iter()
        .find(|m| m.to == ["alice@example.org"])
        .unwrap_or_else(|| panic!("no game-over mail to alice: {over:#?}"))
        .clone();
    env.deliver(&reply("alice", &alice_over, "Good game! Rematch?", "a-gg"));
    let mails = env.take_mails();
    assert!(
        mails
            .iter()
            .any(|m| m.to == ["bob@example.org"] && m.body.contains("Good game! Rematch?")),
        "{mails:#?}"
    );
    assert!(
        !mails.iter().any(|m| m.body.contains("is over")),
        "{mails:#?}"
    );
}

/// An error answer about a player's own game is a mail of that game (issue 37, item 1): it threads
/// under the game's first mail, carries the player's signed Reply-To, and a corrected move written
/// as a bare reply to the error plays.
#[test]
fn an_error_answer_threads_into_the_game_and_a_bare_reply_to_it_plays() {
    let (env, to_alice) = hex_started();
    let raw = |to: &Sent, body: &str, id: &str| {
        format!(
            "From: alice@example.org\r\nTo: {}\r\nSubject: Re: {}\r\nMessage-ID: <{id}@example.org>\r\n\r\n{body}\r\n",
            to.reply_address(),
            to.subject
        )
    };
    env.deliver(&raw(&to_alice, "z99", "a-typo"));
    let error = env.only_mail_to("alice@example.org");
    assert!(
        error.body.starts_with("Your command was not carried out:"),
        "{}",
        error.body
    );
    // In the game's thread: under alice's first board mail of it, the thread's root.
    let root = to_alice.header("Message-ID").unwrap();
    let references = error.header("References").unwrap_or_default();
    assert!(
        references.contains(root.trim()),
        "References {references:?} lack the game's root {root:?}"
    );
    assert_eq!(
        error.header("Thread-Topic").as_deref(),
        Some("Hex Board 101")
    );
    // Her own signed Reply-To: the corrected move, bare, in reply to the error, plays.
    let signed = error.reply_address();
    assert!(signed.starts_with("pbem+"), "{signed}");
    env.deliver(&raw(&error, "c3", "a-fixed"));
    let mails = env.take_mails();
    assert!(
        mails
            .iter()
            .any(|m| m.to == ["bob@example.org"] && m.body.contains("alice played c3")),
        "{mails:#?}"
    );
}

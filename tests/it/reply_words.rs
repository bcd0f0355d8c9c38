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

/// The address in a mail's `Reply-To`.
fn reply_address(m: &Sent) -> String {
    let h = m
        .header("Reply-To")
        .unwrap_or_else(|| panic!("no Reply-To in\n{}", m.raw));
    h.rsplit_once('<')
        .map_or(h.as_str(), |(_, a)| a.trim_end_matches('>'))
        .to_string()
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
            reply_address(&to_alice),
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
            !to_bob.subject.contains("with a comment"),
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

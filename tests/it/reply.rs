//! Reply just works (issue 25, section 1): every board mail to a player carries a `Reply-To` of its
//! own (`pbem+<token>@localhost`), and a reply to it from the player's registered address holds
//! just the move, or any command of that game, without userid and password. Real `.eml` mails,
//! shaped as Gmail and Outlook send replies, through `pbem ingest`; a real SQLite file.

use crate::common::{Env, Sent, eml, flat, legal_moves_after};
use pbem::games::{Outcome, Status};

/// Alice and bob (and carol) signed up, board 101 started between alice and bob: the board mails
/// of the challenge, by player.
fn started() -> (Env, Sent, Sent) {
    let env = Env::new();
    env.players(&["alice", "bob", "carol"]);
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    let mails = env.take_mails();
    let of = |who: &str| {
        mails
            .iter()
            .find(|m| m.to == [format!("{who}@example.org")])
            .unwrap_or_else(|| panic!("no board mail to {who}: {mails:#?}"))
            .clone()
    };
    let (a, b) = (of("alice"), of("bob"));
    (env, a, b)
}

/// The address of a mail's `Reply-To`, which must be a signed one.
fn reply_address(m: &Sent) -> String {
    let h = m
        .header("Reply-To")
        .unwrap_or_else(|| panic!("no Reply-To in\n{}", m.raw));
    let addr = h
        .rsplit_once('<')
        .map_or(h.as_str(), |(_, a)| a.trim_end_matches('>'))
        .to_string();
    assert!(
        addr.starts_with("pbem+") && addr.ends_with("@localhost"),
        "{addr}"
    );
    addr
}

/// A Gmail reply: `text` above the attribution line and the quoted board mail.
fn gmail(from: &str, to: &str, subject: &str, text: &str, quoted: &str) -> String {
    let quote: String = quoted.lines().map(|l| format!("> {l}\n")).collect();
    let body = format!(
        "{text}\n\nOn Wed, Nov 18, 2026 at 11:06 AM pbem <pbem@localhost> wrote:\n\n{quote}"
    );
    reply_eml(from, to, &format!("Re: {subject}"), &body)
}

/// An Outlook reply: `text`, then the original mail unquoted after its separator.
fn outlook(from: &str, to: &str, subject: &str, text: &str, quoted: &str) -> String {
    let body = format!(
        "{text}\n\n-----Original Message-----\nFrom: pbem <pbem@localhost>\n\
         Sent: Wednesday, November 18, 2026 11:06 AM\nTo: {from}\nSubject: {subject}\n\n{quoted}"
    );
    reply_eml(from, to, &format!("RE: {subject}"), &body)
}

/// A plain-text mail from `from` to `to` (the signed reply address).
fn reply_eml(from: &str, to: &str, subject: &str, body: &str) -> String {
    eml(from, subject, body).replacen("To: pbem@localhost", &format!("To: pbem <{to}>"), 1)
}

/// The first legal move of the tests' game after `moves`.
fn first_move(moves: &[&str]) -> String {
    legal_moves_after(&[], 2, moves)[0].clone()
}

fn moves_played(env: &Env) -> Vec<String> {
    env.stored_moves(101).into_iter().map(|m| m.text).collect()
}

/// Everything a refused reply must leave as it was: the moves, the game, proposals, comments.
fn state(env: &Env) -> String {
    let c = env.sqlite();
    let game: String = c
        .query_row("SELECT state FROM game_states", [], |r| r.get(0))
        .unwrap();
    let counts: (i64, i64, i64) = c
        .query_row(
            "SELECT (SELECT COUNT(*) FROM comments), (SELECT COUNT(*) FROM proposals),
                    (SELECT COUNT(*) FROM messages)",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    format!("{game} {counts:?}")
}

#[test]
fn board_mails_of_different_players_carry_different_reply_addresses() {
    let (env, alice, bob) = started();
    let (a, b) = (reply_address(&alice), reply_address(&bob));
    assert_ne!(a, b);
    // Each player's token is in that player's mail alone, and only in its Reply-To.
    let token = |addr: &str| addr["pbem+".len()..addr.len() - "@localhost".len()].to_string();
    assert!(!bob.raw.contains(&token(&a)), "{}", bob.raw);
    assert!(!alice.raw.contains(&token(&b)), "{}", alice.raw);
    assert_eq!(alice.raw.matches(&token(&a)).count(), 1, "{}", alice.raw);
    // The next board mails keep each player's address for the board.
    let mv = first_move(&[]);
    env.deliver(&gmail(
        "alice@example.org",
        &a,
        &alice.subject,
        &mv,
        &alice.body,
    ));
    for m in env.take_mails() {
        let expected = if m.to == ["alice@example.org"] {
            &a
        } else {
            &b
        };
        assert_eq!(&reply_address(&m), expected);
    }
}

#[test]
fn a_reply_holding_just_the_move_is_played_gmail_and_outlook() {
    let (env, alice, bob) = started();
    let first = first_move(&[]);
    env.deliver(&gmail(
        "Alice <alice@example.org>",
        &reply_address(&alice),
        &alice.subject,
        &format!("{first}\n\nYour turn, Bob!"),
        &alice.body,
    ));
    assert_eq!(moves_played(&env), std::slice::from_ref(&first));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 2, "{mails:#?}");
    for m in &mails {
        assert!(m.body.contains("Your turn, Bob!"), "{}", m.body);
        assert!(!m.body.contains("reply-"), "{}", m.body);
    }
    // Outlook, with the move number it answers.
    let second = first_move(&[&first]);
    env.deliver(&outlook(
        "bob@example.org",
        &reply_address(&bob),
        &bob.subject,
        &format!("{second}#2"),
        &bob.body,
    ));
    assert_eq!(moves_played(&env), [first, second]);
}

#[test]
fn a_reply_move_with_a_stale_move_number_is_refused_as_a_written_one_is() {
    let (env, alice, _) = started();
    let before = state(&env);
    env.deliver(&gmail(
        "alice@example.org",
        &reply_address(&alice),
        &alice.subject,
        &format!("{}#5", first_move(&[])),
        &alice.body,
    ));
    assert_eq!(state(&env), before);
    let answer = env.only_mail_to("alice@example.org");
    assert!(
        answer.body.starts_with("Your command was not carried out:"),
        "{}",
        answer.body
    );
    // The word that stands for the token is never shown: the quoted command hides it.
    assert!(!answer.raw.contains("reply-"), "{}", answer.raw);
}

#[test]
fn resign_propose_draw_accept_and_show_by_reply() {
    let (env, alice, bob) = started();
    let (a, b) = (reply_address(&alice), reply_address(&bob));
    env.deliver(&gmail(
        "alice@example.org",
        &a,
        &alice.subject,
        "show",
        &alice.body,
    ));
    let shown = env.only_mail_to("alice@example.org");
    assert!(
        shown.body.contains("Summary of Limit Board 101"),
        "{}",
        shown.body
    );
    assert_eq!(moves_played(&env), Vec::<String>::new());

    env.deliver(&gmail(
        "bob@example.org",
        &b,
        &bob.subject,
        "propose draw",
        &bob.body,
    ));
    let count: i64 = env
        .sqlite()
        .query_row("SELECT COUNT(*) FROM proposals", [], |r| r.get(0))
        .unwrap();
    assert_eq!(count, 1);
    env.take_mails();
    env.deliver(&outlook(
        "alice@example.org",
        &a,
        &alice.subject,
        "accept",
        &alice.body,
    ));
    assert_eq!(
        env.stored_game(101).status(),
        Status::Over(Outcome::Draw(vec![0, 1]))
    );

    // A second game, resigned by reply.
    env.take_mails();
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    let mails = env.take_mails();
    let bob2 = mails
        .iter()
        .find(|m| m.to == ["bob@example.org"])
        .unwrap()
        .clone();
    let b2 = reply_address(&bob2);
    assert_ne!(b2, b, "each board has its own address");
    env.deliver(&gmail(
        "bob@example.org",
        &b2,
        &bob2.subject,
        "resign",
        &bob2.body,
    ));
    assert_eq!(
        env.stored_game(102).status(),
        Status::Over(Outcome::Winner(0))
    );
}

#[test]
fn a_reply_to_a_message_goes_back_to_its_writer() {
    let (env, _, _) = started();
    env.deliver(&eml(
        "bob@example.org",
        "message bob pw-bob alice",
        "Rematch after this one?",
    ));
    let to_alice = env.only_mail_to("alice@example.org");
    assert!(to_alice.body.contains("Rematch after this one?"));
    env.deliver(&gmail(
        "alice@example.org",
        &reply_address(&to_alice),
        &to_alice.subject,
        "Gladly.\n\nSame time control?",
        &to_alice.body,
    ));
    let to_bob = env.only_mail_to("bob@example.org");
    assert!(
        to_bob.body.contains("Gladly.\n\nSame time control?"),
        "{}",
        to_bob.body
    );
    // And bob's reply to that goes back to alice.
    env.deliver(&gmail(
        "bob@example.org",
        &reply_address(&to_bob),
        &to_bob.subject,
        "Same, yes.",
        &to_bob.body,
    ));
    let again = env.only_mail_to("alice@example.org");
    assert!(again.body.contains("Same, yes."), "{}", again.body);
    assert!(flat(&to_bob.body).contains("alice"), "{}", to_bob.body);
}

/// The answer a reply gets when its token does not hold: asking for the password, as before.
fn assert_asked_for_password(env: &Env, to: &str, before: &str) {
    assert_eq!(state(env), before, "the refused reply changed something");
    let answer = env.only_mail_to(to);
    assert!(
        answer.body.contains("<password>") && !answer.body.contains("Summary of"),
        "the answer does not ask for the password:\n{}",
        answer.body
    );
}

#[test]
fn wrong_stale_foreign_and_misplaced_tokens_get_the_password_answer() {
    let (env, alice, bob) = started();
    let mv = first_move(&[]);
    let a = reply_address(&alice);
    let before = state(&env);

    // One hex digit of the token changed.
    let last = a.find('@').unwrap() - 1;
    let flipped = if &a[last..=last] == "0" { "1" } else { "0" };
    let wrong = format!("{}{flipped}{}", &a[..last], &a[last + 1..]);
    env.deliver(&gmail(
        "alice@example.org",
        &wrong,
        &alice.subject,
        &mv,
        &alice.body,
    ));
    assert_asked_for_password(&env, "alice@example.org", &before);

    // Alice's token, sent by carol (a registered player) and by a stranger.
    env.deliver(&gmail(
        "carol@example.org",
        &a,
        &alice.subject,
        &mv,
        &alice.body,
    ));
    assert_asked_for_password(&env, "carol@example.org", &before);
    env.deliver(&gmail(
        "mallory@example.net",
        &a,
        &alice.subject,
        &mv,
        &alice.body,
    ));
    assert_asked_for_password(&env, "mallory@example.net", &before);

    // Bob's token from alice's address.
    env.deliver(&gmail(
        "alice@example.org",
        &reply_address(&bob),
        &alice.subject,
        &mv,
        &alice.body,
    ));
    assert_asked_for_password(&env, "alice@example.org", &before);

    // From alice, but answers to go elsewhere.
    let elsewhere = gmail("alice@example.org", &a, &alice.subject, &mv, &alice.body).replacen(
        "From: alice@example.org",
        "From: alice@example.org\r\nReply-To: mallory@example.net",
        1,
    );
    env.deliver(&elsewhere);
    assert_asked_for_password(&env, "mallory@example.net", &before);

    // Stale: alice changed her password since the mail.
    env.deliver(&eml(
        "alice@example.org",
        "change password alice pw-alice pw-alice-2",
        "",
    ));
    env.take_mails();
    env.deliver(&gmail(
        "alice@example.org",
        &a,
        &alice.subject,
        &mv,
        &alice.body,
    ));
    assert_asked_for_password(&env, "alice@example.org", &before);
    assert_eq!(moves_played(&env), Vec::<String>::new());

    // Written password commands keep working, and the new board mail's address does.
    env.deliver(&eml(
        "alice@example.org",
        &format!("limit move 101 alice pw-alice-2 {mv}"),
        "",
    ));
    assert_eq!(moves_played(&env), std::slice::from_ref(&mv));
    let new_alice = env.only_mail_to("alice@example.org");
    assert_ne!(reply_address(&new_alice), a);
}

#[test]
fn a_password_set_after_a_reset_makes_the_old_addresses_stale() {
    let (env, alice, _) = started();
    let a = reply_address(&alice);
    let mv = first_move(&[]);
    env.deliver(&eml("alice@example.org", "password reset alice", ""));
    let code_mail = env
        .take_mails()
        .into_iter()
        .find(|m| m.subject == "pbem password reset alice")
        .expect("the code mail");
    let code = code_mail
        .body
        .split_whitespace()
        .skip_while(|w| *w != "set")
        .nth(2)
        .unwrap_or_else(|| panic!("no code in\n{}", code_mail.body))
        .to_string();
    // The request alone (anyone may send it) leaves the address working: `show` by reply.
    env.deliver(&gmail(
        "alice@example.org",
        &a,
        &alice.subject,
        "show",
        &alice.body,
    ));
    let shown = env.only_mail_to("alice@example.org");
    assert!(
        shown.body.contains("Summary of Limit Board 101"),
        "{}",
        shown.body
    );
    let before = state(&env);
    env.deliver(&eml(
        "alice@example.org",
        &format!("password set alice {code} pw-alice-3"),
        "",
    ));
    env.take_mails();
    env.deliver(&gmail(
        "alice@example.org",
        &a,
        &alice.subject,
        &mv,
        &alice.body,
    ));
    assert_asked_for_password(&env, "alice@example.org", &before);
}

#[test]
fn a_reply_is_one_command_so_a_move_below_a_password_change_is_its_comment() {
    let (env, alice, _) = started();
    let mv = first_move(&[]);
    // One reply, one command (issue 34): the first line that reads as a command runs, the move
    // below it is no second command (before, it ran, and was refused inside the lock because the
    // change had moved the account's reply generation on).
    env.deliver(&gmail(
        "alice@example.org",
        &reply_address(&alice),
        &alice.subject,
        &format!("change password alice pw-alice pw-alice-4\n{mv}"),
        &alice.body,
    ));
    assert_eq!(moves_played(&env), Vec::<String>::new());
    let answers = env.take_mails();
    assert_eq!(answers.len(), 1, "{answers:#?}");
    assert_eq!(answers[0].subject, "pbem password changed");
    // The token is stale now: the same reply address asks for the password.
    let before = state(&env);
    env.deliver(&gmail(
        "alice@example.org",
        &reply_address(&alice),
        &alice.subject,
        &mv,
        &alice.body,
    ));
    assert_asked_for_password(&env, "alice@example.org", &before);
}

/// The client-shaped mails of `tests/fixtures/mail/` (a Gmail reply with its HTML part and
/// wrapped attribution line, an Outlook reply with the original below its separator), sent to
/// the signed addresses with just the move where their password command was.
#[test]
fn the_fixtures_gmail_and_outlook_replies_play_with_just_the_move() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    // Bob moves first here: the Gmail fixture is his.
    env.deliver(&eml("bob@example.org", "limit challenge bob alice", ""));
    let mails = env.take_mails();
    let to = |who: &str| {
        reply_address(
            mails
                .iter()
                .find(|m| m.to == [format!("{who}@example.org")])
                .unwrap(),
        )
    };
    let fixture = |name: &str| {
        std::fs::read_to_string(format!(
            "{}/tests/fixtures/mail/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    };
    let first = first_move(&[]);
    let gmail = fixture("reply_gmail.eml")
        .replacen(
            "To: Pbem Server <pbem@example.org>",
            &format!("To: Pbem Server <{}>", to("bob")),
            1,
        )
        .replace(
            "ltr\">limit move 101 bob hunter2 9-5,2<div>",
            &format!("ltr\">{first}<div>"),
        )
        .replacen(
            "limit move 101 bob hunter2 9-5,2\n",
            &format!("{first}\n"),
            1,
        );
    env.deliver(&gmail);
    assert_eq!(moves_played(&env), std::slice::from_ref(&first));
    let to_alice = env.only_mail_to("alice@example.org");
    assert!(to_alice.body.contains("Nice one."), "{}", to_alice.body);

    let second = first_move(&[&first]);
    let outlook = fixture("reply_outlook_original.eml")
        .replacen(
            "To: \"'Pbem Server'\" <pbem@example.org>",
            &format!("To: \"'Pbem Server'\" <{}>", to("alice")),
            1,
        )
        .replacen(
            "limit move 101 alice secret 6-2,8\n",
            &format!("{second}\n"),
            1,
        );
    env.deliver(&outlook);
    // The original's `limit resign 101 alice secret`, below the separator, is not acted on.
    assert_eq!(moves_played(&env), [first, second]);
}

#[test]
fn a_reminder_carries_the_players_reply_address_and_a_reply_to_it_moves() {
    let (mut env, alice, _) = started();
    // Day 7 without a move: `pbem cron` reminds alice, who is to move.
    env.now += 7 * 86_400;
    let out = env.cmd().arg("cron").output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let nag = env.only_mail_to("alice@example.org");
    let address = reply_address(&nag);
    assert_eq!(
        address,
        reply_address(&alice),
        "one address a player and board"
    );
    let mv = first_move(&[]);
    env.deliver(&gmail(
        "alice@example.org",
        &address,
        &nag.subject,
        &mv,
        &nag.body,
    ));
    assert_eq!(moves_played(&env), std::slice::from_ref(&mv));
}

//! One reply never floods a player, and a player who proved who they are is never silenced (issue
//! 34, items 1 and 4, and item 5's Subject that reads as a command). Real `.eml` mails through the
//! real `pbem ingest`, a real SQLite file; replies to the signed `Reply-To` addresses of board and
//! message mails.

use crate::common::{Env, NOW, Sent, eml, legal_moves_after};

const MALLORY: &str = "mallory@evil.example";
const ALICE: &str = "alice@example.org";

/// The address of a mail's `Reply-To`, which must be a signed one.
fn reply_address(m: &Sent) -> String {
    let h = m
        .header("Reply-To")
        .unwrap_or_else(|| panic!("no Reply-To in\n{}", m.raw));
    let addr = h
        .rsplit_once('<')
        .map_or(h.as_str(), |(_, a)| a.trim_end_matches('>'))
        .to_string();
    assert!(addr.starts_with("pbem+"), "{addr}");
    addr
}

/// A Gmail-shaped reply from `from` to the signed address `to`: `text` above the quoted mail.
fn reply(from: &str, to: &str, subject: &str, text: &str, quoted: &str) -> String {
    let quote: String = quoted.lines().map(|l| format!("> {l}\n")).collect();
    let body = format!(
        "{text}\n\nOn Wed, Nov 18, 2026 at 11:06 AM pbem <pbem@localhost> wrote:\n\n{quote}"
    );
    eml(from, subject, &body).replacen("To: pbem@localhost", &format!("To: pbem <{to}>"), 1)
}

fn to(mails: &[Sent], address: &str) -> Vec<Sent> {
    mails
        .iter()
        .filter(|m| m.to.iter().any(|t| t == address))
        .cloned()
        .collect()
}

fn comments(env: &Env) -> i64 {
    env.sqlite()
        .query_row("SELECT COUNT(*) FROM comments", [], |r| r.get(0))
        .unwrap()
}

/// The attack of issue 34 as written: a stranger signs up, challenges alice, and replies to his own
/// board mail with hundreds of `chat` lines, again and again, and once more after alice declined.
#[test]
fn a_strangers_reply_of_998_chat_lines_floods_nobody() {
    let mut env = Env::new();
    env.players(&["alice"]);
    env.deliver(&eml(MALLORY, "signup mallory pw-mallory", ""));
    env.deliver(&eml(
        MALLORY,
        "limit challenge --password=pw-mallory mallory alice",
        "",
    ));
    let mails = env.take_mails();
    let board = to(&mails, MALLORY)
        .into_iter()
        .find(|m| m.subject.starts_with("Limit Board 101"))
        .unwrap_or_else(|| panic!("no board mail to mallory: {mails:#?}"));
    assert_eq!(to(&mails, ALICE).len(), 1, "alice got the new game");
    let address = reply_address(&board);
    // Every `chat` line was a chat carrying the mail's other line.
    let attack = format!("{}Nice game you have there.", "chat\n".repeat(998));

    // One attack mail.
    env.deliver(&reply(
        MALLORY,
        &address,
        &format!("Re: {}", board.subject),
        &attack,
        &board.body,
    ));
    let mails = env.take_mails();
    let first = to(&mails, ALICE).len();
    println!(
        "one reply of 998 `chat` lines: {first} mails to alice, {} in all, {} comments stored",
        mails.len(),
        comments(&env)
    );
    assert!(comments(&env) <= 20, "at most 20 commands run");
    assert!(mails.len() <= 21, "{} mails", mails.len());
    assert_eq!(first, 1, "one chat: the other lines are its comment");

    // Forty more in the same day, each a new mail: alice gets at most 30 chats from mallory a day.
    let mut in_the_day = first;
    let mut refusal = None;
    for i in 0..40 {
        env.now = NOW + 60 * (i + 1);
        env.deliver(&reply(
            MALLORY,
            &address,
            &format!("Re: {}", board.subject),
            &attack,
            &board.body,
        ));
        let mails = env.take_mails();
        in_the_day += to(&mails, ALICE).len();
        if refusal.is_none() {
            refusal = to(&mails, MALLORY)
                .into_iter()
                .find(|m| m.body.starts_with("Your command was not carried out:"));
        }
    }
    println!("41 such replies in a day: {in_the_day} mails to alice");
    assert_eq!(
        in_the_day, 30,
        "the daily cap of chats from one player to another"
    );
    let refusal = refusal.expect("mallory is told why his chat was not sent");
    assert!(
        crate::common::flat(&refusal.body).contains(
            "You have sent alice 30 chats and messages in the last 24 hours, as many as one \
             player may send another in a day, so this chat was not sent (to anyone). You can \
             write to alice again after 2026-11-19 11:06 UTC."
        ),
        "{}",
        refusal.body
    );

    // The next day alice declines the game; mallory never moved in it, so it carries no more
    // chats from him.
    env.now = NOW + 86_400 + 3600;
    env.deliver(&eml(ALICE, "limit move 101 alice pw-alice reject", ""));
    env.take_mails();
    env.deliver(&reply(
        MALLORY,
        &address,
        &format!("Re: {}", board.subject),
        "chat\nYou cannot get rid of me.",
        &board.body,
    ));
    let mails = env.take_mails();
    assert_eq!(to(&mails, ALICE).len(), 0, "{mails:#?}");
    let answer = to(&mails, MALLORY);
    assert_eq!(answer.len(), 1, "{mails:#?}");
    assert!(
        crate::common::flat(&answer[0].body).contains(
            "Limit Board 101 is over and mallory never moved in it, so it carries no chat from \
             mallory: nothing was sent."
        ),
        "{}",
        answer[0].body
    );
}

/// Alice and bob signed up, board 101 started between them: alice's board mail.
fn started() -> (Env, Sent, Sent) {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml(ALICE, "limit challenge alice bob", ""));
    let mails = env.take_mails();
    let of = |who: &str| to(&mails, &format!("{who}@example.org"))[0].clone();
    let (a, b) = (of("alice"), of("bob"));
    (env, a, b)
}

#[test]
fn in_a_reply_the_first_command_is_the_command_and_the_rest_its_comment() {
    let (env, alice, _) = started();
    let address = reply_address(&alice);
    let mv = legal_moves_after(&[], 2, &[])[0].clone();
    let subject = format!("Re: {}", alice.subject);

    // `chat` over a move: a chat saying the move, and nothing played.
    env.deliver(&reply(
        ALICE,
        &address,
        &subject,
        &format!("chat\n{mv}"),
        &alice.body,
    ));
    assert!(
        env.stored_moves(101).is_empty(),
        "the move line is the chat"
    );
    let mails = env.take_mails();
    assert_eq!(mails.len(), 2, "{mails:#?}");
    for m in &mails {
        assert!(
            !m.body.starts_with("Your command was not carried out:"),
            "{}: {}",
            m.subject,
            m.body
        );
        // The other player reads the words; the writer gets one line saying where they went.
        if m.body.starts_with("Your words went to") {
            assert!(m.to.iter().any(|t| t.starts_with("alice@")), "{m:#?}");
        } else {
            assert!(m.body.contains(&mv), "{}", m.body);
        }
    }

    // `chat` over words that are no move: one chat, no error mail.
    env.deliver(&reply(
        ALICE,
        &address,
        &subject,
        "chat\nk1 27",
        &alice.body,
    ));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 2, "{mails:#?}");
    assert!(
        mails
            .iter()
            .all(|m| !m.body.starts_with("Your command was not carried out:")),
        "{mails:#?}"
    );
    let to_bob = to(&mails, "bob@example.org");
    assert!(to_bob[0].body.contains("k1 27"), "{}", to_bob[0].body);

    // Words above the move: the move is played, the words are its comment.
    env.deliver(&reply(
        ALICE,
        &address,
        &subject,
        &format!("Here goes.\n{mv}\nshow"),
        &alice.body,
    ));
    let played: Vec<String> = env.stored_moves(101).into_iter().map(|m| m.text).collect();
    assert_eq!(played, [mv]);
    let mails = env.take_mails();
    assert_eq!(mails.len(), 2, "one move, no `show` answer: {mails:#?}");
    let to_bob = to(&mails, "bob@example.org");
    assert!(
        to_bob[0].body.contains("Here goes.") && to_bob[0].body.contains("show"),
        "{}",
        to_bob[0].body
    );
}

#[test]
fn a_reply_whose_subject_reads_as_a_command_is_the_reply() {
    let (env, _, _) = started();
    env.deliver(&eml(
        "bob@example.org",
        "message bob pw-bob alice",
        "Rematch after this one?",
    ));
    let message = env.only_mail_to(ALICE);
    // A client (or a server named "") leaves `message from bob`: it reads as a command.
    env.deliver(&reply(
        ALICE,
        &reply_address(&message),
        "Re: message from bob",
        "Gladly.",
        &message.body,
    ));
    let mails = env.take_mails();
    let to_bob = to(&mails, "bob@example.org");
    assert_eq!(to_bob.len(), 1, "{mails:#?}");
    assert!(to_bob[0].body.contains("Gladly."), "{}", to_bob[0].body);
    assert!(
        to(&mails, ALICE)
            .iter()
            .all(|m| !m.body.starts_with("Your command was not carried out:")),
        "{mails:#?}"
    );
}

#[test]
fn a_board_reply_whose_subject_reads_as_a_command_plays_its_move() {
    let (env, alice, _) = started();
    let mv = legal_moves_after(&[], 2, &[])[0].clone();
    env.deliver(&reply(
        ALICE,
        &reply_address(&alice),
        "Re: help",
        &mv,
        &alice.body,
    ));
    let played: Vec<String> = env.stored_moves(101).into_iter().map(|m| m.text).collect();
    assert_eq!(played, [mv]);
    let mails = env.take_mails();
    assert!(
        mails.iter().all(|m| !m.subject.contains("help")),
        "{mails:#?}"
    );
}

/// How many of these mails from alice got an error answer, each a minute after the last.
fn answered(env: &mut Env, mails: &[String]) -> usize {
    let mut n = 0;
    for m in mails {
        env.now += 60;
        env.deliver(m);
        let answers = env.take_mails();
        n += to(&answers, ALICE)
            .iter()
            .filter(|a| a.body.starts_with("Your command was not carried out:"))
            .count();
    }
    n
}

#[test]
fn a_player_who_proves_who_they_are_is_never_silenced() {
    let (mut env, alice, _) = started();
    let address = reply_address(&alice);
    let subject = format!("Re: {}", alice.subject);
    // Eight mistakes with the right password, each written differently: a move that is not one,
    // and a mistyped command word (the password is found by checking it).
    let with_password: Vec<String> = (1..=8)
        .map(|i| match i % 2 {
            0 => eml(
                ALICE,
                &format!("limit move 101 alice pw-alice 99-{i},1"),
                "",
            ),
            _ => eml(ALICE, &format!("limt move 101 alice pw-alice 9-{i},1"), ""),
        })
        .collect();
    let n = answered(&mut env, &with_password);
    println!("mistakes with the right password: {n} of 8 answered");
    assert_eq!(n, 8);

    // Eight replies to her signed reply address, each a different word that is no move.
    let replies: Vec<String> = (1..=8)
        .map(|i| reply(ALICE, &address, &subject, &format!("zz{i}"), &alice.body))
        .collect();
    let n = answered(&mut env, &replies);
    println!("replies to the signed address with no move: {n} of 8 answered");
    assert_eq!(n, 8);

    // Mails that prove nothing still make the address quiet after five error answers.
    let unproved: Vec<String> = (1..=8)
        .map(|i| eml(ALICE, &format!("limit frobnicate {i}"), ""))
        .collect();
    let n = answered(&mut env, &unproved);
    println!("mistakes without a password: {n} of 8 answered");
    assert_eq!(n, 5);
}

#[test]
fn the_same_text_again_is_kept_quiet_even_with_the_right_password() {
    let mut env = Env::new();
    env.players(&["alice"]);
    // A loop that sends the same mail, password and all: the first is answered, the repeats count
    // as automatic (five error answers, then quiet).
    let same: Vec<String> = (0..10)
        .map(|_| eml(ALICE, "limit move 101 alice pw-alice 3-7,4", ""))
        .collect();
    let n = answered(&mut env, &same);
    println!("the same mail with the right password ten times: {n} answered");
    assert_eq!(n, 6);
}

#[test]
fn a_right_password_under_someone_elses_reply_to_spares_nothing() {
    let mut env = Env::new();
    env.players(&["alice"]);
    env.deliver(&eml(MALLORY, "signup mallory pw-mallory", ""));
    env.take_mails();
    // mallory's own password proves who mallory is, not that alice's address is his: the answers
    // go to alice, and are kept quiet after five as any mail's that proves nothing.
    let mails: Vec<String> = (1..=8)
        .map(|i| {
            eml(
                MALLORY,
                &format!("limit move 10{i} mallory pw-mallory 3-7,4"),
                "",
            )
            .replacen(
                "\r\nSubject: ",
                &format!("\r\nReply-To: {ALICE}\r\nSubject: "),
                1,
            )
        })
        .collect();
    let n = answered(&mut env, &mails);
    println!("mallory's mistakes with his password under alice's Reply-To: {n} of 8 answered");
    assert_eq!(n, 5);
}

#[test]
fn a_game_that_is_over_takes_chats_only_from_players_who_moved_in_it() {
    let (env, _, _) = started();
    let mv = legal_moves_after(&[], 2, &[])[0].clone();
    env.deliver(&eml(
        ALICE,
        &format!("limit move 101 alice pw-alice {mv}"),
        "",
    ));
    env.deliver(&eml("bob@example.org", "limit resign 101 bob pw-bob", ""));
    env.take_mails();
    // alice moved in the game: her chat goes to bob.
    env.deliver(&eml(ALICE, "limit chat 101 alice pw-alice", "Good game."));
    let mails = env.take_mails();
    let to_bob = to(&mails, "bob@example.org");
    assert_eq!(to_bob.len(), 1, "{mails:#?}");
    assert!(to_bob[0].body.contains("Good game."), "{}", to_bob[0].body);
    // bob resigned without a move of his own: his chat is refused, and alice gets nothing.
    env.deliver(&eml(
        "bob@example.org",
        "limit chat 101 bob pw-bob",
        "Rematch?",
    ));
    let mails = env.take_mails();
    assert!(to(&mails, ALICE).is_empty(), "{mails:#?}");
    let answer = to(&mails, "bob@example.org");
    assert_eq!(answer.len(), 1, "{mails:#?}");
    assert!(
        crate::common::flat(&answer[0].body)
            .contains("Limit Board 101 is over and bob never moved in it"),
        "{}",
        answer[0].body
    );
}

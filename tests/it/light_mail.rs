//! End-to-end (issue 37, section 2): one light mail a move. A board mail shows the last few moves
//! and the count, with one line saying how to get the whole record; its text part begins with the
//! bare reply, then the password form, one line each, and its HTML part says the same in the same
//! order, beginning with the same state line. Real `.eml` messages through `pbem ingest`, a real
//! SQLite file, the mails read back from the file transport.

use crate::common::{Env, Sent, eml};

fn to<'a>(mails: &'a [Sent], who: &str) -> &'a Sent {
    let found: Vec<&Sent> = mails
        .iter()
        .filter(|m| m.to.iter().any(|t| t == who))
        .collect();
    assert_eq!(found.len(), 1, "{mails:#?}");
    found[0]
}

/// The lines of a board mail's move list: from its `Moves` heading to the blank line after it.
fn move_section(body: &str) -> Vec<&str> {
    let mut lines = body.lines().skip_while(|l| !l.starts_with("Moves"));
    let mut out: Vec<&str> = lines.next().into_iter().collect();
    out.extend(lines.take_while(|l| !l.is_empty()));
    out
}

/// The HTML part of a mail, decoded.
fn html(mail: &Sent) -> String {
    mail_parser::MessageParser::default()
        .parse(mail.raw.as_bytes())
        .unwrap()
        .body_html(0)
        .expect("an HTML part")
        .into_owned()
}

#[test]
fn a_long_go_game_mails_the_last_six_moves_and_how_to_get_them_all() {
    let env = Env::new().with_config("[web]\nbase_url = \"https://games.example.org/pbem\"\n");
    env.players(&["alice", "bob"]);
    env.deliver(&eml("alice@example.org", "go challenge alice bob", ""));
    env.take_mails();
    let mut sizes = Vec::new();
    let mut last = Vec::new();
    for turn in 0..40 {
        let g = env.stored_game_of("go", 101);
        let who = ["alice", "bob"][turn % 2];
        let mv = g
            .legal_moves()
            .into_iter()
            .find(|m| m != "pass")
            .expect("a point to play");
        env.deliver(&eml(
            &format!("{who}@example.org"),
            &format!("go move 101 {who} pw-{who} {mv}"),
            "",
        ));
        last = env.take_mails();
        let other = ["bob", "alice"][turn % 2];
        sizes.push(move_section(&to(&last, &format!("{other}@example.org")).body).len());
    }
    let bob = to(&last, "bob@example.org");
    let section = move_section(&bob.body);
    assert_eq!(section[0], "Moves (40 in all; the last 6):", "{}", bob.body);
    assert!(section[1].trim_start().starts_with("35. "), "{section:#?}");
    assert!(section[6].trim_start().starts_with("40. "), "{section:#?}");
    // One sentence, wrapped at 72 columns between words (the address stays whole).
    assert_eq!(
        crate::common::flat(&section[7..].join("\n")),
        "All 40 moves: send `go history 101`, or see https://games.example.org/pbem/go/101",
        "{}",
        bob.body
    );
    assert!(section.iter().all(|l| l.len() <= 72), "{section:#?}");
    assert_eq!(section.len(), 9, "{section:#?}");
    // From the seventh move on, the list no longer grows with the game.
    assert!(sizes[6..].iter().all(|&n| n == 9), "{sizes:?}");
    // The HTML part shows the same few moves.
    let page = html(bob);
    assert!(page.contains("Moves (40 in all; the last 6):"), "{page}");
    assert!(!page.contains("   34. "), "{page}");
    // The whole record is where the line says.
    env.deliver(&eml("bob@example.org", "go history 101", ""));
    let history = env.only_mail_to("bob@example.org");
    for n in 1..=40 {
        assert!(
            history.body.contains(&format!("\n{n:>5}. ")),
            "move {n} missing from:\n{}",
            history.body
        );
    }
}

#[test]
fn the_bare_reply_comes_first_then_the_password_form_in_text_and_html_alike() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("alice@example.org", "hex challenge alice bob", ""));
    env.take_mails();
    env.deliver(&eml(
        "alice@example.org",
        "hex move 101 alice pw-alice c3",
        "",
    ));
    let mails = env.take_mails();
    let bob = to(&mails, "bob@example.org");
    let lines: Vec<&str> = bob.body.lines().collect();
    assert_eq!(lines[0], "Hex Board 101: your move", "{}", bob.body);
    let at = |want: &str| {
        lines
            .iter()
            .position(|l| *l == want)
            .unwrap_or_else(|| panic!("no line {want:?} in:\n{}", bob.body))
    };
    // One line of words, then the lines to send: the move alone, then the command.
    let bare = at("Your move, bob: reply with just your move, one of these for example:");
    let moves: Vec<&str> = lines[bare + 1..]
        .iter()
        .take_while(|l| l.starts_with("    "))
        .map(|l| l.trim())
        .collect();
    assert_eq!(moves.len(), 2, "{}", bob.body);
    assert!(moves.contains(&"swap"), "{moves:?}");
    let form = at("Or send one of these lines as the Subject, with your password:");
    assert_eq!(form, bare + 3, "{}", bob.body);
    for (k, mv) in moves.iter().enumerate() {
        assert_eq!(
            lines[form + 1 + k],
            format!("    hex move 101 bob <password> {mv}#2"),
            "{}",
            bob.body
        );
    }
    assert!(form < at("Summary of Hex Board 101"));
    // The HTML part: the same state line first, then the same words in the same order.
    let page = html(bob);
    let body = &page[page.find("<body>").unwrap()..];
    let find = |s: &str| {
        body.find(s)
            .unwrap_or_else(|| panic!("{s:?} missing from the HTML part:\n{body}"))
    };
    let state = find("Hex Board 101: your move");
    assert!(
        body[..state]
            .find("<p")
            .is_some_and(|p| body[p..state].len() < 40),
        "the state line is not the first paragraph:\n{body}"
    );
    let news = find("alice played c3.");
    let reply = find("Your move, bob: reply with just your move");
    let bare_move = find(&format!("<code>{}</code>", moves[0]));
    let password = find("Or send one of these lines as the Subject");
    let command = find("<code>hex move 101 bob &lt;password&gt;");
    let picture = find("<img");
    assert!(
        state < news
            && news < reply
            && reply < bare_move
            && bare_move < password
            && password < command
            && command < picture,
        "{body}"
    );
}

#[test]
fn a_player_who_chose_subject_state_gets_no_state_line_in_either_part() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("bob@example.org", "set bob pw-bob subject state", ""));
    env.deliver(&eml("alice@example.org", "hex challenge alice bob", ""));
    env.take_mails();
    env.deliver(&eml(
        "alice@example.org",
        "hex move 101 alice pw-alice c3",
        "",
    ));
    let mails = env.take_mails();
    let bob = to(&mails, "bob@example.org");
    assert_eq!(bob.subject, "Hex Board 101: your move");
    assert_eq!(bob.first_line(), "alice played c3.", "{}", bob.body);
    let page = html(bob);
    assert!(!page.contains("class=\"state\""), "{page}");
    assert!(page.contains("alice played c3."), "{page}");
}

#[test]
fn show_answers_under_the_games_one_subject_with_the_state_first_and_subject_state_keeps_it() {
    let env = Env::new();
    env.players(&["alice", "bob", "carol"]);
    env.deliver(&eml("alice@example.org", "hex challenge alice bob", ""));
    let firsts = env.take_mails();
    let alice_root = to(&firsts, "alice@example.org")
        .header("Message-ID")
        .unwrap();
    env.deliver(&eml(
        "alice@example.org",
        "hex move 101 alice pw-alice c3",
        "",
    ));
    env.take_mails();
    // A player of the game: the game's Subject, "your move" first, in the game's thread, with a
    // Reply-To of their own (a bare move in reply to it plays).
    env.deliver(&eml("bob@example.org", "hex show 101", ""));
    let bob = env.only_mail_to("bob@example.org");
    assert_eq!(bob.subject, "Hex Board 101");
    assert_eq!(bob.first_line(), "Hex Board 101: your move", "{}", bob.body);
    assert!(bob.after_state().starts_with("Summary of Hex Board 101\n"));
    assert!(bob.reply_address().starts_with("pbem+"), "{:?}", bob.raw);
    env.deliver(
        &eml("bob@example.org", "Re: Hex Board 101", "d4\n").replace(
            "To: pbem@localhost",
            &format!("To: {}", bob.reply_address()),
        ),
    );
    env.take_mails();
    assert_eq!(
        env.stored_game_of("hex", 101).moves().len(),
        2,
        "the bare reply to show played"
    );
    // Someone else: the same Subject, the state as anyone reads it.
    env.deliver(&eml("carol@example.org", "hex show 101", ""));
    let carol = env.only_mail_to("carol@example.org");
    assert_eq!(carol.subject, "Hex Board 101");
    assert_eq!(carol.first_line(), "Hex Board 101: alice to move");
    // `subject state`: the state in the Subject, as before.
    env.deliver(&eml(
        "alice@example.org",
        "set alice pw-alice subject state",
        "",
    ));
    env.take_mails();
    env.deliver(&eml("alice@example.org", "hex show 101", ""));
    let alice = env.only_mail_to("alice@example.org");
    assert_eq!(alice.subject, "Hex Board 101: your move");
    assert_eq!(alice.first_line(), "Summary of Hex Board 101");
    // In the thread of her board mails: their first one is among the answer's References.
    let references = alice.header("References").unwrap_or_default();
    assert!(
        references.contains(&alice_root),
        "{references} lacks {alice_root}"
    );
}

/// A reminder says, as a board mail does, that the move alone is enough in reply to it, and it is.
#[test]
fn a_reminder_offers_the_bare_reply_first_and_a_bare_reply_to_it_plays() {
    let mut env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("alice@example.org", "hex challenge alice bob", ""));
    env.take_mails();
    env.now = crate::common::NOW + 7 * 86_400 + 60;
    let out = env.cmd().arg("cron").output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let nag = env.only_mail_to("alice@example.org");
    assert!(
        nag.first_line().starts_with("Nag: Hex Board 101"),
        "{}",
        nag.body
    );
    let lines: Vec<&str> = nag.body.lines().collect();
    let at = lines
        .iter()
        .position(|l| *l == "To move:      reply to this mail with just your move, or send")
        .unwrap_or_else(|| panic!("{}", nag.body));
    assert_eq!(lines[at + 1].trim(), "hex move 101 alice <password> <move>");
    env.deliver(
        &eml("alice@example.org", "Re: Hex Board 101", "c3\n").replace(
            "To: pbem@localhost",
            &format!("To: {}", nag.reply_address()),
        ),
    );
    assert_eq!(env.stored_game_of("hex", 101).moves().len(), 1);
}

/// A player whose letters carry no signed Reply-To (an account without a password: a reply could
/// not be proved theirs) is not told to reply with the move alone; the command line stays.
#[test]
fn without_a_signed_reply_to_the_mail_offers_only_the_command() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("alice@example.org", "hex challenge alice bob", ""));
    env.take_mails();
    env.sqlite()
        .execute(
            "UPDATE users SET password_hash = NULL WHERE userid = 'bob'",
            [],
        )
        .unwrap();
    env.deliver(&eml(
        "alice@example.org",
        "hex move 101 alice pw-alice c3",
        "",
    ));
    let mails = env.take_mails();
    let bob = to(&mails, "bob@example.org");
    assert!(bob.header("Reply-To").is_none(), "{}", bob.raw);
    assert!(!bob.body.contains("just your move"), "{}", bob.body);
    assert!(
        bob.flat_body().contains(
            "Your move, bob: send one of these lines as the Subject, with your password and \
             your move in place of the example:"
        ),
        "{}",
        bob.body
    );
    assert!(
        bob.body.contains("\n    hex move 101 bob <password> "),
        "{}",
        bob.body
    );
    let page = html(bob);
    assert!(!page.contains("just your move"), "{page}");
}

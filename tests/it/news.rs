//! Issue 25, section 2: every board mail starts with the news for its reader, then the line to
//! send, then the board; subjects name the game first and its state for the reader; every board
//! mail of a game to a reader is threaded under their first one. Issue 37: under the game's one
//! Subject (the default) that state is the body's first line, and the news follows it.

use crate::common::{Env, Sent, eml};

/// The mail to `who` among `mails`.
fn to<'a>(mails: &'a [Sent], who: &str) -> &'a Sent {
    let addr = format!("{who}@example.org");
    mails
        .iter()
        .find(|m| m.to.contains(&addr))
        .unwrap_or_else(|| panic!("no mail to {who}: {mails:#?}"))
}

/// A move for the player to move on board 101 that captures a pawn of another seat, with the cells
/// it captures; `None` when no legal move captures.
fn capturing_move(env: &Env) -> Option<(String, Vec<String>)> {
    let g = env.stored_game(101);
    let n = g.moves().len();
    for m in g.legal_moves() {
        let mut next = g.clone_box();
        next.play(&m).unwrap();
        let mover = next.moves()[n].seat;
        let taken: Vec<String> = next
            .losses(n)
            .into_iter()
            .filter(|l| l.seat != mover)
            .flat_map(|l| l.cells)
            .collect();
        if !taken.is_empty() {
            return Some((m, taken));
        }
    }
    None
}

/// `2 and 18`, as the news lists cells.
fn cells(c: &[String]) -> String {
    match c {
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        [] => String::new(),
    }
}

#[test]
fn a_capture_is_the_first_line_for_both_players_and_the_line_to_send_comes_before_the_board() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    let first = env.take_mails();
    assert_eq!(
        to(&first, "alice").first_line(),
        "Limit Board 101: new game, your move"
    );
    assert_eq!(
        to(&first, "bob").first_line(),
        "Limit Board 101: new game, alice to move"
    );
    // Play the first legal move until one captures.
    let names = ["alice", "bob"];
    for turn in 0..40 {
        let g = env.stored_game(101);
        let pbem::games::Status::ToMove(seat) = g.status() else {
            panic!("the game ended before any capture");
        };
        let (me, other) = (names[seat], names[1 - seat]);
        let n = g.move_number();
        let found = capturing_move(&env);
        let mv = found
            .as_ref()
            .map_or_else(|| g.legal_moves()[0].clone(), |(m, _)| m.clone());
        env.deliver(&eml(
            &format!("{me}@example.org"),
            &format!("limit move 101 {me} pw-{me} {mv}#{n}"),
            "",
        ));
        let mails = env.take_mails();
        let (mine, theirs) = (to(&mails, me), to(&mails, other));
        assert_eq!(
            mine.first_line(),
            format!("Limit Board 101: {other} to move")
        );
        assert_eq!(theirs.first_line(), "Limit Board 101: your move");
        let Some((mv, taken)) = found else {
            assert!(
                theirs
                    .after_state()
                    .starts_with(&format!("{me} played {mv}.\n")),
                "turn {turn}: {}",
                theirs.body
            );
            continue;
        };
        let pawns = if taken.len() == 1 { "pawn" } else { "pawns" };
        assert!(
            theirs.after_state().starts_with(&format!(
                "{me} played {mv} and captured your {pawns} on {}.\n\nYour move, {other}:",
                cells(&taken)
            )),
            "{}",
            theirs.body
        );
        assert!(
            mine.after_state().starts_with(&format!(
                "You played {mv} and captured {other}'s {pawns} on {}.\n",
                cells(&taken)
            )),
            "{}",
            mine.body
        );
        // The line to send, then the board.
        let send = theirs
            .body
            .find(&format!("    limit move 101 {other} <password> "))
            .unwrap();
        let board = theirs.body.find("Summary of Limit Board 101").unwrap();
        assert!(send < board, "{}", theirs.body);
        assert!(!mine.body.contains("<password>"), "{}", mine.body);
        return;
    }
    panic!("no capture in 40 turns");
}

#[test]
fn every_board_mail_of_a_game_is_threaded_under_the_readers_first_one() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    let first = env.take_mails();
    let root = |who: &str| to(&first, who).header("Message-ID").unwrap();
    let (alice_root, bob_root) = (root("alice"), root("bob"));
    assert_ne!(alice_root, bob_root);
    for turn in 0..3 {
        let g = env.stored_game(101);
        let pbem::games::Status::ToMove(seat) = g.status() else {
            panic!("over");
        };
        let me = ["alice", "bob"][seat];
        env.deliver(&eml(
            &format!("{me}@example.org"),
            &format!(
                "limit move 101 {me} pw-{me} {}#{}",
                g.legal_moves()[0],
                g.move_number()
            ),
            "",
        ));
        let mails = env.take_mails();
        for (who, root) in [("alice", &alice_root), ("bob", &bob_root)] {
            let m = to(&mails, who);
            let refs = m.header("References").unwrap_or_default();
            assert!(
                refs.split_whitespace().next() == Some(root.as_str()),
                "turn {turn}, {who}: References {refs:?}, root {root}"
            );
            // The mover's copy answers their mail; the other's answers the root.
            if who != me {
                assert_eq!(m.header("In-Reply-To").as_ref(), Some(root), "{who}");
            }
        }
    }
}

#[test]
fn a_draw_proposal_asks_the_other_player_for_the_answer_first() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    env.take_mails();
    env.deliver(&eml(
        "alice@example.org",
        "limit move 101 alice pw-alice propose draw",
        "",
    ));
    let mails = env.take_mails();
    let bob = to(&mails, "bob");
    assert_eq!(bob.first_line(), "Limit Board 101: draw offered");
    assert!(
        bob.after_state().starts_with(
            "alice proposes a draw (move 1): answer with one of these lines.\n\n    \
             limit move 101 bob <password> accept\n    limit move 101 bob <password> reject\n"
        ),
        "{}",
        bob.body
    );
    let alice = to(&mails, "alice");
    assert!(
        alice
            .after_state()
            .starts_with("alice proposes a draw (move 1); waiting for bob.\n"),
        "{}",
        alice.body
    );
}

#[test]
fn a_player_who_leaves_a_three_player_game_is_told_he_is_out_and_then_who_won() {
    let env = Env::new();
    env.players(&["alice", "bob", "carol"]);
    env.deliver(&eml(
        "alice@example.org",
        "limit challenge alice bob carol -size=4",
        "",
    ));
    env.take_mails();
    env.deliver(&eml(
        "carol@example.org",
        "limit move 101 carol pw-carol resign",
        "",
    ));
    let mails = env.take_mails();
    let carol = to(&mails, "carol");
    assert!(
        carol.after_state().starts_with(
            "You resigned.\nYou are out of this game; you will keep getting its board mails \
             as a\nspectator.\n"
        ),
        "{}",
        carol.body
    );
    assert!(
        to(&mails, "bob")
            .after_state()
            .starts_with("carol resigned.\n"),
        "{}",
        to(&mails, "bob").body
    );
    env.deliver(&eml(
        "bob@example.org",
        "limit move 101 bob pw-bob resign",
        "",
    ));
    let mails = env.take_mails();
    let alice = to(&mails, "alice");
    assert_eq!(alice.first_line(), "Limit Board 101: over");
    assert!(
        alice
            .after_state()
            .starts_with("bob resigned.\nGame over: you win"),
        "{}",
        alice.body
    );
    assert!(
        to(&mails, "bob")
            .after_state()
            .starts_with("You resigned.\nGame over: alice wins"),
        "{}",
        to(&mails, "bob").body
    );
}

#[test]
fn the_news_is_there_for_every_game_not_only_limit() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("alice@example.org", "hex challenge alice bob", ""));
    let first = env.take_mails();
    assert_eq!(
        to(&first, "bob").first_line(),
        "Hex Board 101: new game, alice to move"
    );
    env.deliver(&eml(
        "alice@example.org",
        "hex move 101 alice pw-alice c3",
        "",
    ));
    let mails = env.take_mails();
    let bob = to(&mails, "bob");
    assert_eq!(bob.first_line(), "Hex Board 101: your move");
    assert!(
        bob.after_state()
            .starts_with("alice played c3.\n\nYour move, bob:"),
        "{}",
        bob.body
    );
}

#[test]
fn the_end_of_a_rated_game_tells_each_player_their_rating() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    for me in ["alice", "bob"] {
        let g = env.stored_game(101);
        env.deliver(&eml(
            &format!("{me}@example.org"),
            &format!("limit move 101 {me} pw-{me} {}", g.legal_moves()[0]),
            "",
        ));
    }
    env.take_mails();
    env.deliver(&eml(
        "alice@example.org",
        "limit move 101 alice pw-alice resign",
        "",
    ));
    let mails = env.take_mails();
    let bob = to(&mails, "bob")
        .after_state()
        .lines()
        .take(2)
        .collect::<Vec<_>>();
    assert_eq!(bob[0], "alice resigned.");
    let rating = bob[1]
        .strip_prefix("Game over: you win; your rating ")
        .unwrap_or_else(|| panic!("{bob:?}"));
    let (before, after) = rating.split_once(" -> ").unwrap();
    let before: i32 = before.parse().unwrap();
    let after: i32 = after.split_whitespace().next().unwrap().parse().unwrap();
    assert!(after > before, "{bob:?}");
    let alice = to(&mails, "alice")
        .after_state()
        .lines()
        .nth(1)
        .unwrap()
        .to_string();
    assert!(
        alice.starts_with("Game over: bob wins; your rating "),
        "{alice}"
    );
}

#[test]
fn a_wrong_password_leads_with_the_reset_and_tells_signup_only_to_strangers() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    env.take_mails();
    let wrong = |from: &str| {
        env.deliver(&eml(from, "limit move 101 bob Pw-bob resign", ""));
        env.only_mail_to(from).body
    };
    let own = wrong("bob@example.org");
    assert!(
        own.starts_with(
            "Your command was not carried out:\n\n  Forgot it? Send `password reset bob`.\n"
        ),
        "{own}"
    );
    assert!(own.contains("case-sensitive"), "{own}");
    assert!(!own.contains("signup"), "{own}");
    let stranger = wrong("eve@example.net");
    assert!(
        stranger.starts_with(
            "Your command was not carried out:\n\n  Forgot it? Send `password reset bob`"
        ),
        "{stranger}"
    );
    assert!(
        stranger.contains("`signup <userid> <password>`"),
        "{stranger}"
    );
    // The allowances moved to `help`.
    env.deliver(&eml("bob@example.org", "help", ""));
    let help = crate::common::flat(&env.only_mail_to("bob@example.org").body);
    assert!(
        help.contains("at most 10 wrong passwords an hour are checked from one address"),
        "{help}"
    );
}

#[test]
fn a_mistyped_command_gets_the_line_it_was_meant_to_be_and_no_command_list() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    env.take_mails();
    env.deliver(&eml(
        "bob@example.org",
        "limit mvoe 101 bob pw-bob 2-1,9#4",
        "",
    ));
    let body = env.only_mail_to("bob@example.org").body;
    assert!(
        body.starts_with(
            "Your command was not carried out:\n\n  'limit mvoe' is not a command; did you \
             mean:\n      limit move 101 bob <password> 2-1,9#4\n"
        ),
        "{body}"
    );
    assert!(!body.contains("signup <userid>"), "{body}");
    assert!(body.lines().count() < 15, "{body}");
}

#[test]
fn a_proposal_to_a_robot_shows_no_line_with_a_password_for_it() {
    let env = Env::new();
    env.players(&["alice"]);
    env.deliver(&eml(
        "alice@example.org",
        "limit challenge alice robot1",
        "",
    ));
    env.take_mails();
    env.deliver(&eml(
        "alice@example.org",
        "limit move 101 alice pw-alice propose draw",
        "",
    ));
    let body = env.only_mail_to("alice@example.org").body;
    assert!(!body.contains("robot1 <password>"), "{body}");
    // The robot answered in the same run (tests/it/robot_proposals.rs for which way).
    assert!(!body.contains("waiting for robot1"), "{body}");
    let flat = crate::common::flat(&body);
    assert!(
        flat.contains("robot1 rejects alice's proposal of a draw")
            || flat.contains("the game is drawn"),
        "{body}"
    );
}

#[test]
fn a_new_game_is_the_news_of_its_first_mail_with_a_robots_opening_move() {
    let env = Env::new();
    env.players(&["alice"]);
    env.deliver(&eml(
        "alice@example.org",
        "limit challenge robot1 alice",
        "",
    ));
    let mails = env.take_mails();
    let alice: Vec<&Sent> = mails
        .iter()
        .filter(|m| m.to == ["alice@example.org"])
        .collect();
    assert_eq!(alice.len(), 1, "{mails:#?}");
    let mut lines = alice[0].after_state().lines();
    assert_eq!(
        lines.next(),
        Some("A new game on Limit Board 101: Red (robot1), Blue (alice).")
    );
    // robot1 moved first, in the challenge's run: told before the line to send.
    let played = lines.next().unwrap_or_default();
    assert!(played.starts_with("robot1 played "), "{}", alice[0].body);
    assert!(
        alice[0].body.contains("\nYour move, alice:"),
        "{}",
        alice[0].body
    );
}

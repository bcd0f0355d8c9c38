//! End-to-end: spectators, new-game notices and challenge control, through the real `pbem` binary with
//! real `.eml` messages and a real SQLite file.

use crate::common::{EVERY_ANSWER, Env, Sent, eml};
use pbem::games::Status;

/// Everything the social commands store, and the games and seats, as one text: equal before and after
/// a refused command shows that it changed nothing.
fn social_rows(env: &Env) -> String {
    let c = env.sqlite();
    let mut out = String::new();
    for sql in [
        "SELECT game_id || ':' || user_id FROM subscriptions ORDER BY 1",
        "SELECT game_type || ':' || user_id FROM new_game_notices ORDER BY 1",
        "SELECT game_type || ':' || user_id || ':' || max_active FROM game_limits ORDER BY 1",
        "SELECT game_type || ':' || user_id || ':' || kind || ':' || other_id FROM challenge_lists ORDER BY 1",
        "SELECT g.id || ':' || g.board || ':' || g.finished || ':' || length(st.state)
         FROM games g JOIN game_states st ON st.game_id = g.id ORDER BY 1",
        "SELECT game_id || ':' || seat || ':' || user_id FROM seats ORDER BY 1",
    ] {
        let mut stmt = c.prepare(sql).unwrap();
        let rows: Vec<String> = stmt
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        out.push_str(&format!("{sql}\n  {}\n", rows.join(" ")));
    }
    out
}

fn count(env: &Env, sql: &str) -> i64 {
    env.sqlite().query_row(sql, [], |r| r.get(0)).unwrap()
}

/// The mail to this address; exactly one is expected.
fn to<'a>(mails: &'a [Sent], address: &str) -> &'a Sent {
    let found: Vec<&Sent> = mails.iter().filter(|m| m.to == [address]).collect();
    assert_eq!(found.len(), 1, "mails to {address}: {mails:#?}");
    found[0]
}

/// Sends a command and returns the one answer, which must go to the sender.
fn ask(env: &Env, from: &str, subject: &str) -> Sent {
    env.deliver(&eml(from, subject, ""));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 1, "{subject}: {mails:#?}");
    assert_eq!(mails[0].to, [from], "{subject}");
    mails.into_iter().next().unwrap()
}

/// Sends a command that must be refused: the error answer says `says`, leaks no password, and the
/// stored social settings, games and seats are as before.
fn refused(env: &Env, from: &str, subject: &str, says: &str) -> Sent {
    let before = social_rows(env);
    let m = ask(env, from, subject);
    assert!(
        m.body.starts_with("Your command was not carried out:"),
        "{subject}: {}",
        m.subject
    );
    assert!(
        m.flat_body().contains(says),
        "{subject}: the answer does not say '{says}':\n{}",
        m.body
    );
    assert!(!m.raw.contains("pw-"), "{subject}: a password leaked");
    assert_eq!(social_rows(env), before, "{subject} changed something");
    m
}

/// The player to move on a board makes its first legal move; returns their userid.
fn play_one(env: &Env, board: u32, players: &[&str], comment: &str) -> String {
    let game = env.stored_game(board);
    let Status::ToMove(seat) = game.status() else {
        panic!("board {board} is over");
    };
    let mv = game.legal_moves()[0].clone();
    let who = players[seat];
    env.deliver(&eml(
        &format!("{who}@example.org"),
        &format!("limit move {board} {who} pw-{who} {mv}"),
        comment,
    ));
    who.to_string()
}

fn challenge(env: &Env, from: &str, players: &str) -> Vec<Sent> {
    env.deliver(&eml(
        &format!("{from}@example.org"),
        &format!("limit challenge {players}"),
        "",
    ));
    env.take_mails()
}

#[test]
fn a_subscriber_gets_every_board_mail_until_unsubscribing() {
    let env = Env::new();
    env.players(&["alice", "bob", "carol"]);
    challenge(&env, "alice", "alice bob");

    let m = ask(
        &env,
        "carol@example.org",
        "limit subscribe 101 carol pw-carol",
    );
    assert_eq!(m.subject, "Limit Board 101 Subscribed carol");
    assert!(
        m.body
            .contains("carol is now subscribed to Limit Board 101")
    );
    assert!(
        m.body.contains("Summary of Limit Board 101\n"),
        "{}",
        m.body
    );
    assert!(m.body.contains("Subscribers: carol\n"), "{}", m.body);
    assert!(!m.raw.contains("pw-carol"));

    // Several moves: every one reaches carol as it reaches the players, with the same subject and body.
    let mut carol_root: Option<String> = None;
    for i in 0..4 {
        let comment = format!("move number {i}");
        let mover = play_one(&env, 101, &["alice", "bob"], &comment);
        let mails = env.take_mails();
        assert_eq!(mails.len(), 3, "move {i}: {mails:#?}");
        let carol = to(&mails, "carol@example.org");
        // The mover, now waiting: the player on move also gets the line to send (issue 16).
        // Only the news differs: the mover reads "You played", carol "alice played".
        let player = to(&mails, &format!("{mover}@example.org"));
        assert_eq!(carol.subject, player.subject);
        let board = |b: &str| b[b.find("Summary of").unwrap()..].to_string();
        assert_eq!(board(&carol.body), board(&player.body));
        assert!(
            carol.after_state().starts_with(&format!("{mover} played ")),
            "{}",
            carol.body
        );
        assert!(
            player.after_state().starts_with("You played "),
            "{}",
            player.body
        );
        assert!(
            carol.first_line().starts_with("Limit Board 101: "),
            "{}",
            carol.subject
        );
        assert!(
            carol.body.contains("Subscribers: carol\n"),
            "{}",
            carol.body
        );
        assert!(
            carol.body.contains(&format!("{mover} writes:\n{comment}")),
            "{}",
            carol.body
        );
        assert_eq!(
            carol.header("Auto-Submitted").as_deref(),
            Some("auto-generated")
        );
        // Threaded under her first board mail of the game (issue 25), never under a player's mail.
        match &carol_root {
            None => {
                assert!(carol.header("In-Reply-To").is_none());
                carol_root = carol.header("Message-ID");
            }
            Some(root) => assert_eq!(carol.header("In-Reply-To").as_ref(), Some(root)),
        }
        assert!(!carol.raw.contains("pw-"), "a password leaked");
    }
    // `show` is open to anyone and lists the subscriber too.
    let shown = env.admin("limit show 101");
    assert!(shown.status.success());
    assert!(String::from_utf8_lossy(&shown.stdout).contains("Subscribers: carol\n"));

    let m = ask(
        &env,
        "carol@example.org",
        "limit unsubscribe 101 carol pw-carol",
    );
    assert_eq!(m.subject, "Limit Board 101 Unsubscribed carol");
    assert!(m.body.contains("no longer subscribed to Limit Board 101"));
    assert!(!m.body.contains("Subscribers:"), "{}", m.body);
    assert_eq!(count(&env, "SELECT COUNT(*) FROM subscriptions"), 0);

    play_one(&env, 101, &["alice", "bob"], "");
    let mails = env.take_mails();
    assert_eq!(mails.len(), 2, "{mails:#?}");
    assert!(mails.iter().all(|m| m.to != ["carol@example.org"]));
    assert!(mails.iter().all(|m| !m.body.contains("Subscribers:")));

    // Unsubscribing again is refused and says so.
    refused(
        &env,
        "carol@example.org",
        "limit unsubscribe 101 carol pw-carol",
        "carol is not subscribed to Limit Board 101, so there is nothing to stop",
    );
}

#[test]
fn a_subscriber_gets_the_last_mail_of_a_game_and_subscribing_has_its_limits() {
    let env = Env::new();
    env.players(&["alice", "bob", "carol"]);
    challenge(&env, "alice", "alice bob");
    ask(
        &env,
        "carol@example.org",
        "limit subscribe 101 carol pw-carol",
    );
    refused(
        &env,
        "carol@example.org",
        "limit subscribe 101 carol pw-carol",
        "carol is subscribed to Limit Board 101 already",
    );
    refused(
        &env,
        "bob@example.org",
        "limit subscribe 101 bob pw-bob",
        "bob plays Limit Board 101",
    );
    refused(
        &env,
        "carol@example.org",
        "limit subscribe 102 carol pw-carol",
        "There is no Limit board 102",
    );
    env.deliver(&eml("bob@example.org", "limit resign 101 bob pw-bob", ""));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 3, "{mails:#?}");
    let carol = to(&mails, "carol@example.org");
    assert_eq!(carol.first_line(), "Limit Board 101: over");
    assert!(carol.body.contains("Game over"), "{}", carol.body);
    // No more mails come from a finished game, so subscribing to one is refused.
    refused(
        &env,
        "alice@example.org",
        "limit subscribe 101 carol pw-carol",
        "Limit Board 101 is over",
    );
}

#[test]
fn notify_tells_of_each_new_game_until_turned_off() {
    let env = Env::new();
    env.players(&["alice", "bob", "carol", "dave"]);
    let m = ask(&env, "dave@example.org", "limit notify dave pw-dave");
    assert_eq!(m.subject, "Limit notify dave");
    assert!(
        m.body
            .contains("Notices of new Limit games are now on for dave.")
    );
    assert!(m.body.contains("New-game notices:  on"), "{}", m.body);
    // A player who asked for notices is not told of their own game.
    ask(&env, "alice@example.org", "limit notify alice pw-alice on");

    let mails = challenge(&env, "alice", "alice bob");
    assert_eq!(mails.len(), 3, "{mails:#?}");
    assert_eq!(
        to(&mails, "alice@example.org").first_line(),
        "Limit Board 101: new game, your move"
    );
    assert_eq!(
        to(&mails, "bob@example.org").first_line(),
        "Limit Board 101: new game, alice to move"
    );
    let notice = to(&mails, "dave@example.org");
    assert_eq!(notice.subject, "New Limit Board 101 alice vs bob");
    assert!(
        notice
            .body
            .starts_with("A new Limit game has started on Board 101: alice vs bob.\n"),
        "{}",
        notice.body
    );
    assert!(
        notice
            .body
            .contains("limit subscribe 101 <userid> <password>")
    );
    assert!(notice.body.contains("Summary of Limit Board 101\n"));
    assert!(notice.body.contains("Red (alice) to move."));

    // Board numbers after notify subscribe to those games.
    let m = ask(&env, "dave@example.org", "limit notify dave pw-dave 101");
    assert!(
        m.body
            .contains("dave is now subscribed to Limit Board(s) 101"),
        "{}",
        m.body
    );
    assert!(m.body.contains("Subscribed to:     101"), "{}", m.body);
    play_one(&env, 101, &["alice", "bob"], "");
    let mails = env.take_mails();
    assert_eq!(mails.len(), 3, "{mails:#?}");
    assert!(
        to(&mails, "dave@example.org")
            .first_line()
            .starts_with("Limit Board 101: ")
    );

    // A board that does not exist refuses the whole command: 101 is not subscribed twice and no row
    // changes.
    refused(
        &env,
        "dave@example.org",
        "limit notify dave pw-dave 101 999",
        "There is no Limit board 999",
    );

    let m = ask(&env, "dave@example.org", "limit notify dave pw-dave off");
    assert!(
        m.body
            .contains("Notices of new Limit games are now off for dave.")
    );
    assert!(m.body.contains("New-game notices:  off"), "{}", m.body);
    // alice still asks for notices; dave no longer does.
    let mails = challenge(&env, "bob", "bob carol");
    assert_eq!(mails.len(), 3, "{mails:#?}");
    assert!(mails.iter().all(|m| m.to != ["dave@example.org"]));
    assert_eq!(
        to(&mails, "alice@example.org").subject,
        "New Limit Board 102 bob vs carol"
    );
    assert_eq!(count(&env, "SELECT COUNT(*) FROM new_game_notices"), 1);
}

#[test]
fn a_limit_refuses_challenges_until_a_game_ends_or_it_is_raised() {
    let env = Env::new();
    env.players(&["alice", "bob", "carol"]);
    let m = ask(&env, "bob@example.org", "limit limit bob pw-bob 1");
    assert_eq!(m.subject, "Limit limit bob");
    assert!(
        m.body
            .contains("The limit of Limit games for bob is now 1.")
    );
    assert!(m.body.contains(
        "Limit:             at most 1 active Limit game by challenge\n  Active now:        0"
    ));

    assert_eq!(challenge(&env, "alice", "alice bob").len(), 2);
    let m = refused(
        &env,
        "carol@example.org",
        "limit challenge carol bob",
        "bob takes at most 1 active Limit game by challenge and has 1 now",
    );
    assert_eq!(m.subject, "Limit Error");
    assert_eq!(count(&env, "SELECT COUNT(*) FROM games"), 1);

    // The game ends: the challenge is taken again.
    env.deliver(&eml("bob@example.org", "limit resign 101 bob pw-bob", ""));
    env.take_mails();
    let mails = challenge(&env, "carol", "carol bob");
    assert_eq!(mails.len(), 2, "{mails:#?}");
    assert_eq!(
        mails[0].first_line(),
        "Limit Board 102: new game, carol to move"
    );

    // At the limit again; raising it lets the challenge through.
    refused(
        &env,
        "alice@example.org",
        "limit challenge alice bob",
        "bob takes at most 1 active Limit game by challenge",
    );
    let m = ask(&env, "bob@example.org", "limit limit bob pw-bob 2");
    assert!(
        m.body
            .contains("at most 2 active Limit games by challenge\n  Active now:        1"),
        "{}",
        m.body
    );
    assert_eq!(challenge(&env, "alice", "alice bob").len(), 2);

    // The limit holds back challenges by others only: bob's own challenge goes through.
    assert_eq!(challenge(&env, "bob", "bob carol").len(), 2);
    assert_eq!(
        count(&env, "SELECT COUNT(*) FROM games WHERE finished = 0"),
        3
    );

    // 0 takes no new games; `limit` alone tells the setting; off lifts it.
    ask(&env, "bob@example.org", "limit limit bob pw-bob 0");
    refused(
        &env,
        "carol@example.org",
        "limit challenge carol bob",
        "bob takes no new Limit games by challenge for now (their limit is 0)",
    );
    let m = ask(&env, "bob@example.org", "limit limit bob pw-bob");
    assert!(m.body.starts_with("Limit settings of bob:\n"), "{}", m.body);
    assert!(
        m.body
            .contains("0 (no new games by challenge)\n  Active now:        3"),
        "{}",
        m.body
    );
    let m = ask(&env, "bob@example.org", "limit limit bob pw-bob off");
    assert!(
        m.body
            .contains("The limit of Limit games for bob is lifted.")
    );
    assert!(
        m.body
            .contains("Limit:             none\n  Active now:        3"),
        "{}",
        m.body
    );
    assert_eq!(count(&env, "SELECT COUNT(*) FROM game_limits"), 0);
    assert_eq!(challenge(&env, "carol", "carol bob").len(), 2);
}

#[test]
fn accept_and_reject_lists_decide_whose_challenges_are_taken() {
    let env = Env::new();
    env.players(&["alice", "bob", "carol", "dave"]);

    let m = ask(&env, "bob@example.org", "limit reject bob pw-bob carol");
    assert!(
        m.body
            .contains("bob now refuses Limit challenges from carol.")
    );
    assert!(m.body.contains("Reject list:       carol\n"), "{}", m.body);
    refused(
        &env,
        "carol@example.org",
        "limit challenge carol bob",
        "bob does not take Limit challenges from carol (their reject list).",
    );
    assert_eq!(challenge(&env, "alice", "alice bob").len(), 2);
    // The reject list concerns challenges made to bob, not bob's own.
    assert_eq!(challenge(&env, "bob", "bob carol").len(), 2);

    let m = ask(&env, "bob@example.org", "limit accept bob pw-bob alice");
    assert!(
        m.body
            .contains("bob now takes Limit challenges only from alice.")
    );
    assert!(m.body.contains("Accept list:       alice\n"), "{}", m.body);
    let m = refused(
        &env,
        "dave@example.org",
        "limit challenge dave bob",
        "bob takes Limit challenges only from the players on their accept list, and dave is not on it.",
    );
    // The accept list itself is not shown to the challenger.
    assert!(!m.body.contains("alice"), "{}", m.body);
    assert_eq!(challenge(&env, "alice", "alice bob").len(), 2);

    // In a game of three, every challenged player's lists are checked: both reasons are given.
    ask(
        &env,
        "carol@example.org",
        "limit reject carol pw-carol dave",
    );
    let m = refused(
        &env,
        "dave@example.org",
        "limit challenge dave bob carol",
        "carol does not take Limit challenges from dave",
    );
    assert!(
        m.body.contains("bob takes Limit challenges only from"),
        "{}",
        m.body
    );

    // Without userids the lists are cleared.
    let m = ask(&env, "bob@example.org", "limit accept bob pw-bob");
    assert!(m.body.contains("The accept list of bob is cleared"));
    assert!(
        m.body
            .contains("Accept list:       none (challenges from anyone)")
    );
    assert!(m.body.contains("Reject list:       carol\n"));
    assert_eq!(challenge(&env, "dave", "dave bob").len(), 2);
    let m = ask(&env, "bob@example.org", "limit reject bob pw-bob");
    assert!(m.body.contains("The reject list of bob is cleared."));
    assert!(m.body.contains("Reject list:       none\n"));
    assert_eq!(challenge(&env, "carol", "carol bob").len(), 2);
    assert_eq!(
        count(
            &env,
            "SELECT COUNT(*) FROM challenge_lists WHERE user_id = (SELECT id FROM users WHERE userid = 'bob')"
        ),
        0
    );
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    // Every refusal's answer is read: the per-address allowances of answers are off.
    let env = Env::new().with_config(EVERY_ANSWER);
    env.players(&["alice", "bob", "carol"]);
    challenge(&env, "alice", "alice bob");
    ask(&env, "bob@example.org", "limit limit bob pw-bob 2");
    ask(&env, "bob@example.org", "limit reject bob pw-bob carol");
    ask(
        &env,
        "carol@example.org",
        "limit subscribe 101 carol pw-carol",
    );

    let cases = [
        ("bob@example.org", "limit limit bob wrong 5", "do not match"),
        (
            "bob@example.org",
            "limit limit bob pw-bob lots",
            // Only the password is hidden: the other words are checked against bob's.
            "'lots' is not a number of games",
        ),
        (
            "bob@example.org",
            "limit limit bob pw-bob 5 6",
            "at most one number",
        ),
        (
            "bob@example.org",
            "limit accept bob wrong alice",
            "do not match",
        ),
        (
            "bob@example.org",
            "limit accept bob pw-bob nobody",
            "'nobody' is not a registered player",
        ),
        (
            "bob@example.org",
            "limit reject bob pw-bob alice nobody",
            "'nobody' is not a registered player",
        ),
        (
            "bob@example.org",
            "limit reject bob pw-bob Bob",
            "You named yourself",
        ),
        (
            "bob@example.org",
            "limit reject bob pw-bob al!ce",
            // Only the password is hidden: the other words are checked against bob's.
            "'al!ce' is not a userid",
        ),
        (
            "carol@example.org",
            "limit unsubscribe 101 carol wrong",
            "do not match",
        ),
        (
            "carol@example.org",
            "limit subscribe 101 carol pw-carol",
            "already",
        ),
        (
            "carol@example.org",
            "limit subscribe abc carol pw-carol",
            // Only the password is hidden: the other words are checked against carol's.
            "'abc' is not a board number",
        ),
        (
            "carol@example.org",
            "limit notify carol pw-carol maybe",
            "is neither on, off nor a board number",
        ),
        (
            "carol@example.org",
            "limit notify carol wrong",
            "do not match",
        ),
        (
            "alice@example.org",
            "limit notify alice pw-alice 101",
            "alice plays Limit Board 101",
        ),
        (
            "alice@example.org",
            "limit unsubscribe 101 alice pw-alice",
            "alice is not subscribed",
        ),
    ];
    for (from, subject, says) in cases {
        refused(&env, from, subject, says);
    }
    // The settings stand as they were set.
    let m = ask(&env, "bob@example.org", "limit limit bob pw-bob");
    assert!(
        m.body
            .contains("at most 2 active Limit games by challenge\n  Active now:        1"),
        "{}",
        m.body
    );
    assert!(m.body.contains("Reject list:       carol\n"), "{}", m.body);
}

#[test]
fn the_commands_are_in_the_help_and_work_from_the_shell() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    let m = ask(&env, "alice@example.org", "help");
    for w in [
        "<game> subscribe board userid password",
        "<game> unsubscribe board userid password",
        "<game> notify userid password [on|off|board...]",
        "<game> limit userid password [N|off]",
        "<game> accept userid password [userid...]",
        "<game> reject userid password [userid...]",
    ] {
        assert!(m.body.contains(w), "help lacks {w}:\n{}", m.body);
    }
    // An unknown command word gives the line it was meant to be (issue 25), not the list.
    let m = ask(
        &env,
        "alice@example.org",
        "limit subscrbe 101 alice pw-alice",
    );
    assert!(
        m.body
            .contains("did you mean:\n      limit subscribe 101 alice <password>\n"),
        "{}",
        m.body
    );
    // The list of every command is in `help`, not in this answer.
    assert!(
        !m.body
            .contains("<game> subscribe <board> <userid> <password>"),
        "{}",
        m.body
    );

    let out = env.admin("limit limit alice pw-alice 3");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("The limit of Limit games for alice is now 3.")
    );
    let out = env.admin("limit accept alice wrong bob");
    assert!(!out.status.success());
    assert_eq!(count(&env, "SELECT COUNT(*) FROM challenge_lists"), 0);
}

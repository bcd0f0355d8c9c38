//! End-to-end: `set userid password subject plain|state` (issue 25, section 2): Gmail starts a new
//! conversation whenever the Subject changes, so a player may take one Subject a game
//! (`Limit Board 101`) with the state only in the body's first lines. Real `.eml` messages through
//! `pbem ingest`, a real SQLite file, the mails read back from the file transport.

use crate::common::{EVERY_ANSWER, Env, Sent, eml};

/// The first line to send in a mail's body, with the player's password put in.
fn line_to_send(body: &str, password: &str) -> String {
    body.lines()
        .map(str::trim)
        .find(|l| l.starts_with("limit move ") && l.contains("<password>"))
        .unwrap_or_else(|| panic!("no line to send in:\n{body}"))
        .replace("<password>", password)
}

fn to<'a>(mails: &'a [Sent], who: &str) -> Vec<&'a Sent> {
    mails
        .iter()
        .filter(|m| m.to.iter().any(|t| t == who))
        .collect()
}

/// `(plain_subject)` of each player with a settings row, by userid.
fn plain_rows(env: &Env) -> Vec<(String, i64)> {
    let db = env.sqlite();
    let mut stmt = db
        .prepare(
            "SELECT u.userid, m.plain_subject FROM mail_settings m
             JOIN users u ON u.id = m.user_id ORDER BY u.userid",
        )
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

#[test]
fn a_plain_subject_stays_the_same_over_a_game_while_the_others_carry_the_state() {
    let env = Env::new();
    env.players(&["alice", "bob", "carol"]);
    env.deliver(&eml("bob@example.org", "set bob pw-bob subject plain", ""));
    let answer = env.only_mail_to("bob@example.org");
    let text = answer.flat_body();
    assert!(
        text.contains("bob's mail setting is now `subject plain`"),
        "{text}"
    );
    assert!(
        text.contains("Your mail settings now: `digest off`, `mail html`, `subject plain`."),
        "the setting is shown: {text}"
    );
    assert!(text.contains("set bob <password> subject state"), "{text}");
    assert_eq!(plain_rows(&env), [("bob".to_string(), 1)]);

    // A subscriber with the setting too: her copies keep the game's Subject as well.
    env.admin_ok("set carol pw-carol subject plain");
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    env.admin_ok("limit subscribe 101 carol pw-carol");
    let mut all = env.take_mails();
    // Six moves, each by the player whose own last board mail gives the line to send.
    for turn in 0..6 {
        let (who, pw) = if turn % 2 == 0 {
            ("alice@example.org", "pw-alice")
        } else {
            ("bob@example.org", "pw-bob")
        };
        let last = to(&all, who)
            .into_iter()
            .rev()
            .find(|m| m.body.contains("<password>") && m.subject.starts_with("Limit Board 101"))
            .unwrap_or_else(|| panic!("turn {turn}: no board mail to {who}: {all:#?}"))
            .clone();
        env.deliver(&eml(who, &line_to_send(&last.body, pw), ""));
        all.extend(env.take_mails());
    }
    let boards = |who: &str| -> Vec<&Sent> {
        to(&all, who)
            .into_iter()
            .filter(|m| m.subject.starts_with("Limit Board 101"))
            .collect()
    };
    let (alice, bob, carol) = (
        boards("alice@example.org"),
        boards("bob@example.org"),
        boards("carol@example.org"),
    );
    assert!(bob.len() >= 7, "the new game and six moves: {bob:#?}");
    for m in &bob {
        assert_eq!(m.subject, "Limit Board 101", "{m:#?}");
        assert_eq!(m.header("Thread-Topic").as_deref(), Some("Limit Board 101"));
    }
    // The state is in the body's first lines instead.
    assert!(
        bob.iter()
            .any(|m| m.body.lines().next().unwrap().contains("played")),
        "{bob:#?}"
    );
    assert!(
        bob.iter().any(|m| m.body.contains("It is your move, bob")),
        "{bob:#?}"
    );
    assert!(carol.len() >= 6, "{carol:#?}");
    for m in &carol {
        assert_eq!(m.subject, "Limit Board 101", "{m:#?}");
    }
    // alice keeps the state after the game: it changes with the moves.
    assert!(alice.len() >= 7, "{alice:#?}");
    for m in &alice {
        assert!(m.subject.starts_with("Limit Board 101: "), "{m:#?}");
        assert_eq!(m.header("Thread-Topic").as_deref(), Some("Limit Board 101"));
    }
    assert!(alice.iter().any(|m| m.subject.contains("your move")));
    assert!(alice.iter().any(|m| m.subject.contains("bob to move")));

    // Back to the state: the next board mail says it again.
    env.deliver(&eml("bob@example.org", "set bob pw-bob subject state", ""));
    let text = env.only_mail_to("bob@example.org").flat_body();
    assert!(text.contains("now `subject state`"), "{text}");
    assert!(text.contains("Gmail users: send `set bob <password> subject plain`"));
    assert_eq!(
        plain_rows(&env),
        [("bob".to_string(), 0), ("carol".to_string(), 1)]
    );
    env.deliver(&eml("bob@example.org", "limit show 101", ""));
    let shown = env.only_mail_to("bob@example.org");
    assert!(shown.subject.starts_with("Limit Board 101: "), "{shown:#?}");
}

#[test]
fn a_bad_subject_value_is_refused_with_how_to_write_it_and_changes_nothing() {
    let env = Env::new().with_config(EVERY_ANSWER);
    env.players(&["bob"]);
    env.admin_ok("set bob pw-bob subject plain");
    env.take_mails();
    for (line, says) in [
        (
            "set bob pw-bob subject fixed",
            "'subject' is set 'plain' or 'state', not 'fixed': write `subject plain`",
        ),
        ("set bob pw-bob subject", "'subject' alone sets nothing"),
        ("set bob pw-bob subjekt plain", "'subjekt' is not a setting"),
    ] {
        env.deliver(&eml("bob@example.org", line, ""));
        let text = env.only_mail_to("bob@example.org").flat_body();
        assert!(text.contains(says), "{line}: {text}");
        assert!(text.contains("`subject state`"), "{line}: says how: {text}");
        assert_eq!(plain_rows(&env), [("bob".to_string(), 1)], "{line}");
    }
}

#[test]
fn the_welcome_mail_and_help_tell_gmail_users_of_it() {
    let env = Env::new();
    env.deliver(&eml("dora@example.org", "signup dora pw-dora", ""));
    let welcome = env.only_mail_to("dora@example.org");
    assert!(
        welcome
            .flat_body()
            .contains("Gmail users: send `set dora <password> subject plain`"),
        "{}",
        welcome.body
    );
    env.deliver(&eml("dora@example.org", "help", ""));
    let help = env.only_mail_to("dora@example.org");
    assert!(
        help.body
            .contains("set userid password subject plain|state"),
        "{}",
        help.body
    );
    assert!(
        help.flat_body()
            .contains("Gmail keeps it in one conversation")
    );
    for m in [&welcome, &help] {
        for l in m.body.lines() {
            assert!(l.chars().count() <= 72, "over 72 columns: {l:?}");
        }
    }
}

#[test]
fn a_reminder_joins_the_games_thread_under_the_plain_subject() {
    let mut env = Env::new();
    env.players(&["alice", "bob"]);
    env.admin_ok("set alice pw-alice subject plain");
    env.take_mails();
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    let started = env.take_mails();
    let first = to(&started, "alice@example.org")[0].clone();
    assert_eq!(first.subject, "Limit Board 101");
    let root = first.header("Message-ID").expect("a Message-ID");
    // alice (to move) has not moved for eight days: the day's run reminds her.
    env.now += 8 * 86_400;
    let out = env.cmd().arg("cron").output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let mails = env.take_mails();
    let nag = to(&mails, "alice@example.org");
    assert_eq!(nag.len(), 1, "{mails:#?}");
    assert_eq!(nag[0].subject, "Limit Board 101", "{nag:#?}");
    assert!(
        nag[0]
            .body
            .starts_with("alice, it is your move on Limit Board 101"),
        "{}",
        nag[0].body
    );
    assert_eq!(nag[0].header("References"), Some(root.clone()));
    assert_eq!(nag[0].header("In-Reply-To"), Some(root));
    assert_eq!(
        nag[0].header("Thread-Topic").as_deref(),
        Some("Limit Board 101")
    );
}

#[test]
fn a_refused_move_keeps_the_plain_subject_and_the_others_see_error() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.admin_ok("set alice pw-alice subject plain");
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    env.take_mails();
    // Each sends a move that the server refuses (a tile number that is not on the board).
    for (who, pw) in [("alice", "pw-alice"), ("bob", "pw-bob")] {
        let address = format!("{who}@example.org");
        env.deliver(&eml(
            &address,
            &format!("limit move 101 {who} {pw} 98-99,97"),
            "",
        ));
        let answer = env.only_mail_to(&address);
        let want = if who == "alice" {
            "Limit Board 101"
        } else {
            "Limit Board 101 Error"
        };
        assert_eq!(answer.subject, want, "{who}: {answer:#?}");
        assert!(
            answer
                .flat_body()
                .starts_with("Your command was not carried out"),
            "{who}: {}",
            answer.flat_body()
        );
    }
    // Nothing was played.
    let shown = env.admin_ok("limit show 101");
    assert!(!shown.contains("98-99"), "{shown}");
}

//! End-to-end: `set userid password subject plain|state` (issue 25, section 2; issue 37, section
//! 3): Gmail starts a new conversation whenever the Subject changes, so a game's mails keep one
//! Subject (`Limit Board 101`) by default, with the state as the body's first line; a player may
//! take the state in the Subject with `subject state`. Real `.eml` messages through `pbem ingest`,
//! a real SQLite file, the mails read back from the file transport.

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

/// `(state_subject)` of each player with a settings row, by userid.
fn state_rows(env: &Env) -> Vec<(String, i64)> {
    let db = env.sqlite();
    let mut stmt = db
        .prepare(
            "SELECT u.userid, m.state_subject FROM mail_settings m
             JOIN users u ON u.id = m.user_id ORDER BY u.userid",
        )
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

#[test]
fn by_default_a_games_subject_stays_the_same_and_subject_state_brings_the_state_back() {
    let env = Env::new();
    env.players(&["alice", "bob", "carol"]);
    // alice wants the state in the Subject; bob and carol chose nothing.
    env.deliver(&eml(
        "alice@example.org",
        "set alice pw-alice subject state",
        "",
    ));
    let answer = env.only_mail_to("alice@example.org");
    let text = answer.flat_body();
    assert!(
        text.contains("alice's mail setting is now `subject state`"),
        "{text}"
    );
    assert!(
        text.contains("Your mail settings now: `digest off`, `mail html`, `subject state`."),
        "the setting is shown: {text}"
    );
    assert!(
        text.contains("set alice <password> subject plain"),
        "{text}"
    );
    assert_eq!(state_rows(&env), [("alice".to_string(), 1)]);

    // A subscriber without a setting keeps the game's Subject as well.
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
        // The state the Subject would have said is the body's first line.
        assert!(m.first_line().starts_with("Limit Board 101: "), "{m:#?}");
    }
    assert_eq!(
        bob[0].first_line(),
        "Limit Board 101: new game, alice to move"
    );
    assert!(
        bob.iter()
            .any(|m| m.first_line() == "Limit Board 101: your move")
    );
    assert!(
        bob.iter().any(|m| m.body.contains("Your move, bob:")),
        "{bob:#?}"
    );
    assert!(carol.len() >= 6, "{carol:#?}");
    for m in &carol {
        assert_eq!(m.subject, "Limit Board 101", "{m:#?}");
        assert!(m.first_line().starts_with("Limit Board 101: "), "{m:#?}");
    }
    // alice has the state after the game: it changes with the moves, and the body does not
    // say it twice.
    assert!(alice.len() >= 7, "{alice:#?}");
    for m in &alice {
        assert!(m.subject.starts_with("Limit Board 101: "), "{m:#?}");
        assert_eq!(m.header("Thread-Topic").as_deref(), Some("Limit Board 101"));
        assert!(!m.first_line().starts_with("Limit Board 101"), "{m:#?}");
    }
    assert!(alice.iter().any(|m| m.subject.contains("your move")));
    assert!(alice.iter().any(|m| m.subject.contains("bob to move")));

    // Back to one Subject: the next board mail has it.
    env.deliver(&eml(
        "alice@example.org",
        "set alice pw-alice subject plain",
        "",
    ));
    let text = env.only_mail_to("alice@example.org").flat_body();
    assert!(text.contains("now `subject plain`"), "{text}");
    assert_eq!(state_rows(&env), [("alice".to_string(), 0)]);
    env.deliver(&eml(
        "alice@example.org",
        "limit move 101 alice pw-alice resign",
        "",
    ));
    let over = env.only_mail_to("alice@example.org");
    assert_eq!(over.subject, "Limit Board 101", "{over:#?}");
    assert_eq!(over.first_line(), "Limit Board 101: over", "{over:#?}");
}

/// Accounts made before the plain Subject was the default take it too (migration 0048): nobody
/// could have been recorded as choosing the old Subjects, while those who chose `subject plain`
/// keep it.
#[test]
fn existing_accounts_take_the_plain_subject_when_the_database_is_brought_up_to_date() {
    let env = Env::new();
    env.players(&["alice", "bob", "carol"]);
    env.admin_ok("set alice pw-alice digest on");
    {
        // The database as the schema before 0048 left it: alice has a row for her digest (no
        // Subject chosen), bob chose `subject plain`, carol has no row. Migration 0050, the one
        // after 0048, is taken back first, so that both run again.
        let db = env.sqlite();
        let version: i64 = db
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        db.execute_batch(
            "DROP INDEX addresses_by_address;
             DROP INDEX mail_settings_digest;
             DROP INDEX chats_by_game;
             DROP TRIGGER games_clock_on_insert;
             DROP TRIGGER games_clock_on_move;
             DROP TRIGGER games_clock_on_new_clock;
             DROP TRIGGER games_clock_on_clock_change;
             DROP INDEX games_clock;
             ALTER TABLE games DROP COLUMN clock_at;
             DROP TABLE clock_basis;",
        )
        .unwrap();
        db.execute_batch(&format!(
            "ALTER TABLE mail_settings ADD COLUMN plain_subject INTEGER NOT NULL DEFAULT 0;
             ALTER TABLE mail_settings DROP COLUMN state_subject;
             INSERT INTO mail_settings (user_id, plain_subject)
                 SELECT id, 1 FROM users WHERE userid = 'bob';
             PRAGMA user_version = {};",
            version - 2
        ))
        .unwrap();
    }
    env.take_mails();
    env.admin_ok("limit challenge alice bob carol");
    let mails = env.take_mails();
    for who in ["alice", "bob", "carol"] {
        let mine = to(&mails, &format!("{who}@example.org"));
        assert!(!mine.is_empty(), "{who}: {mails:#?}");
        for m in mine {
            assert_eq!(m.subject, "Limit Board 101", "{who}: {m:#?}");
        }
    }
    assert_eq!(
        state_rows(&env),
        [("alice".to_string(), 0), ("bob".to_string(), 0)]
    );
}

#[test]
fn a_bad_subject_value_is_refused_with_how_to_write_it_and_changes_nothing() {
    let env = Env::new().with_config(EVERY_ANSWER);
    env.players(&["bob"]);
    env.admin_ok("set bob pw-bob subject state");
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
        assert_eq!(state_rows(&env), [("bob".to_string(), 1)], "{line}");
    }
}

#[test]
fn the_welcome_mail_and_help_say_one_subject_a_game_and_how_to_have_the_state() {
    let env = Env::new();
    env.deliver(&eml("dora@example.org", "signup dora pw-dora", ""));
    let welcome = env.only_mail_to("dora@example.org");
    assert!(
        welcome.flat_body().contains(
            "A game's mails keep one Subject (`Limit Board 101`), so that Gmail shows each \
             game as one conversation"
        ) && welcome
            .flat_body()
            .contains("send `set dora <password> subject state`"),
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
            .contains("plain (the default): one Subject a game, one Gmail conversation"),
        "{}",
        help.body
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
            .starts_with("Nag: Limit Board 101 alice\n\nalice, it is your move on Limit Board 101"),
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
fn a_refused_move_keeps_the_plain_subject_and_subject_state_sees_error() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.admin_ok("set bob pw-bob subject state");
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

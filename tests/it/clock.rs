//! End-to-end: the clock of correspondence play. Real `.eml` messages through `pbem ingest`, `pbem
//! cron` run as a real process with `PBEM_NOW` for the clock, a real SQLite file, and the mails read
//! back from the file transport.

use std::process::Stdio;

use crate::common::{EVERY_ANSWER, Env, NOW, Sent, eml, legal_moves_after};

const DAY: i64 = 86_400;

/// alice and bob signed up, game 101 started between them at `NOW` (alice to move); the mails so far
/// dropped.
fn started() -> Env {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    env.take_mails();
    env
}

/// Runs `pbem cron` at `NOW + days`; returns its report line and the mails it sent.
fn cron_at(env: &mut Env, days: f64) -> (String, Vec<Sent>) {
    env.now = NOW + (days * DAY as f64) as i64;
    let out = env.cmd().arg("cron").output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "cron failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = String::from_utf8(out.stdout).unwrap();
    (line.trim().to_string(), env.take_mails())
}

/// Each mail's addressee and state: its first line, where a game's one Subject (the default)
/// leaves the state the Subject used to carry (`Nag: Limit Board 101 alice`, `Limit Board 101: over`).
fn subjects(mails: &[Sent]) -> Vec<(String, String)> {
    mails
        .iter()
        .map(|m| (m.to.join(","), m.first_line().to_string()))
        .collect()
}

fn count_rows(env: &Env, sql: &str) -> i64 {
    env.sqlite().query_row(sql, [], |r| r.get(0)).unwrap()
}

fn show_101_as_bob(env: &Env) -> String {
    env.deliver(&eml("bob@example.org", "limit show 101", ""));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 1, "{mails:#?}");
    mails[0].body.clone()
}

#[test]
fn nag_at_day_seven_not_at_day_six_and_once_per_nag_time() {
    let mut env = started();
    let (line, mails) = cron_at(&mut env, 6.9);
    assert!(mails.is_empty(), "nothing before day 7: {mails:#?}");
    assert!(
        line.contains("1 games looked at, 0 nags, 0 forfeits"),
        "{line}"
    );

    let (line, mails) = cron_at(&mut env, 7.0);
    assert_eq!(
        subjects(&mails),
        [(
            "alice@example.org".to_string(),
            "Nag: Limit Board 101 alice".to_string()
        )]
    );
    assert!(line.contains("1 nags, 0 forfeits"), "{line}");
    assert!(line.contains("1 mails sent"), "{line}");
    let body = &mails[0].flat_body();
    assert!(body.contains("it has been for 7 days"), "{body}");
    assert!(body.contains("since 2026-11-18 11:06 UTC"), "{body}");
    // Forfeit 21 days after the move was awaited.
    assert!(body.contains("that is on 2026-12-09 11:06 UTC"), "{body}");
    assert!(body.contains("Summary of Limit Board 101 "), "{body}");
    assert!(body.contains("Red (alice) to move."), "{body}");
    assert_eq!(
        mails[0].header("Auto-Submitted").as_deref(),
        Some("auto-generated")
    );

    // A second run the same day, and the next day: no second nag.
    let (line, mails) = cron_at(&mut env, 7.2);
    assert!(mails.is_empty(), "{mails:#?}");
    assert!(line.contains("0 nags"), "{line}");
    assert!(cron_at(&mut env, 8.0).1.is_empty());
    // The next nag time: the second reminder.
    let (_, mails) = cron_at(&mut env, 14.0);
    assert_eq!(subjects(&mails).len(), 1);
    assert_eq!(mails[0].first_line(), "Nag: Limit Board 101 alice");
    assert!(mails[0].body.contains("for 14 days"));
    assert!(cron_at(&mut env, 14.5).1.is_empty());

    // A move starts bob's wait from the time of the move: no nag 6 days on, one at 7.
    env.now = NOW + 15 * DAY;
    let mv = &legal_moves_after(&[], 2, &[])[0];
    env.deliver(&eml(
        "alice@example.org",
        &format!("limit move 101 alice pw-alice {mv}"),
        "",
    ));
    env.take_mails();
    assert!(
        cron_at(&mut env, 21.5).1.is_empty(),
        "the move reset the clock"
    );
    let (_, mails) = cron_at(&mut env, 22.0);
    assert_eq!(
        subjects(&mails),
        [(
            "bob@example.org".to_string(),
            "Nag: Limit Board 101 bob".to_string()
        )]
    );
}

#[test]
fn forfeit_at_day_21_ends_the_game_mails_everyone_and_says_why() {
    let mut env = started();
    let (_, mails) = cron_at(&mut env, 14.0);
    assert_eq!(
        mails.len(),
        1,
        "one nag (the 14-day one) before the forfeit"
    );
    assert!(cron_at(&mut env, 20.9).1.is_empty());
    assert!(
        env.stored_game(101).legal_moves().len() > 1,
        "still going on"
    );

    let (line, mails) = cron_at(&mut env, 21.0);
    assert!(line.contains("0 nags, 1 forfeits"), "{line}");
    assert!(line.contains("2 mails sent"), "{line}");
    assert_eq!(
        subjects(&mails),
        [
            (
                "alice@example.org".to_string(),
                "Limit Board 101: over".to_string()
            ),
            (
                "bob@example.org".to_string(),
                "Limit Board 101: over".to_string()
            ),
        ]
    );
    for m in &mails {
        assert!(m.body.contains("Game over: Blue (bob) wins."), "{}", m.body);
        assert!(
            m.body.contains("alice forfeited: no move in 21 days."),
            "{}",
            m.body
        );
    }
    let moves = env.stored_moves(101);
    assert_eq!(moves.last().map(|m| m.text.as_str()), Some("forfeit"));
    assert_eq!(count_rows(&env, "SELECT finished FROM games"), 1);

    // The reason stays on the board; the clock leaves a finished game alone.
    let shown = show_101_as_bob(&env);
    assert!(
        shown.contains("alice forfeited: no move in 21 days."),
        "{shown}"
    );
    let (line, mails) = cron_at(&mut env, 30.0);
    assert!(mails.is_empty());
    assert!(line.contains("0 games looked at"), "{line}");
}

#[test]
fn a_games_own_nag_and_forfeit_times_are_honoured() {
    let mut env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml(
        "bob@example.org",
        "limit challenge --nagtime=2 --forfeittime=5 bob alice",
        "",
    ));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 2);
    assert!(
        mails[0]
            .body
            .contains("Time: a reminder after 2 days without a move, a forfeit after 5"),
        "{}",
        mails[0].body
    );
    // A second game on the server's times, for comparison.
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    env.take_mails();

    assert!(cron_at(&mut env, 1.9).1.is_empty());
    let (_, mails) = cron_at(&mut env, 2.0);
    assert_eq!(
        subjects(&mails),
        [(
            "bob@example.org".to_string(),
            "Nag: Limit Board 101 bob".to_string()
        )]
    );
    assert!(
        mails[0]
            .body
            .contains("After 5 days without a move you forfeit")
    );
    assert!(mails[0].body.contains("reminded every 2 days"));
    let (_, mails) = cron_at(&mut env, 4.0);
    assert_eq!(mails.len(), 1, "the nag of day 4");
    let (line, mails) = cron_at(&mut env, 5.0);
    assert!(
        line.contains("2 games looked at, 0 nags, 1 forfeits"),
        "{line}"
    );
    assert_eq!(mails.len(), 2);
    assert!(
        mails
            .iter()
            .all(|m| m.first_line() == "Limit Board 101: over")
    );
    assert!(mails[0].body.contains("bob forfeited: no move in 5 days."));
    // Board 102 follows the server's 7 days.
    let (_, mails) = cron_at(&mut env, 7.0);
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].first_line(), "Nag: Limit Board 102 alice");
}

#[test]
fn bad_server_options_are_refused_and_change_nothing() {
    // Every refusal's answer is read: the per-address allowances of answers are off.
    let env = Env::new().with_config(EVERY_ANSWER);
    env.players(&["alice", "bob"]);
    let cases: &[(&str, &[&str])] = &[
        (
            "--nagtime=0",
            &["--nagtime=0", "from 1 to 365", "--nagtime=14"],
        ),
        // Only a password is hidden: `abc` is checked against alice's password, and shown.
        ("--nagtime=abc", &["--nagtime=abc:", "whole number of days"]),
        ("--nagtime", &["--nagtime:", "written --nagtime=DAYS"]),
        ("--forfeittime=400", &["from 1 to 365"]),
        (
            "--frobtime=3",
            &[
                "no server option --frobtime",
                "--nagtime=DAYS",
                "--forfeittime=DAYS",
            ],
        ),
        (
            "--forfeittime=5",
            &["forfeit time (5 days) must be longer than the nag time (7 days, the server's)"],
        ),
        (
            "--nagtime=10 --forfeittime=10",
            &["forfeit time (10 days) must be longer than the nag time (10 days)"],
        ),
        ("--nagtime=2 --nagtime=3", &["--nagtime is given twice"]),
    ];
    for (opts, needles) in cases {
        env.deliver(&eml(
            "alice@example.org",
            &format!("limit challenge {opts} alice bob"),
            "",
        ));
        let mails = env.take_mails();
        assert_eq!(mails.len(), 1, "{opts}: {mails:#?}");
        assert_eq!(mails[0].to, ["alice@example.org"]);
        assert_eq!(mails[0].subject, "Limit Error", "{opts}");
        assert!(mails[0].body.contains("Nothing was changed"));
        for n in *needles {
            assert!(
                mails[0].flat_body().contains(n),
                "{opts}: lacks {n:?}:\n{}",
                mails[0].body
            );
        }
    }
    assert_eq!(count_rows(&env, "SELECT COUNT(*) FROM games"), 0);
    assert_eq!(count_rows(&env, "SELECT COUNT(*) FROM game_clocks"), 0);
}

#[test]
fn nothing_during_a_vacation_and_the_clock_resumes_after_it() {
    let mut env = started();
    // Today is 2026-11-18: away today to 2026-11-27 (back 2026-11-28 00:00 UTC).
    env.deliver(&eml(
        "alice@example.org",
        "vacation alice pw-alice 2026-11-18 2026-11-27",
        "",
    ));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].to, ["alice@example.org"]);
    assert!(
        mails[0]
            .body
            .contains("alice is on vacation from 2026-11-18 to 2026-11-27"),
        "{}",
        mails[0].body
    );
    assert!(!mails[0].raw.contains("pw-alice"), "the password leaked");

    // bob looks at the board: he is told.
    let shown = show_101_as_bob(&env);
    assert!(
        shown.contains("alice is on vacation until 2026-11-27."),
        "{shown}"
    );

    // Day 7 and day 9 (still away): nothing.
    assert!(cron_at(&mut env, 7.0).1.is_empty());
    assert!(cron_at(&mut env, 9.0).1.is_empty());
    // The vacation took 9.54 days (from 11:06 on day 0 to midnight after day 9): the 7 counted days
    // are reached at day 16.54.
    let (line, mails) = cron_at(&mut env, 16.5);
    assert!(mails.is_empty(), "{line}");
    let (_, mails) = cron_at(&mut env, 16.6);
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].first_line(), "Nag: Limit Board 101 alice");
    assert!(
        mails[0]
            .flat_body()
            .contains("for 7 days (not counting your vacation)"),
        "{}",
        mails[0].body
    );
    // No longer away: bob's view says nothing of it.
    assert!(!show_101_as_bob(&env).contains("vacation"));
    // The forfeit comes 21 counted days after the move was awaited: day 30.54.
    let (line, _) = cron_at(&mut env, 30.5);
    assert!(line.contains("0 forfeits"), "{line}");
    let (line, mails) = cron_at(&mut env, 30.6);
    assert!(line.contains("1 forfeits"), "{line}");
    assert_eq!(mails.len(), 2);
}

#[test]
fn vacation_off_restarts_the_clock_and_a_planned_vacation_is_announced() {
    let mut env = started();
    env.deliver(&eml(
        "alice@example.org",
        "vacation alice pw-alice 2026-11-25 2026-12-10",
        "",
    ));
    env.take_mails();
    // Planned, not yet begun: bob sees it coming; the clock still runs until it begins.
    let shown = show_101_as_bob(&env);
    assert!(
        shown.contains("alice will be on vacation from 2026-11-25 until 2026-12-10."),
        "{shown}"
    );
    // Cancelled: the nag of day 7 comes as if there had been no vacation.
    env.deliver(&eml("alice@example.org", "vacation alice pw-alice off", ""));
    let mails = env.take_mails();
    assert!(mails[0].body.contains("alice is back"), "{}", mails[0].body);
    assert!(!show_101_as_bob(&env).contains("vacation"));
    let (_, mails) = cron_at(&mut env, 7.0);
    assert_eq!(mails.len(), 1);
    assert!(mails[0].body.contains("for 7 days,"), "{}", mails[0].body);
}

#[test]
fn bad_vacations_are_refused_and_change_nothing() {
    // Every refusal's answer is read: the per-address allowances of answers are off.
    let env = started().with_config(EVERY_ANSWER);
    let cases: &[(&str, &str)] = &[
        (
            "vacation alice pw-alice 2026-11-01 2026-11-10",
            "already past",
        ),
        (
            "vacation alice pw-alice 2026-11-17 2026-11-20",
            "before today (2026-11-18, UTC)",
        ),
        (
            "vacation alice pw-alice 2026-11-20 2027-01-31",
            "a vacation is at most 60 days",
        ),
        (
            "vacation alice pw-alice 2028-01-01 2028-01-05",
            "at most a year ahead",
        ),
        (
            "vacation alice pw-alice 2026-11-20 2026-11-19",
            "is before the first day",
        ),
        (
            "vacation alice pw-alice 2026-11-31 2026-12-01",
            "'2026-11-31' is not a day",
        ),
        (
            "vacation alice wrong-pw 2026-11-20 2026-11-21",
            "do not match",
        ),
    ];
    for (line, needle) in cases {
        env.deliver(&eml("alice@example.org", line, ""));
        let mails = env.take_mails();
        assert_eq!(mails.len(), 1, "{line}");
        assert_eq!(mails[0].subject, "pbem error", "{line}");
        assert!(
            mails[0].flat_body().contains(needle),
            "{line}: {}",
            mails[0].body
        );
        assert!(
            !mails[0].raw.contains("pw-alice"),
            "{line}: the password leaked"
        );
    }
    assert_eq!(count_rows(&env, "SELECT COUNT(*) FROM vacations"), 0);
}

#[test]
fn two_crons_at_once_nag_and_forfeit_exactly_once() {
    for round in 0..3 {
        let mut env = Env::new();
        env.players(&["alice", "bob", "carol"]);
        // Three games started at NOW (forfeit due at day 21), three a week before that run (a nag due).
        let pairs = [("alice", "bob"), ("bob", "carol"), ("carol", "alice")];
        for (a, b) in pairs {
            env.deliver(&eml(
                &format!("{a}@example.org"),
                &format!("limit challenge {a} {b}"),
                "",
            ));
        }
        // The first three are nagged at day 14, so that day 21 may forfeit them.
        env.now = NOW + 14 * DAY;
        assert!(env.cmd().arg("cron").output().unwrap().status.success());
        for (a, b) in pairs {
            env.deliver(&eml(
                &format!("{b}@example.org"),
                &format!("limit challenge {b} {a}"),
                "",
            ));
        }
        env.take_mails();
        env.now = NOW + 21 * DAY;
        let children: Vec<_> = (0..2)
            .map(|_| {
                env.std_cmd()
                    .arg("cron")
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        let mut nags = 0;
        let mut forfeits = 0;
        for c in children {
            let out = c.wait_with_output().unwrap();
            assert_eq!(
                out.status.code(),
                Some(0),
                "round {round}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let line = String::from_utf8(out.stdout).unwrap();
            // Shown with --nocapture: how the two processes shared the work.
            println!("round {round}: {}", line.trim());
            let n = |word: &str| -> usize {
                let before = line.split(&format!(" {word}")).next().unwrap();
                before.rsplit(' ').next().unwrap().parse().unwrap()
            };
            nags += n("nags");
            forfeits += n("forfeits");
        }
        assert_eq!((nags, forfeits), (3, 3), "round {round}");
        let mails = env.take_mails();
        let nag_mails: Vec<&Sent> = mails
            .iter()
            .filter(|m| m.first_line().starts_with("Nag: "))
            .collect();
        let over: Vec<&Sent> = mails
            .iter()
            .filter(|m| m.first_line().ends_with(": over"))
            .collect();
        assert_eq!(nag_mails.len(), 3, "round {round}: {:#?}", subjects(&mails));
        assert_eq!(over.len(), 6, "round {round}: {:#?}", subjects(&mails));
        assert_eq!(mails.len(), 9, "round {round}: {:#?}", subjects(&mails));
        for board in 104..=106 {
            assert_eq!(
                nag_mails
                    .iter()
                    .filter(|m| m
                        .first_line()
                        .starts_with(&format!("Nag: Limit Board {board} ")))
                    .count(),
                1
            );
        }
        assert_eq!(
            count_rows(&env, "SELECT COUNT(*) FROM games WHERE finished = 1"),
            3
        );
        assert_eq!(
            count_rows(&env, "SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL"),
            0
        );
        assert_eq!(env.integrity_check(), "ok");
        for board in 101..=103 {
            let forfeits = env
                .stored_moves(board)
                .iter()
                .filter(|m| m.text == "forfeit")
                .count();
            assert_eq!(forfeits, 1, "round {round}, board {board}");
        }
    }
}

#[test]
fn a_forfeit_whose_mail_fails_is_sent_by_the_next_run_and_not_done_again() {
    let mut env = started();
    assert_eq!(cron_at(&mut env, 14.0).1.len(), 1, "the nag");
    // The outbox folder cannot be made (a file stands in its way): sending fails for now.
    std::fs::remove_dir_all(&env.outbox).unwrap();
    std::fs::write(&env.outbox, "in the way").unwrap();
    env.now = NOW + 21 * DAY;
    let out = env.cmd().arg("cron").output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(75),
        "mail left to send is a temporary failure"
    );
    let line = String::from_utf8(out.stdout).unwrap();
    assert!(line.contains("1 forfeits"), "{line}");
    assert!(
        line.contains("0 mails sent, 2 failed (left in the outbox)"),
        "{line}"
    );
    // The forfeit is committed with its two mails, waiting.
    assert_eq!(count_rows(&env, "SELECT finished FROM games"), 1);
    assert_eq!(
        count_rows(&env, "SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL"),
        2
    );
    // Once mail can go out again, the next run sends them, and forfeits nobody twice.
    std::fs::remove_file(&env.outbox).unwrap();
    let (line, mails) = cron_at(&mut env, 21.1);
    assert!(
        line.contains("0 games looked at, 0 nags, 0 forfeits"),
        "{line}"
    );
    assert!(line.contains("2 mails sent"), "{line}");
    assert_eq!(mails.len(), 2);
    assert!(
        mails
            .iter()
            .all(|m| m.first_line() == "Limit Board 101: over")
    );
    assert_eq!(
        env.stored_moves(101)
            .iter()
            .filter(|m| m.text == "forfeit")
            .count(),
        1
    );
}

#[test]
fn an_unanswered_draw_proposal_is_accepted_at_forfeit_time() {
    let mut env = started();
    // Bob proposes a draw while alice is to move; alice never answers (nor moves).
    env.now = NOW + DAY;
    env.deliver(&eml(
        "bob@example.org",
        "limit move 101 bob pw-bob propose draw",
        "",
    ));
    env.take_mails();
    let (line, mails) = cron_at(&mut env, 14.0);
    assert!(line.contains("0 forfeits"), "{line}");
    assert!(mails.iter().all(|m| m.first_line().starts_with("Nag:")));

    let (line, mails) = cron_at(&mut env, 21.0);
    assert!(line.contains("1 drawn at forfeit time"), "{line}");
    assert_eq!(mails.len(), 2, "{mails:#?}");
    for m in &mails {
        assert_eq!(m.first_line(), "Limit Board 101: over");
        assert!(
            m.body
                .contains("Game over: a draw between Red (alice) and Blue (bob)."),
            "{}",
            m.body
        );
        assert!(m.body.contains("accepted at forfeit time"), "{}", m.body);
        assert!(
            m.body.contains("bob's proposal of a draw is carried out"),
            "{}",
            m.body
        );
        assert!(
            !m.body.contains("forfeit\n"),
            "nobody forfeited: {}",
            m.body
        );
    }
    // The game is over as a draw and rated as one; the proposal is gone.
    assert_eq!(count_rows(&env, "SELECT finished FROM games"), 1);
    assert_eq!(count_rows(&env, "SELECT count(*) FROM proposals"), 0);
    let shown = show_101_as_bob(&env);
    assert!(!shown.contains("Open proposal"), "{shown}");
    assert!(shown.contains("draw"), "{shown}");
    // A later cron leaves the finished game alone.
    assert!(cron_at(&mut env, 30.0).1.is_empty());
}

/// `pbem cron` killed (SIGKILL) at growing moments of its run, again and again until a run finishes by
/// itself, then run once more: every forfeit is made exactly once and every player hears of it. A mail
/// can be sent twice only when the kill falls between its sending and the record of it (counted).
#[test]
fn a_cron_killed_at_any_moment_forfeits_each_game_once() {
    let mut env = Env::new();
    env.players(&["alice", "bob", "carol"]);
    let pairs = [
        ("alice", "bob"),
        ("bob", "carol"),
        ("carol", "alice"),
        ("bob", "alice"),
        ("carol", "bob"),
        ("alice", "carol"),
    ];
    for (a, b) in pairs {
        env.deliver(&eml(
            &format!("{a}@example.org"),
            &format!("limit challenge {a} {b}"),
            "",
        ));
    }
    env.take_mails();
    assert_eq!(cron_at(&mut env, 14.0).1.len(), 6, "the nags");
    env.now = NOW + 21 * DAY;
    let mut mails = Vec::new();
    let mut kills = 0;
    let mut delay_ms = 2;
    loop {
        let mut child = env
            .std_cmd()
            .arg("cron")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let finished = child.try_wait().unwrap().is_some();
        if !finished {
            child.kill().unwrap();
            kills += 1;
        }
        child.wait().unwrap();
        mails.extend(env.take_mails());
        assert_eq!(env.integrity_check(), "ok");
        if finished {
            break;
        }
        delay_ms += 3;
        assert!(delay_ms < 20_000, "cron never finished by itself");
    }
    // The next run, an hour on: a mail claimed by a killed run is taken up again once its claim is
    // stale (10 minutes), and no game is forfeited again.
    let (line, more) = cron_at(&mut env, 21.05);
    mails.extend(more);
    assert!(line.contains("0 forfeits"), "{line}");
    assert_eq!(
        count_rows(&env, "SELECT count(*) FROM games WHERE finished = 0"),
        0
    );
    for board in 101..=106 {
        let forfeits = env
            .stored_moves(board)
            .iter()
            .filter(|m| m.text == "forfeit")
            .count();
        assert_eq!(forfeits, 1, "board {board}");
    }
    // Every player of every game got the forfeit mail; copies beyond one are counted.
    let mut twice = 0;
    for board in 101..=106u32 {
        let subject = format!("Limit Board {board}: over");
        for who in ["alice", "bob", "carol"] {
            let n = mails
                .iter()
                .filter(|m| m.first_line() == subject && m.to == [format!("{who}@example.org")])
                .count();
            let plays = pairs[(board - 101) as usize];
            let expected = usize::from(plays.0 == who || plays.1 == who);
            assert!(n >= expected, "board {board} {who}: {n} mails");
            twice += n.saturating_sub(expected);
        }
    }
    eprintln!("cron killed {kills} times; forfeit mails sent twice: {twice}");
    assert_eq!(
        count_rows(&env, "SELECT count(*) FROM outbox WHERE sent_at IS NULL"),
        0
    );
}

#[test]
fn a_late_cron_nags_first_and_forfeits_only_two_days_after_the_nag() {
    let mut env = started();
    // Cron did not run for 30 days: alice is past the 21-day forfeit time, but was never warned.
    let (line, mails) = cron_at(&mut env, 30.0);
    assert!(line.contains("1 nags, 0 forfeits"), "{line}");
    assert_eq!(subjects(&mails).len(), 1);
    assert_eq!(mails[0].first_line(), "Nag: Limit Board 101 alice");
    // The nag names the forfeit day: two days after it (2026-12-18 + 2 days).
    assert!(
        mails[0]
            .flat_body()
            .contains("that is on 2026-12-20 11:06 UTC"),
        "{}",
        mails[0].body
    );
    let (line, mails) = cron_at(&mut env, 31.9);
    assert!(line.contains("0 nags, 0 forfeits"), "{line}");
    assert!(mails.is_empty(), "{mails:#?}");
    let (line, mails) = cron_at(&mut env, 32.0);
    assert!(line.contains("1 forfeits"), "{line}");
    assert_eq!(mails.len(), 2);
    assert!(
        mails
            .iter()
            .all(|m| m.first_line() == "Limit Board 101: over")
    );
}

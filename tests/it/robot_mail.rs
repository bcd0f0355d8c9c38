//! End-to-end: the robot accounts robot1..robot3 (issue 15) through the real binary, real `.eml`
//! messages and a real SQLite file: challenged by the people who play them, answering in the same
//! mail as the move that gives them the turn without ever thinking while the write lock is held,
//! never logging in, rated only in games a person played.

use crate::common;
use std::io::Write;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::common::{Env, eml};
use pbem::games::Status;

#[test]
fn a_robot_answers_each_move_in_the_same_mail() {
    let env = Env::new();
    env.players(&["alice"]);
    env.deliver(&eml(
        "alice@example.org",
        "limit challenge alice robot1",
        "",
    ));
    let new = env.only_mail_to("alice@example.org");
    assert!(
        new.first_line() == "Limit Board 101: new game, your move",
        "{}",
        new.subject
    );
    for turn in 0..3 {
        let game = env.stored_game(101);
        let Status::ToMove(0) = game.status() else {
            panic!("alice should be to move: {:?}", game.status());
        };
        let before = game.moves().len();
        let mv = game.legal_moves()[0].clone();
        env.deliver(&eml(
            "alice@example.org",
            &format!("limit move 101 alice pw-alice {mv}"),
            "",
        ));
        let mail = env.only_mail_to("alice@example.org");
        let after = env.stored_game(101);
        // alice's move and the robot's answer, both in the one board mail she gets.
        assert_eq!(after.moves().len(), before + 2, "turn {turn}");
        let robots = &after.moves()[before + 1];
        assert_eq!(robots.seat, 1);
        assert!(!after.legal_moves().is_empty());
        assert!(
            mail.body
                .contains(&format!("Blue (robot1)  {}", robots.text)),
            "turn {turn}: the robot's move {} is not in the mail:\n{}",
            robots.text,
            mail.body
        );
        assert!(
            mail.first_line() == "Limit Board 101: your move",
            "{}",
            mail.subject
        );
    }
}

#[test]
fn a_robot_that_moves_first_has_moved_in_the_new_board_mail() {
    let env = Env::new();
    env.players(&["alice"]);
    env.deliver(&eml(
        "alice@example.org",
        "limit challenge robot2 alice",
        "",
    ));
    let new = env.only_mail_to("alice@example.org");
    let game = env.stored_game(101);
    assert_eq!(game.moves().len(), 1, "the robot's first move");
    assert_eq!(game.status(), Status::ToMove(1));
    assert!(
        new.first_line() == "Limit Board 101: new game, your move",
        "{}",
        new.subject
    );
    assert!(new.body.contains("Red (robot2)"), "{}", new.body);
}

/// Issue 22, item 1: by mail, robots play people only, and only a game one of its people asked for;
/// the admin may still set robots against each other, and such a game rates nobody.
#[test]
fn robots_play_people_by_mail_and_robot_games_rate_nobody() {
    // Mallory is a stranger with four refusals to read: past three a day he would get none.
    let env = Env::new().with_config(common::EVERY_ANSWER);
    env.players(&["alice"]);
    env.deliver(&eml(
        "alice@example.org",
        "limit challenge robot1 robot2",
        "",
    ));
    let answer = env.only_mail_to("alice@example.org");
    assert!(
        answer
            .flat_body()
            .contains("A game between robots only is not made by mail"),
        "{}",
        answer.body
    );
    // A stranger cannot set a robot against a player, with or without a password of theirs.
    for line in [
        "limit challenge alice robot1",
        "limit challenge robot1 alice",
        "limit challenge --password=wrong alice robot1",
    ] {
        env.deliver(&eml("mallory@example.org", line, ""));
        let answer = env.only_mail_to("mallory@example.org").flat_body();
        assert!(
            answer.contains("A game against a robot is made by the person who plays it")
                || answer.contains("The userid 'alice' and that password do not match"),
            "{line}: {answer}"
        );
    }
    let games: i64 = env
        .sqlite()
        .query_row("SELECT count(*) FROM games", [], |r| r.get(0))
        .unwrap();
    assert_eq!(games, 0, "no game was made by mail");
    env.deliver(&eml(
        "mallory@example.org",
        "limit challenge alice robot1",
        "",
    ));
    let answer = env.only_mail_to("mallory@example.org");
    assert!(
        answer
            .flat_body()
            .contains("A game against a robot is made by the person who plays it"),
        "{}",
        answer.body
    );

    // The admin may: robots alone play it to its end (each move in its own transaction).
    env.admin_ok("limit challenge robot1 robot2 -size=3");
    env.take_mails();
    let game = env.stored_game(101);
    let Status::Over(_) = game.status() else {
        panic!("not over: {:?}", game.status());
    };
    let ratings = String::from_utf8(env.admin("limit ratings").stdout).unwrap();
    assert!(ratings.contains("No game has been rated"), "{ratings}");
    let history = common::flat(&String::from_utf8(env.admin("limit history 101").stdout).unwrap());
    assert!(
        history.contains("Not rated: robots alone played this game."),
        "{history}"
    );
    let results: i64 = env
        .sqlite()
        .query_row("SELECT count(*) FROM game_results", [], |r| r.get(0))
        .unwrap();
    assert_eq!(results, 0);

    env.deliver(&eml(
        "mallory@example.org",
        "signup robot3 some-password",
        "",
    ));
    let answer = env.only_mail_to("mallory@example.org");
    assert!(
        answer.body.contains("The userid 'robot3' is taken"),
        "{}",
        answer.body
    );
    assert!(!answer.body.contains("Welcome"), "{}", answer.body);
    env.deliver(&eml(
        "alice@example.org",
        "limit challenge alice robot3",
        "",
    ));
    env.take_mails();
    assert!(matches!(env.stored_game(102).status(), Status::ToMove(0)));
    // A robot has no password: whatever is tried is the wrong one (not a usage error).
    for pw in ["x", "robot3"] {
        let out = env.admin(&format!("limit resign 102 robot3 {pw}"));
        assert_eq!(out.status.code(), Some(1), "{pw:?}: {out:?}");
        let said = common::flat(&String::from_utf8_lossy(&out.stdout));
        assert!(
            said.contains("The userid 'robot3' and that password do not match"),
            "{pw:?}: {said}"
        );
    }
    env.take_mails();
    assert!(matches!(env.stored_game(102).status(), Status::ToMove(_)));
}

/// Issue 22, item 1: no robot thinks while the write lock is held. alice's mail starts three games
/// where robot3 moves first (about 2 s of thinking each); meanwhile bob's mails, each given only 1 s
/// to get the lock, all go through. When the robots thought inside the transaction, they exited 75.
#[test]
fn other_mails_go_through_while_robots_think() {
    // Three robot3 first moves of 2 s: more than a mail's default budget of 4 s, which would leave
    // the third to the robot queue (tests/it/robot_budget.rs); this test is about the lock.
    let env = Env::new();
    env.players(&["alice", "bob", "carol"]);
    let config = env.dir.path().join("pbem.toml");
    std::fs::write(
        &config,
        "[database]\nbusy_timeout_ms = 1000\n[limits]\nrobot_thinking_millis_per_mail = 60000\n",
    )
    .unwrap();
    let robot_mail = eml(
        "alice@example.org",
        "robots",
        "limit challenge robot3 alice\nlimit challenge robot3 alice\nlimit challenge robot3 alice\n",
    );
    let mut robots = env
        .std_cmd()
        .arg("--config")
        .arg(&config)
        .arg("ingest")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    robots
        .stdin
        .take()
        .unwrap()
        .write_all(robot_mail.as_bytes())
        .unwrap();
    let started = Instant::now();
    let mut others = Vec::new();
    while robots.try_wait().unwrap().is_none() {
        let t = Instant::now();
        let out = env
            .cmd()
            .arg("--config")
            .arg(&config)
            .arg("ingest")
            .write_stdin(eml("bob@example.org", "help", "").into_bytes())
            .output()
            .unwrap();
        others.push((out.status.code(), t.elapsed()));
        std::thread::sleep(Duration::from_millis(100));
    }
    let took = started.elapsed();
    let robots = robots.wait_with_output().unwrap();
    assert_eq!(robots.status.code(), Some(0), "{robots:?}");
    // Where bob's mails took board numbers between the two passes of alice's, robot3 moved after
    // the commit instead, with a board mail of its own: either way, it moved.
    let robot_boards: Vec<u32> = env
        .sqlite()
        .prepare(
            "SELECT g.board FROM games g JOIN seats s ON s.game_id = g.id AND s.seat = 0
             JOIN users u ON u.id = s.user_id WHERE u.userid = 'robot3'",
        )
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(robot_boards.len(), 3);
    for board in robot_boards {
        assert_eq!(
            env.stored_game(board).moves().len(),
            1,
            "robot3 moved first"
        );
    }
    assert!(
        others.len() >= 3,
        "the robots' mail took {took:?}: too quick to show anything ({others:?})"
    );
    let deferred: Vec<_> = others.iter().filter(|(code, _)| *code != Some(0)).collect();
    assert!(
        deferred.is_empty(),
        "{} of {} mails sent while the robots thought ({took:?}) were not handled: {deferred:?}",
        deferred.len(),
        others.len()
    );
}

/// Issue 22, item 1: a process killed after committing a game and before its robot's move (here
/// between two moves of a game of robots, at the admin's shell) leaves the robot to move, never
/// stuck: the next mail any process handles a minute later plays its move, and `pbem cron` plays the
/// game out.
#[test]
fn a_robot_left_to_move_by_a_killed_process_is_played_by_the_next_mail_and_by_cron() {
    let mut env = Env::new();
    env.players(&["alice"]);
    for (board, resume) in [(101, "mail"), (102, "cron")] {
        let mut admin = env
            .std_cmd()
            .args(["limit", "challenge", "robot1", "robot3", "-size=3"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Killed as soon as the game is committed: robot3 is then thinking over its first move.
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let made: i64 = env
                .sqlite()
                .query_row(
                    "SELECT count(*) FROM games WHERE board = ?1",
                    [board],
                    |r| r.get(0),
                )
                .unwrap();
            if made == 1 {
                break;
            }
            assert!(Instant::now() < deadline, "board {board} was never made");
            std::thread::sleep(Duration::from_millis(5));
        }
        admin.kill().unwrap();
        admin.wait().unwrap();
        let left = env.stored_game(board);
        let Status::ToMove(seat) = left.status() else {
            panic!("board {board}: the kill came too late: {:?}", left.status());
        };
        assert_eq!(seat, 1, "robot3 to move");
        let moves_left = left.moves().len();

        // A mail at once does not touch it (its robot may still be thinking in a live process).
        env.deliver(&eml("alice@example.org", "help", ""));
        assert_eq!(env.stored_game(board).moves().len(), moves_left);
        env.now += 61;
        match resume {
            "mail" => env.deliver(&eml("alice@example.org", "help", "")),
            _ => {
                let said = env.admin_ok("cron");
                assert!(said.contains("robot moves played"), "{said}");
            }
        }
        let game = env.stored_game(board);
        if resume == "mail" {
            // One robot move a mail at most (a mail's process is not kept thinking over a whole
            // game of robots): robot3 has answered.
            assert_eq!(game.moves().len(), moves_left + 1, "board {board}");
        } else {
            // cron plays the game of robots out.
            assert!(
                matches!(game.status(), Status::Over(_)),
                "board {board} after cron: {:?}",
                game.status()
            );
        }
        env.take_mails();
    }
}

/// The admin hands the seat to move to a robot: the robot moves at once (after the override's
/// commit, in its own transaction).
#[test]
fn a_robot_given_the_seat_to_move_by_the_admin_moves() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml(
        "alice@example.org",
        "limit challenge --password=pw-alice alice bob",
        "",
    ));
    let mv = env.stored_game(101).legal_moves()[0].clone();
    env.deliver(&eml(
        "alice@example.org",
        &format!("limit move 101 alice pw-alice {mv}"),
        "",
    ));
    assert_eq!(env.stored_game(101).status(), Status::ToMove(1));
    env.take_mails();
    env.admin_ok("admin replace limit 101 bob robot2 --reason bob-left");
    let game = env.stored_game(101);
    assert_eq!(game.moves().len(), 2, "robot2 answered");
    assert_eq!(game.status(), Status::ToMove(0));
    let to_alice = env.take_mails();
    assert!(
        to_alice
            .iter()
            .any(|m| m.to == ["alice@example.org"] && m.body.contains("Blue (robot2)")),
        "{to_alice:#?}"
    );
}

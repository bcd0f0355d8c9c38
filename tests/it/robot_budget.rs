//! End-to-end (issue 34, item 2): robots have a budget. A person starts at most
//! `unsolicited_challenges_per_day` games against robots a day; one mail causes at most
//! `robot_thinking_millis_per_mail` of robot thinking, the rest being played later by the robot queue
//! (`pbem cron`); and games a person resigns at once do not move a robot's rating.

use std::time::{Duration, Instant};

use crate::common::{Env, eml};
use pbem::games::Status;

/// Boards of games in which robot3 is seated and has made no move.
fn robots_unmoved(env: &Env, boards: &[u32]) -> Vec<u32> {
    boards
        .iter()
        .copied()
        .filter(|&b| env.stored_game(b).moves().iter().all(|m| m.seat == 0))
        .collect()
}

#[test]
fn games_against_robots_count_in_the_daily_allowance() {
    // mallory, a stranger, gets every answer (past three a day a new address gets none).
    let mut env = Env::new().with_config(crate::common::EVERY_ANSWER);
    env.players(&["alice"]);
    // The allowance is `unsolicited_challenges_per_day` (5 by default), as for games with people.
    for n in 0..5u32 {
        env.deliver(&eml(
            "alice@example.org",
            "limit challenge --password=pw-alice alice robot1",
            "",
        ));
        let mail = env.only_mail_to("alice@example.org");
        assert!(
            mail.first_line().contains("new game"),
            "game {n}: {}",
            mail.subject
        );
    }
    env.deliver(&eml(
        "alice@example.org",
        "limit challenge --password=pw-alice alice robot3",
        "",
    ));
    let answer = env.only_mail_to("alice@example.org").flat_body();
    assert!(
        answer.contains("alice has started 5 games against robots in the last 24 hours")
            && answer.contains("The next one may start at"),
        "{answer}"
    );
    // Someone with a wrong password learns nothing of alice's games: the password is checked first.
    env.deliver(&eml(
        "mallory@example.org",
        "limit challenge --password=guess alice robot3",
        "",
    ));
    let answer = env.only_mail_to("mallory@example.org").flat_body();
    assert!(
        !answer.contains("games against robots") && answer.contains("do not match"),
        "{answer}"
    );
    let games = |env: &Env| -> i64 {
        env.sqlite()
            .query_row("SELECT count(*) FROM games", [], |r| r.get(0))
            .unwrap()
    };
    assert_eq!(games(&env), 5, "the sixth game was not made");
    // A challenge of a person is not held up by it; and a day later robots play again.
    env.players(&["bob"]);
    env.deliver(&eml(
        "alice@example.org",
        "limit challenge --password=pw-alice alice bob",
        "",
    ));
    env.take_mails();
    assert_eq!(games(&env), 6);
    env.now += 86_401;
    env.deliver(&eml(
        "alice@example.org",
        "limit challenge --password=pw-alice alice robot1",
        "",
    ));
    let mail = env.only_mail_to("alice@example.org");
    assert!(mail.first_line().contains("new game"), "{}", mail.subject);
    assert_eq!(games(&env), 7);
}

#[test]
fn a_mail_of_many_robot_turns_keeps_to_its_budget_and_cron_plays_the_rest() {
    // Pictures off: drawing eight boards is not what is measured here.
    let env = Env::new()
        .with_config("[limits]\nrobot_thinking_millis_per_mail = 600\n[mail]\npictures = false\n");
    env.players(&["alice"]);
    // Three games against robot3, made at the shell (no daily allowance there), alice to move:
    // each robot3 move the mail leaves is one more for cron to think over, and eight (as before
    // issue 35) cost 5 s of CPU where three prove the same.
    let boards: Vec<u32> = (101..104).collect();
    for _ in &boards {
        env.admin_ok("limit challenge alice robot3");
    }
    env.take_mails();
    // One mail moves in all three: robot3 has three turns, each worth up to 2 s of thinking.
    let body: String = boards
        .iter()
        .map(|&b| {
            let mv = env.stored_game(b).legal_moves()[0].clone();
            format!("limit move {b} alice pw-alice {mv}\n")
        })
        .collect();
    let start = Instant::now();
    env.deliver(&eml("alice@example.org", "moves", &body));
    let took = start.elapsed();
    // The budget gives one move of 600 ms at most; the rest of the mail's work is the same as
    // without robots (under a second in a debug build). Without the budget: three full moves.
    eprintln!("the mail of three robot turns took {took:?}");
    assert!(took < Duration::from_secs(10), "the mail took {took:?}");
    for &b in &boards {
        assert_eq!(
            env.stored_game(b).moves().first().map(|m| m.seat),
            Some(0),
            "board {b}: alice's move was played"
        );
    }
    let unmoved = robots_unmoved(&env, &boards);
    assert!(
        unmoved.len() >= boards.len() - 1,
        "robot3 answered in {} games within a 600 ms budget (took {took:?})",
        boards.len() - unmoved.len()
    );
    // alice is told of all three moves all the same.
    let mails = env.take_mails();
    assert!(
        mails
            .iter()
            .filter(|m| m.to.iter().any(|t| t == "alice@example.org"))
            .count()
            >= boards.len(),
        "{mails:#?}"
    );
    // The robot queue plays the rest, each with its board mail.
    let said = env.admin_ok("cron");
    assert!(said.contains("robot moves played"), "{said}");
    assert_eq!(robots_unmoved(&env, &boards), Vec::<u32>::new(), "{said}");
    for &b in &boards {
        let game = env.stored_game(b);
        assert_eq!(game.moves()[1].seat, 1, "board {b}: robot3 answered");
        assert_eq!(game.status(), Status::ToMove(0), "board {b}");
    }
    let mails = env.take_mails();
    assert!(
        mails.len() >= boards.len() - 1,
        "the queue's moves are mailed: {mails:#?}"
    );
}

/// A `cups` board as stored in the database.
fn cups_game(env: &Env, board: u32) -> Box<dyn pbem::games::GameState> {
    let state: String = env
        .sqlite()
        .query_row(
            "SELECT st.state FROM games g JOIN game_states st ON st.game_id = g.id
             WHERE g.game_type = 'cups' AND g.board = ?1",
            [board],
            |r| r.get(0),
        )
        .unwrap();
    pbem::games::Registry::standard()
        .find("cups")
        .unwrap()
        .load(&state)
        .unwrap()
}

/// robot1's line of `cups ratings`.
fn robot1_rating(env: &Env) -> String {
    let list = env.admin_ok("cups ratings");
    list.lines()
        .find(|l| l.contains("robot1"))
        .unwrap_or("")
        .to_string()
}

#[test]
fn games_resigned_at_once_leave_the_robots_rating_where_it_was() {
    // Twenty games against robot1, each resigned at once (the farm of issue 34 took robot1's
    // Cups rating from 1600 to 1829).
    let env = Env::new().with_config("[limits]\nunsolicited_challenges_per_day = 100\n");
    env.players(&["mallory"]);
    for n in 0..20u32 {
        let board = 101 + n;
        env.deliver(&eml(
            "mallory@example.org",
            "cups challenge --password=pw-mallory mallory robot1",
            "",
        ));
        env.deliver(&eml(
            "mallory@example.org",
            &format!("cups resign {board} mallory pw-mallory"),
            "",
        ));
        let game = cups_game(&env, board);
        assert_eq!(
            game.status(),
            Status::Over(pbem::games::Outcome::Winner(1)),
            "board {board}"
        );
    }
    env.take_mails();
    let line = robot1_rating(&env);
    assert!(
        line.contains("1600"),
        "robot1 after 20 resignations: {line}"
    );
    // mallory lost twenty rated games: her own rating moved.
    let list = env.admin_ok("cups ratings");
    let hers = list.lines().find(|l| l.contains("mallory")).unwrap_or("");
    assert!(!hers.contains("1600"), "{list}");

    // A game in which the person made four moves of their own moves the robot's rating.
    env.deliver(&eml(
        "mallory@example.org",
        "cups challenge --password=pw-mallory mallory robot1",
        "",
    ));
    let board = 121;
    for turn in 0..4 {
        let game = cups_game(&env, board);
        assert_eq!(game.status(), Status::ToMove(0), "turn {turn}");
        let mv = game.legal_moves()[0].clone();
        env.deliver(&eml(
            "mallory@example.org",
            &format!("cups move {board} mallory pw-mallory {mv}"),
            "",
        ));
    }
    env.deliver(&eml(
        "mallory@example.org",
        &format!("cups resign {board} mallory pw-mallory"),
        "",
    ));
    env.take_mails();
    let line = robot1_rating(&env);
    assert!(
        !line.contains("1600"),
        "robot1 after a game with four moves of mallory's: {line}"
    );
}

#[test]
fn a_draw_past_the_mails_budget_is_declined_not_left_waiting() {
    // robot1 is Black on 3x3 Go with komi 9: lost, so it accepts a draw when it thinks
    // (tests/it/robot_proposals.rs). With no thinking left in the mail it declines at once, and no
    // proposal is left open for a robot that never writes.
    let env = Env::new().with_config("[limits]\nrobot_thinking_millis_per_mail = 0\n");
    env.players(&["alice"]);
    // At the shell (no budget there) robot1 makes its first move.
    env.admin_ok("go challenge -size=3 -komi=9 robot1 alice");
    env.take_mails();
    env.deliver(&eml(
        "alice@example.org",
        "go move 101 alice pw-alice propose draw",
        "",
    ));
    let mails = env.take_mails();
    let hers = mails
        .iter()
        .find(|m| m.to.iter().any(|t| t == "alice@example.org"))
        .expect("alice's answer");
    let body = hers.flat_body();
    assert!(
        body.contains("robot1 rejects alice's proposal of a draw: nothing changes."),
        "{body}"
    );
    let open: i64 = env
        .sqlite()
        .query_row("SELECT COUNT(*) FROM proposals", [], |r| r.get(0))
        .unwrap();
    assert_eq!(open, 0);
}

//! End-to-end: the robot accounts robot1..robot3 (issue 15) through the real binary, real `.eml`
//! messages and a real SQLite file: challenged like anyone, answering in the same transaction as the
//! move that gives them the turn, never logging in, rated like anyone.

mod common;

use common::{Env, eml};
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
        new.subject.starts_with("New Limit Board 101 alice"),
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
            mail.subject.starts_with("Limit Board 101 alice"),
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
        new.subject.starts_with("New Limit Board 101 alice"),
        "{}",
        new.subject
    );
    assert!(new.body.contains("Red (robot2)"), "{}", new.body);
}

#[test]
fn robots_cannot_log_in_nor_be_signed_up_and_play_each_other_to_the_end_rated() {
    let env = Env::new();
    env.players(&["alice"]);
    // Nobody can act as a robot: it has no password.
    env.deliver(&eml(
        "alice@example.org",
        "limit challenge robot1 robot2",
        "",
    ));
    env.take_mails();
    let game = env.stored_game(101);
    // Robots alone play the game to its end within the challenge.
    let Status::Over(_) = game.status() else {
        panic!("not over: {:?}", game.status());
    };
    let ratings = String::from_utf8(env.admin("limit ratings").stdout).unwrap();
    assert!(
        ratings.contains("robot1") && ratings.contains("robot2"),
        "{ratings}"
    );
    assert!(!ratings.contains("No game has been rated"), "{ratings}");
    let history = String::from_utf8(env.admin("limit history").stdout).unwrap();
    assert!(history.contains("Board 101: robot1 vs robot2"), "{history}");
    assert!(!history.contains("Not rated"), "{history}");

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

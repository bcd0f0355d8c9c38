//! End-to-end: robot1..robot3 play Ataxx, Hexxagon and Paradux by mail now that these games give
//! the search action ids: real `.eml` mails through `pbem ingest`, a real SQLite file. A robot that
//! moves first has moved in the new board mail, and answers each of the person's moves in the same
//! mail, with a move the stored game took as legal.

use crate::common::{Env, eml};
use pbem::games::{GameState, Outcome, Registry, Status};

/// The game of type `game` on `board` as stored in the database.
fn stored(env: &Env, game: &str, board: u32) -> Box<dyn GameState> {
    let state: String = env
        .sqlite()
        .query_row(
            "SELECT st.state FROM games g JOIN game_states st ON st.game_id = g.id
             WHERE g.game_type = ?1 AND g.board = ?2",
            rusqlite::params![game, board],
            |r| r.get(0),
        )
        .unwrap();
    Registry::standard()
        .find(game)
        .unwrap()
        .load(&state)
        .unwrap()
}

/// `robot` challenges as the first seat of `game`; alice answers with her first legal move twice
/// (unless the robot has won by then).
fn robot_plays_by_mail(game: &str, title: &str, robot: &str) {
    let env = Env::new();
    env.players(&["alice"]);
    env.deliver(&eml(
        "alice@example.org",
        &format!("{game} challenge {robot} alice"),
        "",
    ));
    let new = env.only_mail_to("alice@example.org");
    assert_eq!(new.subject, format!("{title} Board 101"));
    assert_eq!(
        new.first_line(),
        format!("{title} Board 101: new game, your move")
    );
    let first = stored(&env, game, 101);
    assert_eq!(first.moves().len(), 1, "the robot's first move");
    assert_eq!(first.status(), Status::ToMove(1));
    assert!(
        new.body.contains(&format!("Black ({robot})")),
        "{}",
        new.body
    );
    for turn in 0..2 {
        let g = stored(&env, game, 101);
        let before = g.moves().len();
        let mv = g.legal_moves()[0].clone();
        env.deliver(&eml(
            "alice@example.org",
            &format!("{game} move 101 alice pw-alice {mv}"),
            "",
        ));
        let mail = env.only_mail_to("alice@example.org");
        let after = stored(&env, game, 101);
        // alice's move and the robot's answer (no pass comes so early in these games).
        assert_eq!(after.moves().len(), before + 2, "{game} turn {turn}");
        let answer = &after.moves()[before + 1];
        assert_eq!((answer.seat, answer.auto), (0, false));
        // alice plays her first listed move, so a robot may win early (robot3 made a Paradux line
        // on its third move in one run): then the game is over, won by the robot.
        let over = after.status() == Status::Over(Outcome::Winner(0));
        assert!(
            over || after.status() == Status::ToMove(1),
            "{game} turn {turn}: {:?}",
            after.status()
        );
        assert!(
            mail.body.contains(&answer.text),
            "{game} turn {turn}: the robot's move {} is not in the mail:\n{}",
            answer.text,
            mail.body
        );
        if over {
            break;
        }
    }
}

#[test]
fn robot1_plays_ataxx_by_mail() {
    robot_plays_by_mail("ataxx", "Ataxx", "robot1");
}

#[test]
fn robot2_plays_hexxagon_by_mail() {
    robot_plays_by_mail("hexxagon", "Hexxagon", "robot2");
}

#[test]
fn robot3_plays_paradux_by_mail() {
    robot_plays_by_mail("paradux", "Paradux", "robot3");
}

#[test]
fn robot1_plays_othello_by_mail() {
    robot_plays_by_mail("othello", "Othello", "robot1");
}

//! Snapshots of the mails players read: a new board, a board after a move with a comment, and an error
//! mail. The clock and the layout seed are fixed, so the bodies are the same on every run; a change of
//! layout or wording shows up here as a diff to review.

use crate::common::{Env, eml, legal_moves_after};

#[test]
fn board_and_error_mails() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    let new_board = env.take_mails().remove(1);
    assert_eq!(
        new_board.first_line(),
        "Limit Board 101: new game, alice to move"
    );
    insta::assert_snapshot!("new_board_mail", &new_board.body);

    let m = legal_moves_after(&[], 2, &[])[0].clone();
    env.deliver(&eml(
        "alice@example.org",
        &format!("limit move 101 alice pw-alice {m}#1"),
        "Your move, Bob.\n",
    ));
    let to_bob = env.take_mails().remove(1);
    assert_eq!(
        to_bob.first_line(),
        "Limit Board 101: your move (with a comment)"
    );
    insta::assert_snapshot!("board_mail_after_a_move", &to_bob.body);

    env.deliver(&eml(
        "bob@example.org",
        "limit move 101 bob pw-bob 1-99,2",
        "",
    ));
    let error = env.take_mails().remove(0);
    assert_eq!(error.subject, "Limit Board 101");
    assert_eq!(error.first_line(), "Your command was not carried out:");
    insta::assert_snapshot!("error_mail_illegal_move", &error.body);
}

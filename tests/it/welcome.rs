//! The welcome mail (issue 37, item 6): it names every hosted game with a challenge line to send.

use crate::common::{Env, eml};

#[test]
fn the_welcome_mail_has_a_challenge_line_for_every_game() {
    let env = Env::new();
    env.deliver(&eml("alice@example.org", "signup alice pw-alice", ""));
    let welcome = env.only_mail_to("alice@example.org");
    assert!(welcome.body.contains("Welcome to"), "{}", welcome.body);
    for game in pbem::games::Registry::standard().names() {
        let line = format!("    {game} challenge alice <their userid>");
        assert!(
            welcome.body.lines().any(|l| l == line),
            "no line {line:?} in\n{}",
            welcome.body
        );
    }
    assert!(welcome.body.contains("limit challenge alice robot1"));
    assert!(welcome.body.lines().all(|l| l.chars().count() <= 72));
}

//! End-to-end: robots answer draw and undo proposals in the mail run that makes them (issue 25),
//! through `pbem ingest` with real `.eml` messages, a real SQLite file and the file transport.
//!
//! The positions are tiny Go boards with the largest komi: on 3x3, Black holds at most 9
//! points, so with `-komi=9` Black never wins (a tie at best), and the robot's search sees it.

use crate::common::{Env, Sent, eml};
use pbem::games::{GameState, Outcome, Registry, Status};

/// alice signed up and `go challenge` started board 101 with these seats; the mails are dropped.
fn go_game(seats: &str) -> Env {
    let env = Env::new();
    env.players(&["alice"]);
    env.deliver(&eml(
        "alice@example.org",
        &format!("go challenge -size=3 -komi=9 {seats}"),
        "",
    ));
    let started = env.take_mails();
    assert!(
        started.iter().any(|m| m.subject.contains("Board 101")),
        "{started:#?}"
    );
    env
}

/// Go board 101 as stored in the database.
fn stored_go(env: &Env) -> Box<dyn GameState> {
    let state: String = env
        .sqlite()
        .query_row(
            "SELECT st.state FROM games g JOIN game_states st ON st.game_id = g.id
             WHERE g.game_type = 'go' AND g.board = 101",
            [],
            |r| r.get(0),
        )
        .unwrap();
    Registry::standard()
        .find("go")
        .unwrap()
        .load(&state)
        .unwrap()
}

/// alice sends `subject`; returns every mail that came out of that one run.
fn send(env: &Env, subject: &str) -> Vec<Sent> {
    env.deliver(&eml("alice@example.org", subject, ""));
    env.take_mails()
}

/// alice's one mail among `mails`, which answers hers; and no mail asks the robot to write.
fn alices(mails: &[Sent]) -> &Sent {
    for m in mails {
        let body = m.flat_body();
        assert!(!body.contains("robot1 <password>"), "{body}");
        assert!(!body.contains("waiting for robot1"), "{body}");
        assert!(!body.contains("could not answer"), "{body}");
    }
    let hers: Vec<&Sent> = mails
        .iter()
        .filter(|m| m.to.iter().any(|t| t == "alice@example.org"))
        .collect();
    assert_eq!(hers.len(), 1, "{mails:#?}");
    hers[0]
}

#[test]
fn a_robot_that_wins_rejects_a_draw_at_once() {
    // alice is Black: lost whatever she plays; robot1 (White) wins.
    let env = go_game("alice robot1");
    let mails = send(&env, "go move 101 alice pw-alice propose draw");
    let mail = alices(&mails);
    let body = mail.flat_body();
    assert!(
        body.contains("robot1 rejects alice's proposal of a draw: nothing changes."),
        "{body}"
    );
    assert!(mail.in_reply_to().is_some(), "the answer to her mail");
    let game = stored_go(&env);
    assert_eq!(game.status(), Status::ToMove(0), "the game goes on");
    // Nothing is left open for a later mail to settle.
    let open: i64 = env
        .sqlite()
        .query_row("SELECT COUNT(*) FROM proposals", [], |r| r.get(0))
        .unwrap();
    assert_eq!(open, 0);
}

#[test]
fn a_robot_that_is_lost_accepts_a_draw_and_the_game_ends_drawn() {
    // robot1 is Black and has moved (it moves first, in the challenge's run): lost.
    let env = go_game("robot1 alice");
    assert_eq!(stored_go(&env).status(), Status::ToMove(1));
    let mails = send(&env, "go move 101 alice pw-alice propose draw");
    let body = alices(&mails).flat_body();
    assert!(
        body.contains("All players accept alice's draw proposal: the game is drawn."),
        "{body}"
    );
    assert_eq!(
        stored_go(&env).status(),
        Status::Over(Outcome::Draw(vec![0, 1]))
    );
}

#[test]
fn a_robot_accepts_an_undo_at_once() {
    let env = go_game("alice robot1");
    // alice's move, and robot1's answer in the same run: move 3 is awaited.
    let mv = stored_go(&env).legal_moves()[0].clone();
    send(&env, &format!("go move 101 alice pw-alice {mv}"));
    let before = stored_go(&env);
    assert_eq!(before.move_number(), 3);
    let mails = send(&env, "go move 101 alice pw-alice propose undo");
    let body = alices(&mails).flat_body();
    assert!(
        body.contains("All players accept alice's undo: moves 1 to 2 are taken back"),
        "{body}"
    );
    let after = stored_go(&env);
    assert_eq!(after.move_number(), 1);
    assert_eq!(after.status(), Status::ToMove(0));
}

#[test]
fn the_help_says_how_robots_answer_proposals() {
    let env = Env::new();
    for subject in ["help", "help go"] {
        env.deliver(&eml("alice@example.org", subject, ""));
        let body = env.only_mail_to("alice@example.org").flat_body();
        assert!(
            body.contains(
                "Robots answer proposals at once: they accept every undo, and a draw only \
                 when their search says their side is lost or even."
            ),
            "{subject}: {body}"
        );
    }
}

#[test]
fn with_a_person_still_to_answer_the_robot_accepts_an_undo_and_the_person_decides() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml(
        "alice@example.org",
        "limit challenge alice bob robot1",
        "",
    ));
    env.take_mails();
    // alice (Red) moves; bob's turn.
    let mv = env.stored_game(101).legal_moves()[0].clone();
    send(&env, &format!("limit move 101 alice pw-alice {mv}"));
    let mails = send(&env, "limit move 101 alice pw-alice propose undo");
    let body = alices(&mails).flat_body();
    assert!(
        body.contains("accepted by robot1; waiting for bob."),
        "{body}"
    );
    assert_eq!(env.stored_game(101).move_number(), 2, "not carried out yet");
    env.deliver(&eml(
        "bob@example.org",
        "limit move 101 bob pw-bob accept",
        "",
    ));
    let mails = env.take_mails();
    let body = alices(&mails).flat_body();
    assert!(body.contains("All players accept alice's undo"), "{body}");
    assert_eq!(env.stored_game(101).move_number(), 1);
}

#[test]
fn a_draw_proposed_after_a_move_in_one_mail_is_answered_too() {
    // alice (Black, lost) moves and proposes a draw in one `multiple` mail: the robot answers her
    // move, then the proposal, in a position the mail's first pass never reached.
    let env = go_game("alice robot1");
    let mv = stored_go(&env).legal_moves()[0].clone();
    env.deliver(&eml(
        "alice@example.org",
        "multiple",
        &format!("go move 101 alice pw-alice {mv}\ngo move 101 alice pw-alice propose draw\n"),
    ));
    let mails = env.take_mails();
    let answer = mails
        .iter()
        .map(Sent::flat_body)
        .find(|b| b.contains("robot1 rejects alice's proposal of a draw"));
    assert!(answer.is_some(), "{mails:#?}");
    for m in &mails {
        assert!(!m.flat_body().contains("could not answer"), "{m:#?}");
        assert!(!m.flat_body().contains("waiting for robot1"), "{m:#?}");
    }
    assert_eq!(stored_go(&env).move_number(), 3);
}

/// Signs carol up and subscribes her to Go board 101; the mails are dropped.
fn with_subscriber(env: &Env) {
    env.players(&["carol"]);
    env.admin_ok("go subscribe 101 carol pw-carol");
    env.take_mails();
}

/// The one mail to `who` among `mails`.
fn only_to<'a>(mails: &'a [Sent], who: &str) -> &'a Sent {
    let theirs: Vec<&Sent> = mails
        .iter()
        .filter(|m| m.to.iter().any(|t| t == who))
        .collect();
    assert_eq!(theirs.len(), 1, "{who}: {mails:#?}");
    theirs[0]
}

#[test]
fn the_comment_of_a_proposal_a_robot_settles_at_once_reaches_every_reader() {
    let env = go_game("alice robot1");
    with_subscriber(&env);
    // Rejected at once (robot1 wins): the board mails carry alice's words all the same.
    env.deliver(&eml(
        "alice@example.org",
        "go move 101 alice pw-alice propose draw",
        "Shall we call it a day?",
    ));
    let mails = env.take_mails();
    assert!(alices(&mails).flat_body().contains("robot1 rejects"));
    for who in ["alice@example.org", "carol@example.org"] {
        let body = only_to(&mails, who).body.clone();
        assert!(
            body.contains("alice writes:\nShall we call it a day?\n"),
            "{who}: {body}"
        );
    }
    // An undo, accepted and carried out at once: the same.
    let mv = stored_go(&env).legal_moves()[0].clone();
    send(&env, &format!("go move 101 alice pw-alice {mv}"));
    env.deliver(&eml(
        "alice@example.org",
        "go move 101 alice pw-alice propose undo",
        "Sorry, a slip of the mouse.",
    ));
    let mails = env.take_mails();
    assert!(
        alices(&mails)
            .flat_body()
            .contains("All players accept alice's undo")
    );
    for who in ["alice@example.org", "carol@example.org"] {
        let body = only_to(&mails, who).body.clone();
        assert!(
            body.contains("alice writes:\nSorry, a slip of the mouse.\n"),
            "{who}: {body}"
        );
    }
    assert_eq!(stored_go(&env).move_number(), 1);
}

#[test]
fn the_answer_to_a_proposal_a_robot_carries_out_never_waits_for_the_digest() {
    let env = go_game("alice robot1");
    env.admin_ok("set alice pw-alice digest on");
    env.take_mails();
    let mv = stored_go(&env).legal_moves()[0].clone();
    send(&env, &format!("go move 101 alice pw-alice {mv}"));
    // The undo is carried out in the run of alice's mail: her answer comes at once, as the
    // answer to her own mail.
    let mails = send(&env, "go move 101 alice pw-alice propose undo");
    let mail = alices(&mails);
    assert!(
        mail.flat_body().contains("All players accept alice's undo"),
        "{mail:#?}"
    );
    assert!(mail.in_reply_to().is_some(), "the answer to her mail");
    let held: i64 = env
        .sqlite()
        .query_row("SELECT held FROM mail_settings", [], |r| r.get(0))
        .unwrap();
    assert_eq!(held, 0, "nothing waits for her digest");
}

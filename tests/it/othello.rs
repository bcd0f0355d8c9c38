//! Othello (the eleventh game, on the shared move record) played whole by real mail through the
//! real ingest path (`pbem ingest` on a real SQLite file, answers read from the outbox): the help,
//! the challenge, moves by password and by a bare reply to the board mail, a refused move with its
//! reason, White passed by the engine, the end by the disc count, the text record and the stored game.

use crate::common::{Env, Sent, eml};
use pbem::games::{Outcome, Status};

/// A 15-entry game found by random play: after Black's d7 White has no move, is passed, and
/// Black's a5 leaves neither side a move.
const GAME: [&str; 14] = [
    "d3", "c3", "e6", "d2", "d1", "e1", "b2", "b4", "f1", "f6", "g7", "d6", "d7", "a5",
];

/// The one mail to `who` among `mails`.
fn to<'a>(mails: &'a [Sent], who: &str) -> &'a Sent {
    let addr = format!("{who}@example.org");
    let mine: Vec<&Sent> = mails.iter().filter(|m| m.to.contains(&addr)).collect();
    assert_eq!(mine.len(), 1, "{mails:#?}");
    mine[0]
}

/// A reply to `mail` (a board mail) holding just `text`, to its signed `Reply-To`.
fn bare_reply(from: &str, mail: &Sent, text: &str) -> String {
    let quote: String = mail.body.lines().map(|l| format!("> {l}\n")).collect();
    let body = format!(
        "{text}\n\nOn Wed, Nov 18, 2026 at 11:06 AM pbem <pbem@localhost> wrote:\n\n{quote}"
    );
    eml(from, &format!("Re: {}", mail.subject), &body).replacen(
        "To: pbem@localhost",
        &format!("To: pbem <{}>", mail.reply_address()),
        1,
    )
}

#[test]
fn a_game_of_othello_by_mail_with_a_pass_and_the_end() {
    let env = Env::new();
    env.players(&["alice", "bob", "carol"]);

    env.deliver(&eml("carol@example.org", "othello help", ""));
    let help = env.only_mail_to("carol@example.org");
    assert!(
        help.body.contains("othello move 101 alice <password> f5"),
        "{}",
        help.body
    );
    env.deliver(&eml("carol@example.org", "list", ""));
    let list = env.only_mail_to("carol@example.org");
    assert!(
        list.body.to_lowercase().contains("othello"),
        "{}",
        list.body
    );

    // A size Othello does not offer is refused with the form to write.
    env.deliver(&eml(
        "alice@example.org",
        "othello challenge -size=10 alice bob",
        "",
    ));
    let refused = env.only_mail_to("alice@example.org");
    assert!(
        refused.flat_body().contains("write -size=8"),
        "{}",
        refused.body
    );

    env.deliver(&eml("alice@example.org", "othello challenge alice bob", ""));
    let mails = env.take_mails();
    let (mut alice, mut bob) = (to(&mails, "alice").clone(), to(&mails, "bob").clone());
    assert_eq!(bob.subject, "Othello Board 101");
    assert!(
        bob.body.contains("Summary of Othello Board 101"),
        "{}",
        bob.body
    );
    assert!(
        bob.body.contains(" 4  .  .  +  O  X  .  .  .  4"),
        "{}",
        bob.body
    );
    assert!(
        bob.body.contains("Black to move (Black 2, White 2)"),
        "{}",
        bob.body
    );

    // Not a legal square for Black: the reason, the legal squares, and nothing changes.
    env.deliver(&eml(
        "alice@example.org",
        "othello move 101 alice pw-alice a1",
        "",
    ));
    let error = env.only_mail_to("alice@example.org");
    assert!(
        error
            .flat_body()
            .contains("a1 flips no White disc: a Black disc must close a line of White discs"),
        "{}",
        error.body
    );
    assert!(
        error.flat_body().contains("Black may play d3 c4 f5 e6"),
        "{}",
        error.body
    );
    assert_eq!(env.stored_game_of("othello", 101).move_number(), 1);

    for (i, mv) in GAME.iter().enumerate() {
        // Alice (Black) writes her moves with her password, in capitals; Bob (White) answers his
        // board mail with just the square.
        if i % 2 == 0 || i == 13 {
            let upper = mv.to_uppercase();
            env.deliver(&eml(
                "alice@example.org",
                &format!("othello move 101 alice pw-alice {upper}"),
                "",
            ));
        } else {
            env.deliver(&bare_reply("bob@example.org", &bob, mv));
        }
        let mails = env.take_mails();
        let game = env.stored_game_of("othello", 101);
        let last = game.moves().into_iter().rev().find(|m| !m.auto).unwrap();
        assert_eq!(last.text, *mv, "move {} was not played", i + 1);
        alice = to(&mails, "alice").clone();
        bob = to(&mails, "bob").clone();
        if i == 12 {
            assert!(
                alice
                    .body
                    .contains("White had no legal move, so the engine passed; Black moves again."),
                "{}",
                alice.body
            );
        }
    }
    // After d7 the engine passed for White; a5 ended the game.
    let game = env.stored_game_of("othello", 101);
    let moves = game.moves();
    assert_eq!(moves.len(), 15);
    assert_eq!(
        (moves[13].seat, moves[13].text.as_str(), moves[13].auto),
        (1, "pass", true)
    );
    assert_eq!(moves[14].text, "a5");
    assert_eq!(game.status(), Status::Over(Outcome::Winner(0)));
    assert!(alice.body.contains("Black wins"), "{}", alice.body);
    assert!(bob.body.contains("pass (Auto)"), "{}", bob.body);

    env.deliver(&eml("carol@example.org", "othello history 101 -record", ""));
    let record = env.only_mail_to("carol@example.org");
    let body = record.body.replace("\r\n", "\n");
    for line in [
        "Game: othello 101",
        "Black: alice",
        "White: bob",
        "Options: -size=8",
        "Result: Black wins",
        "0: Setup\n    Black: e4 d5  White: d4 e5",
        "1. black d3",
        "2. white c3",
        "14. white pass (Auto)",
        "15. black a5",
    ] {
        assert!(body.contains(line), "{line}: {body}");
    }
    // No SGF (othello-rules.md, "Records"): the refusal points to the text record.
    env.deliver(&eml("carol@example.org", "othello history 101 -sgf", ""));
    let sgf = env.only_mail_to("carol@example.org");
    assert!(
        sgf.flat_body()
            .contains("There is no SGF or PGN file of Othello Board 101"),
        "{}",
        sgf.body
    );
}

#[test]
fn the_pass_is_told_in_the_board_mail() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("alice@example.org", "othello challenge alice bob", ""));
    env.take_mails();
    for (i, mv) in GAME[..13].iter().enumerate() {
        let who = ["alice", "bob"][i % 2];
        env.deliver(&eml(
            &format!("{who}@example.org"),
            &format!("othello move 101 {who} pw-{who} {mv}"),
            "",
        ));
        env.take_mails();
    }
    // Black's d7 left White without a move: the engine passed, and it is Black's turn again.
    let game = env.stored_game_of("othello", 101);
    assert_eq!(game.status(), Status::ToMove(0));
    assert_eq!(game.legal_moves(), ["a5"]);
    env.deliver(&eml("bob@example.org", "othello show 101", ""));
    let shown = env.only_mail_to("bob@example.org");
    assert!(shown.body.contains("pass (Auto)"), "{}", shown.body);
    // Nobody writes a pass: Black, to move, is told that the engine makes them.
    env.deliver(&eml(
        "alice@example.org",
        "othello move 101 alice pw-alice pass",
        "",
    ));
    let refused = env.only_mail_to("alice@example.org");
    assert!(
        refused.flat_body().contains("the engine passes for you"),
        "{}",
        refused.body
    );
    assert_eq!(env.stored_game_of("othello", 101).move_number(), 15);
}

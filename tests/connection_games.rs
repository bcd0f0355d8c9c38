//! The connection games (Hex, Chameleon; Y and Unlur join later), each played whole by real mail
//! through the real ingest path (`pbem ingest` on a real SQLite file, answers read from the outbox):
//! the challenge, a move refused with its reason, the game's own rule (Hex's swap, Chameleon's
//! either colour), a win, and the ratings. One module a game.

mod common;

use common::{Env, Sent, eml};

/// Delivers `subject` from `who`@example.org and returns the mails it caused.
fn send(env: &Env, who: &str, subject: &str) -> Vec<Sent> {
    env.deliver(&eml(&format!("{who}@example.org"), subject, ""));
    env.take_mails()
}

/// The one mail to `who` among `mails`.
fn to<'a>(mails: &'a [Sent], who: &str) -> &'a Sent {
    let addr = format!("{who}@example.org");
    let mine: Vec<&Sent> = mails.iter().filter(|m| m.to.contains(&addr)).collect();
    assert_eq!(mine.len(), 1, "{mails:#?}");
    mine[0]
}

/// The board number a mail's subject names.
fn board_of(mail: &Sent) -> u32 {
    mail.subject
        .split_whitespace()
        .find_map(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("no board in {:?}", mail.subject))
}

/// The move list of board `board` of `game` as the database holds it.
fn stored_moves(env: &Env, game: &str, board: u32) -> Vec<String> {
    let state: String = env
        .sqlite()
        .query_row(
            "SELECT st.state FROM games g JOIN game_states st ON st.game_id = g.id
             WHERE g.game_type = ?1 AND g.board = ?2",
            rusqlite::params![game, board],
            |r| r.get(0),
        )
        .unwrap();
    let rules = pbem::games::Registry::standard().find(game).unwrap();
    let state = rules.load(&state).unwrap();
    state.moves().into_iter().map(|m| m.text).collect()
}

/// Runs `pbem engine WORDS` with `stdin`; returns the exit code, stdout and stderr.
fn engine(words: &str, stdin: &str) -> (i32, String, String) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(common::pbem_bin())
        .arg("engine")
        .args(words.split_whitespace())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

mod hex {
    use super::*;

    #[test]
    fn the_engine_interface_as_the_page_says() {
        let (code, game, _) = engine("hex new -size=3 --players 2 --seed 9", "");
        assert_eq!(code, 0);
        assert_eq!(engine("hex status", &game).1, "to-move 0\n");
        assert_eq!(
            engine("hex moves", &game).1,
            "a1\na2\na3\nb1\nb2\nb3\nc1\nc2\nc3\n"
        );
        assert_eq!(engine("hex perft 4", &game).1, "3528\n");
        let (code, after, _) = engine("hex play b2 swap#2", &game);
        assert_eq!(code, 0);
        assert_eq!(engine("hex status", &after).1, "to-move 0\n");
        assert!(!engine("hex moves", &after).1.contains("swap"));
        let (code, _, err) = engine("hex play resign", &game);
        assert_eq!(code, 1);
        assert!(err.contains("not a move"), "{err}");
        let (code, _, _) = engine("hex play a1 swap a2 swap", &game);
        assert_eq!(code, 1, "a second swap is refused");
        let (_, won, _) = engine("hex play b1 a1 b2 a2 b3", &game);
        assert_eq!(engine("hex status", &won).1, "winner 0\n");
        assert_eq!(engine("hex moves", &won).1, "");
        let (code, _, err) = engine("hex new --players 3", "");
        assert_eq!(code, 2);
        assert!(err.contains("played by 2 players, not 3"), "{err}");
        let (code, svg, _) = engine("hex svg", &won);
        assert!(code == 0 && svg.starts_with("<svg"), "{svg}");
    }

    #[test]
    fn a_game_of_hex_by_mail_with_the_swap() {
        let env = Env::new();
        env.players(&["alice", "bob"]);
        let help = send(&env, "alice", "help hex");
        assert!(
            to(&help, "alice")
                .body
                .contains("hex move 101 <userid> <password> swap")
        );

        let mails = send(&env, "alice", "hex challenge alice bob -size=3");
        let new = to(&mails, "bob");
        let n = board_of(new);
        assert!(new.subject.contains("Hex"), "{}", new.subject);
        assert!(new.body.contains("-size=3 -swap"), "{}", new.body);
        assert!(
            new.body.contains("    a b c\n 1  . . .  1\n"),
            "{}",
            new.body
        );
        assert!(
            new.raw.contains("image/png"),
            "the board picture is attached"
        );

        // Black (alice) a2; bob's mail offers the swap as a whole line to send.
        let mails = send(&env, "alice", &format!("hex move {n} alice pw-alice a2"));
        let bobs = to(&mails, "bob");
        assert!(
            bobs.body
                .contains(&format!("hex move {n} bob <password> swap#2")),
            "{}",
            bobs.body
        );
        assert!(bobs.flat_body().contains("White may swap"), "{}", bobs.body);

        // Refused with the reason, nothing changes: a taken cell, a leading zero.
        for (mv, why) in [("a2", "a2 is taken"), ("c03", "no leading zero")] {
            let mails = send(&env, "bob", &format!("hex move {n} bob pw-bob {mv}"));
            let refused = to(&mails, "bob");
            assert!(refused.flat_body().contains(why), "{}", refused.body);
        }
        assert_eq!(stored_moves(&env, "hex", n), ["a2"]);

        // The swap: a2's mirror is b1, now white; Black moves next.
        let mails = send(&env, "bob", &format!("hex move {n} bob pw-bob swap"));
        let alices = to(&mails, "alice");
        assert!(
            alices
                .flat_body()
                .contains("White swapped: Black's stone on a2 became a white stone on b1"),
            "{}",
            alices.body
        );
        assert!(alices.body.contains(" 1  .(O).  1"), "{}", alices.body);

        for (who, mv) in [
            ("alice", "c1"),
            ("bob", "a1"),
            ("alice", "c2"),
            ("bob", "a3"),
        ] {
            send(&env, who, &format!("hex move {n} {who} pw-{who} {mv}"));
        }
        let mails = send(&env, "alice", &format!("hex move {n} alice pw-alice c3"));
        let end = to(&mails, "bob");
        assert!(
            end.flat_body().contains("Black (alice) wins"),
            "{}",
            end.body
        );
        assert!(end.body.contains("Rating changes:"), "{}", end.body);
        let ratings = env.admin_ok("hex ratings");
        assert!(
            ratings.contains("alice") && ratings.contains("bob"),
            "{ratings}"
        );
        assert_eq!(
            stored_moves(&env, "hex", n),
            ["a2", "swap", "c1", "a1", "c2", "a3", "c3"]
        );
    }
}

mod chameleon {
    use super::*;

    #[test]
    fn the_engine_interface_as_the_page_says() {
        let (_, game, _) = engine("chameleon new -size=2", "");
        assert_eq!(engine("chameleon status", &game).1, "to-move 0\n");
        assert_eq!(engine("chameleon moves", &game).1.lines().count(), 8);
        assert_eq!(engine("chameleon perft 3", &game).1, "112\n");
        let (_, won, _) = engine("chameleon play b:a2 b:b1", &game);
        assert_eq!(engine("chameleon status", &won).1, "winner 1\n");
        assert_eq!(engine("chameleon play a1", &game).0, 1);
        assert_eq!(engine("chameleon new -swap", "").0, 1);
    }

    #[test]
    fn a_game_of_chameleon_by_mail_won_by_the_seat_that_did_not_place_the_stone() {
        let env = Env::new();
        env.players(&["alice", "bob"]);
        let mails = send(&env, "alice", "chameleon challenge alice bob -swap");
        assert!(
            to(&mails, "alice")
                .flat_body()
                .contains("without the pie rule"),
            "{mails:#?}"
        );
        let mails = send(&env, "alice", "chameleon challenge alice bob -size=3");
        let n = board_of(to(&mails, "bob"));

        let mails = send(
            &env,
            "alice",
            &format!("chameleon move {n} alice pw-alice c3"),
        );
        assert!(
            to(&mails, "alice").flat_body().contains("b:c3"),
            "{mails:#?}"
        );
        assert!(stored_moves(&env, "chameleon", n).is_empty());

        let mails = send(
            &env,
            "alice",
            &format!("chameleon move {n} alice pw-alice B : b1"),
        );
        assert!(
            to(&mails, "bob")
                .body
                .contains(&format!("chameleon move {n} bob <password> w:a1#2")),
            "either colour is offered: {mails:#?}"
        );
        send(&env, "bob", &format!("chameleon move {n} bob pw-bob w:a1"));
        send(
            &env,
            "alice",
            &format!("chameleon move {n} alice pw-alice b:b3"),
        );
        // Bob (seat 1) joins top and bottom with black b1-b2-b3: Vertical (alice) wins.
        let mails = send(&env, "bob", &format!("chameleon move {n} bob pw-bob b:b2"));
        let end = to(&mails, "alice");
        assert!(
            end.flat_body().contains("Vertical (alice) wins"),
            "{}",
            end.body
        );
        assert!(end.body.contains("Rating changes:"), "{}", end.body);
        assert!(env.admin_ok("chameleon ratings").contains("alice"));
    }
}

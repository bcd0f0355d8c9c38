//! The connection games (Hex, Chameleon, Y and Unlur), each played whole by real mail
//! through the real ingest path (`pbem ingest` on a real SQLite file, answers read from the outbox):
//! the challenge, a move refused with its reason, the game's own rule (Hex's swap, Chameleon's
//! either colour), a win, and the ratings. One module a game.

use crate::common;
use crate::common::{Env, Sent, eml};

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
        .find_map(|w| w.trim_end_matches(':').parse().ok())
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

// Y and Unlur (helper `y`): their own helpers, which deliver without taking the mails.

/// Sends one command line as the subject of a mail from `who`.
fn post(env: &Env, who: &str, line: &str) {
    env.deliver(&eml(&format!("{who}@example.org"), line, ""));
}

/// The board number a new-game mail names in its subject (`Y Board 101: new game, your move`).
fn board_number(mails: &[Sent]) -> u32 {
    mails
        .iter()
        .find_map(|m| {
            m.subject
                .split_whitespace()
                .find_map(|w| w.trim_end_matches(':').parse::<u32>().ok())
        })
        .expect("a mail names the board")
}

/// Plays `line` as `who` and returns the mail to `to` it caused (the board mail, or an error).
fn play(env: &Env, who: &str, line: &str, to: &str) -> Sent {
    post(env, who, line);
    let mails = env.take_mails();
    mails
        .into_iter()
        .find(|m| m.to.iter().any(|t| t == &format!("{to}@example.org")))
        .unwrap_or_else(|| panic!("no mail to {to} after {line}"))
}

/// The ratings list of a game, as the admin reads it.
fn ratings(env: &Env, game: &str) -> String {
    env.admin_ok(&format!("{game} ratings"))
}

mod y {
    use super::*;

    #[test]
    fn the_engine_interface_as_the_page_says() {
        let (code, game, _) = engine("y new -size=3 --players 2 --seed 9", "");
        assert_eq!(code, 0);
        assert_eq!(engine("y status", &game).1, "to-move 0\n");
        assert_eq!(engine("y moves", &game).1, "a1\na2\na3\nb2\nb3\nc3\n");
        assert_eq!(engine("y perft 5", &game).1, "1080\n");
        let (code, after, _) = engine("y play b3 swap#2", &game);
        assert_eq!(code, 0);
        assert_eq!(engine("y status", &after).1, "to-move 0\n");
        assert_eq!(engine("y moves", &after).1, "a1\na2\na3\nb2\nc3\n");
        let (code, _, err) = engine("y play b3 swap swap", &game);
        assert_eq!(code, 1, "a second swap is refused");
        assert!(err.contains("only the second move"), "{err}");
        let (code, _, err) = engine("y play b1", &game);
        assert_eq!(code, 1);
        assert!(err.contains("no cell b1"), "{err}");
        let (code, _, err) = engine("y play resign", &game);
        assert!(code == 1 && err.contains("not a move"), "{err}");
        let (_, won, _) = engine(
            "y play a1 b2 a2 c3 a3",
            &engine("y new -size=3 -no_swap", "").1,
        );
        assert_eq!(engine("y status", &won).1, "winner 0\n");
        assert_eq!(engine("y moves", &won).1, "");
        let (code, _, err) = engine("y new --players 3", "");
        assert!(
            code == 2 && err.contains("played by 2 players, not 3"),
            "{err}"
        );
        let (code, svg, _) = engine("y svg", &won);
        assert!(code == 0 && svg.starts_with("<svg"), "{svg}");
        let (code, tally, _) = engine("y playout --games 20 -size=5", "");
        assert!(
            code == 0 && tally.contains("draw 0\nunfinished 0\n"),
            "{tally}"
        );
    }

    #[test]
    fn a_game_of_y_by_mail_with_the_swap_a_refusal_a_win_and_ratings() {
        let env = Env::new();
        env.players(&["alice", "bob"]);

        post(&env, "alice", "help y");
        let help = env.only_mail_to("alice@example.org");
        assert!(
            help.body.contains("Connect all three sides"),
            "{}",
            help.body
        );

        // A bad option is refused with the list of valid ones; nothing starts.
        post(
            &env,
            "alice",
            "y challenge --password=pw-alice alice bob -size=25",
        );
        let refused = env.only_mail_to("alice@example.org");
        assert!(
            refused
                .flat_body()
                .contains("-size=25 is not a side from 2 to 19"),
            "{}",
            refused.body
        );

        post(
            &env,
            "alice",
            "y challenge --password=pw-alice alice bob -size=4",
        );
        let mails = env.take_mails();
        let b = board_number(&mails);
        post(&env, "bob", &format!("y move {b} bob pw-bob accept"));
        env.take_mails();

        // Alice (Black, seat 0) is told the line to send; a cell off the triangle is refused.
        let shown = env.admin_ok(&format!("y show {b}"));
        assert!(shown.contains("Options: -size=4 -swap"), "{shown}");
        assert!(shown.contains(" 4  . . . .  4"), "{shown}");
        let err = play(
            &env,
            "alice",
            &format!("y move {b} alice pw-alice b1"),
            "alice",
        );
        // alice's own game: the answer keeps its one Subject and says it was refused first.
        assert_eq!(err.subject, format!("Y Board {b}"));
        assert_eq!(err.first_line(), "Your command was not carried out:");
        assert!(
            err.flat_body()
                .contains("there is no cell b1 on this board"),
            "{}",
            err.body
        );

        // Black b3; White's board mail offers the swap with the line to send.
        let to_bob = play(
            &env,
            "alice",
            &format!("y move {b} alice pw-alice b3#1"),
            "bob",
        );
        assert!(to_bob.body.contains("Your move, bob:"), "{}", to_bob.body);
        assert!(
            to_bob.flat_body().contains("White may answer with `swap`"),
            "{}",
            to_bob.body
        );
        assert!(
            to_bob
                .body
                .contains(&format!("    y move {b} bob <password> swap#2\n")),
            "{}",
            to_bob.body
        );
        let swapped = play(
            &env,
            "bob",
            &format!("y move {b} bob pw-bob swap#2"),
            "alice",
        );
        assert!(
            swapped
                .flat_body()
                .contains("White swapped: Black's first stone is now White's"),
            "{}",
            swapped.body
        );
        assert!(swapped.body.contains("  3  .(W).  3"), "{}", swapped.body);
        // No second swap.
        let again = play(
            &env,
            "alice",
            &format!("y move {b} alice pw-alice swap"),
            "alice",
        );
        assert!(
            again.flat_body().contains("only the second move"),
            "{}",
            again.body
        );

        // Black runs down the left side: a1 (left and right) to a4 (left and bottom).
        for (who, mv) in [
            ("alice", "a1"),
            ("bob", "c4"),
            ("alice", "a2"),
            ("bob", "d4"),
            ("alice", "a3"),
            ("bob", "c3"),
        ] {
            play(&env, who, &format!("y move {b} {who} pw-{who} {mv}"), who);
        }
        let end = play(
            &env,
            "alice",
            &format!("y move {b} alice pw-alice a4"),
            "bob",
        );
        assert!(
            end.flat_body().contains("Game over: Black (alice) wins."),
            "{}",
            end.body
        );
        assert!(
            end.body.contains("alice 1600 -> 1632 (+32)"),
            "{}",
            end.body
        );
        let r = ratings(&env, "y");
        assert!(r.contains("alice") && r.contains("1632"), "{r}");
        assert!(r.contains("bob") && r.contains("1568"), "{r}");
        // The stored game is Y's own document, and it reads back to the finished game.
        let stored = env.stored_game_of("y", b);
        assert_eq!(stored.moves().len(), 9);
        assert_eq!(stored.moves()[1].text, "swap");
        assert_eq!(
            stored.status(),
            pbem::games::Status::Over(pbem::games::Outcome::Winner(0))
        );
    }
}

mod unlur {
    use super::*;

    #[test]
    fn the_engine_interface_as_the_page_says() {
        let (code, game, _) = engine("unlur new -size=3 --players 2 --seed 9", "");
        assert_eq!(code, 0);
        assert_eq!(engine("unlur status", &game).1, "to-move 0\n");
        assert_eq!(
            engine("unlur moves", &game).1,
            "b3\nb4\nc2\nc3\nc4\nd2\nd3\npass\n"
        );
        assert_eq!(engine("unlur perft 3", &game).1, "720\n");
        let (code, after, _) = engine("unlur play c3 pass#2", &game);
        assert_eq!(code, 0);
        assert_eq!(engine("unlur status", &after).1, "to-move 0\n");
        assert_eq!(engine("unlur moves", &after).1.lines().count(), 18);
        let (code, _, err) = engine("unlur play c1", &game);
        assert!(code == 1 && err.contains("edge cell"), "{err}");
        let (code, _, err) = engine("unlur play pass swap", &game);
        assert!(code == 1 && err.contains("no swap"), "{err}");
        let (code, _, err) = engine("unlur play pass c1 pass", &game);
        assert!(code == 1 && err.contains("no pass any more"), "{err}");
        let (_, won, _) = engine("unlur play pass c1 a5 c2 b5 c3 e1 c4 e2 c5", &game);
        assert_eq!(engine("unlur status", &won).1, "winner 1\n");
        assert_eq!(engine("unlur moves", &won).1, "");
        let (code, _, err) = engine("unlur new -size=2", "");
        assert!(
            code == 1 && err.contains("not a side from 3 to 13"),
            "{err}"
        );
        let (code, svg, _) = engine("unlur svg", &won);
        assert!(code == 0 && svg.starts_with("<svg"), "{svg}");
    }

    #[test]
    fn a_game_of_unlur_by_mail_with_the_contract_a_refusal_a_win_and_ratings() {
        let env = Env::new();
        env.players(&["alice", "bob"]);

        post(&env, "bob", "help unlur");
        let help = env.only_mail_to("bob@example.org");
        assert!(help.body.contains("THE CONTRACT"), "{}", help.body);

        post(
            &env,
            "alice",
            "unlur challenge --password=pw-alice alice bob -swap",
        );
        let refused = env.only_mail_to("alice@example.org");
        assert!(refused.flat_body().contains("no swap"), "{}", refused.body);

        post(
            &env,
            "alice",
            "unlur challenge --password=pw-alice alice bob -size=3",
        );
        let b = board_number(&env.take_mails());
        post(&env, "bob", &format!("unlur move {b} bob pw-bob accept"));
        env.take_mails();

        // The contract: the board mail says what may be sent; an edge cell is refused.
        let shown = env.admin_ok(&format!("unlur show {b}"));
        assert!(shown.contains("First (alice) to move."), "{shown}");
        assert!(shown.contains("Contract phase"), "{shown}");
        let err = play(
            &env,
            "alice",
            &format!("unlur move {b} alice pw-alice c1"),
            "alice",
        );
        assert!(
            err.flat_body().contains("c1 is an edge cell"),
            "{}",
            err.body
        );

        // alice puts a black stone on c3; bob passes and becomes Black; alice (White) moves.
        let to_bob = play(
            &env,
            "alice",
            &format!("unlur move {b} alice pw-alice c3#1"),
            "bob",
        );
        assert!(to_bob.body.contains("Your move, bob:"), "{}", to_bob.body);
        assert!(
            to_bob.flat_body().contains("or send `pass`"),
            "{}",
            to_bob.body
        );
        assert!(
            to_bob
                .body
                .contains(&format!("    unlur move {b} bob <password> pass#2\n")),
            "{}",
            to_bob.body
        );
        let passed = play(
            &env,
            "bob",
            &format!("unlur move {b} bob pw-bob pass#2"),
            "alice",
        );
        assert!(
            passed
                .flat_body()
                .contains("The contract is over: the second player passed and plays Black"),
            "{}",
            passed.body
        );
        assert!(
            passed.flat_body().contains("White (alice) to move."),
            "{}",
            passed.body
        );
        let no_pass = play(
            &env,
            "alice",
            &format!("unlur move {b} alice pw-alice pass"),
            "alice",
        );
        assert!(
            no_pass.flat_body().contains("no pass any more"),
            "{}",
            no_pass.body
        );

        // Black (bob) makes a line, c1 to c5, but no Y: Black loses, alice wins.
        for (who, mv) in [
            ("alice", "e1"),
            ("bob", "c1"),
            ("alice", "e2"),
            ("bob", "c2"),
            ("alice", "a4"),
            ("bob", "c4"),
            ("alice", "b5"),
        ] {
            play(
                &env,
                who,
                &format!("unlur move {b} {who} pw-{who} {mv}"),
                who,
            );
        }
        let end = play(
            &env,
            "bob",
            &format!("unlur move {b} bob pw-bob c5"),
            "alice",
        );
        assert!(
            end.flat_body().contains("Game over: White (alice) wins."),
            "{}",
            end.body
        );
        let stored = env.stored_game_of("unlur", b);
        assert_eq!(stored.moves()[1].text, "pass");
        assert_eq!(stored.seat_names(), ["White", "Black"]);
        let r = ratings(&env, "unlur");
        assert!(r.contains("alice") && r.contains("1632"), "{r}");
        assert!(r.contains("bob") && r.contains("1568"), "{r}");
    }
}

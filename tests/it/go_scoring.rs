//! End-to-end: Go's scoring step after two passes (issue 24, "Go as Go players expect it"), played
//! by real `.eml` mails through `pbem ingest` on a real SQLite file: marking dead groups, both
//! players accepting the same marking, resuming play, the clocks in the step, robots in it, and
//! the agreed result in the history and the SGF record.

use crate::common::{Env, NOW, Sent, eml};

use pbem::games::{GameState, Registry, Status};

const DAY: i64 = 86_400;

/// alice (Black) and bob (White) on a 5×5 board 101, made by the admin (both agreed: rated).
fn started(extra: &str) -> Env {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.admin_ok(&format!("go challenge -size=5 {extra} alice bob"));
    env.take_mails();
    env
}

/// `go move 101 <who> pw-<who> <line>` by mail from `who`; the mails it caused.
fn send(env: &Env, who: &str, line: &str) -> Vec<Sent> {
    env.deliver(&eml(
        &format!("{who}@example.org"),
        &format!("go move 101 {who} pw-{who} {line}"),
        "",
    ));
    env.take_mails()
}

/// The one mail to `who` among `mails`.
fn to<'a>(mails: &'a [Sent], who: &str) -> &'a Sent {
    let to: Vec<&Sent> = mails
        .iter()
        .filter(|m| m.to.iter().any(|t| t == &format!("{who}@example.org")))
        .collect();
    assert_eq!(to.len(), 1, "{mails:#?}");
    to[0]
}

/// The red pixels of the board picture a mail carries: the crosses on stones marked dead.
fn red_pixels(mail: &Sent) -> usize {
    use mail_parser::MimeHeaders;
    let msg = mail_parser::MessageParser::default()
        .parse(mail.raw.as_bytes())
        .unwrap();
    let png = msg
        .attachments()
        .find(|a| a.content_type().is_some_and(|c| c.subtype() == Some("png")))
        .expect("the board picture");
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png.contents()));
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf[..info.buffer_size()]
        .chunks_exact(info.color_type.samples())
        .filter(|p| p[0] > 150 && p[1] < 60 && p[2] < 60)
        .count()
}

/// Board 101 as stored.
fn stored(env: &Env) -> Box<dyn GameState> {
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

fn raw_state(env: &Env) -> String {
    env.sqlite()
        .query_row(
            "SELECT st.state FROM game_states st JOIN games g ON st.game_id = g.id
             WHERE g.board = 101",
            [],
            |r| r.get(0),
        )
        .unwrap()
}

/// Black c3, White a1 (a stone with no life in Black's area), two passes: the step opens with
/// alice (who passed first) awaited. Returns the mails of the second pass.
fn to_the_step(env: &Env) -> Vec<Sent> {
    send(env, "alice", "c3#1");
    send(env, "bob", "a1#2");
    send(env, "alice", "pass#3");
    send(env, "bob", "pass#4")
}

#[test]
fn two_passes_open_the_step_and_both_accepting_the_marking_ends_the_game_rated() {
    let env = started("");
    let mails = to_the_step(&env);
    let game = stored(&env);
    assert_eq!(game.status(), Status::ToMove(0), "the step, not the end");
    let alice = to(&mails, "alice").flat_body();
    assert!(
        alice.contains("Both players passed: the scoring step is open"),
        "{alice}"
    );
    assert!(alice.contains("Marked dead: none."), "{alice}");
    // The line to send, for the player the step waits for.
    assert!(
        alice.contains("go move 101 alice <password> accept#5"),
        "{alice}"
    );
    assert!(
        alice.contains("go move 101 alice <password> dead a1#5"),
        "{alice}"
    );
    assert!(
        alice.contains("go move 101 alice <password> resume#5"),
        "{alice}"
    );
    assert_eq!(red_pixels(to(&mails, "alice")), 0, "nothing marked yet");

    // bob marks his own a1 dead, though the step waits for alice: either player may mark.
    let mails = send(&env, "bob", "dead a1#5");
    let body = &to(&mails, "alice").body;
    assert!(
        body.contains(" 1  o . . . . 1"),
        "a1 drawn as a dead stone:\n{body}"
    );
    assert!(
        body.contains("bob marked dead: a1 (1 white stone)."),
        "{body}"
    );
    assert!(
        red_pixels(to(&mails, "alice")) > 20,
        "a1 crossed in the picture"
    );
    // The step's notes (from the komi line to the move list) are mail lines.
    let notes: Vec<&str> = body
        .lines()
        .skip_while(|l| !l.starts_with("Komi"))
        .take_while(|l| !l.starts_with("Moves"))
        .collect();
    assert!(notes.len() >= 5, "{body}");
    assert!(notes.iter().all(|l| l.chars().count() <= 72), "{notes:#?}");
    assert!(body.contains("x o stones marked dead"), "{body}");
    let flat = pbem_flat(body);
    assert!(flat.contains("Marked dead: a1 (1 white stone)."), "{flat}");
    assert!(
        flat.contains(
            "Score with the marked stones taken off: Black 25, White 0 + 7.5 = 7.5: Black \
             wins by 17.5."
        ),
        "{flat}"
    );
    assert_eq!(stored(&env).status(), Status::ToMove(0));

    // alice accepts (the word `accept` with no proposal open is the step's move).
    let mails = send(&env, "alice", "accept#6");
    assert!(
        to(&mails, "bob")
            .flat_body()
            .contains("Black has accepted this marking; White has not."),
        "{}",
        to(&mails, "bob").body
    );
    assert_eq!(stored(&env).status(), Status::ToMove(1));
    let mails = send(&env, "bob", "accept#7");
    let end = to(&mails, "alice");
    assert!(end.first_line().ends_with(": over"), "{}", end.subject);
    let flat = end.flat_body();
    assert!(
        flat.contains(
            "Final score by the players' agreement, dead: a1 (1 white stone). Black 25, White \
             0 + 7.5 = 7.5: Black wins by 17.5."
        ),
        "{flat}"
    );
    // The engine's own score of the board would have been White's: only the agreement gives
    // Black the game.
    assert!(
        flat.contains(
            "Tromp-Taylor, every stone alive: Black 1, White 1 + 7.5 = 8.5: White wins by 7.5."
        ),
        "{flat}"
    );
    assert_eq!(
        stored(&env).status(),
        Status::Over(pbem::games::Outcome::Winner(0))
    );
    let ratings = env.admin_ok("go ratings");
    assert!(
        ratings.contains("alice") && ratings.contains("bob") && ratings.contains("1632"),
        "{ratings}"
    );
    // The history shows the marking and who accepted.
    let history = env.admin_ok("go history 101");
    for line in ["dead a1", "accept"] {
        assert!(history.contains(line), "{history}");
    }
}

fn pbem_flat(text: &str) -> String {
    crate::common::flat(text)
}

#[test]
fn a_change_of_marking_clears_acceptances_and_resume_gives_the_move_to_the_other_player() {
    let env = started("");
    to_the_step(&env);
    send(&env, "alice", "accept#5");
    // bob marks Black's c3 dead: alice's acceptance is gone.
    send(&env, "bob", "dead c3#6");
    let game = stored(&env);
    assert_eq!(game.status(), Status::ToMove(0));
    assert!(
        game.notes()
            .join(" ")
            .contains("Nobody has accepted this marking yet.")
    );
    // alice disagrees and resumes: bob (the other player) moves first.
    let mails = send(&env, "alice", "resume#7");
    assert!(
        to(&mails, "bob")
            .flat_body()
            .contains("alice resumed play; White moves next."),
        "{}",
        to(&mails, "bob").body
    );
    assert_eq!(stored(&env).status(), Status::ToMove(1));
    let refused = send(&env, "alice", "b2#8");
    assert!(
        to(&refused, "alice").flat_body().contains("not your turn")
            || to(&refused, "alice")
                .flat_body()
                .contains("White (bob) to move"),
        "{}",
        to(&refused, "alice").body
    );
    send(&env, "bob", "b2#8");
    assert_eq!(stored(&env).status(), Status::ToMove(0));
    assert_eq!(
        stored(&env).moves().last().map(|m| m.text.clone()),
        Some("b2".to_string())
    );
    // It takes two new passes to reach the step again.
    send(&env, "alice", "pass#9");
    assert_eq!(stored(&env).status(), Status::ToMove(1));
    send(&env, "bob", "pass#10");
    let game = stored(&env);
    assert_eq!(game.status(), Status::ToMove(0));
    assert!(game.notes().join(" ").contains("Marked dead: none."));
}

#[test]
fn scoring_words_out_of_the_step_and_stones_in_it_are_refused_and_change_nothing() {
    let env = started("");
    let before = raw_state(&env);
    let mails = send(&env, "alice", "dead d4#1");
    let flat = to(&mails, "alice").flat_body();
    assert!(
        flat.contains(
            "'dead d4' belongs to the scoring step, which opens after two passes in a row"
        ),
        "{flat}"
    );
    assert_eq!(raw_state(&env), before);
    // `accept` with no proposal open and no step answers a proposal: there is none.
    let mails = send(&env, "alice", "accept#1");
    assert!(
        to(&mails, "alice")
            .flat_body()
            .contains("There is no open proposal on board 101"),
        "{}",
        to(&mails, "alice").body
    );
    assert_eq!(raw_state(&env), before);

    to_the_step(&env);
    let before = raw_state(&env);
    for (line, says) in [
        ("d4#5", "send resume to play on (White then moves first)"),
        ("pass#5", "where a stone or a pass is not a move"),
        ("dead c2#5", "c2 is empty"),
        ("dead#5", "needs the points of the groups it names"),
        ("alive c3#5", "is not marked dead"),
    ] {
        let mails = send(&env, "alice", line);
        let flat = to(&mails, "alice").flat_body();
        assert!(flat.contains(says), "{line}: {flat}");
        assert_eq!(raw_state(&env), before, "{line} changed the game");
    }
    // The step's words are not queued.
    env.deliver(&eml(
        "bob@example.org",
        "go queue 101 bob pw-bob dead c3",
        "",
    ));
    let mails = env.take_mails();
    assert!(
        to(&mails, "bob")
            .flat_body()
            .contains("answers the scoring step after two passes and cannot be queued"),
        "{}",
        to(&mails, "bob").body
    );
    assert_eq!(raw_state(&env), before);
    // Accepting twice: the second says whom the step waits for.
    send(&env, "alice", "accept#5");
    let mails = send(&env, "alice", "accept#6");
    assert!(
        to(&mails, "alice")
            .flat_body()
            .contains("you have already accepted this marking; the game waits for White"),
        "{}",
        to(&mails, "alice").body
    );
}

/// Runs `pbem cron` at `NOW + days`: its report line and the mails it sent.
fn cron_at(env: &mut Env, days: f64) -> (String, Vec<Sent>) {
    env.now = NOW + (days * DAY as f64) as i64;
    let out = env.cmd().arg("cron").output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8(out.stdout).unwrap().trim().to_string(),
        env.take_mails(),
    )
}

#[test]
fn the_step_waits_for_the_player_who_has_not_accepted_and_the_clocks_apply() {
    let mut env = started("--nagtime=2 --forfeittime=5");
    to_the_step(&env);
    // alice accepts: the step now waits for bob, and his clock runs.
    send(&env, "alice", "accept#5");
    let (line, mails) = cron_at(&mut env, 2.0);
    assert!(line.contains("1 nags"), "{line}");
    assert_eq!(mails.len(), 1, "{mails:#?}");
    assert_eq!(mails[0].to, ["bob@example.org"]);
    assert!(
        mails[0].first_line().starts_with("Nag: Go Board 101 bob"),
        "{}",
        mails[0].subject
    );
    let (line, mails) = cron_at(&mut env, 5.0);
    assert!(line.contains("1 forfeits"), "{line}");
    assert!(
        mails.iter().all(|m| m.first_line() == "Go Board 101: over"),
        "{mails:#?}"
    );
    assert!(mails[0].body.contains("bob forfeited: no move in 5 days."));
    assert_eq!(
        stored(&env).status(),
        Status::Over(pbem::games::Outcome::Winner(0))
    );
}

#[test]
fn the_agreed_result_comes_in_the_sgf_as_territory_with_a_comment() {
    use sgf_parse::go::Prop;
    let env = started("");
    to_the_step(&env);
    env.deliver(&eml(
        "alice@example.org",
        "go move 101 alice pw-alice dead a1#5",
        "No eyes there.",
    ));
    send(&env, "bob", "accept#6");
    send(&env, "alice", "accept#7");
    env.deliver(&eml("carol@example.org", "go history 101 -sgf", ""));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 1, "{mails:#?}");
    let msg = mail_parser::MessageParser::default()
        .parse(mails[0].raw.as_bytes())
        .unwrap();
    let sgf = msg
        .attachments()
        .map(|a| String::from_utf8(a.contents().to_vec()).unwrap())
        .next()
        .expect("the SGF attached");
    let trees = sgf_parse::parse(&sgf).unwrap();
    let root = trees[0].as_go_node().unwrap();
    let Some(Prop::RE(re)) = root.get_property("RE") else {
        panic!("no RE: {sgf}");
    };
    assert_eq!(re.text, "B+17.5", "{sgf}");
    let last = root.main_variation().last().unwrap();
    assert!(
        matches!(last.get_move(), Some(Prop::W(sgf_parse::go::Move::Pass))),
        "the last node is White's pass: {sgf}"
    );
    let Some(Prop::TB(tb)) = last.get_property("TB") else {
        panic!("no TB in the last node: {sgf}");
    };
    // Black's area without its one live stone: the 24 other points, the dead a1 (SGF `ae`)
    // among them.
    assert_eq!(tb.len(), 24, "{sgf}");
    assert!(tb.iter().any(|p| (p.x, p.y) == (0, 4)), "{sgf}");
    assert!(last.get_property("TW").is_none(), "{sgf}");
    let Some(Prop::C(c)) = last.get_property("C") else {
        panic!("no comment in the last node: {sgf}");
    };
    assert!(
        c.text
            .contains("The result used the players' agreement on dead stones"),
        "{sgf}"
    );
    // The comment sent with a step's act (an entry without a node) comes in the last node.
    assert!(c.text.contains("alice (dead a1): No eyes there."), "{sgf}");
}

/// True when board 101 is in its scoring step (its only listed moves are the step's words).
fn in_step(env: &Env) -> bool {
    stored(env).legal_moves() == ["accept", "resume"]
}

/// alice passes until the step opens (the robot answers each pass in the same mail).
fn alice_passes_to_the_step(env: &Env) {
    for _ in 0..6 {
        if in_step(env) {
            return;
        }
        let n = stored(env).move_number();
        send(env, "alice", &format!("pass#{n}"));
    }
    assert!(in_step(env), "{:?}", stored(env).moves());
}

#[test]
fn a_robot_in_the_step_resumes_against_a_worse_marking_and_accepts_an_even_one() {
    let env = Env::new();
    env.players(&["alice"]);
    // robot1 is Black with two handicap stones; alice (White) moves first and passes.
    env.admin_ok("go challenge -size=9 -handicap=2 robot1 alice");
    env.take_mails();
    alice_passes_to_the_step(&env);
    // Marking c3 alone costs Black nothing (g7 still reaches every empty point): accepted.
    let n = stored(&env).move_number();
    send(&env, "alice", &format!("dead c3#{n}"));
    let last = stored(&env).moves().last().cloned().unwrap();
    assert_eq!((last.seat, last.text.as_str()), (0, "accept"));
    // Both stones dead leaves Black nothing: worse than the board as it stands.
    send(&env, "alice", &format!("dead g7#{}", n + 2));
    let game = stored(&env);
    let last = game.moves().last().cloned().unwrap();
    assert_eq!(
        (last.seat, last.text.as_str()),
        (0, "resume"),
        "{:?}",
        game.moves()
    );
    assert_eq!(
        game.status(),
        Status::ToMove(1),
        "the robot resumed: alice moves"
    );
    // Back in the step with nothing marked, alice accepts and so does the robot at once.
    alice_passes_to_the_step(&env);
    let n = stored(&env).move_number();
    let mails = send(&env, "alice", &format!("accept#{n}"));
    let game = stored(&env);
    let last = game.moves().last().cloned().unwrap();
    assert_eq!((last.seat, last.text.as_str()), (0, "accept"));
    assert!(
        matches!(game.status(), Status::Over(_)),
        "{:?}",
        game.moves()
    );
    assert!(to(&mails, "alice").first_line().ends_with(": over"));
}

/// Go on 2×2 with the default komi (7.5, above the bound a given `-komi` has there): the game
/// starts, a move plays, `show` answers, and passes end it through the scoring step (issue 37,
/// item 5; before, every command after the challenge said the database held something unreadable).
#[test]
fn a_two_by_two_game_with_the_default_komi_plays_to_the_end() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.admin_ok("go challenge -size=2 alice bob");
    env.take_mails();
    let mails = send(&env, "alice", "a1");
    let to_bob = mails
        .iter()
        .find(|m| m.to == ["bob@example.org"])
        .unwrap_or_else(|| panic!("no board mail to bob: {mails:#?}"));
    assert!(to_bob.body.contains("alice played a1"), "{}", to_bob.body);
    assert!(to_bob.body.contains("-komi=7.5"), "{}", to_bob.body);
    let shown = env.admin_ok("go show 101");
    assert!(shown.contains("Summary of Go Board 101"), "{shown}");
    send(&env, "bob", "pass");
    send(&env, "alice", "pass");
    send(&env, "bob", "accept");
    let end = send(&env, "alice", "accept");
    assert!(end.iter().any(|m| m.body.contains("Game over")), "{end:#?}");
}

/// Issue 37: no "Black wins by 73.5" after move 1; the score if the game ended is told once a
/// pass could end it.
#[test]
fn the_score_is_told_only_when_a_pass_could_end_the_game() {
    let env = started("");
    let mails = send(&env, "alice", "c3#1");
    for who in ["alice", "bob"] {
        let body = to(&mails, who).flat_body();
        assert!(!body.contains("wins by"), "{who}: {body}");
    }
    let mails = send(&env, "bob", "pass#2");
    for who in ["alice", "bob"] {
        let body = to(&mails, who).flat_body();
        assert!(
            body.contains(
                "The last move was a pass: a second pass ends play and opens the scoring step."
            ) && body.contains(
                "Score now, every stone alive: Black 25, White 0 + 7.5 = 7.5: Black wins by 17.5."
            ),
            "{who}: {body}"
        );
    }
}

/// A reply to `mail` from `who` holding just `text` above the quoted board, as Gmail sends it;
/// the mails it caused.
fn reply(env: &Env, who: &str, mail: &Sent, text: &str) -> Vec<Sent> {
    let quoted: String = mail.body.lines().map(|l| format!("> {l}\n")).collect();
    let body = format!(
        "{text}\n\nOn Wed, Nov 18, 2026 at 11:06 AM pbem <pbem@localhost> wrote:\n\n{quoted}"
    );
    let message = eml(
        &format!("{who}@example.org"),
        &format!("Re: {}", mail.subject),
        &body,
    )
    .replacen(
        "To: pbem@localhost",
        &format!("To: pbem <{}>", mail.reply_address()),
        1,
    );
    env.deliver(&message);
    env.take_mails()
}

/// `pbem engine go ARGS` with `stdin`, in the real binary: its output, which must be a success.
fn engine(args: &[&str], stdin: &str) -> String {
    let out = crate::common::Command::new(crate::common::pbem_bin())
        .arg("engine")
        .arg("go")
        .args(args)
        .write_stdin(stdin)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "engine go {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Issue 37, section 5, "Go scoring": a whole 9×9 game by replies through the scoring step. Each
/// step is said once (`alice passed.`, not `alice played pass.` and `Black passed.`), a marked
/// group is named by the stone its player named (`dead b5` was listed as `b4 (2 white
/// stones)`), the player the step does not wait for gets a line saying what happens next, no
/// score is claimed before a pass could end the game, and the text record carries the margin in
/// its Result and replays through `pbem engine go` to the stored game.
#[test]
fn a_nine_by_nine_game_by_replies_through_scoring_reads_right_and_its_record_replays() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.admin_ok("go challenge -size=9 alice bob");
    let mails = env.take_mails();
    let mut last = std::collections::HashMap::new();
    let keep = |mails: &[Sent], last: &mut std::collections::HashMap<String, Sent>| {
        for who in ["alice", "bob"] {
            last.insert(who.to_string(), to(mails, who).clone());
        }
    };
    keep(&mails, &mut last);
    // Black walls the d-column, White the f-column; each then drops two stones into the other's
    // area (h5 h4 for Black, b5 b4 for White) that cannot live.
    let mut moves: Vec<(&str, String)> = Vec::new();
    for row in 1..=9 {
        moves.push(("alice", format!("d{row}")));
        moves.push(("bob", format!("f{row}")));
    }
    for (who, mv) in [
        ("alice", "h5"),
        ("bob", "b5"),
        ("alice", "h4"),
        ("bob", "b4"),
    ] {
        moves.push((who, mv.to_string()));
    }
    for (who, mv) in &moves {
        let mails = reply(&env, who, &last[*who], mv);
        for m in &mails {
            assert!(
                !m.flat_body().contains("wins by"),
                "no score claimed yet: {}",
                m.body
            );
        }
        keep(&mails, &mut last);
    }
    let mails = reply(&env, "alice", &last["alice"], "pass");
    let bob = to(&mails, "bob").flat_body();
    assert!(bob.contains("alice passed."), "{bob}");
    assert!(
        bob.contains(
            "Score now, every stone alive: Black 11, White 11 + 7.5 = 18.5: White wins by 7.5."
        ),
        "a pass could end the game now: {bob}"
    );
    keep(&mails, &mut last);
    let mails = reply(&env, "bob", &last["bob"], "pass");
    let alice = to(&mails, "alice").flat_body();
    assert!(
        alice.contains("bob passed. Both players passed: the scoring step is open"),
        "{alice}"
    );
    // The example of marking is White's smallest group, not the wall from f1.
    assert!(
        alice.contains("go move 101 alice <password> dead b4#25"),
        "{alice}"
    );
    let bob = to(&mails, "bob").flat_body();
    assert!(
        bob.contains(
            "You passed. Both players passed: the scoring step is open (see below). The scoring \
             step waits for Black to accept the marking, change it or resume play. You may act \
             too: change the marking (dead h4), accept it or resume play"
        ),
        "{bob}"
    );
    keep(&mails, &mut last);

    // bob, not awaited, marks Black's h5 h4 by replying to his mail.
    let mails = reply(&env, "bob", &last["bob"], "dead h5");
    let alice = to(&mails, "alice").flat_body();
    assert!(
        alice.contains("bob marked dead: h5 (2 black stones).")
            && alice.contains("Marked dead: h5 (2 black stones)."),
        "{alice}"
    );
    keep(&mails, &mut last);
    let mails = reply(&env, "alice", &last["alice"], "dead b5");
    let bob = to(&mails, "bob").flat_body();
    assert!(
        bob.contains("alice marked dead: b5 (2 white stones).")
            && bob.contains("Marked dead: h5 (2 black stones), b5 (2 white stones)."),
        "{bob}"
    );
    let alice = to(&mails, "alice").flat_body();
    assert!(
        alice.contains("You marked dead: b5 (2 white stones). The scoring step waits for White"),
        "{alice}"
    );
    keep(&mails, &mut last);
    let mails = reply(&env, "bob", &last["bob"], "accept");
    let bob = to(&mails, "bob").flat_body();
    assert!(
        bob.contains(
            "You accepted the marking. The game ends when Black accepts this marking too; until \
             then you may still change the marking"
        ),
        "{bob}"
    );
    assert!(
        to(&mails, "alice")
            .flat_body()
            .contains("bob accepted the marking."),
        "{}",
        to(&mails, "alice").body
    );
    keep(&mails, &mut last);
    let mails = reply(&env, "alice", &last["alice"], "accept");
    let bob = to(&mails, "bob").flat_body();
    assert!(
        bob.contains("alice accepted the marking. Both players accepted the marking")
            && bob.contains("Game over: you win"),
        "{bob}"
    );
    // Every step was told once: never as `played <move>` nor again as a note of the side.
    let history = env.admin_ok("go history 101");
    assert!(history.contains("dead h5"), "{history}");
    assert_eq!(
        stored(&env).status(),
        Status::Over(pbem::games::Outcome::Winner(1))
    );

    let record = env.admin_ok("go history 101 -record");
    assert!(
        record.contains("\nOptions: -size=9 -komi=7.5 -scoring=agreement\n"),
        "{record}"
    );
    assert!(
        record.contains("\nResult: White wins by 7.5 (Black 36, White 36 + 7.5)\n"),
        "{record}"
    );
    assert!(record.contains("\n25. white dead h5\n"), "{record}");
    // The record replays through the engine: the Options line makes the game, each entry is
    // played with its side (in the step either player may act), and the game is the stored one.
    let options: Vec<&str> = record
        .lines()
        .find_map(|l| l.strip_prefix("Options: "))
        .unwrap()
        .split_whitespace()
        .collect();
    let entries: Vec<&str> = record
        .lines()
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| l.split_once(". ").filter(|(n, _)| n.parse::<u32>().is_ok()))
        .map(|(_, entry)| entry)
        .collect();
    assert_eq!(entries.len(), 28, "{record}");
    let mut args = vec!["new"];
    args.extend(&options);
    let new = engine(&args, "");
    let mut args = vec!["play"];
    args.extend(&entries);
    let replayed = engine(&args, &new);
    assert_eq!(
        replayed.trim(),
        raw_state(&env).trim(),
        "the same game, step and all"
    );
    assert_eq!(engine(&["status"], &replayed).trim(), "winner white");
    assert!(
        engine(&["show"], &replayed).contains("White wins by 7.5 (the agreed score)"),
        "{}",
        engine(&["show"], &replayed)
    );
    let sgf = env.admin_ok("go history 101 -sgf");
    assert!(sgf.contains("RE[W+7.5]"), "{sgf}");
}

/// The scoring step's words replied alone are moves, not table talk: `resume` (no digit in it, and
/// not a word `go queue` takes) went to the other player as a chat before.
#[test]
fn resume_replied_alone_resumes_play() {
    let env = started("");
    let mails = to_the_step(&env);
    let mails = reply(&env, "alice", to(&mails, "alice"), "resume");
    let bob = to(&mails, "bob").flat_body();
    assert!(
        bob.contains("alice resumed play; White moves next."),
        "{bob}"
    );
    let last = stored(&env).moves().last().cloned().unwrap();
    assert_eq!((last.seat, last.text.as_str()), (0, "resume"));
    assert_eq!(stored(&env).status(), Status::ToMove(1));
}

/// `-scoring=area`: a game by mail that two passes end at once on the count of every stone, as
/// `pbem engine go` plays by default; its record's Result has the margin. A value that is neither
/// is refused with the two that work.
#[test]
fn a_challenge_with_area_scoring_ends_at_two_passes_and_records_its_margin() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    let refused = env.admin("go challenge -size=5 -scoring=japanese alice bob");
    let said = String::from_utf8_lossy(&refused.stdout).to_string()
        + &String::from_utf8_lossy(&refused.stderr);
    assert!(
        crate::common::flat(&said).contains("-scoring is agreement (after two passes"),
        "{said}"
    );
    env.admin_ok("go challenge -size=5 -scoring=area alice bob");
    env.take_mails();
    send(&env, "alice", "c3#1");
    send(&env, "bob", "pass#2");
    let mails = send(&env, "alice", "pass#3");
    assert!(
        to(&mails, "bob")
            .flat_body()
            .contains("Game over: alice wins")
    );
    let record = env.admin_ok("go history 101 -record");
    assert!(
        record.contains("\nOptions: -size=5 -komi=7.5 -scoring=area\n")
            && record.contains("\nResult: Black wins by 17.5 (Black 25, White 0 + 7.5)\n"),
        "{record}"
    );
}

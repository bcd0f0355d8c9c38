use super::super::options::GoOptions;
use super::super::{GoGame, game};
use crate::games::{GameOption, GameState, Outcome, RuleError, Status};

/// Whether a stored document is of a game with the scoring step.
fn is_hosted(json: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(json).unwrap()["scoring"] == "agreement"
}

fn new(size: &str) -> GoGame {
    game(
        GoOptions::read(&[GameOption::with_value("size", size)]).unwrap(),
        true,
    )
}

fn play(g: &mut GoGame, moves: &[(usize, &str)]) {
    for (seat, m) in moves {
        g.play_for(*seat, m)
            .unwrap_or_else(|e| panic!("{m} by {seat}: {e}"));
    }
}

#[test]
fn two_passes_open_the_step_and_both_accepting_the_same_marking_ends_it() {
    let mut g = new("5");
    play(&mut g, &[(0, "c3"), (1, "a1"), (0, "pass"), (1, "pass")]);
    // White passed second: Black, who passed first, is awaited; either may act.
    assert_eq!(g.status(), Status::ToMove(0));
    assert!(g.acts_out_of_turn(1) && g.acts_out_of_turn(0));
    assert_eq!(g.legal_moves(), ["accept", "resume"]);
    let e = g.play_for(0, "d4").unwrap_err().0;
    assert!(
        e.contains("scoring step") && e.contains("White then moves first"),
        "{e}"
    );
    play(&mut g, &[(1, "accept"), (0, "dead a1")]);
    assert_eq!(
        g.step().unwrap().accepted,
        [false, false],
        "the change cleared it"
    );
    assert_eq!(g.status(), Status::ToMove(1));
    assert!(g.render().contains("x o stones marked dead"));
    assert!(g.render().contains(" o "), "{}", g.render());
    assert_eq!(g.svg().unwrap().matches("class=\"dead\"").count(), 1);
    play(&mut g, &[(0, "accept"), (1, "accept")]);
    assert_eq!(g.status(), Status::Over(Outcome::Winner(0)));
    assert!(g.play_for(0, "accept").unwrap_err().0.contains("over"));
    let notes = g.notes().join("\n");
    assert!(
        notes.contains("Black 25, White 0 + 7.5 = 7.5: Black wins by 17.5"),
        "{notes}"
    );
    // The document replays to the same end, and the move list says who did what.
    let back = GoGame::load(&g.to_json()).unwrap();
    assert_eq!(back.to_json(), g.to_json());
    assert_eq!(back.status(), g.status());
    let texts: Vec<String> = g.moves().iter().map(|m| m.text.clone()).collect();
    assert_eq!(
        texts,
        [
            "c3", "a1", "pass", "pass", "accept", "dead a1", "accept", "accept"
        ]
    );
    assert_eq!(g.moves()[5].seat, 0);
    let form = g.sgf_form().unwrap();
    assert_eq!(form.nodes.len(), 8);
    assert_eq!(form.nodes.iter().rposition(Option::is_some), Some(3));
    assert_eq!(form.margin.as_deref(), Some("17.5"));
    // Black's area without its live stone: 24 points, a1 (White's dead stone) among them.
    assert_eq!(form.last_node[0].1.len(), 24);
    assert!(form.last_node[0].1.contains(&"ae".to_string()));
    assert!(form.last_node[1].1.is_empty());
    assert!(form.last_comment.unwrap().contains("agreement"));
    // The position before the last accept is the open step.
    let before = g.at_move(8).unwrap();
    assert_eq!(before.status(), Status::ToMove(1));
}

#[test]
fn resume_gives_the_move_to_the_other_player_and_two_new_passes_reopen() {
    let mut g = new("5");
    play(
        &mut g,
        &[(0, "c3"), (1, "pass"), (0, "pass"), (1, "dead c3")],
    );
    play(&mut g, &[(0, "resume")]);
    assert_eq!(
        g.status(),
        Status::ToMove(1),
        "White moves after Black resumed"
    );
    assert!(!g.acts_out_of_turn(0));
    let e = g.play_for(1, "accept").unwrap_err().0;
    assert!(e.contains("opens after two passes"), "{e}");
    // One pass after the resume does not end anything; two do.
    play(&mut g, &[(1, "pass")]);
    assert!(g.step().is_none());
    assert!(g.notes().join(" ").contains("a second pass ends"));
    play(&mut g, &[(0, "pass")]);
    assert_eq!(g.status(), Status::ToMove(1));
    assert_eq!(
        g.step().unwrap().dead.len(),
        0,
        "a new step, nothing marked"
    );
    let back = GoGame::load(&g.to_json()).unwrap();
    assert_eq!(back.to_json(), g.to_json());
}

#[test]
fn a_robot_accepts_what_is_not_worse_than_tromp_taylor_and_resumes_otherwise() {
    let mut g = new("5");
    play(&mut g, &[(0, "c3"), (1, "a1"), (0, "pass"), (1, "pass")]);
    assert_eq!(
        g.robot_move(crate::games::Robot::Level(1), 1).as_deref(),
        Some("accept")
    );
    // White marks Black's c3 dead: worse for Black than the board as it stands.
    play(&mut g, &[(1, "dead c3")]);
    assert_eq!(
        g.robot_move(crate::games::Robot::Level(1), 1).as_deref(),
        Some("resume")
    );
    play(&mut g, &[(1, "alive c3"), (1, "dead a1")]);
    // Now Black is awaited and the marking is better for Black: accepted.
    assert_eq!(
        g.robot_move(crate::games::Robot::Level(1), 1).as_deref(),
        Some("accept")
    );
}

#[test]
fn notes_are_mail_lines() {
    // A marking of many groups: its note is broken into lines of at most 72 columns.
    let mut g = new("19");
    let stones: Vec<String> = (1..=19).step_by(2).map(|r| format!("a{r}")).collect();
    for s in &stones {
        play(&mut g, &[(0, "pass"), (1, s.as_str())]);
    }
    play(&mut g, &[(0, "pass"), (1, "pass")]);
    play(&mut g, &[(0, &format!("dead {}", stones.join(" ")))]);
    let notes = g.notes();
    assert!(notes.iter().all(|l| l.chars().count() <= 72), "{notes:#?}");
    let marked = notes.join(" ");
    assert!(marked.contains("a19 (1 white stone)"), "{marked}");
}

#[test]
fn random_games_end_and_replay() {
    let mut seed = 11u64;
    let mut pick = |n: usize| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
        ((seed >> 33) as usize) % n
    };
    for _ in 0..10 {
        let mut g = new("4");
        g.random_playout(&mut pick);
        assert!(matches!(g.status(), Status::Over(_)));
        assert!(is_hosted(&g.to_json()));
        assert_eq!(GoGame::load(&g.to_json()).unwrap().to_json(), g.to_json());
    }
}

/// Issue 37: the news tells each step once, by the player's name and its own words; the
/// game's notes no longer repeat it (`alice played pass.` and `White passed.` before).
#[test]
fn each_step_is_told_once_in_words_of_its_own() {
    let mut g = new("5");
    play(
        &mut g,
        &[
            (0, "c3"),
            (1, "a1"),
            (0, "b1"),
            (1, "pass"),
            (0, "pass"),
            (1, "dead a1"),
        ],
    );
    let news: Vec<Option<String>> = (0..6).map(|k| g.entry_news(k)).collect();
    assert_eq!(
        news,
        [
            None,
            None,
            None,
            Some("passed".into()),
            Some("passed".into()),
            Some("marked dead: a1 (1 white stone)".into()),
        ]
    );
    let notes = g.turn_notes(1);
    assert_eq!(
        notes,
        ["Both players passed: the scoring step is open (see below)."],
        "no note repeats an entry"
    );
    play(&mut g, &[(0, "alive a1"), (1, "accept"), (0, "resume")]);
    assert_eq!(
        g.entry_news(6).as_deref(),
        Some("took the dead mark off: a1 (1 white stone)")
    );
    assert_eq!(g.entry_news(7).as_deref(), Some("accepted the marking"));
    assert_eq!(
        g.entry_news(8).as_deref(),
        Some("resumed play; White moves next")
    );
    assert!(g.turn_notes(6).is_empty(), "{:?}", g.turn_notes(6));
}

/// Issue 37: the player the step does not wait for is told what happens next and what they
/// may send; the awaited one gets the line to send instead.
#[test]
fn the_player_not_awaited_is_told_what_happens_next() {
    let mut g = new("5");
    play(&mut g, &[(0, "c3"), (1, "a1"), (0, "pass")]);
    assert_eq!(g.waiting_note(0), None, "in play: nothing to say");
    play(&mut g, &[(1, "pass")]);
    assert_eq!(g.waiting_note(0), None, "Black is awaited");
    let white = g.waiting_note(1).unwrap();
    assert!(
        white.starts_with("The scoring step waits for Black to accept the marking")
            && white.contains("(dead c3)"),
        "{white}"
    );
    play(&mut g, &[(0, "dead a1"), (1, "accept")]);
    let white = g.waiting_note(1).unwrap();
    assert!(
        white.starts_with("The game ends when Black accepts this marking too")
            && white.contains("(dead c3 or alive a1)"),
        "{white}"
    );
    play(&mut g, &[(0, "accept")]);
    assert_eq!((g.waiting_note(0), g.waiting_note(1)), (None, None));
}

/// The example of marking names the other side's smallest unmarked block, not the first stone
/// from a1 (a live wall, often).
#[test]
fn the_example_of_marking_is_the_other_sides_smallest_group() {
    let mut g = new("5");
    // White: a wall b1..b5 (5 stones) and one stone on e5; Black: d1..d4 and c5.
    play(
        &mut g,
        &[
            (0, "d1"),
            (1, "b1"),
            (0, "d2"),
            (1, "b2"),
            (0, "d3"),
            (1, "b3"),
            (0, "d4"),
            (1, "b4"),
            (0, "c5"),
            (1, "e5"),
            (0, "pass"),
            (1, "pass"),
        ],
    );
    assert_eq!(g.example_moves(), ["accept", "dead e5", "resume"]);
}

/// Issue 37: the Result of the text record carries the margin and the scores, from the
/// agreement in a hosted game and from the count in the engine's own game.
#[test]
fn the_result_carries_the_margin() {
    let mut g = new("5");
    play(
        &mut g,
        &[
            (0, "c3"),
            (1, "a1"),
            (0, "pass"),
            (1, "pass"),
            (0, "dead a1"),
        ],
    );
    assert_eq!(g.score_result(), None, "not over");
    play(&mut g, &[(1, "accept"), (0, "accept")]);
    assert_eq!(
        g.score_result().as_deref(),
        Some("17.5 (Black 25, White 0 + 7.5)")
    );
    assert!(
        g.render().contains("Black wins by 17.5 (the agreed score)"),
        "{}",
        g.render()
    );
    let mut plain = game(
        GoOptions::read(&[GameOption::with_value("size", "5")]).unwrap(),
        false,
    );
    for m in ["c3", "a1", "pass", "pass"] {
        plain.play(m).unwrap();
    }
    assert_eq!(
        plain.score_result().as_deref(),
        Some("7.5 (Black 1, White 1 + 7.5)")
    );
    // Nothing marked: the agreed score is the count of every stone, said once.
    let mut even = new("5");
    play(
        &mut even,
        &[
            (0, "c3"),
            (1, "pass"),
            (0, "pass"),
            (1, "accept"),
            (0, "accept"),
        ],
    );
    let notes = even.notes();
    assert_eq!(
        notes[1..],
        [
            "Final score by the players' agreement, every stone alive:",
            "  Black 25, White 0 + 7.5 = 7.5: Black wins by 17.5."
        ]
    );
    let mut resigned = new("5");
    resigned.resign(0).unwrap();
    assert_eq!(resigned.score_result(), None);
}

/// Issue 37: `-scoring=` says which game a challenge or `pbem engine go new` makes, the board
/// summary says it, and the hosted game plays an entry written with its side, as the text
/// record writes it, for either player in the step.
#[test]
fn scoring_option_and_entries_with_their_side() {
    use crate::games::GameRules;
    let opt = |v: &str| {
        vec![
            GameOption::with_value("size", "5"),
            GameOption::with_value("scoring", v),
        ]
    };
    let engine = super::super::Go.new_game(&opt("agreement"), 2, 0).unwrap();
    assert!(is_hosted(&engine.to_json()));
    assert_eq!(
        engine.options_summary(),
        "-size=5 -komi=7.5 -scoring=agreement"
    );
    let plain = super::super::Go
        .new_hosted_game(&opt("area"), 2, 0)
        .unwrap();
    assert!(!is_hosted(&plain.to_json()));
    assert_eq!(plain.options_summary(), "-size=5 -komi=7.5 -scoring=area");
    let default = super::super::Go.new_game(&opt("area")[..1], 2, 0).unwrap();
    assert_eq!(default.options_summary(), "-size=5 -komi=7.5 -scoring=area");
    let Err(RuleError(e)) = super::super::Go.new_game(&opt("japanese"), 2, 0) else {
        panic!("-scoring=japanese was taken");
    };
    assert!(
        e.contains("-scoring=agreement") && e.contains("'japanese'"),
        "{e}"
    );
    let mut twice = opt("area");
    twice.push(GameOption::with_value("scoring", "area"));
    let Err(RuleError(e)) = super::super::Go.new_game(&twice, 2, 0) else {
        panic!("-scoring twice was taken");
    };
    assert!(e.contains("twice"), "{e}");

    let mut g = new("5");
    for m in ["black c3", "White a1", "black pass", "white pass"] {
        g.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    // Black is awaited; White marks out of turn, by its side.
    g.play("white dead a1").unwrap();
    assert_eq!(g.moves()[4].seat, 1);
    assert!(g.play("white accept").is_ok());
    let e = g.play("black d4").unwrap_err().0;
    assert!(e.contains("scoring step"), "{e}");
    let mut h = new("5");
    assert!(h.play("white c3").unwrap_err().0.contains("Black's move"));
}

/// A capture is told by the news line itself (`bob played a2 and captured your stone on
/// a1.`), from the stones it took; no note repeats it. It holds after a resumed step too.
#[test]
fn a_capture_names_the_stones_it_took() {
    let mut g = new("5");
    play(
        &mut g,
        &[
            (0, "b1"),
            (1, "a1"),
            (0, "pass"),
            (1, "pass"),
            (0, "resume"),
        ],
    );
    play(&mut g, &[(1, "c3"), (0, "a2")]);
    assert_eq!(
        g.losses(6),
        [crate::games::Loss {
            seat: 1,
            cells: vec!["a1".into()],
            piece: "stone"
        }]
    );
    assert!(g.losses(5).is_empty() && g.losses(4).is_empty());
    assert!(g.turn_notes(6).is_empty(), "{:?}", g.turn_notes(6));
}

#[test]
fn the_robot_of_a_game_with_the_step_searches_the_spec_rules_with_the_same_moves() {
    // In play, the hosted game's robot plays the move the spec's game with the same moves gets:
    // its search scores two passes by the count, not by opening the step.
    let plain_opts = GoOptions::read(&[GameOption::with_value("size", "5")]).unwrap();
    let mut plain = game(plain_opts, false);
    let mut g = new("5");
    for m in ["c3", "b2", "d4"] {
        plain.play(m).unwrap();
        g.play(m).unwrap();
    }
    // (Playouts, not a level: a level keeps its tree for the same game's next move.)
    for seed in 0..3 {
        let robot = crate::games::Robot::Playouts(300);
        assert_eq!(g.robot_move(robot, seed), plain.robot_move(robot, seed));
    }
    // After the step was resumed, it plays on from the same stones, the resumer's opponent to
    // move; the search alone (a draw's answer) sees the game with its step, by texts.
    play(&mut g, &[(1, "pass"), (0, "pass"), (1, "resume")]);
    assert_eq!(g.status(), Status::ToMove(0));
    let robot = crate::games::Robot::Level(1);
    let mv = g.robot_move(robot, 1).unwrap();
    assert!(g.legal_moves().contains(&mv), "{mv}");
    assert_eq!(g.action_space(), 0);
    assert_eq!(plain.action_space(), 26);
}

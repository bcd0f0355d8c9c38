//! Othello on the shared move record: refusals with their reasons, passes, the end and its result,
//! the stored document, earlier positions, the board and the picture, the robot.

use super::*;
use crate::games::matchplay::Match;
use crate::games::{Outcome, Registry, Robot, Status};

/// A game from a position of discs named by their squares, `to_move` to move.
fn game_of(black: &[&str], white: &[&str], to_move: usize) -> OthelloGame {
    let set = |squares: &[&str]| {
        squares
            .iter()
            .fold(0u64, |acc, s| acc | 1u64 << notation::read(s).unwrap())
    };
    Match::from_position(Position {
        discs: [set(black), set(white)],
        to_move,
        over: false,
    })
}

#[test]
fn the_start_and_its_four_moves() {
    let rules = Registry::standard().find("othello").expect("registered");
    let g = rules.new_game(&[], 2, 0).unwrap();
    assert_eq!(g.status(), Status::ToMove(0));
    assert_eq!(g.legal_moves(), ["c4", "d3", "e6", "f5"]);
    assert_eq!(g.seat_names(), ["Black", "White"]);
    assert_eq!(g.options_summary(), "-size=8");
    assert_eq!(g.setup_text(), "Black: e4 d5  White: d4 e5");
    assert_eq!(g.perft(4), 244);
}

#[test]
fn the_help_page_fits_a_mail_and_shows_a_move() {
    let help = Othello.help();
    assert!(help.lines().all(|l| l.chars().count() <= 72), "{help}");
    assert!(help.contains("othello move 101 alice <password> f5"));
}

#[test]
fn options_other_than_size_8_are_refused_with_the_right_form() {
    assert!(
        Othello
            .new_game(&[GameOption::with_value("size", "8")], 2, 0)
            .is_ok()
    );
    let e = Othello
        .new_game(&[GameOption::with_value("size", "10")], 2, 0)
        .err()
        .unwrap()
        .0;
    assert!(e.contains("write -size=8"), "{e}");
    let e = Othello
        .new_game(&[GameOption::flag("swap")], 2, 0)
        .err()
        .unwrap()
        .0;
    assert!(e.contains("Othello has no option -swap"), "{e}");
    let e = Othello.new_game(&[], 3, 0).err().unwrap().0;
    assert!(e.contains("two players, not 3"), "{e}");
}

#[test]
fn illegal_moves_are_refused_with_the_reason_and_change_nothing() {
    let mut g = OthelloGame::new(&[], 2).unwrap();
    let before = g.to_json();
    let e = g.play("d4").unwrap_err().0;
    assert_eq!(
        e,
        "d4 is taken: a White disc lies there; a disc goes on an empty square"
    );
    let e = g.play("a1").unwrap_err().0;
    assert!(
        e.starts_with("a1 flips no White disc: a Black disc must close a line of White discs"),
        "{e}"
    );
    assert!(e.ends_with("Black may play d3 c4 f5 e6"), "{e}");
    let e = g.play("j9").unwrap_err().0;
    assert!(e.contains("like f5"), "{e}");
    let e = g.play("pass").unwrap_err().0;
    assert!(e.contains("the engine passes for you"), "{e}");
    assert_eq!(g.to_json(), before);
    g.play(" F5 ").unwrap();
    assert_eq!(g.moves()[0].text, "f5");
    assert_eq!(g.status(), Status::ToMove(1));
}

#[test]
fn a_player_without_a_move_is_passed_and_the_game_ends_when_neither_can_move() {
    // Black's c1 leaves White only b8, which flanks nothing: White is passed, Black plays again,
    // and c8 takes White's last disc.
    let mut g = game_of(&["a1", "a8"], &["b1", "b8"], 0);
    g.play("c1").unwrap();
    assert_eq!(g.status(), Status::ToMove(0));
    let moves = g.moves();
    assert_eq!(
        (moves[1].seat, moves[1].text.as_str(), moves[1].auto),
        (1, "pass", true)
    );
    assert_eq!(g.move_number(), 3);
    assert_eq!(
        g.turn_notes(1),
        ["White had no legal move, so the engine passed; Black moves again."]
    );
    assert_eq!(g.legal_moves(), ["c8"]);
    g.play("c8").unwrap();
    assert_eq!(g.status(), Status::Over(Outcome::Winner(0)));
    assert!(g.legal_moves().is_empty());
    let e = g.play("d1").unwrap_err().0;
    assert!(e.contains("the game is over (Black won)"), "{e}");
    assert_eq!(g.perft(3), 0);
}

#[test]
fn the_result_is_the_disc_count() {
    // After c1 neither side flanks anything: 3 discs each is a draw.
    let mut g = game_of(&["a1"], &["b1", "f8", "g8", "h8"], 0);
    g.play("c1").unwrap();
    assert_eq!(g.status(), Status::Over(Outcome::Draw(vec![0, 1])));
    assert!(g.render().contains("Draw (Black 3, White 3)"));
    let mut g = game_of(&["a1"], &["b1", "e8", "f8", "g8", "h8"], 0);
    g.play("c1").unwrap();
    assert_eq!(g.status(), Status::Over(Outcome::Winner(1)));
    assert_eq!(g.notes(), ["Discs: Black 3, White 4."]);
}

#[test]
fn a_stored_game_reloads_with_its_passes_resignation_and_earlier_positions() {
    let mut seed = 5u64;
    let mut pick = |n: usize| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
        ((seed >> 33) as usize) % n
    };
    let mut ended_by_rules = 0;
    for _ in 0..20 {
        let mut g = OthelloGame::new(&[], 2).unwrap();
        let played = g.random_playout(&mut pick);
        assert!(played >= 9, "{played}");
        assert!(matches!(g.status(), Status::Over(_)));
        ended_by_rules += 1;
        let json = g.to_json();
        let back = Othello.load(&json).unwrap();
        assert_eq!(back.moves(), g.moves());
        assert_eq!(back.status(), g.status());
        assert_eq!(back.to_json(), json);
        let early = back.at_move(10).unwrap();
        assert_eq!(early.move_number(), 10);
        assert_eq!(early.moves()[..], g.moves()[..9]);
    }
    assert_eq!(ended_by_rules, 20);
    let mut g = OthelloGame::new(&[], 2).unwrap();
    g.play("f5").unwrap();
    g.resign(0).unwrap();
    let json = g.to_json();
    assert!(json.contains("\"resign 0\""), "{json}");
    assert!(json.contains("\"size\": 8"), "{json}");
    let back = Othello.load(&json).unwrap();
    assert_eq!(back.status(), Status::Over(Outcome::Winner(1)));
    assert_eq!(back.moves()[1].text, "resign");
    let mut d = OthelloGame::new(&[], 2).unwrap();
    d.agree_draw().unwrap();
    let back = Othello.load(&d.to_json()).unwrap();
    assert_eq!(back.status(), Status::Over(Outcome::Draw(vec![0, 1])));
    let e = Othello
        .load(r#"{"game":"othello","size":8,"moves":["f5","f5"]}"#)
        .err()
        .unwrap()
        .0;
    assert!(
        e.starts_with("move 2 of the document ('f5'): f5 is taken"),
        "{e}"
    );
    let e = Othello.load(r#"{"game":"cups","size":4}"#).err().unwrap().0;
    assert!(e.contains("a game of 'cups', not othello"), "{e}");
}

#[test]
fn the_ascii_board_marks_the_last_disc_and_the_legal_squares() {
    let mut g = OthelloGame::new(&[], 2).unwrap();
    g.play("f5").unwrap();
    let text = g.render();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "    a  b  c  d  e  f  g  h");
    assert_eq!(lines[4], " 4  .  .  .  O  X  +  .  .  4");
    assert_eq!(lines[5], " 5  .  .  .  X  X [X] .  .  5");
    assert_eq!(lines[6], " 6  .  .  .  +  .  +  .  .  6");
    assert!(text.contains("White to move (Black 4, White 1)"), "{text}");
    assert!(text.lines().all(|l| l.chars().count() <= 72), "{text}");
}

#[test]
fn the_picture_has_every_disc_and_dot() {
    let mut g = OthelloGame::new(&[], 2).unwrap();
    g.play("f5").unwrap();
    let svg = g.svg().unwrap();
    assert_eq!(svg.matches("class=\"disc\"").count(), 5, "{svg}");
    assert_eq!(svg.matches("data-side=\"white\"").count(), 1);
    assert_eq!(svg.matches("class=\"legal\"").count(), 3, "{svg}");
    assert!(
        svg.contains("stroke=\"#ff8800\""),
        "the last disc is ringed"
    );
    let png = g.png().unwrap().unwrap();
    assert!(png.starts_with(b"\x89PNG"));
}

#[test]
fn the_robot_plays_legal_moves() {
    let mut g = OthelloGame::new(&[], 2).unwrap();
    for seed in 0..6 {
        let robot = if seed % 2 == 0 {
            Robot::Playouts(200)
        } else {
            Robot::Random
        };
        let mv = g.robot_move(robot, seed).unwrap();
        assert!(g.legal_moves().contains(&mv), "{mv}");
        g.play(&mv).unwrap();
    }
}

/// A search of 200 playouts a move against random moves, 5 games with each colour (a debug build
/// plays them in about half a minute); level 2's figures (release, 5,000 playouts) are in
/// docs/robot.md.
#[test]
fn the_search_beats_a_random_player() {
    let mut wins = 0;
    for game in 0..10u64 {
        let robot_seat = (game % 2) as usize;
        let mut g = OthelloGame::new(&[], 2).unwrap();
        let mut turn = 0u64;
        while let Status::ToMove(s) = g.status() {
            let robot = if s == robot_seat {
                Robot::Playouts(200)
            } else {
                Robot::Random
            };
            let mv = g.robot_move(robot, game * 1000 + turn).unwrap();
            g.play(&mv).unwrap();
            turn += 1;
        }
        if g.status() == Status::Over(Outcome::Winner(robot_seat)) {
            wins += 1;
        }
    }
    assert!(wins >= 9, "the search won {wins} of 10");
}

//! Chameleon's rules, case by case as `chameleon-rules.md` decides them, and its perft table.

use super::*;
use crate::games::{GameOption, Outcome, Status};

fn new(size: u8) -> ChameleonGame {
    ChameleonGame::from_position(Position::new(size))
}

fn played(size: u8, moves: &[&str]) -> ChameleonGame {
    let mut g = new(size);
    for m in moves {
        g.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    g
}

fn refused(g: &ChameleonGame, mv: &str) -> String {
    let mut after = g.clone();
    let e = after.play(mv).expect_err(mv).0;
    assert_eq!(
        after.to_json(),
        g.to_json(),
        "a refused move changes nothing"
    );
    e
}

fn perft_row(size: u8, want: &[u64]) {
    let g = new(size);
    for (d, &n) in want.iter().enumerate() {
        assert_eq!(g.perft(d as u32 + 1), n, "size {size} depth {}", d + 1);
    }
}

#[test]
fn perft_3() {
    perft_row(3, &[18, 288, 4_032]);
}

#[test]
fn perft_5() {
    perft_row(5, &[50, 2_400]);
}

#[test]
fn perft_2() {
    perft_row(2, &[8, 48, 112, 48, 0]);
}

fn opts(words: &[&str]) -> Result<u8, RuleError> {
    let o: Vec<GameOption> = words
        .iter()
        .map(|w| GameOption::parse(w).unwrap())
        .collect();
    size_from_options(&o)
}

#[test]
fn options_size_only_and_no_swap() {
    assert_eq!(opts(&[]), Ok(11));
    assert_eq!(opts(&["-size=7"]), Ok(7));
    for (bad, says) in [
        (&["-swap"][..], "without the pie rule"),
        (&["-no_swap"], "without the pie rule"),
        (&["-size=1"], "first stone would win"),
        (&["-size=20"], "out of range"),
        (&["-size=5", "-size=5"], "twice"),
        (&["-komi"], "unknown option"),
    ] {
        let e = opts(bad).unwrap_err().0;
        assert!(e.contains(says), "{bad:?}: {e}");
        assert!(e.contains("-size=n"), "{e}");
    }
}

#[test]
fn a_chain_of_either_colour_connects_its_seat() {
    // Vertical joins top and bottom with white stones b1-b2-b3 (seat 1 placed two of them).
    let g = played(3, &["w:b1", "w:b2"]);
    assert_eq!(g.status(), Status::ToMove(0));
    let g = played(3, &["w:b1", "w:b2", "w:b3"]);
    assert_eq!(g.status(), Status::Over(Outcome::Winner(0)));
}

#[test]
fn mixed_colours_do_not_connect() {
    let g = played(3, &["b:b1", "w:b2", "b:b3"]);
    assert_eq!(g.status(), Status::ToMove(1));
}

#[test]
fn completing_only_the_opponents_connection_makes_the_opponent_win() {
    // Seat 1 (Horizontal) places the stone that joins top and bottom: Vertical wins.
    let g = played(3, &["b:b1", "b:b2"]);
    assert_eq!(g.status(), Status::ToMove(0));
    let g = played(3, &["b:b1", "w:a1", "b:b3", "b:b2"]);
    assert_eq!(g.status(), Status::Over(Outcome::Winner(0)));
    assert_eq!(g.moves()[3].seat, 1, "the last stone was seat 1's");
}

#[test]
fn completing_both_connections_makes_the_placer_win() {
    // On 2×2, black a2 then black b1: a2-b1 touch; a2 is on the left and bottom, b1 on the top and
    // right, so the chain joins all four edges. Seat 1 placed b1 and wins.
    let g = played(2, &["b:a2", "b:b1"]);
    assert_eq!(g.status(), Status::Over(Outcome::Winner(1)));
    // The same with seat 0 placing the completing stone.
    let g = played(2, &["b:a1", "w:b2", "b:a2"]);
    assert_eq!(g.status(), Status::Over(Outcome::Winner(0)));
    let g = played(3, &["b:c1", "w:a1", "b:b2", "w:c3", "b:a3"]);
    assert_eq!(
        g.status(),
        Status::Over(Outcome::Winner(0)),
        "placer, both connected"
    );
}

#[test]
fn notation_read_loosely_refused_with_reasons() {
    let g = played(11, &["W : C3", "b : c 1 0"]);
    let texts: Vec<String> = g.moves().into_iter().map(|m| m.text).collect();
    assert_eq!(texts, ["w:c3", "b:c10"]);
    let g = new(11);
    assert!(refused(&g, "c3").contains("b:c3"));
    assert!(refused(&g, "bc3").contains("b:c3"));
    assert!(refused(&g, "x:c3").contains("not a colour"));
    assert!(refused(&g, "b:c03").contains("leading zero"));
    assert!(refused(&g, "b:l1").contains("no cell l1"));
    assert!(refused(&g, "swap").contains("without the pie rule"));
    assert!(refused(&g, "resign").contains("chameleon resign"));
    assert!(refused(&g, "pass").contains("no pass"));
    let g = played(11, &["b:c3"]);
    assert!(refused(&g, "w:c3").contains("taken"));
    assert!(Chameleon.read_move("w:s19").is_ok());
    assert!(Chameleon.read_move("c3").is_err());
}

#[test]
fn moves_lists_both_colours_on_every_empty_cell_once() {
    let g = played(3, &["b:a1", "w:b2"]);
    let moves = g.legal_moves();
    assert_eq!(moves.len(), 14);
    let mut unique = moves.clone();
    unique.dedup();
    assert_eq!(unique, moves);
    assert!(moves.contains(&"b:c3".into()) && moves.contains(&"w:c3".into()));
    assert!(
        !moves
            .iter()
            .any(|m| m.ends_with(":a1") || m.ends_with(":b2"))
    );
    for m in &moves {
        let mut h = g.clone();
        h.play(&m.to_uppercase()).unwrap();
        assert_eq!(&h.moves()[2].text, m);
    }
}

#[test]
fn engine_lines_resign_json_and_actions() {
    let mut g = played(5, &["b:c3", "w:c2"]);
    assert_eq!(g.status_seat(1), "1");
    let mut ids = Vec::new();
    g.legal_actions(&mut ids);
    assert_eq!(g.action_space(), 50);
    let mut texts: Vec<String> = ids.iter().map(|&a| g.action_text(a)).collect();
    texts.sort();
    assert_eq!(texts, g.legal_moves());
    let back = Chameleon.load(&g.to_json()).unwrap();
    assert_eq!(back.to_json(), g.to_json());
    assert!(g.agree_draw().is_err());
    g.resign(0).unwrap();
    assert_eq!(g.status(), Status::Over(Outcome::Winner(1)));
    let back = Chameleon.load(&g.to_json()).unwrap();
    assert_eq!(back.status(), g.status());
    assert_eq!(GameState::at_move(&g, 2).unwrap().moves().len(), 1);
}

#[test]
fn random_playouts_end_with_a_winner() {
    let mut x: u64 = 7;
    let mut pick = |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    for size in [2u8, 5, 11] {
        for _ in 0..50 {
            let mut g = new(size);
            let n = g.random_playout(&mut pick);
            assert!(matches!(g.status(), Status::Over(Outcome::Winner(_))));
            assert_eq!(n as usize, g.moves().len());
            assert_eq!(Chameleon.load(&g.to_json()).unwrap().status(), g.status());
        }
    }
}

#[test]
fn board_text_picture_and_example_lines() {
    let g = played(11, &["b:f6", "w:e5"]);
    let text = g.render();
    assert!(text.lines().all(|l| l.chars().count() <= 72), "{text}");
    assert!(text.contains("(O)"), "{text}");
    assert!(text.contains("Vertical (seat 0) to move"), "{text}");
    assert_eq!(g.example_moves(), ["b:a1", "w:a1"]);
    let svg = g.svg().unwrap();
    assert!(svg.starts_with("<svg"));
    let png = g.png().unwrap().unwrap();
    assert!(png.starts_with(b"\x89PNG"));
    assert_eq!(g.board_view().cells.len(), 121);
}

/// The documents pbem 8096aec stored (scripts/match-fixtures.sh): each loads with its moves and
/// result, and writes itself in today's shape, which loads the same.
#[test]
fn documents_stored_by_8096aec_load() {
    for (doc, moves, status) in [
        (
            include_str!("../../../tests/documents/8096aec/chameleon-mid.json"),
            &["b:c3", "w:b2", "w:d4"][..],
            Status::ToMove(1),
        ),
        (
            include_str!("../../../tests/documents/8096aec/chameleon-resigned.json"),
            &["b:c3", "w:b2", "w:d4", "resign"],
            Status::Over(Outcome::Winner(0)),
        ),
        (
            include_str!("../../../tests/documents/8096aec/chameleon-forfeit.json"),
            &["b:c3", "w:b2", "w:d4", "forfeit"],
            Status::Over(Outcome::Winner(0)),
        ),
        (
            include_str!("../../../tests/documents/8096aec/chameleon-finished.json"),
            &[
                "b:b5", "b:c5", "w:e2", "w:a1", "b:d2", "w:b4", "w:a5", "w:d3", "b:e3", "w:c3",
            ],
            Status::Over(Outcome::Winner(1)),
        ),
    ] {
        let g = Chameleon.load(doc).unwrap_or_else(|e| panic!("{doc}: {e}"));
        let texts: Vec<String> = g.moves().into_iter().map(|m| m.text).collect();
        assert_eq!(texts, moves, "{doc}");
        assert_eq!(g.status(), status, "{doc}");
        let again = Chameleon.load(&g.to_json()).unwrap();
        assert_eq!(again.moves(), g.moves());
        assert_eq!(again.status(), g.status());
    }
}

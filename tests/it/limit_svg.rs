//! The SVG board (issue "See the board", item 1): snapshots of the picture's text for real games from
//! fixed seeds at sizes 4, 8 and 16 and with three players, and `pbem engine limit svg` through the real
//! binary.

use crate::common::{Command, pbem_bin};
use pbem::games::{GameOption, GameState, Registry};

fn game(options: &[&str], players: usize, seed: u64, moves: usize) -> Box<dyn GameState> {
    let opts: Vec<GameOption> = options
        .iter()
        .map(|o| GameOption::parse(o).unwrap())
        .collect();
    let mut g = Registry::standard()
        .find("limit")
        .unwrap()
        .new_game(&opts, players, seed)
        .unwrap();
    for _ in 0..moves {
        let Some(m) = g.legal_moves().into_iter().next() else {
            break;
        };
        g.play(&m).unwrap();
    }
    g
}

#[test]
fn size_4_two_players_after_two_moves() {
    insta::assert_snapshot!(
        "size_4_two_players_after_two_moves",
        &game(&["-size=4"], 2, 7, 2).svg().unwrap(),
    );
}

#[test]
fn size_8_three_players_after_three_moves() {
    insta::assert_snapshot!(
        "size_8_three_players_after_three_moves",
        &game(&[], 3, 7, 3).svg().unwrap(),
    );
}

#[test]
fn size_16_two_players_new() {
    insta::assert_snapshot!(
        "size_16_two_players_new",
        &game(&["-size=16"], 2, 7, 0).svg().unwrap(),
    );
}

#[test]
fn manual_placement_shows_the_open_cells() {
    let svg = game(&["-manual"], 2, 7, 3).svg().unwrap();
    assert!(svg.contains("class=\"open\""), "{svg}");
}

#[test]
fn the_engine_prints_the_picture() {
    let g = game(&[], 2, 7, 1);
    let out = Command::new(pbem_bin())
        .args(["engine", "limit", "svg"])
        .write_stdin(g.to_json())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8(out.stdout).unwrap(), g.svg().unwrap());
    let bad = Command::new(pbem_bin())
        .args(["engine", "limit", "svg", "extra"])
        .write_stdin(g.to_json())
        .output()
        .unwrap();
    assert!(!bad.status.success());
}

//! Snapshots of the ASCII board of real games from fixed seeds: several sizes, player counts and phases
//! (random layout, manual placement, classic placement and its ball-only phase, a finished game).

use pbem::games::{GameOption, GameState, Registry};

fn game(options: &[&str], players: usize, seed: u64) -> Box<dyn GameState> {
    let opts: Vec<GameOption> = options
        .iter()
        .map(|o| GameOption::parse(o).unwrap())
        .collect();
    Registry::standard()
        .find("limit")
        .unwrap()
        .new_game(&opts, players, seed)
        .unwrap()
}

/// Plays the first listed legal move `n` times (or until the game ends).
fn advance(g: &mut Box<dyn GameState>, n: usize) {
    for _ in 0..n {
        let Some(m) = g.legal_moves().into_iter().next() else {
            return;
        };
        g.play(&m).unwrap();
    }
}

#[test]
fn default_size_8_two_players_new() {
    insta::assert_snapshot!("default_size_8_two_players_new", &game(&[], 2, 7).render(),);
}

#[test]
fn size_4_three_players_after_three_turns() {
    let mut g = game(&["-size=4"], 3, 11);
    advance(&mut g, 3);
    insta::assert_snapshot!("size_4_three_players_after_three_turns", &g.render(),);
}

#[test]
fn manual_placement_in_progress() {
    let mut g = game(&["-manual", "-size=3"], 2, 1);
    advance(&mut g, 4);
    insta::assert_snapshot!("manual_placement_in_progress", &g.render(),);
}

#[test]
fn classic_placement_and_ball_only_phase() {
    let mut g = game(&["-classic", "-size=3"], 3, 1);
    advance(&mut g, 3);
    insta::assert_snapshot!("classic_placement", &g.render());
    advance(&mut g, 3);
    insta::assert_snapshot!("classic_later", &g.render());
}

#[test]
fn size_16_three_players() {
    insta::assert_snapshot!("size_16_three_players", &game(&["-size=16"], 3, 3).render(),);
}

#[test]
fn finished_game() {
    let mut g = game(&["-size=3"], 2, 5);
    advance(&mut g, 200);
    assert!(g.legal_moves().is_empty(), "the game ended");
    insta::assert_snapshot!("finished_game", &g.render());
}

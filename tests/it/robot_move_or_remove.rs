//! Limit under `-move_or_remove` (a turn is a pawn move or a tile removal; a move answered by a move
//! is a stalemate draw): on positions from robot games against a random player where main's robots
//! ended the game in a draw at once, robot2 and robot3 play on with a removal that keeps a chance of a
//! win (`tests/fixtures/limit_move_or_remove.txt`, found by `examples/limit_draws.rs`).

use pbem::games::limit::Limit;
use pbem::games::search;
use pbem::games::{GameRules, Outcome, Robot, Status};

/// The fixture's positions: (the turns allowed, the game's JSON).
fn positions() -> Vec<(Vec<String>, String)> {
    include_str!("../fixtures/limit_move_or_remove.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (allowed, json) = l.split_once('\t').expect("turns, a tab, the JSON");
            (
                allowed.split(' ').map(String::from).collect(),
                json.to_string(),
            )
        })
        .collect()
}

#[test]
fn limit_robots_play_on_instead_of_drawing_at_once_under_move_or_remove() {
    let all = positions();
    assert!(!all.is_empty());
    for (allowed, json) in &all {
        // What makes the position a test: every turn not allowed ends the game in a draw at once,
        // and none of the allowed ones ends it at all.
        let g = Limit.load(json).unwrap();
        assert!(matches!(g.status(), Status::ToMove(_)));
        let mut drawn = 0;
        for m in g.legal_moves() {
            let mut h = g.clone_box();
            h.play(&m).unwrap();
            if allowed.contains(&m) {
                assert!(matches!(h.status(), Status::ToMove(_)), "{m} ends the game");
            } else {
                assert!(
                    matches!(h.status(), Status::Over(Outcome::Draw(_))),
                    "{m} is not allowed, yet it does not draw at once"
                );
                drawn += 1;
            }
        }
        assert!(drawn > 0, "a draw at once is on offer");
        let allowed: Vec<&str> = allowed.iter().map(String::as_str).collect();
        for robot in [Robot::Level(2), Robot::Level(3)] {
            for seed in 1..=3 {
                if let Err(e) = search::expect_move(&Limit, json, robot, seed, &allowed) {
                    panic!("{e}");
                }
            }
        }
    }
}

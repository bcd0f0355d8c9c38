//! Property tests of the Limit robot over random positions: every rule set, both player counts, the
//! placement phases as well as the movement phase. Budgets are kept small so that the file runs in seconds
//! in a debug build; the search's strength is measured by `scripts/robot-ladder.sh`, not here.

use crate::common::props::with_cases;
use pbem::games::limit::layout::below;
use pbem::games::limit::robot::{self, Budget};
use pbem::games::limit::{Config, Game, Phase, Position, new_game};
use pbem::games::search;
use pbem::games::{GameOption, GameState, Robot};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use proptest::prelude::*;

const OPTION_SETS: &[&[&str]] = &[
    &[],
    &["-classic", "-size=4"],
    &["-classic", "-size=3", "-must_touch=1"],
    &["-manual", "-size=4"],
    &["-manual", "-size=3", "-must_touch=1", "-can_isolate"],
    &["-move_or_remove", "-size=5"],
    &["-move_and_remove", "-free_edges=2"],
    &["-can_isolate", "-no_equaliser", "-size=6"],
    &["-free_edges=3", "-size=4"],
    &["-size=2"],
    &["-classic", "-size=5", "-free_edges=2", "-can_isolate"],
];

fn config(words: &[&str]) -> Config {
    let opts: Vec<GameOption> = words
        .iter()
        .map(|w| GameOption::parse(w).unwrap())
        .collect();
    Config::from_options(&opts).unwrap()
}

/// A game of the option set played at random for `depth` moves (or to its end).
fn position(set: usize, players: usize, seed: u64, depth: usize) -> Game {
    let mut g = new_game(config(OPTION_SETS[set]), players, seed).unwrap();
    let mut r = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    for _ in 0..depth {
        let legal = g.legal();
        if legal.is_empty() {
            break;
        }
        GameState::play(&mut g, &legal[below(&mut r, legal.len())].to_string()).unwrap();
    }
    g
}

proptest! {
    #![proptest_config(with_cases(48))]

    #[test]
    fn the_robot_plays_only_legal_moves(
        set in 0..OPTION_SETS.len(),
        players in 2usize..=3,
        seed: u64,
        depth in 0usize..40,
        think_seed: u64,
    ) {
        let g = position(set, players, seed, depth);
        let legal = g.legal_moves();
        let over = g.phase() == Phase::Over;
        for robot in [Robot::Playouts(24), Robot::Greedy, Robot::Random] {
            match g.robot_move(robot, think_seed) {
                None => assert!(over, "{robot:?} found no move in a game that goes on"),
                Some(mv) => {
                    assert!(!over, "{robot:?} moved in a finished game");
                    assert!(
                        legal.contains(&mv),
                        "{robot:?} chose {mv}, not in {legal:?}"
                    );
                    let mut h = g.clone();
                    assert!(GameState::play(&mut h, &mv).is_ok());
                }
            }
        }
        // The search's own answer is the move the trait gives, and a seed fixes it.
        if !over {
            let a = search::think(&g, search::Budget::playouts(24), think_seed).unwrap();
            assert_eq!(
                &a.text,
                &g.robot_move(Robot::Playouts(24), think_seed).unwrap()
            );
            assert_eq!(
                &search::think(&g, search::Budget::playouts(24), think_seed).unwrap(),
                &a
            );
        }
    }

    #[test]
    fn policy_playouts_end_every_game(set in 0..OPTION_SETS.len(), players in 2usize..=3, seed: u64) {
        let mut g = position(set, players, seed, 0).position().clone();
        robot::policy_playout(&mut g, seed);
        assert_eq!(g.phase(), Phase::Over);
    }
}

#[test]
fn a_time_cap_stops_the_search() {
    let g = Position::new(Config::default(), 2, 3).unwrap();
    let capped = Budget {
        playouts: u32::MAX,
        placement_playouts: u32::MAX,
        millis: Some(50),
    };
    let t = robot::think(&g, capped, 1).unwrap();
    assert!(t.playouts >= 1 && t.playouts < u32::MAX);
    assert!(g.legal().contains(&t.mv));
    // A cap that is not reached leaves the search as it was: the same playouts, the same move.
    let level = Budget::from(robot::Level::Robot1);
    let loose = robot::think(&g, level.with_millis(3_600_000), 1).unwrap();
    assert_eq!(loose, robot::think(&g, level, 1).unwrap());
    assert_eq!(loose.playouts, robot::Level::Robot1.playouts());
}

#[test]
fn the_random_positions_reach_every_phase() {
    // The property above draws from these positions; make sure they hold every phase it claims to test.
    let mut seen = Vec::new();
    for set in 0..OPTION_SETS.len() {
        for players in 2..=3 {
            for depth in (0..40).step_by(3) {
                let g = position(set, players, depth as u64, depth);
                if !seen.contains(&g.phase()) {
                    seen.push(g.phase());
                }
            }
        }
    }
    for phase in [
        Phase::Manual,
        Phase::ClassicTiles,
        Phase::ClassicBalls,
        Phase::Movement,
        Phase::Over,
    ] {
        assert!(seen.contains(&phase), "{phase:?} never drawn: {seen:?}");
    }
}

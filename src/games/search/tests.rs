//! The games whose own playout only makes the search's generic one faster must draw exactly as it
//! does: the same actions from the same random numbers, so the robots play the same moves.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

use super::pos::{below, random_actions};
use crate::games::{GameOption, GameState, Registry};

/// Plays `g` out both ways from the same seed; panics naming the game and seed if they part.
fn same_both_ways(name: &str, g: &dyn GameState, seed: u64) {
    let (mut own, mut generic) = (g.search_copy(), g.search_copy());
    let (mut own_played, mut generic_played) = (Vec::new(), Vec::new());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pick = |n: usize| below(&mut rng, n);
    assert!(
        own.search_playout(&mut pick, Some(&mut own_played)),
        "{name} plays out with its own code"
    );
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pick = |n: usize| below(&mut rng, n);
    random_actions(
        generic.as_mut(),
        &mut pick,
        Some(&mut generic_played),
        &mut Vec::new(),
    );
    assert_eq!(
        own_played, generic_played,
        "{name}, seed {seed}: the actions"
    );
    assert_eq!(
        own.to_json(),
        generic.to_json(),
        "{name}, seed {seed}: the game"
    );
    assert_eq!(
        own.status(),
        generic.status(),
        "{name}, seed {seed}: the end"
    );
}

#[test]
fn chameleon_and_y_playouts_draw_as_the_generic_loop() {
    let registry = Registry::standard();
    let cases: [(&str, &[&str]); 5] = [
        ("chameleon", &[]),
        ("chameleon", &["-size=5"]),
        ("chameleon", &["-size=19"]),
        ("y", &[]),
        ("y", &["-no_swap"]),
    ];
    for (name, words) in cases {
        let rules = registry.find(name).expect("a standard game");
        let options: Vec<GameOption> = words
            .iter()
            .map(|w| GameOption::parse(w).expect("an option"))
            .collect();
        for seed in 0..40u64 {
            let mut g = rules.new_game(&options, 2, seed).expect("a new game");
            // From the first position (Y's swap is legal at the second) and from games under way.
            let mut rng = ChaCha8Rng::seed_from_u64(seed + 100);
            let mut acts = Vec::new();
            for _ in 0..(seed % 8) * (seed % 3) {
                g.legal_actions(&mut acts);
                if acts.is_empty() {
                    break;
                }
                g.apply_action(acts[rng.next_u32() as usize % acts.len()]);
            }
            same_both_ways(name, g.as_ref(), seed);
        }
    }
}

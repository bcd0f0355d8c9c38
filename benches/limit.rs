//! Benchmarks of the Limit engine: legal-move generation and whole random games on the default setup.
//!
//! Run with `cargo bench --bench limit`. Throughput is printed as items per second (median): legal turns
//! for the generation benchmark, games for the playout benchmarks (random, and the robot's playout
//! policy), playouts for the robot's whole search.

use divan::{Bencher, black_box, counter::ItemsCount};
use pbem::games::GameState;
use pbem::games::limit::layout::below;
use pbem::games::limit::robot::{self, Budget};
use pbem::games::limit::{Config, Phase, Position, new_game};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

fn main() {
    divan::main();
}

/// The seeded random stream of these random games.
fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// Positions from default games: the start and a few random turns in, for several seeds.
fn positions() -> Vec<Position> {
    let mut out = Vec::new();
    let mut r = rng(7);
    for seed in 0..16 {
        let mut g = Position::new(Config::default(), 2, seed).expect("default game");
        out.push(g.clone());
        for _ in 0..6 {
            let acts = g.legal_acts();
            if acts.is_empty() || g.phase() != Phase::Movement {
                break;
            }
            g.commit_act(acts[below(&mut r, acts.len())]);
            if g.phase() == Phase::Movement {
                out.push(g.clone());
            }
        }
    }
    out
}

/// Generates every legal turn of a set of default positions; throughput counts legal turns.
#[divan::bench]
fn legal_turns(b: Bencher) {
    let ps = positions();
    let total: usize = ps.iter().map(|g| g.legal_acts().len()).sum();
    b.counter(ItemsCount::new(total)).bench(|| {
        let mut n = 0;
        for g in &ps {
            n += black_box(g).legal_acts().len();
        }
        n
    });
}

/// Plays whole random default two-player games from the start; throughput counts games.
#[divan::bench]
fn random_default_games(b: Bencher) {
    let starts: Vec<_> = (0..64)
        .map(|s| new_game(Config::default(), 2, s).expect("game"))
        .collect();
    let mut r = rng(11);
    b.counter(ItemsCount::new(starts.len())).bench_local(|| {
        let mut turns = 0;
        for g in &starts {
            let mut g = g.clone();
            turns += g.random_playout(&mut |n| below(&mut r, n));
        }
        turns
    });
}

/// Plays whole default two-player games from the start with the robot's playout policy (captures first,
/// no self-captures); throughput counts games, i.e. the robot's playouts from the start.
#[divan::bench]
fn robot_policy_playouts(b: Bencher) {
    let starts: Vec<Position> = (0..64)
        .map(|s| Position::new(Config::default(), 2, s).expect("game"))
        .collect();
    let mut seed = 0u64;
    b.counter(ItemsCount::new(starts.len())).bench_local(|| {
        let mut turns = 0;
        for g in &starts {
            let mut g = g.clone();
            seed += 1;
            turns += robot::policy_playout(&mut g, seed);
        }
        turns
    });
}

/// The robot's whole search (tree and playouts) from the start of a default game; throughput counts
/// playouts.
#[divan::bench(args = [1_000, 5_000])]
fn robot_search(b: Bencher, playouts: u32) {
    let g = Position::new(Config::default(), 2, 5).expect("game");
    b.counter(ItemsCount::new(playouts as usize))
        .bench(|| robot::best_move(black_box(&g), Budget::playouts(playouts), 1));
}

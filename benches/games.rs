//! Benchmarks of the connection games' engines (Hex, Chameleon, Y, Unlur): whole
//! random games from the start of the default board, and perft.
//!
//! Run with `cargo bench --bench games`. Throughput is printed by divan as items per second: games for
//! the playout benchmarks, leaves for perft.

use divan::{Bencher, black_box, counter::ItemsCount};
use pbem::games::GameState;
use pbem::games::chameleon::ChameleonGame;
use pbem::games::hex::{Config, HexGame};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

fn main() {
    divan::main();
}

/// How many games one benchmark iteration plays.
const GAMES: usize = 64;

/// A uniform pick below `n` from a seeded stream (as `pbem engine … playout` picks).
fn picker(seed: u64) -> impl FnMut(usize) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    move |n| ((u128::from(rng.next_u64()) * n as u128) >> 64) as usize
}

/// Whole random Hex games on the default 11 × 11 board with the swap; throughput counts games.
#[divan::bench]
fn hex_playout(b: Bencher) {
    let start = HexGame::new(Config::default());
    let mut pick = picker(11);
    b.counter(ItemsCount::new(GAMES)).bench_local(|| {
        let mut moves = 0;
        for _ in 0..GAMES {
            let mut g = start.clone();
            moves += g.random_playout(&mut pick);
        }
        moves
    });
}

/// Hex perft 2 from the start of the default board (14,641 leaves); throughput counts leaves.
#[divan::bench]
fn hex_perft_2(b: Bencher) {
    let start = HexGame::new(Config::default());
    b.counter(ItemsCount::new(14_641usize))
        .bench(|| black_box(&start).perft(2));
}

/// Whole random Chameleon games on the default 11 × 11 board; throughput counts games.
#[divan::bench]
fn chameleon_playout(b: Bencher) {
    let start = ChameleonGame::new(11);
    let mut pick = picker(12);
    b.counter(ItemsCount::new(GAMES)).bench_local(|| {
        let mut moves = 0;
        for _ in 0..GAMES {
            let mut g = start.clone();
            moves += g.random_playout(&mut pick);
        }
        moves
    });
}

/// Chameleon perft 2 from the start of the default board (242 × 240 leaves); throughput counts leaves.
#[divan::bench]
fn chameleon_perft_2(b: Bencher) {
    let start = ChameleonGame::new(11);
    b.counter(ItemsCount::new(242 * 240usize))
        .bench(|| black_box(&start).perft(2));
}

/// Whole random Y games on the default side-15 triangle with the swap; throughput counts games.
#[divan::bench]
fn y_playout(b: Bencher) {
    let start = pbem::games::y::Game::new(pbem::games::y::Config::default());
    let mut pick = picker(13);
    b.counter(ItemsCount::new(GAMES)).bench_local(|| {
        let mut moves = 0;
        for _ in 0..GAMES {
            let mut g = start.clone();
            moves += g.random_playout(&mut pick);
        }
        moves
    });
}

/// Y perft 2 from the start of the default board (120 × 120 leaves, the swap among them).
#[divan::bench]
fn y_perft_2(b: Bencher) {
    let start = pbem::games::y::Game::new(pbem::games::y::Config::default());
    b.counter(ItemsCount::new(14_400usize))
        .bench(|| black_box(&start).perft(2));
}

/// Whole random Unlur games (contract and main phase) on the default side-8 hexagon; throughput counts
/// games.
#[divan::bench]
fn unlur_playout(b: Bencher) {
    let start = pbem::games::unlur::Game::new(8);
    let mut pick = picker(14);
    b.counter(ItemsCount::new(GAMES)).bench_local(|| {
        let mut moves = 0;
        for _ in 0..GAMES {
            let mut g = start.clone();
            moves += g.random_playout(&mut pick);
        }
        moves
    });
}

/// Unlur perft 2 from the start of the default board; throughput counts leaves.
#[divan::bench]
fn unlur_perft_2(b: Bencher) {
    let start = pbem::games::unlur::Game::new(8);
    let leaves = start.perft(2) as usize;
    b.counter(ItemsCount::new(leaves))
        .bench(|| black_box(&start).perft(2));
}

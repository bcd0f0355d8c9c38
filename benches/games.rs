//! Benchmarks of the hosted games' engines (Hex, Chameleon, Y, Unlur, Go, Ataxx, Hexxagon, Paradux,
//! Cups): whole random games from the start of the default board, and perft.
//!
//! Run with `cargo bench --bench games`. Throughput is printed as items per second (median): games for
//! the playout benchmarks, leaves for perft.

use divan::{Bencher, black_box, counter::ItemsCount};
use pbem::games::GameState;
use pbem::games::chameleon::{self, ChameleonGame};
use pbem::games::hex::{self, Config, HexGame};
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
    let start = HexGame::from_position(hex::Position::new(Config::default()));
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
    let start = HexGame::from_position(hex::Position::new(Config::default()));
    b.counter(ItemsCount::new(14_641usize))
        .bench(|| black_box(&start).perft(2));
}

/// Whole random Chameleon games on the default 11 × 11 board; throughput counts games.
#[divan::bench]
fn chameleon_playout(b: Bencher) {
    let start = ChameleonGame::from_position(chameleon::Position::new(11));
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
    let start = ChameleonGame::from_position(chameleon::Position::new(11));
    b.counter(ItemsCount::new(242 * 240usize))
        .bench(|| black_box(&start).perft(2));
}

/// Whole random Y games on the default side-15 triangle with the swap; throughput counts games.
#[divan::bench]
fn y_playout(b: Bencher) {
    let start = pbem::games::y::Game::from_position(pbem::games::y::Position::new(
        pbem::games::y::Config::default(),
    ));
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
    let start = pbem::games::y::Game::from_position(pbem::games::y::Position::new(
        pbem::games::y::Config::default(),
    ));
    b.counter(ItemsCount::new(14_400usize))
        .bench(|| black_box(&start).perft(2));
}

/// Whole random Unlur games (contract and main phase) on the default side-8 hexagon; throughput counts
/// games.
#[divan::bench]
fn unlur_playout(b: Bencher) {
    let start = pbem::games::unlur::Game::from_position(pbem::games::unlur::Position::new(8));
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
    let start = pbem::games::unlur::Game::from_position(pbem::games::unlur::Position::new(8));
    let leaves = start.perft(2) as usize;
    b.counter(ItemsCount::new(leaves))
        .bench(|| black_box(&start).perft(2));
}

/// The start of `game` with its default options (two players), as a challenge without options makes it.
fn default_start(game: &str) -> Box<dyn GameState> {
    pbem::games::Registry::standard()
        .find(game)
        .expect("a hosted game")
        .new_game(&[], 2, 0)
        .expect("the default options are valid")
}

/// Whole random games of `game` from its default start; throughput counts games.
fn playout_of(b: Bencher, game: &str, seed: u64) {
    let start = default_start(game);
    let mut pick = picker(seed);
    b.counter(ItemsCount::new(GAMES)).bench_local(|| {
        let mut moves = 0;
        for _ in 0..GAMES {
            let mut g = start.clone_box();
            moves += g.random_playout(&mut pick);
        }
        moves
    });
}

/// Perft `depth` of `game` from its default start; throughput counts leaves.
fn perft_of(b: Bencher, game: &str, depth: u32) {
    let start = default_start(game);
    let leaves = start.perft(depth) as usize;
    b.counter(ItemsCount::new(leaves))
        .bench_local(|| black_box(&start).perft(depth));
}

/// Whole random Go games on the default board (9 × 9, komi 7.5).
#[divan::bench]
fn go_playout(b: Bencher) {
    playout_of(b, "go", 15);
}

/// Go perft 2 from the empty default board.
#[divan::bench]
fn go_perft_2(b: Bencher) {
    perft_of(b, "go", 2);
}

/// Whole random Ataxx games from the default start.
#[divan::bench]
fn ataxx_playout(b: Bencher) {
    playout_of(b, "ataxx", 16);
}

/// Ataxx perft 3 from the default start (6,460 leaves, as the page gives).
#[divan::bench]
fn ataxx_perft_3(b: Bencher) {
    perft_of(b, "ataxx", 3);
}

/// Whole random Hexxagon games from the default start.
#[divan::bench]
fn hexxagon_playout(b: Bencher) {
    playout_of(b, "hexxagon", 17);
}

/// Hexxagon perft 3 from the default start (16,824 leaves, as the page gives).
#[divan::bench]
fn hexxagon_perft_3(b: Bencher) {
    perft_of(b, "hexxagon", 3);
}

/// Whole random Paradux games from the default start.
#[divan::bench]
fn paradux_playout(b: Bencher) {
    playout_of(b, "paradux", 18);
}

/// Paradux perft 2 from the default start (1,690 leaves, as the page gives).
#[divan::bench]
fn paradux_perft_2(b: Bencher) {
    perft_of(b, "paradux", 2);
}

/// Whole random Cups games from the default start.
#[divan::bench]
fn cups_playout(b: Bencher) {
    playout_of(b, "cups", 19);
}

/// Cups perft 5 from the default start.
#[divan::bench]
fn cups_perft_5(b: Bencher) {
    perft_of(b, "cups", 5);
}

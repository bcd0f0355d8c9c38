//! Times the server's robot3 (`Robot::Within { level: 3, millis: 2000 }`, as `src/server/robots.rs`
//! plays it) on a game's default board: positions from fixed random games (every `STEP`th ply from
//! the start), one search each, in this process. Prints each time and then the count, median, 90th
//! percentile and maximum in ms, and the most by which a search overran the cap.
//!
//! `cargo run --release --features tools --example robot_cap -- GAME [POSITIONS] [MILLIS]`   (default 12 positions, 2000)
//!
//! The time includes the tree-reuse lookup (nothing to reuse: each position is a new game to it).

use std::time::Instant;

use pbem::games::{GameState, Registry, Robot, Status};

/// Plies between two positions timed in one random game.
const STEP: usize = 7;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: robot_cap GAME [POSITIONS] [MILLIS]   (e.g. robot_cap hex 12 2000)";
    let Some(rules) = args.get(1).and_then(|n| Registry::standard().find(n)) else {
        eprintln!("{usage}");
        std::process::exit(64);
    };
    let number = |i: usize, default: u64| match args.get(i).map(|s| s.parse::<u64>()) {
        None => default,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("{usage}");
            std::process::exit(64);
        }
    };
    let positions = number(2, 12) as usize;
    let millis = number(3, 2000);
    let robot = Robot::Within { level: 3, millis };
    let mut times = Vec::new();
    let mut k = 7u64;
    'games: for seed in 0.. {
        let mut g: Box<dyn GameState> = rules.new_game(&[], 2, seed).expect("default options");
        let mut ply = 0;
        while matches!(g.status(), Status::ToMove(_)) {
            if ply % STEP == 0 {
                let start = Instant::now();
                let mv = g.robot_move(robot, seed * 1000 + ply as u64);
                let ms = start.elapsed().as_secs_f64() * 1000.0;
                println!("seed {seed} ply {ply}: {ms:.1} ms, {mv:?}");
                times.push(ms);
                if times.len() >= positions {
                    break 'games;
                }
            }
            let moves = g.legal_moves();
            k = k
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            g.play(&moves[(k >> 33) as usize % moves.len()])
                .expect("a listed move is legal");
            ply += 1;
        }
    }
    times.sort_by(f64::total_cmp);
    let n = times.len();
    let median = if n % 2 == 1 {
        times[n / 2]
    } else {
        (times[n / 2 - 1] + times[n / 2]) / 2.0
    };
    let p90 = times[(0.9 * (n - 1) as f64) as usize];
    let max = times[n - 1];
    println!(
        "{}: {n} moves, median {median:.1} ms, 90th percentile {p90:.1} ms, max {max:.1} ms, \
         most over the {millis} ms cap {:.1} ms",
        rules.name(),
        (max - millis as f64).max(0.0)
    );
}

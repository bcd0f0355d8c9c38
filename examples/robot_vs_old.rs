//! The new robot (the generic search, `games::search`, as the robot accounts play it) against Limit's
//! former robot (`games::limit::robot`, kept as the baseline), at one level, on default two-player
//! boards, sides alternating: game `i` has seed `SEED + i`, and the new robot plays Red when `i` is even.
//!
//! `cargo run --release --features tools --example robot_vs_old -- LEVEL GAMES [SEED] [OPTION...]`
//! prints one line per game and the new robot's score with its Wilson 95% interval.

use pbem::games::limit::robot::{self, Level};
use pbem::games::limit::{Config, Move};
use pbem::games::{GameOption, GameState, Outcome, Robot};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let level: u8 = args.first().and_then(|a| a.parse().ok()).unwrap_or(3);
    let games: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(6);
    let seed0: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let options: Vec<GameOption> = args
        .iter()
        .skip(3)
        .filter_map(|w| GameOption::parse(w))
        .collect();
    let cfg = Config::from_options(&options).expect("valid options");
    let old_level = Level::from_number(level).expect("a level 1 to 3");
    let (mut score, mut n) = (0.0f64, 0u64);
    for i in 0..games {
        let seed = seed0 + i;
        let new_seat = (i % 2) as usize;
        let mut g = pbem::games::limit::new_game(cfg, 2, seed).unwrap();
        let mut ply = 0u64;
        while let Some(me) = g.to_move() {
            let move_seed = seed.wrapping_mul(1000).wrapping_add(ply);
            let mv = if me == new_seat {
                g.robot_move(Robot::Level(level), move_seed)
                    .expect("a move while the game goes on")
            } else {
                let m: Move = robot::best_move(&g, old_level, move_seed).expect("a move");
                m.to_string()
            };
            g.play(&mv).expect("the robots play legal moves");
            ply += 1;
        }
        let s = match g.result() {
            Some(Outcome::Winner(w)) if *w == new_seat => 1.0,
            Some(Outcome::Winner(_)) => 0.0,
            _ => 0.5,
        };
        println!("game {seed} new-seat {new_seat} new-score {s} moves {ply}");
        score += s;
        n += 1;
    }
    let p = score / n as f64;
    let z = 1.959964f64;
    let den = 1.0 + z * z / n as f64;
    let c = (p + z * z / (2.0 * n as f64)) / den;
    let h = z * (p * (1.0 - p) / n as f64 + z * z / (4.0 * (n * n) as f64)).sqrt() / den;
    println!(
        "new robot{level} vs old robot{level}: {n} games, score {p:.3}, 95% interval {:.3} to {:.3}",
        (c - h).max(0.0),
        (c + h).min(1.0)
    );
}

//! Asks robot2 and robot3 (seeds 0 to 2) for their move in every position of a tactics fixture
//! (`tests/fixtures/tactics/GAME.txt`, written by `examples/game_tactics.rs`), in a release build,
//! accepting only the moves listed (`tests/it/robot_tactics_boards.rs` asks them too, and in Cups'
//! wins in two accepts a slower forced win). Prints each miss, each search over 2 s, and the count
//! of hits and misses: a quick look at a new fixture or a changed search.
//!
//! `cargo run --release --features tools --example tactics_check -- GAME tests/fixtures/tactics/GAME.txt`

use pbem::games::search;
use pbem::games::{Registry, Robot};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(rules), Some(path)) = (
        args.get(1).and_then(|g| Registry::standard().find(g)),
        args.get(2),
    ) else {
        eprintln!(
            "usage: tactics_check GAME FIXTURE   (e.g. tactics_check hex tests/fixtures/tactics/hex.txt)"
        );
        std::process::exit(64);
    };
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("tactics_check: {path}: {e}");
        std::process::exit(66);
    });
    let (mut hits, mut misses) = (0, 0);
    for line in text.lines() {
        let mut parts = line.splitn(3, '\t');
        let (Some(kind), Some(moves), Some(json)) = (parts.next(), parts.next(), parts.next())
        else {
            eprintln!("tactics_check: a line is the kind, the moves and the JSON, tab-separated");
            std::process::exit(65);
        };
        let allowed: Vec<&str> = moves.split(' ').collect();
        for level in [2u8, 3] {
            for seed in 0..3 {
                let start = std::time::Instant::now();
                match search::expect_move(rules, json, Robot::Level(level), seed, &allowed) {
                    Ok(_) => hits += 1,
                    Err(e) => {
                        misses += 1;
                        println!("miss {kind}: {e}");
                    }
                }
                let ms = start.elapsed().as_millis();
                if ms > 2000 {
                    println!("slow {kind} robot{level} seed {seed}: {ms} ms");
                }
            }
        }
    }
    println!("{}: {hits} found, {misses} missed", rules.name());
}

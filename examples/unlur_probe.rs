//! Probe of Unlur's robot (issue 23, docs/robot.md "Unlur on the generic search"): plays A against B
//! and prints, per game, who passed and when, which seat played Black and who won (`SHOW=1`: the
//! moves and the last board); counts who wins playouts from the empty board by colour and by the
//! contract's length (uniformly random, or with `policy` the search's policy); and prints the search's
//! choice and value in a position, five seeds.
//!
//! `cargo run --release --features tools --example unlur_probe -- games A B N SEED`
//! `cargo run --release --features tools --example unlur_probe -- playouts N [policy]`
//! `cargo run --release --features tools --example unlur_probe -- think PLAYOUTS MOVE...`

use pbem::games::unlur::Game;
use pbem::games::{GameState, Outcome, Robot, Status};

fn robot(name: &str) -> Robot {
    match name {
        "random" => Robot::Random,
        "robot1" => Robot::Level(1),
        "robot2" => Robot::Level(2),
        "robot3" => Robot::Level(3),
        p => Robot::Playouts(p.trim_start_matches("playouts=").parse().expect("a player")),
    }
}

fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("games") => {
            let (a, b) = (robot(&args[1]), robot(&args[2]));
            let n: u64 = args[3].parse().unwrap();
            let seed: u64 = args[4].parse().unwrap();
            for gs in seed..seed + n {
                let mut g = Game::from_position(pbem::games::unlur::Position::new(8));
                let a_seat = (gs % 2) as usize;
                let mut moves = Vec::new();
                let outcome = loop {
                    let seat = match GameState::status(&g) {
                        Status::Over(o) => break o,
                        Status::ToMove(s) => s,
                    };
                    let p = if seat == a_seat { a } else { b };
                    let mv = g
                        .robot_move(
                            p,
                            mix(gs ^ ((moves.len() as u64 + 1) * 0x9e37) ^ seat as u64),
                        )
                        .unwrap();
                    moves.push(mv.clone());
                    g.play_text(&mv).unwrap();
                };
                let pass_at = moves.iter().position(|m| m == "pass");
                let black = g.black_seat();
                let winner = match outcome {
                    Outcome::Winner(s) => s,
                    _ => 9,
                };
                println!(
                    "game {gs} a-seat {a_seat} pass-at {:?} passer {} a-black {} winner {} a-wins {} len {}",
                    pass_at.map(|k| k + 1),
                    if black == Some(a_seat) { "a" } else { "b" },
                    black == Some(a_seat),
                    if Some(winner) == black {
                        "Black"
                    } else {
                        "White"
                    },
                    winner == a_seat,
                    moves.len()
                );
                if std::env::var("SHOW").is_ok() {
                    println!("{}", moves.join(" "));
                    println!("{}", g.render());
                }
            }
        }
        Some("think") => {
            // think PLAYOUTS MOVE...: the search's choice and value in five seeds.
            let n: u32 = args[1].parse().unwrap();
            let mut g = Game::from_position(pbem::games::unlur::Position::new(8));
            for m in &args[2..] {
                g.play_text(m).unwrap();
            }
            for seed in 0..5 {
                let t =
                    pbem::games::search::think(&g, pbem::games::search::Budget::playouts(n), seed)
                        .unwrap();
                println!(
                    "seed {seed}: {} value {:.3} playouts {}",
                    t.text, t.value, t.playouts
                );
            }
        }
        Some("playouts") => {
            let n: u64 = args[1].parse().unwrap();
            let mut x = 12345u64;
            let (mut bw, mut ww) = (0, 0);
            let mut by_len = std::collections::BTreeMap::<u32, (u32, u32)>::new();
            for _ in 0..n {
                let mut g = Game::from_position(pbem::games::unlur::Position::new(8));
                let mut contract = 0u32;
                let mut pick = |k: usize| {
                    x = mix(x.wrapping_add(0x9e37_79b9_7f4a_7c15));
                    ((u128::from(x) * k as u128) >> 64) as usize
                };
                // The policy plays on the position: its moves are the trail, not the move list.
                let texts: Vec<String> = if args.get(2).is_some_and(|a| a == "policy") {
                    let mut trail = Vec::new();
                    g.search_playout(&mut pick, Some(&mut trail));
                    trail.iter().map(|&(_, a)| g.action_text(a)).collect()
                } else {
                    g.random_playout(&mut pick);
                    g.records().into_iter().map(|r| r.text).collect()
                };
                if let Some(p) = texts.iter().position(|t| t == "pass") {
                    contract = p as u32;
                }
                let Some(Outcome::Winner(w)) = g.result() else {
                    continue;
                };
                let e = by_len.entry(contract / 20 * 20).or_default();
                if Some(w) == g.black_seat() {
                    bw += 1;
                    e.0 += 1;
                } else {
                    ww += 1;
                    e.1 += 1;
                }
            }
            println!("black wins {bw} white wins {ww}");
            for (k, (b, w)) in by_len {
                println!("contract stones {k}..: black {b} white {w}");
            }
        }
        _ => eprintln!("usage: unlur_probe games A B N SEED | playouts N"),
    }
}

//! Draws a board mail's picture (`GameState::png`, `picture::png_of`: the game paints the board straight onto the
//! pixmap, which is written as a PNG) for a game of SIZE after MOVES first legal moves, and times
//! it: median of RUNS draws, each the position one move on from the one before (the game played on
//! with its first legal move, started again when it ends), wall clock and the thread's CPU time.
//! The PNG written is the last one drawn.
//!
//!   cargo run --release --features tools --example board_png -- OUT.png [SIZE] [MOVES] [RUNS] [GAME]
//!
//! GAME is `limit` by default (its option `size`; other games take it where they have one).
//!
//!   cargo run --release --features tools --example board_png -- --all DIR [MOVES]
//!
//! `--all` writes every game's board (two players, default options, MOVES first legal moves
//! played, default 4) to DIR as `GAME.svg` and `GAME.png`: to look at every game's picture
//! before and after a change to the painting.
//!
//!   cargo run --release --features tools --example board_png -- --games [PLAYOUTS] [SEED]
//!
//! `--games` plays one whole game of every game's default board, the search player with PLAYOUTS
//! playouts a move (default 200) on both sides, and prints the mail PNG's size at every position
//! (each a line `GAME MOVE BYTES WIDTH HEIGHT`), then per game the mean and the largest (issue 37,
//! section 2: what the picture adds to every board mail). `scripts/picture-sizes.sh` runs it.
//!
//! `scripts/picture-speed.sh` runs it for the wall-clock median and under callgrind for the
//! instructions of one draw.

use std::time::Instant;

use pbem::games::{GameOption, Registry};

fn main() {
    let mut args = std::env::args().skip(1);
    let out = args.next().unwrap_or_else(|| "board.png".into());
    if out == "--games" {
        let playouts = args.next().and_then(|s| s.parse().ok()).unwrap_or(200);
        let seed = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
        return games(playouts, seed);
    }
    if out == "--all" {
        let dir = args.next().expect("--all DIR: the folder to write to");
        let moves = args.next().and_then(|s| s.parse().ok()).unwrap_or(4);
        return all(&dir, moves);
    }
    let size: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(8);
    let moves: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(4);
    let runs: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(20);
    let game = args.next().unwrap_or_else(|| "limit".into());
    let opts = [GameOption::with_value("size", &size.to_string())];
    let rules = Registry::standard()
        .find(&game)
        .unwrap_or_else(|| panic!("no game `{game}`"));
    let start = || rules.new_game(&opts, 2, 7).unwrap();
    let mut g = start();
    for _ in 0..moves {
        let Some(m) = g.legal_moves().into_iter().next() else {
            break;
        };
        g.play(&m).unwrap();
    }
    let svg = g.svg().unwrap();
    let mut png = g.png().unwrap().unwrap();
    // The positions to draw, made before the clock starts.
    let positions: Vec<_> = (0..runs)
        .map(|_| {
            match g.legal_moves().into_iter().next() {
                Some(m) => g.play(&m).unwrap(),
                None => g = start(),
            }
            g.clone_box()
        })
        .collect();
    let (mut times, mut cpu): (Vec<f64>, Vec<f64>) = positions
        .iter()
        .map(|p| {
            let (t, c) = (Instant::now(), thread_cpu_ms());
            png = p.png().unwrap().unwrap();
            (t.elapsed().as_secs_f64() * 1000.0, thread_cpu_ms() - c)
        })
        .unzip();
    let median = middle(&mut times);
    let cpu = middle(&mut cpu);
    std::fs::write(&out, png.as_slice()).unwrap();
    let (w, h) = pbem::picture::png_size(&png).unwrap();
    println!(
        "{out}: {game} size {size}, {w}x{h} px, {} bytes PNG, {} bytes SVG, render median \
         {median:.2} ms of {runs}, CPU median {cpu:.2} ms",
        png.len(),
        svg.len(),
    );
}

/// Every game's board after `moves` first legal moves, as SVG and PNG in `dir`.
fn all(dir: &str, moves: usize) {
    std::fs::create_dir_all(dir).unwrap();
    for rules in Registry::standard().iter() {
        let players = (*rules.players().start()).max(2);
        let mut g = rules.new_game(&[], players, 7).unwrap();
        for _ in 0..moves {
            let Some(m) = g.legal_moves().into_iter().next() else {
                break;
            };
            g.play(&m).unwrap();
        }
        let Some(svg) = g.svg() else {
            println!("{}: no picture", rules.name());
            continue;
        };
        let png = g.png().unwrap().unwrap();
        std::fs::write(format!("{dir}/{}.svg", rules.name()), &svg).unwrap();
        std::fs::write(format!("{dir}/{}.png", rules.name()), &png).unwrap();
        println!("{dir}/{}.png: {} bytes", rules.name(), png.len());
    }
}

/// Every game's default board played through by the search player, the PNG's size at each position.
fn games(playouts: u32, seed: u64) {
    for rules in Registry::standard().iter() {
        let players = (*rules.players().start()).max(2);
        let mut g = rules.new_game(&[], players, seed).unwrap();
        let mut sizes = Vec::new();
        for ply in 0..600u64 {
            let Some(png) = g.png() else { break };
            let png = png.unwrap();
            let (w, h) = pbem::picture::png_size(&png).unwrap();
            println!("{} {ply} {} {w} {h}", rules.name(), png.len());
            sizes.push(png.len());
            let robot = pbem::games::Robot::Playouts(playouts);
            let Some(m) = g.robot_move(robot, seed + ply) else {
                break;
            };
            g.play(&m).unwrap();
        }
        let mean = sizes.iter().sum::<usize>() as f64 / sizes.len().max(1) as f64;
        println!(
            "# {}: {} positions, PNG mean {mean:.0} bytes, largest {}",
            rules.name(),
            sizes.len(),
            sizes.iter().max().copied().unwrap_or(0)
        );
    }
}

/// The middle of the values (the mean of the two middle ones for an even count).
fn middle(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// The CPU time this thread has used, in milliseconds: what a draw costs, whatever else the
/// machine runs meanwhile (the wall clock on a shared machine counts the others' turns too).
fn thread_cpu_ms() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec it is given, which lives through the call.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 * 1000.0 + t.tv_nsec as f64 / 1e6
}

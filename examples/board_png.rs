//! Draws a Limit board as the board mails do and writes the PNG; prints its size and the time to
//! render it (median of RUNS draws, the first one, with the font load, left out). The PNG written
//! is the last one drawn.
//!
//!   cargo run --release --features tools --example board_png -- OUT.png [SIZE] [MOVES] [RUNS] [whole|next]
//!
//! `next` (the default) times what a game's move costs: each draw is the position one move on from
//! the one drawn before (the game played on with its first legal move, started again when it ends),
//! so that `picture::draw` repaints from the last drawing. `whole` times drawing those positions
//! with nothing kept (`picture::draw_whole`), as every picture was drawn before that shortcut.
//!
//! `scripts/picture-speed.sh` runs it for the wall-clock median and under callgrind for the
//! instructions of one draw.

use std::time::Instant;

use pbem::games::{GameOption, Registry};

fn main() {
    let mut args = std::env::args().skip(1);
    let out = args.next().unwrap_or_else(|| "board.png".into());
    let size: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(8);
    let moves: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(4);
    let runs: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(20);
    let whole = match args.next().as_deref() {
        None | Some("next") => false,
        Some("whole") => true,
        Some(other) => panic!("the fifth argument is `whole` or `next`, not `{other}`"),
    };
    let opts = [GameOption::with_value("size", &size.to_string())];
    let start = || {
        Registry::standard()
            .find("limit")
            .unwrap()
            .new_game(&opts, 2, 7)
            .unwrap()
    };
    let mut g = start();
    for _ in 0..moves {
        let Some(m) = g.legal_moves().into_iter().next() else {
            break;
        };
        g.play(&m).unwrap();
    }
    let svg = g.svg().unwrap();
    let mut png = pbem::picture::png(&svg).unwrap().to_vec();
    // The positions to draw, made before the clock starts.
    let svgs: Vec<String> = (0..runs)
        .map(|_| {
            match g.legal_moves().into_iter().next() {
                Some(m) => g.play(&m).unwrap(),
                None => g = start(),
            }
            g.svg().unwrap()
        })
        .collect();
    let mut times: Vec<f64> = svgs
        .iter()
        .map(|svg| {
            let t = Instant::now();
            png = if whole {
                pbem::picture::draw_whole(svg)
            } else {
                pbem::picture::draw(svg)
            }
            .unwrap();
            t.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    times.sort_by(f64::total_cmp);
    let median = match times.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => times[n / 2],
        n => (times[n / 2 - 1] + times[n / 2]) / 2.0,
    };
    std::fs::write(&out, png.as_slice()).unwrap();
    let (w, h) = pbem::picture::png_size(&png).unwrap();
    println!(
        "{out}: size {size}, {w}x{h} px, {} bytes PNG, {} bytes SVG, render median {median:.2} ms \
         of {runs}",
        png.len(),
        svg.len(),
    );
}

//! Our Go robot against GNU Go over GTP (`gnugo --mode gtp`), sides alternating: game `i` has seed
//! `SEED + i`, and our robot plays Black when the seed is even. GNU Go gets `--chinese-rules` (area
//! scoring, as ours), the komi and the game's seed; our side plays by `search::think` with the budget the server's
//! `robot_move` gives the level (the same moves), so each game's line can give the median playouts a
//! robot move.
//!
//! `cargo run --release --features tools --example gnugo_match -- GAMES GNUGO_LEVEL ROBOT_LEVEL MILLIS [SEED] [SIZE] [KOMI]`
//!
//! MILLIS 0 plays the robot level uncapped; otherwise `Robot::Within` (the server's robots: 2000).
//! GNU Go moves by `kgs-genmove_cleanup`, which plays as `genmove` but does not pass while stones it
//! judges dead are on the board, so both sides play to the end under the rules our server scores by:
//! a game ends when both pass in a row and our Tromp–Taylor count decides it (GNU Go's own
//! `final_score`, which takes off the stones it judges dead, is printed beside it). A game that
//! reaches 4·size² plies without two passes is decided by GNU Go's `final_score`. One line per game,
//! then our robot's score with its Wilson 95% interval. `GNUGO` names the program (default:
//! `gnugo` on the path, else /usr/games/gnugo); `GNUGO_SHOW=1` prints both programs' final boards
//! and the moves.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;

use pbem::games::go::{self, options::GoOptions};
use pbem::games::search::{self, Budget};
use pbem::games::{GameOption, GameState, Robot, Status};

/// A GNU Go child process spoken to over GTP.
struct Gtp {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Gtp {
    fn start(program: &str, level: u8, komi: &str, seed: u64) -> Gtp {
        let mut child = Command::new(program)
            .args(["--mode", "gtp", "--chinese-rules", "--komi", komi])
            .args(["--level", &level.to_string()])
            // GNU Go's own choices are fixed by its seed (0 unless given): without one per game it
            // answers the same moves the same way, and games repeat.
            .args(["--seed", &seed.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
        let input = child.stdin.take().expect("piped stdin");
        let output = BufReader::new(child.stdout.take().expect("piped stdout"));
        Gtp {
            child,
            input,
            output,
        }
    }

    /// Sends one command and returns the answer after `= `; a `? ` answer is an error.
    fn ask(&mut self, command: &str) -> Result<String, String> {
        writeln!(self.input, "{command}").expect("GNU Go reads its input");
        self.input.flush().expect("GNU Go reads its input");
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            if self.output.read_line(&mut line).expect("GNU Go answers") == 0 {
                return Err(format!("GNU Go ended while answering '{command}'"));
            }
            if line.trim().is_empty() && !answer.is_empty() {
                break;
            }
            answer.push_str(&line);
        }
        let answer = answer.trim_end().to_string();
        match answer.strip_prefix('=') {
            Some(rest) => Ok(rest.trim().to_string()),
            None => Err(format!("GNU Go refused '{command}': {answer}")),
        }
    }
}

impl Drop for Gtp {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.child.wait();
    }
}

/// The program to run: `$GNUGO`, else `gnugo` on the path, else Debian's /usr/games/gnugo.
fn program() -> String {
    if let Ok(p) = std::env::var("GNUGO") {
        return p;
    }
    let on_path = Command::new("gnugo")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .is_ok();
    if on_path {
        "gnugo".into()
    } else {
        "/usr/games/gnugo".into()
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: u64| -> u64 {
        args.get(i)
            .map(|a| {
                a.parse()
                    .unwrap_or_else(|_| panic!("argument {} is a number", i + 1))
            })
            .unwrap_or(default)
    };
    let games = arg(0, 10);
    let gnugo_level = arg(1, 1) as u8;
    let level = arg(2, 3) as u8;
    let millis = arg(3, 2000);
    let seed0 = arg(4, 1000);
    let size = arg(5, 9);
    let komi = args.get(6).cloned().unwrap_or_else(|| "7".into());
    let robot = if millis == 0 {
        Robot::Level(level)
    } else {
        Robot::Within { level, millis }
    };
    let program = program();
    let options = [
        GameOption::with_value("size", &size.to_string()),
        GameOption::with_value("komi", &komi),
    ];
    let opts = GoOptions::read(&options).expect("valid options");
    let (mut score, mut n) = (0.0f64, 0u64);
    for i in 0..games {
        let seed = seed0 + i;
        let ours = (seed % 2) as usize;
        let mut gtp = Gtp::start(&program, gnugo_level, &komi, seed);
        gtp.ask(&format!("boardsize {size}")).unwrap();
        gtp.ask("clear_board").unwrap();
        gtp.ask(&format!("komi {komi}")).unwrap();
        let mut g = go::game(opts, false);
        let (mut passes, mut ply, mut think_ms) = (0, 0u64, 0u128);
        // Playouts of each robot move (the time cap decides them when there is one).
        let mut playouts: Vec<u32> = Vec::new();
        let mut note = "";
        while passes < 2 && ply < 4 * size * size {
            let Status::ToMove(seat) = g.status() else {
                break;
            };
            let colour = if seat == 0 { "black" } else { "white" };
            let mv = if seat == ours {
                let t = Instant::now();
                // What `robot_move` does for these robots (`search::robot_move`), with the figures.
                let budget = Budget::level(&g, level).expect("a robot level from 1 to 3");
                let budget = if millis == 0 {
                    budget
                } else {
                    budget.with_millis(millis)
                };
                let thought = search::think(&g, budget, seed.wrapping_mul(1000).wrapping_add(ply))
                    .expect("a move while the game goes on");
                think_ms += t.elapsed().as_millis();
                playouts.push(thought.playouts);
                let mv = thought.text;
                gtp.ask(&format!("play {colour} {mv}"))
                    .expect("GNU Go takes our legal move");
                mv
            } else {
                let mv = gtp
                    .ask(&format!("kgs-genmove_cleanup {colour}"))
                    .unwrap()
                    .to_lowercase();
                if mv == "resign" {
                    note = " gnugo-resigned";
                    break;
                }
                mv
            };
            if g.play(&mv).is_err() {
                // GNU Go's simple ko allows a few repetitions our positional superko refuses.
                note = " superko";
                break;
            }
            passes = if mv == "pass" { passes + 1 } else { 0 };
            ply += 1;
        }
        if std::env::var_os("GNUGO_SHOW").is_some() {
            let moves: Vec<String> = g.moves().into_iter().map(|m| m.text).collect();
            eprintln!(
                "{}\n{}\n{}",
                gtp.ask("showboard").unwrap(),
                g.render(),
                moves.join(" ")
            );
        }
        let gnu = gtp.ask("final_score").unwrap();
        let winner = match g.status() {
            Status::Over(pbem::games::Outcome::Winner(w)) => Some(w),
            Status::Over(_) => None,
            // Cut off (ply cap, a superko refusal) or GNU Go resigned: GNU Go's count decides.
            Status::ToMove(_) if note == " gnugo-resigned" => Some(ours),
            Status::ToMove(_) => match gnu.chars().next() {
                Some('B') => Some(0),
                Some('W') => Some(1),
                _ => None,
            },
        };
        let s = match winner {
            Some(w) if w == ours => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        playouts.sort_unstable();
        println!(
            "game {seed} ours {} score {s} plies {ply} gnugo {gnu} tromp-taylor {} \
             ms-per-move {} playouts-per-move {}{note}",
            ["black", "white"][ours],
            g.score_line().replace(' ', "_"),
            think_ms / u128::from(ply.div_ceil(2).max(1)),
            playouts.get(playouts.len() / 2).copied().unwrap_or(0),
        );
        score += s;
        n += 1;
    }
    if n == 0 {
        return;
    }
    let p = score / n as f64;
    let z = 1.959964f64;
    let den = 1.0 + z * z / n as f64;
    let c = (p + z * z / (2.0 * n as f64)) / den;
    let h = z * (p * (1.0 - p) / n as f64 + z * z / (4.0 * (n * n) as f64)).sqrt() / den;
    println!(
        "{robot:?} vs gnugo level {gnugo_level}: {n} games, score {p:.3}, 95% interval {:.3} to {:.3}",
        (c - h).max(0.0),
        (c + h).min(1.0)
    );
}

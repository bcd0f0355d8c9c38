//! Replays games of `pbem engine limit match A random` (same seeds, same per-move seeds, A in seat
//! `seed % 2`) and prints every drawn one move by move: who played what, whether it removed a tile,
//! the pawns left, and at A's turns the search's value of its move and how many of its removals lost
//! no pawn at once. Used to find why the robots draw against a random player under `-move_or_remove`
//! (docs/robot.md).
//!
//! `cargo run --release --features tools --example limit_draws -- LEVEL GAMES [SEED] [OPTION...]`
//! (e.g. `-- 3 40 1000 -move_or_remove`); `--all` among the options prints every game, not only draws.

use std::collections::HashMap;

use pbem::games::limit::{Config, Game};
use pbem::games::search::{self, Budget};
use pbem::games::{GameOption, GameState, Outcome, Robot};

/// The per-move seed `pbem engine ... match` gives a player (src/engine_cli/runs.rs), so that a game
/// here is the game of the match with the same seed.
fn move_seed(game_seed: u64, move_number: u32, seat: usize) -> u64 {
    let mut x = game_seed
        ^ u64::from(move_number).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ (seat as u64).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

fn pawns(g: &Game, seat: usize) -> u32 {
    g.board().m.pawns[seat].count_ones()
}

/// The removals alone of the player to move, and how many of them lose none of the mover's pawns.
fn removals(g: &Game) -> (usize, usize) {
    let me = g.to_move().expect("the game goes on");
    let mut ids = Vec::new();
    g.legal_actions(&mut ids);
    let (mut all, mut safe) = (0, 0);
    for &a in &ids {
        if !g.action_text(a).starts_with('x') {
            continue;
        }
        all += 1;
        let mut h = g.clone();
        h.apply_action(a);
        if pawns(&h, me) == pawns(g, me) {
            safe += 1;
        }
    }
    (all, safe)
}

/// Positions seen by [`win_chance`]: tiles, pawns, seat to move, turns since a removal.
type Memo = HashMap<(u64, [u64; 3], usize, u32), f64>;

/// Whether a turn written `mv` removes a tile.
fn removes(mv: &str) -> bool {
    mv.starts_with('x') || mv.contains(',')
}

/// The chance that `robot` wins from `g` when it plays its best and the other seat plays uniformly
/// at random among its legal turns (as `random` does), draws counting nothing; `streak` is the turns
/// played since the last removal. `None` once `budget` positions have been searched.
fn win_chance(
    g: &Game,
    robot: usize,
    streak: u32,
    memo: &mut Memo,
    budget: &mut u64,
) -> Option<f64> {
    let Some(me) = g.to_move() else {
        return Some(match g.result() {
            Some(Outcome::Winner(w)) if *w == robot => 1.0,
            _ => 0.0,
        });
    };
    let m = g.board().m;
    let key = (m.tiles, m.pawns, me, streak);
    if let Some(&v) = memo.get(&key) {
        return Some(v);
    }
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    let mut ids = Vec::new();
    g.legal_actions(&mut ids);
    let (mut best, mut sum) = (0.0f64, 0.0f64);
    for &a in &ids {
        let s = if removes(&g.action_text(a)) {
            0
        } else {
            streak + 1
        };
        let mut h = g.clone();
        h.apply_action(a);
        let v = win_chance(&h, robot, s, memo, budget)?;
        best = best.max(v);
        sum += v;
    }
    let v = if me == robot {
        best
    } else {
        sum / ids.len() as f64
    };
    memo.insert(key, v);
    Some(v)
}

/// Each of the robot's turns in `g` with its exact chance of winning against `random` (best first),
/// if the search fits the budget.
fn turn_chances(g: &Game, streak: u32, budget: u64) -> Option<Vec<(f64, String)>> {
    let robot = g.to_move()?;
    let mut memo = Memo::new();
    let mut left = budget;
    let mut ids = Vec::new();
    g.legal_actions(&mut ids);
    let mut out = Vec::new();
    for &a in &ids {
        let text = g.action_text(a);
        let s = if removes(&text) { 0 } else { streak + 1 };
        let mut h = g.clone();
        h.apply_action(a);
        out.push((win_chance(&h, robot, s, &mut memo, &mut left)?, text));
    }
    out.sort_by(|x, y| y.0.total_cmp(&x.0));
    Some(out)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let level: u8 = args.first().and_then(|a| a.parse().ok()).unwrap_or(3);
    let games: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(10);
    let seed0: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let all = args.iter().any(|a| a == "--all");
    let options: Vec<GameOption> = args
        .iter()
        .skip(3)
        .filter(|a| !a.starts_with("--"))
        .filter_map(|w| GameOption::parse(w))
        .collect();
    let cfg = Config::from_options(&options).expect("valid options");
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for i in 0..games {
        let seed = seed0 + i;
        let a_seat = (seed % 2) as usize;
        let mut g = pbem::games::limit::new_game(cfg, 2, seed).unwrap();
        let mut lines = Vec::new();
        let mut streak = 0;
        while let Some(me) = g.to_move() {
            let now = g.move_number();
            let ms = move_seed(seed, now, me);
            let before = g.clone();
            let (mv, note) = if me == a_seat {
                let (all_x, safe_x) = removals(&g);
                let budget = Budget::level(&g, level).expect("a level 1 to 3");
                let t = search::think(&g, budget, ms).expect("a move while the game goes on");
                let note = format!(
                    "value {:.3}{} removals {all_x} safe {safe_x}",
                    t.value,
                    t.proven.map(|p| format!(" proven {p}")).unwrap_or_default()
                );
                (t.text, note)
            } else {
                let mv = g.robot_move(Robot::Random, ms).expect("a move");
                (mv, String::new())
            };
            let exact = if me == a_seat {
                turn_chances(&g, streak, 400_000)
            } else {
                None
            };
            g.play(&mv).expect("legal");
            let who = if me == a_seat { "robot " } else { "random" };
            lines.push(format!(
                "  {now:3} {who} {mv:10} pawns robot {} random {} {note}",
                pawns(&g, a_seat),
                pawns(&g, 1 - a_seat),
            ));
            if let Some(v) = exact {
                let mine = v.iter().find(|(_, t)| *t == mv).map_or(-1.0, |x| x.0);
                let best: Vec<String> = v
                    .iter()
                    .take(4)
                    .map(|(p, t)| format!("{t} {p:.3}"))
                    .collect();
                lines.push(format!(
                    "      exact chance of a win against random: its turn {mine:.3}, best {}",
                    best.join(", ")
                ));
            }
            if me == a_seat && !removes(&mv) {
                let json: serde_json::Value =
                    serde_json::from_str(&before.to_json()).expect("the game's JSON");
                lines.push(format!("      position before it: {json}"));
            }
            streak = if removes(&mv) { 0 } else { streak + 1 };
        }
        let result = match g.result() {
            Some(Outcome::Winner(w)) if *w == a_seat => {
                wins += 1;
                "win"
            }
            Some(Outcome::Winner(_)) => {
                losses += 1;
                "loss"
            }
            _ => {
                draws += 1;
                "draw"
            }
        };
        println!("game {seed} robot seat {a_seat} {result}");
        if result != "win" || all {
            for l in &lines {
                println!("{l}");
            }
        }
    }
    println!("robot{level} vs random: {games} games, {wins} wins, {losses} losses, {draws} draws");
}

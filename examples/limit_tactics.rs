//! Finds the Limit positions of `tests/fixtures/limit_tactics.txt`: default two-player games played at
//! random from seeded layouts, stopped at the first position where the player to move can win at once
//! (five positions), and at the first where they cannot but have a turn after which every reply leaves
//! them a win at once (five positions: forced wins in two own turns). Each line: the kind, the turns
//! that win (space-separated), the game's JSON; all found exhaustively.
//!
//! `cargo run --release --features tools --example limit_tactics > tests/fixtures/limit_tactics.txt`
//!
//! Wins at once are found by playing every turn (the robot's priors mark only the captures of every
//! other pawn; a win can also come from the other side's forced self-capture).

use pbem::games::limit::{Config, Game, Phase};
use pbem::games::{GameState, Outcome};

/// Whether the player to move has a win at once: the priors' mark first (a capture of every other
/// pawn), then every turn played (a win can also come from the other side's forced self-capture).
fn has_win(g: &Game) -> bool {
    let mut ids = Vec::new();
    g.legal_actions(&mut ids);
    let mut pri = Vec::new();
    g.action_priors(&ids, &mut pri);
    if pri.contains(&f32::INFINITY) {
        return true;
    }
    let me = g.to_move().expect("the game goes on");
    ids.iter().any(|&a| {
        let mut h = g.clone();
        h.apply_action(a);
        h.result() == Some(&Outcome::Winner(me))
    })
}

/// The turns that win at once.
fn wins(g: &Game) -> Vec<String> {
    let me = g.to_move().expect("the game goes on");
    let mut ids = Vec::new();
    g.legal_actions(&mut ids);
    ids.iter()
        .filter(|&&a| {
            let mut h = g.clone();
            h.apply_action(a);
            h.result() == Some(&Outcome::Winner(me))
        })
        .map(|&a| g.action_text(a))
        .collect()
}

/// The turns after which every reply either loses the game at once or leaves a win at once (none win
/// at once themselves here).
fn forcing(g: &Game) -> Vec<String> {
    let me = g.to_move().expect("the game goes on");
    let mut ids = Vec::new();
    g.legal_actions(&mut ids);
    let mut out = Vec::new();
    let mut replies = Vec::new();
    for &a in &ids {
        let mut h = g.clone();
        h.apply_action(a);
        if h.phase() != Phase::Movement {
            continue;
        }
        h.legal_actions(&mut replies);
        let all = replies.iter().all(|&r| {
            let mut x = h.clone();
            x.apply_action(r);
            match x.result() {
                // A reply that ends the game (its own last pawns lost) must end it our way.
                Some(o) => *o == Outcome::Winner(me),
                None => x.phase() == Phase::Movement && has_win(&x),
            }
        });
        if all {
            out.push(g.action_text(a));
        }
    }
    out
}

/// The game's JSON on one line.
fn one_line(g: &Game) -> String {
    let v: serde_json::Value = serde_json::from_str(&g.to_json()).expect("the engine writes JSON");
    v.to_string()
}

fn step(g: &mut Game, k: &mut u64) {
    let mut ids = Vec::new();
    g.legal_actions(&mut ids);
    *k = k
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    // Played by its text, so that the move list (which the JSON keeps and replays) has it.
    let text = g.action_text(ids[(*k >> 33) as usize % ids.len()]);
    GameState::play(g, &text).expect("a listed action is legal");
}

fn main() {
    let (mut ones, mut twos) = (0, 0);
    for seed in 0..5000u64 {
        if ones < 5 {
            let mut g = pbem::games::limit::new_game(Config::default(), 2, seed).unwrap();
            let mut k = seed;
            while g.phase() == Phase::Movement {
                if has_win(&g) {
                    let w = wins(&g);
                    if w.len() * 4 < g.legal().len() {
                        println!("win1\t{}\t{}", w.join(" "), one_line(&g));
                        ones += 1;
                    }
                    break;
                }
                step(&mut g, &mut k);
            }
        }
        if twos < 5 {
            let mut g = pbem::games::limit::new_game(Config::default(), 2, seed).unwrap();
            let mut k = seed ^ 0x5555;
            let mut tried = 0;
            while g.phase() == Phase::Movement {
                let total: u32 = (0..2).map(|s| g.board().m.pawns[s].count_ones()).sum();
                if total <= 8 && tried < 4 && !has_win(&g) {
                    tried += 1;
                    let f = forcing(&g);
                    if !f.is_empty() && f.len() * 4 < g.legal().len() {
                        println!("win2\t{}\t{}", f.join(" "), one_line(&g));
                        twos += 1;
                        break;
                    }
                }
                step(&mut g, &mut k);
            }
        }
        if ones == 5 && twos == 5 {
            break;
        }
    }
    eprintln!("{ones} wins in one, {twos} wins in two");
}

//! The commands that play many games: `playout` (random games) and `match` (two players against each
//! other), with their tallies and the figures printed from them.

use std::io::Write;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

use super::Failure;
use super::args::{Setup, player_name};
use super::seat_name;
use crate::games::{GameRules, Outcome, Robot, Status};

/// Results of random games.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Tally {
    /// Games played.
    pub(super) games: u64,
    /// Wins per seat, with the seats' names.
    pub(super) wins: Vec<(String, u64)>,
    /// Games drawn.
    pub(super) draws: u64,
    /// Games whose playout stopped with no legal move although the game was not over (an engine bug).
    pub(super) unfinished: u64,
    /// Moves chosen by the random players, over all games.
    pub(super) played: u64,
    /// Entries of the move lists at the end, `(Auto)` ones included, over all games.
    pub(super) entries: u64,
}

/// Plays `games` random games to the end: game `i` is set up with seed `seed + i`, and one ChaCha8 stream
/// seeded with `seed` picks every move of every game.
pub(super) fn playouts(game: &dyn GameRules, setup: &Setup, games: u64) -> Result<Tally, Failure> {
    let seed = setup.seed.unwrap_or(0);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pick = |n: usize| ((u128::from(rng.next_u64()) * n as u128) >> 64) as usize;
    let mut tally = Tally {
        games,
        ..Tally::default()
    };
    for i in 0..games {
        let mut state = game
            .new_game(&setup.options, setup.players, seed.wrapping_add(i))
            .map_err(|e| Failure::Refused(e.to_string()))?;
        if tally.wins.is_empty() {
            tally.wins = (0..state.seat_names().len())
                .map(|s| (seat_name(state.as_ref(), s), 0))
                .collect();
        }
        tally.played += u64::from(state.random_playout(&mut pick));
        tally.entries += u64::from(state.move_number().saturating_sub(1));
        match state.status() {
            Status::Over(Outcome::Winner(s)) => {
                if let Some(w) = tally.wins.get_mut(s) {
                    w.1 += 1;
                }
            }
            Status::Over(Outcome::Draw(_)) => tally.draws += 1,
            Status::ToMove(_) => tally.unfinished += 1,
        }
    }
    Ok(tally)
}

/// A seed for one move of a match, from the game's seed, the move number and the seat, so that every
/// game of a match is fixed by its own seed whichever run it is played in.
fn move_seed(game_seed: u64, move_number: u32, seat: usize) -> u64 {
    let mut x = game_seed
        ^ u64::from(move_number).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ (seat as u64).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Results of a match, from A's side.
#[derive(Debug, Default, PartialEq)]
pub(super) struct MatchTally {
    games: u64,
    wins: u64,
    losses: u64,
    draws: u64,
    /// Milliseconds each of A's and B's moves took.
    a_ms: Vec<f64>,
    b_ms: Vec<f64>,
}

/// Games longer than this are a bug in the game (Limit ends in well under a hundred moves).
const MATCH_MOVE_CAP: u32 = 10_000;

/// Plays a match of `games` games between A and B; writes one line per game as it ends (and, with
/// `show_moves`, a line of its moves before it).
pub(super) fn play_match(
    game: &dyn GameRules,
    setup: &Setup,
    (a, b): (Robot, Robot),
    games: u64,
    (show_moves, clock): (bool, fn() -> std::time::Duration),
    out: &mut dyn Write,
) -> Result<MatchTally, Failure> {
    let seed = setup.seed.unwrap_or(0);
    let mut tally = MatchTally::default();
    for i in 0..games {
        let game_seed = seed.wrapping_add(i);
        let mut state = game
            .new_game(&setup.options, setup.players, game_seed)
            .map_err(|e| Failure::Refused(e.to_string()))?;
        let seats = state.seat_names().len().max(1);
        let a_seat = (game_seed % seats as u64) as usize;
        let (mut a_ms, mut b_ms) = (Vec::new(), Vec::new());
        let mut played = Vec::new();
        let outcome = loop {
            let seat = match state.status() {
                Status::Over(o) => break o,
                Status::ToMove(s) => s,
            };
            let now = state.move_number();
            if now > MATCH_MOVE_CAP {
                return Err(Failure::Refused(format!(
                    "game {game_seed} did not end within {MATCH_MOVE_CAP} moves"
                )));
            }
            let player = if seat == a_seat { a } else { b };
            let start = clock();
            let Some(mv) = state.robot_move(player, move_seed(game_seed, now, seat)) else {
                return Err(Failure::Refused(format!(
                    "{} has no {} player",
                    game.title(),
                    player_name(player)
                )));
            };
            let ms = clock().saturating_sub(start).as_secs_f64() * 1000.0;
            if seat == a_seat {
                a_ms.push(ms);
            } else {
                b_ms.push(ms);
            }
            state.play(&mv).map_err(|e| {
                Failure::Refused(format!(
                    "game {game_seed}, move {now}: {} chose {mv:?}, which the rules refuse: {e}",
                    player_name(player)
                ))
            })?;
            if show_moves {
                played.push(mv);
            }
        };
        if show_moves {
            writeln!(out, "game {game_seed} moves {}", played.join(" "))?;
        }
        let result = match outcome {
            Outcome::Winner(s) if s == a_seat => {
                tally.wins += 1;
                "win"
            }
            Outcome::Draw(v) if v.contains(&a_seat) => {
                tally.draws += 1;
                "draw"
            }
            _ => {
                tally.losses += 1;
                "loss"
            }
        };
        tally.games += 1;
        // `-` for a player who made no move keeps the line's fields in place for scripts.
        let list = |v: &[f64]| {
            if v.is_empty() {
                return "-".to_string();
            }
            v.iter()
                .map(|t| format!("{t:.1}"))
                .collect::<Vec<_>>()
                .join(",")
        };
        writeln!(
            out,
            "game {game_seed} a {} {result} moves {} a-ms {} b-ms {}",
            seat_name(state.as_ref(), a_seat),
            state.move_number() - 1,
            list(&a_ms),
            list(&b_ms)
        )?;
        tally.a_ms.extend(a_ms);
        tally.b_ms.extend(b_ms);
    }
    Ok(tally)
}

/// The 95% Wilson score interval of a proportion `p` observed over `n` trials.
pub(super) fn wilson(p: f64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_964;
    let n = n as f64;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The median of some figures (0 for none).
pub(super) fn median(v: &[f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let k = s.len() / 2;
    if s.len() % 2 == 1 {
        s[k]
    } else {
        (s[k - 1] + s[k]) / 2.0
    }
}

/// Prints the summary of `match`, one `key value` line each.
pub(super) fn write_match(
    out: &mut dyn Write,
    (a, b): (Robot, Robot),
    t: &MatchTally,
) -> std::io::Result<()> {
    let score = if t.games == 0 {
        0.0
    } else {
        (t.wins as f64 + t.draws as f64 / 2.0) / t.games as f64
    };
    let (lo, hi) = wilson(score, t.games);
    writeln!(out, "games {}", t.games)?;
    writeln!(out, "a {}", player_name(a))?;
    writeln!(out, "b {}", player_name(b))?;
    writeln!(out, "wins {}", t.wins)?;
    writeln!(out, "losses {}", t.losses)?;
    writeln!(out, "draws {}", t.draws)?;
    writeln!(out, "score {score:.3} (wins + draws/2, per game)")?;
    writeln!(out, "interval {lo:.3} {hi:.3} (95%, Wilson)")?;
    writeln!(
        out,
        "a ms per move median {:.1} over {} moves",
        median(&t.a_ms),
        t.a_ms.len()
    )?;
    writeln!(
        out,
        "b ms per move median {:.1} over {} moves",
        median(&t.b_ms),
        t.b_ms.len()
    )?;
    writeln!(
        out,
        "largest tree {:.1} MB (of the {} MB cap)",
        crate::games::search::largest_tree_bytes() as f64 / (1 << 20) as f64,
        crate::games::search::MAX_TREE_BYTES >> 20
    )?;
    Ok(())
}

/// Prints the results of `playout`, one `key value` line each.
pub(super) fn write_tally(out: &mut dyn Write, tally: &Tally, seconds: f64) -> std::io::Result<()> {
    let per_game = |n: u64| {
        if tally.games == 0 {
            0.0
        } else {
            n as f64 / tally.games as f64
        }
    };
    writeln!(out, "games {}", tally.games)?;
    for (name, wins) in &tally.wins {
        writeln!(out, "winner {name} {wins}")?;
    }
    writeln!(out, "draw {}", tally.draws)?;
    writeln!(out, "unfinished {}", tally.unfinished)?;
    writeln!(out, "mean length {:.2} moves", per_game(tally.played))?;
    writeln!(
        out,
        "mean move list {:.2} entries (with automatic ones)",
        per_game(tally.entries)
    )?;
    let rate = if seconds > 0.0 {
        tally.games as f64 / seconds
    } else {
        0.0
    };
    writeln!(out, "games per second {rate:.0}")?;
    Ok(())
}

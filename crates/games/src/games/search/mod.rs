//! The robot of every game: Monte Carlo tree search on the [`GameState`] trait, so `robot1` to
//! `robot3` play any hosted game.
//!
//! A game with action ids (`action_space() > 0`) is searched through them; any other game through its
//! move list (`legal_moves`, `play` on copies: slow, but it plays every game). The search is UCT with
//! max-n rewards (two to four seats; a draw shares its point, a half point each between two) and:
//!
//! * an exact solver (MCTS-Solver): finished positions, a chooser's winning child, and nodes whose
//!   children are all proven carry their exact value; proven losses are never chosen;
//! * decisive and anti-decisive moves: when a position's actions are listed, each that may win at once
//!   is tried, and a win makes the node proven; positions up to two plies down are listed at their
//!   first visit, so the root takes a win in one, avoids a move that lets the opponent win at once
//!   (and so blocks a threat when only one move does), and proves wins in two own turns;
//! * RAVE where the game asks for it ([`GameState::search_rave`], by default whenever it gives ids);
//! * the game's own hooks, each optional: priors (ordering for progressive widening), groups (a turn
//!   split in two for the same player), a playout policy;
//! * tree reuse between a robot's moves in one game ([`reuse`], per thread, bounded).
//!
//! The search does no I/O; a seed and a playout budget fix its move, unless a time cap cuts it short
//! or a kept tree is reused (the server's robots and `pbem engine match` reuse; `Budget::playouts`
//! alone does not).

mod pos;
pub mod reuse;
#[cfg(test)]
mod tests;
mod tree;

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use crate::games::{GameState, Robot};
use pos::Pos;
use tree::Tree;

/// The largest tree any search of this process ended with, in bytes as counted against its cap.
static LARGEST_TREE: AtomicUsize = AtomicUsize::new(0);

/// The largest tree (bytes, as counted against [`tree::MAX_TREE_BYTES`]) any search of this process
/// has held at its end: `pbem engine match` reports it, to show how far a game's trees stay under the
/// cap (a tree only grows during a search, so its end is its largest).
pub fn largest_tree_bytes() -> usize {
    LARGEST_TREE.load(Ordering::Relaxed)
}

/// The clock a time cap is read on, when not the wall clock ([`use_cap_clock`]).
static CAP_CLOCK: OnceLock<fn() -> Duration> = OnceLock::new();

/// Makes every capped search of this process read its cap on `clock` (a time since any fixed
/// moment) instead of the wall clock; the first call wins. `pbem engine match --cpu-clock` passes
/// the thread's CPU time, so that a match on a loaded machine gives each capped move the search a
/// free core would give it in that wall time (the server keeps the wall clock).
pub fn use_cap_clock(clock: fn() -> Duration) -> bool {
    CAP_CLOCK.set(clock).is_ok()
}

/// The cap's clock now, as a time since a fixed moment.
fn cap_clock() -> Duration {
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    match CAP_CLOCK.get() {
        Some(clock) => clock(),
        None => ORIGIN.get_or_init(Instant::now).elapsed(),
    }
}

/// How often (in iterations) a capped search asks whether its choice is settled ([`think`]).
const SETTLED_EVERY: u64 = 16;

/// The cap on a search tree's memory, in bytes.
pub const MAX_TREE_BYTES: usize = tree::MAX_TREE_BYTES;

/// The most seats the search scores (games of more seats are searched as if the others shared).
pub const MAX_SEATS: usize = 4;

/// The playouts a robot level spends on a move (robot1 to robot3), unless the game says otherwise
/// ([`GameState::level_playouts`]).
pub fn level_playouts(level: u8) -> Option<u32> {
    match level {
        1 => Some(1_000),
        2 => Some(5_000),
        3 => Some(30_000),
        _ => None,
    }
}

/// How much a search may spend on one move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Playouts (iterations of the search); at least one is run.
    pub playouts: u32,
    /// A wall-clock cap as well, if any (the move then depends on the machine's speed).
    pub millis: Option<u64>,
    /// Reuse this thread's tree from the robot's previous move in the same game, and keep the tree for
    /// its next one.
    pub reuse: bool,
}

impl Budget {
    /// Playouts only, nothing reused: the move is fixed by the position, the budget and the seed.
    pub fn playouts(n: u32) -> Budget {
        Budget {
            playouts: n,
            millis: None,
            reuse: false,
        }
    }

    /// The budget of a robot level (1 to 3) in this position, reusing trees.
    pub fn level(game: &dyn GameState, level: u8) -> Option<Budget> {
        let n = game.level_playouts(level).or(level_playouts(level))?;
        Some(Budget {
            playouts: n,
            millis: None,
            reuse: true,
        })
    }

    /// This budget with a wall-clock cap.
    pub fn with_millis(self, millis: u64) -> Budget {
        Budget {
            millis: Some(millis),
            ..self
        }
    }

    /// What tells apart the trees of different robots in the reuse cache.
    fn tag(&self) -> u64 {
        u64::from(self.playouts) ^ (self.millis.unwrap_or(0) << 32)
    }
}

/// What a search found.
#[derive(Debug, Clone, PartialEq)]
pub struct Thought {
    /// The action chosen (an id, or for a game without ids the index in `legal_moves()`).
    pub action: u32,
    /// The move in the game's notation.
    pub text: String,
    /// Playouts run for this move.
    pub playouts: u32,
    /// Visits the root already had from a reused tree.
    pub reused: u32,
    /// Nodes in the tree at the end (children not yet visited counted as nodes).
    pub nodes: usize,
    /// The memory the tree held at the end, as counted against its cap (bytes).
    pub bytes: usize,
    /// The chosen move's mean reward for the player to move, 0 to 1 (exact when proven).
    pub value: f32,
    /// The chosen move's exact value for the player to move when the solver proved it: 1 a win, 0 a
    /// loss, a half a draw between two.
    pub proven: Option<f32>,
}

/// The move `robot` plays in `game`, in the game's notation; `None` once the game is over.
/// [`Robot::Random`] is a random legal move and [`Robot::Greedy`] a win at once if there is one, else
/// a random move; the others search.
pub fn robot_move(game: Box<dyn GameState>, robot: Robot, seed: u64) -> Option<String> {
    let budget = match robot {
        Robot::Random | Robot::Greedy => return one_ply(game.as_ref(), robot, seed),
        Robot::Level(n) => Budget::level(game.as_ref(), n)?,
        Robot::Playouts(n) => Budget::playouts(n),
        Robot::Within { level, millis } => Budget::level(game.as_ref(), level)?.with_millis(millis),
    };
    think(game.as_ref(), budget, seed).map(|t| t.text)
}

/// A random move, or for [`Robot::Greedy`] a win at once when there is one.
fn one_ply(game: &dyn GameState, robot: Robot, seed: u64) -> Option<String> {
    let me = pos::to_move(game)?;
    let p = Pos::new(game);
    let mut acts = Vec::new();
    p.actions(game, &mut acts);
    if acts.is_empty() {
        return None;
    }
    if robot == Robot::Greedy {
        for &a in &acts {
            let mut h = game.search_copy();
            p.apply(h.as_mut(), a);
            if pos::rewards(&h.status()).is_some_and(|r| r[me] >= 1.0) {
                return Some(p.text(game, a));
            }
        }
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    Some(p.text(game, acts[pos::below(&mut rng, acts.len())]))
}

/// Searches `game` for the player to move; `None` once the game is over.
pub fn think(game: &dyn GameState, budget: Budget, seed: u64) -> Option<Thought> {
    // The cap counts from here: following a reused tree down the moves since is part of the move.
    let start = cap_clock();
    let me = pos::to_move(game)?;
    let root = game.search_copy();
    let p = Pos::new(root.as_ref());
    if me >= MAX_SEATS {
        return None;
    }
    let mut acts = Vec::new();
    p.actions(root.as_ref(), &mut acts);
    match acts.len() {
        0 => return None,
        1 => {
            return Some(Thought {
                action: acts[0],
                text: p.text(root.as_ref(), acts[0]),
                playouts: 0,
                reused: 0,
                nodes: 0,
                bytes: 0,
                value: 0.5,
                proven: None,
            });
        }
        _ => {}
    }
    let key = if budget.reuse {
        reuse::key(game, budget.tag() ^ ((me as u64) << 60))
    } else {
        None
    };
    let mut tree = key
        .and_then(|k| reuse::take(game, k))
        .unwrap_or_else(|| Tree::new(root.as_ref(), p, me));
    let reused = tree.nodes[0].real_visits();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let cap = budget.millis.map(Duration::from_millis);
    // Iterations that end at a proven node cost next to nothing: only playouts count against the
    // budget, but all iterations together stop at a few times the budget.
    let (mut done, mut spins) = (0u32, 0u64);
    let most = 4 * u64::from(budget.playouts.max(1));
    // With a cap, the clock is read after every iteration (a few tens of nanoseconds against
    // microseconds to milliseconds an iteration), and the search stops when the slowest iteration so
    // far would no longer fit: reading it every 8 iterations let robot3 overrun its 2 s by up to 440 ms
    // on a loaded machine in the games searched through their move lists, whose iterations are slow.
    let (mut last, mut slowest) = (start, Duration::ZERO);
    let begun = cap_clock();
    while done < budget.playouts.max(1) && spins < most && tree.root_proven().is_none() {
        if tree.iterate(root.as_ref(), &mut rng) {
            done += 1;
        }
        spins += 1;
        if let Some(cap) = cap {
            let now = cap_clock();
            slowest = slowest.max(now.saturating_sub(last));
            last = now;
            if now.saturating_sub(start) + slowest >= cap {
                break;
            }
            // Stop early when the move can no longer change: the most visited child leads by more
            // visits than the iterations left, those the budget leaves or, at this search's mean
            // speed, the time does (an estimate). Only under a cap, where the move already depends
            // on the machine: an uncapped search stays fixed by its budget and seed. It gives up
            // only the visits that would have deepened the tree kept for the next move.
            if spins % SETTLED_EVERY == 0 {
                let spent = now.saturating_sub(begun).as_secs_f64();
                let left = cap.saturating_sub(now.saturating_sub(start)).as_secs_f64();
                let by_time = (left * spins as f64 / spent.max(1e-9)) as u64;
                let by_budget = u64::from(budget.playouts.max(1) - done).min(most - spins);
                if tree.settled(by_time.min(by_budget)) {
                    break;
                }
            }
        }
    }
    let (action, node) = tree.choice();
    let (value, proven) = match node {
        Some(n) => {
            let n = &tree.nodes[n];
            // The solver's values carry the contempt for draws; report the draw's own share.
            let proven = n.proven.map(|r| match r[me] {
                x if x > 0.0 && x < 1.0 => x / (1.0 - tree.contempt),
                x => x,
            });
            (proven.unwrap_or(n.total / n.visits.max(1) as f32), proven)
        }
        None => (0.0, None),
    };
    LARGEST_TREE.fetch_max(tree.bytes(), Ordering::Relaxed);
    let thought = Thought {
        action,
        text: p.text(root.as_ref(), action),
        playouts: done,
        reused,
        nodes: tree.node_count(),
        bytes: tree.bytes(),
        value,
        proven,
    };
    if let Some(k) = key {
        reuse::put(game, k, tree);
    }
    Some(thought)
}

/// For tactics tests: the move `robot` makes (seed `seed`, no reused tree) in the game `json` of
/// `rules`, if it is one of `allowed`; otherwise an error naming the position, the robot, its move
/// and the moves allowed.
pub fn expect_move(
    rules: &dyn crate::games::GameRules,
    json: &str,
    robot: Robot,
    seed: u64,
    allowed: &[&str],
) -> Result<String, String> {
    let game = rules
        .load(json)
        .map_err(|e| format!("the position does not load: {e}"))?;
    reuse::forget();
    let mv = robot_move(game, robot, seed);
    reuse::forget();
    match mv {
        Some(m) if allowed.contains(&m.as_str()) => Ok(m),
        other => Err(format!(
            "{robot:?} (seed {seed}) played {other:?} in {json}; expected one of {allowed:?}"
        )),
    }
}

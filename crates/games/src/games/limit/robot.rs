//! A computer player for Limit: Monte Carlo tree search (UCT) over the game's own fast types.
//!
//! A movement turn is a pawn move and a tile removal, several hundred combinations on a default board, so
//! the tree splits each turn in two: a node first chooses the pawn move (from, to), a child of it then
//! chooses the removal, both for the same player. Nodes grow their children one at a time (progressive
//! widening: at most `WIDEN * visits^ALPHA` children), best prior first, so a search of a few thousand
//! playouts looks at the promising turns instead of spreading thin over all of them. The prior of a turn is
//! what it captures and loses at once and how many pawns it leaves with one or two freedoms.
//!
//! Playouts are cheap but not blind: a player takes a capture when a group of another colour has one or two
//! freedoms and the capture is legal, and otherwise draws turns at random, throwing back those that capture
//! their own pawns. Each node keeps the rewards of the player who chose it (max-n), so two and three players
//! are searched alike; a draw shares its point between the players in it.
//!
//! Everything random comes from one ChaCha8 stream seeded by the caller, so a seed and a playout budget give
//! the same move every time. The module does no I/O.

use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

use super::board::{Act, Board, Masks, bit, bits};
use super::game::{Phase, Position};
use super::notation::Move;
use super::options::Mode;
use crate::games::Outcome;

/// The strengths the server's robot accounts play at (robot1, robot2, robot3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// `robot1`: a quick player that still never throws pawns away.
    Robot1,
    /// `robot2`.
    Robot2,
    /// `robot3`: the strongest; about half a second a move in the median on a default board (docs/robot.md).
    Robot3,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 3] = [Level::Robot1, Level::Robot2, Level::Robot3];

    /// The playouts a movement turn gets at this level (figures in `docs/robot.md`).
    pub fn playouts(self) -> u32 {
        match self {
            Level::Robot1 => 1_000,
            Level::Robot2 => 5_000,
            Level::Robot3 => 30_000,
        }
    }

    /// The playouts a placement (`-manual`, `-classic`) gets at this level. Fewer: a playout from the
    /// placement phase lists every legal placement at each of its turns, which costs the engine ten to
    /// forty times a movement playout, and a placement decides less than a capture does.
    pub fn placement_playouts(self) -> u32 {
        match self {
            Level::Robot1 => 100,
            Level::Robot2 => 250,
            Level::Robot3 => 500,
        }
    }

    /// The level numbered 1 to 3.
    pub fn from_number(n: u8) -> Option<Level> {
        Level::ALL.get(usize::from(n).checked_sub(1)?).copied()
    }
}

/// How much a search may spend on one move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Playouts (one per iteration of the search) for a movement turn. At least one is always run.
    pub playouts: u32,
    /// Playouts for a placement (`-manual`, `-classic` placement phases).
    pub placement_playouts: u32,
    /// A wall-clock cap as well, if any. With a cap the move depends on the machine's speed, so it is no
    /// longer fixed by the seed alone.
    pub millis: Option<u64>,
}

impl Budget {
    /// A budget of playouts only: the move is fixed by the position, the budget and the seed.
    pub fn playouts(n: u32) -> Budget {
        Budget {
            playouts: n,
            placement_playouts: n,
            millis: None,
        }
    }

    /// This budget with a wall-clock cap as well (see [`Budget::millis`]): for a server that must answer
    /// within a time on a busy machine, `Budget::from(Level::Robot3).with_millis(2000)`.
    pub fn with_millis(self, millis: u64) -> Budget {
        Budget {
            millis: Some(millis),
            ..self
        }
    }
}

impl From<Level> for Budget {
    fn from(l: Level) -> Budget {
        Budget {
            playouts: l.playouts(),
            placement_playouts: l.placement_playouts(),
            millis: None,
        }
    }
}

/// What a search found, for tools that want more than the move.
#[derive(Debug, Clone, PartialEq)]
pub struct Thought {
    /// The move chosen.
    pub mv: Move,
    /// Playouts run.
    pub playouts: u32,
    /// Nodes in the tree at the end.
    pub nodes: usize,
    /// The chosen turn's mean reward for the player to move, 0 to 1 (a rough chance of winning).
    pub value: f32,
}

/// The robot's move for the player to move, or `None` once the game is over.
///
/// This is the one call a robot account needs: `best_move(&game, Level::Robot2, seed)`.
pub fn best_move(game: &Position, budget: impl Into<Budget>, seed: u64) -> Option<Move> {
    think(game, budget.into(), seed).map(|t| t.mv)
}

/// [`best_move`] with the search's figures.
pub fn think(game: &Position, budget: Budget, seed: u64) -> Option<Thought> {
    let me = game.to_move()?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let root = game.clone();
    if root.phase() == Phase::Movement {
        let acts = root.legal_acts();
        if acts.len() == 1 {
            return Some(lone(root.act_move(acts[0])));
        }
        if let Some(a) = winning_act(&root, &acts, me) {
            return Some(lone(root.act_move(a)));
        }
    } else {
        let moves = root.legal();
        if moves.len() == 1 {
            return Some(lone(moves[0]));
        }
    }
    Some(search(&root, budget, &mut rng))
}

/// The tree search alone, without the shortcuts of [`think`]; `root` must not be over.
fn search(root: &Position, budget: Budget, rng: &mut ChaCha8Rng) -> Thought {
    let mut tree = Tree::new(root);
    let start = Instant::now();
    let cap = budget.millis.map(Duration::from_millis);
    let mut done = 0;
    let playouts = if root.phase() == Phase::Movement {
        budget.playouts
    } else {
        budget.placement_playouts
    };
    while done < playouts.max(1) {
        tree.iterate(root, rng);
        done += 1;
        if let Some(cap) = cap
            && done % 32 == 0
            && start.elapsed() >= cap
        {
            break;
        }
    }
    let (mv, value) = tree.choice(root);
    Thought {
        mv,
        playouts: done,
        nodes: tree.nodes.len(),
        value,
    }
}

/// A move found without a search (the only one, or a win at once).
fn lone(mv: Move) -> Thought {
    Thought {
        mv,
        playouts: 0,
        nodes: 0,
        value: 0.5,
    }
}

/// A turn among `acts` that wins the game at once for `me`, if there is one. Only turns that capture
/// can end a game, so only those are tried.
fn winning_act(g: &Position, acts: &[Act], me: usize) -> Option<Act> {
    let c = g.config();
    let rs = g.restricted();
    acts.iter().copied().find(|&a| {
        let Ok((_, cap)) = g.board.try_act(me, a, c.free_edges, c.can_isolate, rs) else {
            return false;
        };
        if !cap {
            return false;
        }
        let mut h = g.clone();
        h.commit_act(a);
        h.result() == Some(&Outcome::Winner(me))
    })
}

/// A random legal move for the player to move (the `random` opponent of `pbem engine limit match`).
pub fn random_move(game: &Position, seed: u64) -> Option<Move> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let moves = game.legal();
    (!moves.is_empty()).then(|| moves[below(&mut rng, moves.len())])
}

/// The `greedy` opponent: one ply. In the movement phase it plays the turn that captures the most pawns
/// of other colours net of its own pawns lost on the same turn, ties drawn at random; so it takes a
/// capture when there is one, and otherwise never captures its own pawns when it can help it. In a
/// placement phase it plays a random legal placement.
pub fn greedy_move(game: &Position, seed: u64) -> Option<Move> {
    let me = game.to_move()?;
    if game.phase() != Phase::Movement {
        return random_move(game, seed);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let c = game.config();
    let rs = game.restricted();
    let m0 = game.board.m;
    let mut best = i32::MIN;
    let mut ties: Vec<Act> = Vec::new();
    for a in game.legal_acts() {
        let Ok((m, _)) = game.board.try_act(me, a, c.free_edges, c.can_isolate, rs) else {
            continue;
        };
        let gain = net_gain(&m0, &m, me);
        if gain > best {
            best = gain;
            ties.clear();
        }
        if gain == best {
            ties.push(a);
        }
    }
    (!ties.is_empty()).then(|| game.act_move(ties[below(&mut rng, ties.len())]))
}

/// A uniform index below `n`.
pub(super) fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    ((u128::from(rng.next_u64()) * n as u128) >> 64) as usize
}

/// Pawns of other colours captured minus own pawns lost between `before` and `after`.
pub(super) fn net_gain(before: &Masks, after: &Masks, me: usize) -> i32 {
    let mut gain = 0;
    for s in 0..3 {
        let lost = before.pawns[s].count_ones() as i32 - after.pawns[s].count_ones() as i32;
        gain += if s == me { -lost } else { lost };
    }
    gain
}

// ---- the tree ------------------------------------------------------------------------------------

/// Progressive widening: a node may have `WIDEN * visits^ALPHA` children (at least one).
const WIDEN: f32 = 2.0;
const ALPHA: f32 = 0.5;
/// Visits a position's node needs before its turns are listed and scored (the root's at once). Listing
/// them costs several playouts, so positions seen once or twice are only played out from.
const EXPAND_AT: u32 = 4;
/// The UCB1 exploration constant for rewards in [0, 1].
const EXPLORE: f32 = 0.7;
/// Turns a playout plays before it is scored by the pawns on the board instead (a guard: games end
/// long before on every option set).
const PLAYOUT_CAP: u32 = 400;

/// How a node was reached from its parent.
#[derive(Debug, Clone, Copy)]
enum Edge {
    /// The root.
    Root,
    /// The first half of a movement turn: the pawn move (`NONE`, `NONE` for a removal alone). The node's
    /// children choose the removal; the board is unchanged until they do.
    Step,
    /// A whole movement turn.
    Act(Act),
    /// A placement.
    Place(Move),
}

/// A choice not yet made a child.
#[derive(Debug, Clone)]
enum Pending {
    /// A pawn move with the turns that start with it, best prior last.
    Group(Vec<Act>),
    /// A whole turn.
    Act(Act),
    /// A placement.
    Place(Move),
}

struct Node {
    edge: Edge,
    /// The seat whose choice this node is; its rewards are counted for that seat.
    mover: u8,
    visits: u32,
    total: f32,
    children: Vec<u32>,
    /// Choices still to become children, best prior last; `None` until the node is first expanded.
    untried: Option<Vec<Pending>>,
    /// The rewards of a finished game at this node.
    terminal: Option<[f32; 3]>,
}

impl Node {
    fn new(edge: Edge, mover: usize) -> Node {
        Node {
            edge,
            mover: mover as u8,
            visits: 0,
            total: 0.0,
            children: Vec::new(),
            untried: None,
            terminal: None,
        }
    }
}

struct Tree {
    nodes: Vec<Node>,
    path: Vec<u32>,
}

impl Tree {
    fn new(root: &Position) -> Tree {
        Tree {
            nodes: vec![Node::new(Edge::Root, root.to_move)],
            path: Vec::with_capacity(64),
        }
    }

    /// One iteration: select down the tree, add one node, play out from it, back the result up.
    fn iterate(&mut self, root: &Position, rng: &mut ChaCha8Rng) {
        let mut g = root.clone();
        self.path.clear();
        self.path.push(0);
        let mut at = 0usize;
        let rewards = loop {
            if let Some(r) = self.nodes[at].terminal {
                break r;
            }
            if self.nodes[at].untried.is_none() {
                if at != 0 && self.nodes[at].visits < EXPAND_AT {
                    // Too few visits to be worth listing and scoring its turns: play out from here.
                    break playout(&mut g, rng);
                }
                let list = choices(&g, rng);
                self.nodes[at].untried = Some(list);
            }
            let node = &self.nodes[at];
            let allowed = (WIDEN * (node.visits as f32).powf(ALPHA)).max(1.0) as usize;
            let can_grow = node.untried.as_ref().is_some_and(|u| !u.is_empty());
            if can_grow && (node.children.len() < allowed || node.children.is_empty()) {
                let pending = self.nodes[at]
                    .untried
                    .as_mut()
                    .and_then(Vec::pop)
                    .expect("checked above");
                let me = g.to_move;
                let child = match pending {
                    Pending::Group(acts) => {
                        let mut n = Node::new(Edge::Step, me);
                        n.untried = Some(acts.into_iter().map(Pending::Act).collect());
                        n
                    }
                    Pending::Act(a) => {
                        g.commit_act(a);
                        Node::new(Edge::Act(a), me)
                    }
                    Pending::Place(m) => {
                        g.play_move(&m).expect("a listed placement is legal");
                        Node::new(Edge::Place(m), me)
                    }
                };
                let id = self.nodes.len() as u32;
                let is_step = matches!(child.edge, Edge::Step);
                self.nodes.push(child);
                self.nodes[at].children.push(id);
                self.path.push(id);
                at = id as usize;
                if is_step {
                    // Half a turn: choose its removal before playing out.
                    continue;
                }
                if let Some(o) = g.result() {
                    let r = outcome_rewards(o);
                    self.nodes[at].terminal = Some(r);
                    break r;
                }
                break playout(&mut g, rng);
            }
            if node.children.is_empty() {
                // No choice at all: cannot happen for a game that is not over, but score it as it stands.
                break material(&g);
            }
            let ln = (node.visits.max(1) as f32).ln();
            let mut best = f32::MIN;
            let mut pick = node.children[0];
            for &c in &node.children {
                let ch = &self.nodes[c as usize];
                let score = if ch.visits == 0 {
                    f32::MAX
                } else {
                    ch.total / ch.visits as f32 + EXPLORE * (ln / ch.visits as f32).sqrt()
                };
                if score > best {
                    best = score;
                    pick = c;
                }
            }
            match self.nodes[pick as usize].edge {
                Edge::Act(a) => g.commit_act(a),
                Edge::Place(m) => g.play_move(&m).expect("a listed placement is legal"),
                Edge::Step | Edge::Root => {}
            }
            self.path.push(pick);
            at = pick as usize;
        };
        for &n in &self.path {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            node.total += rewards[node.mover as usize];
        }
    }

    /// The most visited child of `at`.
    fn most_visited(&self, at: usize) -> Option<usize> {
        self.nodes[at]
            .children
            .iter()
            .map(|&c| c as usize)
            .max_by_key(|&c| self.nodes[c].visits)
    }

    /// The move the search settles on and its mean reward.
    fn choice(&self, root: &Position) -> (Move, f32) {
        let mut at = self
            .most_visited(0)
            .expect("the search made at least one child");
        if matches!(self.nodes[at].edge, Edge::Step) {
            at = self
                .most_visited(at)
                .expect("a pawn move node has a removal child");
        }
        let n = &self.nodes[at];
        let value = n.total / n.visits.max(1) as f32;
        let mv = match n.edge {
            Edge::Act(a) => root.act_move(a),
            Edge::Place(m) => m,
            Edge::Step | Edge::Root => unreachable!("a chosen node is a whole move"),
        };
        (mv, value)
    }
}

/// The rewards of a finished game: 1 to the winner, a draw's point shared by the players in it.
fn outcome_rewards(o: &Outcome) -> [f32; 3] {
    let mut r = [0.0; 3];
    match o {
        Outcome::Winner(s) => r[*s] = 1.0,
        Outcome::Draw(v) => {
            for &s in v {
                r[s] = 1.0 / v.len() as f32;
            }
        }
    }
    r
}

/// The rewards of a game cut short: each player's share of the pawns on the board.
fn material(g: &Position) -> [f32; 3] {
    let p = g.board.m.pawns;
    let total: u32 = p.iter().map(|x| x.count_ones()).sum();
    if total == 0 {
        return [1.0 / g.players() as f32; 3];
    }
    std::array::from_fn(|s| p[s].count_ones() as f32 / total as f32)
}

/// The choices of a node's position, best prior last (the order they become children in).
fn choices(g: &Position, rng: &mut ChaCha8Rng) -> Vec<Pending> {
    if g.phase() != Phase::Movement {
        let mut moves = g.legal();
        shuffle(&mut moves, rng);
        return moves.into_iter().map(Pending::Place).collect();
    }
    let me = g.to_move;
    let c = g.config();
    let rs = g.restricted();
    let b = &g.board;
    // Each turn with its prior; a random fraction breaks ties without favouring the enumeration order.
    let mut scored: Vec<(f32, Act)> = g
        .legal_acts()
        .into_iter()
        .map(|a| {
            let p = match b.try_act(me, a, c.free_edges, c.can_isolate, rs) {
                Ok((m, _)) => prior(b, &b.m, &m, me),
                Err(_) => f32::MIN,
            };
            (p + rng_unit(rng) * 0.5, a)
        })
        .collect();
    scored.sort_by(|x, y| x.0.total_cmp(&y.0));
    // Group by pawn move; a group's rank is its best turn's, and the groups keep the sorted order of
    // their best turns (the best last).
    let mut groups: Vec<((u8, u8), Vec<Act>)> = Vec::new();
    for &(_, a) in scored.iter().rev() {
        let key = (a.from, a.to);
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => v.push(a),
            None => groups.push((key, vec![a])),
        }
    }
    groups
        .into_iter()
        .rev()
        .map(|(_, mut acts)| {
            if acts.len() == 1 {
                Pending::Act(acts[0])
            } else {
                acts.reverse();
                Pending::Group(acts)
            }
        })
        .collect()
}

fn rng_unit(rng: &mut ChaCha8Rng) -> f32 {
    (rng.next_u32() >> 8) as f32 / (1u32 << 24) as f32
}

fn shuffle<T>(v: &mut [T], rng: &mut ChaCha8Rng) {
    for i in (1..v.len()).rev() {
        let j = below(rng, i + 1);
        v.swap(i, j);
    }
}

/// Pawns of `pawns` in groups with exactly one and exactly two freedoms.
fn short_of_freedoms(b: &Board, pawns: u64, empty: u64) -> (u32, u32) {
    let (mut one, mut two) = (0, 0);
    let mut left = pawns;
    while left != 0 {
        let group = b.flood(pawns, left & left.wrapping_neg());
        left &= !group;
        match (b.expand(group) & empty).count_ones() {
            1 => one += group.count_ones(),
            2 => two += group.count_ones(),
            _ => {}
        }
    }
    (one, two)
}

/// How promising a turn looks before any search: pawns won and lost at once weigh most, then own pawns
/// left with one or two freedoms (the opponents' next turn may take them) against other colours' pawns
/// left short of freedoms.
pub(super) fn prior(b: &Board, before: &Masks, after: &Masks, me: usize) -> f32 {
    let empty = after.empty();
    let (own1, own2) = short_of_freedoms(b, after.pawns[me], empty);
    let (mut their1, mut their2) = (0, 0);
    for s in 0..3 {
        if s != me && after.pawns[s] != 0 {
            let (o, t) = short_of_freedoms(b, after.pawns[s], empty);
            their1 += o;
            their2 += t;
        }
    }
    10.0 * net_gain(before, after, me) as f32 - 3.0 * own1 as f32 - own2 as f32
        + 1.0 * their1 as f32
        + 0.5 * their2 as f32
}

// ---- playouts ------------------------------------------------------------------------------------

/// Plays `g` to the end with the playout policy and returns the rewards.
fn playout(g: &mut Position, rng: &mut ChaCha8Rng) -> [f32; 3] {
    playout_counted(g, rng).0
}

/// [`playout`], with the number of moves played.
fn playout_counted(g: &mut Position, rng: &mut ChaCha8Rng) -> ([f32; 3], u32) {
    playout_recording(g, rng, None)
}

/// [`playout`], with the number of moves played; each move's seat and action id go onto `record` when
/// given (the generic search's RAVE asks for them).
pub(crate) fn playout_recording(
    g: &mut Position,
    rng: &mut ChaCha8Rng,
    mut record: Option<&mut Vec<(usize, u32)>>,
) -> ([f32; 3], u32) {
    let mut scratch = Scratch::default();
    let mut played = 0;
    while played < PLAYOUT_CAP {
        let me = g.to_move;
        match g.phase() {
            Phase::Over => break,
            Phase::Movement => {
                let a = policy_act(g, rng, &mut scratch);
                if let Some(r) = record.as_deref_mut() {
                    r.push((me, super::actions::act_id(a)));
                }
                g.commit_act(a);
            }
            _ => {
                let moves = g.legal();
                let m = moves[below(rng, moves.len())];
                if let (Some(r), Some(id)) =
                    (record.as_deref_mut(), super::actions::placement_id(&m))
                {
                    r.push((me, id));
                }
                g.play_move(&m).expect("a listed placement is legal");
            }
        }
        played += 1;
    }
    let r = match g.result() {
        Some(o) => outcome_rewards(o),
        None => material(g),
    };
    (r, played)
}

/// Buffers a playout reuses from turn to turn.
#[derive(Default)]
struct Scratch {
    steps: Vec<(u8, u8)>,
    cand: Vec<u8>,
}

/// Random draws of a turn the playout policy makes before it settles for one that loses pawns.
pub(super) const SAFE_TRIES: u32 = 24;
/// Removals (or pawn moves) tried with each capturing half-turn.
pub(super) const CAPTURE_TRIES: u32 = 4;

/// The playout policy's turn for the player to move: the best legal capture of a group of another colour
/// that has one or two freedoms, if it wins more than it loses; otherwise a random turn that does not
/// capture the mover's own pawns, if one turns up in a few draws; otherwise any legal turn.
fn policy_act(g: &Position, rng: &mut ChaCha8Rng, sc: &mut Scratch) -> Act {
    let me = g.to_move;
    let c = g.config();
    let rs = g.restricted();
    let b = &g.board;
    let m0 = b.m;
    if c.mode == Mode::MoveOrRemove {
        return super::actions::move_or_remove_act(g, rng);
    }
    let reach = b.reach(&m0, m0.pawns[me]);
    sc.steps.clear();
    for f in bits(m0.pawns[me]) {
        for t in bits(reach[f]) {
            sc.steps.push((f as u8, t as u8));
        }
    }
    sc.cand.clear();
    let removable = b.removable(m0.tiles, c.free_edges) & (m0.empty() | m0.pawns[me]);
    sc.cand.extend(bits(removable).map(|t| t as u8));
    if sc.steps.is_empty() || sc.cand.is_empty() {
        return any_safe(g, rng);
    }
    let try_act = |a: Act| {
        b.try_act_reached(me, a, c.free_edges, c.can_isolate, rs)
            .ok()
            .map(|(m, _)| net_gain(&m0, &m, me))
    };
    let mut best: Option<(i32, Act)> = None;
    let consider = |a: Act, best: &mut Option<(i32, Act)>| {
        if let Some(gain) = try_act(a)
            && gain > 0
            && best.is_none_or(|(g, _)| gain > g)
        {
            *best = Some((gain, a));
        }
    };
    if !rs {
        let empty = m0.empty();
        for s in 0..3 {
            if s == me {
                continue;
            }
            let pawns = m0.pawns[s];
            let mut left = pawns;
            while left != 0 {
                let group = b.flood(pawns, left & left.wrapping_neg());
                left &= !group;
                let libs = b.expand(group) & empty;
                match libs.count_ones() {
                    1 => {
                        let l = libs.trailing_zeros() as usize;
                        // Fill the last freedom with a pawn, then remove anything.
                        for f in bits(m0.pawns[me]) {
                            if reach[f] & bit(l) != 0 {
                                for _ in 0..CAPTURE_TRIES {
                                    let r = sc.cand[below(rng, sc.cand.len())];
                                    let a = Act {
                                        from: f as u8,
                                        to: l as u8,
                                        remove: r,
                                    };
                                    consider(a, &mut best);
                                }
                            }
                        }
                        // Or remove it after any pawn move.
                        if removable & bit(l) != 0 {
                            for _ in 0..CAPTURE_TRIES {
                                let (f, t) = sc.steps[below(rng, sc.steps.len())];
                                let a = Act {
                                    from: f,
                                    to: t,
                                    remove: l as u8,
                                };
                                consider(a, &mut best);
                            }
                        }
                    }
                    2 => {
                        let x = libs.trailing_zeros() as usize;
                        let y = (libs & (libs - 1)).trailing_zeros() as usize;
                        for (fill, take) in [(x, y), (y, x)] {
                            if removable & bit(take) == 0 {
                                continue;
                            }
                            for f in bits(m0.pawns[me]) {
                                if reach[f] & bit(fill) != 0 {
                                    let a = Act {
                                        from: f as u8,
                                        to: fill as u8,
                                        remove: take as u8,
                                    };
                                    consider(a, &mut best);
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    if let Some((_, a)) = best {
        return a;
    }
    let mut fallback = None;
    for _ in 0..SAFE_TRIES {
        let (f, t) = sc.steps[below(rng, sc.steps.len())];
        let r = sc.cand[below(rng, sc.cand.len())];
        let a = Act {
            from: f,
            to: t,
            remove: r,
        };
        if let Some(gain) = try_act(a) {
            if gain >= 0 {
                return a;
            }
            fallback.get_or_insert(a);
        }
    }
    match fallback {
        Some(a) => a,
        None => any_safe(g, rng),
    }
}

/// A random legal turn from the full list, preferring one that does not lose pawns on the spot.
fn any_safe(g: &Position, rng: &mut ChaCha8Rng) -> Act {
    let acts = g.legal_acts();
    let me = g.to_move;
    let c = g.config();
    let rs = g.restricted();
    let m0 = g.board.m;
    for _ in 0..SAFE_TRIES.min(acts.len() as u32) {
        let a = acts[below(rng, acts.len())];
        if let Ok((m, _)) = g.board.try_act(me, a, c.free_edges, c.can_isolate, rs)
            && net_gain(&m0, &m, me) >= 0
        {
            return a;
        }
    }
    acts[below(rng, acts.len())]
}

/// Plays `g` to the end with the robot's playout policy; returns the turns played. For benchmarks of the
/// policy's speed.
pub fn policy_playout(g: &mut Position, seed: u64) -> u32 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    playout_counted(g, &mut rng).1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::limit::options::Config;

    #[test]
    fn levels_by_name_and_number() {
        assert_eq!(Level::from_number(3), Some(Level::Robot3));
        assert_eq!(Level::from_number(0), None);
        assert!(Level::Robot1.playouts() < Level::Robot2.playouts());
        assert!(Level::Robot2.playouts() < Level::Robot3.playouts());
    }

    /// The first position of a random game (seeded) where the player to move can win at once and also
    /// has turns that do not win; with the winning moves.
    fn win_in_one() -> (Position, Vec<Move>) {
        for seed in 0..400u64 {
            let mut g = Position::new(Config::default(), 2, seed).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            while g.phase() == Phase::Movement {
                let me = g.to_move;
                let acts = g.legal_acts();
                let wins: Vec<Move> = acts
                    .iter()
                    .filter(|&&a| {
                        let mut h = g.clone();
                        h.commit_act(a);
                        h.result() == Some(&Outcome::Winner(me))
                    })
                    .map(|&a| g.act_move(a))
                    .collect();
                if !wins.is_empty() && wins.len() * 4 < acts.len() {
                    return (g, wins);
                }
                g.commit_act(acts[below(&mut rng, acts.len())]);
            }
        }
        panic!("no random game reached a win in one");
    }

    #[test]
    fn takes_a_winning_capture() {
        let (g, wins) = win_in_one();
        for seed in 0..3 {
            let mv = best_move(&g, Budget::playouts(200), seed).unwrap();
            assert!(wins.contains(&mv), "{mv} does not win; {wins:?} do");
            // The tree search finds it by itself too, without the check for a win at once.
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let t = search(&g, Budget::playouts(1500), &mut rng);
            assert!(
                wins.contains(&t.mv),
                "the search chose {}; {wins:?} win",
                t.mv
            );
            assert!(t.value > 0.9, "a won position is scored {}", t.value);
        }
    }

    #[test]
    fn greedy_takes_the_biggest_capture() {
        let (g, _) = win_in_one();
        let me = g.to_move;
        let c = g.config();
        let gain = |a: Act| {
            let (m, _) = g
                .board
                .try_act(me, a, c.free_edges, c.can_isolate, g.restricted())
                .unwrap();
            net_gain(&g.board.m, &m, me)
        };
        let best = g.legal_acts().into_iter().map(gain).max().unwrap();
        assert!(best > 0, "a win in one captures");
        for seed in 0..4 {
            let mv = greedy_move(&g, seed).unwrap();
            let a = g
                .legal_acts()
                .into_iter()
                .find(|&a| g.act_move(a) == mv)
                .unwrap();
            assert_eq!(
                gain(a),
                best,
                "greedy {mv} is not among the biggest captures"
            );
        }
    }

    #[test]
    fn a_seed_fixes_the_move() {
        let mut g = Position::new(Config::default(), 3, 11).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..4 {
            let a = think(&g, Budget::playouts(300), 42).unwrap();
            let b = think(&g, Budget::playouts(300), 42).unwrap();
            assert_eq!(a, b);
            assert_eq!(a.playouts, 300);
            assert!(g.legal().contains(&a.mv));
            let acts = g.legal_acts();
            g.commit_act(acts[below(&mut rng, acts.len())]);
        }
    }

    #[test]
    fn a_finished_game_has_no_robot_move() {
        let mut g = Position::new(Config::default(), 2, 1).unwrap();
        g.leave(1).unwrap();
        assert_eq!(best_move(&g, Budget::playouts(10), 0), None);
        assert_eq!(greedy_move(&g, 0), None);
        assert_eq!(random_move(&g, 0), None);
    }
}

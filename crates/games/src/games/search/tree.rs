//! The search tree: UCT with max-n rewards, an exact solver for won, lost and drawn positions
//! (MCTS-Solver), progressive widening by the game's priors, turns split in two by the game's groups,
//! and RAVE statistics where the game asks for them.
//!
//! Each node keeps the visits and the summed reward of the seat whose choice led to it, so two, three
//! or four players are searched alike. A node is *proven* when its value is known exactly: the game is
//! over there, or its chooser has a child that wins, or every child is proven (the chooser then takes
//! the best of them). Proven losses are never chosen again and do not count against the widening, so a
//! node whose replies all lose for the chooser is proven quickly.

use std::collections::HashMap;

use rand_chacha::ChaCha8Rng;
use rand_core::Rng;

mod choice;

use super::pos::{Pos, Rewards, rewards};
use crate::games::GameState;

/// No action: the root, or a group node (half a turn).
const NO_ACTION: u32 = u32::MAX;
/// Progressive widening: a node with priors may have `WIDEN * sqrt(visits)` children (not counting
/// proven losses).
const WIDEN: f32 = 2.0;
/// Visits a node deeper than `EAGER_PLIES` needs before its actions are listed, in a game whose listing
/// is costly (one that gives priors); other games list at the second visit.
const EXPAND_AT_HEAVY: u32 = 4;
const EXPAND_AT: u32 = 1;
/// Nodes this many plies from the root or fewer are listed at their first visit, so that wins in one
/// (and so the threats a root move allows, and wins in two) are seen at once. In a game whose listing
/// is costly, only the root's children are (listing the next ply at once too cost Limit's robot3 a third
/// of its time; its wins in two are still found, by the priors and the playouts' captures).
const EAGER_PLIES: usize = 2;
const EAGER_PLIES_HEAVY: usize = 1;
/// The part of its share of a draw that the robot the search is for gives up (contempt), which the
/// others in the draw gain: the robot plays on rather than take a draw that only looks as good as
/// playing on, and does not offer one (under `limit -move_or_remove` a draw is on offer at almost every
/// turn, and a robot counting it a plain half point drew every game on move 1 or 2, even against a
/// random player).
pub(super) const CONTEMPT: f32 = 0.8;
/// How much worse (in mean reward) a move that offers no draw may look than one that does, and still be
/// preferred to it.
const DRAW_OFFER_MARGIN: f32 = 0.15;
/// The UCB1 exploration constant for rewards in [0, 1], without and with RAVE.
const EXPLORE: f32 = 0.7;
const EXPLORE_RAVE: f32 = 0.3;
/// The RAVE schedule: the weight of the all-moves-as-first mean is `sqrt(K / (3 n + K))`.
const RAVE_K: f32 = 600.0;
/// RAVE needs a mark per action and seat; games with more actions than this search without it.
const RAVE_MAX_ACTIONS: u32 = 1 << 20;
/// The memory a tree may hold (nodes, their child lists and the choices not yet made children, as
/// [`Tree::bytes`] counts them). Past it the tree stops growing: a leaf is played out instead of being
/// listed, and no child is added by widening except at the root; the playouts go on as before. Without
/// it robot3's first move on 19 x 19 Chameleon held 2.2 GB (about 70 KB a playout, issue 34); with it
/// no robot's move takes more than about 140 MB (`scripts/robot-memory.sh`). Trees smaller than this,
/// as robot3's on most default boards, grow and play exactly as before.
pub(super) const MAX_TREE_BYTES: usize = 128 << 20;

/// Playouts a new child counts as already seen (the game's [`GameState::prior_results`]): visits and
/// the summed reward.
#[derive(Clone, Copy, Default)]
struct Virtual {
    visits: u32,
    total: f32,
}

/// A choice not yet made a child, best last.
enum Pending {
    One(u32, Virtual),
    /// Actions sharing a group, best last.
    Group(Vec<u32>),
}

pub(super) struct Node {
    /// The action into this node; [`NO_ACTION`] for the root and group nodes.
    pub action: u32,
    /// A group node: half a turn, the position unchanged.
    pub group: bool,
    /// The seat whose choice this node is (its rewards are counted for that seat).
    pub mover: u8,
    /// The seat choosing among this node's children (set when they are listed).
    pub chooser: u8,
    /// Visits, the virtual ones of the game's priors included.
    pub visits: u32,
    pub total: f32,
    /// The virtual visits among `visits` (no playout ran for them).
    virtual_visits: u32,
    amaf_visits: u32,
    amaf_total: f32,
    pub children: Vec<u32>,
    /// Choices still to become children, best last; `None` until the node's actions are listed.
    untried: Option<Vec<Pending>>,
    /// The exact value of the node, once known.
    pub proven: Option<Rewards>,
}

impl Node {
    fn new(action: u32, group: bool, mover: usize) -> Node {
        Node {
            action,
            group,
            mover: mover as u8,
            chooser: mover as u8,
            visits: 0,
            total: 0.0,
            virtual_visits: 0,
            amaf_visits: 0,
            amaf_total: 0.0,
            children: Vec::new(),
            untried: None,
            proven: None,
        }
    }

    fn mean(&self) -> f32 {
        self.total / self.visits.max(1) as f32
    }

    /// The visits that ran a playout (or reached a proven node).
    pub fn real_visits(&self) -> u32 {
        self.visits - self.virtual_visits
    }

    /// Proven to score nothing for `seat` (a loss for the seat choosing it).
    fn lost_for(&self, seat: u8) -> bool {
        self.proven.is_some_and(|r| r[seat as usize] <= 0.0)
    }
}

/// A child listed but not yet visited, kept in the tree's list of leaves instead of as a [`Node`]:
/// its action and the all-moves-as-first statistics the selection reads before its first visit (a
/// new child of a listing without priors has no visits, no reward, no proof and no children of its
/// own, so this is all of it). Made a node at its first visit ([`Tree::make`]) with the same
/// numbers, so the search is the same search in a sixth of the memory (16 bytes against 100):
/// robot3's trees on the default boards of Chameleon, Hex, Unlur and Y held 165 to 512 MB, nearly
/// all of it such children.
#[derive(Clone, Copy)]
struct Leaf {
    action: u32,
    amaf_visits: u32,
    amaf_total: f32,
}

/// Marks an entry of a child list that is a leaf (the rest of it is its place in [`Tree::leaves`])
/// rather than a node's id.
const LEAF: u32 = 1 << 31;

/// A node's own room in the tree's list.
const NODE_BYTES: usize = std::mem::size_of::<Node>();
/// A leaf's room in the tree's list of leaves.
const LEAF_BYTES: usize = std::mem::size_of::<Leaf>();
/// A choice not yet made a child, in its parent's list.
const PENDING_BYTES: usize = std::mem::size_of::<Pending>();

/// The heap memory `n` holds: its child list and its choices not yet made children.
fn heap_bytes(n: &Node) -> usize {
    let untried = n.untried.as_ref().map_or(0, |u| {
        u.capacity() * PENDING_BYTES
            + u.iter()
                .map(|p| match p {
                    Pending::Group(v) => v.capacity() * 4,
                    Pending::One(..) => 0,
                })
                .sum::<usize>()
    });
    n.children.capacity() * 4 + untried
}

/// Where [`Tree::descend`] leads.
enum Descent {
    /// Down to this child.
    To(usize),
    /// Nowhere: every child is a proven loss and no choice is left.
    Nothing,
    /// Only a new child would do, and the tree is full.
    Full,
}

/// Scratch buffers an iteration reuses.
#[derive(Default)]
struct Scratch {
    acts: Vec<u32>,
    priors: Vec<f32>,
    path: Vec<u32>,
    /// Actions played in this iteration with their seats, the tree's first, then the playout's.
    trail: Vec<(usize, u32)>,
    /// For each node of the path, how long the trail was when its position was reached.
    trail_at: Vec<usize>,
    marks: Vec<u32>,
    stamp: u32,
    /// Sort keys of a position's actions (`expand`).
    keys: Vec<u128>,
}

/// `x`'s place in [`f32::total_cmp`]'s order as an unsigned integer (the same order).
pub(super) fn total_order_key(x: f32) -> u32 {
    let b = x.to_bits();
    // Negative numbers: all bits flipped (larger magnitude sorts lower); others: the sign bit set.
    if b >> 31 == 1 { !b } else { b | 1 << 31 }
}

pub(super) struct Tree {
    pub nodes: Vec<Node>,
    /// Children not yet visited (entries of child lists marked [`LEAF`]); a leaf made a node stays
    /// here unused until the tree is rerooted.
    leaves: Vec<Leaf>,
    /// The leaves still in a child list (not yet made nodes).
    unmade: usize,
    pub pos: Pos,
    /// The memory the tree holds, counted as nodes are added and listed (an estimate from above:
    /// a choice made a child still counts in its parent's list, as its room is not given back).
    bytes: usize,
    /// The most [`Tree::bytes`] may reach before the tree stops growing ([`MAX_TREE_BYTES`]).
    cap: usize,
    rave: bool,
    /// The seat the search is for (the root's player to move): the one with contempt for draws.
    seat: usize,
    /// The part of its share of a draw that seat gives up ([`CONTEMPT`] unless the game asks otherwise).
    pub contempt: f32,
    /// The game gave priors at the root: listing a position is costly, so deep nodes wait for visits.
    heavy: bool,
    sc: Scratch,
}

impl Tree {
    /// A tree with only the root, whose seat to move is `me`.
    pub fn new(root: &dyn GameState, pos: Pos, me: usize) -> Tree {
        let rave = pos.fast && root.search_rave() && root.action_space() <= RAVE_MAX_ACTIONS;
        let mut sc = Scratch::default();
        if rave {
            sc.marks = vec![0; root.action_space() as usize * super::MAX_SEATS];
        }
        Tree {
            nodes: vec![Node::new(NO_ACTION, false, me)],
            leaves: Vec::new(),
            unmade: 0,
            pos,
            bytes: NODE_BYTES,
            cap: MAX_TREE_BYTES,
            rave,
            seat: me,
            contempt: root.search_contempt().unwrap_or(CONTEMPT).clamp(0.0, 0.99),
            heavy: false,
            sc,
        }
    }

    /// `r` as the search scores it: a draw shared by the robot's seat is worth its contempt less to it.
    /// (Proven values and playout results alike, so the solver compares like with like.)
    fn contempt(&self, mut r: Rewards) -> Rewards {
        let mine = r[self.seat];
        if mine <= 0.0 || mine >= 1.0 {
            return r;
        }
        let cut = self.contempt * mine;
        r[self.seat] -= cut;
        // The others in the draw gain what the robot gives up: a draw the robot dislikes is one its
        // opponents are glad to take, so the search does not offer one hoping it is declined.
        let others = (0..super::MAX_SEATS)
            .filter(|&s| s != self.seat && r[s] > 0.0)
            .count();
        for (s, x) in r.iter_mut().enumerate() {
            if s != self.seat && *x > 0.0 {
                *x += cut / others as f32;
            }
        }
        r
    }

    /// The root's exact value, if the search has proven it.
    pub fn root_proven(&self) -> Option<Rewards> {
        self.nodes[0].proven
    }

    /// The memory the tree holds, as counted for its cap.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The tree's nodes, its children not yet visited counted too (as nodes of their own, which they
    /// were before they became leaves: what [`super::reuse`] bounds and a [`super::Thought`] reports).
    pub fn node_count(&self) -> usize {
        self.nodes.len() + self.unmade
    }

    /// Entry `c` of a child list as a node's id, if it is one (not a leaf).
    fn node_of(c: u32) -> Option<usize> {
        (c & LEAF == 0).then_some(c as usize)
    }

    /// The exact value of the child at entry `c` (a leaf has none).
    fn proven_of(&self, c: u32) -> Option<Rewards> {
        Tree::node_of(c).and_then(|n| self.nodes[n].proven)
    }

    /// The visits and mean of the child at entry `c` (a leaf: none, and a mean of 0, as a node with
    /// no visits has).
    fn visits_mean(&self, c: u32) -> (u32, f32) {
        match Tree::node_of(c) {
            Some(n) => (self.nodes[n].visits, self.nodes[n].mean()),
            None => (0, 0.0),
        }
    }

    /// The child of `at` at place `i` of its list as a node: a leaf is made one (at its first visit,
    /// or when the root's choice or a reused tree needs it), with the leaf's numbers.
    fn make(&mut self, at: usize, i: usize) -> usize {
        let c = self.nodes[at].children[i];
        if let Some(n) = Tree::node_of(c) {
            return n;
        }
        let leaf = self.leaves[(c & !LEAF) as usize];
        let mut n = Node::new(leaf.action, false, self.nodes[at].chooser as usize);
        n.amaf_visits = leaf.amaf_visits;
        n.amaf_total = leaf.amaf_total;
        let id = self.nodes.len();
        self.nodes.push(n);
        self.nodes[at].children[i] = id as u32;
        self.bytes += NODE_BYTES;
        self.unmade -= 1;
        id
    }

    /// The same tree with a cap of `cap` bytes on its memory instead of [`MAX_TREE_BYTES`].
    #[cfg(test)]
    pub fn with_cap(mut self, cap: usize) -> Tree {
        self.cap = cap;
        self
    }

    /// The memory the tree's nodes hold, counted node by node (what [`Tree::bytes`] estimates from
    /// above).
    #[cfg(test)]
    pub fn recount(&self) -> usize {
        self.nodes
            .iter()
            .map(|n| NODE_BYTES + heap_bytes(n))
            .sum::<usize>()
            + self.leaves.len() * LEAF_BYTES
    }

    /// Whether the tree has reached its cap: it grows no more, except at the root.
    fn full(&self) -> bool {
        self.bytes >= self.cap
    }

    /// One iteration: down the tree, one node added, a playout, the result backed up.
    /// Returns whether it played a game out (else it ended at a proven node, at almost no cost).
    pub fn iterate(&mut self, root: &dyn GameState, rng: &mut ChaCha8Rng) -> bool {
        let mut g = root.search_copy();
        let mut sc = std::mem::take(&mut self.sc);
        sc.path.clear();
        sc.trail.clear();
        sc.trail_at.clear();
        sc.path.push(0);
        sc.trail_at.push(0);
        let mut at = 0usize;
        let mut plies = 0usize;
        let mut worked = false;
        let result = loop {
            if let Some(r) = self.nodes[at].proven {
                break r;
            }
            if self.nodes[at].untried.is_none() {
                let wait = match (self.heavy, plies) {
                    (false, p) if p <= EAGER_PLIES => 0,
                    (false, _) => EXPAND_AT,
                    (true, p) if p <= EAGER_PLIES_HEAVY => 0,
                    (true, _) => EXPAND_AT_HEAVY,
                };
                // A full tree plays its leaves out instead of listing them (the root is listed all
                // the same: a search needs its choices).
                if self.nodes[at].real_visits() < wait || (at != 0 && self.full()) {
                    let played = self.rave.then_some(&mut sc.trail);
                    worked = true;
                    let (r, judged) = self.pos.playout(g.as_mut(), rng, played, &mut sc.acts);
                    break if judged { r } else { self.contempt(r) };
                }
                self.expand(at, g.as_ref(), rng, &mut sc, at == 0);
                continue;
            }
            let child = match self.descend(at, rng) {
                Descent::To(child) => child,
                Descent::Full => {
                    // A new child was due and the tree is full: this node is played out instead.
                    let played = self.rave.then_some(&mut sc.trail);
                    worked = true;
                    let (r, judged) = self.pos.playout(g.as_mut(), rng, played, &mut sc.acts);
                    break if judged { r } else { self.contempt(r) };
                }
                Descent::Nothing => {
                    // Nothing left to choose: every child is a proven loss; prove the node from
                    // them.
                    self.prove(at);
                    match self.nodes[at].proven {
                        Some(r) => break r,
                        None => break self.contempt(self.pos.shares()),
                    }
                }
            };
            let node = &self.nodes[child];
            if !node.group {
                let (mover, action) = (node.mover as usize, node.action);
                if self.rave {
                    sc.trail.push((mover, action));
                }
                self.pos.apply(g.as_mut(), action);
                plies += 1;
                if self.nodes[child].real_visits() == 0 {
                    self.nodes[child].proven = rewards(&g.status()).map(|r| self.contempt(r));
                }
            }
            sc.path.push(child as u32);
            sc.trail_at.push(sc.trail.len());
            at = child;
        };
        self.backup(result, &mut sc);
        self.sc = sc;
        worked
    }

    /// Lists the actions of node `at` (position `g`), counting the memory its lists take.
    fn expand(
        &mut self,
        at: usize,
        g: &dyn GameState,
        rng: &mut ChaCha8Rng,
        sc: &mut Scratch,
        is_root: bool,
    ) {
        let before = heap_bytes(&self.nodes[at]);
        self.list_actions(at, g, rng, sc, is_root);
        self.bytes += heap_bytes(&self.nodes[at]).saturating_sub(before);
    }

    /// Lists the actions of node `at` (position `g`): its children-to-be ordered by the game's priors,
    /// grouped by the game's groups; a win at once is made a proven child straight away.
    fn list_actions(
        &mut self,
        at: usize,
        g: &dyn GameState,
        rng: &mut ChaCha8Rng,
        sc: &mut Scratch,
        is_root: bool,
    ) {
        let Some(me) = super::pos::to_move(g) else {
            let r = rewards(&g.status()).unwrap_or_else(|| self.pos.shares());
            self.nodes[at].proven = Some(self.contempt(r));
            return;
        };
        self.nodes[at].chooser = me as u8;
        self.pos.actions(g, &mut sc.acts);
        if sc.acts.is_empty() {
            // A game that is not over but offers nothing: score it as a shared point.
            self.nodes[at].proven = Some(self.pos.shares());
            self.nodes[at].untried = Some(Vec::new());
            return;
        }
        sc.priors.clear();
        if self.pos.fast {
            g.action_priors(&sc.acts, &mut sc.priors);
        }
        let has_priors = sc.priors.len() == sc.acts.len();
        let seen = |i: usize| match has_priors.then(|| g.prior_results(sc.priors[i])).flatten() {
            Some((visits, mean)) => Virtual {
                visits,
                total: visits as f32 * mean.clamp(0.0, 1.0),
            },
            None => Virtual::default(),
        };
        if is_root {
            self.heavy = has_priors;
        }
        // Decisive moves: a win at once ends the search of this node.
        for (i, &a) in sc.acts.iter().enumerate() {
            let marked = has_priors && sc.priors[i] == f32::INFINITY;
            let candidate = if self.pos.fast {
                marked || g.may_win_at_once(a)
            } else {
                true
            };
            if !candidate {
                continue;
            }
            let mut h = g.search_copy();
            self.pos.apply(h.as_mut(), a);
            let Some(r) = rewards(&h.status()).map(|r| self.contempt(r)) else {
                continue;
            };
            if r[me] >= 1.0 {
                let mut child = Node::new(a, false, me);
                child.proven = Some(r);
                let id = self.nodes.len() as u32;
                self.nodes.push(child);
                self.bytes += NODE_BYTES;
                self.nodes[at].children.push(id);
                self.nodes[at].untried = Some(Vec::new());
                self.nodes[at].proven = Some(r);
                return;
            }
        }
        // Order: best prior first, ties at random; then the list is reversed so that the best is last.
        // Sorted as integer keys (prior, then the random draw, both descending, then the listing
        // order): the same order a stable sort by prior and draw gives, at a fraction of its cost
        // (it was a fifth of Chameleon's search).
        let mut keys = std::mem::take(&mut sc.keys);
        keys.clear();
        keys.extend((0..sc.acts.len()).map(|i| {
            let p = if has_priors { sc.priors[i] } else { 0.0 };
            (u128::from(!total_order_key(p)) << 64)
                | (u128::from(!rng.next_u32()) << 32)
                | i as u128
        }));
        keys.sort_unstable();
        let order: Vec<(u32, Virtual)> = keys
            .iter()
            .map(|&k| {
                let i = k as u32 as usize;
                (sc.acts[i], seen(i))
            })
            .collect();
        sc.keys = keys;
        let mut pending: Vec<Pending> = Vec::with_capacity(order.len());
        let mut group_at: HashMap<u32, usize> = HashMap::new();
        for &(a, v) in &order {
            let group = if self.pos.fast {
                g.action_group(a)
            } else {
                None
            };
            match group {
                Some(k) => match group_at.get(&k) {
                    Some(&j) => {
                        if let Pending::Group(v) = &mut pending[j] {
                            v.push(a);
                        }
                    }
                    None => {
                        group_at.insert(k, pending.len());
                        pending.push(Pending::Group(vec![a]));
                    }
                },
                None => pending.push(Pending::One(a, v)),
            }
        }
        for p in &mut pending {
            if let Pending::Group(v) = p {
                if v.len() == 1 {
                    *p = Pending::One(v[0], Virtual::default());
                } else {
                    v.reverse();
                }
            }
        }
        pending.reverse();
        // Groups made the list shorter than the actions it was sized for: the room left over (most
        // of it, for Limit's moves with a removal) is given back, and the cap counts what is held.
        pending.shrink_to_fit();
        if !has_priors && group_at.is_empty() {
            // No priors to widen by: every action is a child at once (RAVE and UCT rank them).
            // Room for them all at once: growing the list by doubling copied it several times.
            self.nodes[at].children.reserve_exact(pending.len());
            while let Some(Pending::One(a, v)) = pending.pop() {
                if v.visits == 0 && v.total == 0.0 {
                    self.push_leaf(at, a);
                } else {
                    self.push_child(at, Pending::One(a, v), me);
                }
            }
            // Emptied: its room (a fifth of such a node's listing) is given back.
            pending = Vec::new();
        }
        self.nodes[at].untried = Some(pending);
    }

    /// Adds a child of `at` not yet visited, as a leaf.
    fn push_leaf(&mut self, at: usize, action: u32) {
        let i = self.leaves.len() as u32;
        assert!(i < LEAF, "more leaves than a child list can mark");
        self.leaves.push(Leaf {
            action,
            amaf_visits: 0,
            amaf_total: 0.0,
        });
        self.unmade += 1;
        let had = self.nodes[at].children.capacity();
        self.nodes[at].children.push(LEAF | i);
        self.bytes += LEAF_BYTES + (self.nodes[at].children.capacity() - had) * 4;
    }

    fn push_child(&mut self, at: usize, p: Pending, me: usize) -> usize {
        let child = match p {
            Pending::One(a, seen) => {
                let mut n = Node::new(a, false, me);
                n.visits = seen.visits;
                n.virtual_visits = seen.visits;
                n.total = seen.total;
                // In the RAVE mean too: it weighs most in a young node, and a prior that counted
                // in the node's own mean only was all but ignored until then.
                n.amaf_visits = seen.visits;
                n.amaf_total = seen.total;
                n
            }
            Pending::Group(v) => {
                let mut n = Node::new(NO_ACTION, true, me);
                n.untried = Some(
                    v.into_iter()
                        .map(|a| Pending::One(a, Virtual::default()))
                        .collect(),
                );
                n
            }
        };
        let id = self.nodes.len();
        // The child's list (a group's) and the room its id takes in the parent's (counted whole in
        // `expand` when the list was made at once).
        self.bytes += NODE_BYTES + heap_bytes(&child);
        let had = self.nodes[at].children.capacity();
        self.nodes.push(child);
        self.nodes[at].children.push(id as u32);
        self.bytes += (self.nodes[at].children.capacity() - had) * 4;
        id
    }

    /// The child of `at` to go down to: a new one if the widening allows, else the best by UCT (and
    /// RAVE), never a proven loss; [`Descent::Nothing`] when every child is a proven loss and none is
    /// left to add, [`Descent::Full`] when only a new child would do and the tree is full.
    fn descend(&mut self, at: usize, rng: &mut ChaCha8Rng) -> Descent {
        let node = &self.nodes[at];
        let me = node.chooser;
        let has_untried = node.untried.as_ref().is_some_and(|u| !u.is_empty());
        // A full tree widens only the root: the nodes it has are searched on.
        let can_grow = has_untried && (at == 0 || !self.full());
        // The live children are counted only where the widening may add one (a game without priors
        // has every child from the start, and this pass over them was wasted at every step).
        let live = || {
            node.children
                .iter()
                .filter(|&&c| Tree::node_of(c).is_none_or(|n| !self.nodes[n].lost_for(me)))
                .count()
        };
        let allowed = (WIDEN * (node.real_visits() as f32).sqrt()).max(1.0) as usize;
        if can_grow && live() < allowed {
            let p = self.nodes[at]
                .untried
                .as_mut()
                .and_then(Vec::pop)
                .expect("checked above");
            return Descent::To(self.push_child(at, p, me as usize));
        }
        let node = &self.nodes[at];
        let ln = (node.visits.max(1) as f32).ln();
        let explore = if self.rave { EXPLORE_RAVE } else { EXPLORE };
        let mut best = f32::NEG_INFINITY;
        // The place of the child chosen in the list.
        let mut pick = None;
        for (i, &c) in node.children.iter().enumerate() {
            let Some(n) = Tree::node_of(c) else {
                // A leaf: scored as a node with no visits, from the same numbers.
                let leaf = &self.leaves[(c & !LEAF) as usize];
                let score = if self.rave && leaf.amaf_visits > 0 {
                    leaf.amaf_total / leaf.amaf_visits as f32 + explore * ln.max(1.0).sqrt()
                } else {
                    1e6 + (rng.next_u32() >> 8) as f32
                };
                if score > best {
                    best = score;
                    pick = Some(i);
                }
                continue;
            };
            let ch = &self.nodes[n];
            if ch.lost_for(me) {
                continue;
            }
            let score = if ch.visits == 0 {
                if self.rave && ch.amaf_visits > 0 {
                    ch.amaf_total / ch.amaf_visits as f32 + explore * ln.max(1.0).sqrt()
                } else {
                    // Unvisited children first, in a random order.
                    1e6 + (rng.next_u32() >> 8) as f32
                }
            } else {
                // A proven child needs no exploring: its exact value alone.
                if let Some(r) = ch.proven {
                    let v = r[me as usize];
                    if v > best {
                        best = v;
                        pick = Some(i);
                    }
                    continue;
                }
                let mut q = ch.mean();
                if self.rave && ch.amaf_visits > 0 {
                    let beta = (RAVE_K / (3.0 * ch.visits as f32 + RAVE_K)).sqrt();
                    q = (1.0 - beta) * q + beta * (ch.amaf_total / ch.amaf_visits as f32);
                }
                q + explore * (ln / ch.visits as f32).sqrt()
            };
            if score > best {
                best = score;
                pick = Some(i);
            }
        }
        match pick {
            Some(i) => Descent::To(self.make(at, i)),
            None if can_grow => match self.nodes[at].untried.as_mut().and_then(Vec::pop) {
                Some(p) => Descent::To(self.push_child(at, p, me as usize)),
                None => Descent::Nothing,
            },
            None if has_untried => Descent::Full,
            None => Descent::Nothing,
        }
    }

    /// Sets node `at`'s exact value when its children decide it.
    fn prove(&mut self, at: usize) {
        let node = &self.nodes[at];
        if node.proven.is_some() || node.untried.is_none() {
            return;
        }
        let me = node.chooser as usize;
        let mut best: Option<Rewards> = None;
        let mut all = node.untried.as_ref().is_some_and(|u| u.is_empty());
        for &c in &node.children {
            match self.proven_of(c) {
                Some(r) if r[me] >= 1.0 => {
                    best = Some(r);
                    all = true;
                    break;
                }
                Some(r) => {
                    if best.is_none_or(|b| r[me] > b[me]) {
                        best = Some(r);
                    }
                }
                None => all = false,
            }
        }
        if all && let Some(b) = best {
            self.nodes[at].proven = Some(b);
        }
    }

    fn backup(&mut self, result: Rewards, sc: &mut Scratch) {
        for &n in &sc.path {
            let node = &mut self.nodes[n as usize];
            node.visits += 1;
            node.total += result[node.mover as usize];
        }
        if self.rave {
            self.rave_update(result, sc);
        }
        for i in (0..sc.path.len()).rev() {
            self.prove(sc.path[i] as usize);
        }
    }

    /// All-moves-as-first: each child of a node on the path whose action its chooser played later in
    /// this iteration (in the tree or the playout) is credited with the result.
    fn rave_update(&mut self, result: Rewards, sc: &mut Scratch) {
        sc.stamp = sc.stamp.wrapping_add(1);
        if sc.stamp == 0 {
            sc.marks.iter_mut().for_each(|m| *m = 0);
            sc.stamp = 1;
        }
        let seats = super::MAX_SEATS;
        let mut k = sc.trail.len();
        for i in (0..sc.path.len()).rev() {
            while k > sc.trail_at[i] {
                k -= 1;
                let (s, a) = sc.trail[k];
                if let Some(m) = sc.marks.get_mut(a as usize * seats + s) {
                    *m = sc.stamp;
                }
            }
            let at = sc.path[i] as usize;
            let me = self.nodes[at].chooser as usize;
            for j in 0..self.nodes[at].children.len() {
                let c = self.nodes[at].children[j];
                let Some(c) = Tree::node_of(c) else {
                    let leaf = &mut self.leaves[(c & !LEAF) as usize];
                    if sc.marks.get(leaf.action as usize * seats + me) == Some(&sc.stamp) {
                        leaf.amaf_visits += 1;
                        leaf.amaf_total += result[me];
                    }
                    continue;
                };
                let a = self.nodes[c].action;
                if a == NO_ACTION {
                    continue;
                }
                if sc.marks.get(a as usize * seats + me) == Some(&sc.stamp) {
                    let ch = &mut self.nodes[c];
                    ch.amaf_visits += 1;
                    ch.amaf_total += result[me];
                }
            }
        }
    }
}

/// Frees `x` (trees, or what is left of one) on a thread of its own: a tree of several hundred
/// thousand nodes took tens of milliseconds to free, hundreds on a loaded machine, and a capped move
/// overran its 2 s by that much (robot3 on Chameleon 11 x 11: up to 449 ms). If no thread can be
/// started, it is freed here.
pub(super) fn discard<T: Send + 'static>(x: T) {
    let _ = std::thread::Builder::new()
        .name("search-free".into())
        .spawn(move || drop(x));
}

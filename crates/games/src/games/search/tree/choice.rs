//! What a search gives once it has run: the root's choice and whether it offers a draw, and the
//! tree kept for the next move (re-rooted at the move played). Split from `tree.rs`, which grows
//! the tree.

use super::*;

impl Tree {
    /// The root's choice: a proven win if there is one, else the most visited child that is not a
    /// proven loss (a group: its most visited action), else the best action not yet tried. Returns the
    /// action and its node (for its mean), `None` for the node of an untried action.
    pub fn choice(&mut self) -> (u32, Option<usize>) {
        let mut at = 0usize;
        loop {
            let t: &Tree = self;
            let me = t.nodes[at].chooser;
            // Children by their place in the list: a leaf has no node's id, and among siblings the
            // places are in the order of the ids they had as nodes, which break ties as before.
            let kids = &t.nodes[at].children;
            let won = (0..kids.len())
                .find(|&i| t.proven_of(kids[i]).is_some_and(|r| r[me as usize] >= 1.0));
            let node_at = |i: usize| Tree::node_of(kids[i]);
            let live = || {
                (0..kids.len())
                    .filter(move |&i| node_at(i).is_none_or(|n| !t.nodes[n].lost_for(me)))
            };
            let most_visited = |xs: &mut dyn Iterator<Item = usize>| {
                xs.max_by(|&x, &y| {
                    let (a, b) = (t.visits_mean(kids[x]), t.visits_mean(kids[y]));
                    a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)).then(y.cmp(&x))
                })
            };
            let offers_draw = |i: usize| node_at(i).is_some_and(|n| t.offers_draw(n));
            let mut pick = won.or_else(|| most_visited(&mut live()));
            // Do not offer a draw for nothing: when the move chosen lets the next player end the game
            // in a draw at once, a move that does not and looks about as good is played instead (a
            // fallible opponent may blunder later; it takes an offered draw at once).
            if won.is_none()
                && let Some(p) = pick
                && offers_draw(p)
            {
                let floor = t.visits_mean(kids[p]).1 - DRAW_OFFER_MARGIN;
                // Not a move that ends the game in a draw itself: taking the draw at once is no
                // better than offering it (under `limit -move_or_remove` this rule swapped a
                // removal, one of whose replies could lead to a proven draw, for a move that drew
                // on the spot).
                let other = most_visited(&mut live().filter(|&i| {
                    let (visits, mean) = t.visits_mean(kids[i]);
                    visits > 0
                        && mean >= floor
                        && !offers_draw(i)
                        && !node_at(i).is_some_and(|n| t.is_draw(n))
                }));
                pick = other.or(pick);
            }
            let pick = match pick {
                Some(i) => i,
                None => match self.nodes[at].untried.as_mut().and_then(Vec::pop) {
                    Some(Pending::One(a, _)) => return (a, None),
                    Some(Pending::Group(mut v)) => {
                        return (v.pop().expect("a group holds an action"), None);
                    }
                    // Every choice loses: take the most visited all the same.
                    None => {
                        let kids = &self.nodes[at].children;
                        (0..kids.len())
                            .max_by_key(|&i| self.visits_mean(kids[i]).0)
                            .expect("a node with actions has children")
                    }
                },
            };
            let pick = self.make(at, pick);
            if self.nodes[pick].group {
                at = pick;
                continue;
            }
            return (self.nodes[pick].action, Some(pick));
        }
    }

    /// Whether child `c` is a proven draw for the robot the search is for.
    fn is_draw(&self, c: usize) -> bool {
        self.nodes[c]
            .proven
            .is_some_and(|r| r[self.seat] > 0.0 && r[self.seat] < 1.0)
    }

    /// Whether the position after child `c` (or, for a group, after any of its actions) lets the next
    /// player end the game in a draw at once: one of its children is a proven draw.
    fn offers_draw(&self, c: usize) -> bool {
        let node = &self.nodes[c];
        if node.group {
            return node
                .children
                .iter()
                .any(|&k| Tree::node_of(k).is_some_and(|k| self.offers_draw(k)));
        }
        node.children.iter().any(|&k| {
            self.proven_of(k)
                .is_some_and(|r| r[self.seat] > 0.0 && r[self.seat] < 1.0)
        })
    }

    /// The subtree under `new_root` as a tree of its own (tree reuse), its nodes renumbered.
    pub fn reroot(mut self, new_root: usize) -> Tree {
        let mut nodes = Vec::new();
        nodes.push(std::mem::replace(
            &mut self.nodes[new_root],
            Node::new(NO_ACTION, false, 0),
        ));
        let mut leaves = Vec::new();
        let mut k = 0;
        while k < nodes.len() {
            let old_children = std::mem::take(&mut nodes[k].children);
            let mut kids = Vec::with_capacity(old_children.len());
            for c in old_children {
                let Some(c) = Tree::node_of(c) else {
                    kids.push(LEAF | leaves.len() as u32);
                    leaves.push(self.leaves[(c & !LEAF) as usize]);
                    continue;
                };
                let id = nodes.len();
                nodes.push(std::mem::replace(
                    &mut self.nodes[c],
                    Node::new(NO_ACTION, false, 0),
                ));
                kids.push(id as u32);
            }
            nodes[k].children = kids;
            k += 1;
        }
        nodes[0].action = NO_ACTION;
        let bytes = nodes
            .iter()
            .map(|n| NODE_BYTES + heap_bytes(n))
            .sum::<usize>()
            + leaves.len() * LEAF_BYTES;
        // The rest of the old tree is freed off this thread: the move's time cap is running.
        discard((
            std::mem::take(&mut self.nodes),
            std::mem::take(&mut self.leaves),
        ));
        Tree {
            nodes,
            unmade: leaves.len(),
            leaves,
            pos: self.pos,
            bytes,
            cap: self.cap,
            rave: self.rave,
            seat: self.seat,
            contempt: self.contempt,
            heavy: self.heavy,
            sc: std::mem::take(&mut self.sc),
        }
    }

    /// The action of the child at entry `c` of a child list ([`NO_ACTION`] for a group).
    fn action_of(&self, c: u32) -> u32 {
        match Tree::node_of(c) {
            Some(n) => self.nodes[n].action,
            None => self.leaves[(c & !LEAF) as usize].action,
        }
    }

    /// The child of `at` reached by the move written `text` in position `g`, looking inside groups,
    /// made a node if it was a leaf; only children already listed are searched.
    pub fn child_by_text(&mut self, at: usize, g: &dyn GameState, text: &str) -> Option<usize> {
        for i in 0..self.nodes[at].children.len() {
            let c = self.nodes[at].children[i];
            if let Some(n) = Tree::node_of(c)
                && self.nodes[n].group
            {
                for j in 0..self.nodes[n].children.len() {
                    let cc = self.nodes[n].children[j];
                    if self.pos.text(g, self.action_of(cc)) == text {
                        return Some(self.make(n, j));
                    }
                }
            } else if self.pos.text(g, self.action_of(c)) == text {
                return Some(self.make(at, i));
            }
        }
        None
    }
}

impl Tree {
    /// Whether the root's choice can no longer change within `remaining` more iterations: its most
    /// visited child leads every other child not proven lost, and any child widening may still add (which starts
    /// with at most the virtual visits its siblings started with), by more than `remaining` visits,
    /// and nothing proven or offered at the root could make [`Tree::choice`] pass it over. The
    /// capped search stops there: the rest of its time would not change the move.
    pub fn settled(&self, remaining: u64) -> bool {
        let root = &self.nodes[0];
        let (mut first, mut second, mut newcomer) = (None::<(u32, usize)>, 0u32, 0u32);
        for &c in &root.children {
            // A leaf has no visits, and a leaf made a node has no virtual ones.
            let Some(n) = Tree::node_of(c) else { continue };
            let node = &self.nodes[n];
            // A proven loss is never chosen (and stays proven); a group's choice is made below it,
            // and any other proven child is the solver's to decide.
            if node.lost_for(root.chooser) {
                continue;
            }
            if node.group || node.proven.is_some() {
                return false;
            }
            newcomer = newcomer.max(node.virtual_visits);
            match first {
                Some((v, _)) if node.visits <= v => second = second.max(node.visits),
                _ => {
                    second = second.max(first.map_or(0, |f| f.0));
                    first = Some((node.visits, n));
                }
            }
        }
        match first {
            Some((v, n)) => {
                !self.offers_draw(n) && u64::from(v) > u64::from(second.max(newcomer)) + remaining
            }
            None => false,
        }
    }
}

//! Tree reuse between a robot's moves in one game, within one process (`pbem engine match`, a
//! `pbem lmtp` worker): each thread keeps its last few trees, keyed by the game's starting position and
//! the robot's budget, with the move list they were grown for. When the same robot moves again in that
//! game, the moves played since are followed down the old tree and the subtree they reach becomes the
//! new root, with its visits and proofs.

use std::cell::RefCell;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use super::tree::Tree;
use crate::games::GameState;

/// Trees kept per thread (the oldest goes first).
const KEPT: usize = 2;
/// A tree larger than this is not kept (memory). Its children not yet visited count as nodes, as they
/// were when this bound was set: which trees are kept, and so the robots' moves, are as before.
const MAX_NODES: usize = 1_500_000;

struct Entry {
    key: u64,
    /// The move list (text, auto) of the position the tree's root stands for.
    moves: Vec<(String, bool)>,
    tree: Tree,
}

thread_local! {
    static KEEP: RefCell<Vec<Entry>> = const { RefCell::new(Vec::new()) };
}

/// The key of `game` for a robot of budget `tag`: the game's first position (its JSON: layout, options,
/// seats) and the tag. `None` when the game cannot give its first position.
pub(super) fn key(game: &dyn GameState, tag: u64) -> Option<u64> {
    let first = game.at_move(1).ok()?.to_json();
    let mut h = DefaultHasher::new();
    first.hash(&mut h);
    tag.hash(&mut h);
    Some(h.finish())
}

fn move_list(game: &dyn GameState) -> Vec<(String, bool)> {
    game.moves().into_iter().map(|m| (m.text, m.auto)).collect()
}

/// The kept tree for `game` under `key`, moved down to the present position, if the moves since were
/// in it. The entry is taken out either way (it is stored again after the search).
pub(super) fn take(game: &dyn GameState, key: u64) -> Option<Tree> {
    let now = move_list(game);
    let entry = KEEP.with(|k| {
        let mut k = k.borrow_mut();
        let i = k
            .iter()
            .position(|e| e.key == key && now.starts_with(&e.moves))?;
        Some(k.remove(i))
    })?;
    let mut g = game.at_move(entry.moves.len() as u32 + 1).ok()?;
    let mut tree = entry.tree;
    let mut at = 0usize;
    for (text, auto) in &now[entry.moves.len()..] {
        if *auto {
            // The engine plays these itself after the move before.
            continue;
        }
        at = tree.child_by_text(at, g.as_ref(), text)?;
        g.play(text).ok()?;
    }
    if at == 0 {
        return Some(tree);
    }
    Some(tree.reroot(at))
}

/// Keeps `tree` (grown for `game`'s present position) for the robot's next move in this game.
pub(super) fn put(game: &dyn GameState, key: u64, tree: Tree) {
    if tree.node_count() > MAX_NODES {
        super::tree::discard(tree);
        return;
    }
    let moves = move_list(game);
    KEEP.with(|k| {
        let mut k = k.borrow_mut();
        let mut gone = Vec::new();
        let mut i = 0;
        while i < k.len() {
            if k[i].key == key {
                gone.push(k.remove(i));
            } else {
                i += 1;
            }
        }
        if k.len() >= KEPT {
            gone.push(k.remove(0));
        }
        k.push(Entry { key, moves, tree });
        super::tree::discard(gone);
    });
}

/// Forgets every kept tree of this thread (tests that want a search from scratch).
pub fn forget() {
    KEEP.with(|k| k.borrow_mut().clear());
}

//! What Hex and Chameleon share beyond the board: a move list of action ids, one a turn, the two
//! seats in alternation, ended perhaps by a resignation or a forfeit; and what follows from that list
//! alone (the status, the records, the game at an earlier move, perft).

use serde::{Deserialize, Serialize};

use crate::games::{MoveRecord, Outcome, RuleError, Status};

/// How a seat left the game before it was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Leaving {
    /// The seat resigned (a server command).
    Resign,
    /// The seat lost on time.
    Forfeit,
}

/// The seat that left, and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Left {
    /// The seat that left the game.
    pub seat: usize,
    /// Resigned or forfeited.
    pub how: Leaving,
}

/// A two-seat game whose whole state follows from its actions played in turn from a fresh board.
pub trait Alternating: Clone {
    /// The moves so far as action ids, seat 0's first.
    fn actions(&self) -> &[u16];
    /// The winner, if the game is over.
    fn winner(&self) -> Option<usize>;
    /// The seat that resigned or forfeited, if one did.
    fn left(&self) -> Option<Left>;
    /// The canonical text of an action.
    fn action_name(&self, action: u16) -> String;
    /// The legal actions now (none once the game is over).
    fn legal(&self, out: &mut Vec<u32>);
    /// Plays a legal action and decides the end.
    fn apply(&mut self, action: u16);
    /// The seat leaves (the other wins); refused once the game is over.
    fn leave(&mut self, seat: usize, how: Leaving) -> Result<(), RuleError>;
    /// The same game (size and options) before its first move.
    fn restart(&self) -> Self;
}

/// The seat to move, `None` once the game is over.
#[inline]
pub fn to_move(g: &impl Alternating) -> Option<usize> {
    g.winner().is_none().then_some(g.actions().len() % 2)
}

/// Where the game stands.
pub fn status(g: &impl Alternating) -> Status {
    match g.winner() {
        Some(w) => Status::Over(Outcome::Winner(w)),
        None => Status::ToMove(g.actions().len() % 2),
    }
}

/// The move list: the board moves, then a resignation or forfeit.
pub fn records(g: &impl Alternating) -> Vec<MoveRecord> {
    let mut out: Vec<MoveRecord> = g
        .actions()
        .iter()
        .enumerate()
        .map(|(i, &a)| MoveRecord {
            seat: i % 2,
            text: g.action_name(a),
            auto: false,
        })
        .collect();
    if let Some(l) = g.left() {
        out.push(MoveRecord {
            seat: l.seat,
            text: match l.how {
                Leaving::Resign => "resign".into(),
                Leaving::Forfeit => "forfeit".into(),
            },
            auto: false,
        });
    }
    out
}

/// The number of entries in the move list.
pub fn entries(g: &impl Alternating) -> usize {
    g.actions().len() + usize::from(g.left().is_some())
}

/// The game when move `n` was awaited: the first `n - 1` entries replayed.
pub fn at_move<G: Alternating>(g: &G, n: u32) -> Result<G, RuleError> {
    let last = entries(g) as u32 + 1;
    if n == 0 || n > last {
        return Err(RuleError(format!(
            "there is no move {n}: this game has moves 1 to {last}"
        )));
    }
    let mut earlier = g.restart();
    for &a in g.actions().iter().take(n as usize - 1) {
        earlier.apply(a);
    }
    if n == last
        && let Some(l) = g.left()
    {
        earlier.leave(l.seat, l.how)?;
    }
    Ok(earlier)
}

/// The number of move sequences of `depth` moves from here (a finished game has none).
pub fn perft<G: Alternating>(g: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if g.winner().is_some() {
        return 0;
    }
    let mut moves = Vec::new();
    g.legal(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&a| {
            let mut next = g.clone();
            next.apply(a as u16);
            perft(&next, depth - 1)
        })
        .sum()
}

//! How the search sees a game: actions as integers, played on copies of the position, and the rewards
//! of a finished game. A game with action ids is searched through them (`legal_actions`,
//! `apply_action`); a game without is searched through its move list, an action then being the index
//! of a move in `legal_moves()` of that position (slower: every step lists the moves again).

use rand_chacha::ChaCha8Rng;
use rand_core::Rng;

use super::MAX_SEATS;
use crate::games::{GameState, Outcome, Status};

/// A reward per seat: 1 to the winner, a draw's point shared by the seats in it (a half point each
/// between two), 0 to the losers.
pub(super) type Rewards = [f32; MAX_SEATS];

/// Plies a playout plays before it stops and shares the point (a guard against games that loop).
const PLAYOUT_CAP: u32 = 10_000;

/// The way actions are read and played for one search.
#[derive(Debug, Clone, Copy)]
pub(super) struct Pos {
    /// The game gives action ids (else actions are indices into `legal_moves()`).
    pub fast: bool,
    /// Seats in the game.
    pub seats: usize,
}

impl Pos {
    pub fn new(g: &dyn GameState) -> Pos {
        Pos {
            fast: g.action_space() > 0,
            seats: g.seat_names().len().clamp(1, MAX_SEATS),
        }
    }

    /// The legal actions of the position into `out`.
    pub fn actions(&self, g: &dyn GameState, out: &mut Vec<u32>) {
        if self.fast {
            g.legal_actions(out);
        } else {
            out.clear();
            out.extend(0..g.legal_moves().len() as u32);
        }
    }

    /// Plays an action listed by [`Pos::actions`] for this position.
    pub fn apply(&self, g: &mut dyn GameState, a: u32) {
        if self.fast {
            g.apply_action(a);
        } else {
            let moves = g.legal_moves();
            g.play(&moves[a as usize])
                .expect("a listed move is legal in its position");
        }
    }

    /// The action in the game's notation.
    pub fn text(&self, g: &dyn GameState, a: u32) -> String {
        if self.fast {
            g.action_text(a)
        } else {
            g.legal_moves().swap_remove(a as usize)
        }
    }

    /// Every seat's equal share: the score of a game cut short.
    pub fn shares(&self) -> Rewards {
        let mut r = [0.0; MAX_SEATS];
        for x in r.iter_mut().take(self.seats) {
            *x = 1.0 / self.seats as f32;
        }
        r
    }

    /// Plays `g` to the end (the game's policy, else random actions) and returns the rewards; the actions
    /// played go onto `played` when given (RAVE). `acts` is scratch space for the action lists.
    /// The flag is true when the game's policy stopped short and the game judged the position
    /// ([`GameState::playout_value`]): such rewards are estimates, not a draw, and take no contempt.
    pub fn playout(
        &self,
        g: &mut dyn GameState,
        rng: &mut ChaCha8Rng,
        mut played: Option<&mut Vec<(usize, u32)>>,
        acts: &mut Vec<u32>,
    ) -> (Rewards, bool) {
        if let Some(r) = rewards(&g.status()) {
            return (r, false);
        }
        let mut pick = |n: usize| {
            if n == usize::MAX {
                rng.next_u64() as usize
            } else {
                below(rng, n)
            }
        };
        if g.search_playout(&mut pick, played.as_deref_mut()) {
            if let Some(r) = rewards(&g.status()) {
                return (r, false);
            }
            return match self.judged(g) {
                Some(r) => (r, true),
                None => (self.shares(), false),
            };
        }
        if !self.fast {
            g.random_playout(&mut pick);
            return (rewards(&g.status()).unwrap_or_else(|| self.shares()), false);
        }
        random_actions(g, &mut pick, played, acts);
        (rewards(&g.status()).unwrap_or_else(|| self.shares()), false)
    }

    /// The game's own value of a position its playout stopped in, seat by seat, if it gives one.
    fn judged(&self, g: &dyn GameState) -> Option<Rewards> {
        let mut r = [0.0; MAX_SEATS];
        for (s, x) in r.iter_mut().enumerate().take(self.seats) {
            *x = g.playout_value(s)?.clamp(0.0, 1.0);
        }
        Some(r)
    }
}

/// The search's playout for a game with action ids and no policy of its own: at each ply the actions
/// listed, one picked by `pick(n)`, until the game is over, no action is left or [`PLAYOUT_CAP`]
/// plies are played. A game's own [`GameState::search_playout`] that only makes this faster must
/// draw exactly as this does.
pub(super) fn random_actions(
    g: &mut dyn GameState,
    pick: &mut dyn FnMut(usize) -> usize,
    mut played: Option<&mut Vec<(usize, u32)>>,
    acts: &mut Vec<u32>,
) {
    for _ in 0..PLAYOUT_CAP {
        let s = match g.status() {
            Status::Over(_) => return,
            Status::ToMove(s) => s,
        };
        g.legal_actions(acts);
        if acts.is_empty() {
            return;
        }
        let a = acts[pick(acts.len())];
        if let Some(p) = played.as_deref_mut() {
            p.push((s, a));
        }
        g.apply_action(a);
    }
}

/// The seat to move, or `None` once the game is over.
pub(super) fn to_move(g: &dyn GameState) -> Option<usize> {
    match g.status() {
        Status::ToMove(s) => Some(s),
        Status::Over(_) => None,
    }
}

/// The rewards of a finished game, `None` while it goes on.
pub(super) fn rewards(s: &Status) -> Option<Rewards> {
    match s {
        Status::Over(o) => Some(outcome_rewards(o)),
        Status::ToMove(_) => None,
    }
}

/// 1 to the winner; a draw's point shared by the seats in it (nobody's draw scores nothing).
pub(super) fn outcome_rewards(o: &Outcome) -> Rewards {
    let mut r = [0.0; MAX_SEATS];
    match o {
        Outcome::Winner(s) => {
            if let Some(x) = r.get_mut(*s) {
                *x = 1.0;
            }
        }
        Outcome::Draw(v) => {
            for &s in v {
                if let Some(x) = r.get_mut(s) {
                    *x = 1.0 / v.len() as f32;
                }
            }
        }
    }
    r
}

/// A uniform index below `n` (`n > 0`).
pub(super) fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    ((u128::from(rng.next_u64()) * n as u128) >> 64) as usize
}

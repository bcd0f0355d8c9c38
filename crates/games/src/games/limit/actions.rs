//! Limit's action ids for the generic search (`games::search`), and the hooks that carry its old
//! robot's knowledge over: priors (captures, pawns left short of freedoms), the turn split in two
//! (the pawn move, then the removal, both by the mover), and the capture-aware playout policy.
//!
//! Ids: a movement turn is `((from + 1) * 65 + (to + 1)) * 65 + (remove + 1)` over tile indices, 0
//! standing for an absent half (a move alone, a removal alone); placements follow, by position number
//! (below 2^14: a board of 64 tiles never reaches it): a manual lay by colour and position, a classic
//! ball, a classic pair with where its ball goes. Tile indices and position numbers never change
//! during a game, so an id means the same move in every position of it.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use super::board::{Act, NONE};
use super::game::{Phase, Position};
use super::notation::Move;
use super::options::Mode;
use super::robot;
use super::view::TileColour;

const SIDE: u32 = 65;
/// Ids of movement turns: below this.
const MOVE_IDS: u32 = SIDE * SIDE * SIDE;
/// Position numbers are below this.
const POS: u32 = 1 << 14;
const LAY: u32 = MOVE_IDS;
const BALL: u32 = LAY + 4 * POS;
const PAIR: u32 = BALL + POS;
/// Every Limit action id is below this.
pub const ACTION_SPACE: u32 = PAIR + 3 * POS * POS;

const LAY_COLOURS: [TileColour; 4] = [
    TileColour::Red,
    TileColour::Blue,
    TileColour::Green,
    TileColour::Black,
];

/// The id of a movement turn.
pub fn act_id(a: Act) -> u32 {
    let f = |x: u8| if x == NONE { 0 } else { u32::from(x) + 1 };
    (f(a.from) * SIDE + f(a.to)) * SIDE + f(a.remove)
}

/// The movement turn of an id below the movement range.
pub fn id_act(id: u32) -> Act {
    let f = |x: u32| if x == 0 { NONE } else { (x - 1) as u8 };
    Act {
        from: f(id / (SIDE * SIDE)),
        to: f(id / SIDE % SIDE),
        remove: f(id % SIDE),
    }
}

/// The id of a placement (`None` for a movement move, which is named by its [`Act`]).
pub fn placement_id(m: &Move) -> Option<u32> {
    let p = |n: u32| {
        debug_assert!(n < POS, "position {n} beyond the id range");
        n
    };
    match *m {
        Move::Lay { colour, at } => {
            let c = LAY_COLOURS.iter().position(|&x| x == colour)? as u32;
            Some(LAY + c * POS + p(at))
        }
        Move::Ball { at } => Some(BALL + p(at)),
        Move::Pair { a, b, ball } => {
            let kind = match ball {
                None => 0,
                Some(x) if x == a => 1,
                Some(_) => 2,
            };
            Some(PAIR + (kind * POS + p(a)) * POS + p(b))
        }
        _ => None,
    }
}

/// The placement of an id at or above the movement range.
pub fn id_placement(id: u32) -> Move {
    if id >= PAIR {
        let x = id - PAIR;
        let (kind, a, b) = (x / (POS * POS), x / POS % POS, x % POS);
        let ball = match kind {
            0 => None,
            1 => Some(a),
            _ => Some(b),
        };
        Move::Pair { a, b, ball }
    } else if id >= BALL {
        Move::Ball { at: id - BALL }
    } else {
        let x = id - LAY;
        Move::Lay {
            colour: LAY_COLOURS[(x / POS) as usize],
            at: x % POS,
        }
    }
}

impl Position {
    /// The legal moves of the player to move as action ids.
    pub fn action_ids(&self, out: &mut Vec<u32>) {
        out.clear();
        match self.phase() {
            Phase::Over => {}
            Phase::Movement => out.extend(self.legal_acts().into_iter().map(act_id)),
            _ => out.extend(self.legal().iter().filter_map(placement_id)),
        }
    }

    /// Plays an action id listed by [`Position::action_ids`], without writing the move list's entry for a
    /// movement turn (the search's copies are never shown).
    pub fn play_action_id(&mut self, id: u32) {
        if id < MOVE_IDS {
            self.commit_act(id_act(id));
        } else {
            self.play_move(&id_placement(id))
                .expect("a listed placement is legal");
        }
    }

    /// The move of an action id, in position numbers.
    pub fn action_move(&self, id: u32) -> Move {
        if id < MOVE_IDS {
            self.act_move(id_act(id))
        } else {
            id_placement(id)
        }
    }

    /// The search's priors (see [`turn_prior`]): a movement turn that wins at once is marked
    /// `f32::INFINITY`; placements all score 0 (tried in a random order). Under `-move_or_remove` the
    /// pawn moves come after the removals ([`MOVE_OFFERS_DRAW`]), but when a turn without a removal
    /// would end the game in a stalemate draw, one of those turns comes first ([`DRAW_AT_ONCE`]): the
    /// search then sees at once that a pawn move before it offered a draw.
    pub fn action_prior_scores(&self, ids: &[u32], out: &mut Vec<f32>) {
        out.clear();
        if self.phase() != Phase::Movement {
            out.resize(ids.len(), 0.0);
            return;
        }
        out.extend(ids.iter().map(|&id| turn_prior(self, id_act(id))));
        if self.config().mode != Mode::MoveOrRemove {
            return;
        }
        // A pawn move offers a draw (the next player's move ends the game): the removals first, so
        // that the widening spends the visits of the young nodes on them.
        for (p, &id) in out.iter_mut().zip(ids) {
            if id_act(id).remove == NONE && p.is_finite() {
                *p -= MOVE_OFFERS_DRAW;
            }
        }
        if self.step_draws() {
            // One is enough (they all end the game alike): the widening lets few children in at
            // first, and the others must not crowd out the removals.
            if let Some(k) =
                (0..ids.len()).find(|&k| id_act(ids[k]).remove == NONE && out[k].is_finite())
            {
                out[k] = DRAW_AT_ONCE;
            }
        }
    }

    /// Whether a turn without a tile removal now would end the game in a stalemate draw (6.1).
    fn step_draws(&self) -> bool {
        let in_play = (0..self.players())
            .filter(|&s| self.seat[s] == super::SeatState::In)
            .count();
        self.streak as usize + 1 >= in_play
    }

    /// The pawn move of a movement turn as its group (the search chooses it first, then the removal).
    pub fn action_group_of(&self, id: u32) -> Option<u32> {
        (id < MOVE_IDS).then_some(id / SIDE)
    }

    /// Plays to the end with the robot's playout policy, seeded from `pick`.
    pub fn policy_playout_ids(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        played: Option<&mut Vec<(usize, u32)>>,
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(pick(usize::MAX) as u64);
        robot::playout_recording(self, &mut rng, played);
    }
}

// ---- Limit's knowledge for the search ------------------------------------------------------------

/// What a pawn move's prior loses under `-move_or_remove`, which puts it after every removal (a prior
/// is a few hundred at most either way: 10 a pawn, 48 pawns at most): a move offers the next player a
/// draw, a move of its own, so a player who means to win removes. Listed by their priors, the moves
/// (some ninety, against a few removals, and those that capture scored highest) came first into the
/// widening at every node (docs/robot.md, "Limit `-move_or_remove`").
const MOVE_OFFERS_DRAW: f32 = 1.0e4;

/// The prior of a turn that ends the game in a stalemate draw at once (under `-move_or_remove`): above
/// every other but a win. Listed among the first, such a reply is proven a draw at its first visit, so
/// a pawn move that lets the next player draw is scored as the draw it offers; found late (the priors
/// put captures first), it was not, and the robot moved into draws against a random player.
const DRAW_AT_ONCE: f32 = 1.0e6;

/// The prior of one legal movement turn for the generic search: [`prior`], or `f32::INFINITY` for a
/// turn that captures every pawn of the other colours and keeps one of the mover's (a win at once).
pub(crate) fn turn_prior(g: &Position, a: Act) -> f32 {
    let me = g.to_move;
    let c = g.config();
    let b = &g.board;
    match b.try_act(me, a, c.free_edges, c.can_isolate, g.restricted()) {
        Ok((m, _)) => {
            let others = (0..3).filter(|&s| s != me).all(|s| m.pawns[s] == 0);
            if others && m.pawns[me] != 0 {
                f32::INFINITY
            } else {
                robot::prior(b, &b.m, &m, me)
            }
        }
        Err(_) => f32::MIN,
    }
}

/// The playout policy under `-move_or_remove`: the best capture among every removal and a few random
/// moves, if any wins pawns; otherwise a random turn that loses none, but not a move that ends the game
/// in a stalemate draw (6.1) while a removal that loses nothing is legal. Without that rule most
/// playouts end in a draw within two turns (a move answered by a move), so every turn looks worth half
/// a point and the search takes the draw on offer instead of playing on (the robots drew every game on
/// move 1 or 2); and a player left with only losing removals takes the draw, as a player would.
pub(super) fn move_or_remove_act(g: &Position, rng: &mut ChaCha8Rng) -> Act {
    let acts = g.legal_acts();
    let me = g.to_move;
    let c = g.config();
    let rs = g.restricted();
    let m0 = g.board.m;
    let step_draws = g.step_draws();
    let gain = |a: Act| {
        g.board
            .try_act(me, a, c.free_edges, c.can_isolate, rs)
            .ok()
            .map(|(m, _)| robot::net_gain(&m0, &m, me))
    };
    let (removals, steps): (Vec<Act>, Vec<Act>) = acts.iter().partition(|a| a.from == NONE);
    let mut best: Option<(i32, Act)> = None;
    let mut consider = |a: Act| {
        if let Some(x) = gain(a)
            && best.is_none_or(|(b, _)| x > b)
        {
            best = Some((x, a));
        }
    };
    removals.iter().for_each(|&a| consider(a));
    for _ in 0..robot::CAPTURE_TRIES.min(steps.len() as u32) {
        consider(steps[robot::below(rng, steps.len())]);
    }
    if let Some((x, a)) = best
        && x > 0
    {
        return a;
    }
    // Removals are a few among many moves: drawn uniformly, a player would nearly always move, and the
    // other side, left to answer each move with a removal, would be trapped removing to the end. So
    // half the time a free player removes too.
    if step_draws || robot::below(rng, 2) == 0 {
        // A move now would end the game in a draw (or the coin said remove): play on with a removal
        // that loses nothing, if there is one; otherwise take the draw (as a player would) rather than
        // throw pawns away.
        let start = if removals.is_empty() {
            0
        } else {
            robot::below(rng, removals.len())
        };
        for k in 0..removals.len() {
            let a = removals[(start + k) % removals.len()];
            if gain(a).is_some_and(|x| x >= 0) {
                return a;
            }
        }
        if step_draws && !steps.is_empty() {
            return steps[robot::below(rng, steps.len())];
        }
    }
    for _ in 0..robot::SAFE_TRIES {
        let a = acts[robot::below(rng, acts.len())];
        if gain(a).is_some_and(|x| x >= 0) {
            return a;
        }
    }
    acts[robot::below(rng, acts.len())]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::limit::Config;

    #[test]
    fn ids_round_trip() {
        for a in [
            Act {
                from: 0,
                to: 63,
                remove: 5,
            },
            Act {
                from: NONE,
                to: NONE,
                remove: 0,
            },
            Act {
                from: 7,
                to: 9,
                remove: NONE,
            },
        ] {
            assert!(act_id(a) < MOVE_IDS);
            assert_eq!(id_act(act_id(a)), a);
        }
        for m in [
            Move::Lay {
                colour: TileColour::Black,
                at: 12097,
            },
            Move::Ball { at: 17 },
            Move::Pair {
                a: 12,
                b: 13,
                ball: Some(13),
            },
            Move::Pair {
                a: 12,
                b: 13,
                ball: Some(12),
            },
            Move::Pair {
                a: 1,
                b: 2,
                ball: None,
            },
        ] {
            let id = placement_id(&m).unwrap();
            assert!((MOVE_IDS..ACTION_SPACE).contains(&id));
            assert_eq!(id_placement(id), m);
        }
    }

    #[test]
    fn under_move_or_remove_one_turn_that_draws_at_once_comes_first() {
        let cfg =
            Config::from_options(&[crate::games::GameOption::flag("move_or_remove")]).unwrap();
        let mut g = Position::new(cfg, 2, 7).unwrap();
        let mut ids = Vec::new();
        let mut priors = Vec::new();
        // Before any turn a move draws nothing: no turn is marked.
        g.action_ids(&mut ids);
        g.action_prior_scores(&ids, &mut priors);
        assert!(!priors.contains(&DRAW_AT_ONCE));
        // After a pawn move alone, any pawn move of the reply ends the game in a draw: exactly one of
        // them is marked, and it is a move; the removals keep their own priors.
        let step = *ids.iter().find(|&&id| id_act(id).remove == NONE).unwrap();
        g.play_action_id(step);
        g.action_ids(&mut ids);
        g.action_prior_scores(&ids, &mut priors);
        let marked: Vec<usize> = (0..ids.len())
            .filter(|&k| priors[k] == DRAW_AT_ONCE)
            .collect();
        assert_eq!(marked.len(), 1, "{priors:?}");
        let mut h = g.clone();
        h.play_action_id(ids[marked[0]]);
        assert!(matches!(h.result(), Some(crate::games::Outcome::Draw(_))));
        for (k, &id) in ids.iter().enumerate() {
            if id_act(id).remove != NONE {
                assert_eq!(priors[k], turn_prior(&g, id_act(id)));
            }
        }
        // Without -move_or_remove nothing is marked.
        let g = Position::new(Config::default(), 2, 7).unwrap();
        g.action_ids(&mut ids);
        g.action_prior_scores(&ids, &mut priors);
        assert!(!priors.contains(&DRAW_AT_ONCE));
    }

    #[test]
    fn under_move_or_remove_the_removals_come_before_the_moves() {
        let cfg =
            Config::from_options(&[crate::games::GameOption::flag("move_or_remove")]).unwrap();
        let (mut ids, mut priors) = (Vec::new(), Vec::new());
        // Positions where, by the turns' own priors, some pawn move (a capture) would come before
        // some removal; the random games play removals so as not to draw.
        let mut seen = 0;
        for seed in 0..40 {
            let mut g = Position::new(cfg, 2, seed).unwrap();
            for ply in 0..30 {
                if g.phase() != Phase::Movement {
                    break;
                }
                g.action_ids(&mut ids);
                let (moves, removals): (Vec<u32>, Vec<u32>) =
                    ids.iter().partition(|&&id| id_act(id).remove == NONE);
                let best_move = moves
                    .iter()
                    .map(|&id| turn_prior(&g, id_act(id)))
                    .filter(|p| p.is_finite())
                    .fold(f32::MIN, f32::max);
                let worst_removal = removals
                    .iter()
                    .map(|&id| turn_prior(&g, id_act(id)))
                    .fold(f32::MAX, f32::min);
                if best_move > worst_removal {
                    seen += 1;
                    g.action_prior_scores(&ids, &mut priors);
                    let lowest_removal = (0..ids.len())
                        .filter(|&k| id_act(ids[k]).remove != NONE)
                        .map(|k| priors[k])
                        .fold(f32::MAX, f32::min);
                    for k in 0..ids.len() {
                        let p = priors[k];
                        if id_act(ids[k]).remove == NONE && p.is_finite() && p != DRAW_AT_ONCE {
                            assert!(p < lowest_removal, "seed {seed}: a move before a removal");
                        }
                    }
                }
                let pool = if removals.is_empty() {
                    &moves
                } else {
                    &removals
                };
                if pool.is_empty() {
                    break;
                }
                g.play_action_id(pool[(seed as usize * 7 + ply * 13) % pool.len()]);
            }
        }
        assert!(
            seen > 0,
            "no position where a move's prior beat a removal's"
        );
        // Without -move_or_remove the moves keep their priors.
        let g = Position::new(Config::default(), 2, 7).unwrap();
        g.action_ids(&mut ids);
        g.action_prior_scores(&ids, &mut priors);
        for (k, &id) in ids.iter().enumerate() {
            assert_eq!(priors[k], turn_prior(&g, id_act(id)));
        }
    }

    #[test]
    fn every_legal_move_has_an_id_in_every_phase() {
        for cfg in [
            Config::default(),
            Config::from_options(&[crate::games::GameOption::flag("manual")]).unwrap(),
            Config::from_options(&[crate::games::GameOption::flag("classic")]).unwrap(),
        ] {
            let g = Position::new(cfg, 2, 3).unwrap();
            let mut ids = Vec::new();
            g.action_ids(&mut ids);
            let mut texts: Vec<String> =
                ids.iter().map(|&i| g.action_move(i).to_string()).collect();
            texts.sort();
            let mut legal: Vec<String> = g.legal().iter().map(|m| m.to_string()).collect();
            legal.sort();
            assert_eq!(texts, legal);
            let mut h = g.clone();
            h.play_action_id(ids[0]);
            let mut k = g.clone();
            k.play_move(&g.action_move(ids[0])).unwrap();
            assert_eq!(h.board().m, k.board().m);
        }
    }
}

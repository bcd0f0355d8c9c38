//! The movement phase (5): the legal acts of the player to move, the check of a written move with the
//! reason it is refused, and applying an act with the endings that follow it (6.1, 6.2).

use std::ops::ControlFlow;

use super::{IllegalMove, Phase, Position, SeatState};
use crate::games::Outcome;
use crate::games::limit::board::{Act, NONE, Refusal, bit};
use crate::games::limit::notation::Move;
use crate::games::limit::options::Mode;

impl Position {
    /// True when the equaliser (5.5) forbids the player to move any capture on this turn.
    pub fn restricted(&self) -> bool {
        self.cfg.equaliser && self.to_move + 1 < self.players && !self.had_turn[self.to_move]
    }

    pub(super) fn has_pairs(&self) -> bool {
        let c = &self.cfg;
        self.board
            .pairs(
                self.to_move,
                c.free_edges,
                c.can_isolate,
                self.restricted(),
                &mut |_| ControlFlow::Break(()),
            )
            .is_break()
    }

    pub(super) fn has_steps(&self) -> bool {
        self.board
            .steps(self.to_move, self.restricted(), &mut |_| {
                ControlFlow::Break(())
            })
            .is_break()
    }

    /// Calls `f` with every legal act of the player to move under 5.2 and 5.4.
    pub(super) fn each_act(&self, f: &mut dyn FnMut(Act) -> ControlFlow<()>) -> ControlFlow<()> {
        let (me, c, rs) = (self.to_move, &self.cfg, self.restricted());
        match c.mode {
            Mode::MoveAndRemove => self.board.pairs(me, c.free_edges, c.can_isolate, rs, f),
            Mode::MoveOrRemove => {
                self.board.steps(me, rs, f)?;
                self.board.removals(me, c.free_edges, c.can_isolate, rs, f)
            }
            Mode::Both => {
                let mut found = false;
                self.board
                    .pairs(me, c.free_edges, c.can_isolate, rs, &mut |a| {
                        found = true;
                        f(a)
                    })?;
                if found {
                    return ControlFlow::Continue(());
                }
                self.board.steps(me, rs, &mut |a| {
                    found = true;
                    f(a)
                })?;
                if found {
                    return ControlFlow::Continue(());
                }
                self.board.removals(me, c.free_edges, c.can_isolate, rs, f)
            }
        }
    }

    pub(super) fn any_act(&self) -> bool {
        self.each_act(&mut |_| ControlFlow::Break(())).is_break()
    }

    /// Every legal movement act of the player to move (empty outside the movement phase).
    pub fn legal_acts(&self) -> Vec<Act> {
        let mut out = Vec::new();
        if self.phase == Phase::Movement {
            let _ = self.each_act(&mut |a| {
                out.push(a);
                ControlFlow::Continue(())
            });
        }
        out
    }

    /// The act in position numbers.
    pub fn act_move(&self, a: Act) -> Move {
        let n = |i: u8| self.board.num[i as usize];
        match (a.from, a.remove) {
            (NONE, r) => Move::Remove { tile: n(r) },
            (f, NONE) => Move::Step {
                from: n(f),
                to: n(a.to),
            },
            (f, r) => Move::Turn {
                from: n(f),
                to: n(a.to),
                remove: n(r),
            },
        }
    }

    /// Every legal move of the player to move, sorted; empty once the game is over.
    pub fn legal(&self) -> Vec<Move> {
        let mut v = match self.phase {
            Phase::Over => Vec::new(),
            Phase::Manual => self.manual_lays(),
            Phase::ClassicTiles => self.classic_pairs(),
            Phase::ClassicBalls => self.ball_spots(self.to_move),
            Phase::Movement => self
                .legal_acts()
                .into_iter()
                .map(|a| self.act_move(a))
                .collect(),
        };
        v.sort_unstable();
        v
    }

    pub(super) fn refusal(&self, r: Refusal, a: Act) -> IllegalMove {
        let n = |i: u8| self.board.num[i as usize];
        match r {
            Refusal::NotReachable => IllegalMove::NotReachable {
                from: n(a.from),
                to: n(a.to),
            },
            Refusal::RemoveOccupied => IllegalMove::RemoveOccupied(n(a.remove)),
            Refusal::FreeEdges { has } => IllegalMove::FreeEdges {
                tile: n(a.remove),
                has,
                need: self.cfg.free_edges,
            },
            Refusal::WouldIsolate => IllegalMove::WouldIsolate(n(a.remove)),
            Refusal::IsolateFree => IllegalMove::IsolateFree(n(a.remove)),
            Refusal::IsolateNone => IllegalMove::IsolateNone(n(a.remove)),
            Refusal::Equaliser => IllegalMove::Equaliser(self.side_title(self.to_move)),
        }
    }

    /// Checks a movement move and turns it into an act, with the reason when it is illegal.
    pub(super) fn check_movement(&self, mv: &Move) -> Result<Act, IllegalMove> {
        let me = self.to_move;
        let tile = |n: u32| self.board.tile_at(n).ok_or(IllegalMove::NotATile(n));
        let mut act = Act {
            from: NONE,
            to: NONE,
            remove: NONE,
        };
        let (step, remove) = match *mv {
            Move::Turn { from, to, remove } => (Some((from, to)), Some(remove)),
            Move::Step { from, to } => (Some((from, to)), None),
            Move::Remove { tile } => (None, Some(tile)),
            _ => {
                return Err(IllegalMove::Form(
                    "the tiles are all laid: in the movement phase write 3-7,4 (move the pawn on 3 to 7, then \
remove tile 4)"
                        .into(),
                ));
            }
        };
        if let Some((from, to)) = step {
            let f = tile(from)?;
            match self.board.m.owner(f) {
                None => return Err(IllegalMove::NoPawn(from)),
                Some(o) if o != me => {
                    return Err(IllegalMove::NotYourPawn {
                        at: from,
                        owner: self.side(o).name().into(),
                    });
                }
                _ => {}
            }
            let t = tile(to)?;
            if f == t {
                return Err(IllegalMove::SameTile);
            }
            if self.board.m.occupied() & bit(t) != 0 {
                return Err(IllegalMove::Occupied(to));
            }
            act.from = f as u8;
            act.to = t as u8;
        }
        if let Some(r) = remove {
            act.remove = tile(r)? as u8;
        }
        let c = &self.cfg;
        let example = || {
            self.legal_acts()
                .first()
                .map(|a| self.act_move(*a).to_string())
                .unwrap_or_default()
        };
        match (c.mode, step.is_some(), remove.is_some()) {
            (Mode::MoveOrRemove, true, true) => {
                return Err(IllegalMove::Form(
                    "under -move_or_remove a turn is a pawn move or a tile removal, not both: write 3-7 or x4".into(),
                ));
            }
            (Mode::MoveAndRemove, s, r) if !(s && r) => {
                return Err(IllegalMove::Form(format!(
                    "every turn {} both a pawn move and a tile removal: write it as from-to,tile (e.g. {})",
                    if c.classic {
                        "under -classic needs"
                    } else {
                        "under -move_and_remove needs"
                    },
                    example()
                )));
            }
            _ => {}
        }
        self.board
            .try_act(me, act, c.free_edges, c.can_isolate, self.restricted())
            .map_err(|r| self.refusal(r, act))?;
        match (c.mode, step.is_some(), remove.is_some()) {
            (Mode::Both, true, false) if self.has_pairs() => {
                return Err(IllegalMove::Form(format!(
                    "you can both move a pawn and remove a tile this turn, so you must: add the tile to remove \
(e.g. {})",
                    example()
                )));
            }
            (Mode::Both, false, true) if self.has_pairs() || self.has_steps() => {
                return Err(IllegalMove::Form(format!(
                    "a tile removal alone is allowed only when no pawn can move; this turn you can (e.g. {})",
                    example()
                )));
            }
            _ => {}
        }
        Ok(act)
    }

    /// Applies an act taken from [`Position::legal_acts`] for the player to move, then what follows
    /// it (the seats of the automatic entries are then [`Position::autos`]). This is the fast path
    /// for robots and playouts; [`Position::play_move`] is the checked one.
    ///
    /// # Panics
    /// If `act` is not legal.
    pub fn commit_act(&mut self, act: Act) {
        self.n_autos = 0;
        let me = self.to_move;
        let c = self.cfg;
        let (m, _) = self
            .board
            .try_act(me, act, c.free_edges, c.can_isolate, self.restricted())
            .expect("a checked act is legal");
        let before = self.in_seats();
        self.board.m = m;
        self.had_turn[me] = true;
        if act.remove == NONE {
            self.streak += 1;
        } else {
            self.streak = 0;
        }
        self.after_turn(me, &before);
        if self.phase != Phase::Over {
            self.to_move = self.next_in(me);
            self.advance();
        }
    }

    /// The endings of 6.1 and 6.2 after a movement turn.
    pub(super) fn after_turn(&mut self, mover: usize, before: &[usize]) {
        if self.board.m.occupied() == 0 {
            let outcome = if self.cfg.classic {
                Outcome::Winner(mover)
            } else if before.len() == 2 {
                Outcome::Winner(
                    before
                        .iter()
                        .copied()
                        .find(|&s| s != mover)
                        .unwrap_or(mover),
                )
            } else {
                Outcome::Draw(before.to_vec())
            };
            for &s in before {
                self.seat[s] = SeatState::Out;
            }
            self.finish(outcome);
            return;
        }
        for &s in before {
            if self.board.m.pawns[s] == 0 {
                self.seat[s] = SeatState::Out;
            }
        }
        let now = self.in_seats();
        if now.len() == 1 {
            self.finish(Outcome::Winner(now[0]));
        } else if !self.cfg.classic && self.streak as usize >= now.len() {
            self.finish(Outcome::Draw(now));
        }
    }
}

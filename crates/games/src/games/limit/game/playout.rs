//! Limit's own uniform random playout ([`crate::games::matchplay::Search::random_moves`]): turns
//! where both halves are possible are drawn by rejection, without listing them.

use super::{Phase, Position};
use crate::games::limit::board::{Act, bits};
use crate::games::limit::notation::Move;
use crate::games::limit::options::Mode;
use crate::games::matchplay::Entry;

impl Position {
    /// Plays random moves to the end, writing each move and the automatic entries after it onto
    /// `entries`; `pick(n)` chooses an index below `n`. Turns where both halves are possible are
    /// drawn by rejection from (pawn move, removable tile) pairs, which is uniform over the legal
    /// list without building it.
    pub fn random_entries(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        entries: &mut Vec<Entry<Move>>,
    ) {
        let mut steps: Vec<(u8, u8)> = Vec::with_capacity(256);
        let mut cand: Vec<u8> = Vec::with_capacity(64);
        loop {
            let me = self.to_move;
            let mv = match self.phase {
                Phase::Over => return,
                Phase::Movement if self.cfg.mode != Mode::MoveOrRemove => {
                    let b = &self.board;
                    let reach = b.reach(&b.m, b.m.pawns[me]);
                    steps.clear();
                    for f in bits(b.m.pawns[me]) {
                        for t in bits(reach[f]) {
                            steps.push((f as u8, t as u8));
                        }
                    }
                    cand.clear();
                    cand.extend(bits(b.removable(b.m.tiles, self.cfg.free_edges)).map(|t| t as u8));
                    let mut chosen = None;
                    if !steps.is_empty() && !cand.is_empty() {
                        let rs = self.restricted();
                        for _ in 0..48 {
                            let (f, t) = steps[pick(steps.len())];
                            let r = cand[pick(cand.len())];
                            let act = Act {
                                from: f,
                                to: t,
                                remove: r,
                            };
                            if self
                                .board
                                .try_act_reached(
                                    me,
                                    act,
                                    self.cfg.free_edges,
                                    self.cfg.can_isolate,
                                    rs,
                                )
                                .is_ok()
                            {
                                chosen = Some(act);
                                break;
                            }
                        }
                    }
                    let act = match chosen {
                        Some(a) => a,
                        None => {
                            let acts = self.legal_acts();
                            acts[pick(acts.len())]
                        }
                    };
                    let mv = self.act_move(act);
                    self.commit_act(act);
                    mv
                }
                Phase::Movement => {
                    let acts = self.legal_acts();
                    let act = acts[pick(acts.len())];
                    let mv = self.act_move(act);
                    self.commit_act(act);
                    mv
                }
                _ => {
                    let moves = self.legal();
                    let m = moves[pick(moves.len())];
                    self.play_move(&m).expect("a listed move is legal");
                    m
                }
            };
            entries.push(Entry::Moved { seat: me, mv });
            entries.extend(self.autos().iter().map(|&s| Entry::Passed {
                seat: usize::from(s),
            }));
        }
    }
}

//! Going back and forward over a game: replaying its move list, the position at an earlier move,
//! random playouts and perft.

use super::{Game, Phase};
use crate::games::limit::board::{Act, bits};
use crate::games::limit::options::{Config, Mode};
use crate::games::{MoveRecord, RuleError};

impl Game {
    /// Replays a move list from the start; auto entries are checked against what the engine applies.
    pub fn replay(
        cfg: Config,
        players: usize,
        seed: u64,
        records: &[MoveRecord],
        upto: usize,
    ) -> Result<Game, RuleError> {
        let mut g = Game::new(cfg, players, seed)?;
        for (k, r) in records.iter().enumerate() {
            if g.records.len() >= upto {
                break;
            }
            if g.records.len() > k {
                if g.records[k] != *r {
                    return Err(RuleError(format!(
                        "move {} of the list ({}) does not match what the rules give there ({})",
                        k + 1,
                        r.text,
                        g.records[k].text
                    )));
                }
                continue;
            }
            if r.auto {
                return Err(RuleError(format!(
                    "move {} of the list is an (Auto) {} that the rules do not give there",
                    k + 1,
                    r.text
                )));
            }
            if r.seat >= players {
                return Err(RuleError(format!(
                    "move {} is by seat {}, but only {players} play",
                    k + 1,
                    r.seat
                )));
            }
            let res = if r.text == "resign" || r.text == "forfeit" {
                g.leave(r.seat, &r.text)
            } else if r.text == "draw" {
                if g.phase == Phase::Over || g.to_move != r.seat {
                    return Err(RuleError(format!(
                        "move {} (draw) was not recorded under the seat to move",
                        k + 1
                    )));
                }
                g.agree_draw()
            } else {
                if g.phase == Phase::Over || g.to_move != r.seat {
                    return Err(RuleError(format!(
                        "move {} ({}) was not {}'s to make",
                        k + 1,
                        r.text,
                        g.side_title(r.seat)
                    )));
                }
                g.play_str(&r.text)
            };
            res.map_err(|e| RuleError(format!("move {} ({}) is illegal: {e}", k + 1, r.text)))?;
        }
        Ok(g)
    }

    /// The game as it stood when move `n` was awaited.
    pub fn at_move(&self, n: u32) -> Result<Game, RuleError> {
        let last = self.records.len() as u32 + 1;
        if n < 1 || n > last {
            return Err(RuleError(format!(
                "there is no move {n}: this game is at move {last}"
            )));
        }
        Game::replay(
            self.cfg,
            self.players,
            self.seed,
            &self.records,
            n as usize - 1,
        )
    }

    /// Plays random moves to the end; `pick(n)` chooses an index below `n`. Turns where both halves are
    /// possible are drawn by rejection from (pawn move, removable tile) pairs, which is uniform over the
    /// legal list without building it.
    pub fn playout(&mut self, pick: &mut dyn FnMut(usize) -> usize) -> u32 {
        let mut played = 0;
        let mut steps: Vec<(u8, u8)> = Vec::with_capacity(256);
        let mut cand: Vec<u8> = Vec::with_capacity(64);
        loop {
            match self.phase {
                Phase::Over => return played,
                Phase::Movement if self.cfg.mode != Mode::MoveOrRemove => {
                    let b = &self.board;
                    let me = self.to_move;
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
                    self.commit_act(act);
                }
                Phase::Movement => {
                    let acts = self.legal_acts();
                    let a = acts[pick(acts.len())];
                    self.commit_act(a);
                }
                _ => {
                    let moves = self.legal();
                    let m = moves[pick(moves.len())];
                    self.play_move(&m).expect("a listed move is legal");
                }
            }
            played += 1;
        }
    }

    /// The number of legal move sequences of length `depth`.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.phase == Phase::Movement {
            let acts = self.legal_acts();
            if depth == 1 {
                return acts.len() as u64;
            }
            return acts
                .iter()
                .map(|&a| {
                    let mut g = self.clone();
                    g.commit_act(a);
                    g.perft(depth - 1)
                })
                .sum();
        }
        let moves = self.legal();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|m| {
                let mut g = self.clone();
                g.play_move(m).expect("a listed move is legal");
                g.perft(depth - 1)
            })
            .sum()
    }
}

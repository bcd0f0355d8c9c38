//! Playing a move in any phase, and a seat leaving the game (resigning or losing on time).

use super::{IllegalMove, Phase, Position, SeatState, colour_index};
use crate::games::Outcome;
use crate::games::limit::board::bit;
use crate::games::limit::notation::Move;

impl Position {
    /// Plays a move for the player to move, then whatever the engine applies by itself (the seats
    /// of its automatic entries are then [`Position::autos`]).
    pub fn play_move(&mut self, mv: &Move) -> Result<(), IllegalMove> {
        let s = self.to_move;
        match (self.phase, mv) {
            (Phase::Over, _) => Err(IllegalMove::GameOver),
            (Phase::Movement, _) => {
                let act = self.check_movement(mv)?;
                self.commit_act(act);
                Ok(())
            }
            (Phase::Manual, Move::Lay { colour, at }) => {
                self.manual_check(*colour, *at)?;
                self.board.add(*at, *colour);
                self.tiles_left[colour_index(*colour)] -= 1;
                self.to_move = self.next_in(s);
                self.n_autos = 0;
                self.advance();
                Ok(())
            }
            (Phase::Manual, _) => Err(IllegalMove::Form(
                "this is the placement phase: lay one tile, written colour letter and position, e.g. r3 (r, b, g, \
k = red, blue, green, black)"
                    .into(),
            )),
            (Phase::ClassicTiles, Move::Pair { a, b, ball }) => {
                let (a, b) = (*a, *b);
                for x in [a, b] {
                    if self.board.index_of(x).is_some() {
                        return Err(IllegalMove::TileThere(x));
                    }
                }
                if !self.pair_order_ok(a, b) {
                    if self.board.laid() == 0 && a != 1 && b != 1 {
                        return Err(IllegalMove::FirstAtOne);
                    }
                    let need = self.need(self.board.laid()).max(1);
                    return Err(IllegalMove::PairOrder { a, b, need });
                }
                let bd = self.pair_board(a, b);
                match ball {
                    Some(x) => {
                        if self.in_box[s] == 0 {
                            return Err(IllegalMove::Ball { at: *x, why: "you have no ball left in the box".into() });
                        }
                        Self::ball_check(&bd, s, bd.index_of(*x).expect("laid"))
                            .map_err(|why| IllegalMove::Ball { at: *x, why })?;
                    }
                    None => {
                        if let Some(m) = self.classic_pairs().iter().find(|m| matches!(m, Move::Pair { ball: Some(_), .. })) {
                            return Err(IllegalMove::BallCompulsory(m.to_string()));
                        }
                    }
                }
                self.board = bd;
                if let Some(x) = ball {
                    let i = self.board.index_of(*x).expect("laid");
                    self.board.m.pawns[s] |= bit(i);
                    self.in_box[s] -= 1;
                }
                self.tiles_left[4] -= 2;
                self.to_move = self.next_in(s);
                self.n_autos = 0;
                self.advance();
                Ok(())
            }
            (Phase::ClassicTiles, _) => Err(IllegalMove::Form(
                "this is the classic placement phase: lay two tiles and a ball, e.g. 12,13@13 (or 12,13 when no \
ball is possible)"
                    .into(),
            )),
            (Phase::ClassicBalls, Move::Ball { at }) => {
                let t = self.board.tile_at(*at).ok_or(IllegalMove::NotATile(*at))?;
                if self.in_box[s] == 0 {
                    return Err(IllegalMove::Ball { at: *at, why: "you have no ball left in the box".into() });
                }
                Self::ball_check(&self.board, s, t).map_err(|why| IllegalMove::Ball { at: *at, why })?;
                self.board.m.pawns[s] |= bit(t);
                self.in_box[s] -= 1;
                self.to_move = self.next_in(s);
                self.n_autos = 0;
                self.advance();
                Ok(())
            }
            (Phase::ClassicBalls, _) => Err(IllegalMove::Form(
                "the tiles are all laid: put one ball on an empty tile, e.g. @17".into(),
            )),
        }
    }

    /// Parses and plays a move; a `#N` guard is accepted and ignored (the server checks it).
    pub fn play_str(&mut self, text: &str) -> Result<(), IllegalMove> {
        let (mv, _) = Move::parse(text)?;
        self.play_move(&mv)
    }

    /// Seat `s` leaves the game (it resigned or lost on time): its pawns leave the board and the
    /// game goes on without it while two seats remain; the seats of the automatic entries that
    /// follow are then [`Position::autos`].
    pub fn leave(&mut self, s: usize) -> Result<(), IllegalMove> {
        if self.phase == Phase::Over {
            return Err(IllegalMove::GameOver);
        }
        if s >= self.players || self.seat[s] != SeatState::In {
            return Err(IllegalMove::AlreadyOut(if s < self.players {
                self.side_title(s)
            } else {
                format!("seat {s}")
            }));
        }
        self.n_autos = 0;
        self.seat[s] = SeatState::Resigned;
        self.board.m.pawns[s] = 0;
        let now = self.in_seats();
        if now.len() == 1 {
            self.finish(Outcome::Winner(now[0]));
            return Ok(());
        }
        if self.phase == Phase::Movement && self.streak as usize >= now.len() {
            self.finish(Outcome::Draw(now));
            return Ok(());
        }
        if self.to_move == s {
            self.to_move = self.next_in(s);
        }
        self.advance();
        Ok(())
    }
}

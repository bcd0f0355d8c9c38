//! The placement phases: where a tile may be laid (4.1, 4.2), the classic pairs and balls (4.3).

use super::{COLOURS, IllegalMove, Phase, Position, colour_index};
use crate::games::limit::board::{Board, bit, bits};
use crate::games::limit::geom;
use crate::games::limit::notation::Move;
use crate::games::limit::view::TileColour;

impl Position {
    pub(super) fn need(&self, laid_before: usize) -> u32 {
        match laid_before {
            0 => 0,
            1 => 1,
            _ => self.cfg.must_touch,
        }
    }

    /// Empty cells next to the board (or position 1 on an empty board), plus those next to `extra`.
    pub(super) fn frontier(&self, extra: Option<u32>) -> Vec<u32> {
        if self.board.laid() == 0 && extra.is_none() {
            return vec![1];
        }
        let mut out: Vec<u32> = Vec::new();
        let mut from: Vec<u32> = bits(self.board.m.tiles)
            .map(|i| self.board.num[i])
            .collect();
        from.extend(extra);
        for n in from {
            for x in geom::neighbours(n) {
                if self.board.index_of(x).is_none() && Some(x) != extra && !out.contains(&x) {
                    out.push(x);
                }
            }
        }
        out.sort_unstable();
        out
    }

    /// Checks laying one tile at `at`, with `extra` laid just before it (classic pairs).
    pub(super) fn lay_check(&self, at: u32, extra: Option<u32>) -> Result<(), IllegalMove> {
        if self.board.index_of(at).is_some() || Some(at) == extra {
            return Err(IllegalMove::TileThere(at));
        }
        let before = self.board.laid() + extra.is_some() as usize;
        if before == 0 {
            return if at == 1 {
                Ok(())
            } else {
                Err(IllegalMove::FirstAtOne)
            };
        }
        let touches = self.board.touching(at) + extra.is_some_and(|e| geom::adjacent(e, at)) as u32;
        let need = self.need(before).max(1);
        if touches < need {
            return Err(IllegalMove::MustTouch { at, touches, need });
        }
        Ok(())
    }

    pub(super) fn manual_check(&self, colour: TileColour, at: u32) -> Result<(), IllegalMove> {
        if colour == TileColour::Plain || self.tiles_left[colour_index(colour)] == 0 {
            return Err(IllegalMove::NoTilesLeft(colour.name().into()));
        }
        self.lay_check(at, None)?;
        let same = geom::neighbours(at).iter().any(|&x| {
            self.board
                .tile_at(x)
                .is_some_and(|i| self.board.colour[i] == colour)
        });
        if same {
            return Err(IllegalMove::SameColour {
                colour: colour.name().into(),
                at,
            });
        }
        Ok(())
    }

    /// Every legal manual placement.
    pub(super) fn manual_lays(&self) -> Vec<Move> {
        let mut out = Vec::new();
        for at in self.frontier(None) {
            for c in &COLOURS[..4] {
                if self.manual_check(*c, at).is_ok() {
                    out.push(Move::Lay { colour: *c, at });
                }
            }
        }
        out
    }

    /// The ball constraints of 4.3 for a ball of seat `s` on tile index `t` of `b`.
    pub(super) fn ball_check(b: &Board, s: usize, t: usize) -> Result<(), String> {
        if b.m.occupied() & bit(t) != 0 {
            return Err("a ball already stands there".into());
        }
        if b.nb[t] & b.m.pawns[s] != 0 {
            return Err("it would touch another ball of the same colour".into());
        }
        let mut m = b.m;
        m.pawns[s] |= bit(t);
        let empty = m.empty();
        if b.nb[t] & empty == 0 {
            return Err("the ball would have no empty neighbouring tile".into());
        }
        for p in bits(b.nb[t] & m.occupied()) {
            if b.nb[p] & empty == 0 {
                return Err(format!(
                    "it would take the last empty neighbour of the ball on {}",
                    b.num[p]
                ));
            }
        }
        Ok(())
    }

    pub(super) fn pair_board(&self, a: u32, b: u32) -> Board {
        let mut bd = self.board.clone();
        bd.add(a, TileColour::Plain);
        bd.add(b, TileColour::Plain);
        bd
    }

    pub(super) fn pair_order_ok(&self, a: u32, b: u32) -> bool {
        (self.lay_check(a, None).is_ok() && self.lay_check(b, Some(a)).is_ok())
            || (self.lay_check(b, None).is_ok() && self.lay_check(a, Some(b)).is_ok())
    }

    /// Every legal classic pair (with a ball when any pair admits one).
    pub(super) fn classic_pairs(&self) -> Vec<Move> {
        if self.tiles_left[4] < 2 {
            return Vec::new();
        }
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        for x in self.frontier(None) {
            if self.lay_check(x, None).is_err() {
                continue;
            }
            for y in self.frontier(Some(x)) {
                if self.lay_check(y, Some(x)).is_ok() {
                    let p = (x.min(y), x.max(y));
                    if !pairs.contains(&p) {
                        pairs.push(p);
                    }
                }
            }
        }
        pairs.sort_unstable();
        let s = self.to_move;
        let mut with_ball = Vec::new();
        if self.in_box[s] > 0 {
            for &(a, b) in &pairs {
                let bd = self.pair_board(a, b);
                for x in [a, b] {
                    if Self::ball_check(&bd, s, bd.index_of(x).expect("laid")).is_ok() {
                        with_ball.push(Move::Pair {
                            a,
                            b,
                            ball: Some(x),
                        });
                    }
                }
            }
        }
        if !with_ball.is_empty() {
            return with_ball;
        }
        pairs
            .into_iter()
            .map(|(a, b)| Move::Pair { a, b, ball: None })
            .collect()
    }

    pub(super) fn ball_spots(&self, s: usize) -> Vec<Move> {
        if self.in_box[s] == 0 {
            return Vec::new();
        }
        bits(self.board.m.empty())
            .filter(|&t| Self::ball_check(&self.board, s, t).is_ok())
            .map(|t| Move::Ball {
                at: self.board.num[t],
            })
            .collect()
    }

    /// The cells where a tile may be laid now (placement phases only).
    pub fn open_cells(&self) -> Vec<u32> {
        let mut v: Vec<u32> = match self.phase {
            Phase::Manual => self
                .manual_lays()
                .iter()
                .filter_map(|m| match m {
                    Move::Lay { at, .. } => Some(*at),
                    _ => None,
                })
                .collect(),
            Phase::ClassicTiles => self
                .classic_pairs()
                .iter()
                .flat_map(|m| match m {
                    Move::Pair { a, b, .. } => vec![*a, *b],
                    _ => vec![],
                })
                .collect(),
            _ => Vec::new(),
        };
        v.sort_unstable();
        v.dedup();
        v
    }
}

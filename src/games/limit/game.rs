//! One game of Limit: the phases, whose turn, the endings (section 6) and the move list.

use std::ops::ControlFlow;

use serde::{Deserialize, Serialize};

use super::board::{Act, Board, NONE, Refusal, bit, bits};
use super::geom;
use super::layout::{self, pawn_colour};
use super::notation::{Move, ParseError};
use super::options::{Config, Mode};
use super::view::{Side, TileColour};
use crate::games::{MoveRecord, Outcome, RuleError};

/// The stage a game is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Manual placement (4.2): one tile per turn.
    Manual,
    /// Classic placement (4.3): two tiles and a ball per turn.
    ClassicTiles,
    /// Classic placement once the tiles are laid: one ball per turn.
    ClassicBalls,
    /// The movement phase (5).
    Movement,
    /// The game is over.
    Over,
}

/// Whether a seat is still playing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatState {
    /// Still playing.
    In,
    /// Out: no pawns left on the board.
    Out,
    /// Resigned.
    Resigned,
    /// Eliminated for want of a legal turn (`-move_and_remove`, `-classic`).
    Eliminated,
}

/// Why a move is refused. Every message says what is wrong and, where it helps, how to write it right.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The text is not a move.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// Nobody moves any more.
    #[error("the game is over: no more moves can be played")]
    GameOver,
    /// The move's form does not belong to this phase or this turn.
    #[error("{0}")]
    Form(String),
    /// No tile stands at the position.
    #[error("position {0} has no tile")]
    NotATile(u32),
    /// No pawn stands on the tile.
    #[error("there is no pawn on {0}")]
    NoPawn(u32),
    /// Another player's pawn.
    #[error("the pawn on {at} is {owner}, not yours")]
    NotYourPawn {
        /// Where.
        at: u32,
        /// Its colour.
        owner: String,
    },
    /// The destination holds a pawn.
    #[error("tile {0} is occupied: a pawn moves to an empty tile")]
    Occupied(u32),
    /// A move to the tile it starts on.
    #[error("the pawn must move to a different tile")]
    SameTile,
    /// No path of empty tiles.
    #[error(
        "the pawn on {from} cannot reach {to}: pawns move only by steps between adjacent empty tiles"
    )]
    NotReachable {
        /// Start.
        from: u32,
        /// Destination.
        to: u32,
    },
    /// The tile to remove is occupied.
    #[error("tile {0} has a pawn on it (after your pawn move): only an empty tile can be removed")]
    RemoveOccupied(u32),
    /// Too few free edges.
    #[error("tile {tile} has {has} free edge(s); a tile needs at least {need} to be removed")]
    FreeEdges {
        /// The tile.
        tile: u32,
        /// Its free edges.
        has: u32,
        /// The `-free_edges` value.
        need: u32,
    },
    /// `-no_isolate`.
    #[error(
        "removing tile {0} would cut off pawns from the rest of the board, which -no_isolate forbids"
    )]
    WouldIsolate(u32),
    /// `-can_isolate`, several parts with free pawns.
    #[error(
        "removing tile {0} would cut the board into parts of which more than one holds pawns with a freedom; -can_isolate allows a cut only when the pawns of all parts but one have no freedom"
    )]
    IsolateFree(u32),
    /// `-can_isolate`, no part with a free pawn.
    #[error(
        "removing tile {0} would cut the board into parts none of which keeps a pawn with a freedom"
    )]
    IsolateNone(u32),
    /// 5.5.
    #[error(
        "the first-move equaliser forbids this turn: it would capture, and {0}'s first turn may capture nothing"
    )]
    Equaliser(String),
    /// A tile is already there.
    #[error("position {0} already has a tile")]
    TileThere(u32),
    /// The first tile.
    #[error("the first tile is laid at position 1")]
    FirstAtOne,
    /// `-must_touch`.
    #[error("a tile at {at} would touch {touches} tile(s); it must touch at least {need}")]
    MustTouch {
        /// Where.
        at: u32,
        /// Tiles it would touch.
        touches: u32,
        /// Required.
        need: u32,
    },
    /// Two tiles of one colour side by side.
    #[error("a {colour} tile at {at} would touch another {colour} tile")]
    SameColour {
        /// The colour.
        colour: String,
        /// Where.
        at: u32,
    },
    /// The colour has run out.
    #[error("no {0} tiles are left")]
    NoTilesLeft(String),
    /// Two tiles that cannot be laid in either order.
    #[error(
        "tiles {a} and {b} cannot be laid in either order: each must touch at least {need} tile(s) when it is laid (the first of the two counts for the second)"
    )]
    PairOrder {
        /// One tile.
        a: u32,
        /// The other.
        b: u32,
        /// `-must_touch` (or 1 for the second tile of the game).
        need: u32,
    },
    /// A ball constraint of 4.3.
    #[error("a ball on {at} is not allowed: {why}")]
    Ball {
        /// Where.
        at: u32,
        /// Which constraint.
        why: String,
    },
    /// 4.3: the ball is compulsory.
    #[error("a ball must go with the two tiles whenever some pair of tiles admits one (e.g. {0})")]
    BallCompulsory(String),
    /// A seat already out cannot resign again.
    #[error("{0} is no longer in the game")]
    AlreadyOut(String),
}

impl From<IllegalMove> for RuleError {
    fn from(e: IllegalMove) -> Self {
        RuleError(e.to_string())
    }
}

fn colour_index(c: TileColour) -> usize {
    match c {
        TileColour::Red => 0,
        TileColour::Blue => 1,
        TileColour::Green => 2,
        TileColour::Black => 3,
        TileColour::Plain => 4,
    }
}

const COLOURS: [TileColour; 5] = [
    TileColour::Red,
    TileColour::Blue,
    TileColour::Green,
    TileColour::Black,
    TileColour::Plain,
];

/// A game of Limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    pub(crate) cfg: Config,
    pub(crate) players: usize,
    pub(crate) seed: u64,
    pub(crate) board: Board,
    pub(crate) phase: Phase,
    pub(crate) to_move: usize,
    /// Tiles not yet laid, by colour index (red, blue, green, black, plain).
    pub(crate) tiles_left: [u32; 5],
    pub(crate) set_aside: u32,
    pub(crate) in_box: [u32; 3],
    /// Pawns kept in the box at the end of manual placement because their tile had no pawnless neighbour.
    pub(crate) held_back: [u32; 3],
    pub(crate) seat: [SeatState; 3],
    pub(crate) had_turn: [bool; 3],
    /// Consecutive movement turns without a tile removal (6.1 stalemate).
    pub(crate) streak: u32,
    pub(crate) result: Option<Outcome>,
    pub(crate) records: Vec<MoveRecord>,
}

impl Game {
    /// Starts a game. Under the default rules the server lays the tiles at once (4.1).
    pub fn new(cfg: Config, players: usize, seed: u64) -> Result<Game, RuleError> {
        if !(2..=3).contains(&players) {
            return Err(RuleError(format!(
                "Limit is played by 2 or 3 players, not {players}"
            )));
        }
        let n = cfg.size;
        let mut g = Game {
            cfg,
            players,
            seed,
            board: Board::default(),
            phase: Phase::Movement,
            to_move: 0,
            tiles_left: [0; 5],
            set_aside: 0,
            in_box: [0; 3],
            held_back: [0; 3],
            seat: [
                SeatState::In,
                SeatState::In,
                if players == 3 {
                    SeatState::In
                } else {
                    SeatState::Out
                },
            ],
            had_turn: [false; 3],
            streak: 0,
            result: None,
            records: Vec::new(),
        };
        for s in 0..players {
            g.in_box[s] = n;
        }
        if cfg.classic {
            g.phase = Phase::ClassicTiles;
            g.tiles_left[4] = 4 * n;
        } else if cfg.manual {
            g.phase = Phase::Manual;
            g.tiles_left = [n, n, n, n, 0];
        } else {
            for (num, c) in layout::random_layout(seed, n, players, cfg.must_touch) {
                let i = g.board.add(num, c);
                let ci = colour_index(c);
                if ci < players {
                    g.board.m.pawns[ci] |= bit(i);
                    g.in_box[ci] -= 1;
                }
            }
            g.start_movement();
        }
        g.advance();
        Ok(g)
    }

    /// The rules in force.
    pub fn config(&self) -> &Config {
        &self.cfg
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        self.players
    }

    /// The current phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The tiles and pawns.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The seat to move, or `None` once the game is over.
    pub fn to_move(&self) -> Option<usize> {
        (self.phase != Phase::Over).then_some(self.to_move)
    }

    /// How the game ended, if it has.
    pub fn result(&self) -> Option<&Outcome> {
        self.result.as_ref()
    }

    /// The move list.
    pub fn records(&self) -> &[MoveRecord] {
        &self.records
    }

    /// Each seat's standing.
    pub fn seat_state(&self, s: usize) -> SeatState {
        self.seat[s]
    }

    /// Pawns of seat `s` in the box.
    pub fn in_box(&self, s: usize) -> u32 {
        self.in_box[s]
    }

    /// The side a seat plays.
    pub fn side(&self, s: usize) -> Side {
        if self.cfg.classic {
            [Side::White, Side::Red, Side::Black][s]
        } else {
            [Side::Red, Side::Blue, Side::Green][s]
        }
    }

    pub(crate) fn side_title(&self, s: usize) -> String {
        let n = self.side(s).name();
        let mut c = n.chars();
        c.next()
            .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
            .unwrap_or_default()
    }

    fn in_seats(&self) -> Vec<usize> {
        (0..self.players)
            .filter(|&s| self.seat[s] == SeatState::In)
            .collect()
    }

    fn next_in(&self, from: usize) -> usize {
        for k in 1..=self.players {
            let s = (from + k) % self.players;
            if self.seat[s] == SeatState::In {
                return s;
            }
        }
        from
    }

    fn first_in(&self) -> usize {
        self.next_in(self.players - 1)
    }

    fn finish(&mut self, outcome: Outcome) {
        self.result = Some(outcome);
        self.phase = Phase::Over;
    }

    fn auto(&mut self, seat: usize, text: &str) {
        self.records.push(MoveRecord {
            seat,
            text: text.to_string(),
            auto: true,
        });
    }

    /// Puts the pawns out at the end of manual placement (4.2) and starts the movement phase.
    fn end_manual(&mut self) {
        self.set_aside = self.tiles_left.iter().sum();
        self.tiles_left = [0; 5];
        let tiles = self.board.m.tiles;
        for i in bits(tiles) {
            let c = self.board.colour[i];
            let ci = colour_index(c);
            if ci >= self.players || self.seat[ci] != SeatState::In {
                continue;
            }
            let free = bits(self.board.nb[i] & tiles)
                .any(|j| !pawn_colour(self.board.colour[j], self.players));
            if free {
                self.board.m.pawns[ci] |= bit(i);
                self.in_box[ci] -= 1;
            } else {
                self.held_back[ci] += 1;
            }
        }
        self.start_movement();
    }

    fn start_movement(&mut self) {
        self.phase = Phase::Movement;
        let before = self.in_seats();
        for &s in &before {
            if self.board.m.pawns[s] == 0 {
                self.seat[s] = SeatState::Out;
            }
        }
        let now = self.in_seats();
        match now.len() {
            0 => self.finish(Outcome::Draw(before)),
            1 => self.finish(Outcome::Winner(now[0])),
            _ => self.to_move = self.first_in(),
        }
    }

    /// Applies whatever is due before the player to move can act: ends of phases, passes, eliminations.
    fn advance(&mut self) {
        loop {
            match self.phase {
                Phase::Over => return,
                Phase::Manual => {
                    if self.manual_lays().is_empty() {
                        self.end_manual();
                        continue;
                    }
                    return;
                }
                Phase::ClassicTiles => {
                    if self.classic_pairs().is_empty() {
                        self.set_aside = self.tiles_left[4];
                        self.tiles_left[4] = 0;
                        self.phase = Phase::ClassicBalls;
                        continue;
                    }
                    return;
                }
                Phase::ClassicBalls => {
                    let anyone = self
                        .in_seats()
                        .into_iter()
                        .any(|s| !self.ball_spots(s).is_empty());
                    if !anyone {
                        self.start_movement();
                        continue;
                    }
                    let s = self.to_move;
                    if self.in_box[s] == 0 {
                        self.to_move = self.next_in(s);
                    } else if self.ball_spots(s).is_empty() {
                        self.auto(s, "pass");
                        self.to_move = self.next_in(s);
                    } else {
                        return;
                    }
                }
                Phase::Movement => {
                    if self.any_act() {
                        return;
                    }
                    let s = self.to_move;
                    if self.cfg.mode == Mode::MoveAndRemove {
                        self.auto(s, "eliminated");
                        self.seat[s] = SeatState::Eliminated;
                        self.board.m.pawns[s] = 0;
                        let now = self.in_seats();
                        if now.len() == 1 {
                            self.finish(Outcome::Winner(now[0]));
                        } else {
                            self.to_move = self.next_in(s);
                        }
                    } else {
                        self.auto(s, "pass");
                        self.had_turn[s] = true;
                        self.streak += 1;
                        self.to_move = self.next_in(s);
                        let now = self.in_seats();
                        if self.streak as usize >= now.len() {
                            self.finish(Outcome::Draw(now));
                        }
                    }
                }
            }
        }
    }

    /// Runs the automatic steps (passes, eliminations, phase ends) on a hand-built position.
    #[cfg(test)]
    pub(crate) fn advance_for_test(&mut self) {
        self.advance();
    }

    /// Runs the end-of-turn checks on a hand-built position.
    #[cfg(test)]
    pub(crate) fn finish_turn_for_test(&mut self, mover: usize, before: &[usize]) {
        self.after_turn(mover, before);
    }

    // ---- placement -------------------------------------------------------------------------------

    fn need(&self, laid_before: usize) -> u32 {
        match laid_before {
            0 => 0,
            1 => 1,
            _ => self.cfg.must_touch,
        }
    }

    /// Empty cells next to the board (or position 1 on an empty board), plus those next to `extra`.
    fn frontier(&self, extra: Option<u32>) -> Vec<u32> {
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
    fn lay_check(&self, at: u32, extra: Option<u32>) -> Result<(), IllegalMove> {
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

    fn manual_check(&self, colour: TileColour, at: u32) -> Result<(), IllegalMove> {
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
    fn manual_lays(&self) -> Vec<Move> {
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
    fn ball_check(b: &Board, s: usize, t: usize) -> Result<(), String> {
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

    fn pair_board(&self, a: u32, b: u32) -> Board {
        let mut bd = self.board.clone();
        bd.add(a, TileColour::Plain);
        bd.add(b, TileColour::Plain);
        bd
    }

    fn pair_order_ok(&self, a: u32, b: u32) -> bool {
        (self.lay_check(a, None).is_ok() && self.lay_check(b, Some(a)).is_ok())
            || (self.lay_check(b, None).is_ok() && self.lay_check(a, Some(b)).is_ok())
    }

    /// Every legal classic pair (with a ball when any pair admits one).
    fn classic_pairs(&self) -> Vec<Move> {
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

    fn ball_spots(&self, s: usize) -> Vec<Move> {
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

    // ---- movement --------------------------------------------------------------------------------

    /// True when the equaliser (5.5) forbids the player to move any capture on this turn.
    pub fn restricted(&self) -> bool {
        self.cfg.equaliser && self.to_move + 1 < self.players && !self.had_turn[self.to_move]
    }

    fn has_pairs(&self) -> bool {
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

    fn has_steps(&self) -> bool {
        self.board
            .steps(self.to_move, self.restricted(), &mut |_| {
                ControlFlow::Break(())
            })
            .is_break()
    }

    /// Calls `f` with every legal act of the player to move under 5.2 and 5.4.
    fn each_act(&self, f: &mut dyn FnMut(Act) -> ControlFlow<()>) -> ControlFlow<()> {
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

    fn any_act(&self) -> bool {
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

    fn refusal(&self, r: Refusal, a: Act) -> IllegalMove {
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
    fn check_movement(&self, mv: &Move) -> Result<Act, IllegalMove> {
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

    /// Applies an act taken from [`Game::legal_acts`] for the player to move, then what follows it. This is
    /// the fast path for robots and playouts; [`Game::play_move`] is the checked one.
    ///
    /// # Panics
    /// If `act` is not legal.
    pub fn commit_act(&mut self, act: Act) {
        self.apply_act(act, true);
    }

    /// [`Game::commit_act`] without the move-list entry, for the robot's searches: their copies of the game
    /// are never shown, and writing the move's text is a good part of a playout's time.
    pub(crate) fn commit_act_unrecorded(&mut self, act: Act) {
        self.apply_act(act, false);
    }

    fn apply_act(&mut self, act: Act, record: bool) {
        let me = self.to_move;
        let c = self.cfg;
        let (m, _) = self
            .board
            .try_act(me, act, c.free_edges, c.can_isolate, self.restricted())
            .expect("a checked act is legal");
        if record {
            let text = self.act_move(act).to_string();
            self.records.push(MoveRecord {
                seat: me,
                text,
                auto: false,
            });
        }
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
    fn after_turn(&mut self, mover: usize, before: &[usize]) {
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

    // ---- playing ---------------------------------------------------------------------------------

    /// Plays a move for the player to move, then whatever the engine applies by itself.
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
                self.records.push(MoveRecord { seat: s, text: mv.to_string(), auto: false });
                self.to_move = self.next_in(s);
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
                self.records.push(MoveRecord { seat: s, text: mv.to_string(), auto: false });
                self.to_move = self.next_in(s);
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
                self.records.push(MoveRecord { seat: s, text: mv.to_string(), auto: false });
                self.to_move = self.next_in(s);
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

    /// Seat `s` resigns: their pawns leave the board and the game goes on without them if two remain.
    pub fn resign(&mut self, s: usize) -> Result<(), IllegalMove> {
        self.leave(s, "resign")
    }

    /// Seat `s` loses on time (the server's forfeit clock): as a resignation, but the move list says
    /// `forfeit`, so that everyone reading it knows why.
    pub fn forfeit(&mut self, s: usize) -> Result<(), IllegalMove> {
        self.leave(s, "forfeit")
    }

    /// The players still in agree to a draw: the game ends as a draw between them. Recorded as `draw`
    /// under the seat to move.
    pub fn agree_draw(&mut self) -> Result<(), IllegalMove> {
        if self.phase == Phase::Over {
            return Err(IllegalMove::GameOver);
        }
        self.records.push(MoveRecord {
            seat: self.to_move,
            text: "draw".into(),
            auto: false,
        });
        let seats = self.in_seats();
        self.finish(Outcome::Draw(seats));
        Ok(())
    }

    /// A seat leaves the game (`resign` or `forfeit`, as the move list records it).
    fn leave(&mut self, s: usize, how: &str) -> Result<(), IllegalMove> {
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
        self.records.push(MoveRecord {
            seat: s,
            text: how.into(),
            auto: false,
        });
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

//! One move record for every game (issue 36, section 1): [`Match`] keeps the move list (moves, the
//! engine's automatic passes, resignations, forfeits, an agreed draw), answers `status`, `moves`,
//! `at_move` (by replaying from the start) and writes and reads the stored document, for any game
//! whose rules are a [`Rules`] position. A game is then a position (its rules, [`Rules`]), a notation
//! ([`Rules::read_here`], [`Rules::write_here`]) and a view ([`View`]); [`Search`] holds the robot's optional
//! hooks. `Match<G>` implements [`GameState`] for all of them, so the server, the records and the
//! search take such a game as they take any other.
//!
//! All eleven games are on it. Limit, of two or three players, is why a seat may leave a game that
//! goes on ([`Rules::seat_left`], `seats.rs`), why the engine's passes may fall to any seat
//! ([`Rules::pass_seat`], also at the start: [`Rules::start_passes`]) and why an agreed draw is
//! between the seats still in ([`Rules::draw_agreed`]).
//!
//! The document is `{"game": "othello", "moves": ["f5", "resign 1"], <the options>}`: each option
//! of [`Rules::options`] a key (`"size": 8`, a flag `true`), the entries in order: a move in the
//! game's notation, `resign N` or `forfeit N` (seat N left), `draw` (the engine's passes are not
//! stored: replaying the moves makes them again). Cups's documents have this shape already, and
//! Ataxx's but for a `status` line for people (skipped on reading). Go keeps its older shape byte
//! for byte through [`Rules::document`] (its keys in their order, its status line) and writes the
//! side before an act of its scoring step ([`Rules::write_stored`]: `white dead d4`).
//!
//! Seats that act out of turn (Go's scoring step after two passes, where either player marks dead
//! stones or accepts) rest on optional hooks, each a no-op by default: [`Rules::mover`] (whose
//! entry a move is), [`Rules::acts_out_of_turn`], [`Rules::read_by`] (a move sent by a named
//! seat, `scoring.rs`), [`Search::robot_answer`] (a robot's move that needs no search) and
//! [`Search::robot_game`] (the game a robot searches instead: Go's under the spec's rules); the
//! board mail's [`View::entry_news`], [`View::waiting_note`] and [`View::score_result`] forward to
//! the same-named methods of [`GameState`].

use std::ops::Deref;
use std::sync::{Arc, OnceLock};

use serde_json::{Map, Value};

use super::{
    Board, GameOption, GameState, Loss, MoveRecord, Outcome, Robot, RuleError, SgfForm, Status,
};
use crate::picture::Painter;

mod documents;
mod scoring;
mod seats;
mod traits;

#[cfg(test)]
pub(crate) use documents::check_stored;
use documents::left_field;
pub use documents::{check_status, upgrade_seated};
pub use traits::{Rules, Search, View};

/// How a seat left a game before its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Leave {
    /// The player resigned.
    Resign,
    /// The player lost on time.
    Forfeit,
}

/// The seat that left a game before its end, and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Left {
    /// The seat.
    pub seat: usize,
    /// Resigned or lost on time.
    pub how: Leave,
}

impl Leave {
    /// The word of the move list: `resign`, `forfeit`.
    pub fn word(self) -> &'static str {
        match self {
            Leave::Resign => "resign",
            Leave::Forfeit => "forfeit",
        }
    }
}

/// One entry of the move list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry<M> {
    /// A seat moved.
    Moved {
        /// The seat.
        seat: usize,
        /// Its move.
        mv: M,
    },
    /// The engine passed for a seat that had no legal move.
    Passed {
        /// The seat.
        seat: usize,
    },
    /// A seat resigned or lost on time.
    Left {
        /// The seat.
        seat: usize,
        /// How.
        how: Leave,
    },
    /// The players agreed a draw (the seat is the one that was to move).
    Drawn {
        /// The seat to move then.
        seat: usize,
    },
}

impl<M> Entry<M> {
    /// Records onto `list` the move `mv` of `seat` and the `passes` the rules made after it, each
    /// by the next of the `seats` in turn: what [`Match::push`] records, for a game's own playout
    /// loop ([`Search::random_moves`]).
    #[inline]
    pub fn push_move(list: &mut Vec<Entry<M>>, seat: usize, mv: M, passes: u32, seats: usize) {
        list.push(Entry::Moved { seat, mv });
        if passes > 0 {
            Entry::push_passes(list, seat, passes, seats);
        }
    }

    /// The `passes` after a move of `seat`, each by the next of the `seats` in turn.
    fn push_passes(list: &mut Vec<Entry<M>>, seat: usize, passes: u32, seats: usize) {
        let n = seats.max(1);
        for k in 0..passes as usize {
            list.push(Entry::Passed {
                seat: (seat + 1 + k) % n,
            });
        }
    }
}

/// One game of `G`: its start, its position now, the move list and how it ended if not by the rules.
#[derive(Debug, Clone)]
pub struct Match<G: Rules> {
    /// The position the game started from, shared by a game's copies (the search makes
    /// thousands). A new game's ([`Match::new`]) is made again from its options when it is first
    /// asked for ([`Match::start`]: `at_move`, the record, the document), which a random playout
    /// never does, so that a new game copies no position.
    start: OnceLock<Arc<G>>,
    pos: G,
    entries: Vec<Entry<G::Move>>,
    ended: Option<Outcome>,
}

impl<G: Rules> Match<G> {
    /// A new game from the challenge's options.
    pub fn new(options: &[GameOption], players: usize) -> Result<Match<G>, RuleError> {
        Ok(Match {
            start: OnceLock::new(),
            pos: G::start(options, players)?,
            entries: Vec::new(),
            ended: None,
        }
        .with_start_passes())
    }

    /// A new game from `start`.
    pub fn from_position(start: G) -> Match<G> {
        Match {
            pos: start.clone(),
            start: OnceLock::from(Arc::new(start)),
            entries: Vec::new(),
            ended: None,
        }
        .with_start_passes()
    }

    /// A start that leaves the first seats without a turn (a small Limit layout) brings passes.
    fn with_start_passes(mut self) -> Match<G> {
        let passes = self.pos.start_passes();
        if passes > 0 {
            self.push_passes(self.pos.to_move(), passes);
        }
        self
    }

    /// The position now.
    pub fn position(&self) -> &G {
        &self.pos
    }

    /// The move list.
    pub fn entries(&self) -> &[Entry<G::Move>] {
        &self.entries
    }

    /// The last move a player made, with its seat.
    pub fn last_move(&self) -> Option<(usize, G::Move)> {
        self.entries.iter().rev().find_map(|e| match e {
            Entry::Moved { seat, mv } => Some((*seat, mv.clone())),
            _ => None,
        })
    }

    /// The seat that resigned or lost on time, if one did.
    pub fn left(&self) -> Option<Left> {
        self.entries.iter().rev().find_map(|e| match e {
            Entry::Left { seat, how } => Some(Left {
                seat: *seat,
                how: *how,
            }),
            _ => None,
        })
    }

    /// The winner, by the rules or because the other seat left; `None` while the game goes on or
    /// after a draw.
    pub fn winner(&self) -> Option<usize> {
        match self.outcome() {
            Some(Outcome::Winner(s)) => Some(s),
            _ => None,
        }
    }

    /// The seat to move, `None` once the game is over.
    pub fn to_move(&self) -> Option<usize> {
        self.outcome().is_none().then(|| self.pos.to_move())
    }

    /// The result, whether by the rules or by a resignation, a forfeit or a draw.
    pub fn outcome(&self) -> Option<Outcome> {
        self.ended.clone().or_else(|| self.pos.outcome())
    }

    /// Plays a legal move and records it with the passes that follow.
    #[inline]
    pub fn push(&mut self, mv: G::Move) {
        let seat = self.pos.mover(&mv);
        let passes = self.pos.apply(mv.clone());
        self.entries.push(Entry::Moved { seat, mv });
        if passes > 0 {
            // The seats are named only when there are passes (Cups's playouts pass often).
            self.push_passes(seat, passes);
        }
    }

    fn leave(&mut self, seat: usize, how: Leave) -> Result<(), RuleError> {
        let n = self.pos.seat_names().len();
        if seat >= n {
            return Err(RuleError(format!("there is no seat {seat}")));
        }
        if self.outcome().is_some() {
            return Err(RuleError("the game is already over".into()));
        }
        if self.leave_and_go_on(seat, how)? {
            return Ok(());
        }
        // With two players the other wins; a game of more goes on without the seat
        // (`Rules::seat_left`).
        if n != 2 {
            return Err(RuleError(format!(
                "a game of {n} players cannot end by one leaving on this record"
            )));
        }
        self.ended = Some(Outcome::Winner(1 - seat));
        self.entries.push(Entry::Left { seat, how });
        Ok(())
    }

    /// The document's entries (see the module's documentation).
    fn stored_moves(&self) -> Vec<String> {
        self.entries
            .iter()
            .filter_map(|e| match e {
                Entry::Moved { seat, mv } => Some(self.pos.write_stored(*seat, mv)),
                Entry::Passed { .. } => None,
                Entry::Left { seat, how } => Some(format!("{} {seat}", how.word())),
                Entry::Drawn { .. } => Some("draw".into()),
            })
            .collect()
    }

    /// Reads a game back from its document, replaying its entries.
    pub fn load(json: &str) -> Result<Match<G>, RuleError> {
        let title = G::GAME;
        let mut doc: Map<String, Value> = serde_json::from_str(json)
            .map_err(|e| RuleError(format!("this is not a game document of {title}: {e}")))?;
        G::upgrade(&mut doc)?;
        left_field(&mut doc)?;
        match doc.get("game").and_then(Value::as_str) {
            Some(g) if g == G::GAME => {}
            Some(g) => {
                return Err(RuleError(format!(
                    "this document is a game of '{g}', not {title}"
                )));
            }
            None => return Err(RuleError("the document names no game".into())),
        }
        let players = match doc.get("players") {
            None => 2,
            Some(v) => v
                .as_u64()
                .ok_or_else(|| RuleError(format!("the document's players is {v}, not a number")))?
                as usize,
        };
        let mut options = Vec::new();
        for (name, value) in &doc {
            match (name.as_str(), value) {
                // `status` is a line for people in older documents (Ataxx's), never read.
                ("game" | "moves" | "players" | "status", _) => {}
                (_, Value::Bool(true)) => options.push(GameOption::flag(name)),
                (_, Value::Bool(false)) => {}
                (_, Value::Number(n)) => options.push(GameOption::with_value(name, &n.to_string())),
                (_, Value::String(s)) => options.push(GameOption::with_value(name, s)),
                _ => {
                    return Err(RuleError(format!(
                        "the document's option {name} is {value}, not a number, a word or true"
                    )));
                }
            }
        }
        let moves: Vec<String> = match doc.get("moves") {
            None => Vec::new(),
            Some(v) => serde_json::from_value(v.clone()).map_err(|e| {
                RuleError(format!("the document's moves are not a list of words: {e}"))
            })?,
        };
        let mut game = Match::<G>::new(&options, players)?;
        for (i, m) in moves.iter().enumerate() {
            game.replay_entry(m)
                .map_err(|e| RuleError(format!("move {} of the document ('{m}'): {e}", i + 1)))?;
        }
        Ok(game)
    }

    /// Replays one stored entry: a move, `resign N` or `forfeit N` (seat N left) or `draw` (an
    /// agreed draw). The engine's passes are not stored: replaying the moves makes them again.
    fn replay_entry(&mut self, m: &str) -> Result<(), RuleError> {
        let seat = |rest: &str| {
            rest.trim()
                .parse::<usize>()
                .map_err(|_| RuleError(format!("'{m}' names no seat by its number")))
        };
        if let Some(rest) = m.strip_prefix("resign ") {
            return self.leave(seat(rest)?, Leave::Resign);
        }
        if let Some(rest) = m.strip_prefix("forfeit ") {
            return self.leave(seat(rest)?, Leave::Forfeit);
        }
        if m == "draw" {
            return self.draw();
        }
        self.play_text(m)
    }

    /// Plays a move written in the game's notation, if it is legal; else nothing changes.
    pub fn play_text(&mut self, text: &str) -> Result<(), RuleError> {
        if let Some(o) = self.outcome() {
            let names = self.pos.seat_names();
            let how = match (G::over_text(self), o) {
                (Some(t), _) => t,
                (None, Outcome::Winner(s)) => format!("{} won", names[s]),
                (None, Outcome::Draw(_)) => "it was drawn".into(),
            };
            return Err(RuleError(format!("the game is over ({how})")));
        }
        let mv = self.pos.read_here(text)?;
        self.pos.check(mv.clone())?;
        self.push(mv);
        Ok(())
    }

    /// Ends the game as a draw among all seats.
    fn draw(&mut self) -> Result<(), RuleError> {
        if let Some(e) = self.pos.no_draw() {
            return Err(e);
        }
        if self.outcome().is_some() {
            return Err(RuleError("the game is already over".into()));
        }
        let seat = self.pos.to_move();
        self.ended = Some(Outcome::Draw(self.pos.draw_agreed()));
        self.entries.push(Entry::Drawn { seat });
        Ok(())
    }
}

/// An option's value as the document stores it: a whole number as a number, a flag as `true`.
fn option_value(o: &GameOption) -> Value {
    match &o.value {
        None => Value::Bool(true),
        Some(v) => match v.parse::<u64>() {
            Ok(n) if n.to_string() == *v => Value::from(n),
            _ => Value::String(v.clone()),
        },
    }
}

impl<G: Rules + View + Search> GameState for Match<G> {
    fn to_json(&self) -> String {
        if let Some(doc) = G::document(self, self.stored_moves()) {
            return doc;
        }
        let mut doc = Map::new();
        doc.insert("game".into(), Value::from(G::GAME));
        let players = self.pos.seat_names().len();
        if players != 2 {
            doc.insert("players".into(), Value::from(players));
        }
        for o in self.start().options() {
            doc.insert(o.name.clone(), option_value(&o));
        }
        let moves = self.stored_moves().into_iter().map(Value::String).collect();
        doc.insert("moves".into(), Value::Array(moves));
        serde_json::to_string_pretty(&Value::Object(doc)).expect("the document serializes")
    }
    fn clone_box(&self) -> Box<dyn GameState> {
        Box::new(self.clone())
    }
    fn status(&self) -> Status {
        match self.outcome() {
            Some(o) => Status::Over(o),
            None => Status::ToMove(self.pos.to_move()),
        }
    }
    fn seat_names(&self) -> Vec<String> {
        self.pos.seat_names()
    }
    fn status_seat(&self, seat: usize) -> String {
        G::status_seat(seat).unwrap_or_else(|| {
            self.pos
                .seat_names()
                .get(seat)
                .map(|n| n.to_lowercase())
                .unwrap_or_else(|| format!("seat{seat}"))
        })
    }
    fn move_number(&self) -> u32 {
        self.entries.len() as u32 + 1
    }
    fn moves(&self) -> Vec<MoveRecord> {
        self.entries
            .iter()
            .enumerate()
            .map(|(i, e)| match e {
                Entry::Moved { seat, mv } => (*seat, self.pos.write_here(mv.clone()), false),
                Entry::Passed { seat } => {
                    let text = G::auto_text(self, i);
                    (
                        *seat,
                        text.unwrap_or_else(|| self.pos.pass_text().into()),
                        true,
                    )
                }
                Entry::Left { seat, how } => (*seat, how.word().into(), false),
                Entry::Drawn { seat } => (*seat, "draw".into(), false),
            })
            .map(|(seat, text, auto)| MoveRecord { seat, text, auto })
            .collect()
    }
    fn options_summary(&self) -> String {
        if let Some(line) = self.start().options_summary() {
            return line;
        }
        let words: Vec<String> = self
            .start()
            .options()
            .iter()
            .map(|o| o.to_string())
            .collect();
        words.join(" ")
    }
    fn legal_moves(&self) -> Vec<String> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        let mut moves = Vec::new();
        self.pos.legal(&mut moves);
        let mut texts: Vec<String> = moves.into_iter().map(|m| self.pos.write_here(m)).collect();
        if self.pos.sorted_texts() {
            texts.sort();
        }
        texts
    }
    fn play(&mut self, text: &str) -> Result<(), RuleError> {
        self.play_text(text)
    }
    fn acts_out_of_turn(&self, seat: usize) -> bool {
        self.outcome().is_none() && self.pos.acts_out_of_turn(seat)
    }
    fn play_for(&mut self, seat: usize, text: &str) -> Result<(), RuleError> {
        self.play_by(seat, text)
    }
    fn resign(&mut self, seat: usize) -> Result<(), RuleError> {
        self.leave(seat, Leave::Resign)
    }
    fn forfeit(&mut self, seat: usize) -> Result<(), RuleError> {
        self.leave(seat, Leave::Forfeit)
    }
    fn agree_draw(&mut self) -> Result<(), RuleError> {
        self.draw()
    }
    fn at_move(&self, n: u32) -> Result<Box<dyn GameState>, RuleError> {
        if n == 0 || n > self.move_number() {
            return Err(RuleError(format!(
                "move {n} does not exist: this game is at move {}",
                self.move_number()
            )));
        }
        let mut g = Match::from_position(G::clone(self.start()));
        for e in &self.entries {
            if g.entries.len() as u32 >= n - 1 {
                break;
            }
            match e {
                Entry::Moved { mv, .. } => g.push(mv.clone()),
                // Made again by the move before it.
                Entry::Passed { .. } => {}
                Entry::Left { seat, how } => g.leave(*seat, *how)?,
                Entry::Drawn { .. } => g.draw()?,
            }
        }
        Ok(Box::new(g))
    }
    fn board_view(&self) -> Board {
        G::board_view(self).unwrap_or_else(|| Board::without_cells(self))
    }
    fn render(&self) -> String {
        G::ascii(self)
    }
    fn paint(&self, painter: &mut dyn Painter) -> bool {
        G::paint(self, painter)
    }
    fn pgn_start(&self) -> Option<String> {
        self.start().pgn_start()
    }
    fn perft(&self, depth: u32) -> u64 {
        if self.outcome().is_some() {
            return u64::from(depth == 0);
        }
        perft(&self.pos, depth)
    }
    fn random_playout(&mut self, pick: &mut dyn FnMut(usize) -> usize) -> u32 {
        if self.outcome().is_none() {
            // The game's loop writes its entries straight into the record: no second list.
            if let Some(played) = self.pos.random_moves(pick, &mut self.entries) {
                return played;
            }
        }
        let mut moves = Vec::new();
        let mut played = 0;
        while self.outcome().is_none() {
            self.pos.legal(&mut moves);
            if moves.is_empty() {
                break;
            }
            self.push(moves[pick(moves.len())].clone());
            played += 1;
        }
        played
    }
    fn action_space(&self) -> u32 {
        self.pos.action_space()
    }
    fn legal_actions(&self, out: &mut Vec<u32>) {
        out.clear();
        if self.outcome().is_some() {
            return;
        }
        if self.pos.legal_actions(out) {
            return;
        }
        let mut moves = Vec::new();
        self.pos.legal(&mut moves);
        out.extend(moves.into_iter().map(|m| self.pos.action_here(m)));
    }
    fn apply_action(&mut self, action: u32) {
        self.push(self.pos.move_here(action));
    }
    fn action_text(&self, action: u32) -> String {
        self.pos.write_here(self.pos.move_here(action))
    }
    fn search_rave(&self) -> bool {
        self.pos.rave()
    }
    fn action_priors(&self, actions: &[u32], out: &mut Vec<f32>) {
        self.pos.priors(actions, out);
    }
    fn prior_results(&self, prior: f32) -> Option<(u32, f32)> {
        self.pos.prior_results(prior)
    }
    fn may_win_at_once(&self, action: u32) -> bool {
        self.pos.may_win_at_once(action)
    }
    fn level_playouts(&self, level: u8) -> Option<u32> {
        self.pos.level_playouts(level)
    }
    fn robot_move(&self, robot: Robot, seed: u64) -> Option<String> {
        // A move that needs no search (Go's answer in its scoring step), then the game's own
        // players (Limit's greedy), then the search, on the game the robot reads (Go's under the
        // spec's rules).
        if let Some(answer) = self.robot_answer() {
            return Some(answer);
        }
        if self.outcome().is_none()
            && let Some(mv) = self.pos.robot_move(robot, seed)
        {
            return mv.map(|m| self.pos.write_here(m));
        }
        match G::robot_game(self) {
            Some(game) => super::default_robot_move(&game, robot, seed),
            None => super::default_robot_move(self, robot, seed),
        }
    }
    fn action_group(&self, action: u32) -> Option<u32> {
        Search::action_group(&self.pos, action)
    }
    fn search_contempt(&self) -> Option<f32> {
        self.pos.contempt()
    }
    fn playout_value(&self, seat: usize) -> Option<f32> {
        self.pos.playout_value(seat)
    }
    /// The search reads only the position: the move list, copied thousands of times, stays
    /// behind (such a copy's `at_move` and record start from the position it was made at).
    fn search_copy(&self) -> Box<dyn GameState> {
        Box::new(Match {
            start: OnceLock::from(Arc::new(self.pos.clone())),
            pos: self.pos.searched(),
            entries: Vec::new(),
            ended: self.ended.clone(),
        })
    }
    /// The policy plays on the position only: the move list of a search's copy stays behind, which
    /// the search never reads.
    fn search_playout(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        played: Option<&mut Vec<(usize, u32)>>,
    ) -> bool {
        self.ended.is_none() && self.pos.playout(pick, played)
    }
    fn turn_notes(&self, since: u32) -> Vec<String> {
        if let Some(notes) = G::turn_notes(self, since) {
            return notes;
        }
        let names = self.pos.seat_names();
        let n = names.len().max(1);
        self.entries
            .iter()
            .skip(since.saturating_sub(1) as usize)
            .filter_map(|e| match e {
                Entry::Passed { seat } => Some(format!(
                    "{} had no legal move, so the engine passed; {} moves again.",
                    names[*seat],
                    names[(seat + 1) % n]
                )),
                _ => None,
            })
            .collect()
    }
    fn example_moves(&self) -> Vec<String> {
        G::example_moves(self).unwrap_or_else(|| self.legal_moves().into_iter().take(1).collect())
    }
    fn losses(&self, index: usize) -> Vec<Loss> {
        G::losses(self, index)
    }
    fn sgf_form(&self) -> Option<SgfForm> {
        G::sgf_form(self)
    }
    fn notes(&self) -> Vec<String> {
        G::notes(self)
    }
    fn entry_news(&self, index: usize) -> Option<String> {
        G::entry_news(self, index)
    }
    fn waiting_note(&self, seat: usize) -> Option<String> {
        G::waiting_note(self, seat)
    }
    fn score_result(&self) -> Option<String> {
        G::score_result(self)
    }
    fn setup_text(&self) -> String {
        match self.start().setup_text() {
            Some(t) => t,
            None => "Empty board.".into(),
        }
    }
}

/// A game's views read its position through the match (`game.grid()`, `game.chains()`).
impl<G: Rules> Deref for Match<G> {
    type Target = G;
    fn deref(&self) -> &G {
        &self.pos
    }
}

/// Perft on the position alone: the automatic passes inside [`Rules::apply`] take no depth level.
pub fn perft<G: Rules>(pos: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    pos.legal(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| {
            let mut next = pos.clone();
            next.apply(m.clone());
            perft(&next, depth - 1)
        })
        .sum()
}

// ---- appended for Cups, Ataxx, Hexxagon and Paradux (issue 36 section 1) ----------------------

impl<G: Rules> Match<G> {
    /// The position the game started from (a new game's made again from the options in force,
    /// which [`Rules::options`] promises start the same game).
    pub fn start(&self) -> &G {
        self.start.get_or_init(|| {
            let players = self.pos.seat_names().len();
            let start = G::start(&self.pos.options(), players)
                .expect("the options in force start the game again");
            Arc::new(start)
        })
    }

    /// Each entry with the position it was made in, from the start (a game's notes on what a move
    /// did are read from the positions before and after it, which the record does not keep).
    pub fn replayed(&self) -> Vec<(&Entry<G::Move>, G)> {
        let mut pos = G::clone(self.start());
        let mut out = Vec::with_capacity(self.entries.len());
        for e in &self.entries {
            out.push((e, pos.clone()));
            match e {
                Entry::Moved { mv, .. } => {
                    pos.apply(mv.clone());
                }
                // A seat that left a game that goes on (Limit's) leaves the position too.
                Entry::Left { seat, .. } => {
                    let _ = pos.seat_left(*seat);
                }
                _ => {}
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::othello::Position;

    type Game = Match<Position>;

    #[test]
    fn a_document_reads_back_and_bad_entries_say_which_and_why() {
        let g = Game::load(
            r#"{"game":"othello","size":8,"status":"for people","moves":["f5","d6","draw"]}"#,
        )
        .unwrap();
        assert_eq!(g.status(), Status::Over(Outcome::Draw(vec![0, 1])));
        assert_eq!(g.move_number(), 4);
        assert_eq!(Game::load(&g.to_json()).unwrap().moves(), g.moves());
        let no_options = Game::load(r#"{"game":"othello","moves":[]}"#).unwrap();
        assert_eq!(no_options.options_summary(), "-size=8");
        for (doc, want) in [
            (
                r#"{"game":"othello","moves":["resign 7"]}"#,
                "move 1 of the document ('resign 7'): there is no seat 7",
            ),
            (
                r#"{"game":"othello","moves":["resign x"]}"#,
                "'resign x' names no seat by its number",
            ),
            (
                r#"{"game":"othello","size":[8]}"#,
                "the document's option size is [8], not a number, a word or true",
            ),
            (
                r#"{"game":"othello","size":6}"#,
                "Othello is played on 8 by 8 only",
            ),
            (r#"{"moves":[]}"#, "the document names no game"),
            (r#"{"game":"othello","moves":"f5"}"#, "not a list of words"),
            ("f5", "this is not a game document of othello"),
        ] {
            let e = Game::load(doc).unwrap_err().0;
            assert!(e.contains(want), "{doc}: {e}");
        }
    }

    /// A new game keeps no copy of its start until one is asked for: made again from the options
    /// in force, it is the start of every game, with or without options, after a random game.
    #[test]
    fn a_new_games_start_is_made_again_from_its_options() {
        let registry = crate::games::Registry::standard();
        let mut cases: Vec<(&str, Vec<GameOption>)> = registry
            .names()
            .into_iter()
            .map(|n| (n, Vec::new()))
            .collect();
        let size = |n: &str| GameOption::with_value("size", n);
        cases.extend([
            ("cups", vec![size("3")]),
            ("cups", vec![size("10")]),
            ("hex", vec![size("5"), GameOption::flag("no_swap")]),
            ("y", vec![size("4"), GameOption::flag("no_swap")]),
            ("chameleon", vec![size("5")]),
            ("unlur", vec![size("3")]),
            ("ataxx", vec![size("5")]),
            ("hexxagon", vec![size("3")]),
            (
                "paradux",
                vec![size("5"), GameOption::with_value("line", "5")],
            ),
        ]);
        for (name, options) in cases {
            let rules = registry.find(name).unwrap();
            let fresh = rules.new_game(&options, 2, 7).unwrap();
            let mut g = rules.new_game(&options, 2, 7).unwrap();
            let mut x = 7u64;
            let mut pick = |n: usize| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((x >> 33) % n as u64) as usize
            };
            assert!(g.random_playout(&mut pick) > 0, "{name} {options:?}");
            let start = g.at_move(1).unwrap();
            assert_eq!(start.to_json(), fresh.to_json(), "{name} {options:?}");
            assert_eq!(start.render(), fresh.render(), "{name} {options:?}");
            assert_eq!(g.options_summary(), fresh.options_summary(), "{name}");
            assert_eq!(start.setup_text(), fresh.setup_text(), "{name}");
        }
    }

    #[test]
    fn entries_after_the_end_are_refused_and_earlier_positions_replay() {
        let mut g = Game::new(&[], 2).unwrap();
        g.play("f5").unwrap();
        g.forfeit(1).unwrap();
        assert_eq!(g.status(), Status::Over(Outcome::Winner(0)));
        assert_eq!(g.moves()[1].text, "forfeit");
        assert!(g.resign(0).is_err());
        assert!(g.agree_draw().is_err());
        assert!(g.resign(2).unwrap_err().0.contains("no seat 2"));
        let e = g.at_move(4).err().unwrap().0;
        assert_eq!(e, "move 4 does not exist: this game is at move 3");
        let before = g.at_move(2).unwrap();
        assert_eq!(before.status(), Status::ToMove(1));
        assert_eq!(before.moves().len(), 1);
        let back = Game::load(&g.to_json()).unwrap();
        assert_eq!(back.status(), Status::Over(Outcome::Winner(0)));
    }
}

//! The robot accounts' moves (robot1..robot3), thought out while no write lock is held.
//!
//! A robot thinks for up to [`ROBOT_THINKING_MILLIS`] a move. It used to think inside the mail's
//! transaction, holding SQLite's write lock all that time: one stranger's mail of 20 robot-against-
//! robot challenges held it 212 s, and every other mail was deferred (issue 22, item 1). Now no
//! transaction ever thinks. Where a robot is to move, [`Handling::robot_replies`] plays an answer that
//! was thought out before for exactly that position (game, board and whole state), or leaves the
//! robot to move and notes the position. Then:
//!
//! * a mail or a shell command whose first pass noted positions rolls that pass back (it held the
//!   lock only for the ordinary work), thinks with no lock held, and runs again with the answers:
//!   the robot's move is in the same board mail as the move it answers, as before;
//! * a robot still to move after the commit (a robot answering a robot at the admin's shell, a game
//!   that another mail changed meanwhile) is played by [`Server::play_robots`] one move at a time:
//!   read the position, think, then a write transaction that plays the answer only if the game is
//!   still at that position, with its own board mail;
//! * a process that dies between the two leaves a robot to move, never stuck: every `pbem cron`
//!   plays all such robots, and the next mail any process handles plays one move of one game whose
//!   robot has waited [`STALE_SECS`] (see [`Server::play_stale_robot`]).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use super::{
    Handling, HostedGame, MailState, Origin, Outcome, Server, ServerError, queue, robot_answers,
};
use crate::games::{self, GameRules, GameState, Status};
use crate::storage::{StorageError, Tx, User};

/// The longest a robot account thinks over a move (no lock is held meanwhile).
pub(super) const ROBOT_THINKING_MILLIS: u64 = 2_000;

/// A robot left to move this long (seconds) was left by a process that died between its commit and
/// the robot's move (a live one plays it within [`ROBOT_THINKING_MILLIS`]): the next mail plays it.
pub(super) const STALE_SECS: i64 = 60;

/// Rounds of thinking over draw answers alone that a mail may take after its first (see
/// [`Handling::to_think`]): each is a rolled-back pass more.
const MORE_ROUNDS: u32 = 2;

/// Moves [`Server::play_robots`] makes in one game at most: a game of robots ends long before;
/// the bound only guards against a game whose robot's move would never be taken.
const MAX_ROBOT_MOVES: usize = 2_000;

/// A position with a robot to move, and what the robot needs to think about it.
#[derive(Debug, Clone)]
pub(super) struct Waiting {
    game: &'static str,
    board: u32,
    /// The whole state, as [`GameState::to_json`] writes it: the position's identity.
    state: String,
    level: u8,
    seed: u64,
    /// Set when the question is not a move but whether this seat (a robot) accepts the draw
    /// proposed in this position (see [`Handling::robot_accepts_draw`]).
    draw_for: Option<usize>,
}

/// The robots' part of the mail (or shell command) being handled: the answers thought out so far,
/// the positions the current pass left waiting, and the new games' seeds, so that a second pass lays
/// out the same boards as the first.
#[derive(Debug, Default)]
pub(super) struct RobotTurns {
    /// By (game, board, state): the robot's move there.
    answers: HashMap<(&'static str, u32, String), String>,
    /// By (game, board, state, seat): whether that robot accepts a draw there.
    draws: HashMap<(&'static str, u32, String, usize), bool>,
    waiting: Vec<Waiting>,
    seeds: Vec<u64>,
    seeds_used: usize,
    /// The thinking this mail may cause in all (`limits.robot_thinking_millis_per_mail`); `None` at
    /// the shell and in `pbem cron`, which have no worker to free.
    budget: Option<Duration>,
    /// The thinking done so far for this mail.
    spent: Duration,
}

impl RobotTurns {
    /// A mail's robots, before they thought: they may think `budget` milliseconds in all (`None`:
    /// no bound but each move's own).
    pub(super) fn with_budget(budget: Option<u64>) -> RobotTurns {
        RobotTurns {
            budget: budget.map(Duration::from_millis),
            ..RobotTurns::default()
        }
    }
}

impl Handling<'_> {
    /// The milliseconds the next robot move may think, or `None` when the mail's budget cannot give
    /// a whole move's time any more (the robot is then left to move, for the robot queue). A move
    /// gets its full time or none: a move thought out in less would be weaker than the level says.
    fn robot_millis(&self) -> Option<u64> {
        let r = self.mail.robots.borrow();
        let Some(budget) = r.budget else {
            return Some(ROBOT_THINKING_MILLIS);
        };
        let each = Duration::from_millis(ROBOT_THINKING_MILLIS).min(budget);
        (!each.is_zero() && budget.saturating_sub(r.spent) >= each)
            .then_some(each.as_millis() as u64)
    }

    /// Counts `from`'s time to now against the mail's budget.
    fn spend(&self, from: Instant) {
        self.mail.robots.borrow_mut().spent += from.elapsed();
    }

    /// A pass over the mail's commands begins: nothing waits yet, and new games take the seeds of
    /// the pass before, in order.
    pub(super) fn robots_begin_pass(&self) {
        let mut r = self.mail.robots.borrow_mut();
        r.waiting.clear();
        r.seeds_used = 0;
    }

    /// The positions the last pass left with a robot to move and no answer.
    pub(super) fn robots_waiting(&self) -> Vec<Waiting> {
        self.mail.robots.borrow().waiting.clone()
    }

    /// What the pass just run left to think over before the mail runs again, if anything (`rounds`
    /// counts the times this said so): everything after the first pass; after a later one only the
    /// robots' draw answers, for [`MORE_ROUNDS`] more rounds at most. A later pass reaches positions
    /// the first did not (a proposal in a `multiple` mail after a move a robot answered): a draw left
    /// unanswered there would wait for a robot that never writes, while a robot's move left so is
    /// played right after the commit, as before.
    pub(super) fn to_think(&self, rounds: &mut u32) -> Option<Vec<Waiting>> {
        let waiting = self.robots_waiting();
        let ask: Vec<Waiting> = match *rounds {
            0 => waiting,
            n if n <= MORE_ROUNDS => waiting
                .into_iter()
                .filter(|w| w.draw_for.is_some())
                .collect(),
            _ => Vec::new(),
        };
        if ask.is_empty() {
            return None;
        }
        *rounds += 1;
        Some(ask)
    }

    /// The seed of the next new game of this pass: drawn by `draw` the first time, the same in a
    /// second pass of the same mail.
    pub(super) fn pass_seed(&self, draw: impl FnOnce() -> u64) -> u64 {
        let mut r = self.mail.robots.borrow_mut();
        let i = r.seeds_used;
        r.seeds_used += 1;
        if let Some(&s) = r.seeds.get(i) {
            return s;
        }
        let s = draw();
        r.seeds.push(s);
        s
    }

    /// Thinks over every waiting position (no lock may be held: this takes up to
    /// [`ROBOT_THINKING_MILLIS`] each) while the mail's budget lasts. Returns how many got an answer;
    /// the others stay waiting (a robot's move, for the robot queue) or are declined (a draw).
    pub(super) fn think(&self, waiting: &[Waiting]) -> usize {
        let mut found = 0;
        for w in waiting {
            if let Some(seat) = w.draw_for {
                found += usize::from(self.think_draw(w, seat));
                continue;
            }
            let key = (w.game, w.board, w.state.clone());
            if self.mail.robots.borrow().answers.contains_key(&key) {
                found += 1;
                continue;
            }
            let Some(millis) = self.robot_millis() else {
                continue;
            };
            let Some(rules) = self.games.find(w.game) else {
                continue;
            };
            let state = match rules.load(&w.state) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!(
                        "pbem: {} board {}: unreadable for the robot: {e}",
                        w.game, w.board
                    );
                    continue;
                }
            };
            let robot = games::Robot::Within {
                level: w.level,
                millis,
            };
            let start = Instant::now();
            let mv = state.robot_move(robot, w.seed);
            self.spend(start);
            match mv {
                Some(mv) => {
                    self.mail.robots.borrow_mut().answers.insert(key, mv);
                    found += 1;
                }
                None => eprintln!(
                    "pbem: {} board {}: the robot found no move; the game waits",
                    w.game, w.board
                ),
            }
        }
        found
    }

    /// Whether the robot in `seat` accepts a draw proposed now in `state`, if that was thought out
    /// before (see the module's doc); `None` notes the question as waiting, for a pass that is rolled
    /// back: no search runs here, under the write lock.
    pub(super) fn robot_accepts_draw(
        &self,
        rules: &dyn GameRules,
        board: u32,
        state: &dyn GameState,
        seat: usize,
        level: u8,
    ) -> Option<bool> {
        let json = state.to_json();
        let key = (rules.name(), board, json.clone(), seat);
        if let Some(&yes) = self.mail.robots.borrow().draws.get(&key) {
            return Some(yes);
        }
        self.mail.robots.borrow_mut().waiting.push(Waiting {
            game: rules.name(),
            board,
            state: json,
            level,
            seed: (u64::from(board) << 32) | u64::from(state.move_number()),
            draw_for: Some(seat),
        });
        None
    }

    /// Thinks whether the robot in `seat` accepts a draw in the position of `w` (no lock held) and
    /// keeps the answer; false when the position cannot be read.
    fn think_draw(&self, w: &Waiting, seat: usize) -> bool {
        let key = (w.game, w.board, w.state.clone(), seat);
        if self.mail.robots.borrow().draws.contains_key(&key) {
            return true;
        }
        let Some(state) = self.games.find(w.game).and_then(|r| r.load(&w.state).ok()) else {
            return false;
        };
        // Past the mail's budget a robot declines without thinking: an answer left unthought would
        // keep the proposal waiting for a robot that never writes. The player may propose again.
        let yes = self.robot_millis().is_some() && {
            let start = Instant::now();
            let yes = robot_answers::accepts_draw(
                state.as_ref(),
                seat,
                w.level,
                w.seed,
                ROBOT_THINKING_MILLIS,
            );
            self.spend(start);
            yes
        };
        self.mail.robots.borrow_mut().draws.insert(key, yes);
        true
    }

    /// Plays the robots' moves while a robot is to move and its answer to exactly this position was
    /// thought out before (see the module's doc); `None` when no robot moved. A position without an
    /// answer is noted as waiting and the robot stays to move. Each move's seed comes from the board
    /// and the move number, so a game replays the same.
    pub(super) fn robot_replies(
        &self,
        rules: &dyn GameRules,
        board: u32,
        players: &[User],
        state: &dyn GameState,
    ) -> Option<Box<dyn GameState>> {
        let mut next: Option<Box<dyn GameState>> = None;
        loop {
            let now = next.as_deref().unwrap_or(state);
            let Some(w) = waiting(rules, board, players, now) else {
                return next;
            };
            let key = (w.game, w.board, w.state.clone());
            let answer = self.mail.robots.borrow().answers.get(&key).cloned();
            let Some(mv) = answer else {
                self.mail.robots.borrow_mut().waiting.push(w);
                return next;
            };
            let mut after = now.clone_box();
            if let Err(e) = after.play(&mv) {
                eprintln!(
                    "pbem: board {board}: the robot's move {mv} was refused ({e}); the game waits"
                );
                return next;
            }
            next = Some(after);
        }
    }

    /// The stored game's position if a robot is to move in it.
    fn robot_to_move(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        board: u32,
    ) -> Result<Option<Waiting>, StorageError> {
        let Some(row) = tx.game(rules.name(), board)? else {
            return Ok(None);
        };
        if row.finished {
            return Ok(None);
        }
        let state = rules
            .load(&row.state)
            .map_err(|e| StorageError::Corrupt(format!("{} board {board}: {e}", rules.name())))?;
        Ok(waiting(rules, board, &row.players, state.as_ref()))
    }

    /// Plays the robot's thought-out answer to `w` in `tx`, if the game is still at that position:
    /// the move is saved and mailed as any move is ([`Handling::record_turn`], for nobody's act).
    /// `None` when the game moved on meanwhile.
    fn robot_turn(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        w: &Waiting,
    ) -> Result<Option<Outcome>, StorageError> {
        let Some(row) = tx.game(rules.name(), w.board)? else {
            return Ok(None);
        };
        if row.finished {
            return Ok(None);
        }
        let state = rules.load(&row.state).map_err(|e| {
            StorageError::Corrupt(format!("{} board {}: {e}", rules.name(), w.board))
        })?;
        if state.to_json() != w.state {
            return Ok(None);
        }
        let before = state.move_number();
        match self.record_turn(
            tx,
            HostedGame::new(rules, &row, state.as_ref()),
            None,
            before,
            "",
        ) {
            Ok(o) => Ok(Some(o)),
            Err(super::Failure::Storage(e)) => Err(e),
            // Nothing a player wrote: a refusal here is the robot's move refused by the rules.
            Err(super::Failure::Refused(r)) => {
                eprintln!(
                    "pbem: {} board {}: the robot's move was refused: {:?}",
                    rules.name(),
                    w.board,
                    r.refusal
                );
                Ok(None)
            }
        }
    }
}

/// The position to think about if a robot is to move in `state`.
fn waiting(
    rules: &dyn GameRules,
    board: u32,
    players: &[User],
    state: &dyn GameState,
) -> Option<Waiting> {
    let Status::ToMove(seat) = state.status() else {
        return None;
    };
    let level = players.get(seat).and_then(|p| p.robot)?;
    Some(Waiting {
        game: rules.name(),
        board,
        state: state.to_json(),
        level,
        seed: (u64::from(board) << 32) | u64::from(state.move_number()),
        draw_for: None,
    })
}

impl Server {
    /// Plays, one move at a time and each in its own write transaction, every robot still to move in
    /// these games, at most `per_game` moves a game (see the module's doc): read the position, think
    /// with no lock held, then play the answer if the game is still there. Returns how many moves
    /// were played.
    pub(super) fn play_robots(
        &mut self,
        mail: &MailState,
        waiting: &[Waiting],
        per_game: usize,
    ) -> Result<usize, ServerError> {
        let mut played = 0;
        // A draw question left unanswered is no robot to move: the proposal stays open.
        let mut games: Vec<(&'static str, u32)> = waiting
            .iter()
            .filter(|w| w.draw_for.is_none())
            .map(|w| (w.game, w.board))
            .collect();
        games.sort_unstable();
        games.dedup();
        let origin = Origin::default();
        for (game, board) in games {
            let Some(rules) = self.core.games.find(game) else {
                continue;
            };
            // Positions that changed under the robot in a row: another process is playing this game.
            let mut missed = 0;
            for _ in 0..per_game.min(MAX_ROBOT_MOVES) {
                let w = {
                    let tx = self.db.read()?;
                    self.core.with(mail).robot_to_move(&tx, rules, board)?
                };
                let Some(w) = w else { break };
                if self.core.with(mail).think(std::slice::from_ref(&w)) == 0 {
                    break;
                }
                self.tick();
                let tx = self.db.transaction()?;
                let Some(outcome) = self.core.with(mail).robot_turn(&tx, rules, &w)? else {
                    // Another process moved first: read the game again, a few times at most.
                    missed += 1;
                    if missed >= 3 {
                        break;
                    }
                    continue;
                };
                missed = 0;
                let mails = self
                    .core
                    .with(mail)
                    .letters_to_mails(&tx, &origin, vec![outcome])?;
                let ids = queue(&tx, &mails, self.core.now)?;
                tx.commit()?;
                self.send_or_defer(ids, mails);
                played += 1;
            }
        }
        Ok(played)
    }

    /// Plays one move of one game where a robot has been to move for [`STALE_SECS`] or more: left
    /// so by a process that died after its commit (see the module's doc). Every mail calls this, so
    /// such a robot waits at most until the next mail, and the mail's process thinks one move more
    /// at most (a game of robots goes on a move a mail, and `pbem cron` plays it out).
    pub(super) fn play_stale_robot(&mut self, mail: &MailState) -> Result<usize, ServerError> {
        let stale = self.db.robots_to_move(self.core.now - STALE_SECS, 1)?;
        self.play_stored_robots(mail, stale, 1)
    }

    /// Plays every robot to move in any game, games of robots to their end (`pbem cron`).
    pub(super) fn play_all_robots(&mut self, mail: &MailState) -> Result<usize, ServerError> {
        let all = self.db.robots_to_move(i64::MAX, u32::MAX)?;
        self.play_stored_robots(mail, all, MAX_ROBOT_MOVES)
    }

    fn play_stored_robots(
        &mut self,
        mail: &MailState,
        games: Vec<(String, u32)>,
        per_game: usize,
    ) -> Result<usize, ServerError> {
        let mut waiting = Vec::new();
        for (game, board) in games {
            let Some(rules) = self.core.games.find(&game) else {
                continue;
            };
            let tx = self.db.read()?;
            if let Some(w) = self.core.with(mail).robot_to_move(&tx, rules, board)? {
                waiting.push(w);
            }
        }
        self.play_robots(mail, &waiting, per_game)
    }
}

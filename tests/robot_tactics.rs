//! Tactics of the generic robot (`games::search`): on positions with a win in one, a forced win in two
//! own turns, or a single move that stops the opponent's win, robot2 and robot3 find the move.
//!
//! A toy game written here (noughts and crosses on 3×3, with and without action ids, so both of the
//! search's paths are tried) and Limit positions from random games, each checked by an exhaustive
//! search before the robots are asked. `search::expect_move` is the helper: a game's JSON, a robot, and
//! the moves allowed.

use pbem::games::limit::{Game, Limit, Phase};
use pbem::games::search::{self, Budget};
use pbem::games::{GameOption, GameRules, GameState, MoveRecord, Outcome, Robot, RuleError, Status};

// ---- noughts and crosses -------------------------------------------------------------------------

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// The game type; `ids` says whether its games give action ids to the search.
struct Ttt {
    ids: bool,
}

static TTT_IDS: Ttt = Ttt { ids: true };
static TTT_SLOW: Ttt = Ttt { ids: false };

/// A position: cells 0 to 8 (row by row) hold 0 (empty), 1 (X) or 2 (O); X moves first.
#[derive(Clone, Debug)]
struct Board {
    cells: [u8; 9],
    ids: bool,
    played: Vec<(usize, usize)>,
}

impl Board {
    fn parse(text: &str, ids: bool) -> Result<Board, RuleError> {
        let chars: Vec<char> = text.chars().collect();
        if chars.len() != 9 {
            return Err(RuleError(format!(
                "a board is 9 characters of x, o and ., not {text:?}"
            )));
        }
        let mut cells = [0; 9];
        for (i, c) in chars.iter().enumerate() {
            cells[i] = match c {
                'x' => 1,
                'o' => 2,
                '.' => 0,
                _ => return Err(RuleError(format!("{c:?} is not x, o or ."))),
            };
        }
        Ok(Board {
            cells,
            ids,
            played: Vec::new(),
        })
    }
    fn winner(&self) -> Option<usize> {
        LINES.iter().find_map(|l| {
            let v = self.cells[l[0]];
            (v != 0 && l.iter().all(|&i| self.cells[i] == v)).then(|| v as usize - 1)
        })
    }
    fn turn(&self) -> usize {
        let n = self.cells.iter().filter(|&&c| c != 0).count();
        n % 2
    }
}

impl GameRules for Ttt {
    fn name(&self) -> &'static str {
        if self.ids { "ttt" } else { "tttslow" }
    }
    fn title(&self) -> &'static str {
        "Noughts and crosses"
    }
    fn players(&self) -> std::ops::RangeInclusive<usize> {
        2..=2
    }
    fn help(&self) -> String {
        "Three in a row wins; moves are cells 1 to 9.\n".into()
    }
    fn new_game(
        &self,
        _: &[GameOption],
        _: usize,
        _: u64,
    ) -> Result<Box<dyn GameState>, RuleError> {
        Ok(Box::new(Board::parse(".........", self.ids)?))
    }
    fn load(&self, json: &str) -> Result<Box<dyn GameState>, RuleError> {
        Ok(Box::new(Board::parse(json.trim(), self.ids)?))
    }
    fn read_move(&self, mv: &str) -> Result<(), RuleError> {
        mv.parse::<u8>()
            .ok()
            .filter(|n| (1..=9).contains(n))
            .map(|_| ())
            .ok_or_else(|| RuleError(format!("{mv:?} is not a cell 1 to 9")))
    }
}

impl GameState for Board {
    fn to_json(&self) -> String {
        self.cells
            .iter()
            .map(|c| ['.', 'x', 'o'][*c as usize])
            .collect()
    }
    fn clone_box(&self) -> Box<dyn GameState> {
        Box::new(self.clone())
    }
    fn status(&self) -> Status {
        match self.winner() {
            Some(w) => Status::Over(Outcome::Winner(w)),
            None if self.cells.iter().all(|&c| c != 0) => Status::Over(Outcome::Draw(vec![0, 1])),
            None => Status::ToMove(self.turn()),
        }
    }
    fn seat_names(&self) -> Vec<String> {
        vec!["X".into(), "O".into()]
    }
    fn move_number(&self) -> u32 {
        self.played.len() as u32 + 1
    }
    fn moves(&self) -> Vec<MoveRecord> {
        self.played
            .iter()
            .map(|&(seat, c)| MoveRecord {
                seat,
                text: (c + 1).to_string(),
                auto: false,
            })
            .collect()
    }
    fn options_summary(&self) -> String {
        String::new()
    }
    fn legal_moves(&self) -> Vec<String> {
        if matches!(self.status(), Status::Over(_)) {
            return Vec::new();
        }
        (0..9)
            .filter(|&i| self.cells[i] == 0)
            .map(|i| (i + 1).to_string())
            .collect()
    }
    fn play(&mut self, mv: &str) -> Result<(), RuleError> {
        let i = mv
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=9).contains(n) && self.cells[n - 1] == 0)
            .ok_or_else(|| RuleError(format!("{mv:?} is not an empty cell")))?;
        let s = self.turn();
        self.cells[i - 1] = s as u8 + 1;
        self.played.push((s, i - 1));
        Ok(())
    }
    fn resign(&mut self, _: usize) -> Result<(), RuleError> {
        Err(RuleError("no resigning here".into()))
    }
    fn agree_draw(&mut self) -> Result<(), RuleError> {
        Err(RuleError("no draws here".into()))
    }
    fn at_move(&self, n: u32) -> Result<Box<dyn GameState>, RuleError> {
        let mut b = self.clone();
        for &(_, c) in self.played.iter().skip(n as usize - 1).rev() {
            b.cells[c] = 0;
        }
        b.played.truncate(n as usize - 1);
        Ok(Box::new(b))
    }
    fn render(&self) -> String {
        self.to_json()
    }
    fn action_space(&self) -> u32 {
        if self.ids { 9 } else { 0 }
    }
    fn legal_actions(&self, out: &mut Vec<u32>) {
        out.clear();
        if matches!(self.status(), Status::ToMove(_)) {
            out.extend((0..9).filter(|&i| self.cells[i as usize] == 0));
        }
    }
    fn apply_action(&mut self, action: u32) {
        let s = self.turn();
        self.cells[action as usize] = s as u8 + 1;
    }
    fn action_text(&self, action: u32) -> String {
        (action + 1).to_string()
    }
}

/// The moves of `b` that force a win for the player to move (exhaustive minimax).
fn forcing_wins(b: &dyn GameState) -> Vec<String> {
    fn value(b: &dyn GameState, me: usize) -> i32 {
        match b.status() {
            Status::Over(Outcome::Winner(w)) => {
                if w == me {
                    1
                } else {
                    -1
                }
            }
            Status::Over(_) => 0,
            Status::ToMove(s) => {
                let vals = b.legal_moves().into_iter().map(|m| {
                    let mut c = b.clone_box();
                    c.play(&m).unwrap();
                    value(c.as_ref(), me)
                });
                if s == me {
                    vals.max().unwrap()
                } else {
                    vals.min().unwrap()
                }
            }
        }
    }
    let Status::ToMove(me) = b.status() else {
        return Vec::new();
    };
    b.legal_moves()
        .into_iter()
        .filter(|m| {
            let mut c = b.clone_box();
            c.play(m).unwrap();
            value(c.as_ref(), me) == 1
        })
        .collect()
}

/// The moves that do not lose at once... the ones after which the opponent has no win in one.
fn not_losing_at_once(b: &dyn GameState) -> Vec<String> {
    b.legal_moves()
        .into_iter()
        .filter(|m| {
            let mut c = b.clone_box();
            c.play(m).unwrap();
            !c.legal_moves().iter().any(|r| {
                let mut d = c.clone_box();
                d.play(r).unwrap();
                matches!(d.status(), Status::Over(Outcome::Winner(_)))
            })
        })
        .collect()
}

const LEVELS: [Robot; 2] = [Robot::Level(2), Robot::Level(3)];

fn check_all(rules: &dyn GameRules, json: &str, allowed: &[String]) {
    let allowed: Vec<&str> = allowed.iter().map(String::as_str).collect();
    for robot in LEVELS {
        for seed in 0..3 {
            if let Err(e) = search::expect_move(rules, json, robot, seed, &allowed) {
                panic!("{e}");
            }
        }
    }
}

#[test]
fn noughts_and_crosses_wins_in_one_and_in_two_and_blocks() {
    // X to move in each. Wins in one: three in a row at once.
    let win_in_one = ["xx.oo....", "x.o.xo...", "o.x.x.o.."];
    // No win in one, but a forced win in two own turns (a fork).
    let win_in_two = ["x...o...x", "x.......o", ".x..o.x..", "x...x...o"];
    // O threatens three in a row; only one cell stops it (X has no win).
    let block = ["o.o.x....", "x.o.o....", "xx.oo.x.o"];
    for rules in [&TTT_IDS, &TTT_SLOW] {
        for json in win_in_one {
            let b = rules.load(json).unwrap();
            let wins: Vec<String> = b
                .legal_moves()
                .into_iter()
                .filter(|m| {
                    let mut c = b.clone_box();
                    c.play(m).unwrap();
                    c.status() == Status::Over(Outcome::Winner(0))
                })
                .collect();
            assert!(!wins.is_empty(), "{json} has a win in one");
            check_all(rules, json, &wins);
        }
        for json in win_in_two {
            let b = rules.load(json).unwrap();
            let forcing = forcing_wins(b.as_ref());
            assert!(!forcing.is_empty(), "{json}: a forced win exists");
            assert!(forcing.len() < b.legal_moves().len(), "{json}: not every move wins");
            check_all(rules, json, &forcing);
        }
        for json in block {
            let b = rules.load(json).unwrap();
            let safe = not_losing_at_once(b.as_ref());
            assert_eq!(safe.len(), 1, "{json}: one move stops O, {safe:?}");
            check_all(rules, json, &safe);
        }
    }
}

#[test]
fn a_proven_position_is_answered_without_spending_the_budget() {
    let b = TTT_IDS.load("x...o...x").unwrap();
    let t = search::think(b.as_ref(), Budget::playouts(100_000), 1).unwrap();
    assert_eq!(t.proven, Some(1.0), "{t:?}");
    assert!(t.playouts < 100_000, "the solver stops the search: {t:?}");
}

// ---- Limit ---------------------------------------------------------------------------------------

/// Positions of default two-player Limit games (random play from a seeded layout) where the player to
/// move can win at once, and the winning moves: the first such position of each seeded game.
fn limit_wins_in_one(count: usize) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    for seed in 0..2000u64 {
        let mut g = Limit.new_game(&[], 2, seed).unwrap();
        let mut k = seed;
        while let Status::ToMove(me) = g.status() {
            let moves = g.legal_moves();
            let wins: Vec<String> = moves
                .iter()
                .filter(|m| {
                    let mut h = g.clone_box();
                    h.play(m).unwrap();
                    h.status() == Status::Over(Outcome::Winner(me))
                })
                .cloned()
                .collect();
            if !wins.is_empty() {
                if wins.len() * 4 < moves.len() {
                    out.push((g.to_json(), wins));
                }
                break;
            }
            k = k.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let m = &moves[(k >> 33) as usize % moves.len()];
            g.play(m).unwrap();
        }
        if out.len() == count {
            break;
        }
    }
    out
}

#[test]
fn limit_robots_take_a_winning_capture() {
    let positions = limit_wins_in_one(5);
    assert_eq!(positions.len(), 5);
    for (json, wins) in &positions {
        let allowed: Vec<&str> = wins.iter().map(String::as_str).collect();
        for robot in LEVELS {
            search::expect_move(&Limit, json, robot, 1, &allowed).unwrap();
        }
    }
}

/// Whether the player to move in `g` has a win in one (only capturing turns can win).
fn limit_has_win(g: &Game) -> bool {
    let me = g.to_move().unwrap();
    g.legal().iter().any(|m| {
        let mut h = g.clone();
        h.play_move(m).unwrap();
        h.result() == Some(&Outcome::Winner(me))
    })
}

/// Positions where the player to move has no win in one but a turn after which every reply leaves a
/// win in one: forced wins in two own turns, found exhaustively, with the turns that force it.
fn limit_wins_in_two(count: usize) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    for seed in 0..3000u64 {
        let mut g = Limit.new_game(&[], 2, seed).unwrap();
        let mut g: Game = pbem::games::limit::json::from_json(&g.to_json()).unwrap();
        let mut k = seed ^ 0x5555;
        let mut tried = 0;
        while g.phase() == Phase::Movement {
            let total: u32 = (0..2).map(|s| g.board().m.pawns[s].count_ones()).sum();
            if total <= 7 && tried < 6 && !limit_has_win(&g) {
                tried += 1;
                let me = g.to_move().unwrap();
                let forcing: Vec<String> = g
                    .legal()
                    .into_iter()
                    .filter(|m| {
                        let mut h = g.clone();
                        h.play_move(m).unwrap();
                        match h.result() {
                            Some(o) => *o == Outcome::Winner(me),
                            None => h.legal().into_iter().all(|r| {
                                let mut x = h.clone();
                                x.play_move(&r).unwrap();
                                match x.result() {
                                    Some(o) => *o == Outcome::Winner(me),
                                    None => limit_has_win(&x),
                                }
                            }),
                        }
                    })
                    .map(|m| m.to_string())
                    .collect();
                if !forcing.is_empty() && forcing.len() * 4 < g.legal().len() {
                    out.push((GameState::to_json(&g), forcing));
                    break;
                }
            }
            let moves = g.legal();
            k = k.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            g.play_move(&moves[(k >> 33) as usize % moves.len()]).unwrap();
        }
        if out.len() == count {
            break;
        }
    }
    let _ = &mut out;
    out
}

#[test]
fn limit_robots_find_a_forced_win_in_two() {
    let positions = limit_wins_in_two(5);
    assert_eq!(positions.len(), 5, "five positions found");
    for (json, forcing) in &positions {
        let allowed: Vec<&str> = forcing.iter().map(String::as_str).collect();
        for robot in LEVELS {
            search::expect_move(&Limit, json, robot, 1, &allowed).unwrap();
        }
    }
}

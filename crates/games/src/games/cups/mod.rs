//! Cups, Sid Sackson's mancala by Arthur and Wald Amberstone, as `cups-rules.md` settles it.
//! [`rules`] is the engine; this module keeps the move list (with the engine's passes), the JSON
//! document (the size and the moves, replayed on load) and implements the server's traits;
//! [`render`] draws the rows, reserves and bowls.

pub mod render;
pub mod rules;

use serde::{Deserialize, Serialize};

use super::{GameOption, GameRules, GameState, MoveRecord, Outcome, RuleError, Status};
use rules::{Move, Position};

/// The game type Cups.
pub struct Cups;

/// Cups per side: the range and the default (section 1).
const SIZES: (u8, u8, u8) = (3, 10, 4);

fn read_size(options: &[GameOption]) -> Result<u8, RuleError> {
    let (lo, hi, default) = SIZES;
    let mut size = None;
    for o in options {
        if !o.name.eq_ignore_ascii_case("size") {
            return Err(RuleError(format!(
                "Cups has no option -{}: its one option is -size=n, the cups a player has, n from \
                 {lo} to {hi} (default {default}); each reserve holds 10 n beans",
                o.name
            )));
        }
        if size.is_some() {
            return Err(RuleError("-size is given twice: give it once".into()));
        }
        let n = o
            .value
            .as_deref()
            .and_then(|v| v.trim().parse::<u8>().ok())
            .filter(|n| (lo..=hi).contains(n))
            .ok_or_else(|| {
                RuleError(format!(
                    "-size takes a number from {lo} to {hi}, written -size={default}; '{}' is not one",
                    o.value.as_deref().unwrap_or("")
                ))
            })?;
        size = Some(n);
    }
    Ok(size.unwrap_or(default))
}

impl GameRules for Cups {
    fn name(&self) -> &'static str {
        "cups"
    }
    fn title(&self) -> &'static str {
        "Cups"
    }
    fn players(&self) -> std::ops::RangeInclusive<usize> {
        2..=2
    }
    fn help(&self) -> String {
        include_str!("help.txt").to_string()
    }
    fn new_game(
        &self,
        options: &[GameOption],
        players: usize,
        _seed: u64,
    ) -> Result<Box<dyn GameState>, RuleError> {
        if players != 2 {
            return Err(RuleError(format!(
                "Cups is a game for two players, not {players}"
            )));
        }
        Ok(Box::new(CupsGame::new(read_size(options)?)))
    }
    fn load(&self, json: &str) -> Result<Box<dyn GameState>, RuleError> {
        Ok(Box::new(CupsGame::from_json(json)?))
    }
    fn read_move(&self, mv: &str) -> Result<(), RuleError> {
        Move::read(mv, SIZES.1).map(|_| ()).map_err(RuleError)
    }
}

/// One entry of the move list.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Entry {
    Moved {
        seat: usize,
        mv: Move,
        captured: u16,
    },
    Passed {
        seat: usize,
    },
    Left {
        seat: usize,
        how: &'static str,
    },
    Drawn {
        seat: usize,
    },
}

/// A game of Cups.
#[derive(Debug, Clone)]
pub struct CupsGame {
    pos: Position,
    entries: Vec<Entry>,
}

#[derive(Serialize, Deserialize)]
struct Doc {
    game: String,
    size: u8,
    /// The players' entries in order (`d3`, `s2`, `resign 0`, `forfeit 1`, `draw`); passes are
    /// replayed.
    moves: Vec<String>,
}

/// The side names, seat by seat.
const SIDES: [&str; 2] = ["South", "North"];

impl CupsGame {
    /// A new game with `n` cups a side.
    pub fn new(n: u8) -> CupsGame {
        CupsGame {
            pos: Position::start(n),
            entries: Vec::new(),
        }
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The last move a player made.
    pub fn last_move(&self) -> Option<(usize, Move)> {
        self.entries.iter().rev().find_map(|e| match e {
            Entry::Moved { seat, mv, .. } => Some((*seat, *mv)),
            _ => None,
        })
    }

    /// Reads the document and replays it.
    pub fn from_json(json: &str) -> Result<CupsGame, RuleError> {
        let doc: Doc = serde_json::from_str(json)
            .map_err(|e| RuleError(format!("this is not a Cups game document: {e}")))?;
        if doc.game != "cups" {
            return Err(RuleError(format!(
                "this document is a game of '{}', not cups",
                doc.game
            )));
        }
        let n = read_size(&[GameOption::with_value("size", &doc.size.to_string())])?;
        let mut g = CupsGame::new(n);
        super::replay::replay(&mut g, &doc.moves)?;
        Ok(g)
    }

    fn push_move(&mut self, mv: Move) {
        let seat = self.pos.to_move;
        let (captured, passes) = self.pos.apply(mv);
        self.entries.push(Entry::Moved { seat, mv, captured });
        for _ in 0..passes {
            self.entries.push(Entry::Passed { seat: 1 - seat });
        }
    }

    fn leave(&mut self, seat: usize, how: &'static str) -> Result<(), RuleError> {
        if seat > 1 {
            return Err(RuleError(format!("there is no seat {seat}")));
        }
        if self.pos.result.is_some() {
            return Err(RuleError("the game is already over".into()));
        }
        self.pos.result = Some(Outcome::Winner(1 - seat));
        self.entries.push(Entry::Left { seat, how });
        Ok(())
    }
}

impl GameState for CupsGame {
    fn to_json(&self) -> String {
        let moves = self
            .entries
            .iter()
            .filter_map(|e| match e {
                Entry::Moved { mv, .. } => Some(mv.text()),
                Entry::Passed { .. } => None,
                Entry::Left { seat, how } => Some(crate::games::replay::left(how, *seat)),
                Entry::Drawn { .. } => Some("draw".into()),
            })
            .collect();
        serde_json::to_string_pretty(&Doc {
            game: "cups".into(),
            size: self.pos.n,
            moves,
        })
        .expect("the document serializes")
    }
    fn clone_box(&self) -> Box<dyn GameState> {
        Box::new(self.clone())
    }
    fn status(&self) -> Status {
        match &self.pos.result {
            Some(r) => Status::Over(r.clone()),
            None => Status::ToMove(self.pos.to_move),
        }
    }
    fn seat_names(&self) -> Vec<String> {
        SIDES.iter().map(|s| s.to_string()).collect()
    }
    fn move_number(&self) -> u32 {
        self.entries.len() as u32 + 1
    }
    fn moves(&self) -> Vec<MoveRecord> {
        self.entries
            .iter()
            .map(|e| match e {
                Entry::Moved { seat, mv, .. } => MoveRecord {
                    seat: *seat,
                    text: mv.text(),
                    auto: false,
                },
                Entry::Passed { seat } => MoveRecord {
                    seat: *seat,
                    text: "pass".into(),
                    auto: true,
                },
                Entry::Left { seat, how } => MoveRecord {
                    seat: *seat,
                    text: (*how).into(),
                    auto: false,
                },
                Entry::Drawn { seat } => MoveRecord {
                    seat: *seat,
                    text: "draw".into(),
                    auto: false,
                },
            })
            .collect()
    }
    fn options_summary(&self) -> String {
        format!("-size={}", self.pos.n)
    }
    fn legal_moves(&self) -> Vec<String> {
        let mut moves = Vec::new();
        self.pos.legal(&mut moves);
        moves.into_iter().map(Move::text).collect()
    }
    fn play(&mut self, text: &str) -> Result<(), RuleError> {
        if self.pos.result.is_some() {
            return Err(RuleError(format!(
                "the game is over ({})",
                render::status_line(self)
            )));
        }
        let mv = Move::read(text, self.pos.n).map_err(RuleError)?;
        self.pos.check(mv).map_err(RuleError)?;
        self.push_move(mv);
        Ok(())
    }
    fn resign(&mut self, seat: usize) -> Result<(), RuleError> {
        self.leave(seat, "resign")
    }
    fn forfeit(&mut self, seat: usize) -> Result<(), RuleError> {
        self.leave(seat, "forfeit")
    }
    fn agree_draw(&mut self) -> Result<(), RuleError> {
        if self.pos.result.is_some() {
            return Err(RuleError("the game is already over".into()));
        }
        self.pos.result = Some(Outcome::Draw(vec![0, 1]));
        self.entries.push(Entry::Drawn {
            seat: self.pos.to_move,
        });
        Ok(())
    }
    fn at_move(&self, n: u32) -> Result<Box<dyn GameState>, RuleError> {
        if n == 0 || n > self.move_number() {
            return Err(RuleError(format!(
                "move {n} does not exist: this game is at move {}",
                self.move_number()
            )));
        }
        let mut g = CupsGame::new(self.pos.n);
        for e in &self.entries {
            if g.entries.len() as u32 >= n - 1 {
                break;
            }
            match e {
                Entry::Moved { mv, .. } => g.push_move(*mv),
                Entry::Passed { .. } => {}
                Entry::Left { seat, how } => g.leave(*seat, how)?,
                Entry::Drawn { .. } => g.agree_draw()?,
            }
        }
        Ok(Box::new(g))
    }
    fn render(&self) -> String {
        render::ascii(self)
    }
    fn paint(&self, p: &mut dyn crate::picture::Painter) -> bool {
        render::paint(self, p);
        true
    }
    fn perft(&self, depth: u32) -> u64 {
        self.pos.perft(depth)
    }
    fn random_playout(&mut self, pick: &mut dyn FnMut(usize) -> usize) -> u32 {
        let mut moves = Vec::new();
        let mut played = 0;
        loop {
            self.pos.legal(&mut moves);
            if moves.is_empty() {
                return played;
            }
            self.push_move(moves[pick(moves.len())]);
            played += 1;
        }
    }
    fn turn_notes(&self, since: u32) -> Vec<String> {
        self.entries
            .iter()
            .skip(since.saturating_sub(1) as usize)
            .filter_map(|e| match e {
                Entry::Moved {
                    seat, captured, mv, ..
                } if *captured > 0 => {
                    let Move::Drop(k) = mv else { return None };
                    Some(format!(
                        "{}'s drop ended in its empty cup {k} and took the {captured} bean{} of \
                         {}'s cup {} into {}'s bowl.",
                        SIDES[*seat],
                        if *captured == 1 { "" } else { "s" },
                        SIDES[1 - seat],
                        self.pos.n as usize + 1 - *k as usize,
                        SIDES[*seat]
                    ))
                }
                Entry::Passed { seat } => Some(format!(
                    "{} had no move (an empty reserve and no cup to sow), so the engine passed; \
                     {} moves again.",
                    SIDES[*seat],
                    SIDES[1 - seat]
                )),
                _ => None,
            })
            .collect()
    }
    fn notes(&self) -> Vec<String> {
        let p = &self.pos;
        vec![format!(
            "Bowls: South {}, North {}.  Reserves: South {}, North {}.",
            p.bowls[0], p.bowls[1], p.reserves[0], p.reserves[1]
        )]
    }
    fn setup_text(&self) -> String {
        format!("Each reserve: {} beans", 10 * u16::from(self.pos.n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_whole_random_game_round_trips_through_its_document() {
        let mut seed = 9u64;
        let mut pick = |n: usize| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            ((seed >> 33) as usize) % n
        };
        for n in [3, 4, 10] {
            let mut g = CupsGame::new(n);
            let played = g.random_playout(&mut pick);
            assert!(played > 0);
            assert!(matches!(g.status(), Status::Over(_)));
            let back = CupsGame::from_json(&g.to_json()).unwrap();
            assert_eq!(back.moves(), g.moves());
            assert_eq!(back.status(), g.status());
            assert_eq!(back.position(), g.position());
            let early = g.at_move(3).unwrap();
            assert_eq!(early.move_number(), 3);
            assert_eq!(early.moves()[..], g.moves()[..2]);
        }
    }

    #[test]
    fn options_and_illegal_moves() {
        assert!(
            Cups.new_game(&[GameOption::with_value("size", "11")], 2, 0)
                .is_err()
        );
        let e = Cups
            .new_game(&[GameOption::flag("swap")], 2, 0)
            .err()
            .unwrap()
            .0;
        assert!(e.contains("Cups has no option -swap"), "{e}");
        let mut g = CupsGame::new(4);
        let before = g.to_json();
        let e = g.play("s1").unwrap_err().0;
        assert!(e.contains("cup 1 must hold exactly 4 beans"), "{e}");
        assert_eq!(g.to_json(), before);
        assert_eq!(g.legal_moves(), ["d1", "d2", "d3", "d4"]);
        g.play("d4").unwrap();
        g.play("D 3").unwrap();
        assert_eq!(g.turn_notes(2).len(), 1, "{:?}", g.turn_notes(2));
    }
}

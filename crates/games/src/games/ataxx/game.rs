//! One game of Ataxx or Hexxagon as the server keeps it: the position, the move list with the
//! engine's passes, resignations and agreed draws, and the JSON document (the options and the moves;
//! loading replays them, so the document can never disagree with the rules).

use serde::{Deserialize, Serialize};

use super::geometry::{Geometry, Shape};
use super::rules::{Move, Position};
use super::{actions, notation, policy};
use super::{render, title, word};
use crate::games::{Board, GameState, MoveRecord, Outcome, RuleError, Status};

/// One entry of the move list.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Entry {
    /// A player's move, and how many pieces it turned.
    Moved { seat: usize, mv: Move, turned: u32 },
    /// The engine passed for a player who could not move.
    Passed { seat: usize },
    /// A player resigned or lost on time (`resign`, `forfeit`).
    Left { seat: usize, how: &'static str },
    /// The players agreed a draw.
    Drawn,
}

/// A game in progress or over.
#[derive(Debug, Clone)]
pub struct AtaxxGame {
    shape: Shape,
    pos: Position,
    entries: Vec<Entry>,
}

/// The JSON document.
#[derive(Serialize, Deserialize)]
struct Doc {
    game: String,
    size: u8,
    /// Every entry a player made, in order (`g2`, `a1c3`, `resign`, `forfeit 1`, `draw`); the
    /// engine's passes are replayed, not stored.
    moves: Vec<String>,
    /// For people reading the document; ignored when it is read.
    #[serde(default)]
    status: String,
}

impl AtaxxGame {
    /// A new game on the board of this shape and size.
    pub fn new(shape: Shape, size: u8) -> AtaxxGame {
        AtaxxGame {
            shape,
            pos: Position::start(Geometry::shared(shape, size)),
            entries: Vec::new(),
        }
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The board.
    pub fn geometry(&self) -> &Geometry {
        &self.pos.geo
    }

    /// The board's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The last move a player made, if any.
    pub fn last_move(&self) -> Option<(usize, Move)> {
        self.entries.iter().rev().find_map(|e| match e {
            Entry::Moved { seat, mv, .. } => Some((*seat, *mv)),
            _ => None,
        })
    }

    /// Reads the JSON document and replays its moves.
    pub fn from_json(shape: Shape, json: &str) -> Result<AtaxxGame, RuleError> {
        let doc: Doc = serde_json::from_str(json)
            .map_err(|e| RuleError(format!("this is not a {} game document: {e}", title(shape))))?;
        if doc.game != word(shape) {
            return Err(RuleError(format!(
                "this document is a game of '{}', not {}",
                doc.game,
                word(shape)
            )));
        }
        let size = super::read_options(
            shape,
            &[crate::games::GameOption::with_value(
                "size",
                &doc.size.to_string(),
            )],
        )?;
        let mut g = AtaxxGame::new(shape, size);
        crate::games::replay::replay(&mut g, &doc.moves)?;
        Ok(g)
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

    /// Plays a legal move and lists it, with the engine's passes after it.
    fn push_move(&mut self, mv: Move) {
        let seat = self.pos.to_move;
        let before = self.pos.pieces[seat].count();
        let passes = self.pos.apply(mv);
        let grown = self.pos.pieces[seat].count() - before;
        let turned = match mv {
            Move::Clone(_) => grown - 1,
            Move::Jump(..) => grown,
        };
        self.entries.push(Entry::Moved { seat, mv, turned });
        for _ in 0..passes {
            self.entries.push(Entry::Passed { seat: 1 - seat });
        }
    }

    fn names(&self) -> [&'static str; 2] {
        ["Black", "White"]
    }
}

impl GameState for AtaxxGame {
    fn to_json(&self) -> String {
        let moves = self
            .entries
            .iter()
            .filter_map(|e| match e {
                Entry::Moved { mv, .. } => Some(notation::write(&self.pos.geo, *mv)),
                Entry::Passed { .. } => None,
                Entry::Left { seat, how } => Some(crate::games::replay::left(how, *seat)),
                Entry::Drawn => Some("draw".into()),
            })
            .collect();
        let doc = Doc {
            game: word(self.shape).to_string(),
            size: self.pos.geo.size,
            moves,
            status: render::status_line(self),
        };
        serde_json::to_string_pretty(&doc).expect("the document serializes")
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
        self.names().iter().map(|s| s.to_string()).collect()
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
                    text: notation::write(&self.pos.geo, *mv),
                    auto: false,
                },
                Entry::Passed { seat } => MoveRecord {
                    seat: *seat,
                    text: "0000".into(),
                    auto: true,
                },
                Entry::Left { seat, how } => MoveRecord {
                    seat: *seat,
                    text: (*how).into(),
                    auto: false,
                },
                Entry::Drawn => MoveRecord {
                    seat: self.pos.to_move,
                    text: "draw".into(),
                    auto: false,
                },
            })
            .collect()
    }

    fn options_summary(&self) -> String {
        format!("-size={}", self.pos.geo.size)
    }

    fn legal_moves(&self) -> Vec<String> {
        let mut moves = Vec::new();
        self.pos.legal(&mut moves);
        let mut out: Vec<String> = moves
            .into_iter()
            .map(|m| notation::write(&self.pos.geo, m))
            .collect();
        out.sort();
        out
    }

    fn play(&mut self, text: &str) -> Result<(), RuleError> {
        if let Some(r) = &self.pos.result {
            let how = match r {
                Outcome::Winner(s) => format!("{} won", self.names()[*s]),
                Outcome::Draw(_) => "a draw".to_string(),
            };
            return Err(RuleError(format!("the game is over ({how})")));
        }
        let mv = notation::read(&self.pos.geo, text).map_err(RuleError)?;
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
        self.entries.push(Entry::Drawn);
        Ok(())
    }

    fn at_move(&self, n: u32) -> Result<Box<dyn GameState>, RuleError> {
        if n == 0 || n > self.move_number() {
            return Err(RuleError(format!(
                "move {n} does not exist: this game is at move {}",
                self.move_number()
            )));
        }
        let mut g = AtaxxGame::new(self.shape, self.pos.geo.size);
        for e in &self.entries {
            if g.entries.len() as u32 >= n - 1 {
                break;
            }
            match e {
                Entry::Moved { mv, .. } => {
                    g.play(&notation::write(&self.pos.geo, *mv))?;
                }
                Entry::Passed { .. } => {}
                Entry::Left { seat, how } => g.leave(*seat, how)?,
                Entry::Drawn => g.agree_draw()?,
            }
        }
        Ok(Box::new(g))
    }

    fn board_view(&self) -> Board {
        render::board_view(self)
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
        let mut played = 0;
        while self.pos.result.is_none() {
            let mv = self.pos.random_move(pick);
            self.push_move(mv);
            played += 1;
        }
        played
    }

    fn action_space(&self) -> u32 {
        actions::space(&self.pos.geo)
    }

    fn legal_actions(&self, out: &mut Vec<u32>) {
        actions::legal(&self.pos, out);
    }

    fn apply_action(&mut self, action: u32) {
        self.push_move(actions::decode(&self.pos.geo, action));
    }

    fn action_text(&self, action: u32) -> String {
        notation::write(&self.pos.geo, actions::decode(&self.pos.geo, action))
    }

    fn search_rave(&self) -> bool {
        // What a clone or a jump is worth depends on the pieces next to its cells at that moment
        // (they turn), so all-moves-as-first statistics mislead as in Limit.
        false
    }

    fn search_copy(&self) -> Box<dyn GameState> {
        // The search reads only the position; the move list would be copied thousands of times.
        Box::new(AtaxxGame {
            shape: self.shape,
            pos: self.pos.clone(),
            entries: Vec::new(),
        })
    }

    fn may_win_at_once(&self, action: u32) -> bool {
        actions::may_win_at_once(&self.pos, action)
    }

    fn search_playout(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        played: Option<&mut Vec<(usize, u32)>>,
    ) -> bool {
        // On the position alone: a search copy's move list is not kept (see `search_copy`).
        match self.shape {
            Shape::Square => policy::playout(&mut self.pos, pick, played),
            Shape::Hexagon => actions::playout(&mut self.pos, pick, played),
        }
        true
    }

    fn playout_value(&self, seat: usize) -> Option<f32> {
        // Ataxx's playouts stop after a few moves (see `policy`); Hexxagon's play to the end.
        match self.shape {
            Shape::Square => Some(policy::value(&self.pos, seat)),
            Shape::Hexagon => None,
        }
    }

    fn turn_notes(&self, since: u32) -> Vec<String> {
        let from = since.saturating_sub(1) as usize;
        let names = self.names();
        self.entries
            .iter()
            .skip(from)
            .filter_map(|e| match e {
                Entry::Moved { seat, turned, .. } if *turned > 0 => Some(format!(
                    "{} turned {turned} {} piece{}.",
                    names[*seat],
                    names[1 - seat].to_lowercase(),
                    if *turned == 1 { "" } else { "s" }
                )),
                Entry::Passed { seat } => Some(format!(
                    "{} could not move, so the engine passed for {} (0000, Auto).",
                    names[*seat],
                    if *seat == 0 { "Black" } else { "White" }
                )),
                _ => None,
            })
            .collect()
    }

    fn notes(&self) -> Vec<String> {
        let p = &self.pos;
        let mut notes = vec![format!(
            "Pieces: Black {}, White {}.",
            p.pieces[0].count(),
            p.pieces[1].count()
        )];
        if p.result.is_none() && p.no_clone >= 50 {
            notes.push(format!(
                "{} plies without a clone: at {} the game is a draw.",
                p.no_clone,
                super::rules::NO_CLONE_LIMIT
            ));
        }
        notes
    }

    fn pgn_start(&self) -> Option<String> {
        // The FEN tag is standard only for 7×7 Ataxx (records.md section 3).
        if self.shape != Shape::Square || self.pos.geo.size != 7 {
            return None;
        }
        let start = Position::start(self.pos.geo.clone());
        let geo = &self.pos.geo;
        let ranks: Vec<String> = (1..=7i8)
            .rev()
            .map(|rank| {
                let mut row = String::new();
                let mut gap = 0;
                for file in 1..=7i8 {
                    let c = geo.at(rank, file).expect("on the board");
                    let piece = ['x', 'o']
                        .into_iter()
                        .zip(start.pieces)
                        .find(|(_, b)| b.has(c));
                    match piece {
                        Some((ch, _)) => {
                            if gap > 0 {
                                row.push_str(&gap.to_string());
                                gap = 0;
                            }
                            row.push(ch);
                        }
                        None => gap += 1,
                    }
                }
                if gap > 0 {
                    row.push_str(&gap.to_string());
                }
                row
            })
            .collect();
        Some(format!("{} x 0 1", ranks.join("/")))
    }

    fn setup_text(&self) -> String {
        let start = Position::start(self.pos.geo.clone());
        let geo = &self.pos.geo;
        let cells = |seat: usize| -> String {
            let mut cells: Vec<usize> = start.pieces[seat].iter().collect();
            // As the page lists them: Ataxx from the top rank down (a7 g1), Hexxagon from row a up.
            if geo.shape == Shape::Square {
                cells.sort_by_key(|&c| (-geo.coords[c].0, geo.coords[c].1));
            }
            cells
                .iter()
                .map(|&c| geo.name(c))
                .collect::<Vec<_>>()
                .join(" ")
        };
        format!("Black: {}  White: {}", cells(0), cells(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_document_round_trips_and_replays() {
        let mut g = AtaxxGame::new(Shape::Square, 7);
        for m in ["b6", "g7e5", "a7c5"] {
            g.play(m).unwrap();
        }
        let json = g.to_json();
        let back = AtaxxGame::from_json(Shape::Square, &json).unwrap();
        assert_eq!(back.to_json(), json);
        assert_eq!(back.moves(), g.moves());
        assert!(AtaxxGame::from_json(Shape::Hexagon, &json).is_err());
        let bad = json.replace("a7c5", "a7d4");
        let e = AtaxxGame::from_json(Shape::Square, &bad).unwrap_err().0;
        assert!(e.contains("move 3"), "{e}");
    }

    #[test]
    fn status_names_and_an_illegal_move_changes_nothing() {
        let mut g = AtaxxGame::new(Shape::Hexagon, 5);
        assert_eq!(g.status(), Status::ToMove(0));
        assert_eq!(g.seat_names(), ["Black", "White"]);
        let before = g.to_json();
        let e = g.play("e5").unwrap_err().0;
        assert!(e.contains("none of your pieces"), "{e}");
        assert_eq!(g.to_json(), before);
        assert_eq!(g.legal_moves().len(), 24);
        g.resign(0).unwrap();
        assert_eq!(g.status(), Status::Over(Outcome::Winner(1)));
        assert!(g.legal_moves().is_empty());
        let back = AtaxxGame::from_json(Shape::Hexagon, &g.to_json()).unwrap();
        assert_eq!(back.status(), Status::Over(Outcome::Winner(1)));
        assert_eq!(back.moves().last().unwrap().text, "resign");
    }

    #[test]
    fn at_move_replays_the_start_of_the_game() {
        let mut g = AtaxxGame::new(Shape::Square, 7);
        for m in ["b6", "g7e5", "a7c5"] {
            g.play(m).unwrap();
        }
        let earlier = g.at_move(2).unwrap();
        assert_eq!(earlier.moves().len(), 1);
        assert_eq!(earlier.move_number(), 2);
        assert!(g.at_move(9).is_err());
        assert_eq!(g.pgn_start().unwrap(), "x5o/7/7/7/7/7/o5x x 0 1");
        assert_eq!(AtaxxGame::new(Shape::Square, 8).pgn_start(), None);
        assert_eq!(
            g.setup_text(),
            "Black: a7 g1  White: g7 a1",
            "records.md's example"
        );
    }
}

//! One game of Paradux as the server keeps it: the position, the move list with the engine's
//! passes, resignations and agreed draws, and the JSON document (the options and the moves;
//! loading replays them, so the document can never disagree with the rules).

use serde::{Deserialize, Serialize};

use super::rules::{End, Layout, Move, Position, SIDES, centre, ring};
use super::{Options, actions, notation, read_options, render};
use crate::games::{Board, GameOption, GameState, MoveRecord, Outcome, RuleError, Status};

/// One entry of the move list.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Entry {
    /// A player's move, and how it ended the game if it did.
    Moved {
        seat: usize,
        mv: Move,
        end: Option<End>,
    },
    /// The engine passed for a player whose only move was the undo; `draw` when the position
    /// after the pass occurred for the third time.
    Passed { seat: usize, draw: bool },
    /// A player resigned or lost on time (`resign`, `forfeit`).
    Left { seat: usize, how: &'static str },
    /// The players agreed a draw (proposed by the player to move).
    Drawn { seat: usize },
}

/// A game in progress or over.
#[derive(Debug, Clone)]
pub struct ParaduxGame {
    options: Options,
    pos: Position,
    entries: Vec<Entry>,
}

/// The JSON document.
#[derive(Serialize, Deserialize)]
struct Doc {
    game: String,
    size: u8,
    line: u8,
    /// Every entry a player made, in order (`c3~d4`, `c3d4-c4d5`, `resign 0`, `forfeit 1`,
    /// `draw`); the engine's passes are replayed, not stored.
    moves: Vec<String>,
    /// For people reading the document; ignored when it is read.
    #[serde(default)]
    status: String,
}

impl ParaduxGame {
    /// A new game with these options, at the reconstructed set-up.
    pub fn new(options: Options) -> ParaduxGame {
        ParaduxGame {
            options,
            pos: Position::start(Layout::shared(options.size, options.line)),
            entries: Vec::new(),
        }
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The options in force.
    pub fn options(&self) -> Options {
        self.options
    }

    /// The last move a player made, if any.
    pub fn last_move(&self) -> Option<(usize, Move)> {
        self.entries.iter().rev().find_map(|e| match e {
            Entry::Moved { seat, mv, .. } => Some((*seat, *mv)),
            _ => None,
        })
    }

    /// Reads the JSON document and replays its moves.
    pub fn from_json(json: &str) -> Result<ParaduxGame, RuleError> {
        let doc: Doc = serde_json::from_str(json)
            .map_err(|e| RuleError(format!("this is not a Paradux game document: {e}")))?;
        if doc.game != "paradux" {
            return Err(RuleError(format!(
                "this document is a game of '{}', not paradux",
                doc.game
            )));
        }
        let options = read_options(&[
            GameOption::with_value("size", &doc.size.to_string()),
            GameOption::with_value("line", &doc.line.to_string()),
        ])?;
        let mut g = ParaduxGame::new(options);
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

    /// Plays a legal move and lists it, with the engine's pass after it.
    fn push_move(&mut self, mv: Move) {
        let seat = self.pos.to_move;
        let applied = self.pos.apply(mv);
        if applied.passed {
            self.entries.push(Entry::Moved {
                seat,
                mv,
                end: None,
            });
            self.entries.push(Entry::Passed {
                seat: 1 - seat,
                draw: applied.end.is_some(),
            });
        } else {
            self.entries.push(Entry::Moved {
                seat,
                mv,
                end: applied.end,
            });
        }
    }

    /// The text of a move on this board.
    fn write(&self, mv: Move) -> String {
        notation::write(self.pos.geo(), mv)
    }

    /// Cell names, space-separated.
    fn cell_names(&self, cells: &[usize]) -> String {
        let geo = self.pos.geo();
        cells
            .iter()
            .map(|&c| geo.name(c))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// What one move did, in words: which pieces went where.
    fn describe(&self, seat: usize, mv: Move) -> String {
        let geo = self.pos.geo();
        let name = |c: usize| geo.name(c);
        match mv {
            Move::Switch(a, b) => {
                format!(
                    "{} switched ({}): the pieces on {} and {} changed places.",
                    SIDES[seat],
                    self.write(mv),
                    name(a),
                    name(b)
                )
            }
            Move::Pair { from, to } => {
                let dir = (0..6)
                    .find(|&k| geo.step(from[0], k) == Some(to[0]))
                    .map_or("", |k| DIRECTION_NAMES[k]);
                format!(
                    "{} moved a pair {dir}, {} ({}): {} to {}, {} to {}.",
                    SIDES[seat],
                    if mv.inline() { "inline" } else { "broadside" },
                    self.write(mv),
                    name(from[0]),
                    name(to[0]),
                    name(from[1]),
                    name(to[1])
                )
            }
        }
    }
}

/// The six directions of [`crate::games::ataxx::geometry::HEX_DIRECTIONS`] as the board is drawn
/// (row a at the bottom).
const DIRECTION_NAMES: [&str; 6] = [
    "east",
    "north-east",
    "north-west",
    "west",
    "south-west",
    "south-east",
];

impl GameState for ParaduxGame {
    fn to_json(&self) -> String {
        let moves = self
            .entries
            .iter()
            .filter_map(|e| match e {
                Entry::Moved { mv, .. } => Some(self.write(*mv)),
                Entry::Passed { .. } => None,
                Entry::Left { seat, how } => Some(crate::games::replay::left(how, *seat)),
                Entry::Drawn { .. } => Some("draw".into()),
            })
            .collect();
        let doc = Doc {
            game: "paradux".into(),
            size: self.options.size,
            line: self.options.line,
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
                    text: self.write(*mv),
                    auto: false,
                },
                Entry::Passed { seat, .. } => MoveRecord {
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
        format!("-size={} -line={}", self.options.size, self.options.line)
    }

    fn legal_moves(&self) -> Vec<String> {
        let mut moves = Vec::new();
        self.pos.legal(&mut moves);
        let mut out: Vec<String> = moves.into_iter().map(|m| self.write(m)).collect();
        out.sort();
        out
    }

    fn play(&mut self, text: &str) -> Result<(), RuleError> {
        if self.pos.result.is_some() {
            return Err(RuleError(format!(
                "the game is over ({})",
                render::status_line(self)
            )));
        }
        let mv = notation::read(self.pos.geo(), text).map_err(RuleError)?;
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
        let mut g = ParaduxGame::new(self.options);
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

    fn action_space(&self) -> u32 {
        actions::space(self.pos.geo())
    }

    fn legal_actions(&self, out: &mut Vec<u32>) {
        actions::legal(&self.pos, out);
    }

    fn apply_action(&mut self, action: u32) {
        self.push_move(actions::decode(self.pos.geo(), action));
    }

    fn action_text(&self, action: u32) -> String {
        self.write(actions::decode(self.pos.geo(), action))
    }

    fn search_rave(&self) -> bool {
        // An id names two cells, but what it does depends on whose pieces stand there at the
        // moment (the same switch swaps different colours later), so all-moves-as-first misleads.
        false
    }

    fn search_copy(&self) -> Box<dyn GameState> {
        // The search reads only the position (with its counts of earlier positions, which the
        // draw by repetition needs); the move list would be copied thousands of times.
        Box::new(ParaduxGame {
            options: self.options,
            pos: self.pos.clone(),
            entries: Vec::new(),
        })
    }

    fn may_win_at_once(&self, action: u32) -> bool {
        // Exact and cheap: only a move that gives the mover a line wins (section 5.1).
        self.pos
            .wins_at_once(actions::decode(self.pos.geo(), action))
    }

    fn search_playout(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        played: Option<&mut Vec<(usize, u32)>>,
    ) -> bool {
        // On the position alone: a search copy's move list is not kept (see `search_copy`).
        actions::playout(&mut self.pos, pick, played);
        true
    }

    fn turn_notes(&self, since: u32) -> Vec<String> {
        let from = since.saturating_sub(1) as usize;
        let mut notes = Vec::new();
        let mut prev: Option<Move> = None;
        for (i, e) in self.entries.iter().enumerate() {
            let shown = i >= from;
            match e {
                Entry::Moved { seat, mv, end } => {
                    if shown {
                        notes.push(self.describe(*seat, *mv));
                        match end {
                            Some(End::Line(w)) => notes.push(self.line_note(*seat, *w)),
                            Some(End::Repetition) => notes.push(format!(
                                "This position, {} to move, has now occurred for the third time: \
                                 the game is a draw.",
                                SIDES[1 - seat]
                            )),
                            None => {}
                        }
                    }
                    prev = Some(*mv);
                }
                Entry::Passed { seat, draw } if shown => {
                    let undo = prev.map(|m| self.write(m.undo())).unwrap_or_default();
                    notes.push(format!(
                        "{}'s only move, {undo}, would undo {}'s last move, so the engine passed \
                         for {} (pass, Auto); {} moves again.",
                        SIDES[*seat],
                        SIDES[1 - seat],
                        SIDES[*seat],
                        SIDES[1 - seat]
                    ));
                    if *draw {
                        notes.push(format!(
                            "This position, {} to move, has now occurred for the third time: \
                             the game is a draw.",
                            SIDES[1 - seat]
                        ));
                    }
                }
                _ => {}
            }
        }
        notes
    }

    fn notes(&self) -> Vec<String> {
        let p = &self.pos;
        let mut notes = vec![format!(
            "{} in a row (or more) along a row or a diagonal wins (-line={}).",
            self.options.line, self.options.line
        )];
        if p.result.is_none() {
            if let Some(f) = p.forbidden() {
                notes.push(format!(
                    "{} may not play {}: it would undo {}'s last move.",
                    SIDES[p.to_move],
                    self.write(f),
                    SIDES[1 - p.to_move]
                ));
            }
            if p.occurrences() == 2 {
                notes.push("This position has occurred twice: a third time is a draw.".to_string());
            }
        }
        notes
    }

    fn setup_text(&self) -> String {
        let geo = self.pos.geo();
        // As the page lists them: the ring from a1 anticlockwise, then the centre piece.
        let ring = ring(geo);
        let centre = centre(geo);
        let side = |seat: usize| -> String {
            let mut cells: Vec<usize> = ring.iter().copied().skip(seat).step_by(2).collect();
            cells.push(centre[seat]);
            self.cell_names(&cells)
        };
        format!(
            "Black: {}  White: {}\n(reconstructed set-up, see paradux-rules.md 2)",
            side(0),
            side(1)
        )
    }
}

impl ParaduxGame {
    /// The note for a move that made a line: who has it, where, and who wins.
    fn line_note(&self, mover: usize, winner: usize) -> String {
        let layout = &self.pos.layout;
        let cells = |s: usize| layout.line_cells(self.pos.pieces[s]).unwrap_or_default();
        let k = self.options.line;
        if winner == mover {
            let mut note = format!(
                "{} has {} in a row ({})",
                SIDES[mover],
                cells(mover).len(),
                self.cell_names(&cells(mover))
            );
            let theirs = cells(1 - mover);
            if !theirs.is_empty() {
                note.push_str(&format!(
                    " and so has {} ({}), but the mover wins",
                    SIDES[1 - mover],
                    self.cell_names(&theirs)
                ));
            }
            format!("{note}: {} wins.", SIDES[mover])
        } else {
            format!(
                "{}'s move gave {} {} in a row ({}), {k} or more wins: {} wins.",
                SIDES[mover],
                SIDES[winner],
                cells(winner).len(),
                self.cell_names(&cells(winner)),
                SIDES[winner]
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new() -> ParaduxGame {
        ParaduxGame::new(Options { size: 4, line: 4 })
    }

    #[test]
    fn the_document_round_trips_and_replays() {
        let mut g = new();
        for m in ["a1a2-b2b3", "b3 b2 - b4 b3", "b4~b3"] {
            g.play(m).unwrap();
        }
        let json = g.to_json();
        assert!(json.contains("\"b2b3-b3b4\""), "canonical moves: {json}");
        let back = ParaduxGame::from_json(&json).unwrap();
        assert_eq!(back.to_json(), json);
        assert_eq!(back.moves(), g.moves());
        let bad = json.replace("b3~b4", "b3~c4");
        let e = ParaduxGame::from_json(&bad).unwrap_err().0;
        assert!(e.contains("move 3"), "{e}");
        let e = ParaduxGame::from_json(&json.replace("\"line\": 4", "\"line\": 9"))
            .unwrap_err()
            .0;
        assert!(e.contains("-line=9 is out of range"), "{e}");
        let early = g.at_move(2).unwrap();
        assert_eq!(early.moves()[..], g.moves()[..1]);
        assert!(g.at_move(9).is_err());
    }

    #[test]
    fn status_names_and_an_illegal_move_changes_nothing() {
        let mut g = new();
        assert_eq!(g.status(), Status::ToMove(0));
        assert_eq!(g.seat_names(), ["Black", "White"]);
        assert_eq!(g.options_summary(), "-size=4 -line=4");
        g.play("a1~a2").unwrap();
        let before = g.to_json();
        let e = g.play("a1~a2").unwrap_err().0;
        assert!(e.contains("would undo the opponent's last move"), "{e}");
        assert!(g.play("resign").is_err());
        assert_eq!(g.to_json(), before);
        assert!(!g.legal_moves().contains(&"a1~a2".to_string()));
        assert!(
            g.notes()
                .iter()
                .any(|n| n.contains("White may not play a1~a2"))
        );
        g.resign(1).unwrap();
        assert_eq!(g.status(), Status::Over(Outcome::Winner(0)));
        assert!(g.legal_moves().is_empty());
        let back = ParaduxGame::from_json(&g.to_json()).unwrap();
        assert_eq!(back.moves().last().unwrap().text, "resign");
    }

    #[test]
    fn the_notes_say_what_the_moves_did() {
        let mut g = new();
        g.play("a1a2-b2b3").unwrap();
        g.play("b2b3-b3b4").unwrap();
        assert_eq!(
            g.turn_notes(1),
            [
                "Black moved a pair north-east, broadside (a1a2-b2b3): a1 to b2, a2 to b3.",
                "White moved a pair east, inline (b2b3-b3b4): b2 to b3, b3 to b4."
            ]
        );
        g.play("b3~b4").unwrap();
        assert_eq!(
            g.turn_notes(3),
            ["Black switched (b3~b4): the pieces on b3 and b4 changed places."]
        );
    }

    #[test]
    fn a_forced_pass_is_an_auto_entry_with_its_reason() {
        // White (a1 a3 b3, Black a2 b1) switches a1~a2; Black's only move would switch back.
        let mut g = ParaduxGame::new(Options { size: 4, line: 7 });
        let layout = Layout::shared(4, 7);
        let mut pieces = [crate::games::ataxx::bits::Bits::EMPTY; 2];
        for (s, cells) in [["a2", "b1", ""], ["a1", "a3", "b3"]].iter().enumerate() {
            for c in cells.iter().filter(|c| !c.is_empty()) {
                pieces[s].set(layout.geo.read_cell(c).unwrap().0);
            }
        }
        g.pos = Position::with(layout, pieces, 1);
        g.play("a2~a1").unwrap();
        assert_eq!(g.status(), Status::ToMove(1));
        let last = g.moves().pop().unwrap();
        assert_eq!(
            (last.seat, last.text.as_str(), last.auto),
            (0, "pass", true)
        );
        assert_eq!(g.move_number(), 3);
        assert_eq!(
            g.turn_notes(1)[1],
            "Black's only move, a1~a2, would undo White's last move, so the engine passed for \
             Black (pass, Auto); White moves again."
        );
    }

    #[test]
    fn lines_and_repetitions_end_the_game_and_the_notes_say_how() {
        // Both get a line from Black's switch: the mover wins, and the note names both lines.
        let mut g = new();
        let layout = Layout::shared(4, 4);
        let mut pieces = [crate::games::ataxx::bits::Bits::EMPTY; 2];
        for (s, cells) in [["b1", "b2", "b3", "c4"], ["c1", "c2", "c3", "b4"]]
            .iter()
            .enumerate()
        {
            for c in cells {
                pieces[s].set(layout.geo.read_cell(c).unwrap().0);
            }
        }
        g.pos = Position::with(layout, pieces, 0);
        g.play("c4~b4").unwrap();
        assert_eq!(g.status(), Status::Over(Outcome::Winner(0)));
        assert_eq!(
            g.turn_notes(1)[1],
            "Black has 4 in a row (b1 b2 b3 b4) and so has White (c1 c2 c3 c4), but the mover \
             wins: Black wins."
        );
        let e = g.play("a1~a2").unwrap_err().0;
        assert!(e.contains("the game is over (Black (X) wins)"), "{e}");

        // The start comes back after 4 and 8 plies: the third time is a draw, also on replay.
        let mut g = new();
        for m in ["a1~a2", "g7~g6", "a1~a2", "g7~g6"].repeat(2) {
            assert_eq!(g.status(), Status::ToMove(g.moves().len() % 2));
            g.play(m).unwrap();
        }
        assert_eq!(g.status(), Status::Over(Outcome::Draw(vec![0, 1])));
        assert_eq!(
            g.turn_notes(8).last().unwrap(),
            "This position, Black to move, has now occurred for the third time: the game is a draw."
        );
        let back = ParaduxGame::from_json(&g.to_json()).unwrap();
        assert_eq!(back.status(), g.status());
        // One ply earlier the notes warn of it.
        let before = g.at_move(8).unwrap();
        assert_eq!(before.status(), Status::ToMove(1));
        assert!(
            before
                .notes()
                .iter()
                .any(|n| n == "This position has occurred twice: a third time is a draw."),
            "{:?}",
            before.notes()
        );
    }

    #[test]
    fn the_record_names_the_set_up_as_a_reconstruction() {
        assert_eq!(
            new().setup_text(),
            "Black: a1 a3 b5 d7 f7 g6 g4 e2 c1 d3  White: a2 a4 c6 e7 g7 g5 f3 d1 b1 d5\n\
             (reconstructed set-up, see paradux-rules.md 2)"
        );
    }

    #[test]
    fn random_games_end_and_replay_from_their_documents() {
        let mut seed = 11u64;
        let mut pick = |n: usize| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            ((seed >> 33) as usize) % n
        };
        for (size, line) in [(4, 4), (5, 5), (7, 4)] {
            let mut g = ParaduxGame::new(Options { size, line });
            assert!(g.random_playout(&mut pick) > 0);
            assert!(matches!(g.status(), Status::Over(_)));
            let back = ParaduxGame::from_json(&g.to_json()).unwrap();
            assert_eq!(back.moves(), g.moves());
            assert_eq!(back.status(), g.status());
            assert!(!g.turn_notes(g.move_number() - 1).is_empty());
        }
    }
}

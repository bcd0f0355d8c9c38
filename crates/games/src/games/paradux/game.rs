//! One game of Paradux as the server keeps it: the position under the move record every game
//! shares ([`Match`]: the move list with the engine's passes, resignations and agreed draws, and
//! the JSON document of the options and the moves, replayed on load).

use super::rules::{End, Layout, Move, Position, SIDES, centre, ring};
use super::{actions, notation, read_options, render};
use crate::games::matchplay::{Entry, Match, Rules, Search, View};
use crate::games::{Board, GameOption, Outcome, RuleError};

/// A game of Paradux.
pub type ParaduxGame = Match<Position>;

/// The six directions of [`crate::games::cellgrid::geometry::HEX_DIRECTIONS`] as the board is drawn
/// (row a at the bottom).
const DIRECTION_NAMES: [&str; 6] = [
    "east",
    "north-east",
    "north-west",
    "west",
    "south-west",
    "south-east",
];

impl Rules for Position {
    type Move = Move;
    const GAME: &'static str = "paradux";
    fn start(options: &[GameOption], players: usize) -> Result<Position, RuleError> {
        if players != 2 {
            return Err(RuleError(format!(
                "Paradux is a game for two players, not {players}"
            )));
        }
        let o = read_options(options)?;
        Ok(Position::start(Layout::shared(o.size, o.line)))
    }
    fn options(&self) -> Vec<GameOption> {
        vec![
            GameOption::with_value("size", &self.geo().size.to_string()),
            GameOption::with_value("line", &self.layout.line.to_string()),
        ]
    }
    fn seat_names(&self) -> Vec<String> {
        SIDES.iter().map(|s| s.to_string()).collect()
    }
    fn to_move(&self) -> usize {
        self.to_move
    }
    fn outcome(&self) -> Option<Outcome> {
        self.result.clone()
    }
    fn legal(&self, out: &mut Vec<Move>) {
        Position::legal(self, out);
    }
    fn check(&self, mv: Move) -> Result<(), RuleError> {
        Position::check(self, mv).map_err(RuleError)
    }
    fn apply(&mut self, mv: Move) -> u32 {
        u32::from(Position::apply(self, mv).passed)
    }
    /// A move's cells are numbered by the board's size.
    fn read_here(&self, text: &str) -> Result<Move, RuleError> {
        notation::read(self.geo(), text).map_err(RuleError)
    }
    fn write_here(&self, mv: Move) -> String {
        notation::write(self.geo(), mv)
    }
    fn seats(&self) -> usize {
        2
    }
    fn action_space(&self) -> u32 {
        actions::space(self.geo())
    }
    fn action_here(&self, mv: Move) -> u32 {
        actions::encode(self.geo(), mv)
    }
    fn move_here(&self, action: u32) -> Move {
        actions::decode(self.geo(), action)
    }
    fn over_text(game: &ParaduxGame) -> Option<String> {
        Some(render::status_line(game))
    }
}

impl View for Position {
    fn ascii(game: &ParaduxGame) -> String {
        render::ascii(game)
    }
    fn paint(game: &ParaduxGame, painter: &mut dyn crate::picture::Painter) -> bool {
        render::paint(game, painter);
        true
    }
    fn board_view(game: &ParaduxGame) -> Option<Board> {
        Some(render::board_view(game))
    }
    fn notes(game: &ParaduxGame) -> Vec<String> {
        let p = game.position();
        let line = p.layout.line;
        let mut notes = vec![format!(
            "{line} in a row (or more) along a row or a diagonal wins (-line={line})."
        )];
        if game.outcome().is_none() {
            if let Some(f) = p.forbidden() {
                notes.push(format!(
                    "{} may not play {}: it would undo {}'s last move.",
                    SIDES[p.to_move],
                    p.write_here(f),
                    SIDES[1 - p.to_move]
                ));
            }
            if p.occurrences() == 2 {
                notes.push("This position has occurred twice: a third time is a draw.".to_string());
            }
        }
        notes
    }
    fn turn_notes(game: &ParaduxGame, since: u32) -> Option<Vec<String>> {
        let from = since.saturating_sub(1) as usize;
        let mut notes = Vec::new();
        let mut prev: Option<Move> = None;
        let repeated = |seat: usize| {
            format!(
                "This position, {} to move, has now occurred for the third time: the game is a \
                 draw.",
                SIDES[1 - seat]
            )
        };
        for (i, (e, before)) in game.replayed().into_iter().enumerate() {
            let shown = i >= from;
            match *e {
                Entry::Moved { seat, mv } => {
                    if shown {
                        notes.push(describe(&before, seat, mv));
                        let mut after = before.clone();
                        let applied = after.apply(mv);
                        // A move the engine passed after tells its end with the pass.
                        match applied.end.filter(|_| !applied.passed) {
                            Some(End::Line(w)) => notes.push(line_note(&after, seat, w)),
                            Some(End::Repetition) => notes.push(repeated(seat)),
                            None => {}
                        }
                    }
                    prev = Some(mv);
                }
                // `before` is the position after the move and the pass.
                Entry::Passed { seat } if shown => {
                    let undo = prev
                        .map(|m| before.write_here(m.undo()))
                        .unwrap_or_default();
                    notes.push(format!(
                        "{}'s only move, {undo}, would undo {}'s last move, so the engine passed \
                         for {} (pass, Auto); {} moves again.",
                        SIDES[seat],
                        SIDES[1 - seat],
                        SIDES[seat],
                        SIDES[1 - seat]
                    ));
                    if before.result.is_some() {
                        notes.push(repeated(seat));
                    }
                }
                _ => {}
            }
        }
        Some(notes)
    }
    /// Called on the start position.
    fn setup_text(&self) -> Option<String> {
        let geo = self.geo();
        // As the page lists them: the ring from a1 anticlockwise, then the centre piece.
        let ring = ring(geo);
        let centre = centre(geo);
        let side = |seat: usize| -> String {
            let mut cells: Vec<usize> = ring.iter().copied().skip(seat).step_by(2).collect();
            cells.push(centre[seat]);
            cell_names(self, &cells)
        };
        Some(format!(
            "Black: {}  White: {}\n(reconstructed set-up, see paradux-rules.md 2)",
            side(0),
            side(1)
        ))
    }
}

impl Search for Position {
    fn rave(&self) -> bool {
        // An id names two cells, but what it does depends on whose pieces stand there at the
        // moment (the same switch swaps different colours later), so all-moves-as-first misleads.
        false
    }
    fn may_win_at_once(&self, action: u32) -> bool {
        // Exact and cheap: only a move that gives the mover a line wins (section 5.1).
        self.wins_at_once(actions::decode(self.geo(), action))
    }
    fn playout(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        played: Option<&mut Vec<(usize, u32)>>,
    ) -> bool {
        actions::playout(self, pick, played);
        true
    }
    fn legal_actions(&self, out: &mut Vec<u32>) -> bool {
        actions::legal(self, out);
        true
    }
}

/// Cell names, space-separated.
fn cell_names(p: &Position, cells: &[usize]) -> String {
    let geo = p.geo();
    cells
        .iter()
        .map(|&c| geo.name(c))
        .collect::<Vec<_>>()
        .join(" ")
}

/// What one move did, in words: which pieces went where.
fn describe(p: &Position, seat: usize, mv: Move) -> String {
    let geo = p.geo();
    let name = |c: usize| geo.name(c);
    match mv {
        Move::Switch(a, b) => {
            format!(
                "{} switched ({}): the pieces on {} and {} changed places.",
                SIDES[seat],
                p.write_here(mv),
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
                p.write_here(mv),
                name(from[0]),
                name(to[0]),
                name(from[1]),
                name(to[1])
            )
        }
    }
}

/// The note for a move that made a line, on the position after it: who has it, where, and who
/// wins.
fn line_note(p: &Position, mover: usize, winner: usize) -> String {
    let layout = &p.layout;
    let cells = |s: usize| layout.line_cells(p.pieces[s]).unwrap_or_default();
    let k = layout.line;
    if winner == mover {
        let mut note = format!(
            "{} has {} in a row ({})",
            SIDES[mover],
            cells(mover).len(),
            cell_names(p, &cells(mover))
        );
        let theirs = cells(1 - mover);
        if !theirs.is_empty() {
            note.push_str(&format!(
                " and so has {} ({}), but the mover wins",
                SIDES[1 - mover],
                cell_names(p, &theirs)
            ));
        }
        format!("{note}: {} wins.", SIDES[mover])
    } else {
        format!(
            "{}'s move gave {} {} in a row ({}), {k} or more wins: {} wins.",
            SIDES[mover],
            SIDES[winner],
            cells(winner).len(),
            cell_names(p, &cells(winner)),
            SIDES[winner]
        )
    }
}

/// A new game with these options (for the tests).
#[cfg(test)]
pub(crate) fn new_game(options: super::Options) -> ParaduxGame {
    Match::from_position(Position::start(Layout::shared(options.size, options.line)))
}

#[cfg(test)]
mod tests {
    use super::super::Options;
    use super::*;
    use crate::games::{GameState, Status};

    fn new() -> ParaduxGame {
        new_game(Options { size: 4, line: 4 })
    }

    #[test]
    fn the_document_round_trips_and_replays() {
        let mut g = new();
        for m in ["a1a2-b2b3", "b3 b2 - b4 b3", "b4~b3"] {
            g.play(m).unwrap();
        }
        let json = g.to_json();
        assert!(json.contains("\"b2b3-b3b4\""), "canonical moves: {json}");
        let back = ParaduxGame::load(&json).unwrap();
        assert_eq!(back.to_json(), json);
        assert_eq!(back.moves(), g.moves());
        let bad = json.replace("b3~b4", "b3~c4");
        let e = ParaduxGame::load(&bad).unwrap_err().0;
        assert!(e.contains("move 3"), "{e}");
        let e = ParaduxGame::load(&json.replace("\"line\": 4", "\"line\": 9"))
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
        let back = ParaduxGame::load(&g.to_json()).unwrap();
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
        let layout = Layout::shared(4, 7);
        let mut pieces = [crate::games::cellgrid::bits::Bits::EMPTY; 2];
        for (s, cells) in [["a2", "b1", ""], ["a1", "a3", "b3"]].iter().enumerate() {
            for c in cells.iter().filter(|c| !c.is_empty()) {
                pieces[s].set(layout.geo.read_cell(c).unwrap().0);
            }
        }
        let mut g = ParaduxGame::from_position(Position::with(layout, pieces, 1));
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
        let layout = Layout::shared(4, 4);
        let mut pieces = [crate::games::cellgrid::bits::Bits::EMPTY; 2];
        for (s, cells) in [["b1", "b2", "b3", "c4"], ["c1", "c2", "c3", "b4"]]
            .iter()
            .enumerate()
        {
            for c in cells {
                pieces[s].set(layout.geo.read_cell(c).unwrap().0);
            }
        }
        let mut g = ParaduxGame::from_position(Position::with(layout, pieces, 0));
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
        let back = ParaduxGame::load(&g.to_json()).unwrap();
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
            let mut g = new_game(Options { size, line });
            assert!(g.random_playout(&mut pick) > 0);
            assert!(matches!(g.status(), Status::Over(_)));
            let back = ParaduxGame::load(&g.to_json()).unwrap();
            assert_eq!(back.moves(), g.moves());
            assert_eq!(back.status(), g.status());
            assert!(!g.turn_notes(g.move_number() - 1).is_empty());
        }
    }
}

/// Documents written by 8096aec (before the shared record) and what it said of them; theirs carry
/// a `status` line for people, which loading skips.
#[cfg(test)]
mod stored {
    use super::super::Paradux;
    use crate::games::matchplay::check_stored;

    #[test]
    fn documents_written_by_8096aec_load_and_say_what_they_said() {
        for fixture in [
            include_str!("../../../tests/stored/paradux-mid.json"),
            include_str!("../../../tests/stored/paradux-drawn.json"),
            include_str!("../../../tests/stored/paradux-5-resigned.json"),
        ] {
            check_stored(&Paradux, fixture);
        }
    }
}

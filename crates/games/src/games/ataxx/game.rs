//! One game of Ataxx or Hexxagon as the server keeps it: the position under the move record every
//! game shares ([`Match`]: the move list with the engine's passes, written `0000`, resignations
//! and agreed draws, and the JSON document of the size and the moves, replayed on load). The two
//! games are one position type, [`Play`], told apart by their [`GameRules`] type ([`Kind`]), so
//! that each document names its own game.

use std::fmt;
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};

use super::rules::{Move, Position};
use super::{Ataxx, Hexxagon, actions, notation, policy, read_options};
use super::{render, title};
use crate::games::cellgrid::geometry::{Geometry, Shape};
use crate::games::matchplay::{Entry, Match, Rules, Search, View};
use crate::games::{Board, GameOption, GameRules, Outcome, RuleError};

/// Ataxx or Hexxagon: the board's shape and the game's command word.
pub trait Kind: GameRules + 'static {
    /// The board's shape.
    const SHAPE: Shape;
    /// The command word, as the document names the game.
    const GAME: &'static str;
}

impl Kind for Ataxx {
    const SHAPE: Shape = Shape::Square;
    const GAME: &'static str = "ataxx";
}

impl Kind for Hexxagon {
    const SHAPE: Shape = Shape::Hexagon;
    const GAME: &'static str = "hexxagon";
}

/// A position of the game `K` (it reads as a [`Position`]).
pub struct Play<K> {
    pos: Position,
    kind: PhantomData<fn() -> K>,
}

impl<K> Clone for Play<K> {
    fn clone(&self) -> Self {
        Play {
            pos: self.pos.clone(),
            kind: PhantomData,
        }
    }
}

impl<K> fmt::Debug for Play<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.pos.fmt(f)
    }
}

impl<K> Deref for Play<K> {
    type Target = Position;
    fn deref(&self) -> &Position {
        &self.pos
    }
}

impl<K> DerefMut for Play<K> {
    fn deref_mut(&mut self) -> &mut Position {
        &mut self.pos
    }
}

impl<K: Kind> Play<K> {
    /// The start on the board of this size.
    pub fn start(size: u8) -> Play<K> {
        Play {
            pos: Position::start(Geometry::shared(K::SHAPE, size)),
            kind: PhantomData,
        }
    }
}

/// A game of Ataxx (`AtaxxGame<Ataxx>`) or Hexxagon (`AtaxxGame<Hexxagon>`).
pub type AtaxxGame<K> = Match<Play<K>>;

impl<K: Kind> Match<Play<K>> {
    /// The board.
    pub fn geometry(&self) -> &Geometry {
        &self.position().geo
    }

    /// The board's shape.
    pub fn shape(&self) -> Shape {
        K::SHAPE
    }
}

const NAMES: [&str; 2] = ["Black", "White"];

impl<K: Kind> Rules for Play<K> {
    type Move = Move;
    const GAME: &'static str = K::GAME;
    fn start(options: &[GameOption], players: usize) -> Result<Self, RuleError> {
        if players != 2 {
            return Err(RuleError(format!(
                "{} is a game for two players, not {players}",
                title(K::SHAPE)
            )));
        }
        Ok(Play::start(read_options(K::SHAPE, options)?))
    }
    fn options(&self) -> Vec<GameOption> {
        vec![GameOption::with_value("size", &self.geo.size.to_string())]
    }
    fn seat_names(&self) -> Vec<String> {
        NAMES.iter().map(|s| s.to_string()).collect()
    }
    fn to_move(&self) -> usize {
        self.to_move
    }
    fn outcome(&self) -> Option<Outcome> {
        self.result.clone()
    }
    fn legal(&self, out: &mut Vec<Move>) {
        self.pos.legal(out);
    }
    fn check(&self, mv: Move) -> Result<(), RuleError> {
        self.pos.check(mv).map_err(RuleError)
    }
    fn apply(&mut self, mv: Move) -> u32 {
        self.pos.apply(mv)
    }
    /// A move's cells are numbered by the board's size.
    fn read_here(&self, text: &str) -> Result<Move, RuleError> {
        notation::read(&self.geo, text).map_err(RuleError)
    }
    fn write_here(&self, mv: Move) -> String {
        notation::write(&self.geo, mv)
    }
    fn seats(&self) -> usize {
        2
    }
    fn action_space(&self) -> u32 {
        actions::space(&self.geo)
    }
    fn action_here(&self, mv: Move) -> u32 {
        actions::encode(&self.geo, mv)
    }
    fn move_here(&self, action: u32) -> Move {
        actions::decode(&self.geo, action)
    }
    fn over_text(game: &Match<Self>) -> Option<String> {
        Some(match game.outcome()? {
            Outcome::Winner(s) => format!("{} won", NAMES[s]),
            Outcome::Draw(_) => "a draw".to_string(),
        })
    }
}

impl<K: Kind> View for Play<K> {
    fn ascii(game: &AtaxxGame<K>) -> String {
        render::ascii(game)
    }
    fn paint(game: &AtaxxGame<K>, painter: &mut dyn crate::picture::Painter) -> bool {
        render::paint(game, painter);
        true
    }
    fn board_view(game: &AtaxxGame<K>) -> Option<Board> {
        Some(render::board_view(game))
    }
    fn pass_text(&self) -> &'static str {
        "0000"
    }
    fn notes(game: &AtaxxGame<K>) -> Vec<String> {
        let p = game.position();
        let mut notes = vec![format!(
            "Pieces: Black {}, White {}.",
            p.pieces[0].count(),
            p.pieces[1].count()
        )];
        if game.outcome().is_none() && p.no_clone >= 50 {
            notes.push(format!(
                "{} plies without a clone: at {} the game is a draw.",
                p.no_clone,
                super::rules::NO_CLONE_LIMIT
            ));
        }
        notes
    }
    fn turn_notes(game: &AtaxxGame<K>, since: u32) -> Option<Vec<String>> {
        let notes = game
            .replayed()
            .into_iter()
            .skip(since.saturating_sub(1) as usize)
            .filter_map(|(e, before)| match *e {
                Entry::Moved { seat, mv } => {
                    let mut after = before.clone();
                    after.apply(mv);
                    let grown = after.pieces[seat].count() - before.pieces[seat].count();
                    let turned = match mv {
                        Move::Clone(_) => grown - 1,
                        Move::Jump(..) => grown,
                    };
                    (turned > 0).then(|| {
                        format!(
                            "{} turned {turned} {} piece{}.",
                            NAMES[seat],
                            NAMES[1 - seat].to_lowercase(),
                            if turned == 1 { "" } else { "s" }
                        )
                    })
                }
                Entry::Passed { seat } => Some(format!(
                    "{} could not move, so the engine passed for {} (0000, Auto).",
                    NAMES[seat], NAMES[seat]
                )),
                _ => None,
            })
            .collect();
        Some(notes)
    }
    /// Called on the start position.
    fn pgn_start(&self) -> Option<String> {
        // The FEN tag is standard only for 7×7 Ataxx (records.md section 3).
        if self.geo.shape != Shape::Square || self.geo.size != 7 {
            return None;
        }
        let geo = &self.geo;
        let ranks: Vec<String> = (1..=7i8)
            .rev()
            .map(|rank| {
                let mut row = String::new();
                let mut gap = 0;
                for file in 1..=7i8 {
                    let c = geo.at(rank, file).expect("on the board");
                    let piece = ['x', 'o']
                        .into_iter()
                        .zip(self.pieces)
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
    /// Called on the start position.
    fn setup_text(&self) -> Option<String> {
        let geo = &self.geo;
        let cells = |seat: usize| -> String {
            let mut cells: Vec<usize> = self.pieces[seat].iter().collect();
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
        Some(format!("Black: {}  White: {}", cells(0), cells(1)))
    }
}

impl<K: Kind> Search for Play<K> {
    fn rave(&self) -> bool {
        // What a clone or a jump is worth depends on the pieces next to its cells at that moment
        // (they turn), so all-moves-as-first statistics mislead as in Limit.
        false
    }
    fn may_win_at_once(&self, action: u32) -> bool {
        actions::may_win_at_once(&self.pos, action)
    }
    fn playout(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        played: Option<&mut Vec<(usize, u32)>>,
    ) -> bool {
        match K::SHAPE {
            Shape::Square => policy::playout(&mut self.pos, pick, played),
            Shape::Hexagon => actions::playout(&mut self.pos, pick, played),
        }
        true
    }
    fn legal_actions(&self, out: &mut Vec<u32>) -> bool {
        actions::legal(&self.pos, out);
        true
    }
    fn playout_value(&self, seat: usize) -> Option<f32> {
        // Ataxx's playouts stop after a few moves (see `policy`); Hexxagon's play to the end.
        match K::SHAPE {
            Shape::Square => Some(policy::value(&self.pos, seat)),
            Shape::Hexagon => None,
        }
    }
    /// Each move drawn without listing them ([`Position::random_move`]), then the passes the rules
    /// make recorded after it.
    fn random_moves(
        &mut self,
        pick: &mut dyn FnMut(usize) -> usize,
        played: &mut Vec<Entry<Move>>,
    ) -> Option<u32> {
        let mut moves = 0;
        while self.pos.result.is_none() {
            let mv = self.pos.random_move(pick);
            let seat = self.pos.to_move;
            let passes = self.pos.apply(mv);
            Entry::push_move(played, seat, mv, passes, 2);
            moves += 1;
        }
        Some(moves)
    }
}

/// A new game of `K` on the board of this size (for the tests).
#[cfg(test)]
pub(crate) fn new_game<K: Kind>(size: u8) -> AtaxxGame<K> {
    Match::from_position(Play::start(size))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{GameState, Status};

    #[test]
    fn the_document_round_trips_and_replays() {
        let mut g = new_game::<Ataxx>(7);
        for m in ["b6", "g7e5", "a7c5"] {
            g.play(m).unwrap();
        }
        let json = g.to_json();
        let back = AtaxxGame::<Ataxx>::load(&json).unwrap();
        assert_eq!(back.to_json(), json);
        assert_eq!(back.moves(), g.moves());
        assert!(AtaxxGame::<Hexxagon>::load(&json).is_err());
        let bad = json.replace("a7c5", "a7d4");
        let e = AtaxxGame::<Ataxx>::load(&bad).unwrap_err().0;
        assert!(e.contains("move 3"), "{e}");
    }

    #[test]
    fn status_names_and_an_illegal_move_changes_nothing() {
        let mut g = new_game::<Hexxagon>(5);
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
        let e = g.play("a1").unwrap_err().0;
        assert_eq!(e, "the game is over (White won)");
        let back = AtaxxGame::<Hexxagon>::load(&g.to_json()).unwrap();
        assert_eq!(back.status(), Status::Over(Outcome::Winner(1)));
        assert_eq!(back.moves().last().unwrap().text, "resign");
    }

    #[test]
    fn at_move_replays_the_start_of_the_game() {
        let mut g = new_game::<Ataxx>(7);
        for m in ["b6", "g7e5", "a7c5"] {
            g.play(m).unwrap();
        }
        let earlier = g.at_move(2).unwrap();
        assert_eq!(earlier.moves().len(), 1);
        assert_eq!(earlier.move_number(), 2);
        assert!(g.at_move(9).is_err());
        assert_eq!(g.pgn_start().unwrap(), "x5o/7/7/7/7/7/o5x x 0 1");
        assert_eq!(new_game::<Ataxx>(8).pgn_start(), None);
        assert_eq!(
            g.setup_text(),
            "Black: a7 g1  White: g7 a1",
            "records.md's example"
        );
        assert!(g.turn_notes(1).is_empty(), "no piece turned yet");
        let mut later = g.clone();
        later.play("d4").unwrap();
        assert_eq!(later.turn_notes(4), ["White turned 1 black piece."]);
    }
}

/// Documents written by 8096aec (before the shared record) and what it said of them; theirs carry
/// a `status` line for people, which loading skips.
#[cfg(test)]
mod stored {
    use super::{Ataxx, Hexxagon};
    use crate::games::matchplay::check_stored;

    #[test]
    fn documents_written_by_8096aec_load_and_say_what_they_said() {
        for fixture in [
            include_str!("../../../tests/stored/ataxx-mid.json"),
            include_str!("../../../tests/stored/ataxx-resigned.json"),
            include_str!("../../../tests/stored/ataxx-5-finished.json"),
        ] {
            check_stored(&Ataxx, fixture);
        }
        for fixture in [
            include_str!("../../../tests/stored/hexxagon-mid.json"),
            include_str!("../../../tests/stored/hexxagon-forfeit.json"),
            include_str!("../../../tests/stored/hexxagon-3-finished.json"),
        ] {
            check_stored(&Hexxagon, fixture);
        }
    }
}

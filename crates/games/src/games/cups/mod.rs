//! Cups, Sid Sackson's mancala by Arthur and Wald Amberstone, as `cups-rules.md` settles it.
//! [`rules`] is the engine, a position that this module makes a [`Match`] of (the move record
//! every game shares: the move list with the engine's passes, the JSON document of the size and
//! the moves, replayed on load); [`render`] draws the rows, reserves and bowls.

pub mod render;
pub mod rules;

use super::matchplay::{Entry, Match, Rules, Search, View};
use super::{GameOption, GameRules, GameState, Outcome, RuleError};
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
        Ok(Box::new(CupsGame::new(options, players)?))
    }
    fn load(&self, json: &str) -> Result<Box<dyn GameState>, RuleError> {
        Ok(Box::new(CupsGame::load(json)?))
    }
    fn read_move(&self, mv: &str) -> Result<(), RuleError> {
        Move::read(mv, SIZES.1).map(|_| ()).map_err(RuleError)
    }
}

/// A game of Cups: the position under the move record every game shares (the document is
/// `{"game": "cups", "size": 4, "moves": ["d3", "s2", "resign 0"]}`, as before the record).
pub type CupsGame = Match<Position>;

/// The side names, seat by seat.
const SIDES: [&str; 2] = ["South", "North"];

impl Rules for Position {
    type Move = Move;
    const GAME: &'static str = "cups";
    fn start(options: &[GameOption], players: usize) -> Result<Position, RuleError> {
        if players != 2 {
            return Err(RuleError(format!(
                "Cups is a game for two players, not {players}"
            )));
        }
        Ok(Position::start(read_size(options)?))
    }
    fn options(&self) -> Vec<GameOption> {
        vec![GameOption::with_value("size", &self.n.to_string())]
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
        Position::apply(self, mv).1
    }
    fn read_here(&self, text: &str) -> Result<Move, RuleError> {
        // The refusal names the cups of this board (d1 to d4), not of the largest.
        Move::read(text, self.n).map_err(RuleError)
    }
    fn write_here(&self, mv: Move) -> String {
        mv.text()
    }
    fn seats(&self) -> usize {
        2
    }
    fn sorted_texts(&self) -> bool {
        // The search works on the texts in this order (d1 to d10, then the sows); sorted, d10
        // would come second and the robots would play other moves than they did.
        false
    }
    fn over_text(game: &CupsGame) -> Option<String> {
        Some(render::status_line(game))
    }
}

impl View for Position {
    fn ascii(game: &CupsGame) -> String {
        render::ascii(game)
    }
    fn paint(game: &CupsGame, painter: &mut dyn crate::picture::Painter) -> bool {
        render::paint(game, painter);
        true
    }
    fn notes(game: &CupsGame) -> Vec<String> {
        let p = game.position();
        vec![format!(
            "Bowls: South {}, North {}.  Reserves: South {}, North {}.",
            p.bowls[0], p.bowls[1], p.reserves[0], p.reserves[1]
        )]
    }
    fn setup_text(&self) -> Option<String> {
        Some(format!("Each reserve: {} beans", 10 * u16::from(self.n)))
    }
    fn turn_notes(game: &CupsGame, since: u32) -> Option<Vec<String>> {
        let notes = game
            .replayed()
            .into_iter()
            .skip(since.saturating_sub(1) as usize)
            .filter_map(|(e, before)| match *e {
                Entry::Moved {
                    seat,
                    mv: Move::Drop(k),
                } => {
                    // The capture is the opponent's beans gone from the board by this drop.
                    let mut after = before.clone();
                    let (captured, _) = after.apply(Move::Drop(k));
                    (captured > 0).then(|| {
                        format!(
                            "{}'s drop ended in its empty cup {k} and took the {captured} bean{} \
                             of {}'s cup {} into {}'s bowl.",
                            SIDES[seat],
                            if captured == 1 { "" } else { "s" },
                            SIDES[1 - seat],
                            before.n as usize + 1 - k as usize,
                            SIDES[seat]
                        )
                    })
                }
                Entry::Passed { seat } => Some(format!(
                    "{} had no move (an empty reserve and no cup to sow), so the engine passed; \
                     {} moves again.",
                    SIDES[seat],
                    SIDES[1 - seat]
                )),
                _ => None,
            })
            .collect();
        Some(notes)
    }
}

/// The generic search as it is, on the moves' texts (Cups gives no action ids).
impl Search for Position {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Status;

    /// A new game with `n` cups a side.
    pub(super) fn new_game(n: u8) -> CupsGame {
        CupsGame::new(&[GameOption::with_value("size", &n.to_string())], 2).unwrap()
    }

    #[test]
    fn a_whole_random_game_round_trips_through_its_document() {
        let mut seed = 9u64;
        let mut pick = |n: usize| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            ((seed >> 33) as usize) % n
        };
        for n in [3, 4, 10] {
            let mut g = new_game(n);
            let played = g.random_playout(&mut pick);
            assert!(played > 0);
            assert!(matches!(g.status(), Status::Over(_)));
            let back = CupsGame::load(&g.to_json()).unwrap();
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
        let mut g = new_game(4);
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

/// Documents written by 8096aec (before the shared record) and what it said of them.
#[cfg(test)]
mod stored {
    use super::Cups;
    use crate::games::matchplay::check_stored;

    #[test]
    fn documents_written_by_8096aec_load_and_say_what_they_said() {
        for fixture in [
            include_str!("../../../tests/stored/cups-mid.json"),
            include_str!("../../../tests/stored/cups-finished.json"),
            include_str!("../../../tests/stored/cups-resigned.json"),
            include_str!("../../../tests/stored/cups-10-drawn.json"),
            include_str!("../../../tests/stored/cups-3-finished.json"),
        ] {
            check_stored(&Cups, fixture);
        }
    }
}

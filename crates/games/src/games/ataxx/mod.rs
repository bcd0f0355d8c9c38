//! Ataxx and Hexxagon, as `../shared/spec/games/ataxx-rules.md` settles them: one rule set on two
//! boards, hosted as two games (`ataxx`, `hexxagon`) because a move's cells mean different things on
//! the two boards and records must say which board they use.
//!
//! [`crate::games::cellgrid`] builds each board (names, the cells at distance 1 and 2 as bit sets);
//! [`rules`] is the engine over positions as values; [`game`] makes them a
//! [`crate::games::matchplay::Match`] (the move record every game shares); [`notation`] reads and writes moves; [`render`] draws the ASCII board and
//! the picture; [`actions`] numbers the moves for the generic search;
//! [`policy`] is Ataxx's short playouts for it.

pub mod actions;
pub mod game;
pub mod notation;
pub mod policy;
pub mod render;
pub mod rules;

use super::{GameOption, GameRules, GameState, RuleError};
use crate::games::cellgrid::geometry::Shape;
use game::{AtaxxGame, Kind};

/// The game type Ataxx (square board).
pub struct Ataxx;

/// The game type Hexxagon (hexagonal board).
pub struct Hexxagon;

/// The sizes each board takes and its default (section 1).
fn sizes(shape: Shape) -> (u8, u8, u8) {
    match shape {
        Shape::Square => (4, 10, 7),
        Shape::Hexagon => (3, 9, 5),
    }
}

/// Reads a challenge's options: `-size=N` only.
pub(crate) fn read_options(shape: Shape, options: &[GameOption]) -> Result<u8, RuleError> {
    let (lo, hi, default) = sizes(shape);
    let mut size = None;
    for o in options {
        if !o.name.eq_ignore_ascii_case("size") {
            return Err(RuleError(format!(
                "{} has no option -{}: its one option is -size=N, N from {lo} to {hi} \
                 (default {default})",
                title(shape),
                o.name
            )));
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
        if size.is_some_and(|s| s != n) {
            return Err(RuleError(
                "-size is given twice with different values: give it once".into(),
            ));
        }
        size = Some(n);
    }
    Ok(size.unwrap_or(default))
}

/// The printed name.
pub(crate) fn title(shape: Shape) -> &'static str {
    match shape {
        Shape::Square => "Ataxx",
        Shape::Hexagon => "Hexxagon",
    }
}

fn new_game<K: Kind>(
    options: &[GameOption],
    players: usize,
) -> Result<Box<dyn GameState>, RuleError> {
    Ok(Box::new(AtaxxGame::<K>::new(options, players)?))
}

impl GameRules for Ataxx {
    fn name(&self) -> &'static str {
        "ataxx"
    }
    fn title(&self) -> &'static str {
        "Ataxx"
    }
    fn players(&self) -> std::ops::RangeInclusive<usize> {
        2..=2
    }
    fn help(&self) -> String {
        include_str!("help_ataxx.txt").to_string()
    }
    fn new_game(
        &self,
        options: &[GameOption],
        players: usize,
        _seed: u64,
    ) -> Result<Box<dyn GameState>, RuleError> {
        new_game::<Ataxx>(options, players)
    }
    fn load(&self, json: &str) -> Result<Box<dyn GameState>, RuleError> {
        Ok(Box::new(AtaxxGame::<Ataxx>::load(json)?))
    }
    fn read_move(&self, mv: &str) -> Result<(), RuleError> {
        notation::check_shape(mv).map_err(RuleError)
    }
}

impl GameRules for Hexxagon {
    fn name(&self) -> &'static str {
        "hexxagon"
    }
    fn title(&self) -> &'static str {
        "Hexxagon"
    }
    fn players(&self) -> std::ops::RangeInclusive<usize> {
        2..=2
    }
    fn help(&self) -> String {
        include_str!("help_hexxagon.txt").to_string()
    }
    fn new_game(
        &self,
        options: &[GameOption],
        players: usize,
        _seed: u64,
    ) -> Result<Box<dyn GameState>, RuleError> {
        new_game::<Hexxagon>(options, players)
    }
    fn load(&self, json: &str) -> Result<Box<dyn GameState>, RuleError> {
        Ok(Box::new(AtaxxGame::<Hexxagon>::load(json)?))
    }
    fn read_move(&self, mv: &str) -> Result<(), RuleError> {
        notation::check_shape(mv).map_err(RuleError)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_checked() {
        assert_eq!(read_options(Shape::Square, &[]).unwrap(), 7);
        assert_eq!(read_options(Shape::Hexagon, &[]).unwrap(), 5);
        let size = |v: &str| GameOption::with_value("size", v);
        assert_eq!(read_options(Shape::Square, &[size("8")]).unwrap(), 8);
        let e = read_options(Shape::Square, &[size("11")]).unwrap_err().0;
        assert!(e.contains("from 4 to 10"), "{e}");
        let e = read_options(Shape::Hexagon, &[GameOption::flag("swap")])
            .unwrap_err()
            .0;
        assert!(e.contains("Hexxagon has no option -swap"), "{e}");
        assert!(read_options(Shape::Square, &[size("7"), size("8")]).is_err());
        assert!(Ataxx.new_game(&[], 3, 0).is_err());
    }
}

//! Paradux, Cliff Blood's game of switches and pair moves, as `paradux-rules.md` settles it. The
//! board is Hexxagon's Abalone hexagon ([`crate::games::cellgrid::geometry`]); the start position is
//! the page's reconstruction (section 2).
//!
//! [`rules`] is the engine over positions as values; [`game`] makes them a
//! [`crate::games::matchplay::Match`] (the move record every game shares, which implements the
//! server's [`GameState`]); [`notation`] reads and writes moves;
//! [`render`] draws the ASCII board and the picture; [`actions`] numbers the moves for the generic
//! search.

pub mod actions;
pub mod game;
pub mod notation;
pub mod render;
pub mod rules;

use super::{GameOption, GameRules, GameState, RuleError};
use game::ParaduxGame;

/// The game type Paradux.
pub struct Paradux;

/// Cells a side: the range and the default (section 6).
const SIZES: (u8, u8, u8) = (4, 7, 4);
/// Pieces in a row that win: the least and the default (the most is 2n − 1).
const LINES: (u8, u8) = (4, 4);

/// The options of a challenge: `-size=n` and `-line=k`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Cells a side.
    pub size: u8,
    /// Pieces in a row that win.
    pub line: u8,
}

/// The valid options, for every refusal.
fn valid() -> String {
    format!(
        "Paradux's options are -size=n, the cells on each side of the hexagon, n from {} to {} \
         (default {}), and -line=k, the pieces in a row that win, k from {} to 2n-1 (default {})",
        SIZES.0, SIZES.1, SIZES.2, LINES.0, LINES.1
    )
}

/// Reads a challenge's options (each at most once, in any order).
pub fn read_options(options: &[GameOption]) -> Result<Options, RuleError> {
    let (mut size, mut line) = (None, None);
    for o in options {
        let slot = if o.name.eq_ignore_ascii_case("size") {
            &mut size
        } else if o.name.eq_ignore_ascii_case("line") {
            &mut line
        } else {
            return Err(RuleError(format!(
                "Paradux has no option -{}. {}.",
                o.name,
                valid()
            )));
        };
        if slot.is_some() {
            return Err(RuleError(format!(
                "-{} is given twice: give it once. {}.",
                o.name.to_lowercase(),
                valid()
            )));
        }
        let n = o
            .value
            .as_deref()
            .and_then(|v| v.trim().parse::<u8>().ok())
            .ok_or_else(|| {
                RuleError(format!(
                    "-{} takes a number, written -{}=4; '{}' is not one. {}.",
                    o.name.to_lowercase(),
                    o.name.to_lowercase(),
                    o.value.as_deref().unwrap_or(""),
                    valid()
                ))
            })?;
        *slot = Some(n);
    }
    let size = size.unwrap_or(SIZES.2);
    if !(SIZES.0..=SIZES.1).contains(&size) {
        return Err(RuleError(format!(
            "-size={size} is out of range. {}.",
            valid()
        )));
    }
    let line = line.unwrap_or(LINES.1);
    if !(LINES.0..=2 * size - 1).contains(&line) {
        return Err(RuleError(format!(
            "-line={line} is out of range: on a board of side {size} a line is {} to {} pieces. {}.",
            LINES.0,
            2 * size - 1,
            valid()
        )));
    }
    Ok(Options { size, line })
}

impl GameRules for Paradux {
    fn name(&self) -> &'static str {
        "paradux"
    }
    fn title(&self) -> &'static str {
        "Paradux"
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
        Ok(Box::new(ParaduxGame::new(options, players)?))
    }
    fn load(&self, json: &str) -> Result<Box<dyn GameState>, RuleError> {
        Ok(Box::new(ParaduxGame::load(json)?))
    }
    fn read_move(&self, mv: &str) -> Result<(), RuleError> {
        notation::check_shape(mv).map_err(RuleError)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_read_and_refused_with_the_list_of_valid_ones() {
        let o = |n: &str, v: &str| GameOption::with_value(n, v);
        assert_eq!(read_options(&[]).unwrap(), Options { size: 4, line: 4 });
        assert_eq!(
            read_options(&[o("line", "5"), o("SIZE", "5")]).unwrap(),
            Options { size: 5, line: 5 }
        );
        assert_eq!(
            read_options(&[o("size", "7"), o("line", "13")]).unwrap(),
            Options { size: 7, line: 13 }
        );
        for (opts, why) in [
            (
                vec![GameOption::flag("swap")],
                "Paradux has no option -swap",
            ),
            (vec![o("size", "4"), o("size", "4")], "-size is given twice"),
            (vec![o("line", "4"), o("line", "5")], "-line is given twice"),
            (vec![o("size", "8")], "-size=8 is out of range"),
            (vec![o("size", "3")], "-size=3 is out of range"),
            (vec![o("line", "3")], "-line=3 is out of range"),
            (vec![o("line", "8")], "a line is 4 to 7 pieces"),
            (vec![o("size", "x")], "'x' is not one"),
            (vec![GameOption::flag("size")], "-size takes a number"),
        ] {
            let e = read_options(&opts).unwrap_err().0;
            assert!(e.contains(why), "{opts:?}: {e}");
            assert!(e.contains("options are -size=n"), "{e}");
        }
        assert!(Paradux.new_game(&[], 3, 0).is_err());
        // The help fits a mail and says that the set-up is a reconstruction.
        let help = Paradux.help();
        assert!(help.lines().all(|l| l.chars().count() <= 72), "{help}");
        assert!(help.contains("RECONSTRUCTION") && help.contains("paradux-rules.md section 2"));
        assert!(Paradux.read_move("c3~d4").is_ok() && Paradux.read_move("c3").is_err());
    }
}

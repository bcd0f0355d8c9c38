//! The Hex rhombus as Hex and Chameleon both play it: its sizes, the `-size` option that picks
//! one, and each seat's goal, a pair of opposite edges (shared here so that neither game's folder
//! imports the other's, issue 36, section 1).

use super::{BOTTOM, LEFT, RIGHT, Sides, TOP};
use crate::games::{GameOption, RuleError};

/// The smallest board: on 1 × 1 the first stone wins at once.
pub const MIN_SIZE: u8 = 2;
/// The largest board: the largest HexGui stores.
pub const MAX_SIZE: u8 = 19;
/// The traditional size, HexGui's default.
pub const DEFAULT_SIZE: u8 = 11;

/// The edges each seat joins to win: Black (seat 0) top and bottom, White (seat 1) left and right.
pub const GOAL: [Sides; 2] = [TOP | BOTTOM, LEFT | RIGHT];

/// Reads `-size=n` for a rhombus game (2 to 19); `valid` (the game's list of options) ends the error.
pub fn read_size(o: &GameOption, valid: &str) -> Result<u8, RuleError> {
    let Some(v) = &o.value else {
        return Err(RuleError(format!(
            "-size needs a value, like -size=11; {valid}"
        )));
    };
    match v.trim().parse::<u8>() {
        Ok(n) if (MIN_SIZE..=MAX_SIZE).contains(&n) => Ok(n),
        Ok(1) => Err(RuleError(format!(
            "-size=1 is refused: the first stone would win at once; {valid}"
        ))),
        _ => Err(RuleError(format!(
            "-size={v} is out of range: the size is a whole number from 2 to 19; {valid}"
        ))),
    }
}

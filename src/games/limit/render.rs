//! The ASCII board a player reads in a mail. (Being written.)

use super::view::BoardView;

/// Draws the board: a hex grid of numbered tiles, a legend and whose turn it is.
pub fn render(view: &BoardView) -> String {
    let _ = view;
    String::new()
}

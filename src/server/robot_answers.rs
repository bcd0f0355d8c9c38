//! How the robot accounts answer proposals (issue 25): at once, in the mail run that made the
//! proposal, so that nobody waits for a robot that has no password to answer with.
//!
//! * An undo is always accepted: a robot does not mind a person taking back a slip.
//! * A draw is accepted only when the robot's search, at its level's playouts (capped at the
//!   thinking time a robot has for a move, which `server/robots.rs` passes), gives its seat a mean
//!   value of at most a half (lost or even); a game that has no draws (Hex) is rejected without a
//!   search. The search runs with no lock held,
//!   as for a robot's move (see `server/robots.rs`).

use crate::games::search::{self, Budget};
use crate::games::{GameState, Status};

/// The help's line on it (general help, after the robots are named).
pub(super) const HELP: &str = "\
Robots answer proposals at once: they accept every undo, and a draw\n\
only when their search says their side is lost or even.\n\
";

/// Whether the robot of level `level` in `seat` accepts a draw in `state` (see the module's doc).
/// The search's seed is `seed`, so the same position gets the same answer; it thinks for at most
/// `millis`.
pub(super) fn accepts_draw(
    state: &dyn GameState,
    seat: usize,
    level: u8,
    seed: u64,
    millis: u64,
) -> bool {
    if state.clone_box().agree_draw().is_err() {
        return false;
    }
    seat_value(state, seat, level, seed, millis).is_some_and(|v| v <= 0.5)
}

/// The mean value (0 lost, 1 won) the search gives `seat` in `state`: the value of the move it
/// would choose when `seat` is to move, and one less the mover's value when two players are in.
/// `None` when the search cannot tell (the game is over, or three or more are in and another is to
/// move: the mover's value says nothing about how the rest is shared).
pub(super) fn seat_value(
    state: &dyn GameState,
    seat: usize,
    level: u8,
    seed: u64,
    millis: u64,
) -> Option<f32> {
    let Status::ToMove(mover) = state.status() else {
        return None;
    };
    let playouts = state
        .level_playouts(level)
        .or(search::level_playouts(level))?;
    let budget = Budget::playouts(playouts).with_millis(millis);
    let thought = search::think(state, budget, seed)?;
    if mover == seat {
        return Some(thought.value);
    }
    (super::boards::seats_in(state).len() == 2).then_some(1.0 - thought.value)
}

#[cfg(test)]
mod tests {
    use super::super::robots::ROBOT_THINKING_MILLIS;
    use super::*;
    use crate::games::{GameOption, Registry};

    fn hex3() -> Box<dyn GameState> {
        let options = [
            GameOption {
                name: "size".into(),
                value: Some("3".into()),
            },
            GameOption {
                name: "no_swap".into(),
                value: None,
            },
        ];
        Registry::standard()
            .find("hex")
            .unwrap()
            .new_game(&options, 2, 1)
            .unwrap()
    }

    #[test]
    fn the_side_that_wins_a_tiny_hex_sees_it() {
        let mut g = hex3();
        g.play("b2").unwrap();
        // Black (seat 0) holds the centre of a 3x3 board: won.
        let white = seat_value(g.as_ref(), 1, 1, 7, ROBOT_THINKING_MILLIS).unwrap();
        let black = seat_value(g.as_ref(), 0, 1, 7, ROBOT_THINKING_MILLIS).unwrap();
        assert!(white < 0.2, "white {white}");
        assert!(black > 0.8, "black {black}");
        // Hex has no draws: rejected whatever the search says.
        assert!(!accepts_draw(g.as_ref(), 1, 1, 7, ROBOT_THINKING_MILLIS));
    }
}

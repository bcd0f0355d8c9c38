//! Games of more than two players on [`Match`] (Limit, issue 36 section 1): a seat that resigns or
//! loses on time leaves and the others play on, when the rules say so ([`Rules::seat_left`]);
//! the engine's automatic entries then follow as after a move.

use super::{Entry, Leave, Match, Rules};
use crate::games::RuleError;

impl<G: Rules> Match<G> {
    /// Records `seat`'s leaving if the game goes on without it (or ends by its own rules):
    /// true then; false, having changed nothing, when the rules leave the ending to the record
    /// (the default of [`Rules::seat_left`]: with two players the other wins).
    pub(super) fn leave_and_go_on(&mut self, seat: usize, how: Leave) -> Result<bool, RuleError> {
        let Some(passes) = self.pos.seat_left(seat)? else {
            return Ok(false);
        };
        self.entries.push(Entry::Left { seat, how });
        self.push_passes(seat, passes);
        Ok(true)
    }

    /// Records the automatic passes the position made after `mover`'s turn or leaving, each for
    /// the seat [`Rules::pass_seat`] names.
    pub(super) fn push_passes(&mut self, mover: usize, passes: u32) {
        for k in 0..passes {
            self.entries.push(Entry::Passed {
                seat: self.pos.pass_seat(mover, k),
            });
        }
    }
}

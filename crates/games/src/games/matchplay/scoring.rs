//! What a game whose seats may act out of turn needs of the record (issue 36, section 1, for Go's
//! scoring step after two passes, where either player marks dead stones or accepts): a move sent
//! for a named seat, and a robot's answer that needs no search. Each rests on optional hooks of
//! [`Rules`] and [`Search`] whose defaults keep the other games as they were.

use super::{Match, Rules, Search};
use crate::games::RuleError;

impl<G: Rules> Match<G> {
    /// Plays `text` for `seat` ([`crate::games::GameState::play_for`]): read by
    /// [`Rules::read_by`], which refuses a seat that may not move; without that hook, the seat to
    /// move's move, as [`Match::play_text`].
    pub fn play_by(&mut self, seat: usize, text: &str) -> Result<(), RuleError> {
        if self.outcome().is_some() {
            // The same refusal, with the same words, as the seat to move's.
            return self.play_text(text);
        }
        let mv = self.pos.read_by(seat, text)?;
        self.pos.check(mv.clone())?;
        self.push(mv);
        Ok(())
    }

    /// The position, to change under the record: for a game that rebuilds another form of itself
    /// from its entries (Go's robot replays a game with the scoring step under the spec's rules,
    /// and resumes play where the players resumed it).
    pub(crate) fn position_mut(&mut self) -> &mut G {
        &mut self.pos
    }

    /// Whether the game ended by a resignation, a loss on time or an agreed draw rather than by
    /// its rules.
    pub fn ended_early(&self) -> bool {
        self.ended.is_some()
    }
}

impl<G: Rules + Search> Match<G> {
    /// The robot's move that needs no search ([`Search::robot_answer`]), while the game goes on.
    pub(super) fn robot_answer(&self) -> Option<String> {
        self.outcome().is_none().then(|| self.pos.robot_answer())?
    }
}

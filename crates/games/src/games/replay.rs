//! Game documents that keep the options and the move list and are read back by replaying the moves
//! (Ataxx, Hexxagon, Cups, Go, Paradux): one reading of the stored entries for all of them, so that a
//! document can never disagree with the rules.

use super::{GameState, RuleError};

/// The stored form of an entry that is not a move: `resign 0`, `forfeit 1` (the seat that left).
pub fn left(how: &str, seat: usize) -> String {
    format!("{how} {seat}")
}

/// Replays `moves`, a document's entries in order, on `game`: each a move in the game's notation,
/// `resign N`, `forfeit N` (seat N left) or `draw` (an agreed draw). The engine's automatic entries
/// (passes) are not stored: playing the moves makes them again. An entry that does not replay says
/// which one and why.
pub fn replay(game: &mut dyn GameState, moves: &[String]) -> Result<(), RuleError> {
    for (i, m) in moves.iter().enumerate() {
        entry(game, m)
            .map_err(|e| RuleError(format!("move {} of the document ('{m}'): {e}", i + 1)))?;
    }
    Ok(())
}

/// Replays one entry of a document on `game` (see [`replay`]).
pub fn entry(game: &mut dyn GameState, m: &str) -> Result<(), RuleError> {
    let seat = |rest: &str| {
        rest.trim()
            .parse::<usize>()
            .ok()
            .filter(|&s| s < 2)
            .ok_or_else(|| RuleError(format!("'{m}' names no seat (0 or 1)")))
    };
    if let Some(rest) = m.strip_prefix("resign ") {
        return game.resign(seat(rest)?);
    }
    if let Some(rest) = m.strip_prefix("forfeit ") {
        return game.forfeit(seat(rest)?);
    }
    if m == "draw" {
        return game.agree_draw();
    }
    game.play(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Outcome, Registry, Status};

    #[test]
    fn entries_replay_and_a_bad_one_says_which() {
        let rules = Registry::standard().find("cups").unwrap();
        let mut g = rules.new_game(&[], 2, 0).unwrap();
        replay(g.as_mut(), &["d4".into(), "d3".into(), left("resign", 0)]).unwrap();
        assert_eq!(g.status(), Status::Over(Outcome::Winner(1)));
        let mut g = rules.new_game(&[], 2, 0).unwrap();
        let e = replay(g.as_mut(), &["d4".into(), "s1".into()])
            .unwrap_err()
            .0;
        assert!(e.starts_with("move 2 of the document ('s1'): "), "{e}");
        let e = replay(g.as_mut(), &["resign 7".into()]).unwrap_err().0;
        assert!(e.contains("names no seat"), "{e}");
        let mut g = rules.new_game(&[], 2, 0).unwrap();
        replay(g.as_mut(), &["draw".into()]).unwrap();
        assert_eq!(g.status(), Status::Over(Outcome::Draw(vec![0, 1])));
    }
}

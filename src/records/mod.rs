//! Game records for export (`../shared/spec/games/records.md`): the text record every game has
//! ([`text_record`]) and SGF FF\[4\] where the game's own tools read SGF ([`sgf`]).
//!
//! Both are built from the game's move list, options and the stored comments, never from the engine's
//! JSON document, so an old record can always be rebuilt by replaying the moves. A game opts into SGF
//! by [`crate::games::GameState::sgf_form`]; everything common to every SGF game (the root's players,
//! date, result, comments and escaping) is written here once.

mod pgn;
mod sgf;
mod text;

pub use pgn::pgn;
pub use sgf::sgf;
pub use text::text_record;

use crate::games::{GameState, MoveRecord, Outcome, Status};
use crate::storage::Comment;

/// What a record says about a game besides its moves: who played it and when.
pub struct RecordInfo<'a> {
    /// The game's command word: `hex`.
    pub game: &'a str,
    /// The board number.
    pub board: u32,
    /// The userids, seat by seat.
    pub players: &'a [String],
    /// Unix seconds the game started.
    pub started: i64,
    /// Unix seconds of its last move (the end, once it is over).
    pub last_move: i64,
    /// The players' comments as stored.
    pub comments: &'a [Comment],
}

/// How a finished game ended, read from its status and the last entry of its move list.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Ending {
    /// Not over yet.
    InProgress,
    /// A seat won by play.
    Won(usize),
    /// A seat won because the other resigned.
    Resigned(usize),
    /// A seat won because the other ran out of time (the forfeit clock).
    OnTime(usize),
    /// A draw between these seats.
    Draw(Vec<usize>),
}

fn ending(state: &dyn GameState) -> Ending {
    match state.status() {
        Status::ToMove(_) => Ending::InProgress,
        Status::Over(Outcome::Draw(seats)) => Ending::Draw(seats),
        Status::Over(Outcome::Winner(seat)) => {
            match state.moves().last().map(|m| m.text.as_str()) {
                Some("resign") => Ending::Resigned(seat),
                Some("forfeit") => Ending::OnTime(seat),
                _ => Ending::Won(seat),
            }
        }
    }
}

/// The side's name of a seat in lower case, as record lines write it (`black`, `red`).
fn side(names: &[String], seat: usize) -> String {
    names
        .get(seat)
        .map(|n| n.to_lowercase())
        .unwrap_or_else(|| format!("seat{seat}"))
}

/// Which comments go with which entry: a comment written when move `n` was awaited came with entry
/// `n`; the challenge's comment is stored at move 0 and goes with the set-up.
fn comments_at<'a>(info: &'a RecordInfo<'_>, entry: u32) -> impl Iterator<Item = &'a Comment> {
    info.comments
        .iter()
        .filter(move |c| comment_entry(c) == entry)
}

fn comment_entry(c: &Comment) -> u32 {
    c.move_number
}

/// The date part of a Unix time, `YYYY-MM-DD` (UTC).
fn date(unix: i64) -> String {
    chrono::DateTime::from_timestamp(unix, 0)
        .map(|t| t.format("%Y-%m-%d").to_string())
        .unwrap_or_else(|| unix.to_string())
}

/// The entries of the move list, for the writers.
fn entries(state: &dyn GameState) -> Vec<MoveRecord> {
    state.moves()
}

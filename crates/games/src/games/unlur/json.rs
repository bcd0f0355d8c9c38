//! The JSON document of a game of Unlur: the options and the move list, from which the game is replayed
//! on load, and the status line, which must agree with the replay (a document whose status and
//! moves disagree is refused as corrupt). For example:
//!
//! ```json
//! {"game":"unlur","version":1,"size":3,
//!  "moves":[{"seat":0,"text":"c3"},{"seat":1,"text":"pass"}],"status":"to-move 0"}
//! ```

use serde::{Deserialize, Serialize};

use super::game::{Game, MAX_SIZE, MIN_SIZE};
use crate::games::{MoveRecord, Outcome, RuleError};

/// Schema version written in every document.
pub const VERSION: u32 = 1;

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Doc {
    game: String,
    version: u32,
    size: u8,
    moves: Vec<MoveDoc>,
    status: String,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveDoc {
    seat: usize,
    text: String,
}

/// The status as the document writes it: `to-move 0`, `winner 1`, `draw`.
fn status_text(g: &Game) -> String {
    match (g.result(), g.to_move()) {
        (Some(Outcome::Winner(s)), _) => format!("winner {s}"),
        (Some(Outcome::Draw(_)), _) => "draw".into(),
        (None, Some(s)) => format!("to-move {s}"),
        (None, None) => "over".into(),
    }
}

/// The game as its JSON document.
pub fn to_json(g: &Game) -> String {
    let doc = Doc {
        game: "unlur".into(),
        version: VERSION,
        size: g.size(),
        moves: g
            .records()
            .into_iter()
            .map(|r| MoveDoc {
                seat: r.seat,
                text: r.text,
            })
            .collect(),
        status: status_text(g),
    };
    serde_json::to_string(&doc).expect("an Unlur document always serializes")
}

/// Reads a document written by [`to_json`], replaying its moves.
pub fn from_json(text: &str) -> Result<Game, RuleError> {
    let doc: Doc = serde_json::from_str(text)
        .map_err(|e| RuleError(format!("not an Unlur game document: {e}")))?;
    if doc.game != "unlur" {
        return Err(RuleError(format!(
            "this document is a {:?} game, not unlur",
            doc.game
        )));
    }
    if doc.version != VERSION {
        return Err(RuleError(format!(
            "this Unlur document has version {}; this server reads version {VERSION}",
            doc.version
        )));
    }
    if !(MIN_SIZE..=MAX_SIZE).contains(&doc.size) {
        return Err(RuleError(format!(
            "the document's size {} is not a side from 3 to 13",
            doc.size
        )));
    }
    let records: Vec<MoveRecord> = doc
        .moves
        .into_iter()
        .map(|m| MoveRecord {
            seat: m.seat,
            text: m.text,
            auto: false,
        })
        .collect();
    let g = Game::replay(doc.size, &records)?;
    let replayed = status_text(&g);
    if replayed != doc.status {
        return Err(RuleError(format!(
            "the document is corrupt: its status is {:?}, but its moves give {replayed:?}",
            doc.status
        )));
    }
    Ok(g)
}

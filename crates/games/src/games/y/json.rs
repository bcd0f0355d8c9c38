//! The JSON document of a game of Y: the options and the move list, from which the game is replayed
//! on load, and the status line, which must agree with the replay (a document whose status and
//! moves disagree is refused as corrupt). For example:
//!
//! ```json
//! {"game":"y","version":1,"size":4,"swap":true,
//!  "moves":[{"seat":0,"text":"b3"},{"seat":1,"text":"swap"}],"status":"to-move 0"}
//! ```

use serde::{Deserialize, Serialize};

use super::game::{Config, Game, MAX_SIZE, MIN_SIZE};
use crate::games::{MoveRecord, Outcome, RuleError};

/// Schema version written in every document.
pub const VERSION: u32 = 1;

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Doc {
    game: String,
    version: u32,
    size: u8,
    swap: bool,
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
    let cfg = g.config();
    let doc = Doc {
        game: "y".into(),
        version: VERSION,
        size: cfg.size,
        swap: cfg.swap,
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
    serde_json::to_string(&doc).expect("a Y document always serializes")
}

/// Reads a document written by [`to_json`], replaying its moves.
pub fn from_json(text: &str) -> Result<Game, RuleError> {
    let doc: Doc =
        serde_json::from_str(text).map_err(|e| RuleError(format!("not a Y game document: {e}")))?;
    if doc.game != "y" {
        return Err(RuleError(format!(
            "this document is a {:?} game, not y",
            doc.game
        )));
    }
    if doc.version != VERSION {
        return Err(RuleError(format!(
            "this Y document has version {}; this server reads version {VERSION}",
            doc.version
        )));
    }
    if !(MIN_SIZE..=MAX_SIZE).contains(&doc.size) {
        return Err(RuleError(format!(
            "the document's size {} is not a side from 2 to 19",
            doc.size
        )));
    }
    let cfg = Config {
        size: doc.size,
        swap: doc.swap,
    };
    let records: Vec<MoveRecord> = doc
        .moves
        .into_iter()
        .map(|m| MoveRecord {
            seat: m.seat,
            text: m.text,
            auto: false,
        })
        .collect();
    let g = Game::replay(cfg, &records)?;
    let replayed = status_text(&g);
    if replayed != doc.status {
        return Err(RuleError(format!(
            "the document is corrupt: its status is {:?}, but its moves give {replayed:?}",
            doc.status
        )));
    }
    Ok(g)
}

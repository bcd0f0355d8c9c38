//! Documents stored before a game moved onto [`Match`] (issue 36): rewritten into the record's
//! shape before [`Match::load`] reads them, and their status lines checked against the moves.

use serde_json::{Map, Value};

use super::{Match, Rules};
use crate::games::{Outcome, RuleError};

/// Hex's and Chameleon's documents until issue 36 kept a resignation or a loss on time apart from
/// the moves, `"left": {"seat": 0, "how": "resign"}`: it becomes the last entry, `resign 0`.
pub(super) fn left_field(doc: &mut Map<String, Value>) -> Result<(), RuleError> {
    let Some(left) = doc.remove("left") else {
        return Ok(());
    };
    let seat = left.get("seat").and_then(Value::as_u64);
    let how = left.get("how").and_then(Value::as_str);
    let (Some(seat), Some(how @ ("resign" | "forfeit"))) = (seat, how) else {
        return Err(RuleError(format!(
            "the document's left is {left}, not {{\"seat\": 0, \"how\": \"resign\"}} (or \"forfeit\")"
        )));
    };
    let entry = Value::from(format!("{how} {seat}"));
    match doc.get_mut("moves") {
        Some(Value::Array(moves)) => moves.push(entry),
        None => {
            doc.insert("moves".into(), Value::Array(vec![entry]));
        }
        // Refused with its reason where the moves are read.
        Some(_) => {}
    }
    Ok(())
}

/// Rewrites a document of Y or Unlur before issue 36 (`game` names it in the errors): `version` 1,
/// each entry with its seat (`{"seat": 1, "text": "resign"}`), which becomes the record's word
/// (`resign 1`). Its status line stays, for [`check_status`].
pub fn upgrade_seated(doc: &mut Map<String, Value>, game: &str) -> Result<(), RuleError> {
    match doc.remove("version") {
        None => {}
        Some(v) if v == 1 => {}
        Some(v) => {
            return Err(RuleError(format!(
                "this {game} document has version {v}; this server reads version 1"
            )));
        }
    }
    let Some(Value::Array(moves)) = doc.get_mut("moves") else {
        return Ok(());
    };
    for m in moves.iter_mut() {
        let Value::Object(entry) = m else { continue };
        let seat = entry.get("seat").and_then(Value::as_u64);
        let text = entry.get("text").and_then(Value::as_str);
        let (Some(seat), Some(text)) = (seat, text) else {
            return Err(RuleError(format!(
                "the document's entry {m} is not {{\"seat\": 0, \"text\": \"c3\"}}"
            )));
        };
        *m = Value::from(match text {
            "resign" | "forfeit" => format!("{text} {seat}"),
            _ => text.to_string(),
        });
    }
    Ok(())
}

/// Refuses as corrupt a document whose status line (`to-move 0`, `winner 1`, `draw`; Y's and
/// Unlur's before issue 36) disagrees with its replayed moves; a document without one passes.
pub fn check_status<G: Rules>(game: &Match<G>, json: &str) -> Result<(), RuleError> {
    let doc: Map<String, Value> = serde_json::from_str(json)
        .map_err(|e| RuleError(format!("this is not a game document: {e}")))?;
    let Some(status) = doc.get("status").and_then(Value::as_str) else {
        return Ok(());
    };
    let replayed = match game.outcome() {
        Some(Outcome::Winner(s)) => format!("winner {s}"),
        Some(Outcome::Draw(_)) => "draw".into(),
        None => format!("to-move {}", game.pos.to_move()),
    };
    if replayed != status {
        return Err(RuleError(format!(
            "the document is corrupt: its status is {status:?}, but its moves give {replayed:?}"
        )));
    }
    Ok(())
}

/// Checks a stored document written by an older build against what that build said of it (its
/// `status`, legal moves and board, as `scripts/stored-games.sh` wrote them into `fixture`): the
/// game loads, says the same, keeps the document's entries and reads back from its own document.
#[cfg(test)]
pub(crate) fn check_stored(rules: &dyn crate::games::GameRules, fixture: &str) {
    let f: Value = serde_json::from_str(fixture).expect("a fixture of scripts/stored-games.sh");
    let text = |k: &str| f[k].as_str().expect("a fixture's field").to_string();
    let document = text("document");
    let g = rules
        .load(&document)
        .unwrap_or_else(|e| panic!("{}: {e}\n{document}", rules.name()));
    use crate::games::Status;
    let status = match g.status() {
        Status::ToMove(s) => format!("to-move {}", g.status_seat(s)),
        Status::Over(Outcome::Winner(s)) => format!("winner {}", g.status_seat(s)),
        Status::Over(Outcome::Draw(_)) => "draw".into(),
    };
    assert_eq!(status, text("status"), "{document}");
    let legal: Vec<String> = serde_json::from_value(f["legal"].clone()).unwrap();
    assert_eq!(g.legal_moves(), legal, "{document}");
    assert_eq!(g.render().trim_end(), text("show"), "{document}");
    let stored =
        |json: &str| -> Value { serde_json::from_str::<Value>(json).unwrap()["moves"].clone() };
    assert_eq!(stored(&g.to_json()), stored(&document), "{document}");
    let again = rules.load(&g.to_json()).unwrap();
    assert_eq!(again.moves(), g.moves());
    assert_eq!(again.status(), g.status());
}

//! Limit's stored documents. Since issue 36 a game is stored as the generic record writes it
//! (`{"game": "limit", "players": 3, "seed": 7, "size": 8, …, "moves": ["14-5,14", "resign 1"]}`,
//! the options as keys, the engine's automatic entries left out: replaying the moves makes them
//! again). A document stored before (`"version": 1`, with a snapshot of the position beside its
//! move list; `docs/limit-state.md`) is rewritten into that shape before it is read, and its
//! snapshot's move list, turn and result are checked against the replay: a document that
//! disagrees is refused as corrupt, as it was.

use serde_json::{Map, Value};

use super::Game;
use super::game::Position;
use super::options::Config;
use crate::games::matchplay::Match;
use crate::games::{GameState, Outcome, RuleError, Status};

fn corrupt(why: String) -> RuleError {
    RuleError(format!("this is not a valid Limit game document: {why}"))
}

/// Reads a stored game, of either shape.
pub fn load(json: &str) -> Result<Game, RuleError> {
    let game = Match::<Position>::load(json)?;
    let doc: Map<String, Value> = serde_json::from_str(json).map_err(|e| corrupt(e.to_string()))?;
    if doc.contains_key("version") {
        check_snapshot(&game, &doc)?;
    }
    Ok(game)
}

/// The names a version-1 document gives the seats (`red`, or `white` under `-classic`).
fn side_names(classic: bool, players: usize) -> Vec<&'static str> {
    let names = if classic {
        ["white", "red", "black"]
    } else {
        ["red", "blue", "green"]
    };
    names[..players.min(3)].to_vec()
}

/// Rewrites a version-1 document into the record's shape (see the module's documentation); a
/// document without `version` is left as it is.
pub fn upgrade(doc: &mut Map<String, Value>) -> Result<(), RuleError> {
    let Some(version) = doc.get("version") else {
        return Ok(());
    };
    if version != 1 {
        return Err(corrupt(format!(
            "schema version {version} is not supported (this server reads version 1)"
        )));
    }
    let players = doc.get("players").and_then(Value::as_u64).unwrap_or(0) as usize;
    if !(2..=3).contains(&players) {
        return Err(corrupt(format!(
            "players is {}, Limit takes 2 or 3",
            doc.get("players").unwrap_or(&Value::Null)
        )));
    }
    let cfg: Config = serde_json::from_value(doc.get("options").cloned().unwrap_or(Value::Null))
        .map_err(|e| corrupt(format!("its options are not Limit's: {e}")))?;
    let seed = doc
        .get("seed")
        .and_then(Value::as_u64)
        .ok_or_else(|| corrupt("it has no seed".into()))?;
    let sides = side_names(cfg.classic, players);
    let mut moves = Vec::new();
    for (k, m) in doc
        .get("moves")
        .and_then(Value::as_array)
        .ok_or_else(|| corrupt("its moves are not a list".into()))?
        .iter()
        .enumerate()
    {
        let text = m.get("text").and_then(Value::as_str);
        let side = m.get("side").and_then(Value::as_str);
        let auto = m.get("auto").and_then(Value::as_bool);
        let (Some(text), Some(side), Some(auto)) = (text, side, auto) else {
            return Err(corrupt(format!(
                "move {} is {m}, not {{\"number\": 1, \"side\": \"red\", \"text\": \"r3\", \"auto\": false}}",
                k + 1
            )));
        };
        let seat = sides.iter().position(|s| *s == side).ok_or_else(|| {
            corrupt(format!(
                "move {} is by \"{side}\", who does not play in this game",
                k + 1
            ))
        })?;
        // The engine's entries are made again by the replay (and checked in `check_snapshot`).
        if auto {
            continue;
        }
        moves.push(Value::from(match text {
            "resign" | "forfeit" => format!("{text} {seat}"),
            _ => text.to_string(),
        }));
    }
    let mut out = Map::new();
    out.insert(
        "game".into(),
        doc.get("game").cloned().unwrap_or(Value::Null),
    );
    out.insert("players".into(), Value::from(players));
    out.insert("seed".into(), Value::from(seed));
    for word in cfg.summary().split_whitespace() {
        let word = word.trim_start_matches('-');
        match word.split_once('=') {
            Some((name, value)) => {
                let n: u64 = value.parse().expect("a summary's values are numbers");
                out.insert(name.into(), Value::from(n))
            }
            None => out.insert(word.into(), Value::Bool(true)),
        };
    }
    out.insert("moves".into(), Value::Array(moves));
    *doc = out;
    Ok(())
}

/// Checks a version-1 document's snapshot against the replayed game: every entry of its move list
/// (with the engine's), whose turn it is and the result.
fn check_snapshot(game: &Game, doc: &Map<String, Value>) -> Result<(), RuleError> {
    let names: Vec<String> = (0..game.players())
        .map(|s| game.side(s).name().to_string())
        .collect();
    let disagrees = |field: &str| {
        corrupt(format!(
            "its field \"{field}\" does not agree with its move list"
        ))
    };
    let moves: Vec<Value> = game
        .moves()
        .iter()
        .enumerate()
        .map(|(k, r)| {
            serde_json::json!({
                "number": k + 1,
                "side": names[r.seat],
                "text": r.text,
                "auto": r.auto,
            })
        })
        .collect();
    if doc.get("moves") != Some(&Value::Array(moves)) {
        return Err(disagrees("moves"));
    }
    let (to_move, result) = match game.status() {
        Status::ToMove(s) => (Value::from(names[s].clone()), Value::Null),
        Status::Over(o) => {
            let (kind, seats) = match o {
                Outcome::Winner(s) => ("winner", vec![s]),
                Outcome::Draw(v) => ("draw", v),
            };
            let sides: Vec<&str> = seats.iter().map(|&s| names[s].as_str()).collect();
            (
                Value::Null,
                serde_json::json!({"kind": kind, "sides": sides}),
            )
        }
    };
    if doc.get("to_move") != Some(&to_move) {
        return Err(disagrees("to_move"));
    }
    if doc.get("result") != Some(&result) {
        return Err(disagrees("result"));
    }
    if doc.get("move_number").and_then(Value::as_u64) != Some(u64::from(game.move_number())) {
        return Err(disagrees("move_number"));
    }
    Ok(())
}

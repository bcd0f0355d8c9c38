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
    let doc: Option<Map<String, Value>> = serde_json::from_str(json).ok();
    let Some(doc) = doc.filter(|d| d.contains_key("version")) else {
        return Match::<Position>::load(json);
    };
    let game =
        Match::<Position>::load(json).map_err(|e| match e.0.contains("Limit game document") {
            true => e,
            false => corrupt(e.0),
        })?;
    check_snapshot(&game, &doc)?;
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
/// (with the engine's, numbered), the phase, whose turn it is, the result and the move number. The
/// rest of the snapshot (tiles, pawns, the boxes) follows from the moves and is not read: a
/// document whose moves agree loads with the position they give.
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
    let phase = serde_json::to_value(game.phase()).expect("a phase serialises");
    if doc.get("phase") != Some(&phase) {
        return Err(disagrees("phase"));
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameRules;
    use crate::games::limit::Limit;

    /// `scripts/limit-fixtures.sh /work/base/pbem-8096aec`: documents the server and the engine
    /// of 8096aec stored, with what that binary said of each.
    const STORED: [(&str, &str); 6] = [
        (
            "limit-mid",
            include_str!("../../../tests/documents/8096aec/limit-mid.json"),
        ),
        (
            "limit-resigned",
            include_str!("../../../tests/documents/8096aec/limit-resigned.json"),
        ),
        (
            "limit-forfeit",
            include_str!("../../../tests/documents/8096aec/limit-forfeit.json"),
        ),
        (
            "limit-finished",
            include_str!("../../../tests/documents/8096aec/limit-finished.json"),
        ),
        (
            "limit-classic",
            include_str!("../../../tests/documents/8096aec/limit-classic.json"),
        ),
        (
            "limit-start-passes",
            include_str!("../../../tests/documents/8096aec/limit-start-passes.json"),
        ),
    ];

    fn field(fixture: &Value, key: &str) -> String {
        fixture[key]
            .as_str()
            .expect("a fixture's field")
            .to_string()
    }

    /// Each stored document loads, says what 8096aec said of it (status, legal moves, board),
    /// keeps its move list entry by entry (the engine's entries made again by the replay) and
    /// reads back from the document it is now written as.
    #[test]
    fn documents_stored_by_8096aec_load() {
        for (name, fixture) in STORED {
            let f: Value = serde_json::from_str(fixture).unwrap();
            let document = field(&f, "document");
            let g = Limit
                .load(&document)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            let status = match g.status() {
                Status::ToMove(s) => format!("to-move {}", g.status_seat(s)),
                Status::Over(Outcome::Winner(s)) => format!("winner {}", g.status_seat(s)),
                Status::Over(Outcome::Draw(_)) => "draw".into(),
            };
            assert_eq!(status, field(&f, "status"), "{name}");
            let legal: Vec<String> = serde_json::from_value(f["legal"].clone()).unwrap();
            assert_eq!(g.legal_moves(), legal, "{name}");
            assert_eq!(g.render().trim_end(), field(&f, "show"), "{name}");
            let old: Value = serde_json::from_str(&document).unwrap();
            let entries: Vec<(String, String, bool)> = old["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| {
                    (
                        m["side"].as_str().unwrap().to_string(),
                        m["text"].as_str().unwrap().to_string(),
                        m["auto"].as_bool().unwrap(),
                    )
                })
                .collect();
            let names = g.seat_names();
            let now: Vec<(String, String, bool)> = g
                .moves()
                .into_iter()
                .map(|r| (names[r.seat].to_lowercase(), r.text, r.auto))
                .collect();
            assert_eq!(now, entries, "{name}");
            let again = Limit.load(&g.to_json()).unwrap();
            assert_eq!(again.moves(), g.moves(), "{name}");
            assert_eq!(again.status(), g.status(), "{name}");
            assert_eq!(again.to_json(), g.to_json(), "{name}");
        }
    }

    /// Perft from stored positions is what main's engine (83a4f3f, its own record) counts:
    /// `pbem engine limit perft 3` on the same documents.
    #[test]
    fn perft_from_stored_positions_is_main_s() {
        for (k, want) in [(0, 29_363), (1, 50_478), (5, 189)] {
            let f: Value = serde_json::from_str(STORED[k].1).unwrap();
            let g = Limit.load(&field(&f, "document")).unwrap();
            assert_eq!(g.perft(3), want, "{}", STORED[k].0);
        }
    }

    /// The three-player game where Blue resigned goes on between Red and Green, and Blue's seat
    /// stays out after the document is read: it cannot resign again.
    #[test]
    fn a_stored_resignation_of_three_keeps_the_others_playing() {
        let f: Value = serde_json::from_str(STORED[1].1).unwrap();
        let mut g = Limit.load(&field(&f, "document")).unwrap();
        let texts: Vec<String> = g.moves().into_iter().map(|m| m.text).collect();
        assert_eq!(
            texts,
            ["1-2", "3-1", "4-3,2", "11-4,6", "resign", "3-1,3", "4-5,4"]
        );
        assert_eq!(g.moves()[4].seat, 1);
        assert_eq!(g.status(), Status::ToMove(2));
        let e = g.resign(1).unwrap_err();
        assert_eq!(e.0, "Blue is no longer in the game");
        g.resign(2).unwrap();
        assert_eq!(g.status(), Status::Over(Outcome::Winner(0)));
    }

    /// A stored document whose snapshot disagrees with its moves is refused as corrupt, as
    /// 8096aec refused it, and so is one of another schema.
    #[test]
    fn a_stored_document_that_disagrees_with_its_moves_is_refused() {
        let f: Value = serde_json::from_str(STORED[0].1).unwrap();
        let document = field(&f, "document");
        for (from, to, why) in [
            ("\"to_move\": \"blue\"", "\"to_move\": \"red\"", "to_move"),
            ("\"move_number\": 4", "\"move_number\": 5", "move_number"),
            (
                "\"auto\": false",
                "\"auto\": true",
                "move 1 of the document",
            ),
            ("\"version\": 1", "\"version\": 2", "schema version 2"),
            (
                "\"number\": 2,\n      \"side\": \"blue\"",
                "\"number\": 2,\n      \"side\": \"green\"",
                "does not play",
            ),
            (
                "\"number\": 2,\n      \"side\"",
                "\"number\": 3,\n      \"side\"",
                "moves",
            ),
            ("\"phase\": \"movement\"", "\"phase\": \"over\"", "phase"),
        ] {
            let bad = document.replacen(from, to, 1);
            assert_ne!(bad, document, "{from}");
            let Err(e) = Limit.load(&bad) else {
                panic!("{from}: loaded");
            };
            let e = e.0;
            assert!(
                e.contains("not a valid Limit game document") && e.contains(why),
                "{from}: {e}"
            );
        }
    }
}

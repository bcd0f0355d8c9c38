//! The JSON document of a game (schema in `docs/limit-state.md`).
//!
//! The document holds the seed, the options and the move list, from which the game is replayed on load,
//! and a snapshot of the position (tiles, pawns, whose turn, result) that must agree with the replay:
//! a document whose snapshot and move list disagree is refused as corrupt.

use serde::{Deserialize, Serialize};

use super::board::bits;
use super::game::{Game, Phase, SeatState};
use super::options::{Config, Mode};
use crate::games::{MoveRecord, Outcome, RuleError};

/// Schema version written in every document.
pub const VERSION: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Doc {
    game: String,
    version: u32,
    rules: String,
    options: Config,
    options_line: String,
    players: usize,
    seed: u64,
    phase: Phase,
    to_move: Option<String>,
    move_number: u32,
    sides: Vec<SideDoc>,
    tiles_in_stock: u32,
    tiles_set_aside: u32,
    tiles: Vec<TileDoc>,
    removed: Vec<u32>,
    moves: Vec<MoveDoc>,
    result: Option<ResultDoc>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SideDoc {
    side: String,
    state: SeatState,
    on_board: u32,
    in_box: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TileDoc {
    number: u32,
    q: i32,
    r: i32,
    colour: String,
    pawn: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveDoc {
    number: u32,
    side: String,
    text: String,
    auto: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ResultDoc {
    kind: String,
    sides: Vec<String>,
}

fn doc(g: &Game) -> Doc {
    let b = g.board();
    let cfg = *g.config();
    let name = |s: usize| g.side(s).name().to_string();
    Doc {
        game: "limit".into(),
        version: VERSION,
        rules: if cfg.classic { "classic" } else { "default" }.into(),
        options: cfg,
        options_line: cfg.summary(),
        players: g.players(),
        seed: g.seed,
        phase: g.phase(),
        to_move: g.to_move().map(name),
        move_number: g.records().len() as u32 + 1,
        sides: (0..g.players())
            .map(|s| SideDoc {
                side: name(s),
                state: g.seat_state(s),
                on_board: b.m.pawns[s].count_ones(),
                in_box: g.in_box(s),
            })
            .collect(),
        tiles_in_stock: g.tiles_left.iter().sum(),
        tiles_set_aside: g.set_aside,
        tiles: bits(b.m.tiles)
            .map(|i| TileDoc {
                number: b.num[i],
                q: b.qr[i].0,
                r: b.qr[i].1,
                colour: b.colour[i].name().into(),
                pawn: b.m.owner(i).map(name),
            })
            .collect(),
        removed: (0..b.laid())
            .filter(|&i| b.m.tiles & (1 << i) == 0)
            .map(|i| b.num[i])
            .collect(),
        moves: g
            .records()
            .iter()
            .enumerate()
            .map(|(k, r)| MoveDoc {
                number: k as u32 + 1,
                side: name(r.seat),
                text: r.text.clone(),
                auto: r.auto,
            })
            .collect(),
        result: g.result().map(|o| match o {
            Outcome::Winner(s) => ResultDoc {
                kind: "winner".into(),
                sides: vec![name(*s)],
            },
            Outcome::Draw(v) => ResultDoc {
                kind: "draw".into(),
                sides: v.iter().map(|&s| name(s)).collect(),
            },
        }),
    }
}

/// The game as a JSON document (pretty-printed, fields in a fixed order).
pub fn to_json(g: &Game) -> String {
    serde_json::to_string_pretty(&doc(g)).expect("a game always serialises")
}

fn corrupt(why: String) -> RuleError {
    RuleError(format!("this is not a valid Limit game document: {why}"))
}

/// Reads a game document back, replaying its move list and checking the snapshot against the replay.
pub fn from_json(json: &str) -> Result<Game, RuleError> {
    let d: Doc = serde_json::from_str(json).map_err(|e| corrupt(e.to_string()))?;
    if d.game != "limit" {
        return Err(corrupt(format!(
            "it is a document for the game \"{}\"",
            d.game
        )));
    }
    if d.version != VERSION {
        return Err(corrupt(format!(
            "schema version {} is not supported (this server writes {VERSION})",
            d.version
        )));
    }
    if !(2..=3).contains(&d.players) {
        return Err(corrupt(format!(
            "players is {}, Limit takes 2 or 3",
            d.players
        )));
    }
    let c = d.options;
    let valid = (2..=16).contains(&c.size)
        && (1..=2).contains(&c.must_touch)
        && (1..=3).contains(&c.free_edges)
        && (!c.classic || (c.manual && c.mode == Mode::MoveAndRemove));
    if !valid {
        return Err(corrupt(format!(
            "the options are out of range or inconsistent ({})",
            c.summary()
        )));
    }
    if (d.rules == "classic") != c.classic || !matches!(d.rules.as_str(), "classic" | "default") {
        return Err(corrupt(format!(
            "rules \"{}\" does not match the options",
            d.rules
        )));
    }
    let sides: Vec<String> = (0..d.players)
        .map(|s| {
            if c.classic {
                ["white", "red", "black"][s]
            } else {
                ["red", "blue", "green"][s]
            }
            .to_string()
        })
        .collect();
    let mut records = Vec::with_capacity(d.moves.len());
    for (k, m) in d.moves.iter().enumerate() {
        if m.number != k as u32 + 1 {
            return Err(corrupt(format!("move {} is numbered {}", k + 1, m.number)));
        }
        let seat = sides.iter().position(|s| *s == m.side).ok_or_else(|| {
            corrupt(format!(
                "move {} is by \"{}\", who does not play in this game",
                k + 1,
                m.side
            ))
        })?;
        records.push(MoveRecord {
            seat,
            text: m.text.clone(),
            auto: m.auto,
        });
    }
    let g = Game::replay(c, d.players, d.seed, &records, usize::MAX).map_err(|e| corrupt(e.0))?;
    let again = doc(&g);
    if again != d {
        let a = serde_json::to_value(&again).expect("serialises");
        let b = serde_json::to_value(&d).expect("serialises");
        let field = a
            .as_object()
            .and_then(|ao| {
                ao.iter()
                    .find(|(k, v)| b.get(k.as_str()) != Some(v))
                    .map(|(k, _)| k.clone())
            })
            .unwrap_or_default();
        return Err(corrupt(format!(
            "its field \"{field}\" does not agree with its move list"
        )));
    }
    Ok(g)
}

//! PGN as Ataxx engines write it (records.md section 3): tag pairs, then the moves in UAI notation
//! with move numbers, comments in braces, and the result.

use super::{Ending, RecordInfo, comments_at, ending};
use crate::games::GameState;

/// The game as PGN, or `None` when the game has no PGN form ([`GameState::pgn_start`]).
pub fn pgn(state: &dyn GameState, info: &RecordInfo<'_>) -> Option<String> {
    let fen = state.pgn_start()?;
    let result = match ending(state) {
        Ending::InProgress => "*",
        Ending::Draw(_) => "1/2-1/2",
        Ending::Won(0) | Ending::Resigned(0) | Ending::OnTime(0) => "1-0",
        Ending::Won(_) | Ending::Resigned(_) | Ending::OnTime(_) => "0-1",
    };
    let tag = |v: &str| v.replace('\\', "\\\\").replace('"', "\\\"");
    let mut out = format!("[Event \"pbem {} {}\"]\n", tag(info.game), info.board);
    out.push_str(&format!(
        "[Date \"{}\"]\n",
        super::date(info.started).replace('-', ".")
    ));
    for (seat, side) in ["Black", "White"].iter().enumerate() {
        if let Some(who) = info.players.get(seat) {
            out.push_str(&format!("[{side} \"{}\"]\n", tag(who)));
        }
    }
    out.push_str(&format!(
        "[FEN \"{}\"]\n[Result \"{result}\"]\n\n",
        tag(&fen)
    ));
    let mut words: Vec<String> = Vec::new();
    for (i, m) in state.moves().iter().enumerate() {
        if matches!(m.text.as_str(), "resign" | "forfeit" | "draw") {
            continue;
        }
        if m.seat == 0 {
            words.push(format!("{}.", i / 2 + 1));
        } else if i == 0 || state.moves()[i - 1].seat != 0 {
            words.push(format!("{}...", i / 2 + 1));
        }
        words.push(m.text.clone());
        for c in comments_at(info, i as u32 + 1) {
            let body = comment(&c.body);
            if !body.is_empty() {
                words.push(format!("{{ {body} }}"));
            }
        }
    }
    words.push(result.to_string());
    out.push_str(&words.join(" "));
    out.push('\n');
    Some(out)
}

/// A player's comment as the text of a PGN `{...}` comment: braces removed (a `}` would end it, and
/// PGN has no escape for one inside) and every run of blanks and line ends one space. The movetext is
/// one line, so nothing a comment holds starts a line: a line `[Event "x"]` would be read as the tag
/// of a new game, a line starting `%` as an escape, and readers that take a game line by line (such as
/// python-ataxx) lose a comment that runs over two.
fn comment(body: &str) -> String {
    body.replace(['{', '}'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::comment;

    #[test]
    fn a_comment_is_one_line_without_braces() {
        assert_eq!(
            comment("  Look:\r\n[Event \"x\"]\n%escape\t} {x}\u{2028}end\n"),
            "Look: [Event \"x\"] %escape x end"
        );
        assert_eq!(comment("\n}{\n"), "");
    }
}

//! SGF FF\[4\] (records.md section 2) for the games that have an SGF form: one game tree, the main line
//! only. The game gives its `GM` number, its size and its moves as SGF values
//! ([`crate::games::SgfForm`]); the root's players, date, name, result and the comments are common.

use super::{Ending, RecordInfo, comments_at, date, ending};
use crate::games::GameState;

/// The game as an SGF file, or `None` when the game has no SGF form (records.md 2.3: Y, Hexxagon,
/// Paradux, Cups, Limit).
pub fn sgf(state: &dyn GameState, info: &RecordInfo<'_>) -> Option<String> {
    let form = state.sgf_form()?;
    let mut out = format!(
        "(;FF[4]GM[{}]CA[UTF-8]AP[pbem:{}]SZ[{}]",
        form.game_number,
        env!("CARGO_PKG_VERSION"),
        escape(&form.size)
    );
    for (name, values) in &form.root {
        out.push_str(name);
        for v in values {
            out.push_str(&format!("[{}]", escape(v)));
        }
    }
    for (seat, prop) in ["PB", "PW"].iter().enumerate() {
        if let Some(who) = info.players.get(seat) {
            out.push_str(&format!("{prop}[{}]", escape(who)));
        }
    }
    out.push_str(&format!(
        "DT[{}]GN[{} {}]RE[{}]",
        date(info.started),
        escape(info.game),
        info.board,
        result(&ending(state), form.margin.as_deref())
    ));
    let setup: Vec<String> = comments_at(info, 0)
        .map(|c| format!("{}: {}", c.userid, c.body.trim()))
        .collect();
    if !setup.is_empty() {
        out.push_str(&format!("C[{}]", escape(&setup.join("\n\n"))));
    }
    out.push('\n');
    let moves = state.moves();
    let last = form.nodes.iter().rposition(Option::is_some);
    for (i, node) in form.nodes.iter().enumerate() {
        let Some((colour, value)) = node else {
            continue;
        };
        out.push_str(&format!(";{colour}[{}]", escape(value)));
        let n = i as u32 + 1;
        let mover = moves
            .get(i)
            .and_then(|m| info.players.get(m.seat))
            .map(String::as_str);
        let mut said: Vec<String> = comments_at(info, n)
            .map(|c| {
                if Some(c.userid.as_str()) == mover {
                    c.body.trim().to_string()
                } else {
                    format!("{}: {}", c.userid, c.body.trim())
                }
            })
            .filter(|t| !t.is_empty())
            .collect();
        let is_last = last == Some(i);
        if is_last {
            // Entries after the last node have none of their own (Go's scoring step, a
            // resignation): their comments go here, each with the entry it came with.
            for (k, m) in moves.iter().enumerate().skip(i + 1) {
                said.extend(
                    comments_at(info, k as u32 + 1)
                        .filter(|c| !c.body.trim().is_empty())
                        .map(|c| format!("{} ({}): {}", c.userid, m.text, c.body.trim())),
                );
            }
            said.extend(form.last_comment.clone());
        }
        if !said.is_empty() {
            out.push_str(&format!("C[{}]", escape(&said.join("\n\n"))));
        }
        if is_last {
            for (name, values) in form.last_node.iter().filter(|(_, v)| !v.is_empty()) {
                out.push_str(name);
                for v in values {
                    out.push_str(&format!("[{}]", escape(v)));
                }
            }
        }
    }
    out.push_str(")\n");
    Some(out)
}

/// The `RE` value: `B+R`, `W+T`, `B+3.5`, `B+` (won, margin not counted), `0` (draw), `?` (unfinished).
/// Seat 0 is Black and seat 1 White in every SGF game.
fn result(end: &Ending, margin: Option<&str>) -> String {
    let colour = |s: usize| if s == 0 { "B" } else { "W" };
    match end {
        Ending::InProgress => "?".to_string(),
        Ending::Draw(_) => "0".to_string(),
        Ending::Resigned(s) => format!("{}+R", colour(*s)),
        Ending::OnTime(s) => format!("{}+T", colour(*s)),
        Ending::Won(s) => format!("{}+{}", colour(*s), margin.unwrap_or("")),
    }
}

/// SGF text escaping: `]` and `\` get a backslash (FF\[4\] SimpleText/Text).
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        if ch == ']' || ch == '\\' {
            out.push('\\');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_and_results() {
        assert_eq!(escape(r"a]b\c"), r"a\]b\\c");
        assert_eq!(result(&Ending::Resigned(1), None), "W+R");
        assert_eq!(result(&Ending::OnTime(0), None), "B+T");
        assert_eq!(result(&Ending::Won(1), Some("7.5")), "W+7.5");
        assert_eq!(result(&Ending::Won(0), None), "B+");
        assert_eq!(result(&Ending::Draw(vec![0, 1]), None), "0");
        assert_eq!(result(&Ending::InProgress, None), "?");
    }
}

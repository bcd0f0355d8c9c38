//! The text record of records.md section 1: a header, `0: Setup`, then one line an entry of the move
//! list with the player's comment indented under it.

use super::{Ending, RecordInfo, comments_at, date, ending, entries, side};
use crate::games::GameState;

/// The text record of a game (records.md section 1): UTF-8, `\n` line ends, no tabs.
pub fn text_record(state: &dyn GameState, info: &RecordInfo<'_>) -> String {
    let names = state.seat_names();
    let mut out = format!("Game: {} {}\n", info.game, info.board);
    for (seat, who) in info.players.iter().enumerate() {
        let name = names
            .get(seat)
            .cloned()
            .unwrap_or_else(|| format!("Seat {seat}"));
        out.push_str(&format!("{name}: {who}\n"));
    }
    let options = state.options_summary();
    if !options.trim().is_empty() {
        out.push_str(&format!("Options: {}\n", options.trim()));
    }
    out.push_str(&format!("Started: {}\n", date(info.started)));
    let end = ending(state);
    if end != Ending::InProgress {
        out.push_str(&format!("Ended: {}\n", date(info.last_move)));
    }
    let mut result = result_text(&end, &names);
    if let (Ending::Won(_), Some(score)) = (&end, state.score_result()) {
        // A count decided it: `White wins by 7.5 (Black 36, White 36 + 7.5)` (records.md 1.1).
        result.push_str(&format!(" by {score}"));
    }
    out.push_str(&format!("Result: {result}\n"));

    out.push_str("\n0: Setup\n");
    let setup = state
        .at_move(1)
        .map(|start| start.setup_text())
        .unwrap_or_else(|_| state.setup_text());
    push_indented(&mut out, &setup);
    for c in comments_at(info, 0) {
        push_comment(&mut out, Some(&c.userid), &c.body);
    }

    for (i, entry) in entries(state).iter().enumerate() {
        let n = i as u32 + 1;
        let who = side(&names, entry.seat);
        let line = match (entry.text.as_str(), entry.auto) {
            ("resign", _) => format!("{n}. {who} resigns"),
            ("forfeit", _) => format!("{n}. {who} loses on time"),
            (mv, true) => format!("{n}. {who} {mv} (Auto)"),
            (mv, false) => format!("{n}. {who} {mv}"),
        };
        out.push('\n');
        out.push_str(&line);
        out.push('\n');
        let mover = info.players.get(entry.seat).map(String::as_str);
        for c in comments_at(info, n) {
            // The mover's own comment needs no name; anybody else's says whose it is.
            let by = (Some(c.userid.as_str()) != mover).then_some(c.userid.as_str());
            push_comment(&mut out, by, &c.body);
        }
    }
    // Comments written after the last entry (a chat while waiting for a move) close the record.
    let last = entries(state).len() as u32;
    let late: Vec<_> = info
        .comments
        .iter()
        .filter(|c| super::comment_entry(c) > last)
        .collect();
    if !late.is_empty() {
        out.push_str("\nLater comments\n");
        for c in late {
            push_comment(&mut out, Some(&c.userid), &c.body);
        }
    }
    out.replace('\t', "    ").replace("\r\n", "\n")
}

/// The `Result:` value: `Black wins` (the caller adds a count's margin), `White wins by
/// resignation`, `Red wins on time`, `Draw`, `in progress`.
fn result_text(end: &Ending, names: &[String]) -> String {
    let name = |s: usize| names.get(s).cloned().unwrap_or_else(|| format!("Seat {s}"));
    match end {
        Ending::InProgress => "in progress".to_string(),
        Ending::Won(s) => format!("{} wins", name(*s)),
        Ending::Resigned(s) => format!("{} wins by resignation", name(*s)),
        Ending::OnTime(s) => format!("{} wins on time", name(*s)),
        Ending::Draw(seats) if seats.len() == names.len() || seats.len() < 2 => "Draw".to_string(),
        Ending::Draw(seats) => {
            let who: Vec<String> = seats.iter().map(|&s| name(s)).collect();
            format!("Draw between {}", who.join(" and "))
        }
    }
}

/// A text block indented by four spaces, one line at a time (blank lines stay blank).
fn push_indented(out: &mut String, text: &str) {
    for line in text.trim_end().lines() {
        if line.trim().is_empty() {
            out.push('\n');
        } else {
            out.push_str("    ");
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
}

/// A player's comment under its entry: every line indented, so a comment can never be read as a move;
/// `by` names its writer when that is not the entry's player.
fn push_comment(out: &mut String, by: Option<&str>, body: &str) {
    let body = body.trim();
    if body.is_empty() {
        return;
    }
    match by {
        Some(userid) => push_indented(out, &format!("{userid}: {body}")),
        None => push_indented(out, body),
    }
}

//! The text of the mails players read: board summaries in pbmserv's order, subjects, error mails.
//!
//! Third-party tools find games by the line `Summary of <Game> Board <n>`: keep it exactly.

use crate::games::{GameState, Outcome, Status};
use crate::storage::Comment;

/// Everything a board summary shows.
pub struct Summary<'a> {
    /// The game's printed name: `Limit`.
    pub title: &'a str,
    /// The board number.
    pub board: u32,
    /// The game as it stands.
    pub state: &'a dyn GameState,
    /// The userids, seat by seat.
    pub players: &'a [String],
    /// Comments to print (the ones this mail carries).
    pub comments: &'a [Comment],
    /// Lines under the status: open proposals, players away on vacation.
    pub status_notes: &'a [String],
    /// The rating changes of a finished game, one line a player.
    pub rating_changes: &'a [String],
    /// The userids of the game's subscribers (spectators).
    pub subscribers: &'a [String],
    /// Unix seconds.
    pub started: i64,
    /// Unix seconds of the last move.
    pub last_move: i64,
    /// Unix seconds.
    pub now: i64,
    /// Seconds each seat has had the move (empty: not shown).
    pub time_used: &'a [i64],
    /// The game's command word (`hex`), for the line that says how to get the whole move list.
    pub game: &'a str,
    /// The game's web page, if the server has one.
    pub web: Option<&'a str>,
}

/// How many entries of the move list a board mail shows, the last ones (issue 37): in a game of
/// two, each side's last three moves, which is the exchange a reader needs to see around the news
/// at the top (the moves since their last mail); the whole list is one `history` away. A 19x19 Go
/// game printed 250 lines of moves and a Hex mail grew by 40 KB over a game; this keeps the list
/// a few hundred bytes at any move.
pub const MOVES_SHOWN: usize = 6;

/// `Red (alice)`: a seat as players read it.
pub fn seat_label(state: &dyn GameState, players: &[String], seat: usize) -> String {
    let names = state.seat_names();
    let side = names.get(seat).map(String::as_str).unwrap_or("?");
    let who = players.get(seat).map(String::as_str).unwrap_or("?");
    format!("{side} ({who})")
}

/// One line: whose turn it is, or how the game ended.
pub fn status_line(state: &dyn GameState, players: &[String]) -> String {
    match state.status() {
        Status::ToMove(seat) => format!("{} to move.", seat_label(state, players, seat)),
        Status::Over(Outcome::Winner(seat)) => {
            format!("Game over: {} wins.", seat_label(state, players, seat))
        }
        Status::Over(Outcome::Draw(seats)) => {
            let who: Vec<String> = seats
                .iter()
                .map(|&s| seat_label(state, players, s))
                .collect();
            format!("Game over: a draw between {}.", who.join(" and "))
        }
    }
}

/// What a board mail's Subject says after `Limit Board 101: `.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SubjectState<'a> {
    /// The seat of the reader (`None`: a subscriber or the admin).
    pub reader: Option<usize>,
    /// The first mail of a new game.
    pub new: bool,
    /// The open proposal's kind in words (`draw offered`, `undo asked`), if one is open.
    pub proposal: Option<&'a str>,
    /// The mail carries players' comments.
    pub with_comment: bool,
}

/// A board mail's Subject, the same words first for every mail of the game so that mail clients
/// thread them: `Limit Board 101: your move`, `Limit Board 101: bob to move`,
/// `Limit Board 101: draw offered`, `Limit Board 101: over`; `new game, ` before the state in the
/// first mail, ` (with a comment)` after it when players wrote one.
pub fn board_subject(
    title: &str,
    board: u32,
    state: &dyn GameState,
    players: &[String],
    how: SubjectState<'_>,
) -> String {
    let tail = match (state.status(), how.proposal) {
        (Status::Over(_), _) => "over".to_string(),
        (_, Some(p)) => p.to_string(),
        (Status::ToMove(seat), None) if how.reader == Some(seat) => "your move".to_string(),
        (Status::ToMove(seat), None) => {
            format!("{} to move", players.get(seat).map_or("?", String::as_str))
        }
    };
    let new = if how.new { "new game, " } else { "" };
    let comment = if how.with_comment {
        " (with a comment)"
    } else {
        ""
    };
    format!("{}: {new}{tail}{comment}", game_subject(title, board))
}

/// A game's own Subject, the same for every mail of it: `Limit Board 101`. The Subject of the
/// board mails of a player who did not choose `subject state`, and every board mail's `Thread-Topic`.
pub fn game_subject(title: &str, board: u32) -> String {
    format!("{title} Board {board}")
}

/// `Limit Board 101 Error`, or `Limit Error` when no board is involved (the game's word as a
/// title: pbmserv's lower-case `limit error` read as a server named limit, issue 37), or `pbem
/// error`, the server's own name, when no game is.
pub fn error_subject(game: Option<(&str, u32)>, game_word: Option<&str>) -> String {
    match (game, game_word) {
        (Some((title, board)), _) => format!("{title} Board {board} Error"),
        (None, Some(word)) => {
            let word = word.to_lowercase();
            let mut chars = word.chars();
            let title: String = chars
                .next()
                .map(|c| c.to_uppercase().chain(chars).collect())
                .unwrap_or_default();
            format!("{title} Error")
        }
        (None, None) => "pbem error".to_string(),
    }
}

/// Formats unix seconds for players: `2026-11-21 20:52 UTC`.
pub fn format_time(unix: i64) -> String {
    chrono::DateTime::from_timestamp(unix, 0)
        .map(|t| t.format("%Y-%m-%d %H:%M UTC").to_string())
        .unwrap_or_else(|| unix.to_string())
}

/// The move list: one entry a line, numbered from 1, with the side and the player.
pub fn move_list(state: &dyn GameState, players: &[String]) -> String {
    move_list_from(state, players, 0)
}

/// The move list from entry `first` (0-based) on, numbered as in the whole list.
fn move_list_from(state: &dyn GameState, players: &[String], first: usize) -> String {
    let moves = state.moves();
    if moves.is_empty() {
        return "  (no moves yet)\n".to_string();
    }
    let labels: Vec<String> = moves
        .iter()
        .map(|m| seat_label(state, players, m.seat))
        .collect();
    let width = labels.iter().map(String::len).max().unwrap_or(0);
    let mut out = String::new();
    for (i, (m, label)) in moves.iter().zip(&labels).enumerate().skip(first) {
        let auto = if m.auto { " (Auto)" } else { "" };
        out.push_str(&format!(
            "{:>5}. {label:<width$}  {}{auto}\n",
            i + 1,
            m.text
        ));
    }
    out
}

/// A row of asterisks, as pbmserv frames comments.
const RULE: &str = "**********************************************************************";

/// The comments block: each comment framed by rows of asterisks under "userid writes:".
pub fn comments_block(comments: &[Comment]) -> String {
    let mut out = String::new();
    for c in comments {
        out.push_str(RULE);
        out.push('\n');
        out.push_str(&format!("{} writes:\n", c.userid));
        out.push_str(c.body.trim_end());
        out.push('\n');
    }
    if !comments.is_empty() {
        out.push_str(RULE);
        out.push('\n');
    }
    out
}

impl Summary<'_> {
    /// The whole summary, in pbmserv's order: the summary line, status (with open proposals and
    /// vacations), rating changes, options, move list, board, players, subscribers, comments, times.
    pub fn render(&self) -> String {
        self.write(true)
    }

    /// The summary without the ASCII board: the HTML part of a board mail shows the picture instead.
    pub fn render_without_board(&self) -> String {
        self.write(false)
    }

    fn write(&self, with_board: bool) -> String {
        let st = self.state;
        let mut out = format!("Summary of {} Board {}\n\n", self.title, self.board);
        out.push_str(&status_line(st, self.players));
        out.push('\n');
        if matches!(st.status(), Status::ToMove(_)) {
            out.push_str(&format!("Move {}\n", st.move_number()));
        }
        // Notes are prose of any length (a verdict, a score line): wrapped as mail is read.
        for note in self.status_notes.iter().cloned().chain(st.notes()) {
            for line in note.lines() {
                for part in wrap(line, ERROR_WIDTH) {
                    out.push_str(part);
                    out.push('\n');
                }
            }
        }
        if !self.rating_changes.is_empty() {
            out.push_str("Rating changes:\n");
            for line in self.rating_changes {
                out.push_str(&format!("  {line}\n"));
            }
        }
        out.push_str(&format!("Options: {}\n\n", st.options_summary()));
        let count = st.moves().len();
        if count > MOVES_SHOWN {
            // The last few and the way to the rest: a board mail stays the same size at any move.
            out.push_str(&format!(
                "Moves ({count} in all; the last {MOVES_SHOWN}):\n"
            ));
            out.push_str(&move_list_from(st, self.players, count - MOVES_SHOWN));
            let web = self
                .web
                .map(|url| format!(", or see {url}"))
                .unwrap_or_default();
            let line = format!(
                "All {count} moves: send `{} history {}`{web}",
                self.game, self.board
            );
            for part in wrap(&line, ERROR_WIDTH) {
                out.push_str(part);
                out.push('\n');
            }
        } else {
            out.push_str("Moves:\n");
            out.push_str(&move_list(st, self.players));
        }
        out.push('\n');
        if with_board {
            out.push_str(st.render().trim_end());
            out.push_str("\n\n");
        }
        out.push_str("Players:\n");
        for seat in 0..self.players.len() {
            out.push_str(&format!("  {}\n", seat_label(st, self.players, seat)));
        }
        if !self.subscribers.is_empty() {
            out.push_str(&format!("Subscribers: {}\n", self.subscribers.join(", ")));
        }
        out.push('\n');
        let comments = comments_block(self.comments);
        if !comments.is_empty() {
            out.push_str(&comments);
            out.push('\n');
        }
        out.push_str(&format!(
            "Game started: {}\nLast move:    {}\nNow:          {}\n",
            format_time(self.started),
            format_time(self.last_move),
            format_time(self.now)
        ));
        if !self.time_used.is_empty() {
            let used: Vec<String> = self
                .time_used
                .iter()
                .enumerate()
                .map(|(seat, secs)| {
                    let who = self.players.get(seat).map(String::as_str).unwrap_or("?");
                    format!("{who} {}", format_duration(*secs))
                })
                .collect();
            out.push_str(&format!("Time used:    {}\n", used.join(", ")));
        }
        out
    }
}

/// `3d 4h`, `5h 12m`, `7m`: a span of seconds as the board mail shows time used.
pub fn format_duration(secs: i64) -> String {
    let secs = secs.max(0);
    let (d, h, m) = (secs / 86_400, secs % 86_400 / 3_600, secs % 3_600 / 60);
    if d > 0 {
        format!("{d}d {h}h")
    } else if h > 0 {
        format!("{h}h {m}m")
    } else {
        format!("{m}m")
    }
}

/// The width error explanations are wrapped at, as mail clients show plain text best.
pub const ERROR_WIDTH: usize = 72;

/// The games crate's line breaker, shared with the games' own notes and captions.
pub use pbem_games::text::wrap;

/// Where the words of a line of a help page begin after its own prefix, for the lines that wrap
/// under it: after a bullet (`* `, `- `, `1) `), or after the gap that parts a table's two
/// columns: three blanks or more (`  -size=n     pawns per player`), or two after a first column
/// of one word (`  clone  put a new piece`); else at its indentation.
fn hanging_indent(line: &str) -> usize {
    let indent = line.len() - line.trim_start().len();
    let rest = &line[indent..];
    for bullet in ["* ", "- "] {
        if rest.starts_with(bullet) {
            return indent + bullet.len();
        }
    }
    if let Some(close) = rest.find(") ")
        && close <= 2
        && rest[..close].chars().all(|c| c.is_ascii_alphanumeric())
    {
        return indent + close + 2;
    }
    // A table's first column: up to three blanks, or two after its one word (Ataxx's `clone  put
    // a new piece`, Go's `-handicap=H  Black starts`: refilled as one line, the next line that
    // went on under the second column was left as a fragment, issue 37).
    let word_gap = rest
        .find("  ")
        .filter(|&gap| gap > 0 && !rest[..gap].contains(' '));
    if indent > 0
        && let Some(gap) = rest.find("   ").or(word_gap)
    {
        let after = rest[gap..].len() - rest[gap..].trim_start().len();
        return indent + gap + after;
    }
    indent
}

/// A help page laid out again within `width` columns: each paragraph holding a longer line (its
/// first line and the lines under it at its hanging indent, see [`hanging_indent`]) is refilled
/// between words, its later lines under the hanging indent; paragraphs that fit stay as written
/// (drawings, tables). A word longer than the width stays whole.
pub fn reflow(text: &str, width: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < lines.len() {
        let first = lines[i];
        if first.trim().is_empty() {
            out.push('\n');
            i += 1;
            continue;
        }
        let hang = hanging_indent(first);
        let first_indent = first.len() - first.trim_start().len();
        let mut end = i + 1;
        while end < lines.len() {
            let l = lines[end];
            let indent = l.len() - l.trim_start().len();
            // Under a hanging first line (a bullet, a table's second column) every line at the
            // hang goes on with it, whatever gaps it holds (`Written as the cell:      g2`).
            let goes_on = indent == hang && (hang > first_indent || hanging_indent(l) == hang);
            if l.trim().is_empty() || !goes_on {
                break;
            }
            end += 1;
        }
        let para = &lines[i..end];
        if para.iter().all(|l| l.chars().count() <= width) {
            for l in para {
                out.push_str(l);
                out.push('\n');
            }
        } else if hang >= width / 2 {
            // A table's first column too wide to keep the second beside it: the second goes under
            // it, indented, refilled.
            let indent = first.len() - first.trim_start().len();
            out.push_str(first[..hang.min(first.len())].trim_end());
            out.push('\n');
            let rest: Vec<&str> = std::iter::once(&first[hang.min(first.len())..])
                .chain(para[1..].iter().map(|l| l.trim_start()))
                .collect();
            let mut line = String::new();
            let pad = " ".repeat(indent + 4);
            for w in rest.iter().flat_map(|l| l.split_whitespace()) {
                if !line.is_empty() && pad.len() + line.len() + 1 + w.len() > width {
                    out.push_str(&format!("{pad}{line}\n"));
                    line.clear();
                }
                if !line.is_empty() {
                    line.push(' ');
                }
                line.push_str(w);
            }
            if !line.is_empty() {
                out.push_str(&format!("{pad}{line}\n"));
            }
        } else {
            let prefix = &first[..hang.min(first.len())];
            let words = para.iter().enumerate().flat_map(|(k, l)| {
                if k == 0 {
                    &l[prefix.len()..]
                } else {
                    l.trim_start()
                }
                .split_whitespace()
            });
            let mut line = prefix.to_string();
            let mut empty = true;
            for w in words {
                if !empty && line.chars().count() + 1 + w.chars().count() > width {
                    out.push_str(line.trim_end());
                    out.push('\n');
                    line = " ".repeat(hang);
                    empty = true;
                }
                if !empty {
                    line.push(' ');
                }
                line.push_str(w);
                empty = false;
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        i = end;
    }
    out
}

/// The body of an error mail: what went wrong (and how to write it right), then the board if one is
/// involved, then the original message (passwords already masked by the caller). The
/// explanation is wrapped at 72 columns; the board and the quote are not.
pub fn error_body(message: &str, board: Option<&str>, original: &str) -> String {
    let mut out = String::new();
    out.push_str("Your command was not carried out:\n\n");
    for line in message.trim_end().lines() {
        // A usage line with a comment column (`   or: set ... plain|state   (state: in the
        // Subject)`) too wide for the mail: the comment goes under it (issue 37). Other indented
        // lines are examples, kept whole.
        let indent = line.len() - line.trim_start().len();
        if indent > 0 && line.chars().count() > ERROR_WIDTH - 2 && line.trim_start().contains("   ")
        {
            for part in reflow(line, ERROR_WIDTH - 2).lines() {
                out.push_str("  ");
                out.push_str(part);
                out.push('\n');
            }
            continue;
        }
        for part in wrap(line, ERROR_WIDTH - 2) {
            out.push_str("  ");
            out.push_str(part);
            out.push('\n');
        }
    }
    out.push_str("\nNothing was changed. Send `help` for the list of commands.\n");
    if let Some(board) = board {
        out.push('\n');
        out.push_str(board.trim_end());
        out.push('\n');
    }
    if !original.trim().is_empty() {
        out.push_str("\n----- Your message -----\n");
        for line in original.trim_end().lines() {
            out.push_str("> ");
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_days_hours_minutes() {
        assert_eq!(format_duration(0), "0m");
        assert_eq!(format_duration(59), "0m");
        assert_eq!(format_duration(7 * 60), "7m");
        assert_eq!(format_duration(5 * 3600 + 12 * 60), "5h 12m");
        assert_eq!(format_duration(3 * 86_400 + 4 * 3600 + 59), "3d 4h");
        assert_eq!(format_duration(-5), "0m");
    }

    #[test]
    fn error_subjects() {
        assert_eq!(
            error_subject(Some(("Limit", 101)), Some("limit")),
            "Limit Board 101 Error"
        );
        assert_eq!(error_subject(None, Some("Limit")), "Limit Error");
        assert_eq!(error_subject(None, Some("ataxx")), "Ataxx Error");
        assert_eq!(error_subject(None, None), "pbem error");
    }

    #[test]
    fn times_are_utc_minutes() {
        assert_eq!(format_time(0), "1970-01-01 00:00 UTC");
        assert_eq!(format_time(1_795_000_000), "2026-11-18 11:06 UTC");
    }

    #[test]
    fn comments_are_framed_and_attributed() {
        let c = Comment {
            move_number: 3,
            userid: "bob".into(),
            body: "good game\n".into(),
            created_at: 0,
        };
        let block = comments_block(&[c]);
        assert_eq!(block.lines().count(), 4);
        assert!(block.starts_with("****"));
        assert!(block.contains("bob writes:\ngood game\n"));
        assert_eq!(comments_block(&[]), "");
    }

    #[test]
    fn error_explanations_wrap_at_72_columns_but_not_the_quote() {
        let long = "word ".repeat(40);
        let quoted = format!("limit move 101 alice **** {}", "x".repeat(80));
        let b = error_body(
            &format!(
                "{long}\n    an example line that is laid out on purpose and is longer than seventy-two\n{}",
                "y".repeat(90)
            ),
            Some(&"=".repeat(80)),
            &quoted,
        );
        let lines: Vec<&str> = b.lines().collect();
        let prose: Vec<&&str> = lines.iter().filter(|l| l.starts_with("  word")).collect();
        assert_eq!(prose.len(), 3, "{b}");
        assert!(prose.iter().all(|l| l.len() <= 72), "{b}");
        assert_eq!(
            prose
                .iter()
                .map(|l| l.split_whitespace().count())
                .sum::<usize>(),
            40
        );
        // Examples, an unbreakable word, the board and the quoted command stay whole.
        assert!(b.contains(
            "\n      an example line that is laid out on purpose and is longer than seventy-two\n"
        ));
        assert!(b.contains(&format!("\n  {}\n", "y".repeat(90))));
        assert!(b.contains(&format!("\n{}\n", "=".repeat(80))));
        assert!(b.contains(&format!("> {quoted}\n")));
        assert_eq!(wrap("a b", 1), vec!["a", "b"]);
        assert_eq!(wrap("", 10), vec![""]);
    }

    #[test]
    fn reflow_refills_long_paragraphs_under_their_hanging_indent_and_keeps_the_rest() {
        let text = format!(
            "{}\nsecond line of it.\n\n  -opt      {} end\n            more of it\n  -b  short\n\n  / \\\n",
            "word ".repeat(20).trim_end(),
            "desc ".repeat(15).trim_end()
        );
        let out = reflow(&text, 40);
        assert!(out.lines().all(|l| l.chars().count() <= 40), "{out}");
        // No word lost or added, the drawing and the short table line kept as written.
        assert_eq!(
            out.split_whitespace().count(),
            text.split_whitespace().count(),
            "{out}"
        );
        assert!(out.contains("\n  -b  short\n\n  / \\\n"), "{out}");
        // The table's description wraps under its column.
        assert!(out.contains("\n            desc"), "{out}");
        assert!(out.contains("second line of it.\n\n"), "{out}");
    }

    #[test]
    fn error_body_quotes_the_original_and_says_nothing_changed() {
        let b = error_body("no such board: 999", None, "limit show 999");
        assert!(b.contains("  no such board: 999\n"));
        assert!(b.contains("Nothing was changed"));
        assert!(b.contains("> limit show 999\n"));
    }
}

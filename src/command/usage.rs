//! The texts that say how commands are written, all read from the [`table`](super::table): the list
//! of commands, one command's usage, the `help` mail's lists, and the hint for a mistyped command.

use std::sync::LazyLock;

use super::spelling::closest;
use super::table::{
    CommandDef, Group, Scope, defs, game_command_words, game_def, group, member, members,
    server_def, server_keywords,
};

/// The lines of a command's usage joined as one text, each form after the first on an `or:` line; a
/// game's command with `game` (its name, or `<game>`) in front of each form.
pub(crate) fn usage(def: &CommandDef, game: &str) -> String {
    let prefix = match def.scope() {
        Scope::Server => String::new(),
        Scope::Game => format!("{game} "),
    };
    let forms: Vec<String> = def.usage.iter().map(|u| format!("{prefix}{u}")).collect();
    forms.join("\n   or: ")
}

/// The usage of every member of a group, as one text.
pub(crate) fn group_usage(group: &Group) -> String {
    let forms: Vec<String> = members(group).map(|d| usage(d, "")).collect();
    forms.join("\n   or: ")
}

/// Every command, one per line, with its usage: the text an unknown command is answered with.
pub fn command_list() -> String {
    let mut s = String::new();
    for def in defs(Scope::Server).chain(defs(Scope::Game)) {
        s.push_str("  ");
        s.push_str(&usage(def, "<game>"));
        s.push('\n');
    }
    s.push_str("where <game> is one of the games the server hosts (write 'list' to see them).");
    s
}

/// The `help` mail's list of the commands of one scope: each command's help lines, indented, one per
/// line.
pub fn help_list(scope: Scope) -> String {
    let mut s = String::new();
    for line in defs(scope).flat_map(|d| d.help) {
        s.push_str(&fit_help_line(&format!("  {line}")));
    }
    s
}

/// The width of the help mail (issue 25: every mail within 72 columns).
const HELP_WIDTH: usize = 72;

/// A line of the list of commands, within [`HELP_WIDTH`] columns: as it is when it fits, else the
/// command alone and what it does under it, indented and wrapped between words.
fn fit_help_line(line: &str) -> String {
    if line.chars().count() <= HELP_WIDTH {
        return format!("{line}\n");
    }
    let trimmed = line.trim_start();
    // `command   what it does`: the gap of three blanks or more parts the two columns; a line
    // that starts far in is the second line of what a command does.
    let (head, text) = match trimmed.find("   ") {
        Some(i) if line.len() - trimmed.len() < 8 => (Some(&trimmed[..i]), trimmed[i..].trim()),
        _ => (None, trimmed),
    };
    let mut out = String::new();
    if let Some(head) = head {
        out.push_str(&format!("  {head}\n"));
    }
    let mut current = String::new();
    for word in text.split_whitespace() {
        if !current.is_empty() && 6 + current.len() + 1 + word.len() > HELP_WIDTH {
            out.push_str(&format!("      {current}\n"));
            current.clear();
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(word);
    }
    if !current.is_empty() {
        out.push_str(&format!("      {current}\n"));
    }
    out
}

/// How a command is written, for `help <command>`: `help signup`, `help change password`, `help limit
/// move` (a game's command, after any game's name) or `help move` (shown with `<game>`). `None` when
/// the words name no command.
pub fn command_usage(subject: &[String]) -> Option<String> {
    let words: Vec<String> = subject.iter().map(|w| w.to_lowercase()).collect();
    let first = words.first()?.as_str();
    let second = words.get(1).map(String::as_str);
    if let Some(g) = group(first) {
        return Some(match second.and_then(|w| member(g, w)) {
            Some(def) => usage(def, ""),
            None => group_usage(g),
        });
    }
    if let Some(def) = server_def(first) {
        return Some(usage(def, ""));
    }
    match second {
        Some(w) => game_def(w).map(|def| usage(def, &subject[0])),
        None => game_def(first).map(|def| usage(def, "<game>")),
    }
}

/// The command (server keyword, or game command word) nearest to a mistyped one, if any is one or two
/// letters off.
pub fn nearest_command(word: &str) -> Option<&'static str> {
    static ALL: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
        server_keywords()
            .iter()
            .chain(game_command_words())
            .copied()
            .collect()
    });
    closest(&word.to_lowercase(), &ALL)
}

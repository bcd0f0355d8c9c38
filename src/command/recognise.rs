//! Telling commands from other lines: a reply's Subject, prose, a mistyped command.

use super::spelling::closest;
use super::table::{game_command_words, game_def, group, member, server_def, server_keywords};
use super::words::parse_positive;

/// The word of the admin's overrides, refused by mail with a word on where they are taken.
pub(crate) const ADMIN: &str = "admin";

/// True for the Subject of a board mail this server sent, as a reply keeps it:
/// `Limit Board 101: your move`, `Limit Board 101 bob` and `New Limit Board 101 alice` (before
/// issue 25), `Nag: Limit Board 101 alice`, `Limit Board 101 Error`: a game's
/// name (any word: the game may be one this server no longer hosts), `Board`, a number, and at most
/// `New` or `Nag:` before them. Such a Subject is never a command, nor a mistyped one with a
/// password to hide.
pub fn is_board_mail_subject(line: &str) -> bool {
    board_subject_words(&line.split_whitespace().collect::<Vec<_>>())
}

/// [`is_board_mail_subject`] on the words of a line.
pub(crate) fn board_subject_words(words: &[&str]) -> bool {
    let start = match words.first().map(|w| w.to_lowercase()).as_deref() {
        Some("new" | "nag:") => 1,
        _ => 0,
    };
    words.len() >= start + 3
        && words[start + 1].eq_ignore_ascii_case("board")
        && words[start + 2]
            .trim_end_matches(':')
            .parse::<u32>()
            .is_ok()
        && words[start].chars().all(|c| c.is_alphanumeric())
}

/// True when a line may be a command, however mistyped: its first word is (or is one or two letters
/// off) a server keyword, or a game's name followed by a game command word or a number, or a game
/// command word in a line that also holds a number (`move 101 alice PW 4-1,3` without the game).
/// Wider than [`looks_like_command`], which decides what is run; this decides what is hidden.
pub fn may_be_command(line: &str, games: &[&str]) -> bool {
    if is_board_mail_subject(line) {
        return false;
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(first) = words.first().map(|w| w.to_lowercase()) else {
        return false;
    };
    if closest(&first, server_keywords()).is_some() {
        return true;
    }
    if closest(&first, games).is_some() {
        let second = words.get(1).map(|w| w.to_lowercase()).unwrap_or_default();
        return closest(&second, game_command_words()).is_some()
            || parse_positive(&second).is_some();
    }
    // Four words at least: `move 101 alice PW` is the shortest mistyped command with a password.
    closest(&first, game_command_words()).is_some()
        && words.len() >= 4
        && words
            .iter()
            .any(|w| parse_positive(w.trim_end_matches(',')).is_some())
}

/// True when the line reads as a command rather than prose: its first word is a server keyword (for
/// the first word of a group such as `change`, followed by a member's word such as `password`), or
/// one of `games` (ignoring case) followed by a game command word. Tells a Subject `Re: Limit Board
/// 101 Blue` (a reply) from `limit show 101`.
pub fn looks_like_command(line: &str, games: &[&str]) -> bool {
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else {
        return false;
    };
    let first = first.to_lowercase();
    let second = words.next().map(|w| w.to_lowercase());
    if let Some(g) = group(&first) {
        return second.is_some_and(|w| member(g, &w).is_some());
    }
    if first == ADMIN {
        return second.is_some();
    }
    if server_def(&first).is_some() {
        return true;
    }
    games.iter().any(|g| g.eq_ignore_ascii_case(&first))
        && second.is_some_and(|w| game_def(&w).is_some())
}

//! Finding the passwords of a line by where they stand, whether or not the line parses, so that a
//! line quoted back in a reply, or a mail's comment repeating it, never shows them.

use super::mask::{mask_for, mask_secrets};
use super::recognise::{board_subject_words, may_be_command};
use super::spelling::closest;
use super::table::{
    CommandDef, Scope, defs, game_command_words, game_def, group, members, server_keywords,
};
use super::words::{is_address, is_placeholder, parse_positive};

/// The 0-based positions of the password words in a line split at whitespace, by the shape of the
/// command its first words name (the table's `passwords`). Misspelt keywords (one or two letters off,
/// such as `mvoe`) are read as the command they resemble, so that a bad command quoted back still
/// hides its password.
pub(crate) fn password_positions(words: &[&str]) -> Vec<usize> {
    let Some(first) = words.first() else {
        return Vec::new();
    };
    // A reply's "New Limit Board 101 alice" reads like `<game> limit userid PW`, but holds none.
    if board_subject_words(words) {
        return Vec::new();
    }
    let first = first.to_lowercase();
    let lower = |i: usize| words.get(i).map(|w| w.to_lowercase());
    let at = |def: &CommandDef| -> Vec<usize> {
        def.passwords.iter().map(|p| def.prefix_len() + p).collect()
    };
    let mut pos: Vec<usize> = match closest(&first, masked_server_words()) {
        Some(word) => match group(word) {
            Some(g) => {
                let second = lower(1).unwrap_or_default();
                let with_passwords: Vec<&str> = members(g)
                    .filter(|d| !d.passwords.is_empty())
                    .map(|d| d.words[1])
                    .collect();
                // The member named exactly; else the member with passwords it resembles; else all
                // that could be one (`password rest alice X Y` is not taken for `reset`).
                let named = members(g).find(|d| d.words[1] == second).or_else(|| {
                    closest(&second, &with_passwords)
                        .and_then(|w| members(g).find(|d| d.words[1] == w))
                });
                match named {
                    Some(def) => at(def),
                    None => g.unreadable.iter().map(|p| 1 + p).collect(),
                }
            }
            None => defs(Scope::Server)
                .find(|d| d.spellings().any(|w| w == word))
                .map(at)
                .unwrap_or_default(),
        },
        None => {
            let word = lower(1).unwrap_or_default();
            match closest(&word, game_command_words()) {
                Some(w) => game_def(w).map(at).unwrap_or_default(),
                // Unknown: if it has the shape of a command on a board (`<game> <word> <board>
                // <userid> <password>`), hide where `move` has its password.
                None if words.len() > 4 && parse_positive(words[2]).is_some() => {
                    game_def("move").map(at).unwrap_or_default()
                }
                None => Vec::new(),
            }
        }
    };
    pos.retain(|&i| i < words.len());
    // `--password=PW` of a challenge, wherever it stands.
    for (i, w) in words.iter().enumerate() {
        if option_password(w).is_some() && !pos.contains(&i) {
            pos.push(i);
        }
    }
    pos
}

/// The server words whose lines may hold a password: the commands with passwords (aliases
/// included) and the groups' words, in table order.
fn masked_server_words() -> &'static [&'static str] {
    static WORDS: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
        let mut words: Vec<&'static str> = Vec::new();
        for d in defs(Scope::Server) {
            let masked = if d.words.len() == 1 {
                !d.passwords.is_empty()
            } else {
                group(d.words[0]).is_some()
            };
            for w in d.spellings() {
                if masked && !words.contains(&w) {
                    words.push(w);
                }
            }
        }
        words
    });
    &WORDS
}

/// The password of a `--password=PW` word (any case), if the word is one.
fn option_password(word: &str) -> Option<&str> {
    const PREFIX: &str = "--password=";
    let head = word.get(..PREFIX.len())?;
    head.eq_ignore_ascii_case(PREFIX)
        .then(|| &word[PREFIX.len()..])
        .filter(|pw| !pw.is_empty())
}

/// The secret a password word holds: the word, or the value of `--password=PW`.
pub(crate) fn secret_of(word: &str) -> &str {
    option_password(word).unwrap_or(word)
}

/// The password words of a line, found by position as [`redact_line`] finds them, whether or not the
/// line parses. Used to mask them wherever else the mail repeats them.
pub fn line_passwords(line: &str) -> Vec<&str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    password_positions(&words)
        .into_iter()
        .map(|i| secret_of(words[i]))
        .collect()
}

/// The line with its password words (found by position, as the command its first words name would
/// have them: `signup` word 3, `move` word 5, …) replaced by `****`, and any other occurrence of those
/// words masked too. Works on lines that do not parse, for quoting a bad command back in an error mail.
/// Words are rejoined with single spaces.
pub fn redact_line(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let pos = password_positions(&words);
    let secrets: Vec<&str> = pos.iter().map(|&i| secret_of(words[i])).collect();
    let mask = mask_for(&secrets);
    let masked: Vec<&str> = words
        .iter()
        .enumerate()
        .map(|(i, w)| if pos.contains(&i) { mask.as_str() } else { *w })
        .collect();
    mask_secrets(&masked.join(" "), &secrets)
}

/// Words of the command language that are never a password worth hiding (ignoring case).
const PLAIN_WORDS: &[&str] = &[
    "password", "address", "propose", "undo", "draw", "resign", "pass", "on", "off", "all",
    "active", "finished", "mult", "multiple", "board", "re:", "fwd:", "new", "error", "nag:",
];

/// The words of a line that could be a password: every word of a line that [`may_be_command`], except
/// the words of the command language, game names, numbers and moves (digits with punctuation),
/// options (`-size=8`), mail addresses and `<placeholders>`. A userid is among them: the caller
/// leaves out the registered ones. Hiding all of these, not only the word at the password's place,
/// keeps a password secret when a typo shifts the words (`limit move alice PW 4-1,3`,
/// `signup Dan Smith PW`).
pub fn suspect_words<'a>(line: &'a str, games: &[&str]) -> Vec<&'a str> {
    if !may_be_command(line, games) {
        return Vec::new();
    }
    line.split_whitespace()
        // An option's value, whatever the option's name (`--pasword=PW` is a typo too).
        .map(|w| match w.split_once('=') {
            Some((name, value)) if name.starts_with('-') => value,
            _ => w,
        })
        .filter(|w| !is_plain_word(w, games))
        .collect()
}

fn is_plain_word(word: &str, games: &[&str]) -> bool {
    let lower = word.to_lowercase();
    let bare = lower.trim_matches(|c: char| matches!(c, ',' | '.' | ';' | ':' | '!' | '?'));
    if bare.is_empty()
        || server_keywords().contains(&bare)
        || game_command_words().contains(&bare)
        || PLAIN_WORDS.contains(&lower.as_str())
        || PLAIN_WORDS.contains(&bare)
        || games.iter().any(|g| g.eq_ignore_ascii_case(bare))
    {
        return true;
    }
    // Numbers, board guards, moves and dates: digits with punctuation, no letters.
    if word.chars().any(|c| c.is_ascii_digit())
        && word
            .chars()
            .all(|c| c.is_ascii_digit() || "-,#.:/()x".contains(c))
    {
        return true;
    }
    // Options (`-manual`; `-name=value` arrive here as the value alone).
    word.starts_with('-') || is_address(word) || is_placeholder(word)
}

//! Which words of a line may be a password, when the line does not say: where the command it
//! resembles has its passwords, and every other word that is not of the command language. The server
//! checks these candidates against the writer's password (`server::secrets`) and hides only the
//! ones that are it; nothing here masks anything.

use super::recognise::{board_subject_words, may_be_command};
use super::spelling::closest;
use super::table::{
    CommandDef, Group, Scope, TABLE, defs, game_command_words, game_def, group, members,
    server_keywords,
};
use super::words::{is_address, is_placeholder, parse_positive};

/// The command a line's first words name or resemble (one or two letters off, such as `mvoe`).
enum Resembled {
    /// This command.
    Def(&'static CommandDef),
    /// A group's word followed by no member it resembles (`change what alice pw`).
    Unreadable(&'static Group),
    /// None: `<game> <word> <board> ...` has the shape of a command on a board, with the password
    /// where `move` has it.
    BoardShaped,
    /// Nothing.
    Nothing,
}

/// What command `words` name or resemble, whether or not they parse.
fn resembled(words: &[&str]) -> Resembled {
    let Some(first) = words.first() else {
        return Resembled::Nothing;
    };
    // A reply's "New Limit Board 101 alice" reads like `<game> limit userid PW`, but holds none.
    if board_subject_words(words) {
        return Resembled::Nothing;
    }
    let first = first.to_lowercase();
    let lower = |i: usize| words.get(i).map(|w| w.to_lowercase());
    match closest(&first, masked_server_words()) {
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
                    Some(def) => Resembled::Def(def),
                    None => Resembled::Unreadable(g),
                }
            }
            None => defs(Scope::Server)
                .find(|d| d.spellings().any(|w| w == word))
                .map_or(Resembled::Nothing, Resembled::Def),
        },
        None => {
            let word = lower(1).unwrap_or_default();
            match closest(&word, game_command_words()) {
                Some(w) => game_def(w).map_or(Resembled::Nothing, Resembled::Def),
                None if words.len() > 4 && parse_positive(words[2]).is_some() => {
                    Resembled::BoardShaped
                }
                None => Resembled::Nothing,
            }
        }
    }
}

/// The 0-based positions of the password words in a line split at whitespace, by the shape of the
/// command its first words name or resemble (the table's `passwords`), and every `--password=PW`.
pub(crate) fn password_positions(words: &[&str]) -> Vec<usize> {
    let at = |def: &CommandDef| -> Vec<usize> {
        def.passwords.iter().map(|p| def.prefix_len() + p).collect()
    };
    let mut pos: Vec<usize> = match resembled(words) {
        Resembled::Def(def) => at(def),
        Resembled::Unreadable(g) => g.unreadable.iter().map(|p| 1 + p).collect(),
        Resembled::BoardShaped => game_def("move").map(at).unwrap_or_default(),
        Resembled::Nothing => Vec::new(),
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

/// Where an answer stops quoting a line it could not read (0-based word positions, split at
/// whitespace, in order): the password places of the command its first words name or resemble (a
/// `<password>` left there is no password, and no stop), and after a board mail's Subject the first
/// word written after it. The words before the first stop are the command's own and those the
/// player wrote before the password; from there on a word may be the password, even in a line
/// whose other words are misplaced.
pub fn unread_stops(line: &str) -> Vec<usize> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if let Some(after) = after_board_subject(&words) {
        return if after < words.len() {
            vec![after]
        } else {
            Vec::new()
        };
    }
    let mut stops: Vec<usize> = password_positions(&words)
        .into_iter()
        .filter(|&i| !is_placeholder(secret_of(words[i])))
        .collect();
    stops.sort_unstable();
    stops
}

/// True when `word` may be a password: some way of reading it (see [`password_candidates`]) is not
/// a word of the command language, a number, a move, an option, an address or a placeholder.
pub fn may_be_password(word: &str, games: &[&str]) -> bool {
    pieces(word).into_iter().any(|p| !is_plain_word(p, games))
}

/// True when a line resembles a command that sets a new password (`signup`, `change password`,
/// `password set`), or a group's word with no member it resembles: a new password belongs to no
/// account yet, so no check can tell it from the other words.
pub fn sets_new_password(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    match resembled(&words) {
        Resembled::Def(def) => NEW_PASSWORD_COMMANDS.contains(&def.words),
        Resembled::Unreadable(g) => NEW_PASSWORD_COMMANDS.iter().any(|c| c[0] == g.word),
        Resembled::BoardShaped | Resembled::Nothing => false,
    }
}

/// The commands that set a new password.
const NEW_PASSWORD_COMMANDS: &[&[&str]] =
    &[&["signup"], &["change", "password"], &["password", "set"]];

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

/// Words of the command language that are never a password worth hiding (ignoring case).
const PLAIN_WORDS: &[&str] = &[
    "password", "address", "propose", "undo", "draw", "resign", "pass", "on", "off", "all",
    "active", "finished", "mult", "multiple", "board", "re:", "fwd:", "new", "error", "nag:",
];

/// The words of a line that may be a password, best guesses first (the candidates the server checks,
/// while it may, against the writer's password): the words where the command the line resembles has
/// its passwords (even a number: `limit mvoe 101 bob 1234 3-7,4`), then every other word, and the
/// parts of a word joined by `:` or `=` (`alice:PW`), that is not of the command language, a number, a
/// move, an option, a mail address or a `<placeholder>`. The words in the places of the command's
/// own words, when they are (near) keywords (`limit mvoe`), are not. Lines that are no command, however
/// mistyped, nor have the shape of one, have none, but for a board mail's Subject as a reply or
/// forward keeps it: the words written after it (`Limit Board 101 bob PW 3-7,4`). Registered
/// userids are among them: the caller leaves them out.
pub fn password_candidates<'a>(line: &'a str, games: &[&str]) -> Vec<&'a str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut out: Vec<&'a str> = Vec::new();
    let mut push = |w: &'a str| {
        if !w.is_empty() && !is_placeholder(w) && !out.contains(&w) {
            out.push(w);
        }
    };
    if let Some(after) = after_board_subject(&words) {
        for w in &words[after..] {
            for p in pieces(w) {
                if !is_plain_word(p, games) {
                    push(p);
                }
            }
        }
        return out;
    }
    // A line that may be a mistyped command, or has the shape of one (`limit xyzzy 101 alice PW`).
    let places = password_positions(&words);
    if places.is_empty() && !may_be_command(line, games) {
        return out;
    }
    for i in places {
        let w = secret_of(words[i]);
        push(trim_punctuation(w));
        push(w);
    }
    // Whole words first, then the parts of words: the checks a mail may make are few.
    let mut parts = Vec::new();
    for (i, w) in words.iter().enumerate() {
        if i < 2 && is_command_word(w, games) {
            continue;
        }
        let mut pieces = pieces(w).into_iter();
        if let Some(whole) = pieces.next()
            && !is_plain_word(whole, games)
        {
            push(whole);
        }
        parts.extend(pieces.filter(|p| !is_plain_word(p, games)));
    }
    for p in parts {
        push(p);
    }
    out
}

/// Where the words written after a board mail's Subject begin, if the line is one (after any
/// `Fwd:`-like words a mail client put before it): `VB: Limit Board 101 bob ** PW` gives 6, and
/// `Re: Limit Board 101: new game, bob to move (with a comment) PW` gives 11.
fn after_board_subject(words: &[&str]) -> Option<usize> {
    let start = words.iter().take_while(|w| w.ends_with(':')).count();
    let rest = &words[start..];
    if !board_subject_words(rest) {
        return None;
    }
    let new = usize::from(rest[0].eq_ignore_ascii_case("new"));
    if rest[new + 2].ends_with(':') {
        return Some(start + new + 3 + subject_state_words(&rest[new + 3..]));
    }
    let mut after = start + new + 4;
    if words.get(after) == Some(&"**") {
        after += 1;
    }
    Some(after.min(words.len()))
}

/// How many of `words` are the state a board mail's Subject gives after `Limit Board 101:`
/// (`new game,` then `your move`, `bob to move`, `over`, `draw offered` or `undo asked`, then
/// `(with a comment)`): the words a reply keeps that are no password.
fn subject_state_words(words: &[&str]) -> usize {
    let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
    let at = |i: usize, w: &str| lower.get(i).is_some_and(|x| x == w);
    let mut i = 0;
    if at(0, "new") && at(1, "game,") {
        i = 2;
    }
    if at(i, "your") && at(i + 1, "move") {
        i += 2;
    } else if at(i, "over") {
        i += 1;
    } else if (at(i, "draw") && at(i + 1, "offered")) || (at(i, "undo") && at(i + 1, "asked")) {
        i += 2;
    } else if at(i + 1, "to") && at(i + 2, "move") {
        i += 3;
    }
    if at(i, "(with") && at(i + 1, "a") && at(i + 2, "comment)") {
        i += 3;
    }
    i
}

/// True for a word that is, or is one or two letters off, a keyword, a game command word or a game's
/// name: in the first two places of a line it names the command (`mvoe`), not a password.
fn is_command_word(word: &str, games: &[&str]) -> bool {
    let lower = word.to_lowercase();
    closest(&lower, server_keywords()).is_some()
        || closest(&lower, game_command_words()).is_some()
        || closest(&lower, games).is_some()
}

/// The word without the punctuation a sentence or a list puts around it.
fn trim_punctuation(word: &str) -> &str {
    word.trim_matches(|c: char| {
        matches!(
            c,
            ',' | '.' | ';' | ':' | '!' | '?' | '(' | ')' | '"' | '\''
        )
    })
}

/// The ways a word may hold a password, the likeliest first: without the punctuation around it (or an
/// option's value, `--pasword=PW`), as written, and each part of it joined by `:` or `=`
/// (`alice:PW`).
fn pieces(word: &str) -> Vec<&str> {
    let mut out = match word.split_once('=') {
        Some((name, value)) if name.starts_with('-') => vec![trim_punctuation(value), value],
        _ => vec![trim_punctuation(word), word],
    };
    if word.contains([':', '=']) && !word.starts_with('-') {
        out.extend(word.split([':', '=']).map(trim_punctuation));
    }
    out.retain(|p| !p.is_empty());
    out.dedup();
    out
}

/// The words the commands' usage lines spell out (`page`, `off`, `active`, `undo`, ...), lowercase, the
/// explanations after them left out.
fn usage_words() -> &'static [&'static str] {
    static WORDS: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
        let mut words: Vec<&'static str> = TABLE
            .iter()
            .flat_map(|d| d.usage.iter())
            // Not the explanation in parentheses after the form.
            .map(|u| u.split_once(" (").map_or(*u, |(form, _)| form))
            .flat_map(|u| u.split(|c: char| c.is_whitespace() || c == '|'))
            .map(|w| w.trim_matches(|c: char| matches!(c, '[' | ']' | '(' | ')' | '.' | ',')))
            .filter(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase()))
            .collect();
        words.sort_unstable();
        words.dedup();
        words
    });
    &WORDS
}

/// True for a word that is never taken for a password: a word of the command language, a game's
/// name, a number or move, an option, a mail address, a `<placeholder>`, or punctuation alone
/// (`**`, `--`, `:-)`).
fn is_plain_word(word: &str, games: &[&str]) -> bool {
    if !word.chars().any(char::is_alphanumeric) {
        return true;
    }
    let lower = word.to_lowercase();
    let bare = lower.trim_matches(|c: char| matches!(c, ',' | '.' | ';' | ':' | '!' | '?'));
    if bare.is_empty()
        || server_keywords().contains(&bare)
        || game_command_words().contains(&bare)
        || PLAIN_WORDS.contains(&lower.as_str())
        || PLAIN_WORDS.contains(&bare)
        || usage_words().contains(&bare)
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

//! Splitting a line into words, and telling options from plain words.

use std::fmt;

use crate::games::GameOption;

/// One word of a command line, as [`tokenize`] reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Token {
    /// A plain word: a keyword, a userid, a board number, a move.
    Word(String),
    /// A game option, `-name` or `-name=value`.
    GameOption(GameOption),
    /// A server option, `--name` or `--name=value`.
    ServerOption(String, Option<String>),
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Word(w) => f.write_str(w),
            Token::GameOption(o) => write!(f, "{o}"),
            Token::ServerOption(name, None) => write!(f, "--{name}"),
            Token::ServerOption(name, Some(v)) => write!(f, "--{name}={v}"),
        }
    }
}

/// Splits a line into words at whitespace and tells options from plain words: `-size=8` and `-manual`
/// are game options, `--nagtime=7` a server option, anything else (including a lone `-` or `--`, and
/// `-x!` whose name is not a name) a plain word.
pub fn tokenize(line: &str) -> Vec<Token> {
    line.split_whitespace().map(token).collect()
}

pub(crate) fn token(word: &str) -> Token {
    if let Some(rest) = word.strip_prefix("--") {
        let (name, value) = match rest.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (rest, None),
        };
        if !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            return Token::ServerOption(name.to_string(), value);
        }
        return Token::Word(word.to_string());
    }
    match GameOption::parse(word) {
        Some(o) => Token::GameOption(o),
        None => Token::Word(word.to_string()),
    }
}

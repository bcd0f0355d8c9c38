//! Hiding passwords: the [`Password`] that never prints, the [`MASK`] written in place of one, and
//! the functions that put it there.

use std::fmt;

/// The mask written in place of a password.
pub const MASK: &str = "****";

/// What an answer writes in a password's place when it quotes a command back, as the server's own
/// example lines do: a line that still holds it is refused before any password check.
pub const PLACEHOLDER: &str = "<password>";

/// A password (or a password reset's one-time code) as written in a command. Its `Debug` and
/// `Display` print [`MASK`], so that no log line, error or `{:?}` of a command can show it;
/// [`Password::expose`] gives the text, for hashing, checking and masking it elsewhere.
#[derive(Clone, PartialEq, Eq)]
pub struct Password(String);

impl Password {
    /// The password as written. Every use of the text goes through here, so that a search for
    /// `expose` finds every place a password leaves this type.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl From<&str> for Password {
    fn from(text: &str) -> Self {
        Password(text.to_string())
    }
}

impl From<String> for Password {
    fn from(text: String) -> Self {
        Password(text)
    }
}

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(MASK)
    }
}

impl fmt::Display for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(MASK)
    }
}

/// The mask for a set of secrets: `****`, unless a secret contains `*`; then four of a character that
/// occurs in no secret, so that masking can never leave or create an occurrence of a secret.
pub(crate) fn mask_for(secrets: &[&str]) -> String {
    let c = ['*', '#', 'x', '?', '~', '_', '.', '\u{2022}']
        .into_iter()
        .chain('A'..='Z')
        .chain('a'..='z')
        .find(|c| secrets.iter().all(|s| !s.contains(*c)))
        .unwrap_or('\u{2588}');
    std::iter::repeat_n(c, 4).collect()
}

/// Passwords shorter than this many characters are masked as whole words only: a short password
/// (`ab`) hidden inside every word that contains it would spoil ordinary text, and shows nothing
/// of itself there.
pub const WHOLE_WORD_BELOW: usize = 4;

/// Replaces every occurrence of each (non-empty) secret in `text` with a mask (see [`MASK`]; another
/// character when a secret contains `*`). For a password given as a password: a reply, a line quoted.
pub fn mask_secrets<S: AsRef<str>>(text: &str, secrets: &[S]) -> String {
    mask(text, &pairs(secrets, |_| false))
}

/// Replaces each whole-word occurrence of the secrets in `text` with a mask: an occurrence whose
/// neighbours are not letters, digits or `_`. For words that are only suspected of being passwords,
/// where masking inside longer words would spoil ordinary text.
pub fn mask_words<S: AsRef<str>>(text: &str, secrets: &[S]) -> String {
    mask(text, &pairs(secrets, |_| true))
}

/// Masks `passwords` wherever they occur (whole words only when shorter than [`WHOLE_WORD_BELOW`]
/// characters) and `suspects` as whole words, with one mask for all of them, so that no mask can
/// make or leave an occurrence of any of them.
pub fn mask_passwords<S: AsRef<str>, T: AsRef<str>>(
    text: &str,
    passwords: &[S],
    suspects: &[T],
) -> String {
    let mut all = pairs(passwords, |s| s.chars().count() < WHOLE_WORD_BELOW);
    all.extend(pairs(suspects, |_| true));
    mask(text, &all)
}

/// Each non-empty secret with whether it is masked as a whole word only.
fn pairs<S: AsRef<str>>(secrets: &[S], whole: impl Fn(&str) -> bool) -> Vec<(&str, bool)> {
    secrets
        .iter()
        .map(AsRef::as_ref)
        .filter(|s| !s.is_empty())
        .map(|s| (s, whole(s)))
        .collect()
}

/// The one masking function: every occurrence of each secret, or only its whole-word occurrences
/// (the flag), replaced by the mask for all the secrets.
fn mask(text: &str, secrets: &[(&str, bool)]) -> String {
    if secrets.is_empty() {
        return text.to_string();
    }
    let words: Vec<&str> = secrets.iter().map(|(s, _)| *s).collect();
    let mask = mask_for(&words);
    // Longest first: a shorter secret inside a longer one would otherwise cut it and leave the
    // rest of it to be read.
    let mut secrets = secrets.to_vec();
    secrets.sort_by_key(|(s, _)| std::cmp::Reverse(s.len()));
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = text.to_string();
    for (s, whole_words) in secrets {
        if !out.contains(s) {
            continue;
        }
        let mut result = String::with_capacity(out.len());
        let mut rest = out.as_str();
        let mut prev: Option<char> = None;
        while let Some(i) = rest.find(s) {
            let before = rest[..i].chars().next_back().or(prev);
            let after = rest[i + s.len()..].chars().next();
            let starts = !before.is_some_and(is_word) || !s.starts_with(is_word);
            let ends = !after.is_some_and(is_word) || !s.ends_with(is_word);
            result.push_str(&rest[..i]);
            if !whole_words || (starts && ends) {
                result.push_str(&mask);
            } else {
                result.push_str(s);
            }
            prev = s.chars().next_back();
            rest = &rest[i + s.len()..];
        }
        result.push_str(rest);
        out = result;
    }
    out
}

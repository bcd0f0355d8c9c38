//! Reading the words after a command's own words: the helpers every command's parse function shares.

use super::words::{MAX_USERID_LEN, is_address, is_userid, parse_positive};

/// The most userids of one `games` or `message` command, and of game names of one `list`.
pub const MAX_GAMES_USERIDS: usize = 10;

/// What is wrong with a command's words. The parser adds the command's usage to make a
/// [`CommandError::Usage`](super::CommandError::Usage) of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Problem(pub String);

impl From<String> for Problem {
    fn from(s: String) -> Self {
        Problem(s)
    }
}

impl From<&str> for Problem {
    fn from(s: &str) -> Self {
        Problem(s.to_string())
    }
}

/// The words after a command's own words, with what an error may quote.
pub(crate) struct Args<'a> {
    /// The words, as written.
    pub words: &'a [&'a str],
    /// The command as errors name it: `signup`, `change password`, `limit move`.
    pub name: &'a str,
    /// The game's name, for a game's command; empty for a server command.
    pub game: &'a str,
}

impl Args<'_> {
    /// The number of words.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Checks that exactly `names.len()` words follow the command.
    pub fn exact(&self, names: &[&str]) -> Result<(), Problem> {
        self.at_least(names)?;
        if self.len() > names.len() {
            return Err(format!(
                "'{}' takes {} words after it ({}), but {} were given",
                self.name,
                names.len(),
                and_list(names),
                self.len()
            )
            .into());
        }
        Ok(())
    }

    /// Checks that at least `names.len()` words follow the command.
    pub fn at_least(&self, names: &[&str]) -> Result<(), Problem> {
        if self.len() < names.len() {
            let missing = and_list(&names[self.len()..]);
            return Err(format!("'{}' is missing {missing}", self.name).into());
        }
        Ok(())
    }

    /// A userid, checked for form.
    pub fn userid(&self, word: &str) -> Result<String, Problem> {
        if is_userid(word) {
            Ok(word.to_string())
        } else {
            Err(format!(
                "'{}' is not a userid: a userid is 1 to {MAX_USERID_LEN} letters, digits, '_' or '-'",
                word
            )
            .into())
        }
    }

    /// Userids, each checked for form.
    pub fn userids(&self, words: &[&str]) -> Result<Vec<String>, Problem> {
        words.iter().map(|u| self.userid(u)).collect()
    }

    /// A board number.
    pub fn board(&self, word: &str) -> Result<u32, Problem> {
        parse_positive(word).ok_or_else(|| {
            format!(
                "'{}' is not a board number: write the board's number, such as 101",
                word
            )
            .into()
        })
    }

    /// Mail addresses, each possibly in `<...>`.
    pub fn addresses(&self, words: &[&str]) -> Result<Vec<String>, Problem> {
        words
            .iter()
            .map(|w| {
                let a = w
                    .strip_prefix('<')
                    .and_then(|a| a.strip_suffix('>'))
                    .unwrap_or(w);
                if is_address(a) {
                    Ok(a.to_string())
                } else {
                    Err(format!(
                        "'{}' is not a mail address: write it as name@example.org",
                        w
                    )
                    .into())
                }
            })
            .collect()
    }

    /// The move is the rest of the line; a trailing `#N` (attached or as its own word) is the guard.
    pub fn move_text(&self, words: &[&str]) -> Result<(String, Option<u32>), Problem> {
        let joined = words.join(" ");
        let (mv, guard) = match joined.rfind('#') {
            Some(i) => {
                let n = joined[i + 1..].trim();
                match parse_positive(n) {
                    Some(n) => (joined[..i].trim_end().to_string(), Some(n)),
                    None => {
                        return Err(format!(
                            "'#{}' after the move is not a move number: write #N at the end, such as 3-7,4#12",
                            n
                        )
                        .into());
                    }
                }
            }
            None => (joined, None),
        };
        if mv.is_empty() {
            return Err("the move is missing before the '#'".into());
        }
        Ok((mv, guard))
    }
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

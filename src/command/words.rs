//! What a single word of a command may be: a userid, a board number, a day, a mail address.

pub use crate::accounts::MAX_USERID_LEN;

/// True for a well-formed userid: 1 to 20 ASCII letters, digits, `_` or `-`, not starting with `-`
/// (which would read as an option).
pub fn is_userid(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= MAX_USERID_LEN
        && !s.starts_with('-')
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// True for what can be a mail address in a command: `local@domain`, both parts non-empty, printable,
/// without the characters that would let it smuggle more into a header.
pub fn is_address(s: &str) -> bool {
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    !local.is_empty()
        && !domain.is_empty()
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && s.len() <= 254
        && s.chars().all(|c| {
            !c.is_control() && !c.is_whitespace() && !matches!(c, '<' | '>' | ',' | ';' | '"')
        })
}

/// True for a word written as a placeholder, like `<password>` or `<yourpassword>`, never a real one.
pub fn is_placeholder(word: &str) -> bool {
    word.len() > 2 && word.starts_with('<') && word.ends_with('>')
}

/// A day written `YYYY-MM-DD` (exactly: four, two and two digits) that exists in the calendar.
pub fn parse_date(s: &str) -> Option<chrono::NaiveDate> {
    let b = s.as_bytes();
    let shape = b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
    if !shape {
        return None;
    }
    let year = s[..4].parse().ok()?;
    let month = s[5..7].parse().ok()?;
    let day = s[8..].parse().ok()?;
    chrono::NaiveDate::from_ymd_opt(year, month, day)
}

/// A board or move number: digits only, at least 1.
pub(crate) fn parse_positive(s: &str) -> Option<u32> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse::<u32>().ok().filter(|&n| n > 0)
}

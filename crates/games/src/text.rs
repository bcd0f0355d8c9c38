//! Prose for mail: one way to break a line between words, for the server's summaries, errors and
//! help pages and for the games' own notes and picture captions.

/// A line of prose broken between words into lines of at most `width` characters (a longer word
/// stays whole on its own line). A line that starts with a blank is an example or a table, laid out
/// on purpose: it is left as it is.
pub fn wrap(line: &str, width: usize) -> Vec<&str> {
    if line.chars().count() <= width || line.starts_with(char::is_whitespace) {
        return vec![line];
    }
    let mut out = Vec::new();
    let mut rest = line;
    while rest.chars().count() > width {
        // The last space that leaves at most `width` characters before it; else the first space.
        let end = rest
            .char_indices()
            .nth(width + 1)
            .map_or(rest.len(), |(i, _)| i);
        let cut = rest[..end]
            .rfind(' ')
            .filter(|&i| i > 0)
            .or_else(|| rest.find(' '));
        let Some(cut) = cut else { break };
        out.push(rest[..cut].trim_end());
        rest = rest[cut..].trim_start();
    }
    if !rest.is_empty() {
        out.push(rest);
    }
    out
}

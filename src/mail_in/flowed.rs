//! `format=flowed` text (RFC 3676) joined back into the lines the sender wrote.

/// Joins the lines a `format=flowed` text (RFC 3676) broke softly: a line ending in a space goes on
/// with the next line of the same quote depth. Thunderbird wraps at 72 columns this way, which would
/// otherwise cut a long command in two. Space-stuffing is undone; the signature line `-- ` stays.
pub(super) fn unflow(text: &str, delsp: bool) -> String {
    fn emit(out: &mut String, depth: usize, line: &str) {
        out.push_str(&">".repeat(depth));
        if depth > 0 {
            out.push(' ');
        }
        out.push_str(line);
        out.push('\n');
    }
    let mut out = String::with_capacity(text.len());
    let mut pending: Option<(usize, String)> = None;
    for raw in text.lines() {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let depth = raw.bytes().take_while(|b| *b == b'>').count();
        let content = &raw[depth..];
        let content = content.strip_prefix(' ').unwrap_or(content);
        let soft = content.ends_with(' ') && content != "-- ";
        let line = match pending.take() {
            Some((d, mut acc)) if d == depth => {
                acc.push_str(content);
                acc
            }
            Some((d, acc)) => {
                emit(&mut out, d, &acc);
                content.to_string()
            }
            None => content.to_string(),
        };
        if soft {
            let mut line = line;
            if delsp {
                line.pop();
            }
            pending = Some((depth, line));
        } else {
            emit(&mut out, depth, &line);
        }
    }
    if let Some((d, acc)) = pending {
        emit(&mut out, d, &acc);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flowed_text_is_joined() {
        let t =
            "a long \nline\n> quoted \n> more\nnot joined \n> to a quote\n-- \nsig\n \u{20}stuffed";
        assert_eq!(
            unflow(t, false),
            "a long line\n> quoted more\nnot joined \n> to a quote\n-- \nsig\n stuffed\n"
        );
        assert_eq!(unflow("del \nsp", true), "delsp\n");
    }
}

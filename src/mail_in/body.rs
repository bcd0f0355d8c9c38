//! The body of a mail as lines, and which of them the sender wrote: not quoted, not in the signature
//! or the quoted tail that mail clients add.

use mail_parser::{Message, MimeHeaders, PartType};

use super::flowed::unflow;
use super::html::html_to_text;
use super::{MAX_LINE_CHARS, MailLimits};

/// The text of the message body: the first text/plain body part, else the text of the first HTML one.
pub(super) fn body_text(msg: &Message<'_>, limits: &MailLimits, notes: &mut Vec<String>) -> String {
    if msg.parts.len() > limits.max_parts {
        notes.push(format!(
            "only the first {} of its {} MIME parts were read",
            limits.max_parts,
            msg.parts.len()
        ));
    }
    let within = |id: &u32| (*id as usize) < limits.max_parts;
    for id in msg.text_body.iter().filter(|id| within(id)) {
        let part = &msg.parts[*id as usize];
        match &part.body {
            PartType::Text(t) => {
                let ct = part.content_type();
                let param = |name: &str| {
                    ct.and_then(|c| c.attributes())
                        .and_then(|a| a.iter().find(|a| a.name.eq_ignore_ascii_case(name)))
                        .map(|a| a.value.trim().to_ascii_lowercase())
                };
                if param("format").as_deref() == Some("flowed") {
                    return unflow(t, param("delsp").as_deref() == Some("yes"));
                }
                return t.to_string();
            }
            PartType::Html(h) => return html_to_text(h),
            _ => {}
        }
    }
    for id in msg.html_body.iter().filter(|id| within(id)) {
        if let PartType::Html(h) = &msg.parts[*id as usize].body {
            return html_to_text(h);
        }
    }
    String::new()
}

/// The body's lines, trailing spaces and invisible characters removed, long lines cut, at most
/// `max_lines` of them.
pub(super) fn bounded_lines(
    text: &str,
    limits: &MailLimits,
    notes: &mut Vec<String>,
) -> Vec<String> {
    let mut out = Vec::new();
    let mut long = 0usize;
    for (i, line) in text.lines().enumerate() {
        if i >= limits.max_lines {
            notes.push(format!("the body was cut at {} lines", limits.max_lines));
            break;
        }
        let mut l: String = line
            .chars()
            .filter(|c| {
                !matches!(
                    c,
                    '\u{200B}' | '\u{200C}' | '\u{200D}' | '\u{2060}' | '\u{FEFF}' | '\r'
                )
            })
            .collect();
        if let Some((cut, _)) = l.char_indices().nth(MAX_LINE_CHARS) {
            l.truncate(cut);
            long += 1;
        }
        out.push(l.trim_end().to_string());
    }
    if long > 0 {
        notes.push(format!(
            "{long} overlong line(s) were cut at {MAX_LINE_CHARS} characters"
        ));
    }
    out
}

fn is_quoted(line: &str) -> bool {
    line.trim_start().starts_with('>')
}

fn is_signature(line: &str) -> bool {
    // `-- ` loses its space to the trailing-space strip; a bare `--` counts too.
    line == "--" || is_device_signature(line)
}

/// The line a phone or a mail app adds under what the sender wrote (`Sent from my iPhone`, `Get
/// Outlook for Android`, and their translations): never part of a comment. Only a short line that
/// starts with one of these counts, so that a sentence that happens to begin "Sent from" in the
/// middle of a comment is rare to lose.
fn is_device_signature(line: &str) -> bool {
    let l = line.trim().to_lowercase();
    l.chars().count() <= 60
        && [
            "sent from my ",
            "sent from mail for windows",
            "sent from outlook",
            "sent from yahoo mail",
            "sent from proton mail",
            "sent from gmail mobile",
            "sent with proton mail",
            "sent via ",
            "get outlook for ",
            "envoyé de mon ",
            "envoyé depuis mon ",
            "von meinem ",
            "gesendet von meinem ",
            "enviado desde mi ",
            "enviado do meu ",
            "inviato da ",
            "verzonden vanaf mijn ",
            "verstuurd vanaf mijn ",
            "skickat från min ",
        ]
        .iter()
        .any(|p| l.starts_with(p))
}

/// mutt's and slrn's attribution lines: `* pbem <pbem@host> [2026-11-29 10:00]:` (a common mutt
/// `attribution` setting), `bob <b@x.org> writes:`, `Quoting bob (…):`.
fn is_other_attribution(l: &str) -> bool {
    let l = l.trim();
    (l.starts_with("* ") && l.ends_with("]:"))
        || l.to_lowercase().ends_with(" writes:")
        || (l.starts_with("Quoting ") && l.ends_with("):"))
}

/// `-----Original Message-----`, `---------- Forwarded message ---------` and their kin.
fn is_separator(line: &str) -> bool {
    let l = line.trim();
    if !(l.starts_with("--") && l.ends_with("--")) {
        return l.eq_ignore_ascii_case("Begin forwarded message:");
    }
    let inner = l.trim_matches('-').trim().to_lowercase();
    matches!(
        inner.as_str(),
        "original message"
            | "forwarded message"
            | "message d'origine"
            | "ursprüngliche nachricht"
            | "mensaje original"
            | "messaggio originale"
            | "oorspronkelijk bericht"
            | "ursprungligt meddelande"
    )
}

fn ends_with_wrote(l: &str) -> bool {
    let l = l.trim_end().to_lowercase();
    [
        "wrote:",
        "schrieb:",
        "a écrit :",
        "a écrit:",
        "escribió:",
        "ha scritto:",
        "skrev:",
        "schreef:",
        "kirjoitti:",
    ]
    .iter()
    .any(|w| l.ends_with(w))
}

/// An "On … wrote:" attribution starting at `lines[i]`: how many lines it takes (1, or 2 when the
/// client wrapped it).
fn attribution_len(lines: &[String], i: usize) -> Option<usize> {
    let l = lines[i].trim();
    if ends_with_wrote(l) || is_other_attribution(l) {
        return Some(1);
    }
    let lower = l.to_lowercase();
    let opens = ["on ", "am ", "le ", "el ", "il ", "op ", "den ", "em "]
        .iter()
        .any(|p| lower.starts_with(p));
    if opens
        && let Some(next) = lines.get(i + 1)
        && !next.trim().is_empty()
        && !is_quoted(next)
        && ends_with_wrote(next)
        && l.len() + next.len() < 400
    {
        return Some(2);
    }
    None
}

/// Outlook's header block of the quoted mail: `From: …` with `Sent:` or `Date:` within the next lines.
fn is_from_block(lines: &[String], i: usize) -> bool {
    let starts = |l: &str, words: &[&str]| {
        let l = l.trim_start().trim_start_matches('*').to_lowercase();
        words.iter().any(|w| l.starts_with(w))
    };
    starts(&lines[i], &["from:", "von:", "de:", "van:", "från:", "da:"])
        && lines[i + 1..].iter().take(4).any(|l| {
            starts(
                l,
                &[
                    "sent:",
                    "date:",
                    "gesendet:",
                    "datum:",
                    "envoyé :",
                    "envoyé:",
                    "enviado:",
                    "verzonden:",
                    "skickat:",
                    "inviato:",
                ],
            )
        })
}

/// The next non-blank line at or after `from`, looking a few lines ahead only (so that a body of many
/// blank lines stays linear to read).
fn next_nonblank_index(lines: &[String], from: usize) -> Option<usize> {
    (from..lines.len().min(from + 8)).find(|&j| !lines[j].trim().is_empty())
}

/// The lines the sender wrote: quoted lines dropped, and nothing from the signature or the quoted tail
/// on. An "On … wrote:" followed by `>` lines only introduces a quote (the sender may write below it);
/// followed by anything else, it starts the quoted tail.
pub(super) fn own_lines(lines: &[String]) -> Vec<&str> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let l = &lines[i];
        if is_quoted(l) {
            i += 1;
            continue;
        }
        if is_signature(l) || is_separator(l) || is_from_block(lines, i) {
            break;
        }
        let t = l.trim();
        if t.len() >= 8
            && t.chars().all(|c| c == '_')
            && next_nonblank_index(lines, i + 1).is_some_and(|j| is_from_block(lines, j))
        {
            break;
        }
        if let Some(n) = attribution_len(lines, i) {
            if next_nonblank_index(lines, i + n).is_some_and(|j| is_quoted(&lines[j])) {
                i += n;
                continue;
            }
            break;
        }
        out.push(l.as_str());
        i += 1;
    }
    out
}

/// The comment lines as one text: blank lines at the ends dropped, runs of blank lines made one.
pub(crate) fn tidy_comment(lines: &[&str]) -> String {
    let mut out: Vec<&str> = Vec::new();
    for l in lines {
        if l.trim().is_empty() {
            if out.last().is_some_and(|p| !p.is_empty()) {
                out.push("");
            }
        } else {
            out.push(l);
        }
    }
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_lines_cut_quotes_and_tails() {
        let text = |s: &str| s.lines().map(str::to_string).collect::<Vec<_>>();
        let cases: &[(&str, &[&str])] = &[
            ("a\n> q\nb", &["a", "b"]),
            ("a\n--\nsig", &["a"]),
            (
                "a\n\nOn Fri, Bob wrote:\n> q\n> q\n\nbelow",
                &["a", "", "", "below"],
            ),
            (
                "a\nOn Fri, Nov 21, 2025 at 8:57 PM Server <\npbem@example.org> wrote:\n> q\nb",
                &["a", "b"],
            ),
            ("a\nOn Fri, Bob wrote:\nunquoted original", &["a"]),
            (
                "a\n-----Original Message-----\nFrom: x\nlimit show 101",
                &["a"],
            ),
            (
                "a\nFrom: Server\nSent: Friday\nTo: alice\nSubject: x\n\nlimit show 101",
                &["a"],
            ),
            (
                "a\n________________________________\nFrom: S\nSent: F\nb",
                &["a"],
            ),
            ("a\n---------- Forwarded message ---------\nb", &["a"]),
            ("a\nBegin forwarded message:\nb", &["a"]),
            (
                "From: is just a word here\nb",
                &["From: is just a word here", "b"],
            ),
            ("a\n  > indented quote\nb", &["a", "b"]),
            // What phones and mail apps add: a signature, with anything under it.
            ("d4\n\nSent from my iPhone", &["d4", ""]),
            ("d4\nGet Outlook for Android\nmore", &["d4"]),
            ("d4\nEnvoyé de mon iPhone", &["d4"]),
            ("d4\nVon meinem iPhone gesendet", &["d4"]),
            (
                "Sent from my heart, this move is a gift to you and me and the whole club",
                &["Sent from my heart, this move is a gift to you and me and the whole club"],
            ),
            // mutt's and slrn's attributions, followed by the quote.
            (
                "d4\n\n* pbem <pbem@example.org> [2026-11-29 10:00]:\n> board",
                &["d4", ""],
            ),
            ("d4\nbob <bob@example.org> writes:\n> board", &["d4"]),
            ("d4\nQuoting pbem (2026-11-29):\n> board", &["d4"]),
        ];
        for (t, want) in cases {
            let lines = text(t);
            assert_eq!(own_lines(&lines), *want, "{t:?}");
        }
    }
}

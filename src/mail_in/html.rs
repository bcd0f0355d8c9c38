//! HTML bodies as text: what a reader sees of them, with `<blockquote>` marked as quoted, read in
//! one linear pass whatever the input.

/// The text of an HTML body as a reader sees it: tags stripped, entities decoded, `<br>` and block
/// elements (`<p>`, `<div>`, …) as line breaks, `<head>`, `<style>` and `<script>` dropped, and each line
/// inside a `<blockquote>` prefixed `> ` (once per level), so that quoted HTML is never acted on.
pub fn html_to_text(html: &str) -> String {
    let mut w = HtmlText::default();
    let mut rest = html;
    // Once a tag ran to the end of the text unclosed, no later `<` can open one: reading them all
    // as text keeps hostile input (`<a<a<a…`) linear.
    let mut tags_end = false;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix("<!--") {
            rest = after.find("-->").map_or("", |e| &after[e + 3..]);
            continue;
        }
        if c == '<' && !tags_end {
            match read_tag(rest) {
                Ok((tag, after)) => {
                    w.tag(&tag);
                    rest = after;
                    continue;
                }
                Err(unterminated) => tags_end = unterminated,
            }
        }
        if w.skip.is_some() {
            rest = &rest[c.len_utf8()..];
            continue;
        }
        if c == '&'
            && let Some((decoded, after)) = read_entity(rest)
        {
            w.text(decoded);
            rest = after;
            continue;
        }
        if c.is_whitespace() && c != '\u{a0}' {
            if w.pre > 0 && c == '\n' {
                w.newline();
            } else if w.pre > 0 {
                w.text(c);
            } else {
                w.space = true;
            }
        } else {
            w.text(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    w.finish()
}

#[derive(Default)]
struct HtmlText {
    lines: Vec<String>,
    cur: String,
    cur_depth: usize,
    depth: usize,
    pre: usize,
    space: bool,
    skip: Option<String>,
}

struct Tag {
    name: String,
    closing: bool,
}

impl HtmlText {
    fn text(&mut self, c: char) {
        if self.cur.is_empty() {
            self.cur_depth = self.depth;
        } else if self.space {
            self.cur.push(' ');
        }
        self.space = false;
        self.cur.push(if c == '\u{a0}' { ' ' } else { c });
    }

    fn newline(&mut self) {
        let depth = if self.cur.is_empty() {
            self.depth
        } else {
            self.cur_depth
        };
        let mut line = ">".repeat(depth);
        if depth > 0 && !self.cur.is_empty() {
            line.push(' ');
        }
        line.push_str(&self.cur);
        self.lines.push(line);
        self.cur.clear();
        self.space = false;
    }

    fn ensure_newline(&mut self) {
        if !self.cur.is_empty() {
            self.newline();
        }
        self.space = false;
    }

    fn tag(&mut self, tag: &Tag) {
        let name = tag.name.as_str();
        if let Some(skipping) = &self.skip {
            if tag.closing && skipping == name {
                self.skip = None;
            }
            return;
        }
        match name {
            "head" | "style" | "script" | "title" | "template" if !tag.closing => {
                self.skip = Some(name.to_string());
            }
            "br" => self.newline(),
            "blockquote" => {
                self.ensure_newline();
                if tag.closing {
                    self.depth = self.depth.saturating_sub(1);
                } else {
                    self.depth += 1;
                }
            }
            "pre" => {
                self.ensure_newline();
                if tag.closing {
                    self.pre = self.pre.saturating_sub(1);
                } else {
                    self.pre += 1;
                }
            }
            "p" | "div" | "li" | "tr" | "table" | "ul" | "ol" | "dl" | "dd" | "dt" | "hr"
            | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "section" | "article" | "header"
            | "footer" | "center" | "address" => self.ensure_newline(),
            "td" | "th" => self.space = true,
            _ => {}
        }
    }

    fn finish(mut self) -> String {
        self.ensure_newline();
        self.lines.join("\n")
    }
}

/// Reads a tag at the start of `s` (which starts with `<`): its lowercase name and whether it closes.
/// `Err(false)` when `<` does not open a tag (`a < b`), `Err(true)` when the tag never ends.
fn read_tag(s: &str) -> Result<(Tag, &str), bool> {
    let body = &s[1..];
    let first = body.chars().next().ok_or(false)?;
    if !(first.is_ascii_alphabetic() || matches!(first, '/' | '!' | '?')) {
        return Err(false);
    }
    let mut quote: Option<char> = None;
    let mut after_eq = false;
    let mut end = None;
    for (i, c) in body.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            // Only `="…"` and `='…'` quote; a stray apostrophe (`title=it's`) does not.
            None if after_eq && (c == '"' || c == '\'') => quote = Some(c),
            None if c == '>' => {
                end = Some(i);
                break;
            }
            None => {}
        }
        if !c.is_whitespace() {
            after_eq = c == '=';
        }
    }
    let end = end.ok_or(true)?;
    let inner = &body[..end];
    let closing = inner.starts_with('/');
    let name: String = inner
        .trim_start_matches('/')
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, ':' | '-'))
        .collect::<String>()
        .to_ascii_lowercase();
    Ok((Tag { name, closing }, &body[end + 1..]))
}

/// Decodes an entity at the start of `s` (`&amp;`, `&#233;`, `&#xE9;`); `None` if it is not one we know.
fn read_entity(s: &str) -> Option<(char, &str)> {
    // The window must end on a char boundary: text after a `&` may be any UTF-8 (found by fuzzing).
    let window = (0..=s.len().min(12))
        .rev()
        .find(|&i| s.is_char_boundary(i))
        .unwrap_or(0);
    let semi = s[..window].find(';')?;
    let name = &s[1..semi];
    let c = if let Some(num) = name.strip_prefix('#') {
        let n = match num.strip_prefix(['x', 'X']) {
            Some(h) => u32::from_str_radix(h, 16).ok()?,
            None => num.parse::<u32>().ok()?,
        };
        char::from_u32(n).unwrap_or('\u{FFFD}')
    } else {
        match name {
            "amp" => '&',
            "lt" => '<',
            "gt" => '>',
            "quot" => '"',
            "apos" => '\'',
            "nbsp" => '\u{a0}',
            "hellip" => '…',
            "mdash" => '—',
            "ndash" => '–',
            "lsquo" => '‘',
            "rsquo" => '’',
            "ldquo" => '“',
            "rdquo" => '”',
            "laquo" => '«',
            "raquo" => '»',
            "copy" => '©',
            "eacute" => 'é',
            "egrave" => 'è',
            "ecirc" => 'ê',
            "agrave" => 'à',
            "aacute" => 'á',
            "ccedil" => 'ç',
            "ouml" => 'ö',
            "auml" => 'ä',
            "uuml" => 'ü',
            "Ouml" => 'Ö',
            "Auml" => 'Ä',
            "Uuml" => 'Ü',
            "szlig" => 'ß',
            "ntilde" => 'ñ',
            _ => return None,
        }
    };
    Some((c, &s[semi + 1..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entity_window_ending_inside_a_character_does_not_panic() {
        // Found by the ingest fuzz target: `&nbsp` followed by multi-byte characters, no `;` near.
        let text = html_to_text(
            "<p>limit&nbsp;move \u{fffd}\u{fffd}\u{fffd}\u{fffd} &nbsp\u{fffd}\u{fffd}\u{fffd}</p>",
        );
        assert!(text.contains("limit"), "{text}");
        for cut in 0..12 {
            let s = format!("&{}{}", "a".repeat(cut), "\u{fffd}".repeat(5));
            assert_eq!(read_entity(&s), None, "{s}");
        }
        assert_eq!(read_entity("&amp;\u{fffd}"), Some(('&', "\u{fffd}")));
    }

    #[test]
    fn html_text() {
        let cases = [
            ("<p>a</p><p>b</p>", "a\nb"),
            ("<div>a<br>b</div><div><br></div><div>c</div>", "a\nb\n\nc"),
            (
                "x &amp; y &lt;z&gt; &#233;&#xE9; &bogus; &nbsp;!",
                "x & y <z> éé &bogus;  !",
            ),
            (
                "<html><head><title>T</title><style>p{}</style></head><body>hi<script>x()</script></body></html>",
                "hi",
            ),
            ("a<!-- hidden <b>x</b> -->b", "ab"),
            (
                "top<blockquote>q1<br>q2<blockquote>qq</blockquote></blockquote>end",
                "top\n> q1\n> q2\n>> qq\nend",
            ),
            ("a < b and c>d", "a < b and c>d"),
            ("  lots   of\n\n  space  ", "lots of space"),
            ("<pre>a  b\nc</pre>", "a  b\nc"),
            ("<a href=\"x>y\">link</a> after", "link after"),
            ("<table><tr><td>1</td><td>2</td></tr></table>", "1 2"),
            ("<unterminated", "<unterminated"),
            ("<b title=it's>bold</b> <i>x</i>", "bold x"),
            ("<a href=\"x\n<b>y</b>", "<a href=\"x <b>y</b>"),
        ];
        for (h, want) in cases {
            assert_eq!(html_to_text(h), want, "{h:?}");
        }
    }

    #[test]
    fn hostile_html_stays_fast() {
        let start = std::time::Instant::now();
        let text = html_to_text(&"<a".repeat(200_000));
        assert_eq!(text.len(), 400_000);
        let text = html_to_text(&"<p title=\"".repeat(100_000));
        assert!(!text.is_empty());
        // Quadratic behaviour would take minutes here; linear takes milliseconds.
        assert!(start.elapsed().as_secs() < 5, "{:?}", start.elapsed());
    }
}

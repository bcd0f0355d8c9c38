//! The XML the board pictures are written in, read as a list of tags and texts: enough for the
//! SVG the games write (elements, attributes in quotes, character references, comments), with an
//! error naming the column of anything else (a DOCTYPE, CDATA, an unclosed tag).

use std::borrow::Cow;

/// One piece of an XML document, in document order.
#[derive(Debug, PartialEq)]
pub(super) enum Token<'a> {
    /// `<name a="v" ...>`, or `<name .../>` when `empty`.
    Start {
        name: &'a str,
        attributes: Vec<(&'a str, Cow<'a, str>)>,
        empty: bool,
    },
    /// `</name>`.
    End(&'a str),
    /// The characters between tags, character references resolved.
    Text(Cow<'a, str>),
}

/// The tokens of `xml`, or what is wrong and where (a column of `xml`, from 1).
pub(super) fn tokens(xml: &str) -> Result<Vec<Token<'_>>, String> {
    let mut out = Vec::new();
    let mut at = 0;
    let bytes = xml.as_bytes();
    while at < xml.len() {
        if bytes[at] != b'<' {
            let end = xml[at..].find('<').map_or(xml.len(), |k| at + k);
            out.push(Token::Text(unescape(&xml[at..end], at)?));
            at = end;
            continue;
        }
        let rest = &xml[at..];
        if let Some(body) = rest.strip_prefix("<!--") {
            let end = body
                .find("-->")
                .ok_or_else(|| format!("column {}: a comment `<!--` without its `-->`", at + 1))?;
            at += 4 + end + 3;
        } else if rest.starts_with("<?") {
            let end = rest
                .find("?>")
                .ok_or_else(|| format!("column {}: `<?` without its `?>`", at + 1))?;
            at += end + 2;
        } else if rest.starts_with("<!") {
            return Err(format!(
                "column {}: `<!` (a DOCTYPE or CDATA) is not read; write the SVG's elements \
                 and texts only",
                at + 1
            ));
        } else if let Some(body) = rest.strip_prefix("</") {
            let end = body
                .find('>')
                .ok_or_else(|| format!("column {}: `</` without its `>`", at + 1))?;
            let name = body[..end].trim_end();
            if !is_name(name) {
                return Err(format!(
                    "column {}: `</{}>` is not a closing tag",
                    at + 1,
                    name
                ));
            }
            out.push(Token::End(name));
            at += 2 + end + 1;
        } else {
            let (token, len) = start_tag(rest, at)?;
            out.push(token);
            at += len;
        }
    }
    Ok(out)
}

/// Whether `s` is an element or attribute name (ASCII letters, digits, `-`, `_`, `:`).
fn is_name(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b':' | b'.'))
}

/// The start tag at the beginning of `rest` (which is at column `at` of the document), and its
/// length.
fn start_tag(rest: &str, at: usize) -> Result<(Token<'_>, usize), String> {
    let here = |k: usize| at + k + 1;
    let name_end = rest[1..]
        .find(|c: char| c.is_ascii_whitespace() || c == '>' || c == '/')
        .map_or(rest.len(), |k| k + 1);
    let name = &rest[1..name_end];
    if !is_name(name) {
        return Err(format!(
            "column {}: `<{name}` does not start an element",
            here(0)
        ));
    }
    let mut attributes = Vec::new();
    let mut k = name_end;
    loop {
        let skipped = rest[k..].len() - rest[k..].trim_start().len();
        k += skipped;
        let r = &rest[k..];
        if r.starts_with("/>") {
            let token = Token::Start {
                name,
                attributes,
                empty: true,
            };
            return Ok((token, k + 2));
        }
        if r.starts_with('>') {
            let token = Token::Start {
                name,
                attributes,
                empty: false,
            };
            return Ok((token, k + 1));
        }
        if r.is_empty() {
            return Err(format!("column {}: the tag `<{name}` has no `>`", here(0)));
        }
        if skipped == 0 {
            return Err(format!(
                "column {}: attributes of `<{name}>` are separated by spaces",
                here(k)
            ));
        }
        let eq = r.find('=').ok_or_else(|| {
            format!(
                "column {}: an attribute of `<{name}>` without `=\"...\"`",
                here(k)
            )
        })?;
        let key = r[..eq].trim_end();
        if !is_name(key) {
            return Err(format!(
                "column {}: `{key}` is not an attribute name",
                here(k)
            ));
        }
        let v = r[eq + 1..].trim_start();
        let quote = v
            .chars()
            .next()
            .filter(|&q| q == '"' || q == '\'')
            .ok_or_else(|| {
                format!(
                    "column {}: the value of `{key}` is written in quotes",
                    here(k)
                )
            })?;
        let value_at = k + (r.len() - v.len()) + 1;
        let len = v[1..].find(quote).ok_or_else(|| {
            format!(
                "column {}: the value of `{key}` has no closing quote",
                here(k)
            )
        })?;
        let value = &rest[value_at..value_at + len];
        if value.contains('<') {
            return Err(format!(
                "column {}: `<` in the value of `{key}`",
                here(value_at)
            ));
        }
        if attributes.iter().any(|(a, _)| *a == key) {
            return Err(format!("column {}: `{key}` twice in `<{name}>`", here(k)));
        }
        attributes.push((key, unescape(value, at + value_at)?));
        k = value_at + len + 1;
    }
}

/// `s` with its character references (`&amp;`, `&#233;`, `&#xE9;`...) resolved.
fn unescape(s: &str, at: usize) -> Result<Cow<'_, str>, String> {
    if !s.contains('&') {
        return Ok(Cow::Borrowed(s));
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(k) = rest.find('&') {
        out.push_str(&rest[..k]);
        let after = &rest[k + 1..];
        let end = after.find(';').filter(|&e| e <= 10).ok_or_else(|| {
            format!(
                "column {}: `&` starts no character reference (write `&amp;`)",
                at + 1
            )
        })?;
        let name = &after[..end];
        let c = match name {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ => match name.strip_prefix("#x").or_else(|| name.strip_prefix("#X")) {
                Some(hex) => u32::from_str_radix(hex, 16).ok().and_then(char::from_u32),
                None => name
                    .strip_prefix('#')
                    .and_then(|d| d.parse().ok())
                    .and_then(char::from_u32),
            },
        };
        out.push(c.ok_or_else(|| format!("column {}: unknown reference `&{name};`", at + 1))?);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(Cow::Owned(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_attributes_texts_and_references_are_read() {
        let t = tokens(
            "<?xml version=\"1.0\"?><!-- c --><a x=\"1\" y='2 &amp; 3'>R &lt;&#65;&#x42;</a><b/>",
        )
        .unwrap();
        assert_eq!(
            t,
            vec![
                Token::Start {
                    name: "a",
                    attributes: vec![("x", "1".into()), ("y", "2 & 3".into())],
                    empty: false
                },
                Token::Text("R <AB".into()),
                Token::End("a"),
                Token::Start {
                    name: "b",
                    attributes: vec![],
                    empty: true
                },
            ]
        );
    }

    #[test]
    fn malformed_xml_is_refused_with_where() {
        for (bad, says) in [
            ("<a x=1/>", "in quotes"),
            ("<a x=\"1\"", "no `>`"),
            ("<a x=\"1/>", "no closing quote"),
            ("<a x=\"1\"y=\"2\"/>", "separated by spaces"),
            ("<a x=\"1\" x=\"2\"/>", "twice"),
            ("<!DOCTYPE svg>", "DOCTYPE"),
            ("<a>&nbsp;</a>", "unknown reference"),
            ("<a>a & b</a>", "write `&amp;`"),
            ("<1a/>", "does not start an element"),
            ("<!-- open", "without its `-->`"),
        ] {
            let e = tokens(bad).unwrap_err();
            assert!(e.contains(says) && e.starts_with("column "), "{bad}: {e}");
        }
    }
}

//! Percent-encodes, in the request target of each request head read from a client, the bytes that
//! hyper (through the `http` crate's URI parser) refuses to see unencoded (`<`, `>`, a backquote, a
//! byte above 127...). hyper answers such a request itself with an empty 400 before any page code
//! runs; encoded, it reaches [`super::answer`], which gives the same 400 or 404 page as for any other
//! bad target (the pages never repeat the target, and no page's address has such a byte, so encoding
//! changes no answer). Browsers encode these bytes themselves; this is for hand-made requests.
//!
//! Only request heads are rewritten: after a head that announces a body (`Content-Length` other than
//! 0, or `Transfer-Encoding`), the rest of the connection passes through untouched (hyper answers 405
//! to any method that sends one, and a body's bytes are not a request line).

/// Where the stream is, byte by byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum At {
    /// Before or in the method (blank lines before a request are allowed).
    Method,
    /// In the target's path; `query` once a `?` was seen.
    Target { query: bool },
    /// After the target, up to the end of the request line.
    Version,
    /// In the header lines.
    Headers,
    /// After a head with a body: nothing more is rewritten.
    Through,
}

/// The longest header-line start kept to recognise `Content-Length` and `Transfer-Encoding`.
const KEPT: usize = 40;

/// The rewriting state of one connection's incoming bytes.
#[derive(Debug)]
pub(super) struct TargetEscaper {
    at: At,
    /// The start of the current header line, lowercased (at most [`KEPT`] bytes).
    line: Vec<u8>,
    /// The current header line was longer than [`KEPT`].
    line_cut: bool,
    /// The current head announced a body.
    body: bool,
}

impl Default for TargetEscaper {
    fn default() -> Self {
        TargetEscaper {
            at: At::Method,
            line: Vec::with_capacity(KEPT),
            line_cut: false,
            body: false,
        }
    }
}

impl TargetEscaper {
    /// Appends `input`, rewritten, to `out`.
    pub(super) fn push(&mut self, input: &[u8], out: &mut Vec<u8>) {
        if self.at == At::Through {
            out.extend_from_slice(input);
            return;
        }
        for &b in input {
            self.step(b, out);
        }
    }

    fn step(&mut self, b: u8, out: &mut Vec<u8>) {
        match self.at {
            At::Through => out.push(b),
            At::Method => {
                if b == b' ' {
                    self.at = At::Target { query: false };
                }
                out.push(b);
            }
            At::Target { query } => match b {
                b' ' => {
                    self.at = At::Version;
                    out.push(b);
                }
                b'\r' => out.push(b),
                b'\n' => {
                    self.start_headers();
                    out.push(b);
                }
                b'?' if !query => {
                    self.at = At::Target { query: true };
                    out.push(b);
                }
                _ if allowed(b, query) => out.push(b),
                _ => {
                    const HEX: &[u8; 16] = b"0123456789ABCDEF";
                    out.extend_from_slice(&[
                        b'%',
                        HEX[usize::from(b >> 4)],
                        HEX[usize::from(b & 15)],
                    ]);
                }
            },
            At::Version => {
                if b == b'\n' {
                    self.start_headers();
                }
                out.push(b);
            }
            At::Headers => {
                out.push(b);
                match b {
                    b'\n' => self.end_header_line(),
                    b'\r' => {}
                    _ if self.line.len() < KEPT => self.line.push(b.to_ascii_lowercase()),
                    _ => self.line_cut = true,
                }
            }
        }
    }

    fn start_headers(&mut self) {
        self.at = At::Headers;
        self.line.clear();
        self.line_cut = false;
        self.body = false;
    }

    /// At the end of a header line: notes a body, and after the blank line that ends the head,
    /// waits for the next request (or passes everything through after a body).
    fn end_header_line(&mut self) {
        if self.line.is_empty() && !self.line_cut {
            self.at = if self.body { At::Through } else { At::Method };
            return;
        }
        let line = self.line.as_slice();
        if line.starts_with(b"transfer-encoding:") {
            self.body = true;
        } else if let Some(v) = line.strip_prefix(b"content-length:") {
            // Anything but a plain 0 (a long, odd or repeated value included) counts as a body.
            self.body |= self.line_cut || v.trim_ascii() != b"0";
        }
        self.line.clear();
        self.line_cut = false;
    }
}

/// Whether the `http` crate takes `b` unencoded in a path (`query` false) or in a query.
fn allowed(b: u8, query: bool) -> bool {
    if query {
        matches!(b, 0x21 | 0x24..=0x3B | 0x3D | 0x3F..=0x7E)
    } else {
        // As `http`, which also takes `"`, `{` and `}` for clients that send JSON in a path.
        matches!(
            b,
            0x21 | 0x22 | 0x24..=0x3B | 0x3D | 0x40..=0x5F | 0x61..=0x7A | 0x7B..=0x7E
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewrite(chunks: &[&[u8]]) -> Vec<u8> {
        let mut e = TargetEscaper::default();
        let mut out = Vec::new();
        for c in chunks {
            e.push(c, &mut out);
        }
        out
    }

    #[test]
    fn targets_that_http_refuses_are_encoded_and_nothing_else_changes() {
        let plain = b"GET /limit/101?move=3&page=2 HTTP/1.1\r\nHost: x\r\n\r\n";
        assert_eq!(rewrite(&[plain]), plain.to_vec());
        assert_eq!(
            rewrite(&[b"GET /<script>`x HTTP/1.1\r\nHost: a<b\r\n\r\n"]),
            b"GET /%3Cscript%3E%60x HTTP/1.1\r\nHost: a<b\r\n\r\n".to_vec()
        );
        // In a query a backquote is taken as it is; `"` is not.
        assert_eq!(
            rewrite(&[b"GET /l?m=<\"`>#\xff HTTP/1.1\r\n\r\n"]),
            b"GET /l?m=%3C%22`%3E%23%FF HTTP/1.1\r\n\r\n".to_vec()
        );
        // Every byte of the result's target is one that `http` parses.
        let out = rewrite(&[b"GET /a\x00b\x7f?<\x01 HTTP/1.1\r\n\r\n"]);
        let target = out.split(|&b| b == b' ').nth(1).unwrap();
        assert!(
            axum::http::Uri::try_from(target).is_ok(),
            "{}",
            String::from_utf8_lossy(target)
        );
        // Every byte: each one alone in a path and in a query parses once rewritten.
        for b in 0..=255u8 {
            if matches!(b, b' ' | b'\r' | b'\n' | b'?') {
                continue;
            }
            for prefix in [&b"GET /a"[..], b"GET /a?q="] {
                let mut line = prefix.to_vec();
                line.push(b);
                line.extend_from_slice(b" HTTP/1.1\r\n\r\n");
                let out = rewrite(&[&line]);
                let target = out.split(|&c| c == b' ').nth(1).unwrap();
                assert!(axum::http::Uri::try_from(target).is_ok(), "byte {b:#04x}");
            }
        }
    }

    #[test]
    fn every_request_of_a_connection_is_rewritten_in_any_cut() {
        let two = b"\r\nGET /<a HTTP/1.1\r\nHost: x\r\n\r\nHEAD /<b HTTP/1.1\r\n\r\n";
        let want = b"\r\nGET /%3Ca HTTP/1.1\r\nHost: x\r\n\r\nHEAD /%3Cb HTTP/1.1\r\n\r\n".to_vec();
        for cut in 0..two.len() {
            assert_eq!(rewrite(&[&two[..cut], &two[cut..]]), want, "cut at {cut}");
        }
        let bytewise: Vec<&[u8]> = two.chunks(1).collect();
        assert_eq!(rewrite(&bytewise), want);
    }

    #[test]
    fn a_body_and_what_follows_it_pass_through() {
        for head in [
            "POST /a HTTP/1.1\r\nContent-Length: 3\r\n\r\n",
            "POST /a HTTP/1.1\r\ncontent-length:  7 \r\n\r\n",
            "POST /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
        ] {
            let mut input = head.as_bytes().to_vec();
            input.extend_from_slice(b"<x>\r\n\r\nGET /<y HTTP/1.1\r\n\r\n");
            assert_eq!(rewrite(&[&input]), input, "{head}");
        }
        // A zero length is no body: the next request is rewritten.
        assert_eq!(
            rewrite(&[b"GET /a HTTP/1.1\r\nContent-Length: 0\r\n\r\nGET /<y HTTP/1.1\r\n\r\n"]),
            b"GET /a HTTP/1.1\r\nContent-Length: 0\r\n\r\nGET /%3Cy HTTP/1.1\r\n\r\n".to_vec()
        );
    }
}

//! An [`OutgoingMail`] as a MIME message: its headers checked for anything that could inject one, the
//! text part, and for a board mail the HTML part with the picture.

use std::time::{Duration, UNIX_EPOCH};

use lettre::message::header::{ContentTransferEncoding, ContentType, HeaderName, HeaderValue};
use lettre::message::{Attachment, Body, Mailbox, MultiPart, SinglePart};
use lettre::{Address, Message};

use super::{AUTO_GENERATED, AUTO_REPLIED, MailOutError, OutgoingMail, clean_msg_id};
use crate::accounts::check_address;

impl OutgoingMail {
    /// Builds the MIME message: text/plain UTF-8 (7bit when it is plain ASCII with short lines,
    /// quoted-printable otherwise), with Message-ID, Date, In-Reply-To, References, Auto-Submitted
    /// and X-Loop. Refuses control characters in every header value.
    pub fn to_message(&self) -> Result<Message, MailOutError> {
        check_header_text("from", &self.from)?;
        let (name, from_addr) = split_mailbox(&self.from);
        let from_addr = parse_address("from", from_addr)?;
        if self.to.is_empty() {
            return Err(MailOutError::NoRecipient);
        }
        check_header_text("subject", &self.subject)?;
        check_msg_id("Message-ID", &self.message_id)?;
        if let Some(id) = &self.in_reply_to {
            check_msg_id("In-Reply-To", id)?;
        }
        for id in &self.references {
            check_msg_id("References", id)?;
        }
        if self.auto_submitted != AUTO_REPLIED && self.auto_submitted != AUTO_GENERATED {
            return Err(MailOutError::BadHeader {
                field: "Auto-Submitted",
                value: escaped(&self.auto_submitted),
                problem: format!("must be \"{AUTO_REPLIED}\" or \"{AUTO_GENERATED}\""),
            });
        }
        check_header_text("X-Loop", &self.x_loop)?;
        if let Some(topic) = &self.thread_topic {
            check_header_text("Thread-Topic", topic)?;
        }
        if self.x_loop.is_empty() {
            return Err(MailOutError::BadHeader {
                field: "X-Loop",
                value: "\"\"".to_string(),
                problem: "is empty; it must be the server's address".to_string(),
            });
        }
        let date = u64::try_from(self.date_unix)
            .ok()
            .and_then(|s| UNIX_EPOCH.checked_add(Duration::from_secs(s)))
            .ok_or_else(|| MailOutError::BadHeader {
                field: "date",
                value: self.date_unix.to_string(),
                problem: "is before 1970".to_string(),
            })?;

        let mut builder = Message::builder()
            .from(Mailbox::new(name.map(str::to_string), from_addr))
            .subject(self.subject.clone())
            .message_id(Some(self.message_id.clone()))
            .date(date)
            .raw_header(HeaderValue::new(
                HeaderName::new_from_ascii_str("Auto-Submitted"),
                self.auto_submitted.clone(),
            ))
            .raw_header(HeaderValue::new(
                HeaderName::new_from_ascii_str("X-Loop"),
                self.x_loop.clone(),
            ));
        for to in &self.to {
            builder = builder.to(Mailbox::new(None, parse_address("to", to)?));
        }
        if let Some(reply_to) = &self.reply_to {
            builder = builder.reply_to(Mailbox::new(
                name.map(str::to_string),
                parse_address("reply-to", reply_to)?,
            ));
        }
        if let Some(id) = &self.in_reply_to {
            builder = builder.in_reply_to(id.clone());
        }
        if let Some(topic) = &self.thread_topic {
            builder = builder.raw_header(HeaderValue::new(
                HeaderName::new_from_ascii_str("Thread-Topic"),
                topic.clone(),
            ));
        }
        if !self.references.is_empty() {
            // One header: lettre's `references()` replaces rather than appends.
            builder = builder.references(self.references.join(" "));
        }
        if let Some(path) = &self.return_path {
            check_header_text("return path", path)?;
            let mut to = Vec::with_capacity(self.to.len());
            for a in &self.to {
                to.push(parse_address("to", a)?);
            }
            let envelope =
                lettre::address::Envelope::new(Some(parse_address("return path", path)?), to)
                    .map_err(|e| MailOutError::Build(e.to_string()))?;
            builder = builder.envelope(envelope);
        }
        // A picture that cannot be drawn leaves the mail as text alone: the text says everything.
        let png = self.picture.as_ref().map(|p| p.0.as_slice());
        let text = || {
            SinglePart::builder()
                .header(ContentType::TEXT_PLAIN)
                .body(text_body(&self.body))
        };
        let with_picture = |png: Vec<u8>| {
            let cid = self.picture_cid();
            let html = self.html_part(&png, &cid);
            MultiPart::alternative().singlepart(text()).multipart(
                MultiPart::related()
                    .singlepart(
                        SinglePart::builder()
                            .header(ContentType::TEXT_HTML)
                            .body(text_body(&html)),
                    )
                    .singlepart(
                        Attachment::new_inline(cid)
                            .body(png, ContentType::parse("image/png").expect("a MIME type")),
                    ),
            )
        };
        if self.attachments.is_empty() {
            return match png {
                None => builder
                    .header(ContentType::TEXT_PLAIN)
                    .body(text_body(&self.body)),
                Some(png) => builder.multipart(with_picture(png.to_vec())),
            }
            .map_err(|e| MailOutError::Build(e.to_string()));
        }
        let mut mixed = match png {
            None => MultiPart::mixed().singlepart(text()),
            Some(png) => MultiPart::mixed().multipart(with_picture(png.to_vec())),
        };
        for file in &self.attachments {
            mixed = mixed.singlepart(file_part(file)?);
        }
        builder
            .multipart(mixed)
            .map_err(|e| MailOutError::Build(e.to_string()))
    }
}

/// One attached file: its name checked (no path, no header injection) and its type parsed.
fn file_part(file: &super::FileAttachment) -> Result<SinglePart, MailOutError> {
    let name_ok = !file.filename.is_empty()
        && !file.filename.starts_with('.')
        && file
            .filename
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if !name_ok {
        return Err(MailOutError::BadHeader {
            field: "attachment name",
            value: escaped(&file.filename),
            problem: "may hold only letters, digits, '-', '_' and '.'".to_string(),
        });
    }
    let kind = ContentType::parse(&file.content_type).map_err(|e| MailOutError::BadHeader {
        field: "attachment type",
        value: escaped(&file.content_type),
        problem: e.to_string(),
    })?;
    Ok(Attachment::new(file.filename.clone()).body(text_body(&file.text), kind))
}

impl OutgoingMail {
    /// The Content-ID of this mail's picture (without angle brackets): `board.` and this mail's own
    /// Message-ID, so the server's domain and unique to the mail. One id for every picture (as
    /// `board@pbem` was) lets a client that caches by Content-ID show a thread's first board in
    /// every later mail (issue 34, item 5).
    pub fn picture_cid(&self) -> String {
        let id = self
            .message_id
            .trim_start_matches('<')
            .trim_end_matches('>');
        format!("board.{id}")
    }

    /// The HTML part of a board mail around its picture `png` (shown at its SVG size: the PNG has
    /// [`crate::picture::SCALE`] pixels to each), which is the part with Content-ID `cid`.
    fn html_part(&self, png: &[u8], cid: &str) -> String {
        let scale = crate::picture::SCALE;
        let (w, h) = crate::picture::png_size(png).unwrap_or((scale, scale));
        let url = cid_url(cid);
        match &self.page {
            Some(page) => page.html(&self.subject, &url, w / scale, h / scale),
            None => html_body(&self.subject, &self.body, &url, w / scale),
        }
    }
}

/// The `cid:` URL's part after `cid:` for Content-ID `cid` (RFC 2392: the id URL-encoded). The ids
/// this server makes need no encoding; a Message-ID from an older outbox row may hold `%`, `/` or
/// `?`, which would otherwise change what the URL names.
fn cid_url(cid: &str) -> String {
    let mut out = String::with_capacity(cid.len());
    for b in cid.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b'@' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The HTML part of a board mail queued without a [`super::BoardPage`] (by an older version): the
/// picture (`cid:` URL `cid`), then the same text as the text part, wrapped.
fn html_body(subject: &str, text: &str, cid: &str, width: u32) -> String {
    use crate::html::escape as esc;
    format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{}</title></head>\n<body>\n\
         <p><img src=\"cid:{cid}\" width=\"{width}\" style=\"max-width: 100%; height: auto\" \
         alt=\"The board, as drawn in the text below\"></p>\n\
         <pre style=\"font-family: monospace; font-size: 13px; white-space: pre-wrap\">{}</pre>\n\
         </body></html>\n",
        esc(subject),
        esc(text)
    )
}

/// The body as text/plain: NUL and other control characters (except tab and line ends) become
/// U+FFFD, since they are not allowed in mail and may come from a player's comment.
fn text_body(text: &str) -> Body {
    let clean: String = text
        .chars()
        .map(|c| {
            if c.is_control() && !matches!(c, '\n' | '\r' | '\t') {
                '\u{FFFD}'
            } else {
                c
            }
        })
        .collect();
    // Quoted-printable keeps accented text and long lines readable in the raw mail, where base64
    // (lettre's other choice) would not. Asking for 7bit first only checks the text, where
    // `Body::new` would also encode it in base64 just to be thrown away.
    match Body::new_with_encoding(clean, ContentTransferEncoding::SevenBit) {
        Ok(body) => body,
        Err(bytes) => {
            let text = String::from_utf8_lossy(&bytes).into_owned();
            match Body::new_with_encoding(text, ContentTransferEncoding::QuotedPrintable) {
                Ok(body) => body,
                Err(bytes) => Body::new(bytes),
            }
        }
    }
}

/// Splits `Name <addr>` into its name and address; a plain address has no name.
pub(super) fn split_mailbox(s: &str) -> (Option<&str>, &str) {
    let t = s.trim();
    if let Some(inner) = t.strip_suffix('>')
        && let Some((name, addr)) = inner.rsplit_once('<')
    {
        let name = name.trim().trim_matches('"').trim();
        return ((!name.is_empty()).then_some(name), addr.trim());
    }
    (None, t)
}

fn parse_address(field: &'static str, s: &str) -> Result<Address, MailOutError> {
    check_address(s).map_err(|e| MailOutError::BadAddress {
        field,
        reason: e.to_string(),
    })?;
    s.parse::<Address>().map_err(|e| MailOutError::BadAddress {
        field,
        reason: format!("{} ({e})", escaped(s)),
    })
}

/// Refuses control characters (CR, LF, NUL, TAB, DEL, ...) and Unicode line separators in a header
/// value, since lettre would otherwise have to guess what they mean.
fn check_header_text(field: &'static str, value: &str) -> Result<(), MailOutError> {
    if let Some(c) = value
        .chars()
        .find(|c| c.is_control() || matches!(c, '\u{2028}' | '\u{2029}'))
    {
        return Err(MailOutError::BadHeader {
            field,
            value: escaped(value),
            problem: format!(
                "contains the control character U+{:04X}; header values must be one line of \
                 printable text",
                c as u32
            ),
        });
    }
    Ok(())
}

/// A Message-ID must look like `<left@right>`: printable ASCII without spaces or angle brackets
/// inside.
pub(super) fn check_msg_id(field: &'static str, id: &str) -> Result<(), MailOutError> {
    check_header_text(field, id)?;
    if clean_msg_id(id).as_deref() != Some(id) {
        return Err(MailOutError::BadHeader {
            field,
            value: escaped(id),
            problem: "is not a message id of the form <left@right> (printable ASCII, no spaces)"
                .to_string(),
        });
    }
    Ok(())
}

/// A value escaped for an error message: control characters shown as `\u{..}`, length bounded.
fn escaped(s: &str) -> String {
    let mut out: String = s.chars().take(80).flat_map(char::escape_debug).collect();
    if s.chars().count() > 80 {
        out.push('…');
    }
    format!("\"{out}\"")
}

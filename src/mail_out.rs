//! Outgoing mail: the self-contained [`OutgoingMail`] the server stores in its outbox, its conversion
//! into a MIME message, and the [`Mailer`] that delivers it by the configured transport.
//!
//! Every header value is checked for control characters before a message is built, so no text that
//! came in by mail (a subject, a Message-ID, an address) can inject a header. Delivery failures are
//! split into temporary ones (keep the mail, retry later) and permanent ones (retrying cannot help).

// The MIME message (build), the transports (mailer), the sendmail program and .eml files (sendmail).
mod build;
mod mailer;
mod page;
mod sendmail;

use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::config::{ServerConfig, Transport};
use crate::mail_in::MAX_REFERENCES;
use build::split_mailbox;
pub use mailer::Mailer;
pub use page::BoardPage;

/// `Auto-Submitted` value of a direct answer to a player's mail (RFC 3834).
pub const AUTO_REPLIED: &str = "auto-replied";
/// `Auto-Submitted` value of a mail the server sends on its own (board mails to the other players).
pub const AUTO_GENERATED: &str = "auto-generated";

/// Longest Message-ID accepted in Message-ID, In-Reply-To and References.
const MAX_MSG_ID_LEN: usize = 250;

/// A board picture's PNG bytes, shared by the mails of one move, stored in the outbox's JSON as
/// base64.
#[derive(Debug, Clone, PartialEq)]
pub struct Png(pub std::sync::Arc<Vec<u8>>);

impl Serialize for Png {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use base64::Engine as _;
        s.serialize_str(&base64::engine::general_purpose::STANDARD.encode(self.0.as_slice()))
    }
}

impl<'de> Deserialize<'de> for Png {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Png, D::Error> {
        use base64::Engine as _;
        let text = String::deserialize(d)?;
        base64::engine::general_purpose::STANDARD
            .decode(text)
            .map(|bytes| Png(std::sync::Arc::new(bytes)))
            .map_err(serde::de::Error::custom)
    }
}

/// One mail as the server stores it in its outbox (as JSON) and sends it later: everything needed to
/// build the message, so that sending does not depend on any other state.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct OutgoingMail {
    /// The sender: a plain address (`pbem@example.org`) or `Name <pbem@example.org>`.
    pub from: String,
    /// Recipient addresses, each a plain `local@domain`.
    pub to: Vec<String>,
    /// The Subject line (any Unicode; encoded as needed).
    pub subject: String,
    /// The text/plain body. Lines end in `\n`; they are sent as CRLF.
    pub body: String,
    /// This mail's Message-ID, with its angle brackets (see [`new_message_id`]).
    pub message_id: String,
    /// The Message-ID of the mail this answers, if any.
    pub in_reply_to: Option<String>,
    /// The thread this mail continues, oldest first.
    pub references: Vec<String>,
    /// [`AUTO_REPLIED`] or [`AUTO_GENERATED`].
    pub auto_submitted: String,
    /// The value of the `X-Loop` header: the server's address.
    pub x_loop: String,
    /// The Date header, in seconds since 1970-01-01 UTC.
    pub date_unix: i64,
    /// A board mail's picture, the PNG painted when the mail was made (base64 in the outbox's
    /// JSON, under `png`): the mail is then `multipart/alternative`, the text first, then HTML
    /// showing the board as an inline PNG (`multipart/related`, `cid:`) above the same text. (A
    /// mail queued by a version that stored the SVG under `picture` is sent without its picture:
    /// no SVG is read back.)
    #[serde(default, rename = "png", skip_serializing_if = "Option::is_none")]
    pub picture: Option<Png>,
    /// What a board mail's HTML part shows around the picture (news and the line to send first, no
    /// ASCII board); without it (a mail queued by an older version) the HTML shows the text part
    /// under the picture.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<BoardPage>,
    /// Files sent with the mail (a game record): the mail is then `multipart/mixed`, the text (or the
    /// text and picture) first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attachments: Vec<FileAttachment>,
    /// The `Reply-To` address: a player's signed reply address (`pbem+<token>@host`, see
    /// [`crate::reply_token`]), so that a reply needs no password. `None`: replies go to `from`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply_to: Option<String>,
    /// A board mail's `Thread-Topic`: the game's own Subject (`Limit Board 101`), the same for
    /// every mail of the game, by which Outlook threads mails whose Subjects differ.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread_topic: Option<String>,
    /// The envelope sender (SMTP's `MAIL FROM`, sendmail's `-f`): the signed bounce address of the
    /// mail's outbox row (`pbem+b<row>-<mac>@host`, see [`crate::reply_token::bounce_token`]), set as
    /// it is sent, so that a delivery report coming back names the mail. `None`: the From address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub return_path: Option<String>,
}

/// A file attached to a mail, as the outbox stores it.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct FileAttachment {
    /// The file's name as the player's mail client saves it (`hex-101.sgf`): letters, digits, `-`,
    /// `_` and `.` only.
    pub filename: String,
    /// Its MIME type (`application/x-go-sgf`, `text/plain; charset=utf-8`).
    pub content_type: String,
    /// The file's text.
    pub text: String,
}

/// Why a mail could not be built.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum MailOutError {
    /// A header value contains a control character (CR, LF, NUL, ...) or is otherwise malformed.
    #[error("cannot build the mail: the {field} {value} {problem}")]
    BadHeader {
        /// Which header.
        field: &'static str,
        /// The offending value, escaped so it is safe to print.
        value: String,
        /// What is wrong with it.
        problem: String,
    },
    /// An address was refused.
    #[error("cannot build the mail: {field}: {reason}")]
    BadAddress {
        /// `from` or `to`.
        field: &'static str,
        /// Why.
        reason: String,
    },
    /// The mail has no recipient.
    #[error("cannot build the mail: it has no recipient")]
    NoRecipient,
    /// lettre refused the message.
    #[error("cannot build the mail: {0}")]
    Build(String),
    /// The transport could not be set up from the configuration.
    #[error("cannot set up the {transport} transport: {reason}")]
    Setup {
        /// Which transport.
        transport: Transport,
        /// Why.
        reason: String,
    },
}

/// Why a mail was not delivered.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SendError {
    /// Worth retrying later: the relay is unreachable or answered 4xx, the disk is full, sendmail
    /// said EX_TEMPFAIL, a timeout, a TLS problem that a configuration fix may cure.
    #[error("temporary failure, will retry: {0}")]
    Temporary(String),
    /// Retrying cannot help: the mail cannot be built, or sendmail found it malformed.
    #[error("permanent failure: {0}")]
    Permanent(String),
    /// The receiving side refused the mail for good: the relay answered 5xx, or sendmail said the
    /// user or host does not exist. Retrying cannot help, and the address refuses mail.
    #[error("refused for good: {0}")]
    Refused(String),
}

impl SendError {
    /// True if sending again later may succeed.
    pub fn is_temporary(&self) -> bool {
        matches!(self, SendError::Temporary(_))
    }

    /// Of a mail's recipients `to`, those that this failure says refuse mail: for a refusal, the
    /// one recipient, or of several those the refusal names (a relay names the address it refuses,
    /// `550 5.1.1 <bob@example.org>: Recipient address rejected`). None for other failures.
    pub fn refusing<'a>(&self, to: &'a [String]) -> Vec<&'a String> {
        let SendError::Refused(why) = self else {
            return Vec::new();
        };
        if let [only] = to {
            return vec![only];
        }
        let why = why.to_lowercase();
        to.iter()
            .filter(|a| why.contains(&a.to_lowercase()))
            .collect()
    }
}

impl OutgoingMail {
    /// A mail from the server described by `server` (`Name <address>` with its `[server] name`, or
    /// the plain address when the name is empty), dated `now` (the server's clock), with a fresh
    /// Message-ID and the server's `X-Loop`.
    /// `auto_submitted` is [`AUTO_REPLIED`] or [`AUTO_GENERATED`]. Thread it with
    /// [`OutgoingMail::replying_to`].
    pub fn new(
        server: &ServerConfig,
        to: Vec<String>,
        subject: impl Into<String>,
        body: impl Into<String>,
        auto_submitted: &str,
        now: i64,
    ) -> OutgoingMail {
        OutgoingMail {
            from: server.mailbox(),
            to,
            subject: subject.into(),
            body: body.into(),
            message_id: new_message_id(server.message_id_host()),
            in_reply_to: None,
            references: Vec::new(),
            auto_submitted: auto_submitted.to_string(),
            x_loop: server.address.clone(),
            date_unix: now,
            picture: None,
            page: None,
            attachments: Vec::new(),
            reply_to: None,
            thread_topic: None,
            return_path: None,
        }
    }

    /// Threads this mail under an incoming one: `In-Reply-To` its Message-ID, `References` its
    /// References plus its Message-ID. The ids are as [`crate::mail_in`] reads them: without their angle
    /// brackets. Only ids
    /// that fit in a header we write are kept: a mail whose own Message-ID does not (say, a non-ASCII
    /// byte) is answered unthreaded rather than failing to build for ever (found by fuzzing).
    pub fn replying_to(mut self, message_id: Option<&str>, references: &[String]) -> OutgoingMail {
        let Some(id) = message_id.and_then(|id| clean_msg_id(&format!("<{id}>"))) else {
            return self;
        };
        let mut refs: Vec<String> = references
            .iter()
            .filter_map(|r| clean_msg_id(&format!("<{r}>")))
            .collect();
        refs.push(id.clone());
        // The incoming mail's last references (mail_in keeps at most that many) and its own id.
        let skip = refs.len().saturating_sub(MAX_REFERENCES + 1);
        self.references = refs.split_off(skip);
        self.in_reply_to = Some(id);
        self
    }

    /// This mail with these files attached.
    pub fn with_attachments(mut self, attachments: Vec<FileAttachment>) -> OutgoingMail {
        self.attachments = attachments;
        self
    }

    /// This mail with the board's picture (`mail.pictures`).
    pub fn with_picture(mut self, picture: Option<Png>) -> OutgoingMail {
        self.picture = picture;
        self
    }

    /// This mail with what its HTML part shows around the picture.
    pub fn with_page(mut self, page: Option<BoardPage>) -> OutgoingMail {
        self.page = page;
        self
    }

    /// The plain address of the sender (without a display name).
    pub fn from_address(&self) -> &str {
        split_mailbox(&self.from).1
    }

    /// The envelope sender: the bounce address when one was set, else the From address.
    pub fn envelope_from(&self) -> &str {
        self.return_path
            .as_deref()
            .unwrap_or_else(|| self.from_address())
    }
}

/// The canonical form of a Message-ID from outside (`<left@right>`, surrounding blanks removed), or
/// `None` if it is not usable in a header we write.
pub fn clean_msg_id(raw: &str) -> Option<String> {
    let t = raw.trim();
    let inner = t.strip_prefix('<')?.strip_suffix('>')?;
    let ok = !inner.is_empty()
        && t.len() <= MAX_MSG_ID_LEN
        && inner
            .bytes()
            .all(|b| b.is_ascii_graphic() && !matches!(b, b'<' | b'>' | b'"' | b'\\'))
        && inner
            .split_once('@')
            .is_some_and(|(l, r)| !l.is_empty() && !r.is_empty() && !r.contains('@'));
    ok.then(|| t.to_string())
}

/// A new, unique Message-ID `<pbem.TIME.PID.SEQ.RANDOM@hostname>`. The time comes first in fixed
/// width hex, so ids (and the outbox file names made from them) sort in the order they were made.
pub fn new_message_id(hostname: &str) -> String {
    static SEQ: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let seq = SEQ.fetch_add(1, Ordering::Relaxed);
    // RandomState is seeded from the OS once per thread: enough to keep two hosts with the same
    // name, or a reused pid after a clock step, from colliding.
    let mut h = std::hash::RandomState::new().build_hasher();
    h.write_u64(seq);
    h.write_u128(nanos);
    let random = h.finish();
    format!(
        "<pbem.{nanos:024x}.{:x}.{seq:x}.{random:016x}@{hostname}>",
        std::process::id()
    )
}

#[cfg(test)]
mod tests {
    use super::build::check_msg_id;
    use super::*;

    fn sample() -> OutgoingMail {
        OutgoingMail {
            from: "pbem <pbem@example.org>".to_string(),
            to: vec!["alice@example.org".to_string()],
            subject: "Limit Board 101 bob".to_string(),
            body: "Summary of Limit Board 101\nMove 3\n".to_string(),
            message_id: "<pbem.1@example.org>".to_string(),
            in_reply_to: Some("<abc@mail.example.org>".to_string()),
            references: vec![
                "<root@mail.example.org>".to_string(),
                "<abc@mail.example.org>".to_string(),
            ],
            auto_submitted: AUTO_REPLIED.to_string(),
            x_loop: "pbem@example.org".to_string(),
            date_unix: 1_700_000_000,
            picture: None,
            page: None,
            attachments: Vec::new(),
            reply_to: None,
            thread_topic: Some("Limit Board 101".to_string()),
            return_path: None,
        }
    }

    /// The PNG of a new Limit game's board, as a board mail carries it.
    fn board_png() -> Png {
        let g = crate::games::limit::new_game(Default::default(), 2, 7).unwrap();
        Png(std::sync::Arc::new(
            crate::games::GameState::png(&g).unwrap().unwrap(),
        ))
    }

    /// The picture is the PNG painted when the mail was queued, kept in the outbox's JSON as
    /// base64 and sent as it was; a mail queued by a version that kept the SVG (`picture`) is read
    /// and sent as text alone (no SVG is read back).
    #[test]
    fn the_queued_picture_is_the_png_itself() {
        let png = board_png();
        let json = serde_json::to_string(&sample().with_picture(Some(png.clone()))).unwrap();
        assert!(
            json.contains("\"png\":\"iVBORw0KGgo"),
            "base64 of a PNG signature"
        );
        let back: OutgoingMail = serde_json::from_str(&json).unwrap();
        assert_eq!(back.picture, Some(png.clone()));
        let raw = back.to_message().unwrap().formatted();
        let msg = mail_parser::MessageParser::default().parse(&raw).unwrap();
        let sent = msg.attachments().next().expect("the picture");
        assert_eq!(
            sent.contents(),
            png.0.as_slice(),
            "the bytes painted, not drawn again"
        );
        let mut old = serde_json::to_value(sample()).unwrap();
        old.as_object_mut().unwrap().insert(
            "picture".into(),
            "<svg width=\"10\" height=\"10\"></svg>".into(),
        );
        let old: OutgoingMail = serde_json::from_value(old).unwrap();
        assert_eq!(old.picture, None);
        let raw = String::from_utf8(old.to_message().unwrap().formatted()).unwrap();
        assert!(!raw.contains("image/png"), "{raw}");
    }

    fn formatted(m: &OutgoingMail) -> String {
        String::from_utf8(m.to_message().unwrap().formatted()).unwrap()
    }

    fn header<'a>(text: &'a str, name: &str) -> Vec<&'a str> {
        let head = text.split("\r\n\r\n").next().unwrap();
        head.split("\r\n")
            .filter_map(|l| {
                let (n, v) = l.split_once(": ")?;
                n.eq_ignore_ascii_case(name).then_some(v)
            })
            .collect()
    }

    /// A board mail queued before the HTML part had its own words (no `page` in the outbox's JSON)
    /// still gets one: the picture at its shown size, then the text part's text, wrapping.
    #[test]
    fn a_board_mail_queued_without_a_page_shows_the_text_under_the_picture() {
        let mut json = serde_json::to_value(sample().with_picture(Some(board_png()))).unwrap();
        assert!(json.get("page").is_none(), "no page: nothing stored");
        json.as_object_mut().unwrap().remove("page");
        let old: OutgoingMail = serde_json::from_value(json).unwrap();
        let png = old.picture.clone().unwrap().0;
        let (w, _) = crate::picture::png_size(&png).unwrap();
        let msg = mail_parser::MessageParser::default()
            .parse(&old.to_message().unwrap().formatted())
            .unwrap()
            .body_html(0)
            .unwrap()
            .into_owned();
        assert!(
            msg.contains(&format!("width=\"{}\"", w / crate::picture::SCALE)),
            "{msg}"
        );
        assert!(
            msg.contains("white-space: pre-wrap\">Summary of Limit Board 101"),
            "{msg}"
        );
        // With a page, the page's words lead and the text part's are not repeated whole.
        let page = BoardPage {
            headline: String::new(),
            news: "bob played 3-7,4.".into(),
            send: String::new(),
            caption: "Limit Board 101".into(),
            details: "Moves:".into(),
        };
        let html = mail_parser::MessageParser::default()
            .parse(&old.with_page(Some(page)).to_message().unwrap().formatted())
            .unwrap()
            .body_html(0)
            .unwrap()
            .into_owned();
        let at = |s: &str| {
            html.find(s)
                .unwrap_or_else(|| panic!("{s} missing: {html}"))
        };
        assert!(at("bob played 3-7,4.") < at("<img"), "{html}");
        assert!(!html.contains("<pre"), "{html}");
    }

    /// The picture's Content-ID is the mail's own; the HTML names it as a `cid:` URL, encoded where
    /// an older outbox row's Message-ID holds a byte that a URL would read otherwise (RFC 2392).
    #[test]
    fn the_picture_s_content_id_is_the_mail_s_own_and_the_html_names_it() {
        let mut mail = sample().with_picture(Some(board_png()));
        for (message_id, url) in [
            ("<pbem.1@example.org>", "cid:board.pbem.1@example.org\""),
            (
                "<a%2F/b?c#d@example.org>",
                "cid:board.a%252F%2Fb%3Fc%23d@example.org\"",
            ),
        ] {
            mail.message_id = message_id.to_string();
            let raw = mail.to_message().unwrap().formatted();
            let msg = mail_parser::MessageParser::default().parse(&raw).unwrap();
            let html = msg.body_html(0).unwrap();
            assert!(html.contains(url), "{url} in {html}");
            let picture = msg.attachments().next().unwrap();
            let inner = &message_id[1..message_id.len() - 1];
            assert_eq!(
                mail_parser::MimeHeaders::content_id(picture),
                Some(format!("board.{inner}").as_str())
            );
        }
    }

    #[test]
    fn builds_all_headers() {
        let text = formatted(&sample());
        assert_eq!(header(&text, "From"), ["pbem <pbem@example.org>"]);
        assert_eq!(header(&text, "To"), ["alice@example.org"]);
        assert_eq!(header(&text, "Subject"), ["Limit Board 101 bob"]);
        assert_eq!(header(&text, "Message-ID"), ["<pbem.1@example.org>"]);
        assert_eq!(header(&text, "In-Reply-To"), ["<abc@mail.example.org>"]);
        assert_eq!(
            header(&text, "References"),
            ["<root@mail.example.org> <abc@mail.example.org>"]
        );
        assert_eq!(header(&text, "Auto-Submitted"), ["auto-replied"]);
        assert_eq!(header(&text, "X-Loop"), ["pbem@example.org"]);
        assert_eq!(header(&text, "Thread-Topic"), ["Limit Board 101"]);
        assert_eq!(header(&text, "Date"), ["Tue, 14 Nov 2023 22:13:20 +0000"]);
        assert_eq!(header(&text, "Content-Type"), ["text/plain; charset=utf-8"]);
        assert_eq!(header(&text, "Content-Transfer-Encoding"), ["7bit"]);
        assert!(
            text.ends_with("\r\n\r\nSummary of Limit Board 101\r\nMove 3\r\n"),
            "{text}"
        );
    }

    #[test]
    fn non_ascii_body_is_quoted_printable_and_readable() {
        let mut m = sample();
        m.body = "Bien joué, Zoë!\nNext line\n".to_string();
        m.subject = "Limit Board 101 zoë **".to_string();
        let text = formatted(&m);
        assert_eq!(
            header(&text, "Content-Transfer-Encoding"),
            ["quoted-printable"]
        );
        assert!(text.contains("Bien jou=C3=A9, Zo=C3=AB!"), "{text}");
        assert!(text.contains("Next line"), "{text}");
        // The subject is RFC 2047 encoded, not sent raw.
        let subject = header(&text, "Subject").join(" ");
        assert!(subject.contains("=?utf-8?"), "{subject}");
        assert!(text.is_ascii());
    }

    #[test]
    fn long_lines_are_wrapped_softly() {
        let mut m = sample();
        m.body = format!("{}\n", "x".repeat(2000));
        let text = formatted(&m);
        assert_eq!(
            header(&text, "Content-Transfer-Encoding"),
            ["quoted-printable"]
        );
        assert!(text.split("\r\n").all(|l| l.len() <= 998));
    }

    #[test]
    fn control_characters_in_the_body_are_neutralised() {
        let mut m = sample();
        m.body = "a\0b\u{1b}[31mc\tok\n".to_string();
        let text = formatted(&m);
        assert!(!text.contains('\0') && !text.contains('\u{1b}'));
        assert!(text.contains("c\tok"), "{text}");
    }

    type Change = Box<dyn Fn(&mut OutgoingMail)>;

    #[test]
    fn header_injection_is_refused() {
        let cases: Vec<(&str, Change)> = vec![
            (
                "subject",
                Box::new(|m| m.subject = "hi\r\nBcc: victim@example.org".into()),
            ),
            ("subject", Box::new(|m| m.subject = "hi\nX: y".into())),
            ("subject", Box::new(|m| m.subject = "nul\0".into())),
            ("subject", Box::new(|m| m.subject = "sep\u{2028}x".into())),
            (
                "to",
                Box::new(|m| m.to = vec!["a@example.org\r\nBcc: v@example.org".into()]),
            ),
            (
                "to",
                Box::new(|m| m.to = vec!["a@example.org, v@example.org".into()]),
            ),
            (
                "from",
                Box::new(|m| m.from = "pbem\r\n <pbem@example.org>".into()),
            ),
            ("from", Box::new(|m| m.from = "pbem@example.org\n".into())),
            (
                "Message-ID",
                Box::new(|m| m.message_id = "<a@b>\r\nBcc: v@example.org".into()),
            ),
            (
                "Message-ID",
                Box::new(|m| m.message_id = "no-brackets@b".into()),
            ),
            ("Message-ID", Box::new(|m| m.message_id = "<a b@c>".into())),
            (
                "In-Reply-To",
                Box::new(|m| m.in_reply_to = Some("<x@y>\nBcc: v@e.org".into())),
            ),
            (
                "References",
                Box::new(|m| m.references = vec!["<x@y> <z@w>".into()]),
            ),
            (
                "X-Loop",
                Box::new(|m| m.x_loop = "pbem@example.org\r\nBcc: v@e.org".into()),
            ),
            ("X-Loop", Box::new(|m| m.x_loop = String::new())),
            (
                "Thread-Topic",
                Box::new(|m| m.thread_topic = Some("Limit\r\nBcc: v@e.org".into())),
            ),
            (
                "Auto-Submitted",
                Box::new(|m| m.auto_submitted = "no".into()),
            ),
        ];
        for (what, change) in cases {
            let mut m = sample();
            change(&mut m);
            let err = m.to_message().expect_err(what);
            let shown = err.to_string();
            assert!(!shown.contains('\r') && !shown.contains('\n'), "{shown:?}");
            match &err {
                MailOutError::BadHeader { field, .. } => assert_eq!(*field, what, "{err}"),
                MailOutError::BadAddress { field, .. } => assert_eq!(*field, what, "{err}"),
                other => panic!("{what}: unexpected {other:?}"),
            }
        }
    }

    #[test]
    fn no_recipient_is_refused() {
        let mut m = sample();
        m.to.clear();
        assert_eq!(m.to_message().unwrap_err(), MailOutError::NoRecipient);
    }

    #[test]
    fn several_recipients_are_all_in_the_envelope() {
        let mut m = sample();
        m.to = vec!["a@example.org".into(), "b@example.net".into()];
        let msg = m.to_message().unwrap();
        let to: Vec<String> = msg.envelope().to().iter().map(|a| a.to_string()).collect();
        assert_eq!(to, ["a@example.org", "b@example.net"]);
        assert_eq!(
            msg.envelope().from().map(|a| a.to_string()).as_deref(),
            Some("pbem@example.org")
        );
    }

    #[test]
    fn message_ids_are_unique_well_formed_and_ordered() {
        let ids: Vec<String> = (0..1000)
            .map(|_| new_message_id("games.example.org"))
            .collect();
        let mut sorted = ids.clone();
        sorted.sort();
        assert_eq!(ids, sorted, "ids must sort in creation order");
        sorted.dedup();
        assert_eq!(sorted.len(), ids.len());
        for id in &ids {
            assert!(id.ends_with("@games.example.org>"), "{id}");
            assert_eq!(clean_msg_id(id).as_deref(), Some(id.as_str()));
            assert!(check_msg_id("Message-ID", id).is_ok());
        }
    }

    #[test]
    fn clean_msg_id_accepts_real_ids_and_drops_junk() {
        assert_eq!(
            clean_msg_id("  <CAF=x+y_z@mail.gmail.com> ").as_deref(),
            Some("<CAF=x+y_z@mail.gmail.com>")
        );
        for junk in [
            "",
            "<>",
            "abc@d",
            "<abc>",
            "<a b@c>",
            "<a@b\r\n>",
            "<a@b@c>",
            "<é@x>",
        ] {
            assert_eq!(clean_msg_id(junk), None, "{junk:?}");
        }
        assert_eq!(clean_msg_id(&format!("<{}@x>", "a".repeat(300))), None);
    }

    #[test]
    fn replying_to_threads_and_drops_bad_ids() {
        let server = ServerConfig::default();
        let new = || {
            OutgoingMail::new(
                &server,
                vec!["a@example.org".into()],
                "s",
                "b",
                AUTO_REPLIED,
                1_795_000_000,
            )
        };
        let m = new().replying_to(
            Some("in@x.org"),
            &["root@x.org".to_string(), "junk\r\nBcc: v".to_string()],
        );
        assert_eq!(m.in_reply_to.as_deref(), Some("<in@x.org>"));
        assert_eq!(m.references, ["<root@x.org>", "<in@x.org>"]);
        assert_eq!(m.from, "pbem <pbem@localhost>");
        assert_eq!(m.from_address(), "pbem@localhost");
        assert_eq!(m.x_loop, "pbem@localhost");
        assert_eq!(m.date_unix, 1_795_000_000);
        assert!(m.message_id.ends_with("@localhost>"));
        assert!(m.to_message().is_ok());

        let many: Vec<String> = (0..50).map(|i| format!("r{i}@x.org")).collect();
        let m = new().replying_to(Some("in@x.org"), &many);
        assert_eq!(m.references.len(), MAX_REFERENCES + 1);
        assert_eq!(m.references[0], "<r30@x.org>");
        assert_eq!(m.references.last().unwrap(), "<in@x.org>");

        // No usable Message-ID of its own: answered, but not threaded.
        for id in [None, Some("caf\u{e9}@x.org")] {
            let m = new().replying_to(id, &many);
            assert_eq!(m.in_reply_to, None);
            assert!(m.references.is_empty());
        }
    }

    #[test]
    fn outgoing_mail_round_trips_through_json() {
        let m = sample();
        let json = serde_json::to_string(&m).unwrap();
        let back: OutgoingMail = serde_json::from_str(&json).unwrap();
        assert_eq!(back, m);
        assert_eq!(
            back.to_message().unwrap().formatted(),
            m.to_message().unwrap().formatted()
        );
    }

    #[test]
    fn negative_date_is_refused() {
        let mut m = sample();
        m.date_unix = -1;
        assert!(matches!(
            m.to_message(),
            Err(MailOutError::BadHeader { field: "date", .. })
        ));
    }

    #[test]
    fn split_mailbox_forms() {
        assert_eq!(split_mailbox("a@b.org"), (None, "a@b.org"));
        assert_eq!(split_mailbox("pbem <a@b.org>"), (Some("pbem"), "a@b.org"));
        assert_eq!(
            split_mailbox("\"The Server\" <a@b.org>"),
            (Some("The Server"), "a@b.org")
        );
        assert_eq!(split_mailbox("<a@b.org>"), (None, "a@b.org"));
    }
}

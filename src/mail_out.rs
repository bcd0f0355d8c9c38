//! Outgoing mail: the self-contained [`OutgoingMail`] the server stores in its outbox, its conversion
//! into a MIME message, and the [`Mailer`] that delivers it by the configured transport.
//!
//! Every header value is checked for control characters before a message is built, so no text that
//! came in by mail (a subject, a Message-ID, an address) can inject a header. Delivery failures are
//! split into temporary ones (keep the mail, retry later) and permanent ones (retrying cannot help).

use std::fs;
use std::hash::{BuildHasher, Hasher};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use lettre::message::header::{ContentTransferEncoding, ContentType, HeaderName, HeaderValue};
use lettre::message::{Attachment, Body, Mailbox, MultiPart, SinglePart};
use lettre::transport::smtp::authentication::{Credentials, DEFAULT_MECHANISMS};
use lettre::transport::smtp::client::{Certificate, SmtpConnection, TlsParameters};
use lettre::transport::smtp::extension::ClientId;
use lettre::{Address, Message};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::accounts::check_address;
use crate::config::{Config, ServerConfig, SmtpConfig, SmtpTls, Transport};

/// `Auto-Submitted` value of a direct answer to a player's mail (RFC 3834).
pub const AUTO_REPLIED: &str = "auto-replied";
/// `Auto-Submitted` value of a mail the server sends on its own (board mails to the other players).
pub const AUTO_GENERATED: &str = "auto-generated";

/// Longest Message-ID accepted in Message-ID, In-Reply-To and References.
const MAX_MSG_ID_LEN: usize = 250;
/// At most this many References are kept (the newest); long threads would otherwise grow forever.
const MAX_REFERENCES: usize = 20;

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
    /// A board mail's picture, as SVG: the mail is then `multipart/alternative`, the text first, then
    /// HTML showing the board as an inline PNG (`multipart/related`, `cid:`) above the same text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub picture: Option<String>,
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
    /// Retrying cannot help: the relay answered 5xx, an address was refused, the mail cannot be
    /// built.
    #[error("permanent failure: {0}")]
    Permanent(String),
}

impl SendError {
    /// True if sending again later may succeed.
    pub fn is_temporary(&self) -> bool {
        matches!(self, SendError::Temporary(_))
    }
}

impl OutgoingMail {
    /// A mail from the server described by `server`, dated now, with a fresh Message-ID and the
    /// server's `X-Loop`. `auto_submitted` is [`AUTO_REPLIED`] or [`AUTO_GENERATED`]. Set
    /// `in_reply_to`/`references` with [`OutgoingMail::replying_to`].
    pub fn new(
        server: &ServerConfig,
        to: Vec<String>,
        subject: impl Into<String>,
        body: impl Into<String>,
        auto_submitted: &str,
    ) -> OutgoingMail {
        OutgoingMail {
            from: format!("{} <{}>", server.name, server.address),
            to,
            subject: subject.into(),
            body: body.into(),
            message_id: new_message_id(server.message_id_host()),
            in_reply_to: None,
            references: Vec::new(),
            auto_submitted: auto_submitted.to_string(),
            x_loop: server.address.clone(),
            date_unix: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX)),
            picture: None,
        }
    }

    /// Threads this mail under an incoming one: `In-Reply-To` its Message-ID, `References` its
    /// References plus its Message-ID. Ids that are malformed (they come from outside) are dropped
    /// rather than refused, so that a strange incoming mail still gets its answer.
    pub fn replying_to(mut self, message_id: Option<&str>, references: &[String]) -> OutgoingMail {
        let id = message_id.and_then(clean_msg_id);
        let mut refs: Vec<String> = references.iter().filter_map(|r| clean_msg_id(r)).collect();
        if let Some(id) = &id {
            refs.push(id.clone());
        }
        let skip = refs.len().saturating_sub(MAX_REFERENCES);
        self.references = refs.split_off(skip);
        self.in_reply_to = id;
        self
    }

    /// The plain address of the sender (without a display name).
    pub fn from_address(&self) -> &str {
        split_mailbox(&self.from).1
    }

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
        if let Some(id) = &self.in_reply_to {
            builder = builder.in_reply_to(id.clone());
        }
        if !self.references.is_empty() {
            // One header: lettre's `references()` replaces rather than appends.
            builder = builder.references(self.references.join(" "));
        }
        // A picture that cannot be drawn leaves the mail as text alone: the text says everything.
        let png = self
            .picture
            .as_deref()
            .and_then(|svg| crate::picture::png(svg).ok());
        match png {
            None => builder
                .header(ContentType::TEXT_PLAIN)
                .body(text_body(&self.body)),
            Some(png) => builder.multipart(
                MultiPart::alternative()
                    .singlepart(
                        SinglePart::builder()
                            .header(ContentType::TEXT_PLAIN)
                            .body(text_body(&self.body)),
                    )
                    .multipart(
                        MultiPart::related()
                            .singlepart(
                                SinglePart::builder()
                                    .header(ContentType::TEXT_HTML)
                                    .body(text_body(&html_body(&self.subject, &self.body))),
                            )
                            .singlepart(Attachment::new_inline(BOARD_CID.to_string()).body(
                                png.to_vec(),
                                ContentType::parse("image/png").expect("a MIME type"),
                            )),
                    ),
            ),
        }
        .map_err(|e| MailOutError::Build(e.to_string()))
    }
}

/// The Content-ID of a board mail's picture.
const BOARD_CID: &str = "board@pbem";

/// The HTML part of a board mail: the picture, then the same text as the text part.
fn html_body(subject: &str, text: &str) -> String {
    let esc = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
    };
    format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{}</title></head>\n<body>\n\
         <p><img src=\"cid:{BOARD_CID}\" alt=\"The board, as drawn in the text below\"></p>\n\
         <pre style=\"font-family: monospace; font-size: 13px\">{}</pre>\n</body></html>\n",
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
fn split_mailbox(s: &str) -> (Option<&str>, &str) {
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
fn check_msg_id(field: &'static str, id: &str) -> Result<(), MailOutError> {
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

/// A value escaped for an error message: control characters shown as `\u{..}`, length bounded.
fn escaped(s: &str) -> String {
    let mut out: String = s.chars().take(80).flat_map(char::escape_debug).collect();
    if s.chars().count() > 80 {
        out.push('…');
    }
    format!("\"{out}\"")
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

/// Delivers [`OutgoingMail`] by the transport chosen in the configuration.
pub struct Mailer {
    kind: MailerKind,
}

enum MailerKind {
    File(PathBuf),
    /// The sendmail command, and the spool folder of its hand-offs (see [`Mailer::send_outbox`]).
    Sendmail(PathBuf, PathBuf),
    Smtp(Box<Relay>, String),
}

/// How to reach the SMTP relay; every mail gets a connection of its own.
struct Relay {
    host: String,
    port: u16,
    tls: RelayTls,
    timeout: Duration,
    credentials: Option<Credentials>,
}

enum RelayTls {
    None,
    Starttls(TlsParameters),
    Wrapper(TlsParameters),
}

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

impl Mailer {
    /// Sets up the transport from `[mail]`. Nothing is contacted yet; an SMTP relay is first
    /// reached by [`Mailer::send`].
    pub fn from_config(cfg: &Config) -> Result<Mailer, MailOutError> {
        let kind = match cfg.mail.transport {
            Transport::File => MailerKind::File(cfg.mail.outbox_dir.clone()),
            Transport::Sendmail => MailerKind::Sendmail(
                cfg.mail.sendmail_command.clone(),
                PathBuf::from(format!("{}.sending", cfg.database.path.display())),
            ),
            Transport::Smtp => {
                let s = &cfg.mail.smtp;
                let described = format!(
                    "smtp to {}:{} (tls = {})",
                    s.host,
                    s.effective_port(),
                    match s.tls {
                        SmtpTls::None => "none",
                        SmtpTls::Starttls => "starttls",
                        SmtpTls::Tls => "tls",
                    }
                );
                MailerKind::Smtp(Box::new(relay(s)?), described)
            }
        };
        Ok(Mailer { kind })
    }

    /// A file-transport mailer writing into `dir` (what `--outbox DIR` selects).
    pub fn file(dir: impl Into<PathBuf>) -> Mailer {
        Mailer {
            kind: MailerKind::File(dir.into()),
        }
    }

    /// One line saying where mail goes, for logs.
    pub fn describe(&self) -> String {
        match &self.kind {
            MailerKind::File(dir) => format!("file into {}", dir.display()),
            MailerKind::Sendmail(cmd, _) => format!("sendmail via {}", cmd.display()),
            MailerKind::Smtp(_, d) => d.clone(),
        }
    }

    /// Builds and delivers one mail. A mail that cannot be built is a permanent failure.
    pub fn send(&self, mail: &OutgoingMail) -> Result<(), SendError> {
        self.send_then(mail, || ())
    }

    /// Delivers the outbox row `row` like [`Mailer::send_then`]. With sendmail, the delivery is handed
    /// to a small shell that outlives this process: it waits for a "go" that is written only after
    /// `hand_over` has moved the row's claim to it, then runs sendmail on the whole message (kept in
    /// a spool file, never a half-written pipe) and leaves sendmail's exit status in the spool. A pbem
    /// killed before the "go" sends nothing; killed after it, the delivery finishes and `outbox flush`
    /// reads its status ([`Mailer::handed_off_status`]) instead of sending the mail again.
    pub fn send_outbox<T>(
        &self,
        mail: &OutgoingMail,
        row: i64,
        hand_over: impl FnOnce(&crate::sys::ProcessId) -> Result<(), String>,
        record: impl FnOnce() -> T,
    ) -> Result<T, SendError> {
        let MailerKind::Sendmail(cmd, spool) = &self.kind else {
            return self.send_then(mail, record);
        };
        let msg = mail
            .to_message()
            .map_err(|e| SendError::Permanent(e.to_string()))?;
        run_sendmail_handed_off(cmd, spool, row, mail, &msg.formatted(), hand_over)
            .map(|()| record())
    }

    /// What a hand-off of outbox row `row` left behind: `Some(true)` when its sendmail exited 0 (the
    /// mail was delivered, though its sender died before recording it), `Some(false)` when it failed,
    /// `None` when there is no finished hand-off. The spool files are removed either way.
    pub fn handed_off_status(&self, row: i64) -> Option<bool> {
        let MailerKind::Sendmail(_, spool) = &self.kind else {
            return None;
        };
        let files = spool_files(spool, row);
        let status = fs::read_to_string(&files.status).ok();
        files.remove();
        status.map(|s| s.trim() == "0")
    }

    /// Builds and delivers one mail like [`Mailer::send`], and calls `record` (which marks the mail
    /// sent) the moment the transport has taken it: for SMTP right after the relay's 250, before the
    /// QUIT exchange. A kill between the delivery and the record sends the mail again later, so the
    /// record comes as early as it can.
    pub fn send_then<T>(
        &self,
        mail: &OutgoingMail,
        record: impl FnOnce() -> T,
    ) -> Result<T, SendError> {
        let msg = mail
            .to_message()
            .map_err(|e| SendError::Permanent(e.to_string()))?;
        match &self.kind {
            MailerKind::File(dir) => write_eml(dir, mail, &msg.formatted()).map(|()| record()),
            MailerKind::Sendmail(cmd, _) => {
                run_sendmail(cmd, mail, &msg.formatted()).map(|()| record())
            }
            MailerKind::Smtp(relay, _) => {
                // lettre ends DATA with CRLF.CRLF after the message, so a message that already
                // ends in CRLF would arrive with an extra empty line; hand it over without one.
                let bytes = msg.formatted();
                let bytes = bytes.strip_suffix(b"\r\n").unwrap_or(&bytes);
                relay
                    .send(msg.envelope(), bytes, record)
                    .map_err(classify_smtp)
            }
        }
    }
}

impl Relay {
    /// One SMTP session: connect (TLS or STARTTLS as configured), log in, send, record, QUIT.
    fn send<T>(
        &self,
        envelope: &lettre::address::Envelope,
        bytes: &[u8],
        record: impl FnOnce() -> T,
    ) -> Result<T, lettre::transport::smtp::Error> {
        let hello = ClientId::default();
        let wrapper = match &self.tls {
            RelayTls::Wrapper(p) => Some(p),
            _ => None,
        };
        let mut conn = SmtpConnection::connect(
            (self.host.as_str(), self.port),
            Some(self.timeout),
            &hello,
            wrapper,
            None,
        )?;
        if let RelayTls::Starttls(p) = &self.tls {
            conn.starttls(p, &hello)?;
        }
        if let Some(c) = &self.credentials {
            conn.auth(DEFAULT_MECHANISMS, c)?;
        }
        // lettre writes the end-of-data dot on its own after the message; with Nagle's algorithm
        // it would wait in this machine's kernel for the relay to acknowledge the message (40 ms
        // of delayed ACK on Linux), a time in which a killed pbem still delivers the mail (the
        // kernel sends what was written) but never records it.
        crate::sys::tcp_nodelay_on_all_sockets();
        conn.send(envelope, bytes)?;
        let recorded = record();
        conn.abort();
        Ok(recorded)
    }
}

fn relay(s: &SmtpConfig) -> Result<Relay, MailOutError> {
    let setup = |reason: String| MailOutError::Setup {
        transport: Transport::Smtp,
        reason,
    };
    let tls_params = || -> Result<TlsParameters, MailOutError> {
        let mut b = TlsParameters::builder(s.host.clone());
        if let Some(path) = &s.ca_file {
            let pem = fs::read(path).map_err(|e| {
                setup(format!(
                    "cannot read mail.smtp.ca_file {}: {e}",
                    path.display()
                ))
            })?;
            for cert in pem_certificates(&pem) {
                let cert = Certificate::from_pem(&cert)
                    .map_err(|e| setup(format!("mail.smtp.ca_file {}: {e}", path.display())))?;
                b = b.add_root_certificate(cert);
            }
        }
        b.build_rustls()
            .map_err(|e| setup(format!("TLS setup: {e}")))
    };
    let tls = match s.tls {
        SmtpTls::None => RelayTls::None,
        SmtpTls::Starttls => RelayTls::Starttls(tls_params()?),
        SmtpTls::Tls => RelayTls::Wrapper(tls_params()?),
    };
    let credentials = match (&s.username, &s.password) {
        (Some(user), Some(pass)) => Some(Credentials::new(user.clone(), pass.clone())),
        _ => None,
    };
    Ok(Relay {
        host: s.host.clone(),
        port: s.effective_port(),
        tls,
        timeout: Duration::from_secs(s.timeout_secs),
        credentials,
    })
}

/// Splits a PEM file into its certificates (lettre takes one at a time).
fn pem_certificates(pem: &[u8]) -> Vec<Vec<u8>> {
    let text = String::from_utf8_lossy(pem);
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if line.starts_with("-----BEGIN CERTIFICATE-----") {
            current = Some(String::new());
        }
        if let Some(c) = current.as_mut() {
            c.push_str(line);
            c.push('\n');
        }
        if line.starts_with("-----END CERTIFICATE-----")
            && let Some(c) = current.take()
        {
            out.push(c.into_bytes());
        }
    }
    out
}

fn classify_smtp(e: lettre::transport::smtp::Error) -> SendError {
    let code = e.status().map(u16::from);
    if matches!(code, Some(530 | 534 | 535 | 538)) {
        // The relay refused our login: a configuration problem, not the mail's. Keep it queued
        // until mail.smtp.username/password are fixed.
        SendError::Temporary(format!(
            "the relay refused the login (check mail.smtp.username and password): {e}"
        ))
    } else if e.is_permanent() {
        SendError::Permanent(format!("the relay refused the mail: {e}"))
    } else {
        // 4xx, connection refused, timeouts, TLS and protocol trouble: the mail stays queued.
        SendError::Temporary(e.to_string())
    }
}

/// Writes the message as `DIR/<date>-<message id>.eml`, atomically (a temporary file renamed into
/// place), so that a reader never sees half a message and sending the same mail twice leaves one
/// file.
fn write_eml(dir: &Path, mail: &OutgoingMail, bytes: &[u8]) -> Result<(), SendError> {
    let temp = |what: &str, e: std::io::Error| {
        SendError::Temporary(format!(
            "{what} in the outbox folder {}: {e}",
            dir.display()
        ))
    };
    fs::create_dir_all(dir).map_err(|e| temp("cannot create it", e))?;
    let id: String = mail
        .message_id
        .trim_matches(['<', '>'])
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .take(160)
        .collect();
    let name = format!("{:010}-{id}.eml", mail.date_unix.max(0));
    let tmp_path = dir.join(format!(".{name}.tmp"));
    let result = (|| {
        let mut f = fs::File::create(&tmp_path)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        fs::rename(&tmp_path, dir.join(&name))
    })();
    result.map_err(|e| {
        let _ = fs::remove_file(&tmp_path);
        temp(&format!("cannot write {name}"), e)
    })
}

/// The spool files of a sendmail hand-off of outbox row `row`.
struct SpoolFiles {
    message: PathBuf,
    status: PathBuf,
    stderr: PathBuf,
}

fn spool_files(spool: &Path, row: i64) -> SpoolFiles {
    SpoolFiles {
        message: spool.join(format!("{row}.eml")),
        status: spool.join(format!("{row}.status")),
        stderr: spool.join(format!("{row}.err")),
    }
}

impl SpoolFiles {
    fn remove(&self) {
        for p in [&self.message, &self.status, &self.stderr] {
            let _ = fs::remove_file(p);
        }
    }
}

/// The shell of a hand-off: waits for "go" on its input (end of input without it: pbem died before
/// handing over, so nothing is sent), runs sendmail on the spooled message and leaves its exit status.
const HANDOFF_SCRIPT: &str = r#"IFS= read -r go || exit 75
[ "$go" = go ] || exit 75
"$0" "$@" <"$PBEM_SPOOL_MESSAGE" >/dev/null 2>"$PBEM_SPOOL_STDERR"
s=$?
echo "$s" >"$PBEM_SPOOL_STATUS.tmp" && mv "$PBEM_SPOOL_STATUS.tmp" "$PBEM_SPOOL_STATUS"
exit "$s""#;

/// [`run_sendmail`] through a hand-off shell (see [`Mailer::send_outbox`]); where the shell's process
/// cannot be named (no `/proc`), sendmail runs directly.
fn run_sendmail_handed_off(
    cmd: &Path,
    spool: &Path,
    row: i64,
    mail: &OutgoingMail,
    bytes: &[u8],
    hand_over: impl FnOnce(&crate::sys::ProcessId) -> Result<(), String>,
) -> Result<(), SendError> {
    let temp = |what: &str, e: &dyn std::fmt::Display| {
        SendError::Temporary(format!("{what} {}: {e}", spool.display()))
    };
    fs::create_dir_all(spool).map_err(|e| temp("cannot make the spool folder", &e))?;
    let files = spool_files(spool, row);
    files.remove();
    fs::write(&files.message, bytes).map_err(|e| temp("cannot write into", &e))?;
    let mut child = match Command::new("/bin/sh")
        .arg("-c")
        .arg(HANDOFF_SCRIPT)
        .arg(cmd)
        .arg("-i")
        .arg("-f")
        .arg(mail.from_address())
        .arg("--")
        .args(&mail.to)
        .env("PBEM_SPOOL_MESSAGE", &files.message)
        .env("PBEM_SPOOL_STATUS", &files.status)
        .env("PBEM_SPOOL_STDERR", &files.stderr)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
    {
        Ok(c) => c,
        Err(_) => {
            files.remove();
            return run_sendmail(cmd, mail, bytes);
        }
    };
    let Some(id) = crate::sys::ProcessId::of(child.id()) else {
        drop(child.stdin.take());
        let _ = child.wait();
        files.remove();
        return run_sendmail(cmd, mail, bytes);
    };
    if let Err(e) = hand_over(&id) {
        drop(child.stdin.take());
        let _ = child.wait();
        files.remove();
        return Err(SendError::Temporary(format!(
            "cannot hand the mail over: {e}"
        )));
    }
    let go = child
        .stdin
        .take()
        .map(|mut stdin| stdin.write_all(b"go\n"))
        .unwrap_or(Ok(()));
    let status = child
        .wait()
        .map_err(|e| SendError::Temporary(format!("waiting for {}: {e}", cmd.display())));
    let stderr = fs::read_to_string(&files.stderr).unwrap_or_default();
    let code = fs::read_to_string(&files.status)
        .ok()
        .and_then(|s| s.trim().parse::<i32>().ok());
    files.remove();
    status?;
    go.map_err(|e| SendError::Temporary(format!("cannot start the hand-off: {e}")))?;
    sendmail_result(cmd, code, &stderr, Ok(()))
}

/// Pipes the message into `CMD -i -f FROM -- TO...` and reads its exit status the sysexits way.
fn run_sendmail(cmd: &Path, mail: &OutgoingMail, bytes: &[u8]) -> Result<(), SendError> {
    let mut command = Command::new(cmd);
    // Killed with pbem before it saw the end of the message, sendmail delivers nothing: the mail
    // stays unsent in the outbox and the next flush sends it once, instead of a child that goes on
    // delivering what pbem never gets to record as sent.
    crate::sys::die_with_parent(&mut command);
    let mut child = command
        .arg("-i")
        .arg("-f")
        .arg(mail.from_address())
        .arg("--")
        .args(&mail.to)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| SendError::Temporary(format!("cannot run {}: {e}", cmd.display())))?;
    // A sendmail that exits without reading everything makes this fail with a broken pipe; its exit
    // status below says why, so the write error itself is only reported if the exit was clean.
    let write_result = child
        .stdin
        .take()
        .map(|mut stdin| stdin.write_all(bytes))
        .unwrap_or(Ok(()));
    let out = child
        .wait_with_output()
        .map_err(|e| SendError::Temporary(format!("waiting for {}: {e}", cmd.display())))?;
    sendmail_result(
        cmd,
        out.status.code(),
        &String::from_utf8_lossy(&out.stderr),
        write_result,
    )
}

/// A sendmail's exit status (`None`: killed by a signal) read the sysexits way.
fn sendmail_result(
    cmd: &Path,
    code: Option<i32>,
    stderr: &str,
    write_result: std::io::Result<()>,
) -> Result<(), SendError> {
    let said = if stderr.trim().is_empty() {
        String::new()
    } else {
        format!(": {}", stderr.trim())
    };
    match code {
        Some(0) => write_result.map_err(|e| {
            SendError::Temporary(format!(
                "{} exited 0 but did not read the whole message: {e}",
                cmd.display()
            ))
        }),
        // EX_DATAERR, EX_NOUSER, EX_NOHOST: about this message, so sending it again cannot help.
        Some(code @ (65 | 67 | 68)) => Err(SendError::Permanent(format!(
            "{} refused the mail (exit status {code}){said}",
            cmd.display()
        ))),
        // EX_TEMPFAIL and everything else (configuration, resources, unknown codes): keep the mail,
        // someone can fix the cause and flush the outbox again.
        Some(code) => Err(SendError::Temporary(format!(
            "{} failed (exit status {code}){said}",
            cmd.display()
        ))),
        None => Err(SendError::Temporary(format!(
            "{} was killed by a signal{said}",
            cmd.display()
        ))),
    }
}

#[cfg(test)]
mod tests {
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
        }
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
        let m = OutgoingMail::new(
            &server,
            vec!["a@example.org".into()],
            "s",
            "b",
            AUTO_REPLIED,
        )
        .replying_to(
            Some("<in@x.org>"),
            &["<root@x.org>".to_string(), "junk\r\nBcc: v".to_string()],
        );
        assert_eq!(m.in_reply_to.as_deref(), Some("<in@x.org>"));
        assert_eq!(m.references, ["<root@x.org>", "<in@x.org>"]);
        assert_eq!(m.from, "pbem <pbem@localhost>");
        assert_eq!(m.x_loop, "pbem@localhost");
        assert!(m.message_id.ends_with("@localhost>"));
        assert!(m.to_message().is_ok());

        let many: Vec<String> = (0..50).map(|i| format!("<r{i}@x.org>")).collect();
        let m = OutgoingMail::new(
            &server,
            vec!["a@example.org".into()],
            "s",
            "b",
            AUTO_REPLIED,
        )
        .replying_to(None, &many);
        assert_eq!(m.references.len(), MAX_REFERENCES);
        assert_eq!(m.references.last().unwrap(), "<r49@x.org>");
        assert_eq!(m.in_reply_to, None);
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

    #[test]
    fn pem_splitting_finds_each_certificate() {
        let pem = b"junk\n-----BEGIN CERTIFICATE-----\nAAA\n-----END CERTIFICATE-----\n\
                    -----BEGIN CERTIFICATE-----\nBBB\n-----END CERTIFICATE-----\n";
        let certs = pem_certificates(pem);
        assert_eq!(certs.len(), 2);
        assert!(String::from_utf8_lossy(&certs[1]).contains("BBB"));
    }

    #[test]
    fn smtp_setup_reports_an_unreadable_ca_file() {
        let mut cfg = Config::default();
        cfg.mail.transport = Transport::Smtp;
        cfg.mail.smtp.tls = SmtpTls::Starttls;
        cfg.mail.smtp.ca_file = Some(PathBuf::from("/nonexistent/ca.pem"));
        let err = Mailer::from_config(&cfg).unwrap_err();
        assert!(err.to_string().contains("/nonexistent/ca.pem"), "{err}");
    }

    #[test]
    fn mailer_describes_its_transport() {
        let mut cfg = Config::default();
        assert_eq!(
            Mailer::from_config(&cfg).unwrap().describe(),
            "file into outbox"
        );
        cfg.mail.transport = Transport::Smtp;
        cfg.mail.smtp.tls = SmtpTls::Tls;
        cfg.mail.smtp.host = "smtp.example.org".into();
        assert_eq!(
            Mailer::from_config(&cfg).unwrap().describe(),
            "smtp to smtp.example.org:465 (tls = tls)"
        );
    }
}

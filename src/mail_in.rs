//! One incoming mail in, what to do with it out.
//!
//! [`parse`] reads one RFC 5322 message (with mail-parser) and returns an [`Incoming`]: the key that makes
//! a message processed only once, where to reply, whether the mail must be ignored silently (bounces,
//! autoreplies, lists, our own mail looping back), the command lines to run and the comment for the
//! other players.
//!
//! As with pbmserv, the Subject holds the command and the body is the comment; Subject `mult` (or
//! `multiple`) makes each body line a command; a Subject that is no command (a player hit Reply on a
//! board mail) makes the body's command lines the commands and its other lines the comment. Quoted
//! lines, everything after a signature line and the quoted tail mail clients add are never acted on.
//!
//! Nothing here trusts the input: the size, the parts, the lines and the commands read are bounded by
//! [`MailLimits`], and any bytes at all give an answer (never a panic).

use std::fmt;

use mail_parser::{HeaderValue, Message, MessageParser, MimeHeaders, PartType};
use sha2::{Digest, Sha256};

use crate::command::{is_address, line_passwords, looks_like_command, mask_secrets};

/// Body lines longer than this many characters are cut (commands are short; a megabyte line is not).
pub const MAX_LINE_CHARS: usize = 1000;

/// The most References kept for threading the reply (the newest ones).
pub const MAX_REFERENCES: usize = 20;

/// How much of a message is read at most.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailLimits {
    /// Raw bytes beyond this are not parsed.
    pub max_bytes: usize,
    /// Body lines beyond this are not read.
    pub max_lines: usize,
    /// MIME parts beyond this many are not looked at.
    pub max_parts: usize,
    /// Commands beyond this many are not run.
    pub max_commands: usize,
}

impl Default for MailLimits {
    /// 1 MiB, 10 000 lines, 50 parts, 20 commands: far more than any player's mail needs.
    fn default() -> Self {
        MailLimits {
            max_bytes: 1 << 20,
            max_lines: 10_000,
            max_parts: 50,
            max_commands: 20,
        }
    }
}

/// Why a mail is neither answered nor acted on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SilentReason {
    /// `Auto-Submitted` with a value other than `no` (the value).
    AutoSubmitted(String),
    /// `Precedence: bulk`, `junk`, `list` or `auto_reply` (the value).
    Precedence(String),
    /// `Return-Path: <>`: a bounce or other mail that must not be answered.
    EmptyReturnPath,
    /// From a mail system (`MAILER-DAEMON`, `postmaster`): the address.
    MailerDaemon(String),
    /// A delivery status or disposition report (the content type).
    DeliveryReport(String),
    /// Carries our own `X-Loop` header: our own mail came back.
    OwnLoop,
    /// From (or replying to) the server's own address.
    FromSelf,
    /// An autoresponder's header (its name).
    AutoReply(String),
    /// Mailing-list traffic (`List-Id`, `List-Unsubscribe`, `Mailing-List` or `X-Mailing-List`: the
    /// header and its value).
    MailingList(String),
}

impl fmt::Display for SilentReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SilentReason::AutoSubmitted(v) => write!(f, "automatic mail (Auto-Submitted: {v})"),
            SilentReason::Precedence(v) => write!(f, "bulk mail (Precedence: {v})"),
            SilentReason::EmptyReturnPath => f.write_str("a bounce (empty Return-Path)"),
            SilentReason::MailerDaemon(a) => write!(f, "from a mail system ({a})"),
            SilentReason::DeliveryReport(t) => write!(f, "a delivery report ({t})"),
            SilentReason::OwnLoop => f.write_str("our own mail came back (X-Loop)"),
            SilentReason::FromSelf => f.write_str("from the server's own address"),
            SilentReason::AutoReply(h) => write!(f, "an autoreply ({h} header)"),
            SilentReason::MailingList(v) => write!(f, "mailing-list mail ({v})"),
        }
    }
}

/// One incoming message, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Incoming {
    /// What makes this message processed only once: its Message-ID (without `<>`) with the sender's
    /// address (`id from address`), or `sha256:<hex>` of the raw bytes when it has no usable id.
    /// The sender is part of it so that a stranger who sends a mail under a player's future
    /// Message-ID does not make the player's own mail look like a duplicate.
    pub key: String,
    /// The Message-ID, without `<>`, if it has a usable one.
    pub message_id: Option<String>,
    /// Where to reply: Reply-To, else From, as a plain address; `None`: nowhere (drop the mail).
    pub reply_to: Option<String>,
    /// The From address, plain, if usable.
    pub from: Option<String>,
    /// The Subject, decoded, with `Re:`/`Fwd:`/`[tag]` prefixes stripped and control characters made
    /// spaces. It may hold a command with its password: never log or quote it as it stands (quote
    /// [`crate::command::redact_line`] of it).
    pub subject: String,
    /// The message ids from References and In-Reply-To, oldest first, for threading the reply.
    pub references: Vec<String>,
    /// Set when the mail must be neither answered nor acted on (then `commands` is empty).
    pub silent: Option<SilentReason>,
    /// The command lines to run, in order (may be empty: the server answers "no command").
    pub commands: Vec<String>,
    /// The comment for the other players (the passwords of `commands` masked).
    pub comment: String,
    /// What was cut or skipped while reading, for the reply.
    pub notes: Vec<String>,
}

/// Reads one raw message. `own_address` is the server's address (for loop detection); `games` are the
/// names of the games hosted (to tell command lines from prose).
pub fn parse(raw: &[u8], limits: &MailLimits, own_address: &str, games: &[&str]) -> Incoming {
    let hash_key = format!("sha256:{}", hex(&Sha256::digest(raw)));
    let mut notes = Vec::new();
    let data = if raw.len() > limits.max_bytes {
        notes.push(format!(
            "the message was cut at {} bytes (it had {})",
            limits.max_bytes,
            raw.len()
        ));
        &raw[..limits.max_bytes]
    } else {
        raw
    };
    let mut incoming = Incoming {
        key: hash_key,
        message_id: None,
        reply_to: None,
        from: None,
        subject: String::new(),
        references: Vec::new(),
        silent: None,
        commands: Vec::new(),
        comment: String::new(),
        notes,
    };
    // mail-parser 0.11.9 has a `debug_assert!` that some broken nested multiparts trip (a bounce whose
    // parts repeat their parent's boundary, found by fuzzing); in a build with debug assertions that
    // is a panic. A mail that makes the parser panic is a mail we cannot read, not a reason to die.
    let parsed = std::panic::catch_unwind(|| MessageParser::default().parse(data));
    let Some(msg) = parsed.ok().flatten() else {
        incoming
            .notes
            .push("the message could not be read as a mail".to_string());
        return incoming;
    };

    incoming.message_id = msg.message_id().and_then(normalize_id);
    incoming.from = msg
        .from()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .and_then(clean_address);
    let reply_to = msg
        .reply_to()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .and_then(clean_address);
    incoming.reply_to = reply_to.or_else(|| incoming.from.clone());
    if let Some(id) = &incoming.message_id {
        let sender = incoming
            .from
            .as_deref()
            .or(incoming.reply_to.as_deref())
            .unwrap_or("")
            .to_lowercase();
        incoming.key = format!("{id} from {sender}");
    }
    incoming.references = references(&msg);
    incoming.subject = strip_subject_prefixes(&clean_header_text(msg.subject().unwrap_or("")));
    incoming.silent = silent_reason(&msg, data, limits, own_address, &incoming);
    if incoming.silent.is_some() {
        return incoming;
    }

    let text = body_text(&msg, limits, &mut incoming.notes);
    let lines = bounded_lines(&text, limits, &mut incoming.notes);
    let own = own_lines(&lines);

    let subject = incoming.subject.as_str();
    let mut comment_lines: Vec<&str> = Vec::new();
    let mut commands: Vec<String> = Vec::new();
    if subject.eq_ignore_ascii_case("mult") || subject.eq_ignore_ascii_case("multiple") {
        commands.extend(
            own.iter()
                .map(|l| l.trim())
                .filter(|l| !l.is_empty())
                .map(str::to_string),
        );
    } else if looks_like_command(subject, games) {
        commands.push(cut_chars(subject, MAX_LINE_CHARS).to_string());
        comment_lines = own;
    } else {
        for l in own {
            if looks_like_command(l, games) {
                commands.push(l.trim().to_string());
            } else {
                comment_lines.push(l);
            }
        }
    }
    if commands.len() > limits.max_commands {
        incoming.notes.push(format!(
            "only the first {} commands were read; the other {} were ignored",
            limits.max_commands,
            commands.len() - limits.max_commands
        ));
        commands.truncate(limits.max_commands);
    }
    // The passwords of the commands, and of command lines that stay in the comment (a Subject command
    // with more commands in the body), must not reach the other players.
    let secrets: Vec<&str> = commands
        .iter()
        .map(String::as_str)
        .chain(
            comment_lines
                .iter()
                .copied()
                .filter(|l| looks_like_command(l, games)),
        )
        .flat_map(line_passwords)
        .collect();
    incoming.comment = mask_secrets(&tidy_comment(&comment_lines), &secrets);
    incoming.commands = commands;
    incoming
}

/// The first `n` characters of `s`.
fn cut_chars(s: &str, n: usize) -> &str {
    s.char_indices().nth(n).map_or(s, |(i, _)| &s[..i])
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A message id without its `<>`, if it is one we can store and compare: printable, no spaces, not
/// absurdly long.
fn normalize_id(id: &str) -> Option<String> {
    let id = id.trim();
    let id = id.strip_prefix('<').unwrap_or(id);
    let id = id.strip_suffix('>').unwrap_or(id).trim();
    (!id.is_empty()
        && id.len() <= 250
        && id
            .chars()
            .all(|c| !c.is_control() && !c.is_whitespace() && c != '<' && c != '>'))
    .then(|| id.to_string())
}

/// A plain address we can send to, or `None` (control characters, spaces or no `@`: someone trying to
/// smuggle headers, or garbage).
fn clean_address(a: &str) -> Option<String> {
    let a = a.trim();
    is_address(a).then(|| a.to_string())
}

fn references(msg: &Message<'_>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for value in [msg.references(), msg.in_reply_to()] {
        let ids: Vec<&str> = match value {
            HeaderValue::Text(t) => vec![t.as_ref()],
            HeaderValue::TextList(l) => l.iter().map(|t| t.as_ref()).collect(),
            _ => Vec::new(),
        };
        for id in ids.into_iter().filter_map(normalize_id) {
            if !out.contains(&id) {
                out.push(id);
            }
        }
    }
    if out.len() > MAX_REFERENCES {
        out.drain(..out.len() - MAX_REFERENCES);
    }
    out
}

/// Control characters (an encoded CR/LF, a tab) become spaces; runs of spaces one space.
fn clean_header_text(s: &str) -> String {
    s.split(|c: char| c.is_control() || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Strips the reply and forward prefixes clients add (`Re:`, `RE[2]:`, `Fwd:`, `Fw:`, `AW:`, `WG:`,
/// `SV:`, `VS:`, `Antw:`, `TR:`) and `[tags]`, however many and in any order.
pub fn strip_subject_prefixes(subject: &str) -> String {
    const PREFIXES: &[&str] = &[
        "re", "fwd", "fw", "aw", "wg", "sv", "vs", "antw", "tr", "rif", "res", "enc",
    ];
    let mut s = subject.trim();
    loop {
        if let Some(rest) = s.strip_prefix('[')
            && let Some(end) = rest.find(']')
            && end <= 60
        {
            s = rest[end + 1..].trim_start();
            continue;
        }
        if let Some(colon) = s.find(':') {
            let word = s[..colon].trim_end();
            // `Re[2]`, `Re(2)`, `RE^2`: a counter after the prefix.
            let base = word
                .split(['[', '(', '^'])
                .next()
                .unwrap_or(word)
                .to_ascii_lowercase();
            let counter_ok = word[base.len()..]
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '[' | ']' | '(' | ')' | '^'));
            if PREFIXES.contains(&base.as_str()) && counter_ok {
                s = s[colon + 1..].trim_start();
                continue;
            }
        }
        return s.trim_end().to_string();
    }
}

/// The header values of the top-level headers named `name` (ignoring case), raw, unfolded, trimmed.
fn raw_headers(msg: &Message<'_>, data: &[u8], name: &str) -> Vec<String> {
    msg.headers()
        .iter()
        .filter(|h| h.name().eq_ignore_ascii_case(name))
        .map(|h| {
            let bytes = data
                .get(h.offset_start() as usize..h.offset_end() as usize)
                .unwrap_or_default();
            clean_header_text(&String::from_utf8_lossy(bytes))
        })
        .collect()
}

fn silent_reason(
    msg: &Message<'_>,
    data: &[u8],
    limits: &MailLimits,
    own_address: &str,
    incoming: &Incoming,
) -> Option<SilentReason> {
    // Delivery reports first: they are the one kind of mail that reliably quotes our own mail whole.
    for part in msg.parts.iter().take(limits.max_parts.max(1)) {
        if let Some(ct) = part.content_type() {
            let full = format!(
                "{}/{}",
                ct.ctype().to_ascii_lowercase(),
                ct.subtype().unwrap_or("").to_ascii_lowercase()
            );
            if matches!(
                full.as_str(),
                "multipart/report"
                    | "message/delivery-status"
                    | "message/global-delivery-status"
                    | "message/disposition-notification"
            ) {
                return Some(SilentReason::DeliveryReport(full));
            }
        }
    }
    let header = |name: &str| raw_headers(msg, data, name);
    for v in header("Auto-Submitted") {
        let kind = v
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        if kind != "no" {
            return Some(SilentReason::AutoSubmitted(v));
        }
    }
    for v in header("Precedence") {
        let p = v.trim().to_ascii_lowercase();
        if matches!(
            p.as_str(),
            "bulk" | "junk" | "list" | "auto_reply" | "auto-reply"
        ) {
            return Some(SilentReason::Precedence(p));
        }
    }
    // `X-Auto-Response-Suppress` is what Exchange puts on its own automatic mail: whoever sets it
    // asks not to be answered automatically, and we are an automatic answerer.
    for name in [
        "X-Autoreply",
        "X-Autorespond",
        "X-Autoresponder",
        "X-Auto-Response-Suppress",
    ] {
        if !header(name).is_empty() {
            return Some(SilentReason::AutoReply(name.to_string()));
        }
    }
    for name in [
        "List-Id",
        "List-Unsubscribe",
        "Mailing-List",
        "X-Mailing-List",
    ] {
        if let Some(v) = header(name).into_iter().next() {
            return Some(SilentReason::MailingList(format!("{name}: {v}")));
        }
    }
    if header("Return-Path")
        .first()
        .is_some_and(|v| v.chars().filter(|c| !c.is_whitespace()).eq("<>".chars()))
    {
        return Some(SilentReason::EmptyReturnPath);
    }
    let own = own_address.trim();
    if !own.is_empty() {
        for v in header("X-Loop") {
            let v = v
                .trim()
                .trim_start_matches('<')
                .trim_end_matches('>')
                .trim();
            if v.eq_ignore_ascii_case(own) {
                return Some(SilentReason::OwnLoop);
            }
        }
    }
    // The raw From, since a bounce's `From: MAILER-DAEMON` often has no domain and is no address.
    let from_raw = header("From").into_iter().next().unwrap_or_default();
    let addr = match (from_raw.rfind('<'), from_raw.rfind('>')) {
        (Some(a), Some(b)) if a < b => from_raw[a + 1..b].trim(),
        _ => from_raw.trim(),
    };
    let local = addr
        .split('@')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    let from_raw = addr.to_string();
    if matches!(
        local.as_str(),
        "mailer-daemon" | "mailer" | "postmaster" | "mail-daemon"
    ) {
        return Some(SilentReason::MailerDaemon(from_raw));
    }
    if !own.is_empty()
        && [&incoming.from, &incoming.reply_to]
            .into_iter()
            .flatten()
            .any(|a| a.eq_ignore_ascii_case(own))
    {
        return Some(SilentReason::FromSelf);
    }
    None
}

/// The text of the message body: the first text/plain body part, else the text of the first HTML one.
fn body_text(msg: &Message<'_>, limits: &MailLimits, notes: &mut Vec<String>) -> String {
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

/// Joins the lines a `format=flowed` text (RFC 3676) broke softly: a line ending in a space goes on
/// with the next line of the same quote depth. Thunderbird wraps at 72 columns this way, which would
/// otherwise cut a long command in two. Space-stuffing is undone; the signature line `-- ` stays.
fn unflow(text: &str, delsp: bool) -> String {
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

/// The body's lines, trailing spaces and invisible characters removed, long lines cut, at most
/// `max_lines` of them.
fn bounded_lines(text: &str, limits: &MailLimits, notes: &mut Vec<String>) -> Vec<String> {
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
    line == "--"
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
    if ends_with_wrote(l) {
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
fn own_lines(lines: &[String]) -> Vec<&str> {
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
fn tidy_comment(lines: &[&str]) -> String {
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

    const OWN: &str = "pbem@example.org";
    const GAMES: &[&str] = &["limit"];

    fn mail(headers: &str, body: &str) -> Vec<u8> {
        format!("{headers}\r\n\r\n{body}")
            .replace("\r\n", "\n")
            .replace('\n', "\r\n")
            .into_bytes()
    }

    fn read(raw: &[u8]) -> Incoming {
        parse(raw, &MailLimits::default(), OWN, GAMES)
    }

    const H: &str =
        "From: Alice <alice@example.org>\nTo: pbem@example.org\nMessage-ID: <m1@example.org>";

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
    fn subject_prefixes() {
        let cases = [
            ("Re: limit show 101", "limit show 101"),
            ("RE: Fwd: re:limit show 101", "limit show 101"),
            ("AW: WG: Limit Board 101 Blue", "Limit Board 101 Blue"),
            ("Re[2]: mult", "mult"),
            ("[pbem] Re: [ext] limit help", "limit help"),
            ("  Fw:  SV: VS: Antw: TR: x  ", "x"),
            ("Regarding: something", "Regarding: something"),
            (
                "limit move 101 alice pw 3-7,4",
                "limit move 101 alice pw 3-7,4",
            ),
            ("Re:", ""),
            ("[unclosed tag", "[unclosed tag"),
        ];
        for (s, want) in cases {
            assert_eq!(strip_subject_prefixes(s), want, "{s:?}");
        }
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
    fn flowed_text_is_joined() {
        let t =
            "a long \nline\n> quoted \n> more\nnot joined \n> to a quote\n-- \nsig\n \u{20}stuffed";
        assert_eq!(
            unflow(t, false),
            "a long line\n> quoted more\nnot joined \n> to a quote\n-- \nsig\n stuffed\n"
        );
        assert_eq!(unflow("del \nsp", true), "delsp\n");
    }

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
        ];
        for (t, want) in cases {
            let lines = text(t);
            assert_eq!(own_lines(&lines), *want, "{t:?}");
        }
    }

    #[test]
    fn subject_command_body_comment() {
        let m = read(&mail(
            &format!("{H}\nSubject: Re: limit move 101 alice secret 3-7,4"),
            "Nice try, Bob!\n\nMy secret plan works.\n",
        ));
        assert_eq!(m.key, "m1@example.org from alice@example.org");
        assert_eq!(m.message_id.as_deref(), Some("m1@example.org"));
        assert_eq!(m.reply_to.as_deref(), Some("alice@example.org"));
        assert_eq!(m.silent, None);
        assert_eq!(m.commands, vec!["limit move 101 alice secret 3-7,4"]);
        assert_eq!(m.comment, "Nice try, Bob!\n\nMy **** plan works.");
    }

    #[test]
    fn mult_and_body_commands() {
        let m = read(&mail(
            &format!("{H}\nSubject: MULT"),
            "limit show 101\n\n  signup carol pw  \nhello\n> limit move 1 a b c\n-- \nlimit show 999\n",
        ));
        assert_eq!(
            m.commands,
            vec!["limit show 101", "signup carol pw", "hello"]
        );
        assert_eq!(m.comment, "");

        let m = read(&mail(
            &format!("{H}\nSubject: Re: Limit Board 101 Blue"),
            "Hi Bob,\nlimit move 101 alice secret 3-7,4\ngood game\n",
        ));
        assert_eq!(m.subject, "Limit Board 101 Blue");
        assert_eq!(m.commands, vec!["limit move 101 alice secret 3-7,4"]);
        assert_eq!(m.comment, "Hi Bob,\ngood game");
    }

    #[test]
    fn silent_mail() {
        let cases: &[(&str, SilentReason)] = &[
            (
                "Auto-Submitted: auto-replied",
                SilentReason::AutoSubmitted("auto-replied".into()),
            ),
            (
                "Auto-Submitted: auto-generated; owner-email=x",
                SilentReason::AutoSubmitted("auto-generated; owner-email=x".into()),
            ),
            ("Precedence: Bulk", SilentReason::Precedence("bulk".into())),
            ("Precedence: list", SilentReason::Precedence("list".into())),
            (
                "X-Autoreply: yes",
                SilentReason::AutoReply("X-Autoreply".into()),
            ),
            (
                "X-Autorespond: yes",
                SilentReason::AutoReply("X-Autorespond".into()),
            ),
            (
                "List-Id: <games.lists.example.org>",
                SilentReason::MailingList("List-Id: <games.lists.example.org>".into()),
            ),
            (
                "Precedence: auto_reply",
                SilentReason::Precedence("auto_reply".into()),
            ),
            (
                "X-Auto-Response-Suppress: All",
                SilentReason::AutoReply("X-Auto-Response-Suppress".into()),
            ),
            (
                "List-Unsubscribe: <mailto:leave@lists.example.org>",
                SilentReason::MailingList(
                    "List-Unsubscribe: <mailto:leave@lists.example.org>".into(),
                ),
            ),
            (
                "Mailing-List: contact games-help@example.org",
                SilentReason::MailingList("Mailing-List: contact games-help@example.org".into()),
            ),
            (
                "X-Mailing-List: games@example.org",
                SilentReason::MailingList("X-Mailing-List: games@example.org".into()),
            ),
            ("Return-Path: < >", SilentReason::EmptyReturnPath),
            ("X-Loop: PBEM@Example.org", SilentReason::OwnLoop),
            ("Reply-To: pbem@example.org", SilentReason::FromSelf),
        ];
        for (extra, want) in cases {
            let m = read(&mail(
                &format!("{H}\n{extra}\nSubject: limit move 101 alice secret 3-7,4"),
                "limit move 101 alice secret 3-7,4\n",
            ));
            assert_eq!(m.silent.as_ref(), Some(want), "{extra}");
            assert!(m.commands.is_empty(), "{extra}");
            assert!(!want.to_string().is_empty());
        }
        for extra in [
            "Auto-Submitted: no",
            "Precedence: first-class",
            "X-Loop: other@example.org",
        ] {
            let m = read(&mail(&format!("{H}\n{extra}\nSubject: limit show 101"), ""));
            assert_eq!(m.silent, None, "{extra}");
            assert_eq!(m.commands, vec!["limit show 101"]);
        }
        let m = read(&mail(
            "From: MAILER-DAEMON\nSubject: Undelivered Mail Returned to Sender",
            "limit move 101 alice secret 3-7,4\n",
        ));
        assert_eq!(
            m.silent,
            Some(SilentReason::MailerDaemon("MAILER-DAEMON".into()))
        );
        for from in ["mailer@example.org", "Postmaster@example.org"] {
            let m = read(&mail(&format!("From: {from}\nSubject: limit show 101"), ""));
            assert_eq!(
                m.silent,
                Some(SilentReason::MailerDaemon(from.into())),
                "{from}"
            );
        }
    }

    #[test]
    fn limits_are_enforced() {
        let limits = MailLimits {
            max_bytes: 10_000,
            max_lines: 5,
            max_parts: 50,
            max_commands: 2,
        };
        let body = "limit show 101\nlimit show 102\nlimit show 103\nx\ny\nz\nw\n";
        let m = parse(
            &mail(&format!("{H}\nSubject: mult"), body),
            &limits,
            OWN,
            GAMES,
        );
        assert_eq!(m.commands, vec!["limit show 101", "limit show 102"]);
        assert!(
            m.notes.iter().any(|n| n.contains("cut at 5 lines")),
            "{:?}",
            m.notes
        );
        assert!(
            m.notes.iter().any(|n| n.contains("first 2 commands")),
            "{:?}",
            m.notes
        );

        let long = format!("limit show 101 {}\n", "9".repeat(5000));
        let m = read(&mail(&format!("{H}\nSubject: mult"), &long));
        assert_eq!(m.commands[0].chars().count(), MAX_LINE_CHARS);
        assert!(m.notes.iter().any(|n| n.contains("overlong")));

        let big = mail(
            &format!("{H}\nSubject: limit show 101"),
            &"x\n".repeat(50_000),
        );
        let small = MailLimits {
            max_bytes: 1000,
            ..MailLimits::default()
        };
        let m = parse(&big, &small, OWN, GAMES);
        assert_eq!(m.commands, vec!["limit show 101"]);
        assert!(m.notes.iter().any(|n| n.contains("cut at 1000 bytes")));
    }

    #[test]
    fn hash_key_without_message_id() {
        let raw = mail("From: alice@example.org\nSubject: limit show 101", "hi\n");
        let a = read(&raw);
        assert!(
            a.key.starts_with("sha256:") && a.key.len() == 7 + 64,
            "{}",
            a.key
        );
        assert_eq!(a.message_id, None);
        assert_eq!(read(&raw).key, a.key);
        let other = read(&mail(
            "From: alice@example.org\nSubject: limit show 102",
            "hi\n",
        ));
        assert_ne!(other.key, a.key);
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

    #[test]
    fn subject_command_keeps_body_commands_passwords_hidden() {
        let m = read(&mail(
            &format!("{H}\nSubject: limit show 101"),
            "Also:\nlimit move 101 alice secret 3-7,4\n",
        ));
        assert_eq!(m.commands, vec!["limit show 101"]);
        assert_eq!(m.comment, "Also:\nlimit move 101 alice **** 3-7,4");
    }

    #[test]
    fn garbage_never_panics() {
        for raw in [
            &b""[..],
            b"\xff\xfe\x00garbage",
            b"Subject: \xff\xff limit show 101\r\n\r\n\xc3\x28\xa0\xa1",
            b"From: <>\r\n\r\n",
            b"Content-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\n--x--",
        ] {
            let m = read(raw);
            assert!(!m.key.is_empty());
        }
    }

    mod props {
        use super::super::*;
        use proptest::prelude::*;

        proptest! {
            #[test]
            fn any_bytes_any_answer(raw in proptest::collection::vec(any::<u8>(), 0..2000)) {
                let m = parse(&raw, &MailLimits::default(), "pbem@example.org", &["limit"]);
                prop_assert!(!m.key.is_empty());
                prop_assert!(m.commands.len() <= MailLimits::default().max_commands);
            }

            #[test]
            fn header_shaped_noise(
                subject in "\\PC{0,60}",
                body in "[ -~\n>]{0,400}",
            ) {
                let raw = format!("From: a@example.org\r\nSubject: {subject}\r\n\r\n{body}");
                let m = parse(raw.as_bytes(), &MailLimits::default(), "pbem@example.org", &["limit"]);
                for c in &m.commands {
                    prop_assert!(!c.starts_with('>'));
                }
            }
        }
    }
}

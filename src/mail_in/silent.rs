//! Mail that is never answered: bounces, autoreplies, list mail, our own mail coming back.

use mail_parser::{Message, MimeHeaders};

use super::{Incoming, MailLimits, SilentReason, clean_header_text};

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

/// Why the mail must get no answer at all, or `None` when it may be answered.
pub(super) fn silent_reason(
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

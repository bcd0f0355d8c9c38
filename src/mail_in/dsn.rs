//! Delivery status notifications (RFC 3464): what a report that came back to a mail's bounce address
//! says of each recipient.
//!
//! Only the machine-readable part is read (`message/delivery-status`, or the UTF-8 `global` one of
//! RFC 6533): the human text of a bounce differs between every MTA and language, the fields do not.

use mail_parser::{MessageParser, MimeHeaders};

/// Fields of one recipient longer than this are cut (a `Diagnostic-Code` can quote a whole SMTP
/// session); the report is kept for the admin, not parsed further.
const MAX_FIELD_CHARS: usize = 300;

/// At most this many recipients of one report are read.
const MAX_RECIPIENTS: usize = 50;

/// What a report says of one recipient.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecipientStatus {
    /// `Final-Recipient`: the address the reporting MTA tried, plain (`bob@example.org`).
    pub final_recipient: Option<String>,
    /// `Original-Recipient`: the address as pbem sent it, when the MTA kept it.
    pub original_recipient: Option<String>,
    /// `Action`, lowercase: `failed`, `delayed`, `delivered`, `relayed` or `expanded`.
    pub action: String,
    /// `Status`: the enhanced status code (`5.2.1`).
    pub status: String,
    /// `Diagnostic-Code` without its type (`550 5.2.1 mailbox disabled`), if any.
    pub diagnostic: Option<String>,
}

impl RecipientStatus {
    /// True when the MTA gave the mail up for this recipient: the mail was not delivered and will
    /// not be (RFC 3464 2.3.3: `failed`), whatever the status class (a 4.x.x that timed out is
    /// final too).
    pub fn failed(&self) -> bool {
        self.action == "failed"
    }

    /// One line for the log and `pbem outbox list`: the status and what the far end said.
    pub fn refusal(&self) -> String {
        match &self.diagnostic {
            Some(d) => format!("delivery report: {} ({d})", self.status),
            None => format!("delivery report: {}", self.status),
        }
    }
}

/// The recipients' statuses of a delivery report; `None` when `raw` is no RFC 3464 report (no
/// `message/delivery-status` part among its first `max_parts` parts).
pub fn delivery_statuses(raw: &[u8], max_parts: usize) -> Option<Vec<RecipientStatus>> {
    // The parser's debug assertion on some broken multiparts (see `mail_in::parse`).
    let msg = std::panic::catch_unwind(|| MessageParser::default().parse(raw))
        .ok()
        .flatten()?;
    let part = msg.parts.iter().take(max_parts.max(1)).find(|p| {
        p.content_type().is_some_and(|ct| {
            ct.ctype().eq_ignore_ascii_case("message")
                && ct.subtype().is_some_and(|s| {
                    s.eq_ignore_ascii_case("delivery-status")
                        || s.eq_ignore_ascii_case("global-delivery-status")
                })
        })
    })?;
    Some(parse_fields(&String::from_utf8_lossy(part.contents())))
}

/// The per-recipient groups of a `message/delivery-status` body: blocks of header-like fields
/// separated by blank lines, the first of which is about the message (RFC 3464 2.2).
fn parse_fields(body: &str) -> Vec<RecipientStatus> {
    let mut groups: Vec<Vec<(String, String)>> = vec![Vec::new()];
    for line in body.lines() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() {
            if groups.last().is_some_and(|g| !g.is_empty()) {
                groups.push(Vec::new());
            }
            continue;
        }
        let group = groups.last_mut().expect("never empty");
        if line.starts_with([' ', '\t']) {
            // A folded field goes on.
            if let Some((_, value)) = group.last_mut() {
                value.push(' ');
                value.push_str(line.trim());
            }
            continue;
        }
        if let Some((name, value)) = line.split_once(':') {
            group.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
        }
    }
    let field = |g: &[(String, String)], name: &str| {
        g.iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| cut(v).to_string())
    };
    groups
        .iter()
        .filter(|g| field(g, "action").is_some())
        .take(MAX_RECIPIENTS)
        .map(|g| RecipientStatus {
            final_recipient: field(g, "final-recipient").and_then(|v| address_of(&v)),
            original_recipient: field(g, "original-recipient").and_then(|v| address_of(&v)),
            action: field(g, "action").unwrap_or_default().to_ascii_lowercase(),
            status: field(g, "status").unwrap_or_default(),
            diagnostic: field(g, "diagnostic-code").map(|v| match v.split_once(';') {
                Some((_, said)) => said.trim().to_string(),
                None => v,
            }),
        })
        .collect()
}

/// The address of a recipient field (`rfc822; bob@example.org`, `rfc822;<bob@example.org>`),
/// lowercase; `None` for another address type or no address.
fn address_of(value: &str) -> Option<String> {
    let (kind, address) = value.split_once(';')?;
    let kind = kind.trim();
    if !kind.eq_ignore_ascii_case("rfc822") && !kind.eq_ignore_ascii_case("utf-8") {
        return None;
    }
    let address = address.trim().trim_start_matches('<').trim_end_matches('>');
    (address.contains('@') && !address.contains(char::is_whitespace))
        .then(|| address.to_lowercase())
}

fn cut(s: &str) -> &str {
    s.char_indices()
        .nth(MAX_FIELD_CHARS)
        .map_or(s, |(i, _)| &s[..i])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The report of Postfix 3.7's `error:5.2.1` transport, as it came back in scripts/postfix-e2e.sh.
    const POSTFIX: &str = "Return-Path: <>\r\nFrom: MAILER-DAEMON@vm (Mail Delivery System)\r\n\
        Subject: Undelivered Mail Returned to Sender\r\nTo: play+b7-0123456789abcdef01234567@localhost\r\n\
        Auto-Submitted: auto-replied\r\nMIME-Version: 1.0\r\n\
        Content-Type: multipart/report; report-type=delivery-status;\r\n\tboundary=\"B1/vm\"\r\n\r\n\
        --B1/vm\r\nContent-Description: Notification\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\n\
        I'm sorry to have to inform you that your message could not\r\nbe delivered.\r\n\r\n\
        --B1/vm\r\nContent-Description: Delivery report\r\nContent-Type: message/delivery-status\r\n\r\n\
        Reporting-MTA: dns; vm\r\nX-Postfix-Queue-ID: 4DqS00aaaaz9\r\n\r\n\
        Final-Recipient: rfc822; bob@example.org\r\nOriginal-Recipient: rfc822;Bob@Example.org\r\n\
        Action: failed\r\nStatus: 5.2.1\r\nDiagnostic-Code: X-Postfix; mailbox\r\n    disabled\r\n\r\n\
        Final-Recipient: rfc822; carol@example.org\r\nAction: delayed\r\nStatus: 4.4.1\r\n\r\n\
        --B1/vm\r\nContent-Description: Undelivered Message Headers\r\nContent-Type: text/rfc822-headers\r\n\r\n\
        Subject: Limit Board 101\r\n\r\n--B1/vm--\r\n";

    #[test]
    fn a_postfix_report_gives_each_recipients_action_status_and_diagnostic() {
        let got = delivery_statuses(POSTFIX.as_bytes(), 10).unwrap();
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(got[0].final_recipient.as_deref(), Some("bob@example.org"));
        assert_eq!(
            got[0].original_recipient.as_deref(),
            Some("bob@example.org")
        );
        assert!(got[0].failed());
        assert_eq!(got[0].status, "5.2.1");
        assert_eq!(
            got[0].refusal(),
            "delivery report: 5.2.1 (mailbox disabled)"
        );
        assert!(!got[1].failed(), "a delay is no refusal");
    }

    #[test]
    fn mail_without_a_delivery_status_part_is_no_report() {
        let plain = "From: bob@example.org\r\nSubject: I am on holiday\r\n\r\nBack on Monday.\r\n";
        assert_eq!(delivery_statuses(plain.as_bytes(), 10), None);
        // The human part alone (a report whose status part was cut away) says nothing machine-read.
        let cut = POSTFIX.replace("message/delivery-status", "text/plain");
        assert_eq!(delivery_statuses(cut.as_bytes(), 10), None);
    }

    #[test]
    fn recipient_fields_of_another_address_type_are_not_taken_as_addresses() {
        let got = parse_fields("Final-Recipient: x400; /G=bob\nAction: failed\nStatus: 5.1.1\n");
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].final_recipient, None);
    }
}

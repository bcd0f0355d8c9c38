//! Delivery reports (issue 34, item 5b). An MTA such as Postfix takes every mail from `sendmail` and
//! reports a refusal later, by mail to the envelope sender. So every mail goes out with an envelope
//! sender of its own: the server's address with `+b<row>-<mac>` (VERP), the outbox row signed under
//! the server's secret. A report that comes back to such an address names the mail it is about; the
//! recipients it says failed are recorded as refusing, as a relay's 5xx is (`Handling::record_failure`),
//! and are then mailed no more. Nobody who never saw the mail can make such an address.

use std::borrow::Cow;

use super::{Core, IngestOutcome, Server, ServerError};
use crate::mail_in::{Incoming, dsn};
use crate::mail_out::OutgoingMail;
use crate::reply_token;

impl Core {
    /// `mail`, the outbox row `id`, with its signed bounce address as envelope sender; as it is
    /// when there is no secret yet (a mail queued by an older pbem) or `mail.bounce_addresses` is
    /// off.
    pub(super) fn with_return_path<'m>(
        &self,
        secret: Option<&[u8]>,
        id: i64,
        mail: &'m OutgoingMail,
    ) -> Cow<'m, OutgoingMail> {
        let Some(secret) = secret.filter(|_| self.cfg.mail.bounce_addresses) else {
            return Cow::Borrowed(mail);
        };
        let token = reply_token::bounce_token(secret, id);
        let mut signed = mail.clone();
        signed.return_path = Some(reply_token::address(&self.cfg.server.address, &token));
        Cow::Owned(signed)
    }

    /// The bounce token among the mail's recipients (the envelope's first, then the headers'), if
    /// it was sent to a bounce address (checked or not).
    pub(super) fn bounce_token_of<'a>(
        &self,
        envelope: &'a [String],
        incoming: &'a Incoming,
    ) -> Option<&'a str> {
        let own = &self.cfg.server.address;
        envelope
            .iter()
            .chain(&incoming.recipients)
            .filter_map(|r| reply_token::token_of(own, r))
            .find(|t| reply_token::is_bounce_shaped(t))
    }
}

impl Server {
    /// A mail to a bounce address: read as a delivery report about the outbox row it names, and
    /// never answered (whatever it holds, it is no player's command).
    pub(super) fn delivery_report(
        &mut self,
        raw: &[u8],
        token: &str,
    ) -> Result<IngestOutcome, ServerError> {
        let row = self
            .db
            .reply_secret()?
            .and_then(|secret| reply_token::bounce_row(&secret, token));
        let Some(row) = row else {
            return Ok(IngestOutcome::Report(
                "to a bounce address pbem did not make (forged or mangled); nothing recorded"
                    .into(),
            ));
        };
        // The status part comes before the returned mail: what `parse` reads of a mail is enough.
        let kept = &raw[..raw.len().min(self.core.cfg.limits.max_message_bytes)];
        let Some(statuses) = dsn::delivery_statuses(kept, self.core.cfg.limits.max_mime_parts)
        else {
            return Ok(IngestOutcome::Report(format!(
                "to the bounce address of mail {row}, but no delivery report (an autoreply?); \
                 not answered"
            )));
        };
        let mail = self
            .db
            .outbox_mail(row)?
            .and_then(|json| serde_json::from_str::<OutgoingMail>(&json).ok());
        let Some(mail) = mail else {
            return Ok(IngestOutcome::Report(format!(
                "about mail {row}, which the outbox no longer holds; nothing recorded"
            )));
        };
        let mut refused = Vec::new();
        for s in statuses.iter().filter(|s| s.failed()) {
            // The report may name the address the far end tried (a forward's), not ours: with
            // one recipient the signed row says whose it was.
            let named = [&s.original_recipient, &s.final_recipient]
                .into_iter()
                .flatten()
                .find_map(|a| mail.to.iter().find(|t| t.eq_ignore_ascii_case(a)));
            let address = match (named, mail.to.as_slice()) {
                (Some(a), _) => a,
                (None, [only]) => only,
                (None, _) => continue,
            };
            if refused
                .iter()
                .any(|(a, _): &(&String, String)| *a == address)
            {
                continue;
            }
            refused.push((address, s.refusal()));
        }
        if refused.is_empty() {
            let actions: Vec<&str> = statuses.iter().map(|s| s.action.as_str()).collect();
            return Ok(IngestOutcome::Report(format!(
                "about mail {row}: no recipient of it failed (actions: {}); nothing recorded",
                if actions.is_empty() {
                    "none".to_string()
                } else {
                    actions.join(", ")
                }
            )));
        }
        let now = self.core.now;
        let why = refused
            .iter()
            .map(|(_, r)| r.as_str())
            .collect::<Vec<_>>()
            .join("; ");
        self.db.mark_refused(row, now, &why)?;
        for (address, refusal) in &refused {
            self.db.record_bounce(address, now, refusal)?;
        }
        let list: Vec<&str> = refused.iter().map(|(a, _)| a.as_str()).collect();
        Ok(IngestOutcome::Report(format!(
            "mail {row} to {} was refused ({why}); {} is mailed no more until a mail to it gets \
             through (`pbem outbox list`)",
            list.join(", "),
            list.join(", ")
        )))
    }
}

//! The [`Mailer`]: delivers an [`OutgoingMail`] by the configured transport (files, an SMTP relay,
//! the sendmail program) and sorts failures into temporary and permanent ones.

use std::fs;
use std::path::PathBuf;
use std::time::Duration;

use lettre::transport::smtp::authentication::{Credentials, DEFAULT_MECHANISMS};
use lettre::transport::smtp::client::{Certificate, SmtpConnection, TlsParameters};
use lettre::transport::smtp::extension::ClientId;

use super::sendmail::{run_sendmail, run_sendmail_handed_off, spool_files, write_eml};
use super::{MailOutError, OutgoingMail, SendError};
use crate::config::{Config, SmtpConfig, SmtpTls, Transport};

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
    /// reads its status ([`Mailer::handed_off_status`]) instead of sending the mail again. That
    /// status stays on disk until `record` (which marks the row sent) has succeeded.
    pub fn send_outbox<T, E>(
        &self,
        mail: &OutgoingMail,
        row: i64,
        hand_over: impl FnOnce(&crate::sys::ProcessId) -> Result<(), String>,
        record: impl FnOnce() -> Result<T, E>,
    ) -> Result<Result<T, E>, SendError> {
        let MailerKind::Sendmail(cmd, spool) = &self.kind else {
            return self.send_then(mail, record);
        };
        let msg = mail
            .to_message()
            .map_err(|e| SendError::Permanent(e.to_string()))?;
        run_sendmail_handed_off(cmd, spool, row, mail, &msg.formatted(), hand_over).map(|()| {
            let recorded = record();
            if recorded.is_ok() {
                spool_files(spool, row).remove();
            }
            recorded
        })
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
        SendError::Refused(format!("the relay refused the mail: {e}"))
    } else {
        // 4xx, connection refused, timeouts, TLS and protocol trouble: the mail stays queued.
        SendError::Temporary(e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// A sendmail hand-off whose pbem is killed after sendmail took the mail but before the row
    /// is marked sent must leave sendmail's status for `outbox flush`: found by
    /// scripts/postfix-e2e.sh, where such a kill sent one reply twice.
    #[test]
    fn a_handed_off_mail_keeps_its_status_until_it_is_recorded_sent() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let sendmail = dir.path().join("sendmail");
        std::fs::write(&sendmail, "#!/bin/sh\ncat >/dev/null\n").unwrap();
        std::fs::set_permissions(&sendmail, std::fs::Permissions::from_mode(0o755)).unwrap();
        let mut cfg = Config::default();
        cfg.mail.transport = Transport::Sendmail;
        cfg.mail.sendmail_command = sendmail;
        cfg.database.path = dir.path().join("pbem.sqlite");
        let mailer = Mailer::from_config(&cfg).unwrap();
        let mail = OutgoingMail::new(
            &cfg.server,
            vec!["a@example.org".into()],
            "s",
            "b",
            crate::mail_out::AUTO_REPLIED,
            1_795_000_000,
        );
        let status = dir.path().join("pbem.sqlite.sending/7.status");
        // Recording fails (the database busy): the status stays for the flush, which reads it as
        // delivered rather than sending again.
        let seen = mailer
            .send_outbox(&mail, 7, |_| Ok(()), || Err::<(), _>(status.exists()))
            .unwrap();
        assert_eq!(
            seen,
            Err(true),
            "the status was gone while the row was unrecorded"
        );
        assert_eq!(mailer.handed_off_status(7), Some(true));
        assert!(!status.exists());
        // Recorded: then the files go.
        let seen = mailer
            .send_outbox(&mail, 8, |_| Ok(()), || Ok::<_, ()>(()))
            .unwrap();
        assert_eq!(seen, Ok(()));
        assert_eq!(mailer.handed_off_status(8), None);
        assert_eq!(
            std::fs::read_dir(dir.path().join("pbem.sqlite.sending"))
                .unwrap()
                .count(),
            0
        );
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

//! Reading a configuration file and checking every value, with errors that name the file, the line
//! and the fix.

use std::path::{Path, PathBuf};

use thiserror::Error;

use super::{Config, EXAMPLE, Listen, MAX_CLOCK_DAYS, MAX_LMTP_WORKERS, SmtpTls, check_host_port};

/// Why a configuration file could not be used.
#[derive(Debug, Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("cannot read the config file {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not valid TOML, or has a field that does not exist or has the wrong type.
    #[error("{}:{line}:{column}: {message}\n({EXAMPLE})", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// 1-based line of the error (0 when the parser gave no position).
        line: usize,
        /// 1-based column of the error (0 when the parser gave no position).
        column: usize,
        /// What the parser said.
        message: String,
    },
    /// The file parses but a value is not usable.
    #[error("{}: {field}: {message}\n({EXAMPLE})", path.display())]
    Invalid {
        /// The file (or `<built-in defaults>`).
        path: PathBuf,
        /// The offending field, as `section.key`.
        field: String,
        /// What is wrong and what to write instead.
        message: String,
    },
}

/// A warning when the configuration file at `path` holds the SMTP relay password (`[mail.smtp]
/// password`) and its group or others may read it: anyone with a shell on the machine could then send
/// mail as the server. `None` when there is no password or only the owner can read the file.
pub fn exposed_secret(path: &Path, cfg: &Config) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    cfg.mail.smtp.password.as_ref()?;
    let mode = std::fs::metadata(path).ok()?.permissions().mode();
    let readers = match (mode & 0o040 != 0, mode & 0o004 != 0) {
        (true, true) => "its group and all users",
        (true, false) => "its group",
        (false, true) => "all users",
        (false, false) => return None,
    };
    Some(format!(
        "{} holds the SMTP password ([mail.smtp] password) and {readers} can read it (mode {:03o}): \
         chmod 600 {}",
        path.display(),
        mode & 0o777,
        path.display()
    ))
}

impl Config {
    /// Reads the configuration: `None` gives the built-in defaults, `Some(path)` reads that TOML file
    /// (missing fields take their defaults) and checks every value.
    pub fn load(path: Option<&Path>) -> Result<Config, ConfigError> {
        let Some(path) = path else {
            let cfg = Config::default();
            cfg.validate(Path::new("<built-in defaults>"))?;
            return Ok(cfg);
        };
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Config::from_toml(&text, path)
    }

    /// Parses and checks TOML text; `path` is only used in error messages.
    pub fn from_toml(text: &str, path: &Path) -> Result<Config, ConfigError> {
        let cfg: Config = toml::from_str(text).map_err(|e| {
            let (line, column) = e
                .span()
                .map(|s| line_column(text, s.start))
                .unwrap_or((0, 0));
            ConfigError::Parse {
                path: path.to_path_buf(),
                line,
                column,
                message: e.message().trim_end().to_string(),
            }
        })?;
        cfg.validate(path)?;
        for warning in cfg.warnings() {
            eprintln!("pbem: {}: {warning}", path.display());
        }
        Ok(cfg)
    }

    /// Settings that are accepted but have no effect, worded for the admin.
    pub fn warnings(&self) -> Vec<String> {
        let l = &self.limits;
        let mut out = Vec::new();
        for (key, set) in [
            (
                "login_failures_before_lockout",
                l.login_failures_before_lockout.is_some(),
            ),
            ("lockout_minutes", l.lockout_minutes.is_some()),
        ] {
            if set {
                out.push(format!(
                    "limits.{key} is retired and ignored: accounts are no longer locked (a stranger \
                     could lock a player out). Wrong passwords are throttled per hour instead, by \
                     limits.password_failures_per_sender_per_hour and \
                     limits.password_failures_per_account_per_hour; remove the line."
                ));
            }
        }
        out
    }

    /// Checks the values that TOML types alone cannot.
    fn validate(&self, path: &Path) -> Result<(), ConfigError> {
        let bad = |field: &str, message: String| ConfigError::Invalid {
            path: path.to_path_buf(),
            field: field.to_string(),
            message,
        };
        if let Err(e) = crate::accounts::check_address(&self.server.address) {
            return Err(bad("server.address", e.to_string()));
        }
        if self.server.name.chars().any(char::is_control) || self.server.name.contains('"') {
            return Err(bad(
                "server.name",
                "must not contain control characters or double quotes; write e.g. name = \"pbem\""
                    .to_string(),
            ));
        }
        let host = self.server.message_id_host();
        if !is_hostname(host) {
            return Err(bad(
                if self.server.hostname.is_some() {
                    "server.hostname"
                } else {
                    "server.address"
                },
                format!(
                    "{host:?} is not a usable host name for Message-IDs; write letters, digits, \
                     '-' and '.', e.g. hostname = \"games.example.org\""
                ),
            ));
        }
        if self.database.path.as_os_str().is_empty() {
            return Err(bad(
                "database.path",
                "is empty; write a file name, e.g. path = \"pbem.sqlite\"".to_string(),
            ));
        }
        if self.mail.outbox_dir.as_os_str().is_empty() {
            return Err(bad(
                "mail.outbox_dir",
                "is empty; write a folder, e.g. outbox_dir = \"outbox\"".to_string(),
            ));
        }
        if self.mail.sendmail_command.as_os_str().is_empty() {
            return Err(bad(
                "mail.sendmail_command",
                "is empty; write the program, e.g. sendmail_command = \"/usr/sbin/sendmail\""
                    .to_string(),
            ));
        }
        let smtp = &self.mail.smtp;
        if !is_hostname(&smtp.host) && smtp.host.parse::<std::net::IpAddr>().is_err() {
            return Err(bad(
                "mail.smtp.host",
                format!(
                    "{:?} is not a host name or IP address; write e.g. host = \"smtp.example.org\"",
                    smtp.host
                ),
            ));
        }
        if smtp.port == Some(0) {
            return Err(bad(
                "mail.smtp.port",
                "0 is not a port; write e.g. port = 587, or leave it out for the usual port"
                    .to_string(),
            ));
        }
        if smtp.timeout_secs == 0 {
            return Err(bad(
                "mail.smtp.timeout_secs",
                "must be at least 1; write e.g. timeout_secs = 30".to_string(),
            ));
        }
        match (&smtp.username, &smtp.password) {
            (Some(_), None) => {
                return Err(bad(
                    "mail.smtp.password",
                    "is missing: username is set, so write password = \"...\" too".to_string(),
                ));
            }
            (None, Some(_)) => {
                return Err(bad(
                    "mail.smtp.username",
                    "is missing: password is set, so write username = \"...\" too".to_string(),
                ));
            }
            (Some(_), Some(_)) if smtp.tls == SmtpTls::None && !is_loopback(&smtp.host) => {
                // A login over plain text to another machine gives the password away.
                return Err(bad(
                    "mail.smtp.tls",
                    format!(
                        "is \"none\" but a login is configured for {}; write tls = \"starttls\" or \
                         tls = \"tls\" (plain-text logins are only allowed to localhost)",
                        smtp.host
                    ),
                ));
            }
            _ => {}
        }
        let pw = &self.passwords;
        if let Err(e) = argon2::Params::new(pw.memory_kib, pw.iterations, pw.parallelism, None) {
            return Err(bad(
                "passwords",
                format!(
                    "memory_kib = {}, iterations = {}, parallelism = {} are not valid argon2 \
                     parameters ({e}); iterations and parallelism must be at least 1 and \
                     memory_kib at least 8 × parallelism, e.g. memory_kib = 19456, iterations = 2, \
                     parallelism = 1",
                    pw.memory_kib, pw.iterations, pw.parallelism
                ),
            ));
        }
        let t = &self.time;
        for (field, value) in [
            ("time.nag_days", t.nag_days),
            ("time.forfeit_days", t.forfeit_days),
        ] {
            if value == 0 || value > MAX_CLOCK_DAYS {
                return Err(bad(
                    field,
                    format!(
                        "{value} is not a number of days from 1 to {MAX_CLOCK_DAYS}; write e.g. nag_days = 7, forfeit_days = 21"
                    ),
                ));
            }
        }
        if t.forfeit_days <= t.nag_days {
            return Err(bad(
                "time.forfeit_days",
                format!(
                    "{} must be more than nag_days ({}), so that a player is reminded before losing \
                     on time; write e.g. nag_days = 7, forfeit_days = 21",
                    t.forfeit_days, t.nag_days
                ),
            ));
        }
        let lmtp = &self.lmtp;
        if let Some(listen) = &lmtp.listen
            && let Err(e) = Listen::parse(listen)
        {
            return Err(bad("lmtp.listen", e));
        }
        if lmtp.workers == 0 || lmtp.workers > MAX_LMTP_WORKERS {
            return Err(bad(
                "lmtp.workers",
                format!(
                    "{} is not from 1 to {MAX_LMTP_WORKERS}; write e.g. workers = 2",
                    lmtp.workers
                ),
            ));
        }
        if lmtp.max_connections == 0 {
            return Err(bad(
                "lmtp.max_connections",
                "must be at least 1; write e.g. max_connections = 32".to_string(),
            ));
        }
        if let Some(n) = lmtp.max_connections_per_peer
            && (n == 0 || n > lmtp.max_connections)
        {
            return Err(bad(
                "lmtp.max_connections_per_peer",
                format!(
                    "{n} is not from 1 to max_connections ({}); write e.g. \
                     max_connections_per_peer = {}, or leave it out for three quarters of \
                     max_connections",
                    lmtp.max_connections,
                    // Three quarters, as `lmtp::slots::low_mark`, which this module may not use.
                    (lmtp.max_connections - lmtp.max_connections / 4).max(1)
                ),
            ));
        }
        if lmtp.idle_timeout_secs == 0 {
            return Err(bad(
                "lmtp.idle_timeout_secs",
                "must be at least 1; write e.g. idle_timeout_secs = 300".to_string(),
            ));
        }
        for (field, value, example) in [
            (
                "lmtp.busy_idle_timeout_secs",
                lmtp.busy_idle_timeout_secs,
                "busy_idle_timeout_secs = 10",
            ),
            (
                "lmtp.flush_interval_secs",
                lmtp.flush_interval_secs,
                "flush_interval_secs = 300",
            ),
        ] {
            if value == 0 {
                return Err(bad(
                    field,
                    format!("must be at least 1; write e.g. {example}"),
                ));
            }
        }
        if let Err(e) = check_host_port(&self.web.listen) {
            return Err(bad("web.listen", e));
        }
        if let Some(url) = &self.web.base_url {
            let rest = url
                .strip_prefix("https://")
                .or_else(|| url.strip_prefix("http://"));
            if rest.is_none_or(|r| r.is_empty() || r.contains(char::is_whitespace)) {
                return Err(bad(
                    "web.base_url",
                    format!(
                        "{url:?} is not an http:// or https:// address; write e.g. \
                         base_url = \"https://games.example.org/pbem\""
                    ),
                ));
            }
        }
        let l = &self.limits;
        for (field, value) in [
            ("limits.max_message_bytes", l.max_message_bytes),
            ("limits.max_body_lines", l.max_body_lines),
            ("limits.max_mime_parts", l.max_mime_parts),
            ("limits.max_commands_per_mail", l.max_commands_per_mail),
            (
                "limits.password_failures_per_sender_per_hour",
                l.password_failures_per_sender_per_hour as usize,
            ),
            (
                "limits.password_failures_per_account_per_hour",
                l.password_failures_per_account_per_hour as usize,
            ),
            (
                "limits.max_password_checks_per_mail",
                l.max_password_checks_per_mail as usize,
            ),
        ] {
            if value == 0 {
                return Err(bad(
                    field,
                    "must be at least 1 (0 would refuse every mail)".to_string(),
                ));
            }
        }
        if l.max_message_bytes < 1024 {
            return Err(bad(
                "limits.max_message_bytes",
                format!(
                    "{} is too small for the headers of an ordinary mail; write at least 1024, \
                     e.g. max_message_bytes = 262144",
                    l.max_message_bytes
                ),
            ));
        }
        Ok(())
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub(super) fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..text.floor_char_boundary(offset.min(text.len()))];
    let line = before.matches('\n').count() + 1;
    let column = before
        .rsplit_once('\n')
        .map_or(before, |(_, l)| l)
        .chars()
        .count()
        + 1;
    (line, column)
}

/// A DNS name: dot-separated labels of ASCII letters, digits and inner hyphens.
fn is_hostname(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 253
        && s.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
}

fn is_loopback(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

//! The server's configuration: a TOML file (see `config/pbem.toml` for a commented example of every
//! field) or the built-in defaults.
//!
//! Every section refuses unknown fields, so a misspelt key is an error that names the file and line
//! instead of a setting that silently does nothing.

use std::fmt;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// Where to find a commented example of every setting; quoted in every error.
const EXAMPLE: &str = "config/pbem.toml in the pbem sources has a commented example of every field";

/// The whole configuration. Every field has a default, so an empty file is a valid configuration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Who the server is: its name and mail address.
    pub server: ServerConfig,
    /// The SQLite database.
    pub database: DatabaseConfig,
    /// How mail goes out.
    pub mail: MailConfig,
    /// The cost of the argon2id password hashes.
    pub passwords: PasswordConfig,
    /// Bounds on what one mail or one sender may cost the server.
    pub limits: LimitsConfig,
    /// The clock of correspondence play: when `pbem cron` nags and forfeits.
    pub time: TimeConfig,
    /// `pbem lmtp`: where it listens and how many mails it handles at once.
    pub lmtp: LmtpConfig,
    /// `pbem web`: the read-only web pages of the games.
    pub web: WebConfig,
}

/// `[server]`: the server's identity.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ServerConfig {
    /// Display name used in the From header of every mail (`"pbem" <pbem@localhost>`).
    pub name: String,
    /// The server's mail address: the From of every mail, and the value of its `X-Loop` header.
    pub address: String,
    /// The host part of the Message-IDs the server generates; `None` means the domain of `address`.
    pub hostname: Option<String>,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            name: "pbem".to_string(),
            address: "pbem@localhost".to_string(),
            hostname: None,
        }
    }
}

impl ServerConfig {
    /// The From of the server's mails: `Name <address>`, or the plain address when `name` is
    /// empty (lettre quotes or encodes the name as the header needs).
    pub fn mailbox(&self) -> String {
        let name = self.name.trim();
        if name.is_empty() {
            self.address.clone()
        } else {
            format!("{name} <{}>", self.address)
        }
    }

    /// The host to put in Message-IDs: `hostname` if set, else the domain of `address`.
    pub fn message_id_host(&self) -> &str {
        match &self.hostname {
            Some(h) => h,
            None => self
                .address
                .rsplit_once('@')
                .map(|(_, d)| d)
                .unwrap_or("localhost"),
        }
    }
}

/// `[database]`: the SQLite file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DatabaseConfig {
    /// Path of the SQLite file (created if missing). Relative paths are relative to the working
    /// directory of the process.
    pub path: PathBuf,
    /// How long a writer waits for another process's transaction before giving up with a temporary
    /// failure (exit 75, so the MTA retries), in milliseconds.
    pub busy_timeout_ms: u64,
}

impl Default for DatabaseConfig {
    fn default() -> Self {
        DatabaseConfig {
            path: PathBuf::from("pbem.sqlite"),
            busy_timeout_ms: 5000,
        }
    }
}

/// How outgoing mail is delivered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Transport {
    /// Write one `.eml` file per message into `outbox_dir` (for testing, or for another program to
    /// pick up).
    #[default]
    File,
    /// Pipe each message into a sendmail-compatible command.
    Sendmail,
    /// Deliver over SMTP to a relay.
    Smtp,
}

impl fmt::Display for Transport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Transport::File => "file",
            Transport::Sendmail => "sendmail",
            Transport::Smtp => "smtp",
        })
    }
}

/// `[mail]`: the outgoing transport and its settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MailConfig {
    /// Which transport delivers the mail: `file`, `sendmail` or `smtp`.
    pub transport: Transport,
    /// For `file`: the folder the `.eml` files go to (created if missing).
    pub outbox_dir: PathBuf,
    /// For `sendmail`: the command; it is run as `COMMAND -i -f FROM -- RECIPIENT...` with the
    /// message on its standard input.
    pub sendmail_command: PathBuf,
    /// For `smtp`: the relay.
    pub smtp: SmtpConfig,
    /// Days a sent mail stays in the outbox table (for `outbox list --all`) before `cron` and
    /// `outbox flush` delete it: mail quotes commands, so it is not kept for ever.
    pub outbox_keep_days: u32,
    /// Board mails carry a picture of the board: `multipart/alternative`, the text first, then HTML
    /// with the board as an inline PNG. The text alone still says everything.
    pub pictures: bool,
    /// Every mail goes out with its own signed envelope sender (`pbem+b<row>-<mac>@host`), so that
    /// the delivery reports that come back to it are read (see `server/bounces.rs`). Off: the From
    /// address, for a relay that refuses any other envelope sender.
    pub bounce_addresses: bool,
}

impl Default for MailConfig {
    fn default() -> Self {
        MailConfig {
            transport: Transport::File,
            outbox_dir: PathBuf::from("outbox"),
            sendmail_command: PathBuf::from("/usr/sbin/sendmail"),
            smtp: SmtpConfig::default(),
            outbox_keep_days: 7,
            pictures: true,
            bounce_addresses: true,
        }
    }
}

/// How the SMTP connection is secured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum SmtpTls {
    /// Plain text. Only sensible for a relay on the same machine.
    #[default]
    None,
    /// Plain connection upgraded with STARTTLS; the upgrade is required, never skipped.
    Starttls,
    /// TLS from the first byte ("implicit TLS", SMTPS).
    Tls,
}

impl SmtpTls {
    /// The usual port for this kind of connection: 25, 587 or 465.
    pub fn default_port(self) -> u16 {
        match self {
            SmtpTls::None => 25,
            SmtpTls::Starttls => 587,
            SmtpTls::Tls => 465,
        }
    }
}

/// `[mail.smtp]`: the relay used by the `smtp` transport.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SmtpConfig {
    /// Host name of the relay (also the name its TLS certificate must carry).
    pub host: String,
    /// Port; `None` means the usual port for `tls` (25, 587 or 465).
    pub port: Option<u16>,
    /// `none`, `starttls` or `tls`.
    pub tls: SmtpTls,
    /// Login name, if the relay wants one (AUTH PLAIN or LOGIN).
    pub username: Option<String>,
    /// Login password; required when `username` is set.
    pub password: Option<String>,
    /// Connect/read/write timeout, in seconds.
    pub timeout_secs: u64,
    /// An extra PEM file of CA certificates to trust besides the built-in web roots (for a relay
    /// with a private CA).
    pub ca_file: Option<PathBuf>,
}

impl Default for SmtpConfig {
    fn default() -> Self {
        SmtpConfig {
            host: "localhost".to_string(),
            port: None,
            tls: SmtpTls::None,
            username: None,
            password: None,
            timeout_secs: 30,
            ca_file: None,
        }
    }
}

impl SmtpConfig {
    /// The port to connect to: `port`, or the usual one for `tls`.
    pub fn effective_port(&self) -> u16 {
        self.port.unwrap_or_else(|| self.tls.default_port())
    }
}

// Hand-written so that the relay password never reaches a log through `{:?}`.
impl fmt::Debug for SmtpConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SmtpConfig")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("tls", &self.tls)
            .field("username", &self.username)
            .field("password", &self.password.as_ref().map(|_| "****"))
            .field("timeout_secs", &self.timeout_secs)
            .field("ca_file", &self.ca_file)
            .finish()
    }
}

/// `[passwords]`: the argon2id cost, defined with the hashing it controls.
pub use crate::accounts::PasswordConfig;

/// `[limits]`: bounds on what one mail or one sender may cost the server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LimitsConfig {
    /// Bytes of an incoming message that are read; the rest is ignored.
    pub max_message_bytes: usize,
    /// Lines of a body that are read for commands and comments; the rest is ignored.
    pub max_body_lines: usize,
    /// MIME parts of a message that are looked at; the rest are ignored.
    pub max_mime_parts: usize,
    /// Commands carried out from one mail (Subject `mult`, or commands in the body).
    pub max_commands_per_mail: usize,
    /// Replies sent to one address in an hour; past it the server stays silent (a loop breaker).
    pub replies_per_address_per_hour: u32,
    /// Replies sent in a day to an address from which no signup, and no command with an account's
    /// password (or a code mailed to it), was ever carried out: a stranger's Reply-To cannot make the
    /// server mail a victim.
    pub replies_per_new_address_per_day: u32,
    /// Error answers in a row to one address, with no command carried out between them, after which
    /// it gets no error answers for a day, then 2, 4, ... 32 days (a loop with an autoresponder);
    /// 0: never.
    pub error_answers_before_quiet: u32,
    /// New games a player may be put into per day by challenges they did not agree to (sent by
    /// someone else, or without their `--password`); past it such challenges are dropped silently.
    pub unsolicited_challenges_per_day: u32,
    /// Milliseconds of robot thinking one mail may cause in all (each robot move takes up to 2 s);
    /// the robots' moves past it are played after the mail is answered, by the robot queue (`pbem
    /// cron`, or the next mail), so an LMTP worker is not held by one sender's many robot games.
    pub robot_thinking_millis_per_mail: u64,
    /// Confirmation mails to addresses not yet confirmed, server-wide per hour; past it none are
    /// sent until the hour passes (the address can still be confirmed from itself). A ceiling far
    /// above what players need: the cap that one sender meets is the next one.
    pub unconfirmed_mails_per_hour: u32,
    /// Confirmation mails that the mails of one sender (its reply address) may cause in an hour;
    /// past it that sender's signups and address changes get none until the hour passes, and
    /// nobody else is held up.
    pub unconfirmed_mails_per_sender_per_hour: u32,
    /// Wrong passwords in the last hour after which a sender's password checks wait: for an address
    /// registered to the account, its own for that account; for any other address, its own for all
    /// userids together.
    pub password_failures_per_sender_per_hour: u32,
    /// Wrong passwords for one account in the last hour, from addresses not registered to it, after
    /// which such addresses' checks for it wait. The registered addresses are not held up by it.
    pub password_failures_per_account_per_hour: u32,
    /// Password checks (argon2 runs) done for one mail; further command lines needing one are refused.
    /// As many again may check the words of lines that do not parse against the writer's password, to
    /// hide it (`server::secrets`); words past them are hidden unchecked.
    pub max_password_checks_per_mail: u32,
    /// Retired (the lock-out became the hourly throttle): accepted with a warning, ignored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub login_failures_before_lockout: Option<u32>,
    /// Retired with `login_failures_before_lockout`: accepted with a warning, ignored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lockout_minutes: Option<u32>,
}

impl Default for LimitsConfig {
    fn default() -> Self {
        LimitsConfig {
            max_message_bytes: 256 * 1024,
            max_body_lines: 1000,
            max_mime_parts: 32,
            max_commands_per_mail: 20,
            replies_per_address_per_hour: 30,
            replies_per_new_address_per_day: 3,
            error_answers_before_quiet: 5,
            unsolicited_challenges_per_day: 5,
            robot_thinking_millis_per_mail: 4_000,
            unconfirmed_mails_per_hour: 100,
            unconfirmed_mails_per_sender_per_hour: 3,
            password_failures_per_sender_per_hour: 10,
            password_failures_per_account_per_hour: 20,
            max_password_checks_per_mail: 3,
            login_failures_before_lockout: None,
            lockout_minutes: None,
        }
    }
}

/// The longest nag or forfeit time, in days, the server or a challenge may set: a year. Longer would
/// let a game stall for good, which the clock is there to prevent.
pub const MAX_CLOCK_DAYS: u32 = 365;

/// `[time]`: the clock of correspondence play. A game's own `--nagtime`/`--forfeittime` (given at
/// challenge time) take the place of these for that game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TimeConfig {
    /// Days without a move after which `pbem cron` reminds the player to move, and again every as many
    /// days after that.
    pub nag_days: u32,
    /// Days without a move after which the player to move forfeits the game. More than `nag_days`.
    pub forfeit_days: u32,
}

impl Default for TimeConfig {
    /// pbmserv's clock: a nag after 7 days, a forfeit after 21.
    fn default() -> Self {
        TimeConfig {
            nag_days: 7,
            forfeit_days: 21,
        }
    }
}

/// The most `[lmtp] workers`: each holds a database connection and, once it checks a password, an
/// argon2 memory area of `passwords.memory_kib`.
pub const MAX_LMTP_WORKERS: usize = 64;

/// `[lmtp]`: the resident LMTP server (`pbem lmtp`) that an MTA hands mail to instead of starting
/// `pbem ingest` for each one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LmtpConfig {
    /// `unix:/path/to/socket` or `inet:host:port`; `None` means the Unix socket `lmtp.sock` in the
    /// folder of the database.
    pub listen: Option<String>,
    /// Mails handled at the same time, each by a worker with its own database connection.
    pub workers: usize,
    /// Client connections open at the same time; one more is answered 421 and closed.
    pub max_connections: usize,
    /// Connections that one peer (an IP address, an IPv6 /64, or a local user on the Unix socket)
    /// may hold at once; one more from it is answered 421. `None`: three quarters of
    /// `max_connections` (`lmtp::slots::per_peer`), so that one client reopening connections
    /// leaves the rest to the MTA.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_connections_per_peer: Option<usize>,
    /// Seconds a client may take for one command, or for the whole text after DATA, before the
    /// connection is closed.
    pub idle_timeout_secs: u64,
    /// Once three quarters of `max_connections` are open: seconds a connection may go without
    /// delivering a message (since it opened, or since its last message) before it is closed, so
    /// that idle or slow clients cannot hold every slot.
    pub busy_idle_timeout_secs: u64,
    /// Seconds between two sendings of what the outbox still holds (mail a killed listener committed
    /// but never sent, mail the relay deferred); the listener also sends it as it starts.
    pub flush_interval_secs: u64,
}

impl Default for LmtpConfig {
    fn default() -> Self {
        LmtpConfig {
            listen: None,
            // Two: argon2 is CPU-bound, so more workers than cores only queue, and each one that
            // checks a password keeps 19 MiB (two stay under 64 MB in all).
            workers: 2,
            max_connections: 32,
            max_connections_per_peer: None,
            idle_timeout_secs: 300,
            busy_idle_timeout_secs: 10,
            flush_interval_secs: 300,
        }
    }
}

/// `[web]`: the read-only web pages (`pbem web`) that show the games, their boards and the ratings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WebConfig {
    /// `host:port` to listen on.
    pub listen: String,
    /// The address the pages are reached at from outside (`https://games.example.org/pbem`), for
    /// links to them in mails; `None`: no links.
    pub base_url: Option<String>,
}

impl Default for WebConfig {
    fn default() -> Self {
        WebConfig {
            // Localhost: the admin decides to show the pages to the world (a reverse proxy).
            listen: "127.0.0.1:8080".to_string(),
            base_url: None,
        }
    }
}

impl WebConfig {
    /// The page of one game (`https://games.example.org/pbem/limit/101`), when `base_url` is set.
    pub fn game_url(&self, game_type: &str, board: u32) -> Option<String> {
        self.base_url
            .as_ref()
            .map(|b| format!("{}/{game_type}/{board}", b.trim_end_matches('/')))
    }
}

/// Checks a `host:port` to listen on; the error says how to write one.
pub fn check_host_port(s: &str) -> Result<(), String> {
    let ok = s
        .rsplit_once(':')
        .is_some_and(|(host, port)| !host.is_empty() && port.parse::<u16>().is_ok());
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{s:?} is not host:port; write e.g. listen = \"127.0.0.1:8080\""
        ))
    }
}

/// Where `pbem lmtp` listens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Listen {
    /// A Unix socket at this path (Postfix: `lmtp:unix:PATH`).
    Unix(PathBuf),
    /// A TCP address, `host:port` (Postfix: `lmtp:inet:host:port`).
    Inet(String),
}

impl Listen {
    /// Reads `unix:/path` or `inet:host:port`; the error says how to write one.
    pub fn parse(s: &str) -> Result<Listen, String> {
        const HOW: &str = "write e.g. listen = \"unix:/var/lib/pbem/lmtp.sock\" or \
                           listen = \"inet:127.0.0.1:2424\"";
        if let Some(path) = s.strip_prefix("unix:") {
            if path.is_empty() {
                return Err(format!("{s:?} names no socket file; {HOW}"));
            }
            return Ok(Listen::Unix(PathBuf::from(path)));
        }
        if let Some(addr) = s.strip_prefix("inet:") {
            let port_ok = addr
                .rsplit_once(':')
                .is_some_and(|(host, port)| !host.is_empty() && port.parse::<u16>().is_ok());
            if !port_ok {
                return Err(format!("{s:?} is not host:port after inet:; {HOW}"));
            }
            return Ok(Listen::Inet(addr.to_string()));
        }
        Err(format!("{s:?} starts with neither unix: nor inet:; {HOW}"))
    }

    /// The configured address, or by default the Unix socket `lmtp.sock` beside the database.
    pub fn of(cfg: &Config) -> Result<Listen, String> {
        match &cfg.lmtp.listen {
            Some(s) => Listen::parse(s),
            None => Ok(Listen::Unix(cfg.database.path.with_file_name("lmtp.sock"))),
        }
    }
}

impl fmt::Display for Listen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Listen::Unix(p) => write!(f, "unix:{}", p.display()),
            Listen::Inet(a) => write!(f, "inet:{a}"),
        }
    }
}

mod load;

#[cfg(test)]
use load::line_column;
pub use load::{ConfigError, exposed_secret};

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn parse(text: &str) -> Result<Config, ConfigError> {
        Config::from_toml(text, Path::new("test.toml"))
    }

    #[test]
    fn defaults_are_the_documented_values() {
        let c = Config::load(None).unwrap();
        assert_eq!(c.server.address, "pbem@localhost");
        assert_eq!(c.server.message_id_host(), "localhost");
        assert_eq!(c.database.path, PathBuf::from("pbem.sqlite"));
        assert_eq!(c.database.busy_timeout_ms, 5000);
        assert_eq!(c.mail.transport, Transport::File);
        assert_eq!(c.mail.outbox_dir, PathBuf::from("outbox"));
        assert_eq!(c.mail.smtp.effective_port(), 25);
        assert_eq!(
            c.passwords,
            PasswordConfig {
                memory_kib: 19456,
                iterations: 2,
                parallelism: 1
            }
        );
        assert_eq!(c.limits.max_message_bytes, 262144);
        assert_eq!((c.time.nag_days, c.time.forfeit_days), (7, 21));
        assert_eq!(c.web.listen, "127.0.0.1:8080");
        assert_eq!(c.web.base_url, None);
        assert_eq!(c.web.game_url("limit", 101), None);
    }

    #[test]
    fn web_base_url_makes_game_links() {
        let c = parse("[web]\nbase_url = \"https://games.example.org/pbem/\"\n").unwrap();
        assert_eq!(
            c.web.game_url("limit", 101).as_deref(),
            Some("https://games.example.org/pbem/limit/101")
        );
    }

    #[test]
    fn empty_file_is_the_defaults() {
        assert_eq!(parse("").unwrap(), Config::default());
    }

    #[test]
    fn shipped_example_is_the_defaults_but_for_absolute_paths_and_sendmail() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("config/pbem.toml");
        let mut c = Config::load(Some(&path)).unwrap();
        // A relative path would be taken in the MTA's queue folder (issue 22): every path of the
        // example is absolute, and the socket is where Postfix may enter.
        assert_eq!(c.database.path, Path::new("/var/lib/pbem/pbem.sqlite"));
        assert_eq!(c.mail.outbox_dir, Path::new("/var/lib/pbem/outbox"));
        assert!(c.mail.sendmail_command.is_absolute());
        assert_eq!(
            Listen::of(&c),
            Ok(Listen::Unix(PathBuf::from(
                "/var/spool/postfix/pbem/lmtp.sock"
            )))
        );
        assert_eq!(c.mail.transport, Transport::Sendmail);
        // Everything else is the built-in default, as the file's head says.
        let d = Config::default();
        c.database.path = d.database.path.clone();
        c.mail.outbox_dir = d.mail.outbox_dir.clone();
        c.mail.transport = d.mail.transport;
        c.lmtp.listen = None;
        assert_eq!(c, d);
    }

    #[test]
    fn shipped_example_optional_settings_parse_when_enabled() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("config/pbem.toml");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains("\n#= "),
            "the example has no optional settings to check"
        );
        let enabled = text.replace("\n#= ", "\n");
        let c = parse(&enabled).unwrap();
        assert_eq!(c.server.hostname.as_deref(), Some("games.example.org"));
        assert_eq!(c.mail.smtp.port, Some(587));
        assert_eq!(c.lmtp.max_connections_per_peer, Some(24));
        assert_eq!(c.mail.smtp.username.as_deref(), Some("pbem@example.org"));
        assert!(c.mail.smtp.ca_file.is_some());
        assert_eq!(
            c.web.base_url.as_deref(),
            Some("https://games.example.org/pbem")
        );
    }

    #[test]
    fn port_follows_tls_unless_set() {
        let c = parse("[mail.smtp]\ntls = \"starttls\"\nhost = \"smtp.example.org\"\n").unwrap();
        assert_eq!(c.mail.smtp.effective_port(), 587);
        let c = parse("[mail.smtp]\ntls = \"tls\"\nhost = \"smtp.example.org\"\n").unwrap();
        assert_eq!(c.mail.smtp.effective_port(), 465);
        let c = parse("[mail.smtp]\ntls = \"tls\"\nport = 2465\n").unwrap();
        assert_eq!(c.mail.smtp.effective_port(), 2465);
    }

    #[test]
    fn hostname_defaults_to_the_address_domain() {
        let c = parse("[server]\naddress = \"games@example.org\"\n").unwrap();
        assert_eq!(c.server.message_id_host(), "example.org");
        let c = parse("[server]\naddress = \"games@example.org\"\nhostname = \"mx.example.org\"\n")
            .unwrap();
        assert_eq!(c.server.message_id_host(), "mx.example.org");
    }

    #[test]
    fn misspelt_key_names_file_line_and_the_valid_keys() {
        let err = parse("[server]\nname = \"x\"\n\n[mail]\ntransprot = \"smtp\"\n").unwrap_err();
        let ConfigError::Parse {
            line,
            ref message,
            ref path,
            ..
        } = err
        else {
            panic!("expected a parse error, got {err:?}");
        };
        assert_eq!(line, 5);
        assert_eq!(path, Path::new("test.toml"));
        assert!(message.contains("transprot"), "{message}");
        assert!(message.contains("transport"), "{message}");
        let shown = err.to_string();
        assert!(shown.starts_with("test.toml:5:"), "{shown}");
        assert!(shown.contains("config/pbem.toml"), "{shown}");
    }

    #[test]
    fn unknown_section_is_refused() {
        let err = parse("[limit]\nmax_body_lines = 5\n").unwrap_err();
        assert!(matches!(err, ConfigError::Parse { line: 1, .. }), "{err:?}");
    }

    #[test]
    fn bad_enum_value_lists_the_choices() {
        let err = parse("[mail]\ntransport = \"smpt\"\n").unwrap_err();
        let shown = err.to_string();
        assert!(shown.contains("test.toml:2:"), "{shown}");
        assert!(shown.contains("sendmail"), "{shown}");
    }

    #[test]
    fn wrong_type_is_refused() {
        let err = parse("[database]\nbusy_timeout_ms = \"5s\"\n").unwrap_err();
        assert!(matches!(err, ConfigError::Parse { line: 2, .. }), "{err:?}");
    }

    #[test]
    fn invalid_values_name_the_field() {
        let cases = [
            ("[server]\naddress = \"not an address\"\n", "server.address"),
            ("[server]\nhostname = \"bad host\"\n", "server.hostname"),
            ("[passwords]\nmemory_kib = 4\n", "passwords"),
            ("[passwords]\niterations = 0\n", "passwords"),
            ("[mail.smtp]\nport = 0\n", "mail.smtp.port"),
            ("[mail.smtp]\nusername = \"u\"\n", "mail.smtp.password"),
            (
                "[mail.smtp]\nhost = \"smtp.example.org\"\nusername = \"u\"\npassword = \"p\"\n",
                "mail.smtp.tls",
            ),
            ("[limits]\nmax_mime_parts = 0\n", "limits.max_mime_parts"),
            (
                "[limits]\nmax_message_bytes = 10\n",
                "limits.max_message_bytes",
            ),
            ("[time]\nnag_days = 0\n", "time.nag_days"),
            ("[time]\nforfeit_days = 400\n", "time.forfeit_days"),
            ("[time]\nnag_days = 21\n", "time.forfeit_days"),
            (
                "[time]\nnag_days = 5\nforfeit_days = 5\n",
                "time.forfeit_days",
            ),
            ("[lmtp]\nlisten = \"/run/pbem.sock\"\n", "lmtp.listen"),
            ("[lmtp]\nlisten = \"unix:\"\n", "lmtp.listen"),
            ("[lmtp]\nlisten = \"inet:localhost\"\n", "lmtp.listen"),
            ("[lmtp]\nlisten = \"inet::2424\"\n", "lmtp.listen"),
            ("[lmtp]\nworkers = 0\n", "lmtp.workers"),
            ("[lmtp]\nworkers = 65\n", "lmtp.workers"),
            ("[lmtp]\nmax_connections = 0\n", "lmtp.max_connections"),
            (
                "[lmtp]\nmax_connections_per_peer = 0\n",
                "lmtp.max_connections_per_peer",
            ),
            (
                "[lmtp]\nmax_connections = 8\nmax_connections_per_peer = 9\n",
                "lmtp.max_connections_per_peer",
            ),
            ("[lmtp]\nidle_timeout_secs = 0\n", "lmtp.idle_timeout_secs"),
            (
                "[lmtp]\nbusy_idle_timeout_secs = 0\n",
                "lmtp.busy_idle_timeout_secs",
            ),
            (
                "[lmtp]\nflush_interval_secs = 0\n",
                "lmtp.flush_interval_secs",
            ),
            ("[web]\nlisten = \"8080\"\n", "web.listen"),
            ("[web]\nlisten = \":8080\"\n", "web.listen"),
            ("[web]\nlisten = \"localhost:99999\"\n", "web.listen"),
            ("[web]\nbase_url = \"games.example.org\"\n", "web.base_url"),
            ("[web]\nbase_url = \"https://\"\n", "web.base_url"),
        ];
        for (text, want) in cases {
            match parse(text) {
                Err(ConfigError::Invalid { field, message, .. }) => {
                    assert_eq!(field, want, "{text}: {message}");
                    assert!(!message.is_empty());
                }
                other => panic!("{text}: expected Invalid({want}), got {other:?}"),
            }
        }
    }

    #[test]
    fn retired_lockout_keys_are_accepted_with_a_warning() {
        let c =
            parse("[limits]\nlogin_failures_before_lockout = 10\nlockout_minutes = 15\n").unwrap();
        let w = c.warnings();
        assert_eq!(w.len(), 2, "{w:?}");
        assert!(
            w[0].contains("limits.login_failures_before_lockout is retired"),
            "{w:?}"
        );
        assert!(w[1].contains("limits.lockout_minutes is retired"), "{w:?}");
        assert!(
            w[1].contains("password_failures_per_sender_per_hour"),
            "{w:?}"
        );
        assert!(Config::default().warnings().is_empty());
        // The throttle's own keys are checked like the other limits.
        assert_eq!(c.limits.password_failures_per_sender_per_hour, 10);
        let err = parse("[limits]\nmax_password_checks_per_mail = 0\n").unwrap_err();
        assert!(
            err.to_string()
                .contains("limits.max_password_checks_per_mail"),
            "{err}"
        );
    }

    #[test]
    fn plaintext_login_to_localhost_is_allowed() {
        let c = parse("[mail.smtp]\nusername = \"u\"\npassword = \"p\"\n").unwrap();
        assert_eq!(c.mail.smtp.username.as_deref(), Some("u"));
    }

    #[test]
    fn debug_hides_the_relay_password() {
        let c = parse(
            "[mail.smtp]\ntls = \"tls\"\nhost = \"h.example\"\nusername = \"u\"\npassword = \"s3cret\"\n",
        )
        .unwrap();
        let shown = format!("{c:?}");
        assert!(!shown.contains("s3cret"), "{shown}");
        assert!(shown.contains("****"), "{shown}");
    }

    #[test]
    fn missing_file_is_a_read_error_naming_it() {
        let err = Config::load(Some(Path::new("/nonexistent/pbem.toml"))).unwrap_err();
        assert!(matches!(err, ConfigError::Read { .. }));
        assert!(err.to_string().contains("/nonexistent/pbem.toml"));
    }

    #[test]
    fn lmtp_listens_where_configured_or_beside_the_database() {
        let c = parse("[database]\npath = \"/var/lib/pbem/pbem.sqlite\"\n").unwrap();
        assert_eq!(
            Listen::of(&c),
            Ok(Listen::Unix(PathBuf::from("/var/lib/pbem/lmtp.sock")))
        );
        assert_eq!(
            Listen::of(&Config::default()),
            Ok(Listen::Unix(PathBuf::from("lmtp.sock")))
        );
        let c = parse("[lmtp]\nlisten = \"inet:127.0.0.1:2424\"\nworkers = 2\n").unwrap();
        assert_eq!(Listen::of(&c), Ok(Listen::Inet("127.0.0.1:2424".into())));
        assert_eq!(c.lmtp.workers, 2);
        assert_eq!(
            Listen::parse("inet:[::1]:24"),
            Ok(Listen::Inet("[::1]:24".into()))
        );
        assert_eq!(
            Listen::parse("unix:/run/x.sock").unwrap().to_string(),
            "unix:/run/x.sock"
        );
        let e = Listen::parse("tcp:1.2.3.4:5").unwrap_err();
        assert!(e.contains("inet:127.0.0.1:2424"), "{e}");
    }

    #[test]
    fn line_column_counts_from_one() {
        assert_eq!(line_column("ab\ncd", 0), (1, 1));
        assert_eq!(line_column("ab\ncd", 4), (2, 2));
        assert_eq!(line_column("é\nx", 3), (2, 1));
    }
}

//! Delivery through the real transports, checked by parsing back what arrived with mail-parser:
//! SMTP over TCP to an SMTP server on 127.0.0.1 (the `mailin` crate's protocol engine behind a small
//! TCP loop; plain, STARTTLS and implicit TLS with rustls and a test CA), `.eml` files in a real
//! folder, and a real process standing in for sendmail.

use crate::common;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Duration;

use mailin::{Action, AuthMechanism, Handler, Response, Session, SessionBuilder};

use pbem::config::{Config, SmtpTls, Transport};
use pbem::mail_out::{AUTO_GENERATED, AUTO_REPLIED, Mailer, OutgoingMail, SendError};

/// One message as the SMTP server received it.
#[derive(Debug, Clone, Default)]
struct Delivery {
    helo: String,
    mail_from: String,
    rcpt_to: Vec<String>,
    login: Option<(String, String)>,
    data: Vec<u8>,
    /// Whether the message came over TLS.
    over_tls: bool,
}

/// How the test server answers.
#[derive(Clone)]
enum Policy {
    Accept,
    /// Answer RCPT TO with this code.
    RejectRcpt(u16),
    /// Answer RCPT TO for this address with this code, and take the others.
    RejectFor(String, u16),
    /// Accept only after AUTH PLAIN/LOGIN with these credentials.
    Login(String, String),
}

#[derive(Clone)]
struct Recorder {
    policy: Policy,
    /// Set by the connection loop once TLS is up.
    tls_up: Arc<AtomicBool>,
    current: Delivery,
    out: Sender<Delivery>,
}

impl Recorder {
    fn check_login(&mut self, user: &str, pass: &str) -> Response {
        self.current.login = Some((user.to_string(), pass.to_string()));
        match &self.policy {
            Policy::Login(u, p) if u == user && p == pass => mailin::response::AUTH_OK,
            _ => mailin::response::INVALID_CREDENTIALS,
        }
    }
}

impl Handler for Recorder {
    fn helo(&mut self, _ip: IpAddr, domain: &str) -> Response {
        self.current.helo = domain.to_string();
        mailin::response::OK
    }
    fn mail(&mut self, _ip: IpAddr, _domain: &str, from: &str) -> Response {
        self.current.mail_from = from.to_string();
        mailin::response::OK
    }
    fn rcpt(&mut self, to: &str) -> Response {
        if let Policy::RejectRcpt(code) = self.policy {
            return Response::custom(code, format!("rejected by test policy: {to}"));
        }
        if let Policy::RejectFor(address, code) = &self.policy
            && to.trim_matches(['<', '>']).eq_ignore_ascii_case(address)
        {
            return Response::custom(*code, format!("5.1.1 <{address}>: user unknown"));
        }
        self.current.rcpt_to.push(to.to_string());
        mailin::response::OK
    }
    fn data(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.current.data.extend_from_slice(buf);
        Ok(())
    }
    fn data_end(&mut self) -> Response {
        let mut done = std::mem::take(&mut self.current);
        done.over_tls = self.tls_up.load(Ordering::SeqCst);
        // Keep the session state (login) for a possible next message on the connection.
        self.current.login = done.login.clone();
        self.current.helo = done.helo.clone();
        let _ = self.out.send(done);
        mailin::response::OK
    }
    fn auth_plain(&mut self, _authz: &str, user: &str, pass: &str) -> Response {
        self.check_login(user, pass)
    }
    fn auth_login(&mut self, user: &str, pass: &str) -> Response {
        self.check_login(user, pass)
    }
}

/// An SMTP server on an ephemeral port of 127.0.0.1, serving every connection on its own thread
/// until the test process ends.
struct SmtpSink {
    addr: SocketAddr,
    tls: SinkTls,
    received: Receiver<Delivery>,
}

impl SmtpSink {
    fn start(policy: Policy) -> SmtpSink {
        SmtpSink::start_tls(policy, SinkTls::None)
    }

    fn start_tls(policy: Policy, tls: SinkTls) -> SmtpSink {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let (tx, rx) = channel();
        let mut builder = SessionBuilder::new("sink.test");
        if tls == SinkTls::Starttls {
            builder.enable_start_tls();
        }
        if matches!(policy, Policy::Login(..)) {
            builder.enable_auth(AuthMechanism::Plain);
            builder.enable_auth(AuthMechanism::Login);
            // Fine here: the connection never leaves the loopback interface.
            builder.insecure_enable_plaintext_auth();
        }
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let tls_up = Arc::new(AtomicBool::new(false));
                let handler = Recorder {
                    policy: policy.clone(),
                    tls_up: tls_up.clone(),
                    current: Delivery::default(),
                    out: tx.clone(),
                };
                let builder = builder.clone();
                std::thread::spawn(move || serve(stream, &builder, handler, tls, &tls_up));
            }
        });
        SmtpSink {
            addr,
            tls,
            received: rx,
        }
    }

    fn next(&self) -> Delivery {
        self.received
            .recv_timeout(Duration::from_secs(20))
            .expect("the SMTP server received no message")
    }

    /// Every message received until none came for `quiet`.
    fn drain(&self, quiet: Duration) -> Vec<Delivery> {
        std::iter::from_fn(|| self.received.recv_timeout(quiet).ok()).collect()
    }

    fn config(&self) -> Config {
        let mut cfg = Config::default();
        cfg.server.address = "pbem@example.org".to_string();
        cfg.mail.transport = Transport::Smtp;
        cfg.mail.smtp.host = "127.0.0.1".to_string();
        cfg.mail.smtp.port = Some(self.addr.port());
        cfg.mail.smtp.tls = match self.tls {
            SinkTls::None => SmtpTls::None,
            SinkTls::Starttls => SmtpTls::Starttls,
            SinkTls::Implicit => SmtpTls::Tls,
        };
        cfg.mail.smtp.timeout_secs = 10;
        cfg
    }
}

/// How the test server secures its connections.
#[derive(Clone, Copy, PartialEq)]
enum SinkTls {
    None,
    /// Offers STARTTLS.
    Starttls,
    /// TLS from the first byte.
    Implicit,
}

/// The test CA (EC P-256, valid 2000-2126), made once with openssl for these tests only.
const TEST_CA_PEM: &str = r"-----BEGIN CERTIFICATE-----
MIIBYTCCAQegAwIBAgIBATAKBggqhkjOPQQDAjAXMRUwEwYDVQQDDAxwYmVtIHRl
c3QgQ0EwIBcNMDAwMTAxMDAwMDAwWhgPMjEyNjAxMDEwMDAwMDBaMBcxFTATBgNV
BAMMDHBiZW0gdGVzdCBDQTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABHjrkQ6T
7FNpvj0u9WxHTdUqDBqAkRww+MFl3WAIUiyg5BnmI0NGtWRvcwQYwBv/NZ31bQ68
L56dkgipgb86snejQjBAMA8GA1UdEwEB/wQFMAMBAf8wDgYDVR0PAQH/BAQDAgEG
MB0GA1UdDgQWBBS0rMWdQc7N5aj4XqQbhKOMAgEt7TAKBggqhkjOPQQDAgNIADBF
AiAcsRqqRuLbsebB4hbE3lG7/6V+IBUeIdTi8zxp+ufpyAIhAPevHohPgiKczbNr
h/ssp0g5xa8CcMhMRGo0bu4zI2bg
-----END CERTIFICATE-----
";

/// The server certificate for `localhost` and 127.0.0.1, signed by [`TEST_CA_PEM`].
const TEST_LEAF_PEM: &str = r"-----BEGIN CERTIFICATE-----
MIIBrjCCAVWgAwIBAgIBAjAKBggqhkjOPQQDAjAXMRUwEwYDVQQDDAxwYmVtIHRl
c3QgQ0EwIBcNMDAwMTAxMDAwMDAwWhgPMjEyNjAxMDEwMDAwMDBaMBQxEjAQBgNV
BAMMCWxvY2FsaG9zdDBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABOSDiXaLxa5K
3Pl+V+jtroXo1i3pcFhy0baioDUqmur3bU1AWLJgDcHpNdrJ0tXnl0uJXXIlOHah
zqzvUHebzyKjgZIwgY8wGgYDVR0RBBMwEYIJbG9jYWxob3N0hwR/AAABMAwGA1Ud
EwEB/wQCMAAwDgYDVR0PAQH/BAQDAgeAMBMGA1UdJQQMMAoGCCsGAQUFBwMBMB0G
A1UdDgQWBBSsywH+0o3/KDVyFFuJ5ER9QCDddTAfBgNVHSMEGDAWgBS0rMWdQc7N
5aj4XqQbhKOMAgEt7TAKBggqhkjOPQQDAgNHADBEAiBucuCCRL5VlM4t9ce2tePS
vPS9HnQrTwEo1eO/qpFbfAIgGFohulLNb9LND1FCZXnKPH8MG1BhZboT3VXrNgG6
Z6I=
-----END CERTIFICATE-----
";

/// The private key of [`TEST_LEAF_PEM`] (PKCS#8).
const TEST_LEAF_KEY: &str = r"-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgjAECLAUzes7Aco1B
0PvmgA0DcT/4fQGq2xQTKreed12hRANCAATkg4l2i8WuStz5flfo7a6F6NYt6XBY
ctG2oqA1Kprq921NQFiyYA3B6TXaydLV55dLiV1yJTh2oc6s71B3m88i
-----END PRIVATE KEY-----
";

fn tls_server_config() -> Arc<rustls::ServerConfig> {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let certs = CertificateDer::pem_slice_iter(TEST_LEAF_PEM.as_bytes())
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    let key = PrivateKeyDer::from_pem_slice(TEST_LEAF_KEY.as_bytes()).unwrap();
    let cfg = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_no_client_auth()
    .with_single_cert(certs, key)
    .unwrap();
    Arc::new(cfg)
}

enum Outcome<S> {
    Done,
    StartTls(S),
}

fn serve(
    stream: TcpStream,
    builder: &SessionBuilder,
    handler: Recorder,
    tls: SinkTls,
    tls_up: &AtomicBool,
) {
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut session = builder.build(stream.peer_addr().unwrap().ip(), handler);
    if tls == SinkTls::Implicit {
        let conn = rustls::ServerConnection::new(tls_server_config()).unwrap();
        let mut tls_stream = rustls::StreamOwned::new(conn, stream);
        tls_up.store(true, Ordering::SeqCst);
        session.greeting().write_to(&mut tls_stream).unwrap();
        run_session(&mut session, tls_stream);
        return;
    }
    let mut plain = stream;
    session.greeting().write_to(&mut plain).unwrap();
    if let Outcome::StartTls(plain) = run_session(&mut session, plain) {
        let conn = rustls::ServerConnection::new(tls_server_config()).unwrap();
        let tls_stream = rustls::StreamOwned::new(conn, plain);
        tls_up.store(true, Ordering::SeqCst);
        session.tls_active();
        run_session(&mut session, tls_stream);
    }
}

/// Feeds the client's lines to the SMTP session and writes its answers, until the client quits or
/// asks for STARTTLS (then the bare stream is handed back for the handshake).
fn run_session<S: Read + Write>(session: &mut Session<Recorder>, stream: S) -> Outcome<S> {
    let mut reader = BufReader::new(stream);
    let mut line = Vec::new();
    loop {
        line.clear();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return Outcome::Done,
            Ok(_) => {}
        }
        let res = session.process(&line);
        let out = reader.get_mut();
        match res.action {
            Action::Reply => {
                res.write_to(out).unwrap();
                out.flush().unwrap();
            }
            Action::Close => {
                let _ = res.write_to(out);
                let _ = out.flush();
                return Outcome::Done;
            }
            Action::NoReply => {}
            Action::UpgradeTls => {
                res.write_to(out).unwrap();
                out.flush().unwrap();
                // The client waits for this answer before its handshake, so nothing is buffered.
                assert!(reader.buffer().is_empty());
                return Outcome::StartTls(reader.into_inner());
            }
        }
    }
}

fn board_mail(to: &[&str]) -> OutgoingMail {
    OutgoingMail {
        from: "pbem <pbem@example.org>".to_string(),
        to: to.iter().map(|s| s.to_string()).collect(),
        subject: "Limit Board 101 bob **".to_string(),
        body: "Summary of Limit Board 101\n\
               Move 4: bob to play\n\
               .a line that starts with a dot\n\
               .\n\
               bob writes: très bien, à toi!\n"
            .to_string(),
        message_id: pbem::mail_out::new_message_id("example.org"),
        in_reply_to: Some("<move3@mail.example.net>".to_string()),
        references: vec![
            "<challenge@mail.example.net>".to_string(),
            "<move3@mail.example.net>".to_string(),
        ],
        auto_submitted: AUTO_GENERATED.to_string(),
        x_loop: "pbem@example.org".to_string(),
        date_unix: 1_700_000_000,
        picture: None,
        page: None,
        attachments: Vec::new(),
        reply_to: None,
        thread_topic: None,
        return_path: None,
    }
}

/// Checks that `raw` is `sent`, parsed back: every header we set and the decoded body.
fn assert_is_message(raw: &[u8], sent: &OutgoingMail) {
    let msg = mail_parser::MessageParser::default()
        .parse(raw)
        .expect("the received data is not a mail");
    assert_eq!(msg.subject(), Some(sent.subject.as_str()));
    assert_eq!(
        msg.message_id().map(|id| format!("<{id}>")),
        Some(sent.message_id.clone())
    );
    let from = msg.from().and_then(|a| a.first()).unwrap();
    assert_eq!(from.address(), Some(sent.from_address()));
    let to: Vec<&str> = msg
        .to()
        .unwrap()
        .iter()
        .filter_map(|a| a.address())
        .collect();
    assert_eq!(to, sent.to.iter().map(String::as_str).collect::<Vec<_>>());
    let in_reply_to = msg.in_reply_to().as_text_list().unwrap_or_default();
    assert_eq!(
        in_reply_to
            .iter()
            .map(|id| format!("<{id}>"))
            .collect::<Vec<_>>(),
        sent.in_reply_to.iter().cloned().collect::<Vec<_>>()
    );
    let refs = msg.references().as_text_list().unwrap_or_default();
    assert_eq!(
        refs.iter().map(|id| format!("<{id}>")).collect::<Vec<_>>(),
        sent.references
    );
    assert_eq!(
        msg.header_raw("Auto-Submitted").map(str::trim),
        Some(sent.auto_submitted.as_str())
    );
    assert_eq!(
        msg.header_raw("X-Loop").map(str::trim),
        Some(sent.x_loop.as_str())
    );
    assert_eq!(
        msg.date().map(|d| d.to_timestamp()),
        Some(sent.date_unix),
        "Date header"
    );
    let body = msg.body_text(0).unwrap().replace("\r\n", "\n");
    assert_eq!(body, sent.body);
}

#[test]
fn smtp_delivers_envelope_headers_and_body() {
    let sink = SmtpSink::start(Policy::Accept);
    let mailer = Mailer::from_config(&sink.config()).unwrap();
    let mail = board_mail(&["alice@example.net", "alice.work@example.com"]);
    mailer.send(&mail).unwrap();

    let got = sink.next();
    assert_eq!(got.mail_from, "pbem@example.org");
    assert_eq!(got.rcpt_to, ["alice@example.net", "alice.work@example.com"]);
    assert!(!got.helo.is_empty());
    assert_eq!(got.login, None);
    assert!(!got.over_tls);
    let raw = String::from_utf8(got.data.clone()).unwrap();
    assert!(
        raw.contains("\r\nAuto-Submitted: auto-generated\r\n"),
        "{raw}"
    );
    assert!(raw.contains("\r\nX-Loop: pbem@example.org\r\n"), "{raw}");
    assert!(
        raw.contains("Content-Transfer-Encoding: quoted-printable"),
        "{raw}"
    );
    // Readable on the wire: quoted-printable, not base64.
    assert!(raw.contains("bob writes: tr=C3=A8s bien"), "{raw}");
    assert_is_message(&got.data, &mail);
}

#[test]
fn smtp_sends_one_message_per_call_in_order() {
    let sink = SmtpSink::start(Policy::Accept);
    let mailer = Mailer::from_config(&sink.config()).unwrap();
    let mut sent = Vec::new();
    for player in ["alice", "bob", "carol"] {
        let mut m = board_mail(&[&format!("{player}@example.net")]);
        m.auto_submitted = AUTO_REPLIED.to_string();
        m.subject = format!("Limit Board 101 {player}");
        mailer.send(&m).unwrap();
        sent.push(m);
    }
    for m in &sent {
        let got = sink.next();
        assert_eq!(got.rcpt_to, m.to);
        assert_is_message(&got.data, m);
    }
}

#[test]
fn smtp_logs_in_when_configured() {
    let sink = SmtpSink::start(Policy::Login("relayuser".into(), "relay pw".into()));
    let mut cfg = sink.config();
    cfg.mail.smtp.username = Some("relayuser".to_string());
    cfg.mail.smtp.password = Some("relay pw".to_string());
    let mail = board_mail(&["bob@example.net"]);
    Mailer::from_config(&cfg).unwrap().send(&mail).unwrap();
    let got = sink.next();
    assert_eq!(
        got.login,
        Some(("relayuser".to_string(), "relay pw".to_string()))
    );
    assert_is_message(&got.data, &mail);

    // A refused login is the configuration's fault, not the mail's: keep it and retry later.
    cfg.mail.smtp.password = Some("wrong".to_string());
    let err = Mailer::from_config(&cfg).unwrap().send(&mail).unwrap_err();
    assert!(err.is_temporary(), "{err}");
    assert!(err.to_string().contains("login"), "{err}");
}

#[test]
fn smtp_5xx_is_a_refusal_for_good() {
    let sink = SmtpSink::start(Policy::RejectRcpt(550));
    let err = Mailer::from_config(&sink.config())
        .unwrap()
        .send(&board_mail(&["nobody@example.net"]))
        .unwrap_err();
    assert!(matches!(err, SendError::Refused(_)), "{err:?}");
    assert!(!err.is_temporary());
    assert!(err.to_string().contains("550"), "{err}");
}

#[test]
fn smtp_4xx_is_temporary() {
    let sink = SmtpSink::start(Policy::RejectRcpt(451));
    let err = Mailer::from_config(&sink.config())
        .unwrap()
        .send(&board_mail(&["busy@example.net"]))
        .unwrap_err();
    assert!(matches!(err, SendError::Temporary(_)), "{err:?}");
    assert!(err.to_string().contains("451"), "{err}");
}

#[test]
fn smtp_connection_refused_is_temporary() {
    // A port that was free a moment ago and has nobody listening now.
    let port = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let mut cfg = Config::default();
    cfg.mail.transport = Transport::Smtp;
    cfg.mail.smtp.host = "127.0.0.1".to_string();
    cfg.mail.smtp.port = Some(port);
    cfg.mail.smtp.timeout_secs = 5;
    let err = Mailer::from_config(&cfg)
        .unwrap()
        .send(&board_mail(&["alice@example.net"]))
        .unwrap_err();
    assert!(matches!(err, SendError::Temporary(_)), "{err:?}");
}

#[test]
fn unbuildable_mail_is_permanent_and_nothing_is_sent() {
    let sink = SmtpSink::start(Policy::Accept);
    let mut mail = board_mail(&["alice@example.net"]);
    mail.subject = "Limit Board 101\r\nBcc: victim@example.net".to_string();
    let err = Mailer::from_config(&sink.config())
        .unwrap()
        .send(&mail)
        .unwrap_err();
    assert!(matches!(err, SendError::Permanent(_)), "{err:?}");
    assert!(
        sink.received
            .recv_timeout(Duration::from_millis(300))
            .is_err()
    );
}

/// A mailer for `sink` that reaches it as `localhost` (the name in the test certificate) and
/// trusts the test CA through `mail.smtp.ca_file`.
fn tls_mailer(sink: &SmtpSink, dir: &Path) -> Mailer {
    let ca = dir.join("ca.pem");
    std::fs::write(&ca, TEST_CA_PEM).unwrap();
    let mut cfg = sink.config();
    cfg.mail.smtp.host = "localhost".to_string();
    cfg.mail.smtp.ca_file = Some(ca);
    Mailer::from_config(&cfg).unwrap()
}

#[test]
fn smtp_starttls_with_a_private_ca() {
    let tmp = tempfile::tempdir().unwrap();
    let sink = SmtpSink::start_tls(Policy::Accept, SinkTls::Starttls);
    let mail = board_mail(&["alice@example.net"]);
    tls_mailer(&sink, tmp.path()).send(&mail).unwrap();
    let got = sink.next();
    assert!(got.over_tls);
    assert_eq!(got.rcpt_to, ["alice@example.net"]);
    assert_is_message(&got.data, &mail);
}

#[test]
fn smtp_implicit_tls_with_a_private_ca() {
    let tmp = tempfile::tempdir().unwrap();
    let sink = SmtpSink::start_tls(Policy::Accept, SinkTls::Implicit);
    let mail = board_mail(&["bob@example.net"]);
    tls_mailer(&sink, tmp.path()).send(&mail).unwrap();
    let got = sink.next();
    assert!(got.over_tls);
    assert_is_message(&got.data, &mail);
}

#[test]
fn smtp_tls_refuses_an_untrusted_certificate() {
    // Without the private CA the certificate cannot be verified: nothing may be sent, and the
    // mail stays queued (temporary) until the configuration is fixed.
    let sink = SmtpSink::start_tls(Policy::Accept, SinkTls::Starttls);
    let mut cfg = sink.config();
    cfg.mail.smtp.host = "localhost".to_string();
    let err = Mailer::from_config(&cfg)
        .unwrap()
        .send(&board_mail(&["alice@example.net"]))
        .unwrap_err();
    assert!(err.is_temporary(), "{err}");
    assert!(
        sink.received
            .recv_timeout(Duration::from_millis(300))
            .is_err()
    );
}

#[test]
fn smtp_starttls_required_but_not_offered_is_refused() {
    // A relay that does not offer STARTTLS (or an attacker who strips it) must not get the mail
    // in plain text.
    let tmp = tempfile::tempdir().unwrap();
    let sink = SmtpSink::start(Policy::Accept);
    let ca = tmp.path().join("ca.pem");
    std::fs::write(&ca, TEST_CA_PEM).unwrap();
    let mut cfg = sink.config();
    cfg.mail.smtp.tls = SmtpTls::Starttls;
    cfg.mail.smtp.host = "localhost".to_string();
    cfg.mail.smtp.ca_file = Some(ca);
    let err = Mailer::from_config(&cfg)
        .unwrap()
        .send(&board_mail(&["alice@example.net"]))
        .unwrap_err();
    assert!(err.is_temporary(), "{err}");
    assert!(
        sink.received
            .recv_timeout(Duration::from_millis(300))
            .is_err()
    );
}

fn eml_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
}

#[test]
fn file_transport_writes_one_eml_per_message() {
    let tmp = tempfile::tempdir().unwrap();
    let outbox = tmp.path().join("spool/outbox");
    let mut cfg = Config::default();
    cfg.mail.outbox_dir = outbox.clone();
    let mailer = Mailer::from_config(&cfg).unwrap();
    assert!(!outbox.exists());

    let first = board_mail(&["alice@example.net"]);
    let mut second = board_mail(&["bob@example.net", "bob@example.com"]);
    second.subject = "New Limit Board 102 bob".to_string();
    second.in_reply_to = None;
    second.references.clear();
    mailer.send(&first).unwrap();
    mailer.send(&second).unwrap();
    // Sending the same mail again (a retried outbox entry) does not make a second file.
    mailer.send(&first).unwrap();

    let files = eml_files(&outbox);
    assert_eq!(files.len(), 2, "{files:?}");
    for f in &files {
        assert_eq!(f.extension().and_then(|e| e.to_str()), Some("eml"));
    }
    // File names sort in the order the mails were made.
    assert_is_message(&std::fs::read(&files[0]).unwrap(), &first);
    assert_is_message(&std::fs::read(&files[1]).unwrap(), &second);
}

#[test]
fn file_transport_into_an_unwritable_place_is_temporary() {
    let tmp = tempfile::tempdir().unwrap();
    // A regular file where the folder should be.
    let blocker = tmp.path().join("outbox");
    std::fs::write(&blocker, "not a folder").unwrap();
    let err = Mailer::file(&blocker)
        .send(&board_mail(&["alice@example.net"]))
        .unwrap_err();
    assert!(err.is_temporary(), "{err}");
    assert!(err.to_string().contains("outbox"), "{err}");
}

#[cfg(unix)]
mod sendmail {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    /// A sendmail stand-in: records its arguments and standard input, then exits with `status`.
    fn fake_sendmail(dir: &Path, status: i32) -> PathBuf {
        let script = dir.join("sendmail");
        std::fs::write(
            &script,
            format!(
                "#!/bin/sh\n[ -n \"$PBEM_PROBE\" ] && exit 0\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > '{dir}/args'\n\
                 cat > '{dir}/stdin'\necho 'fake sendmail says hello' >&2\nexit {status}\n",
                dir = dir.display()
            ),
        )
        .unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        // Another test thread forking at the moment the script was written holds it open for
        // writing until that child execs, and running it then fails with ETXTBSY. Wait until it
        // runs once; no new process can inherit the write handle after that.
        for _ in 0..200 {
            match std::process::Command::new(&script)
                .env("PBEM_PROBE", "1")
                .status()
            {
                Ok(s) => {
                    assert!(s.success());
                    return script;
                }
                Err(e) if e.raw_os_error() == Some(26) => {
                    std::thread::sleep(Duration::from_millis(10))
                }
                Err(e) => panic!("cannot run {}: {e}", script.display()),
            }
        }
        panic!("{} stayed busy", script.display());
    }

    fn mailer(command: PathBuf) -> Mailer {
        let mut cfg = Config::default();
        cfg.mail.transport = Transport::Sendmail;
        cfg.mail.sendmail_command = command;
        Mailer::from_config(&cfg).unwrap()
    }

    #[test]
    fn pipes_the_message_with_envelope_arguments() {
        let tmp = tempfile::tempdir().unwrap();
        let mail = board_mail(&["alice@example.net", "-oQ@example.net"]);
        mailer(fake_sendmail(tmp.path(), 0)).send(&mail).unwrap();
        let args = std::fs::read_to_string(tmp.path().join("args")).unwrap();
        assert_eq!(
            args.lines().collect::<Vec<_>>(),
            [
                "-i",
                "-f",
                "pbem@example.org",
                "--",
                "alice@example.net",
                "-oQ@example.net"
            ]
        );
        assert_is_message(&std::fs::read(tmp.path().join("stdin")).unwrap(), &mail);
    }

    #[test]
    fn tempfail_exit_is_temporary() {
        let tmp = tempfile::tempdir().unwrap();
        let err = mailer(fake_sendmail(tmp.path(), 75))
            .send(&board_mail(&["alice@example.net"]))
            .unwrap_err();
        assert!(err.is_temporary(), "{err}");
        assert!(err.to_string().contains("75"), "{err}");
        assert!(
            err.to_string().contains("fake sendmail says hello"),
            "{err}"
        );
    }

    #[test]
    fn nouser_exit_is_a_refusal_for_good() {
        let tmp = tempfile::tempdir().unwrap();
        let err = mailer(fake_sendmail(tmp.path(), 67))
            .send(&board_mail(&["nobody@example.net"]))
            .unwrap_err();
        assert!(matches!(err, SendError::Refused(_)), "{err:?}");
    }

    #[test]
    fn missing_command_is_temporary() {
        let tmp = tempfile::tempdir().unwrap();
        let err = mailer(tmp.path().join("no-such-sendmail"))
            .send(&board_mail(&["alice@example.net"]))
            .unwrap_err();
        assert!(err.is_temporary(), "{err}");
        assert!(err.to_string().contains("no-such-sendmail"), "{err}");
    }
}

/// `pbem --db … --config CONFIG ARGS` with the tests' clock, `stdin` fed to it.
fn pbem_with(env: &common::Env, config: &Path, args: &[&str], stdin: &str) -> std::process::Output {
    let mut child = std::process::Command::new(common::pbem_bin())
        .arg("--db")
        .arg(&env.db)
        .arg("--config")
        .arg(config)
        .args(args)
        .env("PBEM_NOW", env.now.to_string())
        .env("PBEM_SEED", common::SEED.to_string())
        .env_remove("PBEM_CONFIG")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn smtp_config(env: &common::Env, sink: &SmtpSink) -> PathBuf {
    let path = env.dir.path().join("pbem.toml");
    std::fs::write(
        &path,
        format!(
            "[mail]\ntransport = \"smtp\"\n[mail.smtp]\nhost = \"127.0.0.1\"\nport = {}\n\
             timeout_secs = 10\n",
            sink.addr.port()
        ),
    )
    .unwrap();
    path
}

#[test]
fn an_address_the_relay_refuses_with_550_is_given_up_and_mailed_no_more_until_it_works() {
    let sink = SmtpSink::start(Policy::RejectFor("bob@example.org".into(), 550));
    let env = common::Env::new();
    let cfg = smtp_config(&env, &sink);
    let ingest = |from: &str, subject: &str| {
        let out = pbem_with(&env, &cfg, &["ingest"], &common::eml(from, subject, ""));
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        String::from_utf8(out.stderr).unwrap()
    };
    let text = |out: std::process::Output| String::from_utf8(out.stdout).unwrap();
    ingest("alice@example.org", "signup alice pw-alice");
    assert_eq!(sink.next().rcpt_to, ["alice@example.org"]);
    // bob's welcome is refused for good: not retried, and recorded.
    let log = ingest("bob@example.org", "signup bob pw-bob");
    assert!(log.contains("it is not tried again"), "{log}");
    assert!(log.contains("550"), "{log}");
    assert!(!log.contains("retries it"), "{log}");
    let flush = pbem_with(&env, &cfg, &["outbox", "flush"], "");
    assert_eq!(flush.status.code(), Some(0), "{flush:?}");
    assert_eq!(text(flush), "sent 0, failed 0\n");
    let list = text(pbem_with(&env, &cfg, &["outbox", "list"], ""));
    assert!(list.contains("refused for good"), "{list}");
    assert!(
        list.contains("bounces\tbob@example.org\trefused since"),
        "{list}"
    );
    // A new game: alice's board mail goes; bob's is not even tried.
    ingest("alice@example.org", "limit challenge alice bob");
    let got = sink.drain(Duration::from_secs(2));
    assert!(!got.is_empty());
    assert!(
        got.iter().all(|d| d.rcpt_to == ["alice@example.org"]),
        "{got:?}"
    );
    let list = text(pbem_with(&env, &cfg, &["outbox", "list"], ""));
    assert!(list.contains("1 mail(s) not sent to it since"), "{list}");
    // The mailbox works again: bob writes, the answer is tried, gets through and says what happened;
    // from then on bob is mailed as before.
    let fixed = SmtpSink::start(Policy::Accept);
    let cfg = smtp_config(&env, &fixed);
    let out = pbem_with(
        &env,
        &cfg,
        &["ingest"],
        &common::eml("bob@example.org", "help", ""),
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let answer = fixed.next();
    assert_eq!(answer.rcpt_to, ["bob@example.org"]);
    let body = mail_parser::MessageParser::default()
        .parse(&answer.data)
        .and_then(|m| m.body_text(0).map(|b| b.to_string()))
        .unwrap();
    assert!(
        common::flat(&body).contains("Mail to bob@example.org was refused for good"),
        "{body}"
    );
    let list = text(pbem_with(&env, &cfg, &["outbox", "list"], ""));
    assert!(!list.contains("bounces\t"), "{list}");
}

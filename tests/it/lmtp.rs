//! `pbem lmtp`, end to end: the real binary listening on a real Unix socket or TCP port, a real SQLite
//! file, the file transport, and a small LMTP client written here that reads one reply per recipient
//! after DATA (RFC 2033). What comes out must be what `pbem ingest` makes of the same mails.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, ExitStatus, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use crate::common::*;

/// The mails sent so far, once the server has sent every mail it committed: `pbem lmtp` answers the
/// MTA when a mail is committed and sends its replies right after, so they may trail the answer.
fn settled(env: &Env) -> Vec<Sent> {
    let start = Instant::now();
    loop {
        let unsent: i64 = env
            .sqlite()
            .query_row(
                "SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL",
                [],
                |r| r.get(0),
            )
            // A read that fails (say, a busy file) proves nothing: ask again.
            .unwrap_or(1);
        if unsent == 0 || start.elapsed() > Duration::from_secs(20) {
            return env.take_mails();
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}
use pbem::games::{GameState, Status};

/// A running `pbem lmtp`.
pub(crate) struct Lmtp {
    child: Child,
    /// Where it listens, as it said on stderr (`unix:PATH` or `inet:HOST:PORT`).
    address: String,
    log: Arc<Mutex<Vec<String>>>,
}

impl Lmtp {
    /// Starts `pbem lmtp --listen LISTEN` on the env's database and outbox, and waits until it
    /// listens. Without a `config` it is given one of cheap password hashes alone (see [`config`]).
    fn start(env: &Env, listen: &str, config: Option<&Path>) -> Lmtp {
        let mut cmd = env.std_cmd();
        let cheap;
        let config = match config {
            Some(c) => c,
            None => {
                cheap = self::config(env, "");
                &cheap
            }
        };
        cmd.arg("--config").arg(config);
        Lmtp::spawn(cmd, listen)
    }

    /// Starts `pbem lmtp` on the env's database with the mail transport of `config` (not the
    /// outbox folder).
    pub(crate) fn start_with_transport(env: &Env, listen: &str, config: &Path) -> Lmtp {
        let mut cmd = std::process::Command::new(pbem_bin());
        cmd.arg("--db")
            .arg(&env.db)
            .arg("--config")
            .arg(config)
            .env("PBEM_NOW", env.now.to_string())
            .env("PBEM_SEED", SEED.to_string())
            .env_remove("PBEM_CONFIG");
        Lmtp::spawn(cmd, listen)
    }

    fn spawn(mut cmd: std::process::Command, listen: &str) -> Lmtp {
        let mut child = cmd
            .args(["lmtp", "--listen", listen])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let log = Arc::new(Mutex::new(Vec::new()));
        let (tx, rx) = mpsc::channel();
        let stderr = child.stderr.take().unwrap();
        let log_c = Arc::clone(&log);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if let Some(addr) = line.split("listening on ").nth(1) {
                    let _ = tx.send(addr.split(' ').next().unwrap().to_string());
                }
                log_c.lock().unwrap().push(line);
            }
        });
        let address = match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(a) => a,
            Err(_) => {
                let status = child.wait().unwrap();
                panic!(
                    "pbem lmtp did not start ({status}): {:?}",
                    log.lock().unwrap()
                );
            }
        };
        Lmtp {
            child,
            address,
            log,
        }
    }

    pub(crate) fn connect(&self) -> Client {
        Client::connect(&self.address)
    }

    /// Waits (at most a minute) until a line of its stderr contains `needle`: the lines are read
    /// by another thread, which may not have got to it yet.
    fn wait_log(&self, needle: &str) {
        let until = Instant::now() + Duration::from_secs(60);
        while !self.log.lock().unwrap().iter().any(|l| l.contains(needle)) {
            assert!(
                Instant::now() < until,
                "no {needle:?} in {:?}",
                self.log.lock().unwrap()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn signal(&self, sig: libc::c_int) {
        let pid = libc::pid_t::try_from(self.child.id()).unwrap();
        // SAFETY: kill(2) on our own child's pid.
        assert_eq!(unsafe { libc::kill(pid, sig) }, 0);
    }

    /// Waits for the process to end (at most a minute).
    fn wait(&mut self) -> ExitStatus {
        let until = Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < until, "pbem lmtp did not stop");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// SIGTERM, then the exit status.
    pub(crate) fn stop(&mut self) -> ExitStatus {
        self.signal(libc::SIGTERM);
        self.wait()
    }
}

impl Drop for Lmtp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A small LMTP client.
pub(crate) struct Client {
    read: BufReader<Box<dyn Read + Send>>,
    write: Box<dyn Write + Send>,
}

impl Client {
    /// Connects to `unix:PATH` or `inet:HOST:PORT`, reads the greeting and says LHLO.
    fn connect(address: &str) -> Client {
        let (read, write): (Box<dyn Read + Send>, Box<dyn Write + Send>) =
            if let Some(path) = address.strip_prefix("unix:") {
                let s = UnixStream::connect(path).unwrap();
                s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
                (Box::new(s.try_clone().unwrap()), Box::new(s))
            } else {
                let s = TcpStream::connect(address.strip_prefix("inet:").unwrap()).unwrap();
                s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
                (Box::new(s.try_clone().unwrap()), Box::new(s))
            };
        let mut c = Client {
            read: BufReader::new(read),
            write,
        };
        let greeting = c.reply();
        assert!(greeting.starts_with("220 "), "{greeting}");
        let lhlo = c.cmd("LHLO test.example");
        assert!(lhlo.starts_with("250 "), "{lhlo}");
        c
    }

    /// One reply; of a multi-line reply, its last line.
    fn reply(&mut self) -> String {
        loop {
            let mut line = String::new();
            self.read.read_line(&mut line).unwrap();
            assert!(line.ends_with("\r\n"), "reply line {line:?}");
            if line.as_bytes().get(3) != Some(&b'-') {
                return line.trim_end().to_string();
            }
        }
    }

    /// Writes, ignoring a connection the server already closed (its last reply can still be read).
    fn write(&mut self, bytes: &[u8]) {
        let _ = self.write.write_all(bytes);
    }

    fn cmd(&mut self, line: &str) -> String {
        self.write(format!("{line}\r\n").as_bytes());
        self.reply()
    }

    /// MAIL, RCPT for each recipient, DATA with the dot-stuffed message: the replies after the
    /// message, one per recipient.
    pub(crate) fn send(&mut self, from: &str, rcpts: &[&str], message: &str) -> Vec<String> {
        self.start_data(from, rcpts);
        self.write(&stuff(message));
        self.write(b".\r\n");
        rcpts.iter().map(|_| self.reply()).collect()
    }

    fn start_data(&mut self, from: &str, rcpts: &[&str]) {
        let r = self.cmd(&format!("MAIL FROM:<{from}>"));
        assert!(r.starts_with("250 "), "{r}");
        for to in rcpts {
            let r = self.cmd(&format!("RCPT TO:<{to}>"));
            assert!(r.starts_with("250 "), "{r}");
        }
        let r = self.cmd("DATA");
        assert!(r.starts_with("354 "), "{r}");
    }
}

/// A message as it goes after DATA: lines starting with a dot get another, and it ends in CRLF.
fn stuff(message: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for line in message.split_inclusive('\n') {
        if line.starts_with('.') {
            out.push(b'.');
        }
        out.extend_from_slice(line.as_bytes());
    }
    if !out.ends_with(b"\n") {
        out.extend_from_slice(b"\r\n");
    }
    out
}

/// A mail sent by the server, as compared between `ingest` and `lmtp`.
fn shape(mails: &[Sent]) -> Vec<(Vec<String>, String, String)> {
    mails
        .iter()
        .map(|m| (m.to.clone(), m.subject.clone(), m.flat_body()))
        .collect()
}

fn from_of(message: &str) -> String {
    message
        .lines()
        .find_map(|l| l.strip_prefix("From: "))
        .unwrap()
        .trim()
        .to_string()
}

fn unix_listen(env: &Env) -> (String, PathBuf) {
    let path = env.dir.path().join("lmtp.sock");
    (format!("unix:{}", path.display()), path)
}

/// A configuration file of `text` and cheap password hashes ([`CHEAP_PASSWORDS`]): no test here is
/// about what a password costs, and a listener hashes every signup and move of a test in full
/// otherwise (`four_connections_at_once_lose_and_double_nothing` took 7 s of CPU, most of it argon2).
fn config(env: &Env, text: &str) -> PathBuf {
    let path = env.dir.path().join("pbem.toml");
    std::fs::write(&path, format!("{text}\n{CHEAP_PASSWORDS}")).unwrap();
    path
}

/// A planned move: the seat that plays it, the move, and the move number it waits for (`#N`).
type Planned = (usize, String, u32);

/// `n` legal moves of the tests' game from its start: (seat, move, move number it waits for), and
/// the game after them. The moves are spread over the legal ones, by the first stride that keeps
/// the game going for `n` moves.
fn plan(n: usize) -> (Vec<Planned>, Box<dyn GameState>) {
    'stride: for stride in 1..100 {
        let mut g = pbem::games::Registry::standard()
            .find("limit")
            .unwrap()
            .new_game(&[], 2, SEED)
            .unwrap();
        let mut out = Vec::new();
        for k in 0..n {
            let Status::ToMove(seat) = g.status() else {
                continue 'stride;
            };
            let legal = g.legal_moves();
            let mv = legal[(k * stride + 1) % legal.len()].clone();
            let number = g.move_number();
            g.play(&mv).unwrap();
            out.push((seat, mv, number));
        }
        return (out, g);
    }
    panic!("no stride keeps the game going for {n} moves");
}

#[test]
fn mails_over_lmtp_are_answered_as_ingest_answers_them() {
    let (planned, _) = plan(2);
    let mv = |i: usize| {
        let (seat, m, n) = &planned[i];
        let who = ["alice", "bob"][*seat];
        eml_with_id(
            &format!("{who}@example.org"),
            &format!("limit move 101 {who} pw-{who} {m}#{n}"),
            "my move",
            &format!("move{i}@client.example"),
        )
    };
    let script = vec![
        eml_with_id(
            "alice@example.org",
            "signup alice pw-alice",
            "",
            "s1@client.example",
        ),
        eml_with_id(
            "bob@example.org",
            "signup bob pw-bob",
            "",
            "s2@client.example",
        ),
        eml_with_id(
            "alice@example.org",
            "limit challenge alice bob",
            "",
            "c1@client.example",
        ),
        mv(0),
        // A player's mistake: answered by mail, and the MTA is told it was handled.
        eml_with_id(
            "bob@example.org",
            "limit move 101 bob wrong-pw 1-2,3",
            "",
            "bad@client.example",
        ),
        mv(1),
        eml_with_id(
            "carol@example.org",
            "limit show 101",
            ".a line that starts with a dot\n..and one with two\n",
            "show@client.example",
        ),
    ];
    let by_ingest = Env::new();
    let mut want = Vec::new();
    for m in &script {
        by_ingest.deliver(m);
        want.push(shape(&by_ingest.take_mails()));
    }

    let env = Env::new();
    let (listen, socket) = unix_listen(&env);
    let mut server = Lmtp::start(&env, &listen, None);
    assert_eq!(server.address, listen);
    let mut client = server.connect();
    for (i, m) in script.iter().enumerate() {
        // Two recipients for the challenge: two replies, one ingest.
        let rcpts: &[&str] = if i == 2 {
            &["pbem@localhost", "games@localhost"]
        } else {
            &["pbem@localhost"]
        };
        let replies = client.send(&from_of(m), rcpts, m);
        assert_eq!(replies.len(), rcpts.len());
        for (r, to) in replies.iter().zip(rcpts) {
            assert_eq!(r, &format!("250 2.0.0 <{to}> handled"), "mail {i}");
        }
        assert_eq!(shape(&settled(&env)), want[i], "mail {i}: {m}");
    }
    assert_eq!(env.stored_moves(101).len(), 2);
    assert_eq!(client.cmd("QUIT"), "221 2.0.0 localhost closing");
    assert!(server.stop().success());
    assert!(!socket.exists(), "the socket file is removed at the end");
    server.wait_log("stopped after 7 mail(s)");
}

#[test]
fn the_same_message_twice_is_a_duplicate_and_answers_once() {
    let env = Env::new();
    let server = Lmtp::start(&env, "inet:127.0.0.1:0", None);
    assert!(server.address.starts_with("inet:127.0.0.1:"));
    let m = eml_with_id(
        "alice@example.org",
        "signup alice pw-alice",
        "",
        "twice@client.example",
    );
    let mut client = server.connect();
    assert_eq!(
        client.send("alice@example.org", &["pbem@localhost"], &m),
        ["250 2.0.0 <pbem@localhost> handled"]
    );
    assert_eq!(settled(&env).len(), 1);
    // Again, on another connection, as an MTA's retry would come.
    let mut other = server.connect();
    assert_eq!(
        other.send("alice@example.org", &["pbem@localhost", "x@localhost"], &m),
        [
            "250 2.0.0 <pbem@localhost> already processed; ignored",
            "250 2.0.0 <x@localhost> already processed; ignored"
        ]
    );
    assert!(settled(&env).is_empty(), "nothing is sent twice");
    server.wait_log("(from alice@example.org): already processed; ignored");
}

#[test]
fn a_too_big_mail_is_answered_with_the_refusal_as_by_ingest() {
    let body = "All work and no play makes Jack a dull boy.\n".repeat(7000);
    let m = eml_with_id(
        "alice@example.org",
        "signup alice pw-alice",
        &body,
        "big@client.example",
    );
    assert!(m.len() > 262_144);
    let by_ingest = Env::new();
    by_ingest.deliver(&m);
    let want = shape(&by_ingest.take_mails());
    assert_eq!(want.len(), 1);
    assert!(want[0].2.contains("larger than 256 KiB"), "{want:?}");

    let env = Env::new();
    let (listen, _) = unix_listen(&env);
    let server = Lmtp::start(&env, &listen, None);
    let mut client = server.connect();
    assert_eq!(
        client.send("alice@example.org", &["pbem@localhost"], &m),
        ["250 2.0.0 <pbem@localhost> handled"]
    );
    assert_eq!(shape(&settled(&env)), want);
    assert_eq!(client.cmd("NOOP"), "250 2.0.0 ok");
}

#[test]
fn a_locked_database_gets_451_and_the_retry_goes_through() {
    let env = Env::new();
    let cfg = config(&env, "[database]\nbusy_timeout_ms = 300\n");
    let server = Lmtp::start(&env, "inet:127.0.0.1:0", Some(&cfg));
    let mut client = server.connect();
    let m = eml_with_id(
        "alice@example.org",
        "signup alice pw-alice",
        "",
        "locked@client.example",
    );
    // Another process holds a write transaction for longer than the busy timeout.
    let holder = env.sqlite();
    holder
        .execute_batch("BEGIN IMMEDIATE; CREATE TABLE held_by_test (x);")
        .unwrap();
    assert_eq!(
        client.send("alice@example.org", &["pbem@localhost", "x@localhost"], &m),
        [
            "451 4.3.0 <pbem@localhost> temporary failure, try again later (the pbem log says why)",
            "451 4.3.0 <x@localhost> temporary failure, try again later (the pbem log says why)"
        ]
    );
    assert!(settled(&env).is_empty());
    server.wait_log("database is locked");
    holder.execute_batch("ROLLBACK").unwrap();
    // The MTA's retry, on the same connection.
    assert_eq!(
        client.send("alice@example.org", &["pbem@localhost"], &m),
        ["250 2.0.0 <pbem@localhost> handled"]
    );
    assert_eq!(settled(&env).len(), 1);
}

#[test]
fn sigterm_finishes_the_mail_in_hand_then_answers_421_and_exits_0() {
    let env = Env::new();
    let (listen, socket) = unix_listen(&env);
    let mut server = Lmtp::start(&env, &listen, None);
    let mut idle = server.connect();
    let mut busy = server.connect();
    let m = eml_with_id(
        "alice@example.org",
        "signup alice pw-alice",
        "first half\nsecond half\n",
        "term@client.example",
    );
    let (head, tail) = m.split_at(m.find("second half").unwrap());
    busy.start_data("alice@example.org", &["pbem@localhost"]);
    busy.write(&stuff(head));
    server.signal(libc::SIGTERM);
    // The idle connection is told at once; its next command gets nothing more.
    assert_eq!(idle.reply(), "421 4.3.2 shutting down");
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        server.child.try_wait().unwrap().is_none(),
        "it waits for the mail in hand"
    );
    let until = Instant::now() + Duration::from_secs(30);
    while socket.exists() {
        assert!(Instant::now() < until, "the socket is still there");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        UnixStream::connect(&socket).is_err(),
        "no new connections once shutting down"
    );
    busy.write(&stuff(tail));
    busy.write(b".\r\n");
    assert_eq!(busy.reply(), "250 2.0.0 <pbem@localhost> handled");
    assert_eq!(
        busy.cmd("MAIL FROM:<alice@example.org>"),
        "421 4.3.2 shutting down"
    );
    assert_eq!(server.wait().code(), Some(0));
    let mails = settled(&env);
    assert_eq!(mails.len(), 1);
    assert!(mails[0].subject.contains("signup"), "{mails:?}");
    server.wait_log("stopped after 1 mail(s)");
}

#[test]
fn four_connections_at_once_lose_and_double_nothing() {
    const GAMES: usize = 4;
    const MOVES: usize = 25;
    let env = Env::new();
    let server = Lmtp::start(&env, "inet:127.0.0.1:0", None);
    let user = |g: usize, seat: usize| format!("g{g}{}", ["a", "b"][seat]);
    let mut setup = server.connect();
    for g in 0..GAMES {
        for seat in 0..2 {
            let u = user(g, seat);
            let m = eml(
                &format!("{u}@example.org"),
                &format!("signup {u} pw-{u}"),
                "",
            );
            assert!(setup.send("x@example.org", &["pbem@localhost"], &m)[0].starts_with("250"));
        }
        let m = eml(
            &format!("{}@example.org", user(g, 0)),
            &format!("limit challenge {} {}", user(g, 0), user(g, 1)),
            "",
        );
        assert!(setup.send("x@example.org", &["pbem@localhost"], &m)[0].starts_with("250"));
    }
    settled(&env);
    let (planned, after) = plan(MOVES);
    let address = server.address.clone();
    let replies: Vec<Vec<String>> = std::thread::scope(|s| {
        let threads: Vec<_> = (0..GAMES)
            .map(|g| {
                let (planned, address) = (&planned, &address);
                s.spawn(move || {
                    let mut c = Client::connect(address);
                    let mut replies = Vec::new();
                    for (i, (seat, mv, n)) in planned.iter().enumerate() {
                        let who = user(g, *seat);
                        let m = eml_with_id(
                            &format!("{who}@example.org"),
                            &format!("limit move {} {who} pw-{who} {mv}#{n}", 101 + g),
                            "",
                            &format!("g{g}-m{i}@client.example"),
                        );
                        // Every fifth move is delivered twice, as an MTA may.
                        let copies = if i % 5 == 0 { 2 } else { 1 };
                        for _ in 0..copies {
                            replies.extend(c.send("x@example.org", &["pbem@localhost"], &m));
                        }
                    }
                    replies
                })
            })
            .collect();
        threads.into_iter().map(|t| t.join().unwrap()).collect()
    });
    let want = after.moves();
    for (g, r) in replies.iter().enumerate() {
        assert_eq!(r.len(), MOVES + MOVES / 5, "game {g}");
        let handled = r.iter().filter(|x| x.ends_with("> handled")).count();
        let duplicates = r
            .iter()
            .filter(|x| x.ends_with("already processed; ignored"))
            .count();
        assert_eq!((handled, duplicates), (MOVES, MOVES / 5), "game {g}: {r:?}");
        let stored = env.stored_moves(101 + g as u32);
        assert_eq!(stored, want, "game {g}: every move once, in order");
    }
    // Each move told both players once: nothing lost or sent twice.
    let mails = settled(&env);
    assert_eq!(mails.len(), GAMES * MOVES * 2, "{}", mails.len());
    assert_eq!(env.integrity_check(), "ok");
}

#[test]
fn a_socket_in_use_is_refused_and_a_stale_one_replaced() {
    let env = Env::new();
    let (listen, socket) = unix_listen(&env);
    let mut first = Lmtp::start(&env, &listen, None);
    let out = env
        .cmd()
        .args(["lmtp", "--listen", &listen])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(69));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("another process is listening on"), "{err}");
    // The first one still works.
    assert_eq!(first.connect().cmd("NOOP"), "250 2.0.0 ok");
    // Killed outright, it leaves its socket file behind; the next start takes its place.
    first.signal(libc::SIGKILL);
    first.wait();
    assert!(socket.exists());
    let second = Lmtp::start(&env, &listen, None);
    assert_eq!(second.connect().cmd("NOOP"), "250 2.0.0 ok");
    // Not a socket: left alone.
    let other = env.dir.path().join("plain-file");
    std::fs::write(&other, "x").unwrap();
    let out = env
        .cmd()
        .args(["lmtp", "--listen", &format!("unix:{}", other.display())])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(69));
    assert!(String::from_utf8_lossy(&out.stderr).contains("exists and is not a socket"));
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "x");
    let out = env
        .cmd()
        .args(["lmtp", "--listen", "tcp:1.2.3.4:5"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
    assert!(String::from_utf8_lossy(&out.stderr).contains("inet:127.0.0.1:2424"));
}

#[test]
fn a_connection_past_max_connections_is_told_to_come_back() {
    let env = Env::new();
    let cfg = config(&env, "[lmtp]\nmax_connections = 1\n");
    let server = Lmtp::start(&env, "inet:127.0.0.1:0", Some(&cfg));
    let mut first = server.connect();
    let addr = server.address.strip_prefix("inet:").unwrap();
    let mut second = BufReader::new(TcpStream::connect(addr).unwrap());
    let mut line = String::new();
    second.read_line(&mut line).unwrap();
    assert_eq!(
        line,
        "421 4.3.2 too many connections (max_connections = 1); try again later\r\n"
    );
    assert_eq!(first.cmd("QUIT"), "221 2.0.0 localhost closing");
    // Once the first is gone, there is room again.
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        let mut c = BufReader::new(TcpStream::connect(addr).unwrap());
        let mut line = String::new();
        c.read_line(&mut line).unwrap();
        if line.starts_with("220 ") {
            break;
        }
        assert!(Instant::now() < until, "{line}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_silent_client_is_sent_away() {
    let env = Env::new();
    let cfg = config(&env, "[lmtp]\nidle_timeout_secs = 1\n");
    let server = Lmtp::start(&env, "inet:127.0.0.1:0", Some(&cfg));
    let mut c = server.connect();
    let started = Instant::now();
    assert_eq!(c.reply(), "421 4.4.2 idle too long; closing");
    assert!(started.elapsed() < Duration::from_secs(10));
    // Also in the middle of a message.
    let mut c = server.connect();
    c.start_data("a@example.org", &["pbem@localhost"]);
    c.write(b"Subject: slow\r\n");
    assert_eq!(c.reply(), "421 4.4.2 idle too long; closing");
    assert!(settled(&env).is_empty());
}

/// A raw TCP client that said LHLO: for clients that only hold a connection.
fn idle_client(server: &Lmtp) -> BufReader<TcpStream> {
    let addr = server.address.strip_prefix("inet:").unwrap();
    let mut c = BufReader::new(TcpStream::connect(addr).unwrap());
    c.get_ref()
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut line = String::new();
    c.read_line(&mut line).unwrap();
    assert!(line.starts_with("220 "), "{line}");
    c.get_mut().write_all(b"LHLO idle.example\r\n").unwrap();
    loop {
        line.clear();
        c.read_line(&mut line).unwrap();
        if line.starts_with("250 ") {
            return c;
        }
    }
}

/// Says NOOP every 300 ms until the server answers something else, at most `limit`: that answer
/// (empty if the connection just closed) and when it came.
fn noop_until_sent_away(c: &mut BufReader<TcpStream>, limit: Duration) -> (String, Duration) {
    let started = Instant::now();
    while started.elapsed() < limit {
        let _ = c.get_mut().write_all(b"NOOP\r\n");
        let mut line = String::new();
        match c.read_line(&mut line) {
            Ok(_) if line == "250 2.0.0 ok\r\n" => {}
            _ => return (line, started.elapsed()),
        }
        std::thread::sleep(Duration::from_millis(300));
    }
    (String::new(), started.elapsed())
}

#[test]
fn idle_clients_on_every_slot_do_not_keep_the_mta_out() {
    let env = Env::new();
    // Every client is at 127.0.0.1, one peer: it may hold every slot here.
    let cfg = config(
        &env,
        "[lmtp]\nmax_connections = 4\nmax_connections_per_peer = 4\n",
    );
    let server = Lmtp::start(&env, "inet:127.0.0.1:0", Some(&cfg));
    // Four clients take every slot and only hold it.
    let mut idle: Vec<BufReader<TcpStream>> = (0..4).map(|_| idle_client(&server)).collect();
    std::thread::sleep(Duration::from_millis(1500));
    // The MTA still gets in and delivers.
    let mut mta = server.connect();
    let m = eml("alice@example.org", "signup alice pw-alice", "");
    assert_eq!(
        mta.send("alice@example.org", &["pbem@localhost"], &m),
        ["250 2.0.0 <pbem@localhost> handled"]
    );
    assert_eq!(settled(&env).len(), 1);
    // One idle client made room, and was told why; the others still hold theirs.
    let mut told = Vec::new();
    for c in &mut idle {
        c.get_ref()
            .set_read_timeout(Some(Duration::from_millis(500)))
            .unwrap();
        let mut line = String::new();
        if c.read_line(&mut line).is_ok() && !line.is_empty() {
            told.push(line);
        }
    }
    assert_eq!(
        told,
        ["421 4.3.2 every connection slot is taken: this idle one makes room; closing\r\n"]
    );
}

#[test]
fn idle_clients_saying_noop_are_sent_away_once_the_slots_run_low() {
    let env = Env::new();
    // busy_idle_timeout_secs is 10 by default.
    let cfg = config(&env, "[lmtp]\nmax_connections = 4\n");
    let server = Lmtp::start(&env, "inet:127.0.0.1:0", Some(&cfg));
    // Two of four slots taken: plenty left, so NOOPs keep a connection as long as it likes.
    let mut first: Vec<BufReader<TcpStream>> = (0..2).map(|_| idle_client(&server)).collect();
    for c in &mut first {
        let (line, _) = noop_until_sent_away(c, Duration::from_secs(3));
        assert_eq!(line, "", "still open after 3 s");
    }
    // A third: three quarters of the slots are taken, and those that delivered nothing for 10 s
    // go, NOOPs or not.
    let mut third = idle_client(&server);
    let results: Vec<(String, Duration)> = std::thread::scope(|s| {
        let threads: Vec<_> = first
            .iter_mut()
            .map(|c| s.spawn(move || noop_until_sent_away(c, Duration::from_secs(20))))
            .collect();
        threads.into_iter().map(|t| t.join().unwrap()).collect()
    });
    for (line, after) in &results {
        assert_eq!(
            line,
            "421 4.4.2 the server is busy and this connection delivered nothing for 10 s; closing\r\n"
        );
        assert!(*after < Duration::from_secs(12), "{after:?}");
    }
    // With them gone the slots are plentiful again: the third keeps its connection.
    let (line, _) = noop_until_sent_away(&mut third, Duration::from_secs(3));
    assert_eq!(line, "", "still open");
    // The MTA finds room and delivers.
    let mut mta = server.connect();
    let m = eml("alice@example.org", "signup alice pw-alice", "");
    assert_eq!(
        mta.send("alice@example.org", &["pbem@localhost"], &m),
        ["250 2.0.0 <pbem@localhost> handled"]
    );
}

#[test]
fn a_second_message_behind_a_bare_lf_dot_is_not_delivered() {
    let env = Env::new();
    let (listen, _) = unix_listen(&env);
    let server = Lmtp::start(&env, &listen, None);
    let mut c = server.connect();
    c.start_data("alice@example.org", &["pbem@localhost"]);
    c.write(
        b"From: alice@example.org\r\nSubject: signup alice pw-alice\r\n\
          Message-ID: <one@client.example>\r\n\r\nhello\n.\n\
          MAIL FROM:<mallory@evil.example>\r\nRCPT TO:<pbem@localhost>\r\nDATA\r\n\
          From: mallory@evil.example\r\nSubject: signup hidden pw-hidden\r\n\
          Message-ID: <two@evil.example>\r\n\r\n\r\n.\r\n",
    );
    assert_eq!(c.reply(), "250 2.0.0 <pbem@localhost> handled");
    // The next reply is the NOOP's: nothing else was read as commands.
    assert_eq!(c.cmd("NOOP"), "250 2.0.0 ok");
    let users = |u: &str| -> i64 {
        env.sqlite()
            .query_row("SELECT count(*) FROM users WHERE userid = ?1", [u], |r| {
                r.get(0)
            })
            .unwrap()
    };
    assert_eq!((users("alice"), users("hidden")), (1, 0));
    let mails = settled(&env);
    assert_eq!(mails.len(), 1, "{mails:?}");
    assert_eq!(mails[0].to, ["alice@example.org"]);
}

#[test]
fn a_killed_listener_s_committed_replies_go_out_when_it_starts_again() {
    let env = Env::new();
    // A relay that takes the connection and never answers: the workers hang while sending.
    let stuck = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = stuck.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for s in stuck.incoming() {
            held.push(s);
        }
    });
    let cfg = config(
        &env,
        &format!(
            "[mail]\ntransport = \"smtp\"\n[mail.smtp]\nhost = \"127.0.0.1\"\nport = {port}\n\
             timeout_secs = 300\n"
        ),
    );
    let mut first = Lmtp::start_with_transport(&env, "inet:127.0.0.1:0", &cfg);
    let mut c = first.connect();
    for u in ["alice", "bob"] {
        let m = eml(
            &format!("{u}@example.org"),
            &format!("signup {u} pw-{u}"),
            "",
        );
        assert_eq!(
            c.send("x@example.org", &["pbem@localhost"], &m),
            ["250 2.0.0 <pbem@localhost> handled"]
        );
    }
    let unsent = || -> i64 {
        env.sqlite()
            .query_row(
                "SELECT count(*) FROM outbox WHERE sent_at IS NULL",
                [],
                |r| r.get(0),
            )
            .unwrap()
    };
    assert_eq!(unsent(), 2, "committed, and stuck in the sending");
    first.signal(libc::SIGKILL);
    first.wait();
    // Started again (with the folder transport, where mail arrives at once): it sends them.
    let again = Lmtp::start(&env, "inet:127.0.0.1:0", None);
    let mails = settled(&env);
    let mut to: Vec<String> = mails.iter().map(|m| m.to.join(",")).collect();
    to.sort();
    assert_eq!(to, ["alice@example.org", "bob@example.org"], "{mails:?}");
    again.wait_log("outbox: 2 waiting mail(s) sent");
    // Once: a flush finds nothing more.
    let out = env.admin_ok("outbox flush");
    assert_eq!(out.trim(), "sent 0, failed 0");
    assert!(env.take_mails().is_empty());
}

#[test]
fn a_running_listener_sends_what_waits_every_flush_interval() {
    let env = Env::new();
    // The outbox folder cannot be made: a file stands where it goes, so sending fails for now.
    std::fs::write(&env.outbox, "in the way").unwrap();
    let cfg = config(&env, "[lmtp]\nflush_interval_secs = 1\n");
    let server = Lmtp::start(&env, "inet:127.0.0.1:0", Some(&cfg));
    let mut c = server.connect();
    let m = eml("alice@example.org", "signup alice pw-alice", "");
    assert_eq!(
        c.send("alice@example.org", &["pbem@localhost"], &m),
        ["250 2.0.0 <pbem@localhost> handled"]
    );
    server.wait_log("not sent yet");
    std::fs::remove_file(&env.outbox).unwrap();
    // Nobody runs `pbem outbox flush`.
    let mails = settled(&env);
    assert_eq!(mails.len(), 1, "{mails:?}");
    assert_eq!(mails[0].to, ["alice@example.org"]);
    server.wait_log("outbox: 1 waiting mail(s) sent");
}

#[test]
fn after_quit_the_server_closes_the_connection() {
    let env = Env::new();
    let server = Lmtp::start(&env, "inet:127.0.0.1:0", None);
    let mut c = idle_client(&server);
    c.get_mut().write_all(b"QUIT\r\n").unwrap();
    c.get_ref()
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut rest = String::new();
    // The end of the connection, not a timeout, ends the read.
    c.read_to_string(&mut rest).unwrap();
    assert_eq!(rest, "221 2.0.0 localhost closing\r\n");
}

/// A reply to a signed `Reply-To` (issue 25) over LMTP: the token is in `RCPT TO` only (the
/// message's own headers name the plain address), and the reply holds just the move.
#[test]
fn a_reply_move_over_lmtp_finds_its_token_in_rcpt_to() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    let board_mail = env.only_mail_to("alice@example.org");
    let reply_to = board_mail.header("Reply-To").expect("a signed Reply-To");
    let token_address = reply_to
        .rsplit_once('<')
        .map_or(reply_to.as_str(), |(_, a)| a.trim_end_matches('>'))
        .to_string();
    assert!(token_address.starts_with("pbem+"), "{token_address}");
    let (planned, _) = plan(1);
    let mv = &planned[0].1;
    let server = Lmtp::start(&env, "inet:127.0.0.1:0", None);
    let mut client = server.connect();
    // Bob sends alice's token: not alice's move, and answered as a mail with no command.
    let from_bob = eml("bob@example.org", "Re: Limit Board 101", mv);
    assert_eq!(
        client.send("bob@example.org", &[&token_address], &from_bob),
        [format!("250 2.0.0 <{token_address}> handled")]
    );
    assert!(env.stored_moves(101).is_empty());
    let to_bob = settled(&env);
    assert!(to_bob[0].body.contains("<password>"), "{:?}", to_bob);
    let reply = eml("alice@example.org", "Re: Limit Board 101", mv);
    assert!(!reply.contains("pbem+"));
    assert_eq!(
        client.send("alice@example.org", &[&token_address], &reply),
        [format!("250 2.0.0 <{token_address}> handled")]
    );
    let played: Vec<String> = env.stored_moves(101).into_iter().map(|m| m.text).collect();
    assert_eq!(played, std::slice::from_ref(mv));
    assert_eq!(settled(&env).len(), 2, "both players' board mails");
}

/// A TCP connection to `to` from the local address `source` (any of 127.0.0.0/8 reaches the
/// loopback): another peer, as the server sees it, on this one machine.
fn connect_from(
    source: std::net::Ipv4Addr,
    to: std::net::SocketAddrV4,
) -> std::io::Result<TcpStream> {
    use std::os::fd::FromRawFd;
    let sin = |a: std::net::SocketAddrV4| libc::sockaddr_in {
        sin_family: libc::sa_family_t::try_from(libc::AF_INET).unwrap(),
        sin_port: a.port().to_be(),
        sin_addr: libc::in_addr {
            s_addr: u32::from(*a.ip()).to_be(),
        },
        sin_zero: [0; 8],
    };
    let len = libc::socklen_t::try_from(std::mem::size_of::<libc::sockaddr_in>()).unwrap();
    // SAFETY: a new socket, owned by the TcpStream from here on; bind and connect read `len`
    // bytes of a sockaddr_in that lives across each call.
    unsafe {
        let fd = libc::socket(libc::AF_INET, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0);
        if fd < 0 {
            return Err(std::io::Error::last_os_error());
        }
        let stream = TcpStream::from_raw_fd(fd);
        let from = sin(std::net::SocketAddrV4::new(source, 0));
        if libc::bind(fd, (&raw const from).cast(), len) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        let to = sin(to);
        if libc::connect(fd, (&raw const to).cast(), len) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(stream)
    }
}

/// Issue 34, item 5: a client reopening 40 connections every half second held every slot with
/// connections too young to be closed, and 25 of 27 of the MTA's deliveries got `421`. One peer now
/// holds at most `max_connections_per_peer` (by default three quarters of the slots): here a
/// flooder at 127.0.0.2 reopens connections as fast as it can, each kept half a second, while the
/// MTA at 127.0.0.1 delivers ten mails, each on a new connection.
#[test]
fn one_peer_reopening_connections_does_not_keep_another_peer_s_mail_out() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let env = Env::new();
    // Three quarters of 8: the flooder may hold 6.
    let cfg = config(&env, "[lmtp]\nmax_connections = 8\n");
    let server = Lmtp::start(&env, "inet:127.0.0.1:0", Some(&cfg));
    let to: std::net::SocketAddrV4 = server
        .address
        .strip_prefix("inet:")
        .unwrap()
        .parse()
        .unwrap();
    let flooder = std::net::Ipv4Addr::new(127, 0, 0, 2);
    let stop = AtomicBool::new(false);
    let ((most_held, refusals), mta) = std::thread::scope(|s| {
        let flood = s.spawn(|| {
            let mut held: Vec<(Instant, TcpStream)> = Vec::new();
            let mut most_held = 0;
            let mut refusals = std::collections::BTreeSet::new();
            while !stop.load(Ordering::SeqCst) {
                held.retain(|(at, _)| at.elapsed() < Duration::from_millis(500));
                let Ok(c) = connect_from(flooder, to) else {
                    continue;
                };
                c.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
                let mut r = BufReader::new(c);
                let mut line = String::new();
                let _ = r.read_line(&mut line);
                if line.starts_with("220 ") {
                    held.push((Instant::now(), r.into_inner()));
                    most_held = most_held.max(held.len());
                } else {
                    refusals.insert(line);
                }
            }
            (most_held, refusals)
        });
        // Ends the flood however the deliveries go: a panic here would otherwise wait for it.
        struct Stop<'a>(&'a AtomicBool);
        impl Drop for Stop<'_> {
            fn drop(&mut self) {
                self.0.store(true, Ordering::SeqCst);
            }
        }
        let _stop = Stop(&stop);
        std::thread::sleep(Duration::from_secs(1));
        // Each delivery's first line from the server, and its answer to the mail.
        let mut mta = Vec::new();
        for i in 0..10 {
            let addr = server.address.strip_prefix("inet:").unwrap();
            let tcp = TcpStream::connect(addr).unwrap();
            tcp.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
            let mut client = Client {
                read: BufReader::new(Box::new(tcp.try_clone().unwrap())),
                write: Box::new(tcp),
            };
            let greeting = client.reply();
            if !greeting.starts_with("220 ") {
                mta.push((greeting, Vec::new()));
                continue;
            }
            assert!(client.cmd("LHLO mta.example").starts_with("250 "));
            let from = format!("p{i}@example.org");
            let answers = client.send(&from, &["pbem@localhost"], &eml(&from, "help", ""));
            assert_eq!(client.cmd("QUIT"), "221 2.0.0 localhost closing");
            mta.push((greeting, answers));
            std::thread::sleep(Duration::from_millis(100));
        }
        drop(_stop);
        (flood.join().unwrap(), mta)
    });
    let refused = mta.iter().filter(|(g, _)| !g.starts_with("220 ")).count();
    assert_eq!(refused, 0, "deliveries refused: {mta:?}");
    for (_, answers) in &mta {
        assert_eq!(answers, &["250 2.0.0 <pbem@localhost> handled"]);
    }
    assert_eq!(most_held, 6, "the flooder's connections at once");
    assert_eq!(
        refusals.into_iter().collect::<Vec<_>>(),
        [
            "421 4.3.2 too many connections from 127.0.0.2 (max_connections_per_peer = 6); try \
             again later\r\n"
        ]
    );
    assert_eq!(settled(&env).len(), 10);
}

/// On the Unix socket a peer is a local user (`SO_PEERCRED`): another user who takes connections up
/// to its cap leaves the MTA's user room. Runs a client as `nobody` (uid 65534) with Debian's
/// /usr/bin/python3, so it needs root; it says "skipped" otherwise.
#[test]
fn on_the_unix_socket_each_local_user_is_a_peer() {
    use std::os::unix::process::CommandExt;
    // SAFETY: geteuid(2) has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    if !root || !Path::new("/usr/bin/python3").exists() {
        eprintln!("skipped: needs root and /usr/bin/python3 to run a client as another user");
        return;
    }
    let env = Env::new();
    // Three quarters of 4: a peer may hold 3.
    let cfg = config(&env, "[lmtp]\nmax_connections = 4\n");
    let (listen, path) = unix_listen(&env);
    let server = Lmtp::start(&env, &listen, Some(&cfg));
    let script = "import socket, sys, time\n\
                  held = []\n\
                  for _ in range(4):\n    \
                      s = socket.socket(socket.AF_UNIX)\n    \
                      s.connect(sys.argv[1])\n    \
                      print(s.makefile('rb').readline().decode().strip(), flush=True)\n    \
                      held.append(s)\n\
                  time.sleep(60)\n";
    /// The other user's client, ended however the test goes.
    struct Other(std::process::Child);
    impl Drop for Other {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let mut other = std::process::Command::new("/usr/bin/python3")
        .args(["-c", script])
        .arg(&path)
        .current_dir("/")
        .uid(65534)
        .gid(65534)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(other.stdout.take().unwrap()).lines();
    let _other = Other(other); // Alive until the end: it holds its three connections.
    let greetings: Vec<String> = (0..4).map(|_| lines.next().unwrap().unwrap()).collect();
    // The MTA's user (root here) is another peer: it gets in while the other user holds three.
    let mut mta = server.connect();
    let m = eml("alice@example.org", "signup alice pw-alice", "");
    let delivered = mta.send("alice@example.org", &["pbem@localhost"], &m);
    assert!(
        greetings[..3].iter().all(|g| g.starts_with("220 ")),
        "{greetings:?}"
    );
    assert_eq!(
        greetings[3],
        "421 4.3.2 too many connections from uid 65534 (max_connections_per_peer = 3); try again \
         later"
    );
    assert_eq!(delivered, ["250 2.0.0 <pbem@localhost> handled"]);
}

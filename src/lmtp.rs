//! `pbem lmtp`: a resident LMTP server (RFC 2033). The MTA hands each mail to it over a Unix socket or
//! TCP instead of starting `pbem ingest` for each one, which saves the start of a process, the opening
//! of the database and the first argon2 allocation per mail.
//!
//! Each client connection has a thread of its own that only speaks the protocol ([`protocol`]);
//! complete messages go to a fixed pool of workers, each with its own [`Server`] (its own SQLite
//! connection, its own argon2 memory), which ingest them exactly as `pbem ingest` does: one
//! transaction per message, the same dedupe by Message-ID. A message is ingested once, whatever the
//! number of its recipients (the server reads the recipients from the headers), and every recipient
//! gets the reply of that one result: 250 when handled (a player's mistake is answered by mail), 451
//! where `ingest` exits 75 (the MTA keeps the mail and retries), 554 where it exits 70.
//!
//! SIGTERM or SIGINT stop the server: no new connection is taken, a message being read or ingested is
//! finished and answered, every other command gets `421 4.3.2 shutting down`, and the process exits 0.
//! A client that is silent past `idle_timeout_secs` is sent away; once the slots run low, so is one
//! that delivered nothing for `busy_idle_timeout_secs`, a full house makes room for a new
//! connection, and one peer (an address, or a local user on the Unix socket) holds at most
//! `max_connections_per_peer` of them ([`slots`]).
//!
//! The outbox is sent as the listener starts and every `flush_interval_secs` after: the replies that a
//! killed listener's workers had committed but not sent go out without anyone running
//! `pbem outbox flush`.

pub mod protocol;
pub mod slots;
mod socket;

use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::clock::Clock;
use crate::config::{Config, Listen};
use crate::exit::{self, EX_OK, EX_TEMPFAIL, EX_UNAVAILABLE};
use crate::server::Server;
use protocol::{Mail, SHUTTING_DOWN, Session, Step, Verdict};
use slots::{Peer, Slot};
use socket::{Conn, Listener};

/// Set by SIGTERM/SIGINT.
static SHUTDOWN: AtomicBool = AtomicBool::new(false);
/// The write end of the pipe that wakes every waiting thread when a signal comes (-1: none yet).
static WAKE_WRITE: AtomicI32 = AtomicI32::new(-1);

/// Stack of a worker: ingest runs the mail parser and the rules on it, as on the main thread of
/// `pbem ingest` (only the pages touched count in memory).
const WORKER_STACK: usize = 8 << 20;
/// Stack of a connection thread, which only speaks the protocol.
const CONNECTION_STACK: usize = 256 << 10;
/// How much is read from a client at once.
const READ_CHUNK: usize = 16 << 10;
/// The longest a connection's thread waits without looking again: the slots may have run low since.
const RECHECK: Duration = Duration::from_secs(1);

/// Runs the LMTP server on `listen` until SIGTERM or SIGINT; returns the exit status.
pub fn run(cfg: Config, listen: &Listen, seed: Option<u64>, clock: Arc<dyn Clock>) -> i32 {
    let wake = match install_signal_handlers() {
        Ok(fd) => fd,
        Err(e) => {
            eprintln!("pbem: lmtp: cannot set up the signal handlers: {e}");
            return exit::EX_SOFTWARE;
        }
    };
    let db = cfg.database.path.clone();
    // Made and brought up to date once, here: workers that all open a new file at once would race
    // to switch it to WAL, and one of them may find it locked.
    if let Err(e) = Server::open_at(cfg.clone(), Arc::clone(&clock)) {
        let (status, line) = exit::failure_status(&e, &db);
        eprintln!("pbem: {line}");
        return status;
    }
    let (jobs, workers) = match start_workers(&cfg, seed, &clock, &db) {
        Ok(w) => w,
        Err((status, line)) => {
            eprintln!("pbem: {line}");
            return status;
        }
    };
    let listener = match Listener::bind(listen) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("pbem: lmtp: {e}");
            return EX_UNAVAILABLE;
        }
    };
    eprintln!(
        "pbem: lmtp: listening on {} with {} workers",
        listener.address(),
        cfg.lmtp.workers
    );
    let shared = Arc::new(Shared {
        hostname: cfg.server.message_id_host().to_string(),
        max_message_bytes: cfg.limits.max_message_bytes,
        idle: Duration::from_secs(cfg.lmtp.idle_timeout_secs),
        busy_idle: Duration::from_secs(cfg.lmtp.busy_idle_timeout_secs),
        low_mark: slots::low_mark(cfg.lmtp.max_connections),
        epoch: Instant::now(),
        wake,
        active: AtomicUsize::new(0),
        mails: AtomicU64::new(0),
    });
    let flusher = start_flusher(&cfg, seed, &clock, wake);
    let caps = Caps {
        max_connections: cfg.lmtp.max_connections,
        per_peer: slots::per_peer(&cfg.lmtp),
    };
    let connections = accept_loop(&listener, &shared, &jobs, caps);
    let open = connections.iter().filter(|h| !h.is_finished()).count();
    eprintln!("pbem: lmtp: shutting down; finishing {open} open connection(s)");
    listener.close();
    for c in connections {
        let _ = c.join();
    }
    // The workers end when the last sender of jobs is gone.
    drop(jobs);
    for w in workers {
        let _ = w.join();
    }
    if let Some(f) = flusher {
        let _ = f.join();
    }
    eprintln!(
        "pbem: lmtp: stopped after {} mail(s)",
        shared.mails.load(Ordering::Relaxed)
    );
    EX_OK
}

/// What every connection thread shares.
struct Shared {
    hostname: String,
    max_message_bytes: usize,
    idle: Duration,
    /// Once `low_mark` connections are open: how long one may go without progress.
    busy_idle: Duration,
    low_mark: usize,
    /// What the slots measure time from.
    epoch: Instant,
    /// The read end of the wake-up pipe: readable once shutting down.
    wake: RawFd,
    active: AtomicUsize,
    mails: AtomicU64,
}

/// A message for a worker, and where its verdict goes.
struct Job {
    raw: Vec<u8>,
    /// The `RCPT TO` addresses: a reply to a signed `Reply-To` carries its token in one.
    recipients: Vec<String>,
    name: String,
    answer: mpsc::SyncSender<Verdict>,
}

type Workers = (mpsc::Sender<Job>, Vec<JoinHandle<()>>);

/// Starts the workers, each opening its own server on the database; fails with the exit status and
/// the line of the first that cannot open it.
fn start_workers(
    cfg: &Config,
    seed: Option<u64>,
    clock: &Arc<dyn Clock>,
    db: &Path,
) -> Result<Workers, (i32, String)> {
    let (jobs, queue) = mpsc::channel::<Job>();
    let queue = Arc::new(Mutex::new(queue));
    let (ready_tx, ready) = mpsc::channel();
    let mut handles = Vec::new();
    for i in 0..cfg.lmtp.workers {
        let (cfg, clock, db, queue, ready_tx) = (
            cfg.clone(),
            Arc::clone(clock),
            db.to_path_buf(),
            Arc::clone(&queue),
            ready_tx.clone(),
        );
        // A worker lives as long as the process: the sendmail transport ties its hand-off child to
        // the thread that started it (PR_SET_PDEATHSIG follows the thread, not the process).
        let spawned = std::thread::Builder::new()
            .name(format!("lmtp-worker-{i}"))
            .stack_size(WORKER_STACK)
            .spawn(move || worker(cfg, seed, clock, &db, &queue, &ready_tx));
        match spawned {
            Ok(h) => handles.push(h),
            Err(e) => {
                return Err((
                    exit::EX_SOFTWARE,
                    format!("lmtp: cannot start a worker: {e}"),
                ));
            }
        }
    }
    drop(ready_tx);
    for _ in 0..handles.len() {
        match ready.recv() {
            Ok(Ok(())) => {}
            Ok(Err(failure)) => return Err(failure),
            Err(_) => return Err((exit::EX_SOFTWARE, "lmtp: a worker died at start".into())),
        }
    }
    Ok((jobs, handles))
}

/// One worker: its own server, one message at a time, until the queue closes.
fn worker(
    cfg: Config,
    seed: Option<u64>,
    clock: Arc<dyn Clock>,
    db: &Path,
    queue: &Mutex<mpsc::Receiver<Job>>,
    ready: &mpsc::Sender<Result<(), (i32, String)>>,
) {
    // The server reads the clock afresh for each mail (see `crate::clock`).
    let opened = Server::open_at(cfg, clock).map_err(|e| exit::failure_status(&e, db));
    let mut server = match opened {
        Ok(s) => s.with_seed(seed).defer_sending(true),
        Err(failure) => {
            let _ = ready.send(Err(failure));
            return;
        }
    };
    let _ = ready.send(Ok(()));
    loop {
        // The lock is held only while waiting, never while ingesting.
        let next = queue.lock().unwrap_or_else(|e| e.into_inner()).recv();
        let Ok(job) = next else {
            return;
        };
        let verdict = ingest(&mut server, &job, db);
        let _ = job.answer.send(verdict);
        // The mail is committed and answered: its replies go out now, off the MTA's clock. A
        // panic while drawing or sending leaves the mails claimed in the outbox (a flush takes them
        // once the claim is stale), and the worker goes on.
        let sent =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| server.send_deferred()));
        if sent.is_err() {
            eprintln!(
                "pbem: {}: sending its replies panicked; `pbem outbox flush` retries them",
                job.name
            );
        }
    }
}

/// Starts the thread that sends what the outbox holds: at once, then every `flush_interval_secs`
/// until the server stops. Mail claimed by a live worker of this process is left to it; mail claimed
/// by a process that died (a killed listener's) is taken at once (see `Db::claim_unsent`).
fn start_flusher(
    cfg: &Config,
    seed: Option<u64>,
    clock: &Arc<dyn Clock>,
    wake: RawFd,
) -> Option<JoinHandle<()>> {
    let every = Duration::from_secs(cfg.lmtp.flush_interval_secs);
    let (cfg, clock) = (cfg.clone(), Arc::clone(clock));
    let spawned = std::thread::Builder::new()
        .name("lmtp-flush".into())
        .stack_size(WORKER_STACK)
        .spawn(move || {
            let mut server = match Server::open_at(cfg, clock) {
                Ok(s) => s.with_seed(seed),
                Err(e) => {
                    eprintln!("pbem: lmtp: the outbox will not be sent: {e}");
                    return;
                }
            };
            loop {
                flush_once(&mut server, every);
                // The wake-up pipe is readable once a signal came: then stop.
                let woken = wait_readable(wake, None, Some(every));
                if SHUTDOWN.load(Ordering::SeqCst) || matches!(woken, Ok(Ready::Input)) {
                    return;
                }
            }
        });
    match spawned {
        Ok(h) => Some(h),
        Err(e) => {
            eprintln!("pbem: lmtp: cannot start the outbox sender: {e}; run `pbem outbox flush`");
            None
        }
    }
}

/// One sending of the outbox, logged when it did anything.
fn flush_once(server: &mut Server, every: Duration) {
    let flushed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| server.flush_outbox()));
    match flushed {
        Ok(Ok(r)) => {
            if r.sent + r.failed + r.delivered_earlier + r.refused > 0 {
                eprintln!(
                    "pbem: lmtp: outbox: {} waiting mail(s) sent, {} delivered by a killed sender's \
                     hand-off, {} refused for good, {} failed (tried again in {} s)",
                    r.sent,
                    r.delivered_earlier,
                    r.refused,
                    r.failed,
                    every.as_secs()
                );
            }
        }
        Ok(Err(e)) => eprintln!(
            "pbem: lmtp: sending the outbox: {e} (tried again in {} s)",
            every.as_secs()
        ),
        Err(_) => eprintln!("pbem: lmtp: sending the outbox panicked; tried again later"),
    }
}

/// Ingests one message as `pbem ingest` does, and logs it the same way.
fn ingest(server: &mut Server, job: &Job, db: &Path) -> Verdict {
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        server.ingest_to(&job.raw, &job.recipients)
    }));
    match result {
        Ok(Ok(outcome)) => match exit::outcome_note(&outcome) {
            Some(note) => {
                eprintln!("pbem: {}: {note}", job.name);
                Verdict::Accepted(note)
            }
            None => Verdict::Accepted("handled".into()),
        },
        Ok(Err(e)) => {
            let (status, line) = exit::failure_status(&e, db);
            eprintln!("pbem: {}: {line}", job.name);
            // The reply may reach the sender in a bounce: the details (paths) stay in the log.
            if status == EX_TEMPFAIL {
                Verdict::Temporary(
                    "temporary failure, try again later (the pbem log says why)".into(),
                )
            } else {
                Verdict::Permanent("pbem failed on this message (the pbem log says why)".into())
            }
        }
        // The panic message is already on stderr.
        Err(_) => Verdict::Permanent("pbem failed on this message (the pbem log says why)".into()),
    }
}

/// How many connections may be open: in all, and from one peer.
#[derive(Clone, Copy)]
struct Caps {
    max_connections: usize,
    per_peer: usize,
}

/// Accepts connections until a signal comes; returns the threads of the connections.
fn accept_loop(
    listener: &Listener,
    shared: &Arc<Shared>,
    jobs: &mpsc::Sender<Job>,
    caps: Caps,
) -> Vec<JoinHandle<()>> {
    let Caps {
        max_connections,
        per_peer,
    } = caps;
    let mut threads: Vec<(JoinHandle<()>, Arc<Slot>, Conn)> = Vec::new();
    let mut number: u64 = 0;
    while !SHUTDOWN.load(Ordering::SeqCst) {
        match wait_readable(listener.fd(), Some(shared.wake), None) {
            Ok(Ready::Input) => {}
            Ok(_) => continue,
            Err(e) => {
                eprintln!("pbem: lmtp: waiting for connections: {e}");
                std::thread::sleep(Duration::from_millis(100));
                continue;
            }
        }
        let (conn, peer) = match listener.accept() {
            Ok(c) => c,
            Err(e) => {
                // Out of file descriptors and the like: wait instead of spinning.
                if e.kind() != io::ErrorKind::ConnectionAborted {
                    eprintln!("pbem: lmtp: accepting a connection: {e}");
                    std::thread::sleep(Duration::from_millis(100));
                }
                continue;
            }
        };
        threads.retain(|(t, ..)| !t.is_finished());
        let _ = conn.set_write_timeout(Some(shared.idle));
        let now = Instant::now();
        let open = threads.iter().filter(|(_, s, _)| !s.is_evicted()).count();
        let peer_full =
            slots::peer_is_full(threads.iter().map(|(_, s, _)| s.as_ref()), peer, per_peer);
        // A peer at its cap may give up an idle connection of its own to its new one, never another
        // peer's: otherwise its new connections would close the ones others' mail needs.
        let admitted = if peer_full {
            make_room(&threads, now, Some(peer))
        } else {
            open < max_connections || make_room(&threads, now, None)
        };
        if !admitted {
            let reply = if peer_full && per_peer < max_connections {
                format!(
                    "421 4.3.2 too many connections from {peer} (max_connections_per_peer = \
                     {per_peer}); try again later\r\n"
                )
            } else {
                format!(
                    "421 4.3.2 too many connections (max_connections = {max_connections}); try \
                     again later\r\n"
                )
            };
            refuse(conn, &reply);
            continue;
        }
        // A handle on the socket, to wake its thread when it must make room.
        let Ok(handle) = conn.try_clone() else {
            eprintln!("pbem: lmtp: cannot hold a connection: out of file descriptors?");
            continue;
        };
        number += 1;
        shared.active.fetch_add(1, Ordering::SeqCst);
        let slot = Arc::new(Slot::new(shared.epoch, now, peer));
        let (shared_c, jobs_c, slot_c) = (Arc::clone(shared), jobs.clone(), Arc::clone(&slot));
        let spawned = std::thread::Builder::new()
            .name(format!("lmtp-conn-{number}"))
            .stack_size(CONNECTION_STACK)
            .spawn(move || {
                let _count = Active(&shared_c.active);
                serve(conn, &shared_c, &jobs_c, number, &slot_c);
            });
        match spawned {
            Ok(t) => threads.push((t, slot, handle)),
            Err(e) => {
                shared.active.fetch_sub(1, Ordering::SeqCst);
                eprintln!("pbem: lmtp: cannot start a connection thread: {e}");
            }
        }
    }
    threads.into_iter().map(|(t, ..)| t).collect()
}

/// Answers a connection that gets no slot with `reply` and closes it.
fn refuse(mut conn: Conn, reply: &str) {
    let _ = conn.set_write_timeout(Some(Duration::from_secs(1)));
    let _ = conn.write_all(reply.as_bytes());
}

/// Every slot is taken (of all, or of peer `of`): closes the connection idle longest (of `of`'s,
/// when given) to make room for a new one (its thread is woken by the end of its input and says
/// why). False when none may be closed.
fn make_room(
    threads: &[(JoinHandle<()>, Arc<Slot>, Conn)],
    now: Instant,
    of: Option<Peer>,
) -> bool {
    let candidates = threads
        .iter()
        .map(|(_, s, _)| s.as_ref())
        .filter(|s| of.is_none_or(|p| s.peer() == p));
    let Some(chosen) = slots::victim(candidates, now) else {
        return false;
    };
    if !chosen.evict() {
        return false;
    }
    if let Some((_, _, handle)) = threads
        .iter()
        .find(|(_, s, _)| std::ptr::eq(s.as_ref(), chosen))
    {
        handle.shut_down_reading();
    }
    true
}

/// Counts an open connection for as long as it lives.
struct Active<'a>(&'a AtomicUsize);

impl Drop for Active<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Speaks LMTP with one client until it quits, is sent away, or the server shuts down.
fn serve(mut conn: Conn, shared: &Shared, jobs: &mpsc::Sender<Job>, number: u64, slot: &Slot) {
    converse(&mut conn, shared, jobs, number, slot);
    // The accept loop holds a handle on the socket too (to wake this thread): dropping this one
    // alone would not close the connection.
    conn.shut_down_both();
}

/// The conversation of [`serve`], until the connection is to be closed.
fn converse(conn: &mut Conn, shared: &Shared, jobs: &mpsc::Sender<Job>, number: u64, slot: &Slot) {
    let mut session = Session::new(&shared.hostname, shared.max_message_bytes);
    let mut out = session.greeting().into_bytes();
    let mut buf = vec![0u8; READ_CHUNK];
    let mut n = 0;
    let mut deadline = Instant::now() + shared.idle;
    let mut mails = 0u32;
    loop {
        let mut rest = &buf[..n];
        while let Some(step) = session.feed(&mut rest) {
            deadline = Instant::now() + shared.idle;
            match step {
                Step::Reply(r) => out.extend_from_slice(r.as_bytes()),
                Step::Close(r) => {
                    out.extend_from_slice(r.as_bytes());
                    let _ = conn.write_all(&out);
                    return;
                }
                Step::Deliver(mail) => {
                    // Replies to pipelined commands go out before the wait.
                    if conn.write_all(&out).is_err() {
                        return;
                    }
                    out.clear();
                    mails += 1;
                    slot.set_delivering(true);
                    let verdict = deliver(mail, jobs, format!("lmtp {number}.{mails}"));
                    shared.mails.fetch_add(1, Ordering::Relaxed);
                    out.extend_from_slice(session.delivered(&verdict).as_bytes());
                    deadline = Instant::now() + shared.idle;
                    slot.progressed(Instant::now());
                    slot.set_delivering(false);
                }
            }
        }
        if !out.is_empty() {
            if conn.write_all(&out).is_err() {
                return;
            }
            out.clear();
        }
        if session.is_closed() {
            return;
        }
        let stopping = SHUTDOWN.load(Ordering::SeqCst);
        if stopping {
            session.shut_down();
            if session.between_commands() {
                let _ = conn.write_all(SHUTTING_DOWN.as_bytes());
                return;
            }
        }
        let now = Instant::now();
        if slot.is_evicted() {
            send_away(
                conn,
                "421 4.3.2 every connection slot is taken: this idle one makes room; closing\r\n",
            );
            return;
        }
        if now >= deadline {
            send_away(conn, "421 4.4.2 idle too long; closing\r\n");
            return;
        }
        let busy = shared.active.load(Ordering::SeqCst) >= shared.low_mark;
        if busy && now >= slot.last_progress() + shared.busy_idle {
            send_away(
                conn,
                &format!(
                    "421 4.4.2 the server is busy and this connection delivered nothing for {} s; \
                     closing\r\n",
                    shared.busy_idle.as_secs()
                ),
            );
            return;
        }
        // While a message is being read the wake-up is not listened to: it is finished first.
        let wake = (!stopping).then_some(shared.wake);
        n = 0;
        let wait = (deadline - now).min(RECHECK);
        match wait_readable(conn.as_raw_fd(), wake, Some(wait)) {
            Ok(Ready::Input) if slot.is_evicted() => {}
            Ok(Ready::Input) => match conn.read(&mut buf) {
                Ok(0) => return,
                Ok(got) => n = got,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => return,
            },
            Ok(Ready::Woken | Ready::TimedOut) => {}
            Err(_) => return,
        }
    }
}

/// Closes a connection with a last reply that the client gets to read: the end of the output is
/// sent after it, and what the client still sends meanwhile (a pipelined NOOP) is read and dropped
/// for up to a second, since closing with unread input resets the connection, and a reset may lose
/// the reply before the client reads it.
fn send_away(conn: &mut Conn, reply: &str) {
    if conn.write_all(reply.as_bytes()).is_err() {
        return;
    }
    conn.shut_down_writing();
    let until = Instant::now() + Duration::from_secs(1);
    let mut sink = [0u8; 4096];
    while let Some(left) = until.checked_duration_since(Instant::now()) {
        match wait_readable(conn.as_raw_fd(), None, Some(left)) {
            Ok(Ready::Input) => match conn.read(&mut sink) {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            },
            _ => return,
        }
    }
}

/// Hands a message to the workers and waits for its verdict.
fn deliver(mail: Mail, jobs: &mpsc::Sender<Job>, name: String) -> Verdict {
    let name = if mail.sender.is_empty() {
        format!("{name} (from <>)")
    } else {
        format!("{name} (from {})", mail.sender)
    };
    let (answer, verdict) = mpsc::sync_channel(1);
    let job = Job {
        raw: mail.raw,
        recipients: mail.recipients,
        name,
        answer,
    };
    if jobs.send(job).is_err() {
        return Verdict::Temporary("shutting down; try again later".into());
    }
    verdict
        .recv()
        .unwrap_or_else(|_| Verdict::Temporary("the worker died; try again later".into()))
}

/// What [`wait_readable`] saw.
#[derive(Debug, PartialEq, Eq)]
enum Ready {
    /// The descriptor has input (or its peer hung up: the read tells).
    Input,
    /// The server is shutting down.
    Woken,
    /// The time ran out, or a signal interrupted the wait.
    TimedOut,
}

/// Waits until `fd` is readable, the wake-up pipe `wake` is (a signal came), or `timeout` passes
/// (`None`: no limit).
fn wait_readable(fd: RawFd, wake: Option<RawFd>, timeout: Option<Duration>) -> io::Result<Ready> {
    let mut fds = [
        libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        },
        libc::pollfd {
            fd: wake.unwrap_or(-1),
            events: libc::POLLIN,
            revents: 0,
        },
    ];
    let ms = timeout.map_or(-1, |t| {
        libc::c_int::try_from(t.as_millis().saturating_add(1)).unwrap_or(libc::c_int::MAX)
    });
    // SAFETY: `fds` is a valid array of two pollfd for the length given; a negative fd is ignored.
    let got = unsafe { libc::poll(fds.as_mut_ptr(), 2, ms) };
    if got < 0 {
        let e = io::Error::last_os_error();
        return if e.kind() == io::ErrorKind::Interrupted {
            Ok(Ready::TimedOut)
        } else {
            Err(e)
        };
    }
    if fds[1].revents != 0 {
        return Ok(Ready::Woken);
    }
    if fds[0].revents != 0 {
        return Ok(Ready::Input);
    }
    Ok(Ready::TimedOut)
}

/// Makes SIGTERM and SIGINT set [`SHUTDOWN`] and wake every waiting thread; returns the read end of
/// the wake-up pipe.
fn install_signal_handlers() -> io::Result<RawFd> {
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: `fds` has room for the two descriptors pipe2 writes.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC | libc::O_NONBLOCK) } != 0 {
        return Err(io::Error::last_os_error());
    }
    WAKE_WRITE.store(fds[1], Ordering::SeqCst);
    for sig in [libc::SIGTERM, libc::SIGINT] {
        // SAFETY: a zeroed sigaction is valid; the handler only does async-signal-safe things
        // (atomics, write(2), errno).
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            if libc::sigaction(sig, &action, std::ptr::null_mut()) != 0 {
                return Err(io::Error::last_os_error());
            }
        }
    }
    Ok(fds[0])
}

extern "C" fn on_signal(_: libc::c_int) {
    SHUTDOWN.store(true, Ordering::SeqCst);
    let fd = WAKE_WRITE.load(Ordering::SeqCst);
    if fd >= 0 {
        // SAFETY: errno is this thread's; write(2) on a non-blocking pipe is async-signal-safe. The
        // pipe stays readable from then on, which is what wakes every thread.
        unsafe {
            let errno = *libc::__errno_location();
            libc::write(fd, b"x".as_ptr().cast(), 1);
            *libc::__errno_location() = errno;
        }
    }
}

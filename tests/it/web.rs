//! `pbem web` end to end: the real binary serves a database made by the real binary (signups and
//! moves through `pbem ingest`, challenges and resignations as the admin), and the pages are fetched
//! over a real TCP socket with a small HTTP client written here.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::Duration;

use crate::common::{Env, eml};
use pbem::games::Status;

/// A running `pbem web`, stopped when dropped.
struct Web {
    child: Child,
    addr: String,
}

impl Drop for Web {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `pbem web` on a free port (port 0: it prints the one it got on its first stderr line).
fn start_web(env: &Env) -> Web {
    let mut child = env
        .std_cmd()
        .args(["web", "--listen", "127.0.0.1:0"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("pbem web: listening on http://")
        .and_then(|a| a.strip_suffix('/'))
        .unwrap_or_else(|| panic!("unexpected first line of pbem web: {line:?}"))
        .to_string();
    Web { child, addr }
}

/// The status code and the body of the answer to a raw request.
fn raw(addr: &str, request: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    s.write_all(request).unwrap();
    let mut bytes = Vec::new();
    s.read_to_end(&mut bytes).unwrap();
    let text = String::from_utf8(bytes).expect("the pages are UTF-8");
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {head:?}"));
    if status == 200 {
        assert!(
            head.to_ascii_lowercase()
                .contains("content-type: text/html; charset=utf-8"),
            "{head}"
        );
    }
    (status, body.to_string())
}

fn get(addr: &str, target: &str) -> (u16, String) {
    raw(
        addr,
        format!("GET {target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").as_bytes(),
    )
}

/// The seat to move on a board, and the first of its legal moves.
fn next_move(env: &Env, board: u32) -> (usize, String) {
    let g = env.stored_game(board);
    let Status::ToMove(seat) = g.status() else {
        panic!("board {board} is over");
    };
    (seat, g.legal_moves()[0].clone())
}

/// Plays `n` moves on a board, each by mail from the player to move.
fn play(env: &Env, board: u32, players: &[&str], n: usize) {
    for _ in 0..n {
        let (seat, mv) = next_move(env, board);
        let who = players[seat];
        env.deliver(&eml(
            &format!("{who}@example.org"),
            &format!("limit move {board} {who} pw-{who} {mv}"),
            "",
        ));
    }
    env.take_mails();
}

/// Board 101 (size 8, alice and bob, 6 moves), 102 (size 4, 2 moves), 103 (alice, bob and carol:
/// alice then bob resign, carol wins), 104 (size 16, 2 moves).
fn fixture() -> Env {
    let env = Env::new();
    env.players(&["alice", "bob", "carol"]);
    env.admin_ok("limit challenge -size=8 alice bob");
    play(&env, 101, &["alice", "bob"], 6);
    env.admin_ok("limit challenge -size=4 alice bob");
    play(&env, 102, &["alice", "bob"], 2);
    env.admin_ok("limit challenge alice bob carol");
    play(&env, 103, &["alice", "bob", "carol"], 3);
    env.admin_ok("limit resign 103 alice pw-alice");
    env.admin_ok("limit resign 103 bob pw-bob");
    env.admin_ok("limit challenge -size=16 bob carol");
    play(&env, 104, &["bob", "carol"], 2);
    env.take_mails();
    assert!(matches!(env.stored_game(103).status(), Status::Over(_)));
    env
}

/// What must never appear on a page: the fixtures' addresses and passwords (and any hash). The
/// page's own stylesheet (its `@media` rule) is not looked at, nor the server's own address, which
/// the index gives newcomers to write to (a signed reply address, `pbem+…@`, is still caught).
fn assert_no_secrets(target: &str, body: &str) {
    let body = match (body.find("<style>"), body.find("</style>")) {
        (Some(a), Some(b)) if a < b => format!("{}{}", &body[..a], &body[b..]),
        _ => body.to_string(),
    };
    let body = body.replace("pbem@localhost", "");
    for secret in [
        "example.org",
        "pw-alice",
        "pw-bob",
        "pw-carol",
        "argon2",
        "@",
    ] {
        assert!(!body.contains(secret), "{target} shows {secret:?}");
    }
}

/// The bytes of the database file and its WAL, to show that serving pages wrote nothing.
fn db_bytes(db: &Path) -> (Vec<u8>, Vec<u8>) {
    let mut wal = db.as_os_str().to_owned();
    wal.push("-wal");
    (
        std::fs::read(db).unwrap(),
        std::fs::read(PathBuf::from(wal)).unwrap_or_default(),
    )
}

#[test]
fn pages_show_the_games_boards_and_ratings_and_nothing_private() {
    let env = fixture();
    let before = db_bytes(&env.db);
    let web = start_web(&env);
    let a = web.addr.as_str();
    let mut seen = Vec::new();

    let (status, home) = get(a, "/");
    assert_eq!(status, 200);
    assert!(home.contains("<a href=\"/limit\">Limit</a>"), "{home}");
    assert!(home.contains("3 running, 1 finished"), "{home}");
    seen.push(("/".to_string(), home));

    let (status, list) = get(a, "/limit");
    assert_eq!(status, 200);
    for board in 101..=104 {
        assert!(list.contains(&format!("href=\"/limit/{board}\"")), "{list}");
    }
    assert!(
        list.contains(
            "<a href=\"/limit/player/alice\">alice</a>, <a href=\"/limit/player/bob\">bob</a>, \
             <a href=\"/limit/player/carol\">carol</a>"
        ),
        "every name links to the player's page: {list}"
    );
    assert!(list.contains("wins."), "the finished game's status: {list}");
    assert!(list.contains("to move."), "a running game's status: {list}");
    // Most recently moved first: board 104 was moved last, so it comes before 101.
    let pos = |b: &str| list.find(&format!("href=\"/limit/{b}\"")).unwrap();
    assert!(pos("104") < pos("101"), "{list}");
    assert_eq!(get(a, "/limit?page=1").0, 200);
    seen.push(("/limit".to_string(), list));

    // A running board: the picture, the players with their ratings, every move a link.
    let (status, b101) = get(a, "/limit/101");
    assert_eq!(status, 200);
    assert!(b101.contains("<svg"), "{b101}");
    assert!(b101.contains("Move 7."), "{b101}");
    // alice and bob each lost board 103: one rated game, below the 1600 of a start.
    assert!(
        b101.contains("<td><a href=\"/limit/player/alice\">alice</a></td><td>15"),
        "{b101}"
    );
    assert!(b101.contains("(1 game)"), "{b101}");
    for m in 2..=6 {
        assert!(
            b101.contains(&format!("href=\"/limit/101?move={m}\"")),
            "move {m}: {b101}"
        );
    }
    assert!(!b101.contains("old position"));
    let moves = env.stored_moves(101);
    assert!(b101.contains(&moves[0].text), "{b101}");

    // An earlier position: the board as move 3 was awaited, said to be old.
    let (status, old) = get(a, "/limit/101?move=3");
    assert_eq!(status, 200);
    assert!(old.contains("This is an old position"), "{old}");
    assert!(old.contains("Move 3."), "{old}");
    assert!(old.contains("<svg"));
    let svg = |page: &str| {
        let start = page.find("<svg").unwrap();
        page[start..page.find("</svg>").unwrap()].to_string()
    };
    assert_ne!(svg(&old), svg(&b101), "move 3 shows another board");
    let expected = env
        .stored_game(101)
        .at_move(3)
        .unwrap()
        .svg()
        .expect("limit draws its board");
    assert!(
        old.contains(&expected),
        "the page shows at_move(3)'s picture"
    );
    seen.push(("/limit/101".to_string(), b101));
    seen.push(("/limit/101?move=3".to_string(), old));

    // The finished three-player game: the winner, and what it did to each rating.
    let (status, b103) = get(a, "/limit/103");
    assert_eq!(status, 200);
    assert!(b103.contains("Game over:"), "{b103}");
    assert!(b103.contains("(carol) wins."), "{b103}");
    assert!(b103.contains("&rarr;"), "rating changes: {b103}");
    assert!(b103.contains("resign"), "{b103}");
    seen.push(("/limit/103".to_string(), b103));

    let (status, ratings) = get(a, "/limit/ratings");
    assert_eq!(status, 200);
    let rows: Vec<&str> = ratings
        .lines()
        .filter(|l| l.starts_with("<tr><td>"))
        .collect();
    assert_eq!(rows.len(), 3, "{ratings}");
    assert!(rows[0].contains("carol"), "the winner is first: {ratings}");
    assert!(!rows[0].contains("<td>1600</td>"), "{ratings}");
    seen.push(("/limit/ratings".to_string(), ratings));

    let (status, standings) = get(a, "/limit/standings");
    assert_eq!(status, 200);
    assert!(
        standings.contains(
            "<tr><td><a href=\"/limit/player/carol\">carol</a></td><td>1</td><td>1</td>\
                       <td>0</td><td>0</td><td>1</td></tr>"
        ),
        "carol: 1 played, 1 won, 1 running: {standings}"
    );
    seen.push(("/limit/standings".to_string(), standings));

    for board in [102, 104] {
        let (status, page) = get(a, &format!("/limit/{board}"));
        assert_eq!(status, 200);
        assert!(page.contains("<svg"));
        seen.push((format!("/limit/{board}"), page));
    }

    for (target, body) in &seen {
        assert_no_secrets(target, body);
        assert!(body.starts_with("<!DOCTYPE html>"), "{target}");
        assert!(!body.contains("<script"), "{target}");
    }
    assert!(
        before == db_bytes(&env.db),
        "serving pages changed the database"
    );

    // The server holds no lock: a move by mail goes through while it runs, and the next page shows it.
    let (status, _) = get(a, "/limit/102");
    assert_eq!(status, 200);
    play(&env, 102, &["alice", "bob"], 1);
    let (status, b102) = get(a, "/limit/102");
    assert_eq!(status, 200);
    assert!(b102.contains("Move 4."), "{b102}");
    let (status, _) = raw(
        a,
        b"HEAD /limit/102 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(status, 200);
    drop(web);
}

/// Issue 25, section 4: a player's page per game type, linked from every name; the provisional `P`;
/// a finished game counts the moves played; the move list one column on a phone.
#[test]
fn a_players_page_and_the_links_to_it() {
    let env = fixture();
    let web = start_web(&env);
    let a = web.addr.as_str();

    let (status, carol) = get(a, "/limit/player/carol");
    assert_eq!(status, 200, "{carol}");
    assert!(carol.contains("<h1>Limit player carol</h1>"), "{carol}");
    // Her games (103 won, 104 running), newest first, and the result with the rating change.
    let row = |b: u32| {
        carol
            .find(&format!("<tr><td><a href=\"/limit/{b}\">{b}</a></td>"))
            .unwrap_or_else(|| panic!("board {b} missing: {carol}"))
    };
    assert!(row(104) < row(103), "{carol}");
    assert!(
        !carol.contains("href=\"/limit/101\""),
        "not her game: {carol}"
    );
    let won = carol.lines().find(|l| l.contains("/limit/103\"")).unwrap();
    assert!(won.contains("<td>won: 1600 &rarr; 16"), "{won}");
    assert!(
        carol.contains("Won 1, lost 0, drawn 0; 1 running."),
        "{carol}"
    );
    // The rating history: one rated game, and the rating with its provisional P.
    let history = &carol[carol.find("<h2>Rating history</h2>").expect("history")..];
    assert!(
        history.contains("<tr><td>1</td><td><a href=\"/limit/103\">103</a></td>"),
        "{history}"
    );
    assert!(carol.contains(" P</strong> after 1 rated game."), "{carol}");
    assert!(carol.contains("P: provisional"), "{carol}");
    // Case is ignored as in mail; an unknown player or a userid no signup allows is a 404.
    assert_eq!(get(a, "/limit/player/CAROL").0, 200);
    assert_eq!(get(a, "/limit/player/nobody").0, 404);
    assert_eq!(get(a, "/limit/player/a%3Cb").0, 404);
    assert_eq!(get(a, &format!("/limit/player/{}", "a".repeat(21))).0, 404);
    // Per game type: her Hex page exists and has no games.
    let (status, hex) = get(a, "/hex/player/carol");
    assert_eq!(status, 200);
    assert!(hex.contains("No Hex games yet."), "{hex}");

    // Every name links to the page: the ratings (with P), the board's players and its move list.
    let (_, ratings) = get(a, "/limit/ratings");
    assert!(
        ratings.contains("<td><a href=\"/limit/player/carol\">carol</a></td><td>16"),
        "{ratings}"
    );
    assert!(ratings.contains(" P</td>"), "{ratings}");
    let (_, b103) = get(a, "/limit/103");
    assert!(
        b103.contains("(<a href=\"/limit/player/alice\">alice</a>)</li>"),
        "the move list: {b103}"
    );
    // A finished game: the moves played, not the move that would have come next.
    let played = env.stored_moves(103).len();
    assert!(b103.contains(&format!("{played} moves played.")), "{b103}");
    assert!(!b103.contains(&format!("Move {}.", played + 1)), "{b103}");
    // The record files are linked.
    assert!(b103.contains("href=\"/limit/103/record.txt\""), "{b103}");
    // The move list is one column below 600 px.
    assert!(
        b103.contains("@media (max-width:600px){ol.moves{columns:1}}"),
        "{b103}"
    );
    for (target, body) in [("/limit/player/carol", &carol), ("/hex/player/carol", &hex)] {
        assert_no_secrets(target, body);
    }
}

#[test]
fn bad_and_hostile_requests_get_an_error_page_that_repeats_nothing() {
    let env = fixture();
    let web = start_web(&env);
    let a = web.addr.as_str();
    let long = format!("/limit/101?move={}", "9".repeat(5000));
    let cases: Vec<(String, u16)> = vec![
        ("/nosuch".into(), 404),
        ("/limit/9999".into(), 404),
        ("/limit/abc".into(), 404),
        ("/limit/101/extra".into(), 404),
        ("/limit/-1".into(), 404),
        ("/LIMIT/101".into(), 404),
        ("/limit/101?move=abc".into(), 400),
        ("/limit/101?move=999999".into(), 404),
        ("/limit/101?move=0".into(), 400),
        ("/limit/101?move=-1".into(), 400),
        ("/limit/101?move=%00".into(), 400),
        ("/limit/101?move=99999999999999999999".into(), 400),
        ("/limit/101?move=%3Cscript%3E".into(), 400),
        ("/limit/101?move=<script>alert(1)</script>".into(), 400),
        ("/limit?page=-1".into(), 400),
        ("/limit?page=0".into(), 400),
        ("/limit?page=2".into(), 404),
        ("/limit?page=<script>alert(1)</script>".into(), 400),
        (long, 400),
        // Parameters the page does not take are ignored.
        ("/limit/101?page=<script>alert(1)</script>".into(), 200),
        ("/limit?x=<b>&move=1".into(), 200),
        ("/<script>alert(1)</script>".into(), 404),
    ];
    for (target, want) in &cases {
        let (status, body) = get(a, target);
        assert_eq!(status, *want, "{target}: {body}");
        assert!(!body.contains("<script"), "{target} reflected: {body}");
        assert!(!body.contains("alert(1)"), "{target} reflected: {body}");
        assert!(!body.contains("<b>"), "{target} reflected: {body}");
        assert!(
            body.contains("<a href=\"/\">"),
            "{target}: a way back: {body}"
        );
        assert_no_secrets(target, &body);
    }
    // Nothing but reading: any other method is refused.
    let (status, _) = raw(
        a,
        b"POST /limit/101 HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc",
    );
    assert_eq!(status, 405);
    // A NUL byte and garbage in the request line: an error, and the server goes on.
    let mut s = TcpStream::connect(a).unwrap();
    s.write_all(b"GET /limit\x00/101 HTTP/1.1\r\n\r\n").unwrap();
    drop(s);
    let mut s = TcpStream::connect(a).unwrap();
    s.write_all(b"\xff\xfe garbage\r\n\r\n").unwrap();
    drop(s);
    assert_eq!(get(a, "/limit/101").0, 200, "still serving");
}

#[test]
fn a_missing_database_is_said_at_start() {
    let env = Env::new();
    let out = env
        .std_cmd()
        .args(["web", "--listen", "127.0.0.1:0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(69));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot read the database"), "{err}");
    assert!(!env.db.exists(), "pbem web created no database");
    let out = env
        .std_cmd()
        .args(["web", "--listen", "nowhere"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
    assert!(String::from_utf8_lossy(&out.stderr).contains("host:port"));
}

/// A field of /proc/PID/status, as a number (`Threads`).
fn proc_status(pid: u32, field: &str) -> usize {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .unwrap_or_else(|| panic!("no {field} in /proc/{pid}/status"))
        .trim()
        .parse()
        .unwrap()
}

/// The sockets a process holds: its listening socket and one per connection.
fn open_sockets(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .filter_map(|e| std::fs::read_link(e.ok()?.path()).ok())
        .filter(|target| target.to_string_lossy().starts_with("socket:"))
        .count()
}

/// The CPU time a process used so far, in clock ticks (user and system, /proc/PID/stat).
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let after_name = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

/// The status of a page and the time its whole answer took, or None when no answer came in `limit`.
fn timed_get(addr: &str, target: &str, limit: Duration) -> Option<(u16, Duration)> {
    let start = std::time::Instant::now();
    let mut s = TcpStream::connect(addr).ok()?;
    s.set_read_timeout(Some(limit)).unwrap();
    s.write_all(
        format!("GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes(),
    )
    .ok()?;
    let mut bytes = Vec::new();
    s.read_to_end(&mut bytes).ok()?;
    let took = start.elapsed();
    let text = String::from_utf8_lossy(&bytes);
    let status = text.split_whitespace().nth(1)?.parse().ok()?;
    (took <= limit).then_some((status, took))
}

/// Waits (at most `limit`) until `ok` holds, polling every 100 ms; says whether it did.
fn wait_for(limit: Duration, mut ok: impl FnMut() -> bool) -> bool {
    let start = std::time::Instant::now();
    while start.elapsed() < limit {
        if ok() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    ok()
}

/// Issue 22, item 4: 160 clients that send half a request and 40 that ask for 200 board pages each
/// (6 MB, more than the kernel's buffers take) and never read them hold 200 connections; a page for
/// anyone else is still answered at once (tiny_http's two workers stayed blocked writing to the first
/// two that did not read). Then the
/// server drops them itself: the half-sent ones after the header timeout, the others when their
/// answer has not moved for the write timeout, and a kept-alive connection that sends no next
/// request after the header timeout too, while the clients still hold their ends open.
#[test]
fn slow_clients_do_not_hold_up_anybody_and_are_dropped() {
    let env = fixture();
    let web = start_web(&env);
    let a = web.addr.as_str();
    let pid = web.child.id();
    let idle = open_sockets(pid);
    let mut held = Vec::new();
    // A client that read its answer and keeps the connection open without a next request.
    let mut kept = TcpStream::connect(a).unwrap();
    kept.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    kept.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    let mut answer = [0u8; 4096];
    let n = kept.read(&mut answer).unwrap();
    assert!(answer[..n].starts_with(b"HTTP/1.1 200"));
    held.push(kept);
    for _ in 0..40 {
        let mut s = TcpStream::connect(a).unwrap();
        let pipelined = "GET /limit/104 HTTP/1.1\r\nHost: x\r\n\r\n".repeat(200);
        s.write_all(pipelined.as_bytes()).unwrap();
        held.push(s);
    }
    for _ in 0..160 {
        let mut s = TcpStream::connect(a).unwrap();
        s.write_all(b"GET /limit/101 HTTP/1.1\r\nHost: x\r\n")
            .unwrap();
        held.push(s);
    }
    // The slow clients are all in, and the pages their buffers took are made: the server is idle.
    assert!(
        wait_for(Duration::from_secs(20), || open_sockets(pid) >= idle + 200),
        "the server took {} of the 200 connections",
        open_sockets(pid) - idle
    );
    let t0 = std::time::Instant::now();
    let mut last = cpu_ticks(pid);
    wait_for(Duration::from_secs(8), || {
        std::thread::sleep(Duration::from_millis(200));
        let now = cpu_ticks(pid);
        std::mem::replace(&mut last, now) == now
    });
    let settled = t0.elapsed();
    let mut times = Vec::new();
    for target in ["/limit/101", "/", "/limit"] {
        // The figure is 1 s; 2 s leaves room for a loaded machine (tiny_http never answered).
        let answer = timed_get(a, target, Duration::from_secs(2));
        let (status, took) = answer.unwrap_or_else(|| {
            panic!("{target}: no answer within 2 s while 200 slow clients hold connections")
        });
        assert_eq!(status, 200, "{target}");
        times.push(took);
    }
    eprintln!(
        "pages answered in {times:?} beside 200 slow clients (idle {settled:?} after they came)"
    );
    assert!(
        open_sockets(pid) >= idle + 200,
        "the slow clients were still held while the pages were answered"
    );
    // The server lets them go (header timeout 10 s, write stall 10 s); the clients do not.
    assert!(
        wait_for(Duration::from_secs(40), || open_sockets(pid) == idle),
        "{} connections still held",
        open_sockets(pid) - idle
    );
    drop(held);
    assert_eq!(get(a, "/limit/101").0, 200);
}

/// Issue 22, item 4: 2,000 clients that each send half a request cost no thread each (tiny_http
/// started one per connection: 2,005 threads). The server's threads stay few while they come, and
/// it answers again as soon as they are gone.
#[test]
fn two_thousand_half_sent_requests_make_no_threads() {
    let env = fixture();
    let web = start_web(&env);
    let addr: std::net::SocketAddr = web.addr.parse().unwrap();
    let pid = web.child.id();
    assert_eq!(get(&web.addr, "/").0, 200);
    let before = proc_status(pid, "Threads");
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flooders: Vec<_> = (0..20)
        .map(|_| {
            std::thread::spawn(move || {
                let mut held = Vec::new();
                for _ in 0..100 {
                    // Past the connection limit and the backlog a connect waits for a free slot.
                    let Ok(mut s) = TcpStream::connect_timeout(&addr, Duration::from_secs(3))
                    else {
                        continue;
                    };
                    if s.write_all(b"GET /limit/101 HTTP/1.1\r\nHost: x\r\n")
                        .is_ok()
                    {
                        held.push(s);
                    }
                }
                held
            })
        })
        .collect();
    let sampler = {
        let done = std::sync::Arc::clone(&done);
        std::thread::spawn(move || {
            let mut most = 0;
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                most = most.max(proc_status(pid, "Threads"));
                std::thread::sleep(Duration::from_millis(20));
            }
            most
        })
    };
    let held: Vec<TcpStream> = flooders
        .into_iter()
        .flat_map(|f| f.join().unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    let most = sampler.join().unwrap().max(proc_status(pid, "Threads"));
    eprintln!(
        "{} half-sent requests connected; the server had {before} threads before, at most {most} during",
        held.len()
    );
    assert!(held.len() >= 1000, "only {} clients got in", held.len());
    assert!(
        most <= 16,
        "{most} threads under {} half-sent requests",
        held.len()
    );
    drop(held);
    let answered = wait_for(Duration::from_secs(15), || {
        timed_get(&web.addr, "/limit/101", Duration::from_secs(2)).is_some_and(|(s, _)| s == 200)
    });
    assert!(answered, "no page within 15 s of the clients leaving");
}

/// When fewer than a quarter of the 512 connection slots are free, a new connection has 2 s, not 10 s,
/// to send its request head, so that the slots turn over faster for the clients that do send one.
#[test]
fn scarce_slots_shorten_the_header_timeout() {
    let env = Env::new();
    env.players(&["alice"]);
    let web = start_web(&env);
    let a = web.addr.as_str();
    let pid = web.child.id();
    let mut held = Vec::new();
    for _ in 0..400 {
        let mut s = TcpStream::connect(a).unwrap();
        s.write_all(b"GET / HTTP/1.1\r\n").unwrap();
        held.push(s);
    }
    assert!(
        wait_for(Duration::from_secs(20), || open_sockets(pid) > 400),
        "the server took {} connections",
        open_sockets(pid) - 1
    );
    let mut late = TcpStream::connect(a).unwrap();
    late.write_all(b"GET / HTTP/1.1\r\n").unwrap();
    let start = std::time::Instant::now();
    late.set_read_timeout(Some(Duration::from_secs(8))).unwrap();
    let mut buf = [0u8; 64];
    let closed =
        matches!(late.read(&mut buf), Ok(0) | Err(_)) && start.elapsed() < Duration::from_secs(8);
    let took = start.elapsed();
    assert!(closed, "the late connection was not closed within 8 s");
    // 2 s, with room for a loaded machine; the first 384 (taken with more than 128 slots free: 10 s)
    // are still held then.
    assert!(took < Duration::from_secs(5), "closed after {took:?}");
    let left = open_sockets(pid) - 1;
    assert!(left >= 384, "only {left} early connections still held");
    drop(held);
}

/// Screenshots of the board pages in headless Chromium (`apt-get install -y chromium`). Skipped, with
/// a message, where /usr/bin/chromium is missing. `PBEM_SCREENSHOT_DIR=docs/pictures` keeps them.
#[test]
fn board_pages_in_headless_chromium() {
    let chromium = Path::new("/usr/bin/chromium");
    if !chromium.exists() {
        eprintln!("skipped: /usr/bin/chromium is missing (apt-get install -y chromium)");
        return;
    }
    let env = fixture();
    let web = start_web(&env);
    let keep = std::env::var_os("PBEM_SCREENSHOT_DIR").map(PathBuf::from);
    let out_dir = keep.clone().unwrap_or_else(|| env.dir.path().to_path_buf());
    std::fs::create_dir_all(&out_dir).unwrap();
    for (board, size) in [(102, 4), (101, 8), (104, 16)] {
        let png = out_dir.join(format!("web-board-size-{size}.png"));
        let _ = std::fs::remove_file(&png);
        let profile = tempfile::tempdir().unwrap();
        let out = std::process::Command::new(chromium)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                "--window-size=1000,1300",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg(format!("--screenshot={}", png.display()))
            .arg(format!("http://{}/limit/{board}", web.addr))
            .output()
            .unwrap();
        let bytes = std::fs::read(&png).unwrap_or_else(|e| {
            panic!(
                "no screenshot of board {board} ({e}): {}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
        assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "board {board}");
        // A blank page compresses to a few KB; a drawn board with text does not.
        assert!(bytes.len() > 20_000, "board {board}: {} bytes", bytes.len());
        // What a person sees: the tiles' colours fill part of the screen, each of the four.
        let counts = tile_colour_pixels(&bytes);
        for (name, n) in ["red", "blue", "green", "black"].iter().zip(counts) {
            assert!(
                n > 1_000,
                "board {board}: only {n} pixels of {name} tiles on the screen"
            );
        }
    }
}

/// Pixels of each tile colour of the board picture (red, blue, green, black) in a screenshot.
fn tile_colour_pixels(png_bytes: &[u8]) -> [usize; 4] {
    let decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let step = info.color_type.samples();
    let colours: [[u8; 3]; 4] = [
        [0xCC, 0x33, 0x33],
        [0x00, 0x72, 0xB2],
        [0x00, 0x9E, 0x73],
        [0x33, 0x33, 0x33],
    ];
    let mut counts = [0; 4];
    for px in buf[..info.buffer_size()].chunks_exact(step) {
        if let Some(k) = colours.iter().position(|c| px[..3] == c[..]) {
            counts[k] += 1;
        }
    }
    counts
}

/// The signed reply addresses of the board mails (issue 25) are on no page, not even after a
/// move and a comment made by replying to one.
#[test]
fn no_page_shows_a_signed_reply_address() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    let address_of = |m: &crate::common::Sent| {
        let h = m.header("Reply-To").expect("a signed Reply-To");
        h.rsplit_once('<')
            .map_or(h.as_str(), |(_, a)| a.trim_end_matches('>'))
            .to_string()
    };
    let mails = env.take_mails();
    let addresses: Vec<String> = mails.iter().map(address_of).collect();
    assert_eq!(addresses.len(), 2);
    let alice = mails
        .iter()
        .find(|m| m.to == ["alice@example.org"])
        .unwrap();
    let (_, mv) = next_move(&env, 101);
    let reply = eml(
        "alice@example.org",
        "Re: Limit Board 101",
        &format!("{mv}\n\nHello bob"),
    )
    .replacen(
        "To: pbem@localhost",
        &format!("To: {}", address_of(alice)),
        1,
    );
    env.deliver(&reply);
    assert_eq!(
        env.stored_moves(101).len(),
        1,
        "the reply's move was played"
    );
    let web = start_web(&env);
    for target in ["/", "/limit", "/limit/101", "/limit/101?move=1"] {
        let (status, body) = get(&web.addr, target);
        assert_eq!(status, 200, "{target}");
        for a in &addresses {
            let token = &a["pbem+".len()..a.find('@').unwrap()];
            assert!(!body.contains(token), "{target} shows a token");
        }
        assert!(!body.contains("pbem+"), "{target}");
        assert_no_secrets(target, &body);
    }
}

/// The board page in headless Chromium in a frame 390 px wide (its own viewport, as a phone's:
/// Chromium makes no window under 500 px) and at 1000 px: one column of moves on the phone, three
/// on the desktop, and the page no wider than the phone's screen. Skipped, with a message, without
/// /usr/bin/chromium; `PBEM_SCREENSHOT_DIR=docs/pictures` keeps the phone's screenshot.
#[test]
fn the_move_list_is_one_column_on_a_phone() {
    let chromium = Path::new("/usr/bin/chromium");
    if !chromium.exists() {
        eprintln!("skipped: /usr/bin/chromium is missing (apt-get install -y chromium)");
        return;
    }
    let env = fixture();
    let web = start_web(&env);
    let (status, page) = get(&web.addr, "/limit/101");
    assert_eq!(status, 200);
    let probe = "<script>window.addEventListener('load',()=>{const o=document.querySelector\
                 ('ol.moves');parent.document.body.setAttribute('data-probe','columns '+\
                 getComputedStyle(o).columnCount+' width '+document.documentElement.scrollWidth+\
                 ' inner '+window.innerWidth);});</script>";
    let framed = page
        .replace("</body>", &format!("{probe}</body>"))
        .replace('&', "&amp;")
        .replace('"', "&quot;");
    let dir = env.dir.path();
    let measure = |width: u32| {
        let file = dir.join(format!("frame-{width}.html"));
        std::fs::write(
            &file,
            format!(
                "<!DOCTYPE html><html><body style=\"margin:0;background:#888\"><iframe \
                 style=\"border:0;background:#fff;display:block\" width=\"{width}\" \
                 height=\"1600\" srcdoc=\"{framed}\"></iframe></body></html>"
            ),
        )
        .unwrap();
        let profile = tempfile::tempdir().unwrap();
        let out = std::process::Command::new(chromium)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
            ])
            .arg(format!("--window-size={},1600", width.max(500)))
            .args(["--virtual-time-budget=3000", "--dump-dom"])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg(format!("file://{}", file.display()))
            .output()
            .unwrap();
        let dom = String::from_utf8_lossy(&out.stdout).into_owned();
        let probe = dom
            .split("data-probe=\"")
            .nth(1)
            .and_then(|s| s.split('"').next())
            .unwrap_or_else(|| panic!("no measure at {width} px: {dom}"))
            .to_string();
        let n: Vec<u32> = probe.split(' ').filter_map(|w| w.parse().ok()).collect();
        assert_eq!(n.len(), 3, "{probe}");
        (n[0], n[1], n[2], file)
    };
    let (columns, page_width, inner, file) = measure(390);
    assert_eq!(inner, 390);
    assert_eq!(columns, 1, "the moves on a phone");
    assert!(
        page_width <= 390,
        "the page is {page_width} px wide on a 390 px screen"
    );
    let (columns, _, _, _) = measure(1000);
    assert_eq!(columns, 3, "the moves on a desktop");
    if let Some(keep) = std::env::var_os("PBEM_SCREENSHOT_DIR").map(PathBuf::from) {
        let shot = keep.join("web-board-390.png");
        let profile = tempfile::tempdir().unwrap();
        std::process::Command::new(chromium)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
            ])
            .args(["--window-size=500,1600", "--virtual-time-budget=3000"])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg(format!("--screenshot={}", shot.display()))
            .arg(format!("file://{}", file.display()))
            .output()
            .unwrap();
        assert!(std::fs::metadata(&shot).unwrap().len() > 20_000);
    }
}

/// Issue 37, item 6: one page for a player across every game type (`/player/carol`), linked from
/// each type's page of the player; the index says how to join and what to write.
#[test]
fn a_players_page_across_games_and_the_index_says_how_to_join() {
    let env = fixture();
    env.deliver(&eml("carol@example.org", "hex challenge carol alice", ""));
    env.take_mails();
    let web = start_web(&env);
    let a = web.addr.as_str();

    let (status, carol) = get(a, "/player/carol");
    assert_eq!(status, 200, "{carol}");
    assert!(carol.contains("<h1>Player carol</h1>"), "{carol}");
    // A row a game type she played, linked to that type's page of her, with her record.
    assert!(
        carol.contains("<tr><td><a href=\"/limit/player/carol\">Limit</a></td>"),
        "{carol}"
    );
    let limit_row = carol.lines().find(|l| l.contains(">Limit</a>")).unwrap();
    assert!(
        limit_row.ends_with("<td>1</td><td>0</td><td>0</td><td>1</td></tr>"),
        "{limit_row}"
    );
    assert!(
        carol.contains("<tr><td><a href=\"/hex/player/carol\">Hex</a></td>"),
        "{carol}"
    );
    assert!(!carol.contains(">Go</a>"), "no Go game of hers: {carol}");
    // Her running games of every type, each linked.
    let running = &carol[carol.find("<h2>Running games</h2>").expect("running")..];
    assert!(
        running.contains("<a href=\"/limit/104\">104</a>"),
        "{running}"
    );
    assert!(
        running.contains("<a href=\"/hex/101\">101</a>"),
        "{running}"
    );
    assert!(!running.contains("/limit/103\""), "103 is over: {running}");
    // Linked from each type's page of her; unknown and malformed names are 404s.
    let (_, limit_page) = get(a, "/limit/player/carol");
    assert!(
        limit_page.contains("<a href=\"/player/carol\">All games of carol</a>"),
        "{limit_page}"
    );
    assert_eq!(get(a, "/player/CAROL").0, 200);
    assert_eq!(get(a, "/player/nobody").0, 404);
    assert_eq!(get(a, "/player/a%3Cb").0, 404);
    assert_no_secrets("/player/carol", &carol);

    // The index: where to write, and the first commands.
    let (_, index) = get(a, "/");
    assert!(index.contains("<h2>How to play</h2>"), "{index}");
    assert!(index.contains("mailto:pbem@localhost"), "{index}");
    assert!(index.contains("signup yourname yourpassword"), "{index}");
    assert!(index.contains("challenge yourname theirname"), "{index}");
}

/// Issue 37, section 6: a Go game ended by the scoring step's agreement shows the agreed score
/// on its page, as its last board mail does.
#[test]
fn the_go_page_shows_the_agreed_score() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.admin_ok("go challenge -size=5 alice bob");
    for (who, line) in [
        ("alice", "c3#1"),
        ("bob", "a1#2"),
        ("alice", "pass#3"),
        ("bob", "pass#4"),
        ("alice", "dead a1#5"),
        ("alice", "accept#6"),
        ("bob", "accept#7"),
    ] {
        env.admin_ok(&format!("go move 101 {who} pw-{who} {line}"));
    }
    assert!(matches!(
        env.stored_game_of("go", 101).status(),
        pbem::games::Status::Over(_)
    ));
    let web = start_web(&env);
    let (status, page) = get(&web.addr, "/go/101");
    assert_eq!(status, 200);
    assert!(
        page.contains("Final score by the players&#39; agreement, dead: a1"),
        "{page}"
    );
    assert!(page.contains("Black wins by"), "{page}");
}

#[test]
fn the_othello_page_shows_its_board_and_record() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.admin_ok("othello challenge alice bob");
    for (who, line) in [("alice", "f5#1"), ("bob", "d6#2")] {
        env.admin_ok(&format!("othello move 101 {who} pw-{who} {line}"));
    }
    let web = start_web(&env);
    let (status, page) = get(&web.addr, "/othello/101");
    assert_eq!(status, 200);
    assert!(page.contains("Othello"), "{page}");
    // The painted board: d6 took d5 back, three discs each; Black's legal squares dotted.
    assert_eq!(page.matches("class=\"disc\"").count(), 6, "{page}");
    assert_eq!(page.matches("data-side=\"white\"").count(), 3, "{page}");
    assert!(page.contains("class=\"legal\""), "{page}");
    let (status, old) = get(&web.addr, "/othello/101?move=2");
    assert_eq!(status, 200);
    assert_eq!(old.matches("class=\"disc\"").count(), 5, "{old}");
    assert!(page.contains("href=\"/othello/101/record.txt\""), "{page}");
    let mut s = TcpStream::connect(&web.addr).unwrap();
    s.write_all(
        b"GET /othello/101/record.txt HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    )
    .unwrap();
    let mut record = String::new();
    s.read_to_string(&mut record).unwrap();
    assert!(record.starts_with("HTTP/1.1 200"), "{record}");
    assert!(record.contains("Game: othello 101"), "{record}");
    assert!(record.contains("1. black f5\n\n2. white d6\n"), "{record}");
}

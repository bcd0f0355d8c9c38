//! Crashes, end to end: `pbem ingest` and `pbem outbox flush` killed with SIGKILL at random moments
//! on a real SQLite file, as a dying machine or an impatient MTA would. The MTA delivers again every
//! message whose process did not exit 0, until one does.
//!
//! Checked after every kill: `PRAGMA integrity_check` is ok and every acknowledged (exit 0) move is
//! stored. At the end: the move list is exactly the planned one (nothing lost, nothing twice), and after
//! a last `outbox flush` (with the clock past the stale-claim mark) every queued mail was sent; the
//! mails that went out twice (killed between sending and recording it) are counted.
//!
//! The default test kills 12 processes; `cargo test --release --test crash -- --ignored --nocapture`
//! runs the long series (`KILL_RUNS`, default 60 moves, each with its flush). `KILL_SEED` fixes the
//! random moments.

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use crate::common::{Env, SEED, eml_with_id};
use pbem::games::Status;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

/// What became of one run of a process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ended {
    /// Exited by itself with this status.
    Exit(i32),
    /// Killed by us before it ended.
    Killed,
}

/// Starts `cmd`, writes `input` to its stdin, and SIGKILLs it after `delay` unless it ended first.
fn run_and_kill(mut cmd: std::process::Command, input: &[u8], delay: Duration) -> Ended {
    let mut child: Child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start pbem");
    let started = Instant::now();
    if let Some(mut stdin) = child.stdin.take() {
        // A process killed before it read its input closes the pipe: that is one of the moments.
        let _ = stdin.write_all(input);
    }
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return Ended::Exit(status.code().unwrap_or(-1));
        }
        if started.elapsed() >= delay {
            child.kill().unwrap(); // SIGKILL on Unix
            child.wait().unwrap();
            return Ended::Killed;
        }
        std::thread::sleep(Duration::from_micros(200));
    }
}

/// Wall time of one un-killed run, for the range of kill moments.
fn timed(cmd: std::process::Command, input: &[u8]) -> Duration {
    let t = Instant::now();
    let e = run_and_kill(cmd, input, Duration::from_secs(60));
    assert!(matches!(e, Ended::Exit(0)), "{e:?}");
    t.elapsed()
}

/// Counts of one series.
#[derive(Debug, Default)]
struct Counts {
    kills_ingest: u32,
    kills_flush: u32,
    exits_ingest: u32,
    exits_flush: u32,
    redeliveries: u32,
    moved_although_killed: u32,
}

fn series(moves: usize, seed: u64) {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml_with_id(
        "alice@example.org",
        "limit challenge alice bob",
        "",
        "challenge@client.example",
    ));
    // The signup confirmations were taken from the outbox folder: only later mails are compared.
    let setup_rows: i64 = env
        .sqlite()
        .query_row("SELECT COALESCE(MAX(id), 0) FROM outbox", [], |r| r.get(0))
        .unwrap();
    let players = ["alice", "bob"];
    let mut game = pbem::games::Registry::standard()
        .find("limit")
        .unwrap()
        .new_game(&[], 2, SEED)
        .unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let flush = || {
        let mut c = env.std_cmd();
        c.args(["outbox", "flush"]);
        c
    };
    let ingest = || {
        let mut c = env.std_cmd();
        c.arg("ingest");
        c
    };
    // How long an un-killed process takes here (a move costs a password check, as this wrong
    // password does); kills fall anywhere in 0..1.5 times that, so some land after the commit.
    let probe = eml_with_id(
        "carol@example.net",
        "limit move 101 carol no-such-password 1-2,3",
        "",
        "probe@x",
    );
    let typical_ingest = timed(ingest(), probe.as_bytes());
    let typical_flush = timed(flush(), b"");
    let mut counts = Counts::default();
    let mut acknowledged = 0usize;

    let mut board = 101;
    let mut games_played = 1;
    for k in 0..moves {
        if !matches!(game.status(), Status::ToMove(_)) {
            // A Limit game lasts about 20 moves: the series goes on with a new one.
            board += 1;
            games_played += 1;
            env.deliver(&eml_with_id(
                "alice@example.org",
                "limit challenge alice bob",
                "",
                &format!("challenge-{board}@client.example"),
            ));
            game = pbem::games::Registry::standard()
                .find("limit")
                .unwrap()
                .new_game(&[], 2, SEED)
                .unwrap();
        }
        let Status::ToMove(seat) = game.status() else {
            unreachable!("a new game awaits a move");
        };
        let legal = game.legal_moves();
        let mv = legal[(k * 5 + 1) % legal.len()].clone();
        let number = game.move_number();
        let who = players[seat];
        let msg = eml_with_id(
            &format!("{who}@example.org"),
            &format!("limit move {board} {who} pw-{who} {mv}#{number}"),
            "killed or not",
            &format!("move-{k}@client.example"),
        );
        // The first delivery is killed at a random moment; the MTA then delivers until exit 0.
        let max = typical_ingest.as_micros() as u64 * 3 / 2;
        let delay = Duration::from_micros(rng.next_u64() % max.max(1));
        match run_and_kill(ingest(), msg.as_bytes(), delay) {
            Ended::Killed => {
                counts.kills_ingest += 1;
                assert_eq!(
                    env.integrity_check(),
                    "ok",
                    "after killing ingest of move {k}"
                );
                if env.stored_game(board).move_number() > number {
                    counts.moved_although_killed += 1;
                }
                loop {
                    counts.redeliveries += 1;
                    match run_and_kill(ingest(), msg.as_bytes(), Duration::from_secs(60)) {
                        Ended::Exit(0) => break,
                        Ended::Exit(75) => std::thread::sleep(Duration::from_millis(20)),
                        other => panic!("redelivery of move {k}: {other:?}"),
                    }
                }
            }
            Ended::Exit(0) => counts.exits_ingest += 1,
            other => panic!("ingest of move {k}: {other:?}"),
        }
        acknowledged += 1;
        game.play(&mv).unwrap();
        // Every acknowledged move is stored, once.
        let stored = env.stored_game(board);
        assert_eq!(stored.moves(), game.moves(), "after move {k}");

        let max = typical_flush.as_micros() as u64 * 3 / 2;
        let delay = Duration::from_micros(rng.next_u64() % max.max(1));
        match run_and_kill(flush(), b"", delay) {
            Ended::Killed => counts.kills_flush += 1,
            Ended::Exit(_) => counts.exits_flush += 1,
        }
        assert_eq!(env.integrity_check(), "ok", "after flush {k}");
    }

    // Later, with every claim stale, one flush sends what is left.
    let mut last = env.std_cmd();
    last.env("PBEM_NOW", (env.now + 3600).to_string())
        .args(["outbox", "flush"]);
    let out = last.output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let conn = env.sqlite();
    let unsent: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let mut stmt = conn
        .prepare("SELECT mail FROM outbox WHERE id > ?1")
        .unwrap();
    let queued: Vec<String> = stmt
        .query_map([setup_rows], |r| r.get::<_, String>(0))
        .unwrap()
        .map(|r| {
            let mail: pbem::mail_out::OutgoingMail = serde_json::from_str(&r.unwrap()).unwrap();
            mail.message_id
        })
        .collect();
    let mails = env.take_mails();
    let mut seen: HashMap<String, u32> = HashMap::new();
    for m in &mails {
        let id = m.header("Message-ID").expect("every mail has a Message-ID");
        *seen.entry(id).or_default() += 1;
    }
    let missing: Vec<&String> = queued.iter().filter(|id| !seen.contains_key(*id)).collect();
    let twice: u32 = seen.values().map(|n| n - 1).sum();
    let distinct_queued: HashSet<&String> = queued.iter().collect();
    eprintln!(
        "kill -9 series (seed {seed}): {} moves acknowledged in {games_played} games; ingest killed {} times (move stored \
         anyway {}), {} redeliveries, {} ran to the end; flush killed {} times, {} ran to the end; \
         {} mails queued, {} files written, {} sent twice, {} never sent; integrity ok after \
         every kill",
        acknowledged,
        counts.kills_ingest,
        counts.moved_although_killed,
        counts.redeliveries,
        counts.exits_ingest,
        counts.kills_flush,
        counts.exits_flush,
        queued.len(),
        mails.len(),
        twice,
        missing.len(),
    );
    assert_eq!(distinct_queued.len(), queued.len());
    assert_eq!(unsent, 0, "mails left unsent after the last flush");
    assert!(missing.is_empty(), "queued but never sent: {missing:?}");
    assert_eq!(env.stored_game(board).moves(), game.moves());
    assert_eq!(env.integrity_check(), "ok");
    // Each move mails both players (the mover's answer and the other's board), and every mail
    // that went out twice was one whose sender died between sending and recording it.
    assert!(queued.len() >= 2 * acknowledged);
    assert!(twice <= counts.kills_ingest + counts.kills_flush);
}

fn seed() -> u64 {
    std::env::var("KILL_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_251_121)
}

#[test]
fn killed_ingest_and_flush_lose_nothing() {
    series(12, seed());
}

#[test]
#[ignore = "long: run with --ignored (scripts/killnine.sh)"]
fn killed_ingest_and_flush_lose_nothing_long() {
    let runs = std::env::var("KILL_RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    series(runs, seed());
}

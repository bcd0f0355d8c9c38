//! Concurrency, end to end: many real `pbem ingest` processes on one real SQLite file at the same
//! moment, as an MTA delivers mail (the same message sometimes twice at once, a temporary failure retried
//! later). Every message must be acted on exactly once: no move lost, none applied twice, every mail
//! answered once, and no exit status but 0 or 75 (and every 75 must go through when retried).
//!
//! Run with `--nocapture` to see the counts.

use crate::common;
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::process::{Child, Stdio};
use std::sync::Barrier;
use std::time::{Duration, Instant};

use crate::common::{EVERY_ANSWER, Env, SEED, Sent, eml_with_id};
use pbem::games::{GameState, MoveRecord, Status};

/// Processes started at the same moment.
const PROCESSES: usize = 16;
/// Deliveries of one message that may end in exit 75 before the test gives up on it (an MTA keeps
/// trying for days; a test cannot).
const MAX_ATTEMPTS: u32 = 200;

/// One planned move of the game all tests play (default options, two players, the tests' seed).
#[derive(Debug, Clone)]
struct Planned {
    seat: usize,
    mv: String,
    /// The move number awaited before it (its `#N` guard).
    number: u32,
}

/// `n` legal moves in sequence, spread over the legal moves (not always the first), and the game
/// after them (its move list is what the database must hold).
fn plan(n: usize) -> (Vec<Planned>, Box<dyn GameState>) {
    let mut g = pbem::games::Registry::standard()
        .find("limit")
        .unwrap()
        .new_game(&[], 2, SEED)
        .unwrap();
    let mut out = Vec::new();
    for k in 0..n {
        let Status::ToMove(seat) = g.status() else {
            break;
        };
        let legal = g.legal_moves();
        let mv = legal[(k * 7 + 3) % legal.len()].clone();
        let number = g.move_number();
        g.play(&mv).unwrap();
        out.push(Planned { seat, mv, number });
    }
    assert_eq!(out.len(), n, "the game ended before {n} moves");
    (out, g)
}

/// What became of one message, over all its deliveries.
#[derive(Debug, Default, Clone)]
struct Delivered {
    /// Processes run for it (copies delivered at once, and retries).
    processes: u32,
    /// Of those, how many exited 75.
    tempfails: u32,
    /// Exits other than 0 and 75, with stderr.
    failures: Vec<String>,
    /// Copies that the server recognised as already processed.
    silent_duplicates: u32,
    /// The longest a process of it ran (waiting for the database included).
    slowest: Duration,
}

/// Counts over a whole test.
#[derive(Debug, Default)]
struct Tally {
    messages: usize,
    processes: u32,
    tempfails: u32,
    failures: Vec<String>,
    silent_duplicates: u32,
    slowest: Duration,
}

impl Tally {
    fn add(&mut self, d: &Delivered) {
        self.messages += 1;
        self.processes += d.processes;
        self.tempfails += d.tempfails;
        self.failures.extend(d.failures.iter().cloned());
        self.silent_duplicates += d.silent_duplicates;
        self.slowest = self.slowest.max(d.slowest);
    }
}

/// Starts one `pbem ingest` per message; only when all are running does any get its message on stdin,
/// so that they really work at the same moment. Returns each one's exit status, stderr and run time
/// (an upper bound: the time until it was seen to have ended).
fn run_at_once(
    cmd: &dyn Fn() -> std::process::Command,
    messages: &[&str],
) -> Vec<(Option<i32>, String, Duration)> {
    let started = Instant::now();
    let mut children: Vec<Child> = messages
        .iter()
        .map(|_| {
            cmd()
                .arg("ingest")
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("start pbem ingest")
        })
        .collect();
    // The messages are far smaller than a pipe's buffer: writing does not wait for the reader.
    for (child, msg) in children.iter_mut().zip(messages) {
        let mut stdin = child.stdin.take().unwrap();
        match stdin.write_all(msg.as_bytes()) {
            // pbem opens the database before it reads its input; a process that gave up there (exit
            // 75, database locked) never reads it. Its exit status says what happened.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
            other => other.unwrap(),
        }
    }
    children
        .into_iter()
        .map(|c| {
            let out = c.wait_with_output().unwrap();
            (
                out.status.code(),
                String::from_utf8_lossy(&out.stderr).into_owned(),
                started.elapsed(),
            )
        })
        .collect()
}

/// Delivers every message (each copy in its own process, all at once), then delivers again, like an
/// MTA, every copy that exited 75, until none does. Returns what happened to each message, by index.
fn deliver_at_once(
    cmd: &dyn Fn() -> std::process::Command,
    messages: &[(usize, &str)],
) -> HashMap<usize, Delivered> {
    let mut result: HashMap<usize, Delivered> = HashMap::new();
    let mut pending: Vec<(usize, &str)> = messages.to_vec();
    let mut attempt = 0;
    while !pending.is_empty() {
        attempt += 1;
        assert!(
            attempt <= MAX_ATTEMPTS,
            "still exit 75 after {MAX_ATTEMPTS} deliveries: {} messages",
            pending.len()
        );
        if attempt > 1 {
            // An MTA waits before it tries again; a short, growing pause here.
            std::thread::sleep(Duration::from_millis(5 * u64::from(attempt.min(20))));
        }
        let texts: Vec<&str> = pending.iter().map(|(_, m)| *m).collect();
        let runs = run_at_once(cmd, &texts);
        let mut again = Vec::new();
        for ((key, msg), (code, stderr, took)) in pending.iter().zip(runs) {
            let d = result.entry(*key).or_default();
            d.processes += 1;
            d.slowest = d.slowest.max(took);
            if stderr.contains("already processed") {
                d.silent_duplicates += 1;
            }
            match code {
                Some(0) => {}
                Some(75) => {
                    d.tempfails += 1;
                    again.push((*key, *msg));
                }
                other => d.failures.push(format!("exit {other:?}: {stderr}")),
            }
        }
        pending = again;
    }
    result
}

/// The mails answering each incoming Message-ID (the sender's own answer, auto-replied), and the
/// count of the others (board mails to the other players: auto-generated, threaded under the game's
/// first board mail rather than under the incoming mail).
fn replies_by_id(mails: &[Sent]) -> (HashMap<String, Vec<Sent>>, usize) {
    let mut by_id: HashMap<String, Vec<Sent>> = HashMap::new();
    let mut others = 0;
    for m in mails {
        let answer = m.header("Auto-Submitted").as_deref() == Some("auto-replied");
        match m.in_reply_to() {
            Some(id) if answer => by_id.entry(id).or_default().push(m.clone()),
            _ => others += 1,
        }
    }
    (by_id, others)
}

fn is_error(m: &Sent) -> bool {
    m.body.starts_with("Your command was not carried out:")
}

fn cmd_for(env: &Env, config: Option<std::path::PathBuf>) -> impl Fn() -> std::process::Command {
    move || {
        let mut c = env.std_cmd();
        if let Some(cfg) = &config {
            c.arg("--config").arg(cfg);
        }
        c
    }
}

/// What one incoming message was meant to do.
#[derive(Debug, Clone)]
enum Kind {
    /// The planned move with this index.
    Move(usize),
    /// A chat with this text.
    Chat(String),
    Show,
    /// Another read-only or refused command (`help`, `list`, `games`, a wrong password): answered
    /// once, with an error exactly when the second field says so.
    Other(&'static str, bool),
}

/// The commands that fill the spectators' slots in turn, besides `show`: every kind that can run
/// beside moves without changing the game (the answer must say which, by its subject).
const OTHERS: [(&str, bool); 4] = [
    ("help", false),
    ("list", false),
    ("limit games alice", false),
    ("limit move 101 mallory wrong-password 1-2,3", true),
];

/// Both players of board 101 and spectators, in rounds of 16 processes at once: the move now due
/// (4 copies of the same message), the move after it (2 copies, racing the first: refused as "not your
/// turn" if it comes first, in which case it is sent again in the next round), a chat from each player
/// (2 copies each) and `show` from three spectators (2 copies each). Returns the counts.
fn same_game(moves: usize, config: Option<std::path::PathBuf>) -> Tally {
    let env = Env::new();
    // Every message's answer is counted (spectators are no players, and `show` from them would
    // soon be past their few answers a day): the per-address allowances of answers are off.
    let given = config.map_or(String::new(), |c| std::fs::read_to_string(c).unwrap());
    let every = env.dir.path().join("every-answer.toml");
    std::fs::write(&every, format!("{given}\n{EVERY_ANSWER}")).unwrap();
    let config = Some(every);
    env.players(&["alice", "bob"]);
    env.deliver(&eml_with_id(
        "alice@example.org",
        "limit challenge alice bob",
        "",
        "challenge@client.example",
    ));
    env.take_mails();
    let (planned, expected) = plan(moves);
    let players = ["alice", "bob"];
    let cmd = cmd_for(&env, config);

    let mut kinds: HashMap<usize, (String, Kind)> = HashMap::new();
    let mut tally = Tally::default();
    let mut rounds = 0;
    let started = Instant::now();
    loop {
        let awaited = env.stored_game(101).move_number();
        let done = planned.iter().filter(|p| p.number < awaited).count();
        if done == planned.len() {
            break;
        }
        rounds += 1;
        assert!(
            rounds <= moves,
            "no progress: {done} moves after {rounds} rounds"
        );
        let mut batch: Vec<(usize, String, u32)> = Vec::new();
        let mut add = |from: &str, subject: String, body: &str, kind: Kind, copies: u32| {
            let key = kinds.len();
            let id = format!("r{rounds}-m{key}@client.example");
            kinds.insert(key, (id.clone(), kind));
            batch.push((key, eml_with_id(from, &subject, body, &id), copies));
        };
        for (i, copies) in [(done, 4), (done + 1, 2)] {
            if let Some(p) = planned.get(i) {
                let who = players[p.seat];
                add(
                    &format!("{who}@example.org"),
                    format!("limit move 101 {who} pw-{who} {}#{}", p.mv, p.number),
                    "",
                    Kind::Move(i),
                    copies,
                );
            }
        }
        for who in players {
            let text = format!("round {rounds}: {who} says hello");
            add(
                &format!("{who}@example.org"),
                format!("limit chat 101 {who} pw-{who}"),
                &text,
                Kind::Chat(text.clone()),
                2,
            );
        }
        // Spectators fill the round up to 16 processes (one more when the last move has no successor).
        let used: u32 = 4 + 2 * 2 + if done + 1 < planned.len() { 2 } else { 0 };
        let mut left = PROCESSES as u32 - used;
        let mut spectator = 0;
        while left > 0 {
            spectator += 1;
            let copies = left.min(2);
            // Every other spectator sends one of the other kinds of command, in turn.
            if spectator % 2 == 0 {
                let (line, error) = OTHERS[(rounds + spectator) % OTHERS.len()];
                add(
                    &format!("spectator{spectator}@example.net"),
                    line.into(),
                    "",
                    Kind::Other(line, error),
                    copies,
                );
            } else {
                add(
                    &format!("spectator{spectator}@example.net"),
                    "limit show 101".into(),
                    "",
                    Kind::Show,
                    copies,
                );
            }
            left -= copies;
        }
        let copies: Vec<(usize, &str)> = batch
            .iter()
            .flat_map(|(key, msg, n)| std::iter::repeat_n((*key, msg.as_str()), *n as usize))
            .collect();
        assert_eq!(copies.len(), PROCESSES);
        for d in deliver_at_once(&cmd, &copies).values() {
            tally.add(d);
        }
    }
    let elapsed = started.elapsed();

    // What the database holds.
    let stored = env.stored_moves(101);
    let want: Vec<MoveRecord> = expected.moves();
    let mails = env.take_mails();
    let (by_id, others) = replies_by_id(&mails);

    let mut applied = vec![0u32; planned.len()];
    let (mut unanswered, mut answered_twice, mut refused_races, mut chats) = (0, 0, 0, 0);
    let mut others_answered = 0;
    let conn = env.sqlite();
    for (id, kind) in kinds.values() {
        let replies = by_id.get(id).map_or(&[][..], Vec::as_slice);
        match replies.len() {
            0 => unanswered += 1,
            1 => {}
            _ => answered_twice += 1,
        }
        let Some(reply) = replies.first() else {
            continue;
        };
        match kind {
            Kind::Move(i) if !is_error(reply) => {
                assert!(
                    reply.first_line().starts_with("Limit Board 101:"),
                    "{}",
                    reply.body
                );
                applied[*i] += 1;
            }
            Kind::Move(_) => {
                // Only a lost race may refuse a planned move.
                assert!(
                    reply.body.contains("It is not your turn")
                        || reply.body.contains("the board changed since you looked"),
                    "a planned move was refused for another reason:\n{}",
                    reply.body
                );
                refused_races += 1;
            }
            Kind::Chat(text) => {
                assert!(!is_error(reply), "chat refused:\n{}", reply.body);
                let stored: i64 = conn
                    .query_row(
                        "SELECT COUNT(*) FROM comments WHERE body = ?1",
                        [text],
                        |r| r.get(0),
                    )
                    .unwrap();
                assert_eq!(stored, 1, "the chat '{text}' is stored {stored} times");
                chats += 1;
            }
            Kind::Other(line, error) => {
                // A refusal not tied to a board is titled "Limit Error" (issue 37: no longer lower-case).
                let refused = reply.subject.to_lowercase().ends_with(" error");
                assert_eq!(refused, *error, "{line}: {}", reply.subject);
                others_answered += 1;
            }
            Kind::Show => {
                assert!(
                    // The game's one Subject, plain by default (issue 37 section 3).
                    reply.subject == "Limit Board 101",
                    "{}",
                    reply.subject
                );
                assert!(
                    reply.first_line().starts_with("Limit Board 101: ")
                        && reply
                            .after_state()
                            .starts_with("Summary of Limit Board 101\n"),
                    "{}",
                    reply.body
                );
            }
        }
    }
    let lost = applied.iter().filter(|&&n| n == 0).count()
        + planned
            .len()
            .saturating_sub(stored.iter().filter(|m| !m.auto).count());
    let duplicated = applied.iter().filter(|&&n| n > 1).count()
        + stored
            .iter()
            .filter(|m| !m.auto)
            .count()
            .saturating_sub(planned.len());
    let succeeded = applied.iter().filter(|&&n| n == 1).count();

    eprintln!(
        "same game: {} moves in {rounds} rounds of {PROCESSES} processes, {:.1} s; {} messages, {} \
         processes; moves succeeded {succeeded}, lost {lost}, duplicated {duplicated}; refused race \
         losers {refused_races} (sent again); chats {chats}; other commands {others_answered}; exit 75 {} (all retried to 0); \
         failed {}; silent duplicate deliveries {}; unanswered {unanswered}, answered twice \
         {answered_twice}; slowest process {:.2} s",
        planned.len(),
        elapsed.as_secs_f64(),
        tally.messages,
        tally.processes,
        tally.tempfails,
        tally.failures.len(),
        tally.silent_duplicates,
        tally.slowest.as_secs_f64(),
    );
    assert!(tally.failures.is_empty(), "{:#?}", tally.failures);
    assert_eq!(stored, want, "the stored move list is not the planned one");
    assert_eq!((lost, duplicated), (0, 0), "{applied:?}");
    assert_eq!(succeeded, planned.len());
    assert_eq!((unanswered, answered_twice), (0, 0));
    // Every move and every chat mails the other player once, and nothing else goes unthreaded.
    assert_eq!(others, planned.len() + chats);
    let comments: i64 = conn
        .query_row("SELECT COUNT(*) FROM comments", [], |r| r.get(0))
        .unwrap();
    assert_eq!(comments as usize, chats);
    // Each message was acted on once; every other copy was recognised as a duplicate (a copy that
    // exited 75 rolled back and does not count).
    let copies_that_ran = tally.processes - tally.tempfails;
    assert_eq!(
        tally.silent_duplicates as usize,
        copies_that_ran as usize - tally.messages
    );
    assert_eq!(env.integrity_check(), "ok");
    tally
}

#[test]
fn sixteen_processes_on_one_game_lose_and_double_nothing() {
    same_game(10, None);
}

/// With no busy timeout at all, most processes find the database locked and exit 75; delivered again
/// (as an MTA does), every one of them goes through and the game is still exactly right.
#[test]
fn exit_75_without_busy_timeout_succeeds_when_retried() {
    let env_dir = tempfile::tempdir().unwrap();
    let config = env_dir.path().join("pbem.toml");
    std::fs::write(&config, "[database]\nbusy_timeout_ms = 0\n").unwrap();
    let tally = same_game(4, Some(config));
    assert!(
        tally.tempfails > 0,
        "with busy_timeout_ms = 0 and {PROCESSES} processes at once, some must have exited 75"
    );
}

/// 16 games at once, one process per game at any moment, each playing its game's moves in sequence
/// (a move is sent once the previous one went through, as players do).
#[test]
fn sixteen_processes_on_sixteen_games() {
    sixteen_games(4);
}

fn sixteen_games(moves: usize) {
    const GAMES: usize = 16;
    let moves_per_game = moves;
    // 32 signups and every move checked by a process of its own: at a default install's cost the
    // hashes were most of the test's CPU, and what it tests is processes at once.
    let env = Env::new().with_config(common::CHEAP_PASSWORDS);
    let cmd = cmd_for(&env, None);
    let user = |g: usize, seat: usize| format!("p{g:02}{}", ["a", "b"][seat]);

    // Setup, itself at once: 32 signups in two waves, then the 16 challenges.
    let started = Instant::now();
    let mut setup = Tally::default();
    for wave in 0..2 {
        let msgs: Vec<String> = (0..GAMES)
            .map(|g| {
                let u = user(g, wave);
                eml_with_id(
                    &format!("{u}@example.org"),
                    &format!("signup {u} pw-{u}"),
                    "",
                    &format!("signup-{u}@client.example"),
                )
            })
            .collect();
        let refs: Vec<(usize, &str)> = msgs.iter().map(String::as_str).enumerate().collect();
        for d in deliver_at_once(&cmd, &refs).values() {
            setup.add(d);
        }
    }
    let msgs: Vec<String> = (0..GAMES)
        .map(|g| {
            eml_with_id(
                &format!("{}@example.org", user(g, 0)),
                &format!("limit challenge {} {}", user(g, 0), user(g, 1)),
                "",
                &format!("challenge-{g}@client.example"),
            )
        })
        .collect();
    let refs: Vec<(usize, &str)> = msgs.iter().map(String::as_str).enumerate().collect();
    for d in deliver_at_once(&cmd, &refs).values() {
        setup.add(d);
    }
    assert!(setup.failures.is_empty(), "{:#?}", setup.failures);
    env.take_mails();
    // The challenges got boards 101..=116, one each, in whatever order they ran.
    let conn = env.sqlite();
    let board_of: Vec<u32> = (0..GAMES)
        .map(|g| {
            conn.query_row(
                "SELECT g.board FROM games g JOIN seats s ON s.game_id = g.id \
                 JOIN users u ON u.id = s.user_id WHERE s.seat = 0 AND u.userid = ?1",
                [user(g, 0)],
                |r| r.get(0),
            )
            .unwrap()
        })
        .collect();
    let mut boards = board_of.clone();
    boards.sort_unstable();
    assert_eq!(boards, (101..101 + GAMES as u32).collect::<Vec<_>>());
    let setup_time = started.elapsed();

    let (planned, expected) = plan(moves_per_game);
    let barrier = Barrier::new(GAMES);
    let started = Instant::now();
    let mut tally = Tally::default();
    let mut ids: Vec<(usize, usize, String)> = Vec::new();
    std::thread::scope(|scope| {
        let workers: Vec<_> = board_of
            .iter()
            .enumerate()
            .map(|(g, &board)| {
                let (barrier, planned, cmd) = (&barrier, &planned, &cmd);
                scope.spawn(move || {
                    barrier.wait();
                    let mut sent = Vec::new();
                    for (i, p) in planned.iter().enumerate() {
                        let who = format!("p{g:02}{}", ["a", "b"][p.seat]);
                        let id = format!("g{g}-move{i}@client.example");
                        let msg = eml_with_id(
                            &format!("{who}@example.org"),
                            &format!("limit move {board} {who} pw-{who} {}#{}", p.mv, p.number),
                            "",
                            &id,
                        );
                        let mut d = deliver_at_once(cmd, &[(0, msg.as_str())]);
                        sent.push((id, d.remove(&0).unwrap()));
                    }
                    sent
                })
            })
            .collect();
        for (g, w) in workers.into_iter().enumerate() {
            for (i, (id, d)) in w.join().unwrap().into_iter().enumerate() {
                tally.add(&d);
                ids.push((g, i, id));
            }
        }
    });
    let elapsed = started.elapsed();

    let mails = env.take_mails();
    let (by_id, others) = replies_by_id(&mails);
    let (mut succeeded, mut lost, mut duplicated, mut refused) = (0, 0, 0, Vec::new());
    let per_game: BTreeMap<usize, Vec<MoveRecord>> = board_of
        .iter()
        .enumerate()
        .map(|(g, &board)| (g, env.stored_moves(board)))
        .collect();
    let want = expected.moves();
    for (g, i, id) in &ids {
        let replies = by_id.get(id).map_or(&[][..], Vec::as_slice);
        let in_db = per_game[g].get(planned[*i].number as usize - 1)
            == want.get(planned[*i].number as usize - 1);
        match replies {
            [r] if !is_error(r) && in_db => succeeded += 1,
            [r] if is_error(r) => refused.push(r.body.clone()),
            [] => lost += 1,
            [_] => lost += 1,
            _ => duplicated += 1,
        }
    }
    for (g, stored) in &per_game {
        if stored.len() > want.len() {
            duplicated += 1;
        }
        if stored.len() < want.len() {
            lost += 1;
        }
        assert_eq!(stored, &want, "game {g} (board {})", board_of[*g]);
    }
    eprintln!(
        "16 games: setup (32 signups, 16 challenges, 16 processes at once) {:.1} s, {} exit 75; \
         {GAMES} games x {moves_per_game} moves, {GAMES} processes at a time, {:.1} s; moves succeeded \
         {succeeded}, lost {lost}, duplicated {duplicated}, refused {}; exit 75 {} (all retried to \
         0); failed {}; slowest process {:.2} s",
        setup_time.as_secs_f64(),
        setup.tempfails,
        elapsed.as_secs_f64(),
        refused.len(),
        tally.tempfails,
        tally.failures.len(),
        tally.slowest.as_secs_f64(),
    );
    assert!(tally.failures.is_empty(), "{:#?}", tally.failures);
    assert!(refused.is_empty(), "{refused:#?}");
    assert_eq!((lost, duplicated), (0, 0));
    assert_eq!(succeeded, GAMES * moves_per_game);
    // Each move also mailed the other player of its game, once.
    assert_eq!(others, GAMES * moves_per_game);
    assert_eq!(env.integrity_check(), "ok");
}

/// The same, longer: `cargo test --release --test it concurrency:: -- --ignored --nocapture`
/// (`scripts/concurrency.sh`). A Limit game on the default board ends after about 21 moves, so the
/// 100 moves are played as `CONC_MOVES / 20` games of 20 moves, one after another, each on its own
/// database, 16 processes at a time.
#[test]
#[ignore = "longer run of the same-game test"]
fn sixteen_processes_on_one_game_long() {
    let total = env_usize("CONC_MOVES", 100);
    let mut moves = 0;
    let (mut tempfails, mut processes, mut messages) = (0, 0, 0);
    while moves < total {
        let n = (total - moves).min(20);
        let t = same_game(n, None);
        tempfails += t.tempfails;
        processes += t.processes;
        messages += t.messages;
        moves += n;
    }
    eprintln!(
        "one game, long: {moves} moves in all, {messages} messages, {processes} processes, {tempfails} \
         exit 75 (all retried to 0); every game checked: 0 lost, 0 duplicated, 0 failed"
    );
}

/// 16 games at once, 20 moves each (320 moves), 16 processes at a time.
#[test]
#[ignore = "longer run of the sixteen-games test"]
fn sixteen_processes_on_sixteen_games_long() {
    sixteen_games(env_usize("CONC_GAME_MOVES", 20));
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// A queued move racing the move that brings its turn, each in 2 copies at once, 8 times over on new
/// boards: whichever commits first, the queued move is played exactly once (the queue won) or refused
/// with "play it now" and never played (the move won); never lost after being accepted, never twice.
#[test]
fn a_queued_move_racing_the_move_before_it_is_played_once_or_refused() {
    let mut queue_won = 0;
    let mut move_won = 0;
    for round in 0..8 {
        let env = Env::new();
        env.players(&["alice", "bob"]);
        env.deliver(&common::eml(
            "alice@example.org",
            "limit challenge alice bob",
            "",
        ));
        env.take_mails();
        let m1 = &common::legal_moves_after(&[], 2, &[])[round];
        let m2 = &common::legal_moves_after(&[], 2, &[m1.as_str()])[0];
        let mv = eml_with_id(
            "alice@example.org",
            &format!("limit move 101 alice pw-alice {m1}"),
            "",
            &format!("<mv{round}@client.example>"),
        );
        let queue = eml_with_id(
            "bob@example.org",
            &format!("limit queue 101 bob pw-bob {m2}"),
            "",
            &format!("<q{round}@client.example>"),
        );
        let messages = [
            (0, mv.as_str()),
            (0, mv.as_str()),
            (1, queue.as_str()),
            (1, queue.as_str()),
        ];
        let delivered = deliver_at_once(&cmd_for(&env, None), &messages);
        for d in delivered.values() {
            assert!(d.failures.is_empty(), "{:?}", d.failures);
        }
        let stored: Vec<String> = env.stored_moves(101).into_iter().map(|m| m.text).collect();
        let mails = env.take_mails();
        let bob_refused = mails
            .iter()
            .filter(|m| {
                m.to == ["bob@example.org"]
                    && m.body.starts_with("Your command was not carried out:")
            })
            .count();
        if stored == [m1.clone(), m2.clone()] {
            queue_won += 1;
            assert_eq!(bob_refused, 0, "{mails:#?}");
        } else {
            assert_eq!(stored, std::slice::from_ref(m1), "round {round}");
            assert_eq!(
                bob_refused, 1,
                "the late queue is answered once: {mails:#?}"
            );
            move_won += 1;
        }
        assert_eq!(env.integrity_check(), "ok");
        assert_eq!(
            env.sqlite()
                .query_row("SELECT count(*) FROM queued_moves", [], |r| r
                    .get::<_, i64>(0))
                .unwrap(),
            0,
            "no queued move is left behind"
        );
    }
    eprintln!("queue committed first: {queue_won}, move committed first: {move_won}");
}

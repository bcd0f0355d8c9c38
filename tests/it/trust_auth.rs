//! End-to-end, issue "Trust" items 1, 5 and 10, through the real `pbem` binary on a real SQLite file:
//! a stranger's flood of wrong passwords never stops a player's moves from his registered address and
//! reaches argon2 only within the hourly allowances; one mail costs at most three argon2 runs and
//! little memory; a mail past `max_message_bytes` is refused without being held in memory; and the
//! error mail of a login names and shows the board.
//!
//! Memory and argon2 runs are read from the binary itself: with `PBEM_REPORT_RSS=1` it prints
//! `pbem: peak RSS N kB, argon2 hashes M, pictures drawn P` on stderr at exit.

use crate::common;
use std::io::Write;
use std::path::Path;
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{EVERY_ANSWER, Env, Sent, eml, flat, legal_moves_after};

/// The bound of issue 11 on any single process: 64 MB.
const MAX_RSS_KB: u64 = 64 * 1024;

/// What one `pbem` process reported about itself.
#[derive(Debug, Clone, Copy)]
struct Report {
    peak_rss_kb: u64,
    hashes: u64,
}

fn report(out: &Output) -> Report {
    let stderr = String::from_utf8_lossy(&out.stderr);
    let line = stderr
        .lines()
        .find_map(|l| l.strip_prefix("pbem: peak RSS "))
        .unwrap_or_else(|| panic!("no RSS report in: {stderr}"));
    // "N kB, argon2 hashes M, pictures drawn P"
    let mut words = line.split_whitespace();
    let peak_rss_kb = words.next().unwrap().parse().unwrap();
    let hashes = words
        .skip_while(|w| *w != "hashes")
        .nth(1)
        .unwrap()
        .trim_end_matches(',')
        .parse()
        .unwrap();
    Report {
        peak_rss_kb,
        hashes,
    }
}

/// `pbem [--config CONFIG] ARGS` with `stdin`, reporting its memory and argon2 runs; exit 0 required.
fn pbem(env: &Env, config: Option<&Path>, args: &[&str], stdin: &[u8]) -> (Output, Report) {
    let mut cmd = env.std_cmd();
    if let Some(c) = config {
        cmd.arg("--config").arg(c);
    }
    let out = common::Command::from_std(cmd)
        .env("PBEM_REPORT_RSS", "1")
        .args(args)
        .write_stdin(stdin.to_vec())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = report(&out);
    (out, r)
}

fn ingest(env: &Env, message: &str) -> Report {
    pbem(env, None, &["ingest"], message.as_bytes()).1
}

/// Alice and bob signed up, game 101 between them, alice has made the first move: bob to move.
/// Passwords at a default install's cost.
fn game() -> (Env, Vec<String>) {
    game_in(Env::new().with_production_passwords())
}

/// The same game in `env`: [`cheap_env`] for a test that counts password checks, not what each
/// costs.
fn game_in(env: Env) -> (Env, Vec<String>) {
    env.players(&["alice", "bob"]);
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    let m1 = legal_moves_after(&[], 2, &[])[0].clone();
    env.deliver(&eml(
        "alice@example.org",
        &format!("limit move 101 alice pw-alice {m1}"),
        "",
    ));
    env.take_mails();
    (env, vec![m1])
}

/// An env whose every command, in the binary or not, hashes at [`common::CHEAP_PASSWORDS`]: the
/// allowances of password checks count the argon2 runs the binary reports, whatever each costs, and
/// the flood's 100-odd full-cost runs were most of its CPU (5.5 s).
fn cheap_env() -> Env {
    Env::new().with_config(common::CHEAP_PASSWORDS)
}

/// The legal moves of game 101 after these moves.
fn next(moves: &[String]) -> String {
    let played: Vec<&str> = moves.iter().map(String::as_str).collect();
    legal_moves_after(&[], 2, &played)[0].clone()
}

/// The most of `events` (time, count) falling in any one hour (any window of 3600 s).
fn busiest_hour(events: &[(i64, u64)]) -> u64 {
    events
        .iter()
        .map(|&(t, _)| {
            events
                .iter()
                .filter(|&&(u, _)| u >= t && u < t + 3600)
                .map(|&(_, n)| n)
                .sum()
        })
        .max()
        .unwrap_or(0)
}

#[test]
fn a_strangers_flood_never_stops_bobs_moves_and_reaches_argon2_only_within_the_allowance() {
    let (mut env, mut moves) = game_in(cheap_env());
    let fixed = ["mallory@evil.example", "trudy@evil.example"];
    // (time, argon2 runs) of every stranger's mail, all of it, and of each fixed sender.
    let mut all = Vec::new();
    let mut by_fixed: [Vec<(i64, u64)>; 2] = [Vec::new(), Vec::new()];
    let mut bob_moved = 0;
    // Six hours, a mail every five minutes, three guesses each: 216 guesses at bob's password.
    for k in 0..72u32 {
        let (sender, fixed_index) = match k % 3 {
            0 => (fixed[0].to_string(), Some(0)),
            1 => (fixed[1].to_string(), Some(1)),
            _ => (format!("r{k}@rotating.example"), None),
        };
        let body: String = (0..3)
            .map(|g| format!("limit move 101 bob guess-{k}-{g} 1-2,3\n"))
            .collect();
        let r = ingest(&env, &eml(&sender, "multiple", &body));
        all.push((env.now, r.hashes));
        if let Some(i) = fixed_index {
            by_fixed[i].push((env.now, r.hashes));
        }
        let answers = env.take_mails();
        assert!(
            answers
                .iter()
                .all(|m| m.to == [sender.clone()] && m.subject == "Limit Board 101 Error"),
            "{answers:#?}"
        );
        // Every two hours bob moves, from his registered address, in the thick of it.
        if k % 24 == 23 {
            let m = next(&moves);
            ingest(
                &env,
                &eml(
                    "bob@example.org",
                    &format!("limit move 101 bob pw-bob {m}"),
                    "",
                ),
            );
            let mails = env.take_mails();
            assert!(
                mails.iter().any(|x| x.to == ["alice@example.org"]
                    && x.first_line() == "Limit Board 101: your move"),
                "bob's move after {k} flood mails was not taken: {mails:#?}"
            );
            moves.push(m);
            bob_moved += 1;
            let a = next(&moves);
            env.deliver(&eml(
                "alice@example.org",
                &format!("limit move 101 alice pw-alice {a}"),
                "",
            ));
            env.take_mails();
            moves.push(a);
        }
        env.now += 300;
    }
    assert_eq!(bob_moved, 3);
    assert_eq!(env.stored_moves(101).len(), moves.len());
    let total: u64 = all.iter().map(|&(_, n)| n).sum();
    let account_hour = busiest_hour(&all);
    let sender_hour = by_fixed.iter().map(|e| busiest_hour(e)).max().unwrap();
    eprintln!(
        "flood: 216 wrong passwords for bob in 6 h from 2 fixed and 24 rotating addresses: {total} \
         reached argon2, at most {account_hour} in any hour for the account and {sender_hour} for \
         one sender; bob's 3 moves from his address all taken"
    );
    // The allowances are used up to the last guess, and not one guess beyond.
    assert_eq!(account_hour, 20);
    assert!(sender_hour > 0 && sender_hour <= 10, "{sender_hour}");
    assert!(total <= 20 * 6, "{total}");
    // Throttled guesses are not recorded: the table holds exactly the guesses that were checked.
    let rows: i64 = env
        .sqlite()
        .query_row(
            "SELECT COUNT(*) FROM password_failures WHERE userid_key = 'bob'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(rows as u64, total);
}

#[test]
fn bobs_own_address_keeps_its_own_allowance_and_a_strangers_right_guess_waits() {
    let (mut env, moves) = game_in(cheap_env());
    // A stranger uses up the account's allowance for addresses not bob's...
    for k in 0..7 {
        let body: String = (0..3)
            .map(|g| format!("limit move 101 bob guess-{k}-{g} 1-2,3\n"))
            .collect();
        ingest(
            &env,
            &eml(&format!("r{k}@rotating.example"), "multiple", &body),
        );
        env.now += 60;
    }
    env.take_mails();
    let m = next(&moves);
    // ...so even the right password from another address is not checked (no argon2) and gets the
    // answer of a wrong one...
    let r = ingest(
        &env,
        &eml(
            "bob@travel.example",
            &format!("limit move 101 bob pw-bob {m}"),
            "",
        ),
    );
    assert_eq!(r.hashes, 0);
    let refused = env.take_mails();
    assert_eq!(refused.len(), 1);
    assert!(refused[0].flat_body().contains("do not match"));
    // ...while bob's own address has nine wrong passwords of its own and then still plays.
    for k in 0..9 {
        ingest(
            &env,
            &eml(
                "bob@example.org",
                &format!("limit move 101 bob typo-{k} {m}"),
                "",
            ),
        );
    }
    env.take_mails();
    let r = ingest(
        &env,
        &eml(
            "bob@example.org",
            &format!("limit move 101 bob pw-bob {m}"),
            "",
        ),
    );
    assert_eq!(r.hashes, 1);
    let mails = env.take_mails();
    assert!(
        mails
            .iter()
            .any(|x| x.first_line() == "Limit Board 101: alice to move"),
        "{mails:#?}"
    );
    // An hour after the flood the other address is checked again.
    env.now += 3600;
    let r = ingest(
        &env,
        &eml(
            "bob@travel.example",
            "limit chat 101 bob pw-bob",
            "On the road.",
        ),
    );
    assert_eq!(r.hashes, 1);
    let mails = env.take_mails();
    assert!(
        !mails.is_empty()
            && mails
                .iter()
                .all(|x| !x.body.starts_with("Your command was not carried out:")),
        "{mails:#?}"
    );
}

#[test]
fn one_mail_of_twenty_password_lines_costs_three_argon2_runs_and_little_memory() {
    let (env, _) = game();
    // The 20 answers of a stranger are all read: the per-address allowances of answers are off.
    let env = env.with_config(EVERY_ANSWER);
    let body: String = (0..20)
        .map(|k| format!("change password bob WRONG{k} NEW{k}\n"))
        .collect();
    let raw = eml("stranger@evil.example", "multiple", &body);
    assert!(raw.len() < 1200, "{}", raw.len());
    let r = ingest(&env, &raw);
    let mails = env.take_mails();
    eprintln!(
        "20 `change password` lines in a {} byte mail: {} argon2 runs, peak RSS {} kB",
        raw.len(),
        r.hashes,
        r.peak_rss_kb
    );
    assert_eq!(r.hashes, 3);
    assert!(r.peak_rss_kb <= MAX_RSS_KB, "{r:?}");
    assert_eq!(mails.len(), 20);
    let too_many =
        "Too many password checks in one mail (at most 3); send the rest in another mail.";
    let (over, checked): (Vec<&Sent>, Vec<&Sent>) =
        mails.iter().partition(|m| m.flat_body().contains(too_many));
    assert_eq!((over.len(), checked.len()), (17, 3));
    assert!(
        checked
            .iter()
            .all(|m| m.flat_body().contains("do not match"))
    );
    // The same lines repeated cost one check: the result of a check serves the whole mail.
    let same = "change password bob WRONG NEW\n".repeat(20);
    let r = ingest(&env, &eml("other@evil.example", "multiple", &same));
    assert_eq!(r.hashes, 1);
}

#[test]
fn many_mails_in_one_maildir_run_reuse_one_argon2_block() {
    let env = Env::new().with_production_passwords();
    let maildir = env.dir.path().join("Maildir");
    std::fs::create_dir_all(maildir.join("new")).unwrap();
    // 40 mails of 3 logins each, every one a different userid and password: 120 full checks.
    for k in 0..40 {
        let body: String = (0..3)
            .map(|g| format!("vacation nobody{k}x{g} pass{k}x{g} off\n"))
            .collect();
        std::fs::write(
            maildir.join("new").join(format!("{k:04}.eml")),
            eml(&format!("s{k}@senders.example"), "multiple", &body),
        )
        .unwrap();
    }
    let started = Instant::now();
    let (_, r) = pbem(&env, None, &["maildir", maildir.to_str().unwrap()], b"");
    eprintln!(
        "maildir, 40 mails, 120 different passwords: {} argon2 runs, peak RSS {} kB, {:.1} s",
        r.hashes,
        r.peak_rss_kb,
        started.elapsed().as_secs_f64()
    );
    assert_eq!(r.hashes, 120);
    assert!(r.peak_rss_kb <= MAX_RSS_KB, "{r:?}");
    assert_eq!(std::fs::read_dir(maildir.join("cur")).unwrap().count(), 40);
}

/// A config file in the test's folder with these `[limits]` lines.
fn config(env: &Env, limits: &str) -> std::path::PathBuf {
    let path = env.dir.path().join("pbem.toml");
    std::fs::write(&path, format!("[limits]\n{limits}\n")).unwrap();
    path
}

/// A mail from bob whose Subject is a good move and whose body is `size` bytes of text.
fn big_move(m: &str, size: usize, id: &str) -> Vec<u8> {
    let mut raw = common::eml_with_id(
        "bob@example.org",
        &format!("limit move 101 bob pw-bob {m}"),
        "",
        id,
    )
    .into_bytes();
    let line = b"All work and no play makes Jack a dull boy.\r\n";
    while raw.len() < size {
        raw.extend_from_slice(line);
    }
    raw
}

fn assert_refused_for_size(env: &Env, what: &str, kib: usize) {
    let mails = env.take_mails();
    assert_eq!(mails.len(), 1, "{what}: {mails:#?}");
    assert_eq!(mails[0].to, ["bob@example.org"], "{what}");
    assert_eq!(mails[0].subject, "pbem error", "{what}");
    let want = format!(
        "Your mail is larger than {kib} KiB, the most this server reads; nothing was done."
    );
    assert!(
        mails[0].flat_body().contains(&want),
        "{what}: {}",
        mails[0].body
    );
    assert!(
        !mails[0].raw.contains("pw-bob"),
        "{what}: the password leaked"
    );
}

#[test]
fn a_mail_past_max_message_bytes_is_refused_by_stdin_file_and_maildir() {
    let (env, moves) = game();
    let cfg = config(&env, "max_message_bytes = 65536");
    let m = next(&moves);
    let before = env.stored_moves(101).len();

    let raw = big_move(&m, 5_000_000, "big-stdin@client.example");
    let (_, r) = pbem(&env, Some(&cfg), &["ingest"], &raw);
    assert_eq!(r.hashes, 0, "nothing of it was acted on");
    assert!(r.peak_rss_kb <= MAX_RSS_KB, "{r:?}");
    assert_refused_for_size(&env, "stdin", 64);
    // Delivered again, it is known: no second answer.
    pbem(&env, Some(&cfg), &["ingest"], &raw);
    assert!(env.take_mails().is_empty());

    let file = env.dir.path().join("big.eml");
    std::fs::write(&file, big_move(&m, 3_000_000, "big-file@client.example")).unwrap();
    pbem(&env, Some(&cfg), &["ingest", file.to_str().unwrap()], b"");
    assert_refused_for_size(&env, "file", 64);

    let maildir = env.dir.path().join("Maildir");
    std::fs::create_dir_all(maildir.join("new")).unwrap();
    std::fs::write(
        maildir.join("new/1.eml"),
        big_move(&m, 3_000_000, "big-maildir@client.example"),
    )
    .unwrap();
    pbem(
        &env,
        Some(&cfg),
        &["maildir", maildir.to_str().unwrap()],
        b"",
    );
    assert_refused_for_size(&env, "maildir", 64);
    assert_eq!(std::fs::read_dir(maildir.join("cur")).unwrap().count(), 1);

    assert_eq!(env.stored_moves(101).len(), before, "no move was made");
    // Just under the limit, the same move is taken.
    pbem(
        &env,
        Some(&cfg),
        &["ingest"],
        &big_move(&m, 60_000, "small@client.example"),
    );
    let subjects: Vec<String> = env
        .take_mails()
        .into_iter()
        .map(|x| x.first_line().to_string())
        .collect();
    assert!(
        subjects
            .iter()
            .any(|s| s.starts_with("Limit Board 101: alice to move")),
        "{subjects:?}"
    );
}

#[test]
fn four_hundred_megabytes_on_stdin_are_read_through_in_little_memory() {
    let (env, moves) = game();
    let m = next(&moves);
    let head = big_move(&m, 0, "huge@client.example");
    let mut child = env
        .std_cmd()
        .env("PBEM_REPORT_RSS", "1")
        .arg("ingest")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let started = Instant::now();
    let writer = std::thread::spawn(move || {
        stdin.write_all(&head).unwrap();
        let chunk =
            b"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcd\r\n".repeat(16_384);
        let mut sent = head.len();
        while sent < 400_000_000 {
            // The whole stream is read: a closed pipe here would make an MTA retry.
            stdin.write_all(&chunk).unwrap();
            sent += chunk.len();
        }
        sent
    });
    let out = child.wait_with_output().unwrap();
    let sent = writer.join().unwrap();
    let took = started.elapsed();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = report(&out);
    eprintln!(
        "{} MB on stdin: peak RSS {} kB, {} argon2 runs, {:.1} s",
        sent / 1_000_000,
        r.peak_rss_kb,
        r.hashes,
        took.as_secs_f64()
    );
    assert!(r.peak_rss_kb <= MAX_RSS_KB, "{r:?}");
    assert_eq!(r.hashes, 0);
    assert!(took < Duration::from_secs(60), "{took:?}");
    assert_refused_for_size(&env, "400 MB", 256);
}

#[test]
fn a_login_error_on_a_board_names_and_shows_it_with_one_text_for_every_cause() {
    let (env, moves) = game();
    // Every answer is compared: the per-address allowances of answers are off.
    let env = env.with_config(EVERY_ANSWER);
    let m = next(&moves);
    let answer = |from: &str, line: &str| -> Sent {
        ingest(&env, &eml(from, line, ""));
        let mut mails = env.take_mails();
        assert_eq!(mails.len(), 1, "{line}: {mails:#?}");
        mails.remove(0)
    };
    // The explanation without the userid typed (the wrapping moves with its length).
    let text = |m: &Sent, userid: &str| {
        let body = flat(&m.body);
        let end = body.find("Nothing was changed").unwrap();
        // An unknown userid is shown as written, as a known one is (issue 22, item 5a).
        body[..end]
            .replace(&format!("'{userid}'"), "'USER'")
            // The reset the answer leads with names the userid as written (issue 25).
            .replace(
                &format!("`password reset {userid}`"),
                "`password reset USER`",
            )
    };
    let wrong = answer("eve@evil.example", &format!("limit move 101 bob nope {m}"));
    let unknown = answer(
        "eve@evil.example",
        &format!("limit move 101 nosuch nope {m}"),
    );
    for (what, mail) in [("wrong", &wrong), ("unknown", &unknown)] {
        assert_eq!(mail.subject, "Limit Board 101 Error", "{what}");
        assert!(mail.body.contains("Summary of Limit Board 101"), "{what}");
    }
    assert_eq!(text(&wrong, "bob"), text(&unknown, "nosuch"));
    // Throttled: eve's address past its allowance gets the same.
    for k in 0..9 {
        answer("eve@evil.example", &format!("limit chat 101 bob g{k}"));
    }
    let throttled = answer(
        "eve@evil.example",
        &format!("limit move 101 bob pw-bob {m}"),
    );
    assert_eq!(throttled.subject, "Limit Board 101 Error");
    assert_eq!(text(&throttled, "bob"), text(&wrong, "bob"));
    // Without a board: `Limit Error` and no board.
    let plain = answer("eve@evil.example", "limit notify bob nope on");
    assert_eq!(plain.subject, "Limit Error");
    assert!(!plain.body.contains("Summary of"), "{}", plain.body);
    assert_eq!(text(&plain, "bob"), text(&wrong, "bob"));
    // The explanation is wrapped at 72 columns; it no longer speaks of locking.
    let explanation: Vec<&str> = wrong
        .body
        .lines()
        .take_while(|l| !l.starts_with("Nothing was changed"))
        .collect();
    assert!(explanation.len() > 4, "{}", wrong.body);
    assert!(
        explanation.iter().all(|l| l.chars().count() <= 72),
        "{}",
        wrong.body
    );
    // Userid and password swapped: the word in the userid's place is then likely the password, and
    // stays hidden although an unknown userid is otherwise shown as written.
    let swapped = answer(
        "bob@example.org",
        &format!("limit move 101 hunter2x bob {m}"),
    );
    assert!(!swapped.raw.contains("hunter2x"), "{}", swapped.raw);
    let t = text(&wrong, "bob");
    assert!(!t.contains("lock"), "{t}");
    // The reset first (issue 25); the allowances are in `help`.
    assert!(
        t.starts_with("Your command was not carried out: Forgot it? Send `password reset USER`"),
        "{t}"
    );
    assert!(t.contains("`help` says how many"), "{t}");
}

#[test]
fn the_retired_lockout_keys_are_accepted_with_a_warning() {
    let env = Env::new().with_production_passwords();
    let cfg = config(
        &env,
        "login_failures_before_lockout = 10\nlockout_minutes = 15",
    );
    let (out, _) = pbem(&env, Some(&cfg), &["list"], b"");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("limits.login_failures_before_lockout is retired and ignored"),
        "{stderr}"
    );
    assert!(
        stderr.contains("limits.lockout_minutes is retired and ignored"),
        "{stderr}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("limit"));
}

/// Issue 22, item 2: twenty strangers' wrong reset codes in an hour (each within its own
/// allowance, together the account's) do not block the owner: his registered address keeps its own
/// allowance for codes too, as it does for passwords. Before, his right code was refused that hour.
#[test]
fn strangers_wrong_reset_codes_do_not_block_the_owners_recovery() {
    let env = Env::new().with_production_passwords();
    env.players(&["alice"]);
    env.deliver(&eml("alice@example.org", "password reset alice", ""));
    let mails = env.take_mails();
    let code = mails
        .iter()
        .flat_map(|m| m.body.lines())
        .filter_map(|l| l.trim().strip_prefix("password set alice "))
        .filter_map(|rest| rest.split_whitespace().next())
        .find(|c| !c.starts_with('<'))
        .unwrap_or_else(|| panic!("no code in: {mails:#?}"))
        .to_string();
    for k in 0..20 {
        env.deliver(&eml(
            &format!("m{k}@evil.example"),
            &format!("password set alice WRONG{k:05} stolen-pw"),
            "",
        ));
    }
    let strangers = env.take_mails();
    assert_eq!(strangers.len(), 20);
    assert!(
        strangers.iter().all(|m| m
            .flat_body()
            .contains("That code does not set a password of alice")),
        "{strangers:#?}"
    );
    // The next stranger is throttled: even a right code would not be looked at now.
    let failures: i64 = env
        .sqlite()
        .query_row(
            "SELECT count(*) FROM password_failures WHERE userid_key = 'alice' AND registered = 0",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(failures, 20);
    // The owner, from his registered address: one typo, then the right code.
    env.deliver(&eml(
        "alice@example.org",
        "password set alice TYPO000000 fresh-pw",
        "",
    ));
    let typo = env.only_mail_to("alice@example.org");
    assert!(
        typo.flat_body()
            .contains("That code does not set a password of alice"),
        "{}",
        typo.body
    );
    env.deliver(&eml(
        "alice@example.org",
        &format!("password set alice {code} fresh-pw"),
        "",
    ));
    let done = env.only_mail_to("alice@example.org");
    assert!(
        done.body.contains("The password of alice has been set"),
        "{}",
        done.body
    );
    assert!(
        env.admin("change password alice fresh-pw pw-alice")
            .status
            .success()
    );
}

/// The stored hash of a userid.
fn stored_hash(env: &Env, userid: &str) -> String {
    env.sqlite()
        .query_row(
            "SELECT password_hash FROM users WHERE userid = ?1",
            [userid],
            |r| r.get(0),
        )
        .unwrap()
}

/// The tests hash most passwords cheaply (`common::TEST_PASSWORDS`, inside the test process): a
/// default install, the binary without a configuration file, and the shipped configuration must
/// still hash at OWASP's minimum for argon2id, and a cheap cost must be reachable only from code.
#[test]
fn passwords_of_a_default_install_cost_what_owasp_asks() {
    const OWASP: &str = "$argon2id$v=19$m=19456,t=2,p=1$";
    let env = Env::new();
    // The binary, no configuration, as the README's install runs it.
    let out = env
        .cmd()
        .arg("ingest")
        .write_stdin(eml("alice@example.org", "signup alice pw-alice", "").into_bytes())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(stored_hash(&env, "alice").starts_with(OWASP));
    // The shipped configuration says the same.
    let shipped = env.dir.path().join("shipped.toml");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("config/pbem.toml"),
        &shipped,
    )
    .unwrap();
    let out = env
        .cmd()
        .arg("--config")
        .arg(&shipped)
        .arg("ingest")
        .write_stdin(eml("bob@example.org", "signup bob pw-bob", "").into_bytes())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(stored_hash(&env, "bob").starts_with(OWASP));
    // In the test process, at the production cost when a test asks for it, else cheap.
    let production = Env::new().with_production_passwords();
    production.deliver(&eml("dave@example.org", "signup dave pw-dave", ""));
    assert!(stored_hash(&production, "dave").starts_with(OWASP));
    if !common::processes_only() {
        env.deliver(&eml("erin@example.org", "signup erin pw-erin", ""));
        assert!(
            stored_hash(&env, "erin").starts_with("$argon2id$v=19$m=8,t=1,p=1$"),
            "{}",
            stored_hash(&env, "erin")
        );
    }
}

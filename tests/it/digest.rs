//! End-to-end: the per-player mail settings of issue 25 (section 2): the daily digest instead of a
//! board mail per move, and text-only mail. Real `.eml` messages through `pbem ingest`, `pbem cron`
//! run as a real process with `PBEM_NOW` moved on, a real SQLite file, the mails read back from the
//! file transport.

use crate::common::{EVERY_ANSWER, Env, NOW, Sent, eml};

const DAY: i64 = 86_400;

/// Runs `pbem cron` at `NOW + seconds`; returns its report line and the mails it sent.
fn cron_at(env: &mut Env, seconds: i64) -> (String, Vec<Sent>) {
    env.now = NOW + seconds;
    let out = env.cmd().arg("cron").output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "cron failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = String::from_utf8(out.stdout).unwrap();
    (line.trim().to_string(), env.take_mails())
}

/// The first line to send in a mail's body (`    limit move 101 bob <password> c3#2`), with the
/// player's password put in.
fn line_to_send(body: &str, password: &str) -> String {
    body.lines()
        .map(str::trim)
        .find(|l| l.starts_with("limit move ") && l.contains("<password>"))
        .unwrap_or_else(|| panic!("no line to send in:\n{body}"))
        .replace("<password>", password)
}

fn to(mails: &[Sent], who: &str) -> Vec<Sent> {
    mails
        .iter()
        .filter(|m| m.to.iter().any(|t| t == who))
        .cloned()
        .collect()
}

fn settings_rows(env: &Env) -> Vec<(String, i64, i64)> {
    let db = env.sqlite();
    let mut stmt = db
        .prepare(
            "SELECT u.userid, m.digest, m.text_only FROM mail_settings m
             JOIN users u ON u.id = m.user_id ORDER BY u.userid",
        )
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

fn assert_lines_fit(mail: &Sent) {
    for l in mail.body.lines() {
        assert!(l.chars().count() <= 72, "line over 72 columns: {l:?}");
    }
}

#[test]
fn setting_by_mail_is_confirmed_with_how_to_undo_it() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("bob@example.org", "set bob pw-bob digest on", ""));
    let answer = env.only_mail_to("bob@example.org");
    assert_lines_fit(&answer);
    let text = answer.flat_body();
    assert!(
        text.contains("bob's mail setting is now `digest on`"),
        "{text}"
    );
    assert!(
        text.contains("To undo it, send `set bob <password> digest off`"),
        "{text}"
    );
    assert_eq!(settings_rows(&env), [("bob".to_string(), 1, 0)]);

    env.deliver(&eml("bob@example.org", "set bob pw-bob mail text", ""));
    let text = env.only_mail_to("bob@example.org").flat_body();
    assert!(text.contains("now `mail text`"), "{text}");
    assert!(text.contains("set bob <password> mail html"), "{text}");
    assert_eq!(settings_rows(&env), [("bob".to_string(), 1, 1)]);

    // The same again: said, nothing changed.
    env.deliver(&eml("bob@example.org", "set bob pw-bob mail text", ""));
    let text = env.only_mail_to("bob@example.org").flat_body();
    assert!(
        text.contains("was `mail text` already: nothing was changed"),
        "{text}"
    );

    // From the shell, as the admin: the same command.
    let printed = env.admin_ok("set bob pw-bob digest off");
    assert!(printed.contains("now `digest off`"), "{printed}");
    assert_eq!(settings_rows(&env), [("bob".to_string(), 0, 1)]);
}

#[test]
fn with_the_digest_on_moves_wait_for_one_mail_a_day_listing_the_games() {
    let mut env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("bob@example.org", "set bob pw-bob digest on", ""));
    // New games still go at once: each asks something of bob.
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    let started = env.take_mails();
    assert_eq!(to(&started, "bob@example.org").len(), 3, "{started:#?}");
    let alice_101 = started
        .iter()
        .find(|m| m.to == ["alice@example.org"] && m.subject.contains("101"))
        .unwrap();
    let alice_102 = started
        .iter()
        .find(|m| m.to == ["alice@example.org"] && m.subject.contains("102"))
        .unwrap();

    // alice moves in both games: her answers come, bob gets no board mail.
    env.deliver(&eml(
        "alice@example.org",
        &line_to_send(&alice_101.body, "pw-alice"),
        "",
    ));
    env.deliver(&eml(
        "alice@example.org",
        &line_to_send(&alice_102.body, "pw-alice"),
        "",
    ));
    let moved = env.take_mails();
    assert_eq!(to(&moved, "alice@example.org").len(), 2, "{moved:#?}");
    assert!(to(&moved, "bob@example.org").is_empty(), "{moved:#?}");

    // The day's cron: one digest to bob, with both games and their lines.
    let (line, mails) = cron_at(&mut env, DAY / 2);
    assert!(line.contains("1 daily digests"), "{line}");
    assert_eq!(mails.len(), 1, "{mails:#?}");
    let digest = &mails[0];
    assert_eq!(digest.to, ["bob@example.org"]);
    assert!(
        digest.subject.contains("Your move in 2 games"),
        "{digest:#?}"
    );
    assert!(
        !digest.raw.contains("text/html"),
        "a digest is text: {digest:#?}"
    );
    assert_lines_fit(digest);
    for board in [101, 102] {
        assert!(
            digest.body.contains(&format!("limit board {board}:")),
            "{}",
            digest.body
        );
        assert!(
            digest
                .body
                .contains(&format!("    limit move {board} bob <password> ")),
            "{}",
            digest.body
        );
    }
    assert!(digest.flat_body().contains("set bob <password> digest off"));

    // Later the same (UTC) day: none.
    let (_, mails) = cron_at(&mut env, DAY / 2 + 1800);
    assert!(mails.is_empty(), "{mails:#?}");

    // bob answers with the digest's line for 101: his answer comes, and alice (digest off) gets
    // the board mail of his move at once.
    env.now = NOW + DAY / 2 + 7200;
    let bob_line = line_to_send(
        digest
            .body
            .split("limit board 101:")
            .nth(1)
            .expect("101 in the digest"),
        "pw-bob",
    );
    env.deliver(&eml("bob@example.org", &bob_line, ""));
    let mails = env.take_mails();
    assert_eq!(to(&mails, "bob@example.org").len(), 1, "{mails:#?}");
    let alice = to(&mails, "alice@example.org");
    assert_eq!(alice.len(), 1, "{mails:#?}");
    assert!(alice[0].body.contains("Your move, alice:"), "{alice:#?}");

    // The next day: one digest again, with the game still on bob's move.
    let (_, mails) = cron_at(&mut env, DAY + DAY / 2);
    assert_eq!(mails.len(), 1, "{mails:#?}");
    assert!(
        mails[0].subject.contains("Your move in 1 game"),
        "{mails:#?}"
    );
    assert!(mails[0].body.contains("limit board 102:"));
    assert!(!mails[0].body.contains("limit board 101:"));
}

#[test]
fn a_game_finished_while_waiting_is_in_the_next_digest_with_its_result() {
    let mut env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("bob@example.org", "set bob pw-bob digest on", ""));
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    env.take_mails();
    env.deliver(&eml(
        "alice@example.org",
        "limit resign 101 alice pw-alice",
        "",
    ));
    let mails = env.take_mails();
    assert!(to(&mails, "bob@example.org").is_empty(), "{mails:#?}");
    let (_, mails) = cron_at(&mut env, DAY / 2);
    assert_eq!(mails.len(), 1, "{mails:#?}");
    let digest = &mails[0];
    assert!(digest.subject.contains("1 finished"), "{digest:#?}");
    assert!(digest.body.contains("Finished since the last digest:"));
    assert!(digest.body.contains("limit board 101:"), "{}", digest.body);
    assert!(
        digest.body.contains("Game over: Blue (bob) wins."),
        "{}",
        digest.body
    );
    // Told once: the next day has nothing to tell.
    let (_, mails) = cron_at(&mut env, DAY + DAY / 2);
    assert!(mails.is_empty(), "{mails:#?}");
}

#[test]
fn text_only_board_mails_have_no_html_part() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("bob@example.org", "set bob pw-bob mail text", ""));
    env.take_mails();
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    let mails = env.take_mails();
    let alice = to(&mails, "alice@example.org");
    let bob = to(&mails, "bob@example.org");
    assert_eq!(alice.len(), 1, "{mails:#?}");
    assert!(
        alice[0].raw.contains("text/html"),
        "pictures are on: {alice:#?}"
    );
    assert!(!bob.is_empty(), "{mails:#?}");
    for m in &bob {
        assert!(!m.raw.contains("text/html"), "{m:#?}");
        assert!(!m.raw.contains("image/png"), "{m:#?}");
    }
    // And a move's board mail too.
    env.deliver(&eml(
        "alice@example.org",
        &line_to_send(&alice[0].body, "pw-alice"),
        "",
    ));
    let mails = env.take_mails();
    let bob = to(&mails, "bob@example.org");
    assert_eq!(bob.len(), 1, "{mails:#?}");
    assert!(!bob[0].raw.contains("text/html"), "{bob:#?}");
    assert!(bob[0].body.contains("Your move, bob:"), "{bob:#?}");
}

#[test]
fn bad_forms_are_refused_with_how_to_write_them_and_change_nothing() {
    let env = Env::new().with_config(EVERY_ANSWER);
    env.players(&["alice", "bob"]);
    for (line, says) in [
        (
            "set bob pw-bob digest maybe",
            "'digest' is set 'on' or 'off', not 'maybe'",
        ),
        (
            "set bob pw-bob mail pictures",
            "'mail' is set 'text' or 'html', not 'pictures'",
        ),
        (
            "set bob pw-bob colour red",
            "'colour' is not a setting of 'set'",
        ),
        ("set bob pw-bob digest", "'digest' alone sets nothing"),
        ("set bob pw-bob", "'set' is missing a setting"),
        ("set bob pw-bob digest on now", "but 3 words were given"),
        (
            "set bob pw-bob digets on",
            "'digets' is not a setting of 'set'",
        ),
    ] {
        env.deliver(&eml("bob@example.org", line, ""));
        let text = env.only_mail_to("bob@example.org").flat_body();
        assert!(text.contains(says), "{line}: {text}");
        assert!(text.contains("digest on"), "{line}: says how: {text}");
    }
    // From the shell, a misspelt command word: named, with its usage.
    let out = env.admin("sett bob pw-bob digest on");
    assert_eq!(out.status.code(), Some(64), "{out:?}");
    let text = crate::common::flat(&String::from_utf8_lossy(&out.stdout));
    // The one-line fix comes first, the word as written (issue 25's typo answer).
    assert!(
        text.contains("'sett bob' is not a command; did you mean: set bob <password> digest on"),
        "{text}"
    );
    // A wrong password: refused.
    env.deliver(&eml("bob@example.org", "set bob wrong digest on", ""));
    let answer = env.only_mail_to("bob@example.org");
    assert!(
        !answer.flat_body().contains("now `digest on`"),
        "{answer:#?}"
    );
    assert!(settings_rows(&env).is_empty(), "{:?}", settings_rows(&env));
}

/// A sendmail that fails for now (exit 75) while `<dir>/fail` exists, else keeps each mail in
/// `<dir>/delivered`; and a configuration that sends by it.
fn flaky_sendmail(env: &Env) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let dir = env.dir.path();
    std::fs::create_dir_all(dir.join("delivered")).unwrap();
    let script = dir.join("sendmail");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\n[ -e '{d}/fail' ] && exit 75\ncat > '{d}/delivered/'$$.eml\n",
            d = dir.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let config = dir.join("sendmail.toml");
    std::fs::write(
        &config,
        format!(
            "[mail]\ntransport = \"sendmail\"\nsendmail_command = \"{}\"\n",
            script.display()
        ),
    )
    .unwrap();
    config
}

/// `pbem cron` at `NOW + seconds` sending by the configuration `config` (not `--outbox`, which
/// would choose the file transport); returns its report line.
fn sendmail_cron(env: &Env, config: &std::path::Path, seconds: i64) -> String {
    let out = std::process::Command::new(crate::common::pbem_bin())
        .arg("--db")
        .arg(&env.db)
        .arg("--config")
        .arg(config)
        .arg("cron")
        .env("PBEM_NOW", (NOW + seconds).to_string())
        .env_remove("PBEM_CONFIG")
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).to_string()
}

fn delivered_digests(env: &Env) -> usize {
    std::fs::read_dir(env.dir.path().join("delivered"))
        .unwrap()
        .filter(|e| {
            std::fs::read_to_string(e.as_ref().unwrap().path())
                .unwrap()
                .contains("Your move in 1 game")
        })
        .count()
}

#[test]
fn a_digest_that_could_not_be_sent_goes_once_by_the_outbox() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("bob@example.org", "set bob pw-bob digest on", ""));
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    let alice = to(&env.take_mails(), "alice@example.org");
    env.deliver(&eml(
        "alice@example.org",
        &line_to_send(&alice[0].body, "pw-alice"),
        "",
    ));
    env.take_mails();
    // From here the mail goes by a sendmail that fails for now: the digest is written and stays
    // in the outbox.
    let config = flaky_sendmail(&env);
    std::fs::write(env.dir.path().join("fail"), "").unwrap();
    let line = sendmail_cron(&env, &config, DAY / 2);
    assert!(line.contains("1 daily digests"), "{line}");
    assert!(line.contains("1 failed"), "{line}");
    assert_eq!(delivered_digests(&env), 0);
    // The next run the same day sends that one, and writes no second.
    std::fs::remove_file(env.dir.path().join("fail")).unwrap();
    let line = sendmail_cron(&env, &config, DAY / 2 + 600);
    assert!(!line.contains("daily digests"), "{line}");
    assert_eq!(delivered_digests(&env), 1);
    sendmail_cron(&env, &config, DAY / 2 + 1200);
    assert_eq!(delivered_digests(&env), 1);
}

#[test]
fn turning_the_digest_off_sends_the_pending_digest_at_once() {
    let mut env = Env::new();
    env.players(&["alice", "bob"]);
    // On and off with nothing held back: no digest, only the answer.
    env.deliver(&eml("bob@example.org", "set bob pw-bob digest on", ""));
    env.deliver(&eml("bob@example.org", "set bob pw-bob digest off", ""));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 2, "{mails:#?}");
    assert!(mails.iter().all(|m| !m.subject.contains("Your move in")));

    env.deliver(&eml("bob@example.org", "set bob pw-bob digest on", ""));
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    let alice = to(&env.take_mails(), "alice@example.org");
    env.deliver(&eml(
        "alice@example.org",
        &line_to_send(&alice[0].body, "pw-alice"),
        "",
    ));
    let moved = env.take_mails();
    assert!(to(&moved, "bob@example.org").is_empty(), "{moved:#?}");

    // Off: the answer, and the digest the daily run would have sent, in one mail of its own.
    env.now += 600;
    env.deliver(&eml("bob@example.org", "set bob pw-bob digest off", ""));
    let mails = to(&env.take_mails(), "bob@example.org");
    assert_eq!(mails.len(), 2, "{mails:#?}");
    let answer = mails
        .iter()
        .find(|m| m.subject.contains("set bob digest off"))
        .expect("the answer");
    assert!(
        answer
            .flat_body()
            .contains("The board mails held for your digest went just now, in one digest mail."),
        "{answer:#?}"
    );
    let digest = mails
        .iter()
        .find(|m| m.subject.contains("Your move in 1 game"))
        .expect("the digest");
    assert_lines_fit(digest);
    assert!(
        digest.body.contains("    limit move 101 bob <password> "),
        "{}",
        digest.body
    );
    assert!(
        digest
            .flat_body()
            .contains("This is the last digest, sent as you turned the digest off"),
        "{}",
        digest.body
    );
    assert_eq!(settings_rows(&env), [("bob".to_string(), 0, 0)]);
    // Sent once: off again changes nothing, and the day's run has no digest for bob.
    env.deliver(&eml("bob@example.org", "set bob pw-bob digest off", ""));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 1, "{mails:#?}");
    assert!(mails[0].flat_body().contains("was `digest off` already"));
    let (line, mails) = cron_at(&mut env, DAY / 2);
    assert!(!line.contains("daily digests"), "{line}");
    assert!(mails.is_empty(), "{mails:#?}");
}

#[test]
fn after_the_daily_digest_went_turning_it_off_sends_no_second() {
    let mut env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("bob@example.org", "set bob pw-bob digest on", ""));
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    let alice = to(&env.take_mails(), "alice@example.org");
    env.deliver(&eml(
        "alice@example.org",
        &line_to_send(&alice[0].body, "pw-alice"),
        "",
    ));
    env.take_mails();
    let (_, mails) = cron_at(&mut env, DAY / 2);
    assert_eq!(mails.len(), 1, "the daily digest: {mails:#?}");
    env.deliver(&eml("bob@example.org", "set bob pw-bob digest off", ""));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 1, "the answer alone: {mails:#?}");
    assert!(!mails[0].flat_body().contains("held for your digest"));
}

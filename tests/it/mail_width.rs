//! Issue 25: every mail a player reads fits 72 columns, as plain-text mail is read best. A broad
//! sample: one mail of each kind the server sends, from signup to the end of a game, errors, lists
//! and help pages. Left out are the lines that quote what the player wrote (`> ...` and comments
//! between the rows of asterisks), and the board pictures of games at a size wider than the
//! default (none here: every game below is at its default size).

use crate::common::{Env, Sent, eml};

/// The lines of `mail` longer than 72 columns, but for the quote of the player's own words.
fn too_wide(mail: &Sent) -> Vec<String> {
    let lines: Vec<&str> = mail.body.lines().collect();
    // Comments stand between the first and the last row of asterisks.
    let rule = |l: &&str| l.len() == 70 && l.chars().all(|c| c == '*');
    let first = lines.iter().position(rule);
    let last = lines.iter().rposition(rule);
    lines
        .iter()
        .enumerate()
        .filter(|(i, _)| !matches!((first, last), (Some(a), Some(b)) if a <= *i && *i <= b))
        .filter(|(_, l)| !l.starts_with('>') && l.chars().count() > 72)
        .map(|(_, l)| format!("{} ({}): {l}", mail.subject, l.chars().count()))
        .collect()
}

#[test]
fn every_kind_of_mail_fits_72_columns() {
    let env = Env::new();
    let mut mails: Vec<Sent> = Vec::new();
    let mut send = |from: &str, subject: &str, body: &str| {
        env.deliver(&eml(&format!("{from}@example.org"), subject, body));
        mails.extend(env.take_mails());
    };
    for who in ["alice", "bob", "carol"] {
        send(who, &format!("signup {who} pw-{who}"), "");
    }
    for line in [
        "help",
        "help limit move",
        "list",
        "frobnicate",
        "limit mvoe 101 alice pw-alice 1-1,1",
    ] {
        send("alice", line, "");
    }
    for game in pbem::games::Registry::standard().names() {
        send("alice", &format!("{game} help"), "");
    }
    send("alice", "limit challenge alice bob", "Fancy a game?\n");
    send("carol", "limit subscribe 101 carol pw-carol", "");
    send("bob", "limit move 101 bob Pw-bob resign", "");
    send("alice", "limit move 101 alice pw-alice 99-99,99", "");
    for turn in 0..6 {
        let g = env.stored_game(101);
        let pbem::games::Status::ToMove(seat) = g.status() else {
            break;
        };
        let who = ["alice", "bob"][seat];
        let mv = g.legal_moves().last().unwrap().clone();
        send(
            who,
            &format!("limit move 101 {who} pw-{who} {mv}#{}", g.move_number()),
            &format!("A comment on turn {turn}.\n"),
        );
    }
    send("alice", "limit move 101 alice pw-alice propose draw", "");
    send("bob", "limit move 101 bob pw-bob reject", "");
    send("bob", "limit queue 101 bob pw-bob 1-1,1", "");
    for line in [
        "limit show 101",
        "limit history 101",
        "limit games alice",
        "limit ratings",
        "limit standings",
        "message alice pw-alice bob",
        "vacation alice pw-alice 2026-12-01 2026-12-05",
        "password reset alice",
        "limit preview 101 1-1,1",
    ] {
        send("alice", line, "A line of text.\n");
    }
    send("alice", "limit challenge alice robot1", "");
    send("bob", "hex challenge bob robot1", "");
    send("alice", "limit resign 101 alice pw-alice", "Good game.\n");
    send("alice", "limit history", "");
    assert!(mails.len() > 40, "{}", mails.len());
    let wide: Vec<String> = mails.iter().flat_map(too_wide).collect();
    assert!(
        wide.is_empty(),
        "{} lines too wide:\n{}",
        wide.len(),
        wide.join("\n")
    );
}

/// The mails `pbem cron` writes: nags at 7 and 14 days, the forfeit at 21 and the daily digest, for
/// a game of every kind, each at its default size.
#[test]
fn nags_forfeits_and_digests_fit_72_columns() {
    const DAY: i64 = 86_400;
    let mut env = Env::new();
    env.players(&["alice", "bob", "carol", "dave", "erin"]);
    let games = pbem::games::Registry::standard().names();
    // Challenges that nobody asked for are capped at 5 a day for each player they name (a
    // challenger without --password too): eleven games take three pairs.
    for (i, game) in games.iter().enumerate() {
        let (a, b) = [("alice", "bob"), ("bob", "alice"), ("dave", "erin")][i % 3];
        env.deliver(&eml(
            &format!("{a}@example.org"),
            &format!("{game} challenge {a} {b}"),
            "",
        ));
    }
    env.deliver(&eml(
        "carol@example.org",
        "set carol pw-carol digest on",
        "",
    ));
    env.deliver(&eml(
        "carol@example.org",
        "limit challenge carol robot1",
        "",
    ));
    env.take_mails();
    let mut mails: Vec<Sent> = Vec::new();
    for day in [1, 7, 14, 21] {
        env.now = crate::common::NOW + day * DAY;
        let out = env.cmd().arg("cron").output().unwrap();
        assert!(out.status.success(), "{out:?}");
        mails.extend(env.take_mails());
    }
    // A game's one Subject leaves the state to the first line (issue 37).
    let seen = |word: &str| {
        mails
            .iter()
            .filter(|m| m.first_line().contains(word))
            .count()
    };
    let subjects: Vec<&str> = mails.iter().map(|m| m.first_line()).collect();
    // Every game was nagged twice and forfeited once; carol got her digest.
    // carol's game against robot1 is nagged too.
    assert_eq!(seen("Nag: "), 2 * games.len() + 2, "{subjects:#?}");
    assert!(seen(": over") >= 2 * games.len(), "{subjects:#?}");
    assert!(seen("Your move in 1 game") >= 1, "{subjects:#?}");
    let wide: Vec<String> = mails.iter().flat_map(too_wide).collect();
    assert!(
        wide.is_empty(),
        "{} lines too wide:\n{}",
        wide.len(),
        wide.join("\n")
    );
}

/// Issue 37: an accepted undo's answer was one line of 140 columns; every line of the mails of an
/// undo, asked, accepted and carried out, fits 72 columns, wrapped by words.
#[test]
fn the_mails_of_an_accepted_undo_fit_72_columns() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    let mut mails = env.take_mails();
    for turn in 0..2 {
        let g = env.stored_game(101);
        let who = ["alice", "bob"][turn % 2];
        let mv = g.legal_moves()[0].clone();
        env.deliver(&eml(
            &format!("{who}@example.org"),
            &format!("limit move 101 {who} pw-{who} {mv}"),
            "",
        ));
        mails.extend(env.take_mails());
    }
    env.deliver(&eml(
        "alice@example.org",
        "limit move 101 alice pw-alice propose undo",
        "",
    ));
    mails.extend(env.take_mails());
    env.deliver(&eml(
        "bob@example.org",
        "limit move 101 bob pw-bob accept",
        "",
    ));
    let accepted = env.take_mails();
    assert!(
        accepted
            .iter()
            .any(|m| m.flat_body().contains("All players accept alice's undo")),
        "{accepted:#?}"
    );
    mails.extend(accepted);
    let wide: Vec<String> = mails.iter().flat_map(too_wide).collect();
    assert!(wide.is_empty(), "{wide:#?}");
}

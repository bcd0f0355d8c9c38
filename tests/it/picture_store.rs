//! One picture a position (issue 35, item 2): a board's picture is drawn by the first mail that
//! shows it and kept with the game, so every later mail of the same position, sent by the same
//! process or another (`pbem ingest` is a process a mail), reads the bytes instead of drawing; a
//! position changed at the same move number (an undo, then another move) is drawn afresh, never
//! served the picture it replaced. Through the real binary, which says how many pictures it drew
//! (`PBEM_REPORT_RSS=1`), with the mails read back from the file transport.

use crate::common::{Env, Sent, eml, legal_moves_after};
use mail_parser::{MessageParser, MimeHeaders};
use pbem::games::Status;

/// Feeds one mail to `pbem ingest` (exit 0 required); returns how many pictures that process drew.
fn drawn_by(env: &Env, from: &str, subject: &str, body: &str) -> u64 {
    let out = env
        .cmd()
        .arg("ingest")
        .env("PBEM_REPORT_RSS", "1")
        .write_stdin(eml(&format!("{from}@example.org"), subject, body).into_bytes())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let count = stderr
        .split("pictures drawn ")
        .nth(1)
        .unwrap_or_else(|| panic!("no count of pictures in: {stderr}"));
    count.trim().parse().unwrap()
}

/// The PNG a mail carries, if any.
fn png_of(mail: &Sent) -> Option<Vec<u8>> {
    let msg = MessageParser::default().parse(mail.raw.as_bytes()).unwrap();
    msg.attachments()
        .find(|a| {
            a.content_type()
                .is_some_and(|c| c.ctype() == "image" && c.subtype() == Some("png"))
        })
        .map(|a| a.contents().to_vec())
}

/// The one mail to `who` among `mails`.
fn to<'a>(mails: &'a [Sent], who: &str) -> &'a Sent {
    let address = format!("{who}@example.org");
    let mine: Vec<&Sent> = mails.iter().filter(|m| m.to == [address.clone()]).collect();
    assert_eq!(mine.len(), 1, "{mails:#?}");
    mine[0]
}

/// How many pictures the database keeps.
fn kept(env: &Env) -> i64 {
    env.sqlite()
        .query_row("SELECT count(*) FROM pictures", [], |r| r.get(0))
        .unwrap()
}

/// The player to move on board 101.
fn to_move(env: &Env, players: &[&'static str]) -> &'static str {
    let Status::ToMove(seat) = env.stored_game(101).status() else {
        panic!("the game is over")
    };
    players[seat]
}

/// Alice and bob play board 101, carol follows it, bob reads text only. A move is drawn once for
/// the three mails of it; a chat and a draw offer afterwards, each in a process of its own, show the
/// same position and draw nothing: they send the very bytes of the move's picture. Bob's mails
/// carry no picture.
#[test]
fn a_position_is_drawn_once_whichever_process_sends_a_mail_of_it() {
    let env = Env::new();
    let players = ["alice", "bob"];
    env.players(&["alice", "bob", "carol"]);
    env.deliver(&eml("bob@example.org", "set bob pw-bob mail text", ""));
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    env.deliver(&eml(
        "carol@example.org",
        "limit subscribe 101 carol pw-carol",
        "",
    ));
    env.take_mails();

    let mover = to_move(&env, &players);
    let mv = legal_moves_after(&[], 2, &[])[0].clone();
    let drawn = drawn_by(
        &env,
        mover,
        &format!("limit move 101 {mover} pw-{mover} {mv}"),
        "",
    );
    let mails = env.take_mails();
    assert_eq!(drawn, 1, "one position, one drawing: {mails:#?}");
    let picture = png_of(to(&mails, "alice")).expect("alice reads HTML");
    assert!(
        png_of(to(&mails, "carol")).as_ref() == Some(&picture),
        "the move's picture"
    );
    assert!(png_of(to(&mails, "bob")).is_none(), "bob reads text only");
    assert!(!to(&mails, "bob").raw.contains("multipart"));

    // A chat: a board mail of the same position to bob and carol, from another process.
    let drawn = drawn_by(
        &env,
        "alice",
        "limit chat 101 alice pw-alice",
        "good game so far",
    );
    let mails = env.take_mails();
    assert_eq!(drawn, 0, "the chat's board mail reads the kept picture");
    assert!(
        png_of(to(&mails, "carol")).as_ref() == Some(&picture),
        "the move's picture"
    );
    assert!(png_of(to(&mails, "bob")).is_none(), "bob reads text only");

    // A draw offer: every reader's board mail again, still the same position.
    let drawn = drawn_by(&env, "bob", "limit move 101 bob pw-bob propose draw", "");
    let mails = env.take_mails();
    assert_eq!(drawn, 0, "the proposal's board mails read the kept picture");
    assert!(
        png_of(to(&mails, "alice")).as_ref() == Some(&picture),
        "the move's picture"
    );
    assert!(
        png_of(to(&mails, "carol")).as_ref() == Some(&picture),
        "the move's picture"
    );
    assert!(png_of(to(&mails, "bob")).is_none(), "bob reads text only");
    assert!(kept(&env) <= 2, "a game keeps its latest two pictures");

    // A resend: carol's last board mail queued again, sent by `pbem outbox flush`.
    let conn = env.sqlite();
    let json: String = conn
        .query_row(
            "SELECT mail FROM outbox WHERE mail LIKE '%carol@example.org%' ORDER BY id DESC",
            [],
            |r| r.get(0),
        )
        .unwrap();
    conn.execute(
        "INSERT INTO outbox (mail, created_at) VALUES (?1, ?2)",
        rusqlite::params![json, crate::common::NOW],
    )
    .unwrap();
    let out = env
        .cmd()
        .args(["outbox", "flush"])
        .env("PBEM_REPORT_RSS", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("pictures drawn 0"),
        "the resend reads it: {stderr}"
    );
    let mails = env.take_mails();
    assert!(
        png_of(to(&mails, "carol")).as_ref() == Some(&picture),
        "the move's picture"
    );
}

/// An undo takes board 101 back to move 1, and another first move is played: the position at
/// move 1 is not the one drawn before. Its mail is drawn afresh (nothing kept under the game and the
/// move number is served), shows what a server that never saw the undone move draws, and a chat
/// after it reads that new picture.
#[test]
fn a_position_changed_at_the_same_move_number_is_drawn_again_never_served_the_old_picture() {
    let players = ["alice", "bob"];
    let first = legal_moves_after(&[], 2, &[]);
    let (undone, played) = (first[0].clone(), first[1].clone());

    // What the position after `played` looks like, drawn by a server that only ever saw it.
    let fresh = Env::new();
    fresh.players(&players);
    fresh.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    fresh.take_mails();
    let mover = to_move(&fresh, &players);
    drawn_by(
        &fresh,
        mover,
        &format!("limit move 101 {mover} pw-{mover} {played}"),
        "",
    );
    let expected = png_of(to(&fresh.take_mails(), "bob")).expect("a picture");

    let env = Env::new();
    env.players(&players);
    env.deliver(&eml("alice@example.org", "limit challenge alice bob", ""));
    env.take_mails();
    assert_eq!(to_move(&env, &players), mover, "the same seeded game");
    let other = players.iter().find(|p| **p != mover).unwrap();
    drawn_by(
        &env,
        mover,
        &format!("limit move 101 {mover} pw-{mover} {undone}"),
        "",
    );
    let before = png_of(to(&env.take_mails(), "bob")).expect("a picture");
    assert!(
        before != expected,
        "two different first moves look different"
    );

    drawn_by(
        &env,
        mover,
        &format!("limit move 101 {mover} pw-{mover} propose undo"),
        "",
    );
    drawn_by(
        &env,
        other,
        &format!("limit move 101 {other} pw-{other} accept"),
        "",
    );
    env.take_mails();
    assert!(
        env.stored_moves(101).is_empty(),
        "the first move was undone"
    );

    let drawn = drawn_by(
        &env,
        mover,
        &format!("limit move 101 {mover} pw-{mover} {played}"),
        "",
    );
    let mails = env.take_mails();
    assert_eq!(drawn, 1, "a new position at move 1: drawn, not read");
    let now = png_of(to(&mails, other)).expect("a picture");
    assert!(now != before, "the undone move's picture is not served");
    assert!(now == expected, "the picture of the position as it is");

    let drawn = drawn_by(
        &env,
        other,
        &format!("limit chat 101 {other} pw-{other}"),
        "and again",
    );
    let mails = env.take_mails();
    assert_eq!(drawn, 0, "the chat reads the new position's picture");
    assert!(
        png_of(to(&mails, mover)) == Some(expected),
        "the new position's picture"
    );
}

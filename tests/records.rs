//! Game records (`<game> history N -record | -sgf`, records.md): asked by real mail through `pbem
//! ingest`, read back from the outbox with the attachment, and replayed through the engine.

mod common;

use common::{Env, SEED, eml, legal_moves_after};
use mail_parser::{MessageParser, MimeHeaders};
use pbem::games::{GameOption, Registry};

/// The attached files of a mail the server sent: (file name, content type, text).
fn attachments(raw: &str) -> Vec<(String, String, String)> {
    let msg = MessageParser::default().parse(raw.as_bytes()).unwrap();
    msg.attachments()
        .map(|a| {
            let kind = a
                .content_type()
                .map(|c| format!("{}/{}", c.ctype(), c.subtype().unwrap_or_default()))
                .unwrap_or_default();
            (
                a.attachment_name().unwrap_or_default().to_string(),
                kind,
                String::from_utf8(a.contents().to_vec()).unwrap(),
            )
        })
        .collect()
}

/// The moves of a text record (records.md 1.3): `<n>. <side> <move>` lines; comments are indented
/// and never read as moves. Returns (number, side, move, auto).
fn record_moves(record: &str) -> Vec<(u32, String, String, bool)> {
    record
        .lines()
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| {
            let (n, rest) = l.split_once(". ")?;
            let n: u32 = n.parse().ok()?;
            let (side, mv) = rest.split_once(' ')?;
            let (mv, auto) = match mv.strip_suffix(" (Auto)") {
                Some(m) => (m, true),
                None => (mv, false),
            };
            Some((n, side.to_string(), mv.to_string(), auto))
        })
        .collect()
}

#[test]
fn a_limit_record_is_mailed_attached_and_replays_to_its_result() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.admin_ok("limit challenge alice bob");
    env.take_mails();
    let mut played: Vec<String> = Vec::new();
    for (i, (who, comment)) in [
        ("alice", "An opening ] with a bracket"),
        ("bob", ""),
        ("alice", "Second thoughts.\nTwo lines."),
    ]
    .iter()
    .enumerate()
    {
        let refs: Vec<&str> = played.iter().map(String::as_str).collect();
        let mv = legal_moves_after(&[], 2, &refs)[0].clone();
        env.deliver(&eml(
            &format!("{who}@example.org"),
            &format!("limit move 101 {who} pw-{who} {mv}#{}", i + 1),
            comment,
        ));
        played.push(mv);
    }
    env.deliver(&eml("bob@example.org", "limit resign 101 bob pw-bob", ""));
    env.take_mails();

    env.deliver(&eml("carol@example.org", "limit history 101 -record", ""));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 1, "{mails:#?}");
    let mail = &mails[0];
    assert_eq!(mail.subject, "Limit Board 101 Record");
    let files = attachments(&mail.raw);
    assert_eq!(files.len(), 1, "{files:?}");
    let (name, kind, record) = &files[0];
    assert_eq!(name, "limit-101.txt");
    assert_eq!(kind, "text/plain");
    // Mail carries CRLF line ends; the file's own are `\n` (records.md 1.5).
    let record = &record.replace("\r\n", "\n");
    assert_eq!(*record, mail.body.trim_end().to_string() + "\n");

    let head: Vec<&str> = record.lines().take(7).collect();
    assert_eq!(head[0], "Game: limit 101");
    assert_eq!(head[1], "Red: alice");
    assert_eq!(head[2], "Blue: bob");
    assert!(head[3].starts_with("Options: -size=8"), "{record}");
    assert_eq!(head[4], "Started: 2026-11-18");
    assert_eq!(head[5], "Ended: 2026-11-18");
    assert_eq!(head[6], "Result: Red wins by resignation");
    assert!(!record.contains('\t'));
    // The comments sit indented under their moves, lines and brackets as written.
    let first = format!("1. red {}\n    An opening ] with a bracket\n", played[0]);
    assert!(record.contains(&first), "{record}");
    assert!(
        record.contains(&format!(
            "3. red {}\n    Second thoughts.\n    Two lines.\n",
            played[2]
        )),
        "{record}"
    );

    // Replaying the record's moves through the engine gives the same game and the Result line.
    let moves = record_moves(record);
    assert_eq!(moves.len(), 4, "{moves:?}");
    assert_eq!(moves[3], (4, "blue".into(), "resigns".into(), false));
    let rules = Registry::standard().find("limit").unwrap();
    let mut game = rules.new_game(&[], 2, SEED).unwrap();
    let setup = record
        .split("0: Setup\n")
        .nth(1)
        .unwrap()
        .split("\n\n")
        .next()
        .unwrap();
    let want: String = game
        .setup_text()
        .lines()
        .map(|l| format!("    {l}\n"))
        .collect();
    assert_eq!(
        format!("{setup}\n"),
        want,
        "the set-up is the start position"
    );
    for (n, _, mv, auto) in &moves[..3] {
        assert!(!auto);
        game.play(&format!("{mv}#{n}")).unwrap();
    }
    game.resign(1).unwrap();
    assert_eq!(
        game.status(),
        pbem::games::Status::Over(pbem::games::Outcome::Winner(0))
    );

    // The admin's shell prints the same record.
    let shell = env.admin_ok("limit history 101 -record");
    assert!(shell.contains("Result: Red wins by resignation"), "{shell}");
}

#[test]
fn asking_for_a_record_wrongly_changes_nothing_and_says_how() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.admin_ok("limit challenge alice bob");
    env.take_mails();

    env.deliver(&eml("alice@example.org", "limit history 101 -sgf", ""));
    let mail = env.only_mail_to("alice@example.org");
    assert!(
        mail.flat_body()
            .contains("Limit has no SGF form: no Limit tool reads SGF, so its games are kept as a text record. Send `limit history 101 -record` for it."),
        "{}",
        mail.body
    );
    assert!(attachments(&mail.raw).is_empty());

    env.deliver(&eml("alice@example.org", "limit history -record", ""));
    let mail = env.only_mail_to("alice@example.org");
    assert!(
        mail.flat_body()
            .contains("needs the board whose record you want: `limit history 101 -record`"),
        "{}",
        mail.body
    );

    // An unfinished game's record says so.
    env.deliver(&eml("alice@example.org", "limit history 101 -record", ""));
    let mail = env.only_mail_to("alice@example.org");
    assert!(mail.body.contains("Result: in progress\n"), "{}", mail.body);
    assert!(!mail.body.contains("Ended:"), "{}", mail.body);
    let _ = GameOption::flag("unused");
}

//! End-to-end: the lists that must not grow with the database (issue 12) — `history` paged, newest
//! first; `games` from the saved status lines — through the real binary and a real SQLite file.

use crate::common::Env;

#[test]
fn history_shows_the_newest_fifty_and_pages_to_the_older_ones() {
    // Pictures off: the 53 challenges' board mails would draw 106 pictures (most of this test's
    // CPU) that no line of the history shows.
    let env = Env::new().with_config("[mail]\npictures = false\n");
    env.players(&["alice", "bob"]);
    for board in 101..=152 {
        env.admin_ok("limit challenge alice bob");
        env.admin_ok(&format!("limit resign {board} bob pw-bob"));
    }
    // One game still going: never in the history.
    env.admin_ok("limit challenge alice bob");

    let first = env.admin_ok("limit history");
    assert!(
        first.contains("Finished Limit games, newest first (page 1 of 2, 52 games)"),
        "{first}"
    );
    assert!(
        first.contains("Send `limit history page 2` for older games."),
        "{first}"
    );
    assert_eq!(first.matches("\nBoard ").count(), 50, "{first}");
    // All ended at the same second: the higher board is the newer.
    let at = |text: &str, board: u32| text.find(&format!("\nBoard {board}: "));
    assert!(
        at(&first, 152).unwrap() < at(&first, 103).unwrap(),
        "{first}"
    );
    assert_eq!(at(&first, 102), None, "{first}");
    assert_eq!(
        at(&first, 153),
        None,
        "a running game is no history: {first}"
    );
    assert!(
        first.contains("Board 152: alice vs bob (ended ") && first.contains("  Won by alice.\n"),
        "{first}"
    );

    let second = env.admin_ok("limit history page 2");
    assert_eq!(second.matches("\nBoard ").count(), 2, "{second}");
    assert!(
        at(&second, 102).unwrap() < at(&second, 101).unwrap(),
        "{second}"
    );
    assert!(
        !second.contains("history page 3"),
        "the last page: {second}"
    );

    let past = env.admin_ok("limit history page 3");
    assert!(
        past.contains("There is no page 3: the last is page 2."),
        "{past}"
    );
    let bad = env.admin("limit history page 0");
    assert!(!bad.status.success());
    let said = String::from_utf8_lossy(&bad.stdout);
    assert!(said.contains("'0' is not a page number"), "{said}");
}

#[test]
fn games_shows_each_games_saved_status_without_loading_it() {
    let env = Env::new();
    env.players(&["alice", "bob", "carol"]);
    env.admin_ok("limit challenge alice bob");
    env.admin_ok("limit challenge carol alice");
    env.admin_ok("limit resign 102 carol pw-carol");
    let all = env.admin_ok("limit games alice all");
    assert!(
        all.contains("  Board 101: alice vs bob  Red (alice) to move.\n"),
        "{all}"
    );
    assert!(
        all.contains("  Board 102: carol vs alice  Game over: Blue (alice) wins.\n"),
        "{all}"
    );
    // The lists read the saved line: a game whose state cannot be read still lists by it...
    env.sqlite()
        .execute(
            "UPDATE game_states SET state = 'not json'
             WHERE game_id = (SELECT id FROM games WHERE board = 101)",
            [],
        )
        .unwrap();
    let active = env.admin_ok("limit games alice");
    assert!(
        active.contains("  Board 101: alice vs bob  Red (alice) to move.\n"),
        "{active}"
    );
    assert!(!active.contains("Board 102"), "{active}");
    // ...and only a game saved before the lines were kept is loaded to make one.
    env.sqlite()
        .execute("UPDATE games SET status = NULL WHERE board = 101", [])
        .unwrap();
    let active = env.admin_ok("limit games alice");
    assert!(
        active.contains("  Board 101: alice vs bob  unreadable: "),
        "{active}"
    );
}

#[test]
fn compact_makes_an_old_file_give_pruned_space_back() {
    let env = Env::new();
    env.players(&["alice"]);
    let db = env.sqlite();
    // A file as an older pbem made it: no auto_vacuum, and a year of sent mail in the outbox.
    db.execute_batch("PRAGMA auto_vacuum = NONE; VACUUM;")
        .unwrap();
    let body = "x".repeat(4_000);
    for t in 0..2_000i64 {
        db.execute(
            "INSERT INTO outbox (mail, created_at, sent_at, attempts) VALUES (?1, ?2, ?2, 1)",
            rusqlite::params![body, t],
        )
        .unwrap();
    }
    let pages = |db: &rusqlite::Connection| -> i64 {
        db.query_row("PRAGMA page_count", [], |r| r.get(0)).unwrap()
    };
    let full = pages(&db);
    // cron prunes the old mail, but this file cannot give the pages back...
    let out = env.cmd().arg("cron").output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let outbox: i64 = db
        .query_row(
            "SELECT COUNT(*) FROM outbox WHERE created_at < 2000",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(outbox, 0, "the old mail is pruned");
    assert_eq!(pages(&db), full, "no auto_vacuum: the file keeps its pages");
    drop(db);
    // ...until compact has rewritten it, once.
    let out = env.cmd().arg("compact").output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.starts_with("compact: "), "{said}");
    let db = env.sqlite();
    assert!(pages(&db) < full / 4, "{} of {full} pages", pages(&db));
    let vacuum: i64 = db
        .query_row("PRAGMA auto_vacuum", [], |r| r.get(0))
        .unwrap();
    assert_eq!(vacuum, 2, "INCREMENTAL from now on");
    assert_eq!(env.integrity_check(), "ok");
}

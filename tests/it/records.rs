//! Game records (`<game> history N -record | -sgf`, records.md): asked by real mail through `pbem
//! ingest`, read back from the outbox with the attachment, and replayed through the engine.

use crate::common::{Env, SEED, eml, legal_moves_after};
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
            .contains("There is no SGF or PGN file of Limit Board 101: no tool of Limit players reads one for this game, so it is kept as a text record. Send `limit history 101 -record` for it."),
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
}

#[test]
fn an_ataxx_game_comes_as_pgn_with_its_passes_and_replays() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.admin_ok("ataxx challenge alice bob");
    env.take_mails();
    let moves = [
        ("alice", "b6", "Clone first."),
        ("bob", "g7e5", ""),
        ("alice", "a7c5", ""),
    ];
    for (i, (who, mv, comment)) in moves.iter().enumerate() {
        env.deliver(&eml(
            &format!("{who}@example.org"),
            &format!("ataxx move 101 {who} pw-{who} {mv}#{}", i + 1),
            comment,
        ));
    }
    env.deliver(&eml("bob@example.org", "ataxx resign 101 bob pw-bob", ""));
    env.take_mails();

    env.deliver(&eml("carol@example.org", "ataxx history 101 -sgf", ""));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 1, "{mails:#?}");
    assert_eq!(mails[0].subject, "Ataxx Board 101 PGN");
    let files = attachments(&mails[0].raw);
    assert_eq!(files.len(), 1);
    let (name, _, pgn) = &files[0];
    assert_eq!(name, "ataxx-101.pgn");
    let pgn = pgn.replace("\r\n", "\n");
    assert!(pgn.starts_with("[Event \"pbem ataxx 101\"]\n"), "{pgn}");
    assert!(
        pgn.contains("[Black \"alice\"]\n[White \"bob\"]\n"),
        "{pgn}"
    );
    assert!(
        pgn.contains("[FEN \"x5o/7/7/7/7/7/o5x x 0 1\"]\n[Result \"1-0\"]\n\n"),
        "{pgn}"
    );
    assert!(
        pgn.ends_with("1. b6 { Clone first. } g7e5 2. a7c5 1-0\n"),
        "{pgn}"
    );
    // Replaying the PGN's moves through the engine gives the position the server stored.
    let movetext = pgn.split("\n\n").nth(1).unwrap();
    let mut plain = String::new();
    let mut depth = 0;
    for ch in movetext.chars() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            c if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    let rules = Registry::standard().find("ataxx").unwrap();
    let mut game = rules.new_game(&[], 2, 0).unwrap();
    for word in plain.split_whitespace() {
        if word.ends_with('.') || word == "1-0" || word == "0000" {
            continue;
        }
        game.play(word).unwrap();
    }
    let stored: String = env
        .sqlite()
        .query_row(
            "SELECT st.state FROM games g JOIN game_states st ON st.game_id = g.id
             WHERE g.game_type = 'ataxx' AND g.board = 101",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let stored = rules.load(&stored).unwrap();
    assert_eq!(game.to_json(), stored.at_move(4).unwrap().to_json());

    // The text record lists the same moves; Hexxagon has neither SGF nor PGN.
    let record = env.admin_ok("ataxx history 101 -record");
    assert!(
        record.contains("0: Setup\n    Black: a7 g1  White: g7 a1\n"),
        "{record}"
    );
    assert!(record.contains("\n4. white resigns\n"), "{record}");
    // Boards are numbered per game: Hexxagon's first is 101 too.
    env.admin_ok("hexxagon challenge alice bob");
    env.take_mails();
    env.deliver(&eml("alice@example.org", "hexxagon history 101 -sgf", ""));
    let mail = env.only_mail_to("alice@example.org");
    assert!(
        mail.flat_body()
            .contains("There is no SGF or PGN file of Hexxagon Board 101"),
        "{}",
        mail.body
    );
}

/// The one attached file of the answer to `subject` sent by `from`: (name, type, text with `\n`).
fn attached(env: &Env, from: &str, subject: &str) -> (String, String, String) {
    env.deliver(&eml(from, subject, ""));
    let mails = env.take_mails();
    assert_eq!(mails.len(), 1, "{mails:#?}");
    let mut files = attachments(&mails[0].raw);
    assert_eq!(files.len(), 1, "{}", mails[0].body);
    let (name, kind, text) = files.remove(0);
    (name, kind, text.replace("\r\n", "\n"))
}

/// Plays `moves` by mail, each `(userid, move, comment)`, numbered from 1.
fn play_by_mail(env: &Env, game: &str, moves: &[(&str, &str, &str)]) {
    for (i, (who, mv, comment)) in moves.iter().enumerate() {
        env.deliver(&eml(
            &format!("{who}@example.org"),
            &format!("{game} move 101 {who} pw-{who} {mv}#{}", i + 1),
            comment,
        ));
    }
}

#[test]
fn a_hex_game_comes_as_hexgui_sgf_that_a_parser_reads_and_the_engine_replays() {
    use sgf_parse::unknown_game::Prop;
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.admin_ok("hex challenge -size=3 alice bob");
    env.take_mails();
    play_by_mail(
        &env,
        "hex",
        &[
            ("alice", "c2", "Near the centre ] [ \\ of it."),
            // A backslash before a line end (an SGF soft line break unless escaped), and a line
            // that reads as nodes and a new tree unless `]` is escaped (issue 34, item 5).
            ("bob", "swap", "I'll take that. \\\n;W[aa])(;B[bb]"),
            ("alice", "b2", ""),
            ("bob", "a3", ""),
        ],
    );
    env.deliver(&eml(
        "alice@example.org",
        "hex resign 101 alice pw-alice",
        "",
    ));
    env.take_mails();

    let (name, kind, sgf) = attached(&env, "carol@example.org", "hex history 101 -sgf");
    assert_eq!(name, "hex-101.sgf");
    assert_eq!(kind, "application/x-go-sgf");
    assert!(sgf.starts_with("(;FF[4]GM[11]CA[UTF-8]AP[pbem:"), "{sgf}");

    // Read back by a maintained SGF parser (sgf-parse), not by our own code.
    let trees = sgf_parse::parse(&sgf).unwrap();
    assert_eq!(trees.len(), 1);
    let sgf_parse::GameTree::Unknown(root) = &trees[0] else {
        panic!("Hex (GM[11]) reads as an unknown game: {sgf}");
    };
    let prop = |id: &str| root.get_property(id).cloned();
    assert_eq!(prop("GM"), Some(Prop::GM(11)));
    assert_eq!(prop("SZ"), Some(Prop::SZ((3, 3))));
    let text = |p: Option<Prop>| match p {
        Some(Prop::PB(t) | Prop::PW(t) | Prop::RE(t) | Prop::GN(t)) => t.text,
        other => panic!("{other:?}"),
    };
    assert_eq!(text(prop("PB")), "alice");
    assert_eq!(text(prop("PW")), "bob");
    assert_eq!(text(prop("RE")), "W+R");
    assert_eq!(text(prop("GN")), "hex 101");

    // Replayed through the engine, the moves give the stored game and its result.
    let rules = Registry::standard().find("hex").unwrap();
    let mut game = rules
        .new_game(&[GameOption::with_value("size", "3")], 2, 0)
        .unwrap();
    let mut comments = Vec::new();
    for node in root.main_variation().skip(1) {
        let (seat, value) = match node.get_move() {
            Some(Prop::B(v)) => (0, v.clone()),
            Some(Prop::W(v)) => (1, v.clone()),
            other => panic!("a node without a move: {other:?}"),
        };
        if let Some(Prop::C(c)) = node.get_property("C") {
            comments.push(c.text.clone());
        }
        match value.as_str() {
            "resign" => game.resign(seat).unwrap(),
            "swap-pieces" => game.play("swap").unwrap(),
            cell => game.play(cell).unwrap(),
        }
    }
    assert_eq!(
        comments,
        [
            "Near the centre ] [ \\ of it.",
            "I'll take that. \\\n;W[aa])(;B[bb]"
        ],
        "comments come back unescaped"
    );
    assert_eq!(
        game.status(),
        pbem::games::Status::Over(pbem::games::Outcome::Winner(1))
    );
    assert_eq!(
        game.moves(),
        rules.load(&stored_state(&env, "hex")).unwrap().moves()
    );
}

/// The state of board 101 of `game` as stored.
fn stored_state(env: &Env, game: &str) -> String {
    env.sqlite()
        .query_row(
            "SELECT st.state FROM games g JOIN game_states st ON st.game_id = g.id
             WHERE g.game_type = ?1 AND g.board = 101",
            [game],
            |r| r.get(0),
        )
        .unwrap()
}

#[test]
fn a_go_game_comes_as_sgf_with_handicap_komi_and_score_and_replays() {
    use sgf_parse::go::{Move, Prop};
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.admin_ok("go challenge -size=9 -handicap=2 alice bob");
    env.take_mails();
    // White moves first after the handicap.
    play_by_mail(
        &env,
        "go",
        &[
            ("bob", "e5", "Tengen."),
            ("alice", "d4", ""),
            ("bob", "pass", ""),
            ("alice", "pass", ""),
            // The scoring step: nothing marked dead, both accept the board as it stands.
            ("bob", "accept", ""),
            ("alice", "accept", ""),
        ],
    );
    env.take_mails();
    let rules = Registry::standard().find("go").unwrap();
    let stored = rules.load(&stored_state(&env, "go")).unwrap();
    assert!(matches!(stored.status(), pbem::games::Status::Over(_)));

    let (name, _, sgf) = attached(&env, "alice@example.org", "go history 101 -sgf");
    assert_eq!(name, "go-101.sgf");
    assert!(sgf.contains("RU[koPOSITIONALscoreAREAtaxALLsui0]"), "{sgf}");
    let trees = sgf_parse::parse(&sgf).unwrap();
    let root = trees[0].as_go_node().unwrap();
    assert_eq!(root.get_property("KM"), Some(&Prop::KM(0.5)));
    assert_eq!(root.get_property("HA"), Some(&Prop::HA(2)));
    let Some(Prop::AB(stones)) = root.get_property("AB") else {
        panic!("no AB: {sgf}");
    };
    let mut ab: Vec<(u8, u8)> = stones.iter().map(|p| (p.x, p.y)).collect();
    ab.sort();
    // c3 and g7 on 9x9: SGF counts rows from the top.
    assert_eq!(ab, [(2, 6), (6, 2)]);
    let Some(Prop::RE(re)) = root.get_property("RE") else {
        panic!("no RE: {sgf}");
    };

    // Replayed from the SGF's own points, converted to GTP names, the engine reaches the same end.
    let opts: Vec<GameOption> = [("size", "9"), ("handicap", "2")]
        .iter()
        .map(|(n, v)| GameOption::with_value(n, v))
        .collect();
    let mut game = rules.new_game(&opts, 2, 0).unwrap();
    let gtp = b"abcdefghjklmnopqrstuvwxyz";
    for node in root.main_variation().skip(1) {
        let mv = match node.get_move() {
            Some(Prop::B(m) | Prop::W(m)) => *m,
            other => panic!("a node without a move: {other:?}"),
        };
        let text = match mv {
            Move::Pass => "pass".to_string(),
            Move::Move(p) => format!("{}{}", gtp[p.x as usize] as char, 9 - p.y),
        };
        game.play(&text).unwrap();
    }
    // The engine's game is the stored one without the step's two acts.
    assert_eq!(game.moves(), stored.moves()[..4]);
    assert!(matches!(game.status(), pbem::games::Status::Over(_)));
    // Black: c3 g7 d4 and the area they alone reach; the RE margin is the engine's.
    let notes = game.notes().join("\n");
    let margin = re.text.split('+').nth(1).unwrap().to_string();
    assert!(
        notes.contains(&format!("wins by {margin}.")),
        "RE[{}] against {notes}",
        re.text
    );
    // The text record says the same and lists the handicap set-up.
    let record = env.admin_ok("go history 101 -record");
    assert!(
        record.contains("0: Setup\n    Handicap 2: c3 g7\n"),
        "{record}"
    );
    assert!(record.contains("\n1. white e5\n    Tengen.\n"), "{record}");
}

#[test]
fn a_paradux_game_by_mail_refuses_an_undo_and_records_its_reconstructed_set_up() {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    // A challenge with an option out of range is refused with the valid ones.
    env.deliver(&eml(
        "alice@example.org",
        "paradux challenge -size=9 alice bob",
        "",
    ));
    let mail = env.only_mail_to("alice@example.org");
    assert!(
        mail.flat_body().contains("-size=9 is out of range")
            && mail.flat_body().contains("Paradux's options are -size=n"),
        "{}",
        mail.body
    );
    env.deliver(&eml("alice@example.org", "paradux challenge alice bob", ""));
    let mails = env.take_mails();
    assert!(
        mails
            .iter()
            .any(|m| m.first_line() == "Paradux Board 101: new game, your move"),
        "{mails:#?}"
    );

    let send = |who: &str, mv: &str, comment: &str| {
        env.deliver(&eml(
            &format!("{who}@example.org"),
            &format!("paradux move 101 {who} pw-{who} {mv}"),
            comment,
        ));
    };
    send("alice", "a1a2-b2b3#1", "Broadside first.");
    env.take_mails();
    // Bob tries to move the same two pieces straight back: refused, with the reason.
    send("bob", "b2b3-a1a2#2", "");
    let mail = env.only_mail_to("bob@example.org");
    assert!(
        mail.flat_body()
            .contains("b2b3-a1a2 would undo the opponent's last move (a1a2-b2b3)"),
        "{}",
        mail.body
    );
    assert_eq!(stored_paradux(&env).move_number(), 2, "nothing changed");
    // The pairs in either order: stored canonically.
    send("bob", "B3B2 - B4B3", "Inline.");
    send("alice", "b4~b3", "");
    env.deliver(&eml("bob@example.org", "paradux resign 101 bob pw-bob", ""));
    env.take_mails();

    env.deliver(&eml("carol@example.org", "paradux history 101 -record", ""));
    let mail = env.only_mail_to("carol@example.org");
    assert_eq!(mail.subject, "Paradux Board 101 Record");
    let files = attachments(&mail.raw);
    assert_eq!(files.len(), 1, "{files:?}");
    assert_eq!(files[0].0, "paradux-101.txt");
    let record = files[0].2.replace("\r\n", "\n");
    let head: Vec<&str> = record.lines().take(7).collect();
    assert_eq!(
        head,
        [
            "Game: paradux 101",
            "Black: alice",
            "White: bob",
            "Options: -size=4 -line=4",
            "Started: 2026-11-18",
            "Ended: 2026-11-18",
            "Result: Black wins by resignation"
        ],
        "{record}"
    );
    assert!(
        record.contains(
            "0: Setup\n    Black: a1 a3 b5 d7 f7 g6 g4 e2 c1 d3  White: a2 a4 c6 e7 g7 g5 f3 d1 b1 d5\n    \
             (reconstructed set-up, see paradux-rules.md 2)\n"
        ),
        "{record}"
    );
    assert!(
        record.contains("1. black a1a2-b2b3\n    Broadside first.\n"),
        "{record}"
    );
    let moves = record_moves(&record);
    let texts: Vec<(u32, &str, &str)> = moves
        .iter()
        .map(|(n, side, mv, _)| (*n, side.as_str(), mv.as_str()))
        .collect();
    assert_eq!(
        texts,
        [
            (1, "black", "a1a2-b2b3"),
            (2, "white", "b2b3-b3b4"),
            (3, "black", "b3~b4"),
            (4, "white", "resigns")
        ]
    );
    // The record's moves replay through the engine to the stored game.
    let rules = Registry::standard().find("paradux").unwrap();
    let mut game = rules.new_game(&[], 2, SEED).unwrap();
    for (_, _, mv, _) in &moves[..3] {
        game.play(mv).unwrap();
    }
    game.resign(1).unwrap();
    assert_eq!(game.to_json(), stored_paradux(&env).to_json());
}

/// Paradux board 101 as the database stores it.
fn stored_paradux(env: &Env) -> Box<dyn pbem::games::GameState> {
    let state: String = env
        .sqlite()
        .query_row(
            "SELECT st.state FROM games g JOIN game_states st ON st.game_id = g.id
             WHERE g.game_type = 'paradux' AND g.board = 101",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let rules = Registry::standard().find("paradux").unwrap();
    rules.load(&state).unwrap()
}

/// Issue 34, item 5: a comment that holds line ends, a line `[Event "x"]`, a line starting `%` and
/// braces. Plays an Ataxx game by mail with it and returns the PGN the server mails, with `\n`.
fn ataxx_pgn_with_a_hostile_comment() -> String {
    let env = Env::new();
    env.players(&["alice", "bob"]);
    env.admin_ok("ataxx challenge alice bob");
    env.take_mails();
    let hostile = "Clone first.\n[Event \"x\"]\n[Result \"0-1\"]\n%not an escape\n} a closing \
                   brace { and an opening one\n\n1. a7c5 *";
    play_by_mail(
        &env,
        "ataxx",
        &[
            ("alice", "b6", hostile),
            ("bob", "g7e5", "}"),
            ("alice", "a7c5", ""),
        ],
    );
    env.take_mails();
    let (name, _, pgn) = attached(&env, "carol@example.org", "ataxx history 101 -sgf");
    assert_eq!(name, "ataxx-101.pgn");
    pgn
}

#[test]
fn a_pgn_comment_with_line_ends_tags_and_braces_stays_one_comment() {
    let pgn = ataxx_pgn_with_a_hostile_comment();
    let (tags, movetext) = pgn.split_once("\n\n").expect("a blank line after the tags");
    assert!(tags.lines().all(|l| l.starts_with('[')), "{pgn}");
    // Nothing after the tag section starts a line as a tag or an escape would.
    for line in movetext.lines() {
        assert!(!line.starts_with(['[', '%']), "{line:?} in\n{pgn}");
    }
    assert_eq!(pgn.matches("\n[Event ").count(), 0, "one game:\n{pgn}");
    // Braces open and close in turn: each comment ends where it should.
    let mut open = false;
    for ch in movetext.chars() {
        match ch {
            '{' => {
                assert!(!open, "a brace inside a comment:\n{pgn}");
                open = true;
            }
            '}' => {
                assert!(open, "a closing brace outside a comment:\n{pgn}");
                open = false;
            }
            _ => {}
        }
    }
    assert!(!open, "{pgn}");
    // The comment's words are kept, on one line.
    assert!(
        movetext.contains(
            "1. b6 { Clone first. [Event \"x\"] [Result \"0-1\"] %not an escape a closing brace \
             and an opening one 1. a7c5 * } g7e5 2. a7c5 *\n"
        ),
        "{pgn}"
    );
}

/// The same PGN read by python-ataxx (`pip install ataxx==2.2.0`), a PGN reader for Ataxx: one game,
/// with the three moves played. Ignored by default: it needs python3 with that package. Before the
/// fix it read two games, the second from `[Event "x"]` on, and the first failed on a comment that
/// runs over two lines.
#[test]
#[ignore = "needs python3 with python-ataxx: pip install ataxx==2.2.0"]
fn a_pgn_reader_reads_the_hostile_comment_s_game_as_one_game_with_its_moves() {
    let pgn = ataxx_pgn_with_a_hostile_comment();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.pgn");
    std::fs::write(&file, &pgn).unwrap();
    let script = "import sys, ataxx.pgn\n\
                  games = list(ataxx.pgn.PGNIterator(sys.argv[1]))\n\
                  print(len(games))\n\
                  for text in games:\n    \
                      g = ataxx.pgn.parse(text)\n    \
                      print(g.headers.get('Event'), [str(n.move) for n in g.main_line()])\n";
    let out = std::process::Command::new("python3")
        .args(["-c", script])
        .arg(&file)
        .output()
        .expect("python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}\n{pgn}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        stdout, "1\npbem ataxx 101 ['b6', 'g7e5', 'a7c5']\n",
        "{pgn}"
    );
}

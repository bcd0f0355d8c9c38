//! The command language's unit tests.

use super::*;
use crate::games::GameOption;

#[test]
fn candidates_cover_shifted_passwords_and_spare_the_language() {
    let g = &["limit"];
    let cases: &[(&str, &[&str])] = &[
        // The word where the command has its password comes first.
        ("limit move alice PW 4-1,3", &["4-1,3", "alice", "PW"]),
        // The place is taken even by a move: a password may be digits and punctuation.
        ("limit move 101 PW 4-1,3", &["4-1,3", "PW"]),
        ("move 101 alice PW 4-1,3", &["alice", "PW"]),
        ("limit show 101 alice PW", &["alice", "PW"]),
        ("limit queue alice PW 4-1,3", &["4-1,3", "alice", "PW"]),
        (
            "signup Dan Smith Sup3rSecret dan@d.example",
            &["Smith", "Dan", "Sup3rSecret"],
        ),
        (
            "limit challenge -size=8 --password=PW alice bob",
            &["PW", "alice", "bob"],
        ),
        (
            "limit challenge --pasword=PW alice bob",
            &["PW", "alice", "bob"],
        ),
        // A misspelt command word names the command: it is no candidate.
        ("lmiit mvoe 101 alice PW 3-7,4", &["PW", "alice"]),
        ("limit mvoe 101 bob 1234 3-7,4", &["1234", "bob"]),
        // The parts of a word joined by `:`, and a word without its punctuation.
        (
            "limit move 101 alice:PW 3-7,4",
            &["3-7,4", "alice:PW", "alice", "PW"],
        ),
        ("limit move 101 alice PW, 3-7,4", &["PW", "PW,", "alice"]),
        // Whole words before the parts of words.
        (
            "limit move 101 alice' OR 1=1;-- pw-alice 4-1,3",
            &["OR", "alice", "1=1;--", "pw-alice", "alice'", "1;--"],
        ),
        // Placeholders never.
        ("limit move 101 alice <password> 3-7,4", &["alice"]),
        // A board mail's Subject: only the words written after it.
        ("Limit Board 101 bob", &[]),
        ("VB: Limit Board 101 bob **", &[]),
        ("Limit Board 101 bob PW 3-7,4", &["PW"]),
        ("Fwd: New Limit Board 101 bob ** PW", &["PW"]),
        // The words the usage lines spell out are the language's.
        ("limit history page 0", &[]),
        ("limit games alice finished nxet", &["alice", "nxet"]),
        // Prose.
        ("Move along, nothing to see here", &[]),
        ("Limit is a fine game", &[]),
        ("Thank you, see you tomorrow", &[]),
    ];
    for (line, want) in cases {
        let got = password_candidates(line, g);
        assert_eq!(got, want.to_vec(), "{line}");
    }
}

#[test]
fn mask_words_masks_whole_words_only() {
    assert_eq!(
        mask_words("PW, PWx xPW (PW) PW", &["PW"]),
        "****, PWx xPW (****) ****"
    );
    assert_eq!(mask_words("a-PW-b", &["PW"]), "a-****-b");
    assert_eq!(mask_words("Tr0ub4dor&3!", &["Tr0ub4dor&3"]), "****!");
    assert_eq!(mask_words("nothing", &[""]), "nothing");
}

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

fn game(cmd: GameCommand) -> RawCommand {
    RawCommand::Game {
        game: "limit".into(),
        command: cmd,
    }
}

#[test]
fn tokenize_words_and_options() {
    let t = tokenize("  limit challenge -size=8 -manual --nagtime=7 --quiet alice\tbob - -- -x! ");
    assert_eq!(
        t,
        vec![
            Token::Word("limit".into()),
            Token::Word("challenge".into()),
            Token::GameOption(GameOption::with_value("size", "8")),
            Token::GameOption(GameOption::flag("manual")),
            Token::ServerOption("nagtime".into(), Some("7".into())),
            Token::ServerOption("quiet".into(), None),
            Token::Word("alice".into()),
            Token::Word("bob".into()),
            Token::Word("-".into()),
            Token::Word("--".into()),
            Token::Word("-x!".into()),
        ]
    );
    assert_eq!(tokenize(""), vec![]);
    assert_eq!(tokenize("3-7,4"), vec![Token::Word("3-7,4".into())]);
    let back: Vec<String> = t.iter().map(|t| t.to_string()).collect();
    assert_eq!(back[2], "-size=8");
    assert_eq!(back[4], "--nagtime=7");
}

#[test]
fn parse_good_commands() {
    let cases: Vec<(&str, RawCommand)> = vec![
        ("help", RawCommand::Help { subject: vec![] }),
        (
            "HELP limit move",
            RawCommand::Help {
                subject: s(&["limit", "move"]),
            },
        ),
        (
            "signup Alice secret",
            RawCommand::Signup {
                userid: "Alice".into(),
                password: "secret".into(),
                addresses: vec![],
            },
        ),
        (
            "add bob Pw9 bob@example.org <bob@work.example.com>",
            RawCommand::Signup {
                userid: "bob".into(),
                password: "Pw9".into(),
                addresses: s(&["bob@example.org", "bob@work.example.com"]),
            },
        ),
        (
            "Change Password alice old New",
            RawCommand::ChangePassword {
                userid: "alice".into(),
                old: "old".into(),
                new: "New".into(),
            },
        ),
        (
            "change address alice secret a@b.example",
            RawCommand::ChangeAddress {
                userid: "alice".into(),
                password: "secret".into(),
                addresses: s(&["a@b.example"]),
            },
        ),
        (
            "signoff alice secret",
            RawCommand::Signoff {
                userid: "alice".into(),
                password: "secret".into(),
            },
        ),
        ("LIST", RawCommand::List { games: Vec::new() }),
        (
            "list Limit",
            RawCommand::List {
                games: vec!["limit".into()],
            },
        ),
        ("Limit help", game(GameCommand::Help)),
        (
            "limit challenge -size=6 -manual --nagtime=7 alice bob",
            game(GameCommand::Challenge {
                options: vec![
                    GameOption::with_value("size", "6"),
                    GameOption::flag("manual"),
                ],
                server_options: vec![("nagtime".into(), Some("7".into()))],
                userids: s(&["alice", "bob"]),
                password: None,
            }),
        ),
        (
            // An option's value may follow it as a word of its own when it is a number.
            "limit challenge -size 9 -komi 6.5 -manual alice 42",
            game(GameCommand::Challenge {
                options: vec![
                    GameOption::with_value("size", "9"),
                    GameOption::with_value("komi", "6.5"),
                    GameOption::flag("manual"),
                ],
                server_options: vec![],
                userids: s(&["alice", "42"]),
                password: None,
            }),
        ),
        (
            "limit challenge alice bob Carol",
            game(GameCommand::Challenge {
                options: vec![],
                server_options: vec![],
                userids: s(&["alice", "bob", "Carol"]),
                password: None,
            }),
        ),
        (
            "limit move 101 alice secret 3-7,4",
            game(GameCommand::Move {
                board: 101,
                userid: "alice".into(),
                password: "secret".into(),
                mv: "3-7,4".into(),
                guard: None,
            }),
        ),
        (
            "LIMIT MOVE 101 alice SeCrEt 3-7, 4",
            game(GameCommand::Move {
                board: 101,
                userid: "alice".into(),
                password: "SeCrEt".into(),
                mv: "3-7, 4".into(),
                guard: None,
            }),
        ),
        (
            "limit move 101 alice secret 3-7,4#12",
            game(GameCommand::Move {
                board: 101,
                userid: "alice".into(),
                password: "secret".into(),
                mv: "3-7,4".into(),
                guard: Some(12),
            }),
        ),
        (
            "limit move 101 alice secret 3-7, 4 #12",
            game(GameCommand::Move {
                board: 101,
                userid: "alice".into(),
                password: "secret".into(),
                mv: "3-7, 4".into(),
                guard: Some(12),
            }),
        ),
        (
            "limit move 102 bob pw r3",
            game(GameCommand::Move {
                board: 102,
                userid: "bob".into(),
                password: "pw".into(),
                mv: "r3".into(),
                guard: None,
            }),
        ),
        (
            "limit move 101 alice secret resign",
            game(GameCommand::Move {
                board: 101,
                userid: "alice".into(),
                password: "secret".into(),
                mv: "resign".into(),
                guard: None,
            }),
        ),
        (
            "limit resign 101 bob pw",
            game(GameCommand::Resign {
                board: 101,
                userid: "bob".into(),
                password: "pw".into(),
            }),
        ),
        (
            "limit show 101 102#5 103 #7",
            game(GameCommand::Show {
                boards: vec![(101, None), (102, Some(5)), (103, Some(7))],
            }),
        ),
        (
            "limit history",
            game(GameCommand::History {
                board: None,
                page: None,
                form: HistoryForm::Text,
            }),
        ),
        (
            "limit history page 3",
            game(GameCommand::History {
                board: None,
                page: Some(3),
                form: HistoryForm::Text,
            }),
        ),
        ("limit ratings", game(GameCommand::Ratings)),
        ("LIMIT Standings", game(GameCommand::Standings)),
        (
            "limit history 101",
            game(GameCommand::History {
                board: Some(101),
                page: None,
                form: HistoryForm::Text,
            }),
        ),
        (
            "limit history 101 -record",
            game(GameCommand::History {
                board: Some(101),
                page: None,
                form: HistoryForm::Record,
            }),
        ),
        (
            "limit history -SGF 7",
            game(GameCommand::History {
                board: Some(7),
                page: None,
                form: HistoryForm::Sgf,
            }),
        ),
        (
            "limit games alice",
            game(GameCommand::Games {
                userids: vec!["alice".into()],
                filter: GamesFilter::Active,
            }),
        ),
        (
            "limit games alice ALL",
            game(GameCommand::Games {
                userids: vec!["alice".into()],
                filter: GamesFilter::All,
            }),
        ),
        (
            "limit games alice finished",
            game(GameCommand::Games {
                userids: vec!["alice".into()],
                filter: GamesFilter::Finished,
            }),
        ),
        (
            "limit games alice bob inactive",
            game(GameCommand::Games {
                userids: vec!["alice".into(), "bob".into()],
                filter: GamesFilter::Finished,
            }),
        ),
        (
            "limit games alice next",
            game(GameCommand::Games {
                userids: vec!["alice".into()],
                filter: GamesFilter::Next,
            }),
        ),
        (
            "limit preview 101 3-7,4 5-1, 2 9-8 ,6",
            game(GameCommand::Preview {
                board: 101,
                moves: s(&["3-7,4", "5-1, 2", "9-8 ,6"]),
            }),
        ),
        (
            "limit chat 101 alice secret",
            game(GameCommand::Chat {
                board: 101,
                userid: "alice".into(),
                password: "secret".into(),
            }),
        ),
        (
            "othergame help",
            RawCommand::Game {
                game: "othergame".into(),
                command: GameCommand::Help,
            },
        ),
    ];
    for (line, want) in cases {
        assert_eq!(parse(line).as_ref(), Ok(&want), "line {line:?}");
    }
}

/// Each bad line, and words its error must contain (the problem and the usage line).
#[test]
fn parse_errors_say_what_and_how() {
    let cases: &[(&str, &[&str])] = &[
        ("", &["empty", "signup <userid> <password>", "<game> move"]),
        ("   ", &["empty"]),
        (
            "hello",
            &["'hello' is not a command (a game's name needs a command after it)"],
        ),
        (
            "sigup",
            &["'sigup' is not a command (did you mean 'signup'?)"],
        ),
        // No list of every command (issue 25): the answer points to `help`.
        ("limit dance 101", &["'limit dance' is not a command"]),
        // `list all` now names a game (issue 16: `list [gametype...]`); the server refuses it.
        (
            "list a b c d e f g h i j k",
            &["at most 10 game names", "usage: list [<game>...]"],
        ),
        (
            "signup alice",
            &["missing the password", "usage: signup <userid> <password>"],
        ),
        (
            "signup al!ce secret",
            &["'al!ce' is not a userid", "1 to 20"],
        ),
        ("signup abcdefghijklmnopqrstu secret", &["is not a userid"]),
        (
            "signup alice secret not-an-address",
            &["'not-an-address' is not a mail address", "usage: signup"],
        ),
        (
            "change",
            &["needs 'password' or 'address'", "or: change address"],
        ),
        ("change name alice x", &["'change name' is not a command"]),
        (
            "change password alice old",
            &["missing the new password", "usage: change password"],
        ),
        (
            "change password alice old new extra",
            &["takes 3 words after it", "but 4 were given"],
        ),
        ("change address alice", &["missing your password"]),
        (
            "signoff alice",
            &["missing your password", "usage: signoff"],
        ),
        (
            "limit move 101 alice secret",
            &[
                "'limit move' is missing the move",
                "usage: limit move <board> <userid> <password> <move>[#N]",
            ],
        ),
        (
            "limit move",
            &["missing the board number, your userid, your password and the move"],
        ),
        (
            "limit move abc alice secret 3-7,4",
            &[
                "'abc' is not a board number",
                "such as 101",
                "usage: limit move",
            ],
        ),
        (
            "limit move 0 alice secret 3-7,4",
            &["'0' is not a board number"],
        ),
        (
            "limit move -5 alice secret 3-7,4",
            &["'-5' is not a board number"],
        ),
        (
            "limit move 101 alice secret 3-7,4#x",
            &["'#x' after the move is not a move number", "#12"],
        ),
        (
            "limit move 101 alice secret 3-7,4#0",
            &["'#0' after the move is not a move number"],
        ),
        ("limit move 101 alice secret #5", &["the move is missing"]),
        (
            "limit resign 101 alice",
            &[
                "missing your password",
                "usage: limit resign <board> <userid> <password>",
            ],
        ),
        ("limit resign 101 alice secret now", &["takes 3 words"]),
        (
            "limit show",
            &[
                "needs at least one board",
                "usage: limit show <board>[#N]...",
            ],
        ),
        ("limit show 101#", &["'#' is not a move number"]),
        ("limit show #5", &["'#5' is not a move number"]),
        ("limit show x", &["'x' is not a board number"]),
        ("limit history 101 102", &["at most one board"]),
        ("limit history page 0", &["not a page number"]),
        ("limit history page two", &["not a page number"]),
        (
            "limit games",
            &[
                "missing the userid",
                "usage: limit games <userid>... [active|all|finished|next]",
            ],
        ),
        (
            // With several userids (issue 16) a last word that is no choice is a userid: the
            // server then answers that it is no player.
            "limit games alice b?b",
            &["'b?b' is not a userid"],
        ),
        ("limit games a b c d e f g h i j k", &["at most 10 userids"]),
        (
            "limit preview 101",
            &["missing the moves", "usage: limit preview"],
        ),
        (
            "limit challenge",
            &["needs the userids", "usage: limit challenge"],
        ),
        ("limit challenge -size=8", &["needs the userids"]),
        ("limit challenge -x! alice bob", &["'-x!' is not an option"]),
        ("limit challenge al?ce bob", &["'al?ce' is not a userid"]),
        (
            "limit chat 101 alice",
            &["missing your password", "(the mail body is the message)"],
        ),
        (
            "limit ratings 101",
            &[
                "'limit ratings' takes no words after it",
                "usage: limit ratings",
            ],
        ),
        (
            "limit ratngs",
            &["'limit ratngs' is not a command; did you mean:\n    limit ratings"],
        ),
        (
            "limit standings alice",
            &[
                "'limit standings' takes no words after it",
                "usage: limit standings",
            ],
        ),
        (
            "limit subscribe 101 alice",
            &[
                "missing your password",
                "usage: limit subscribe <board> <userid> <password>",
            ],
        ),
        (
            "limit unsubscribe x alice pw",
            &["'x' is not a board number"],
        ),
        ("limit subscribe 101 alice pw extra", &["takes 3 words"]),
        (
            "limit notify alice",
            &["missing your password", "usage: limit notify"],
        ),
        (
            "limit notify alice pw 101 soon",
            &["'soon' is neither on, off nor a board number"],
        ),
        (
            "limit limit alice pw lots",
            &["'lots' is not a number of games", "off to lift"],
        ),
        ("limit limit alice pw -1", &["'-1' is not a number"]),
        ("limit limit alice pw 3 4", &["at most one number"]),
        (
            "limit accept alice",
            &["missing your password", "usage: limit accept"],
        ),
        ("limit reject alice pw b?b", &["'b?b' is not a userid"]),
    ];
    for (line, needles) in cases {
        let err = match parse(line) {
            Err(e) => e.to_string(),
            Ok(c) => panic!("{line:?} parsed as {c:?}"),
        };
        if line.contains("hello") || line.contains("dance") {
            assert!(!err.contains("signup <userid>"), "{line:?}: {err}");
        }
        for n in *needles {
            assert!(err.contains(n), "error for {line:?} lacks {n:?}:\n{err}");
        }
    }
}

#[test]
fn social_commands_parse_into_their_settings() {
    let game = |line: &str| match parse(line).unwrap() {
        RawCommand::Game { command, .. } => command,
        other => panic!("{line:?} parsed as {other:?}"),
    };
    assert_eq!(
        game("limit notify carol pw 102 101 102"),
        GameCommand::Notify {
            userid: "carol".into(),
            password: "pw".into(),
            setting: NotifySetting::Boards(vec![102, 101]),
        }
    );
    assert!(matches!(
        game("limit notify carol pw Off"),
        GameCommand::Notify {
            setting: NotifySetting::Off,
            ..
        }
    ));
    assert!(matches!(
        game("limit limit carol pw 0"),
        GameCommand::Limit {
            setting: Some(GameLimit::At(0)),
            ..
        }
    ));
    assert!(matches!(
        game("limit limit carol pw"),
        GameCommand::Limit { setting: None, .. }
    ));
    assert_eq!(
        game("limit reject carol pw bob BOB dave"),
        GameCommand::Reject {
            userid: "carol".into(),
            password: "pw".into(),
            userids: vec!["bob".into(), "dave".into()],
        }
    );
    assert_eq!(
        game("limit unsubscribe 7 carol pw"),
        GameCommand::Unsubscribe {
            board: 7,
            userid: "carol".into(),
            password: "pw".into(),
        }
    );
}

#[test]
fn vacation_parses_days_or_off() {
    let d = |s: &str| parse_date(s).unwrap();
    assert_eq!(
        parse("Vacation alice pw 2026-12-01 2026-12-05").unwrap(),
        RawCommand::Vacation {
            userid: "alice".into(),
            password: "pw".into(),
            days: Some((d("2026-12-01"), d("2026-12-05"))),
        }
    );
    assert_eq!(
        parse("vacation alice pw OFF").unwrap(),
        RawCommand::Vacation {
            userid: "alice".into(),
            password: "pw".into(),
            days: None,
        }
    );
    // One day away: the first day is the last.
    assert!(parse("vacation alice pw 2026-12-01 2026-12-01").is_ok());
}

#[test]
fn vacation_errors_say_what_and_how_and_hide_the_password() {
    let cases: &[(&str, &[&str])] = &[
        (
            "vacation alice",
            &["missing your password", "usage: vacation"],
        ),
        (
            "vacation alice hunter2xyz",
            &["missing the first and last day (or off)"],
        ),
        (
            "vacation alice hunter2xyz 2026-12-01",
            &["needs two days", "'2026-12-01'"],
        ),
        (
            "vacation alice hunter2xyz 2026-12-05 2026-12-01",
            &["last day 2026-12-01 is before the first day 2026-12-05"],
        ),
        (
            "vacation alice hunter2xyz 2026-02-30 2026-03-01",
            &["'2026-02-30' is not a day", "YYYY-MM-DD"],
        ),
        (
            "vacation alice hunter2xyz 1/12/2026 2026-12-01",
            &["'1/12/2026' is not a day"],
        ),
        ("vacation alice hunter2xyz on", &["needs two days"]),
        (
            "vacation alice hunter2xyz 2026-12-01 2026-12-02 x",
            &["3 words were given"],
        ),
        (
            "vacation al!ce hunter2xyz off",
            &["'al!ce' is not a userid"],
        ),
    ];
    for (line, needles) in cases {
        let err = parse(line).expect_err(line).to_string();
        for n in *needles {
            assert!(err.contains(n), "error for {line:?} lacks {n:?}:\n{err}");
        }
        assert!(!err.contains("hunter2xyz"), "{line:?} -> {err}");
    }
}

#[test]
fn set_reads_the_two_mail_settings_and_hides_the_password() {
    let set = |userid: &str, setting| RawCommand::Set {
        userid: userid.into(),
        password: "s3cret".into(),
        setting,
    };
    assert_eq!(
        parse("Set Alice s3cret Digest ON").unwrap(),
        set("Alice", MailSetting::Digest(true))
    );
    assert_eq!(
        parse("set alice s3cret digest off").unwrap(),
        set("alice", MailSetting::Digest(false))
    );
    assert_eq!(
        parse("set alice s3cret mail text").unwrap(),
        set("alice", MailSetting::TextOnly(true))
    );
    let html = parse("set alice s3cret mail html").unwrap();
    assert_eq!(html, set("alice", MailSetting::TextOnly(false)));
    assert_eq!(html.passwords(), vec!["s3cret"]);
    assert_eq!(html.redacted(), "set alice **** mail html");
    for (line, says) in [
        ("set alice s3cret digest yes", "not 'yes'"),
        ("set alice s3cret mail plain", "not 'plain'"),
        ("set alice s3cret sound on", "'sound' is not a setting"),
        ("set alice s3cret", "missing a setting"),
    ] {
        let e = parse(line).unwrap_err().to_string();
        assert!(e.contains(says), "{line}: {e}");
        assert!(!e.contains("s3cret"), "{line}: {e}");
    }
}

#[test]
fn vacation_password_is_redacted() {
    let c = parse("vacation alice s3cret 2026-12-01 2026-12-05").unwrap();
    assert_eq!(c.passwords(), vec!["s3cret"]);
    assert_eq!(c.redacted(), "vacation alice **** 2026-12-01 2026-12-05");
    let off = parse("vacation alice s3cret off").unwrap();
    assert_eq!(off.redacted(), "vacation alice **** off");
    // When the line does not parse, or the keyword is misspelt, the word in the password's place is
    // the first candidate.
    assert_eq!(
        password_candidates("vacation alice s3cret 2026-99-01", &[])[0],
        "s3cret"
    );
    assert_eq!(
        password_candidates("vacaton alice s3cret off", &[])[0],
        "s3cret"
    );
    assert!(looks_like_command("vacation alice s3cret off", &["limit"]));
}

#[test]
fn dates_are_strict_calendar_days() {
    assert_eq!(
        parse_date("2028-02-29"),
        chrono::NaiveDate::from_ymd_opt(2028, 2, 29)
    );
    for bad in [
        "2026-02-29",
        "2026-13-01",
        "2026-00-10",
        "2026-1-05",
        "26-01-05",
        "2026/01/05",
        "2026-01-05x",
        "",
        "+026-01-05",
        "2026-01-+5",
    ] {
        assert_eq!(parse_date(bad), None, "{bad}");
    }
}

#[test]
fn every_password_of_a_line_that_does_not_parse_is_a_candidate() {
    // An error quotes the words it is about as written; the server hides what the mail's passwords
    // are, checking these candidates.
    let lines = [
        "signup al!ce hunter2xyz",
        "signup alice hunter2xyz bad-address",
        "change password alice hunter2xyz",
        "change password al!ce hunter2xyz new5678",
        "change address al!ce hunter2xyz",
        "limit move abc alice hunter2xyz 3-7",
        "limit move 101 al!ce hunter2xyz 3-7",
        "limit move 101 alice hunter2xyz 3-7#hunter2xyz",
        "limit resign 101 alice hunter2xyz extra",
        "limit mvoe 101 alice hunter2xyz 3-7",
        "limit move 101 hunter2xyz! hunter2xyz! 3-7",
        "limit subscribe x alice hunter2xyz",
        "limit notify alice hunter2xyz 101 hunter2xyz",
        "limit limit alice hunter2xyz hunter2xyz",
        "limit accept al!ce hunter2xyz bob",
        "limit reject alice hunter2xyz hunter2xyz!",
        "limit queu 101 alice hunter2xyz 3-7,4",
        "limit queue x alice hunter2xyz 3-7,4",
    ];
    for line in lines {
        assert!(parse(line).is_err(), "{line:?} parses");
        let c = password_candidates(line, &["limit"]);
        assert!(c.contains(&"hunter2xyz"), "{line:?} -> {c:?}");
    }
}

#[test]
fn errors_quote_the_words_as_written() {
    let err = |l: &str| parse(l).expect_err(l).to_string();
    assert!(
        err("limit mvoe 101 bob secret 1-2,3").contains("'limit mvoe' is not a command"),
        "{}",
        err("limit mvoe 101 bob secret 1-2,3")
    );
    assert!(err("limit move 10l bob secret 1-2,3").contains("'10l' is not a board number"));
    // The placeholder is shown as written, any other password of the line masked.
    let e = err("change password bob <old> n3wpass");
    assert!(e.contains("usage: change password bob <old> ****"), "{e}");
    let e = err("limit move 101 bob <password> 3-7,4");
    assert!(e.contains("placeholder"), "{e}");
    assert!(
        e.contains("usage: limit move 101 bob <password> 3-7,4"),
        "{e}"
    );
}

#[test]
fn passwords_and_redacted() {
    let cases: &[(&str, &[&str], &str)] = &[
        (
            "signup alice secret a@b.example",
            &["secret"],
            "signup alice **** a@b.example",
        ),
        ("add alice secret", &["secret"], "signup alice ****"),
        (
            "change password alice old new",
            &["old", "new"],
            "change password alice **** ****",
        ),
        (
            "change address alice pw x@y.example",
            &["pw"],
            "change address alice **** x@y.example",
        ),
        ("signoff alice pw", &["pw"], "signoff alice ****"),
        (
            "limit move 101 alice secret 3-7, 4 #12",
            &["secret"],
            "limit move 101 alice **** 3-7, 4#12",
        ),
        (
            "limit resign 101 alice secret",
            &["secret"],
            "limit resign 101 alice ****",
        ),
        (
            "limit chat 101 alice secret",
            &["secret"],
            "limit chat 101 alice ****",
        ),
        ("limit show 101#3 102", &[], "limit show 101#3 102"),
        (
            "limit subscribe 101 carol secret",
            &["secret"],
            "limit subscribe 101 carol ****",
        ),
        (
            "limit UNSUBSCRIBE 101 carol secret",
            &["secret"],
            "limit unsubscribe 101 carol ****",
        ),
        (
            "limit notify carol secret",
            &["secret"],
            "limit notify carol ****",
        ),
        (
            "limit notify carol secret ON",
            &["secret"],
            "limit notify carol ****",
        ),
        (
            "limit notify carol secret off",
            &["secret"],
            "limit notify carol **** off",
        ),
        (
            "limit notify carol secret 101 102 101",
            &["secret"],
            "limit notify carol **** 101 102",
        ),
        (
            "limit limit carol secret",
            &["secret"],
            "limit limit carol ****",
        ),
        (
            "limit limit carol secret 0",
            &["secret"],
            "limit limit carol **** 0",
        ),
        (
            "limit limit carol secret None",
            &["secret"],
            "limit limit carol **** off",
        ),
        (
            "limit accept carol secret alice BOB alice",
            &["secret"],
            "limit accept carol **** alice BOB",
        ),
        (
            "limit reject carol secret",
            &["secret"],
            "limit reject carol ****",
        ),
        (
            "limit challenge -size=6 --nagtime=7 alice bob",
            &[],
            "limit challenge -size=6 --nagtime=7 alice bob",
        ),
        ("limit games alice", &[], "limit games alice active"),
        ("Limit RATINGS", &[], "limit ratings"),
        ("limit standings", &[], "limit standings"),
        ("help me", &[], "help me"),
        ("list", &[], "list"),
        // A password that occurs in another field is masked there too.
        (
            "limit move 101 alice 4 3-7,4",
            &["4"],
            "limit move 101 alice **** 3-7,****",
        ),
        ("signup alice alice", &["alice"], "signup **** ****"),
        // A password made of asterisks is masked with another character.
        ("signoff alice **", &["**"], "signoff alice ####"),
    ];
    for (line, pws, red) in cases {
        let c = parse(line).unwrap();
        assert_eq!(&c.passwords(), pws, "{line}");
        assert_eq!(&c.redacted(), red, "{line}");
    }
}

#[test]
fn proposals_answers_and_queued_moves() {
    let m =
        |board, userid: &str, password: &str| (board, userid.to_string(), Password::from(password));
    let cases: Vec<(&str, GameCommand, &str)> = vec![
        (
            "limit move 101 alice pw propose undo",
            {
                let (board, userid, password) = m(101, "alice", "pw");
                GameCommand::Propose {
                    board,
                    userid,
                    password,
                    kind: ProposalKind::Undo,
                    guard: None,
                }
            },
            "limit move 101 alice **** propose undo",
        ),
        (
            "limit MOVE 7 bob pw Propose DRAW #12",
            {
                let (board, userid, password) = m(7, "bob", "pw");
                GameCommand::Propose {
                    board,
                    userid,
                    password,
                    kind: ProposalKind::Draw,
                    guard: Some(12),
                }
            },
            "limit move 7 bob **** propose draw#12",
        ),
        (
            "limit move 101 bob pw accept",
            {
                let (board, userid, password) = m(101, "bob", "pw");
                GameCommand::Answer {
                    board,
                    userid,
                    password,
                    accept: true,
                    guard: None,
                }
            },
            "limit move 101 bob **** accept",
        ),
        (
            "limit move 101 bob pw Reject#4",
            {
                let (board, userid, password) = m(101, "bob", "pw");
                GameCommand::Answer {
                    board,
                    userid,
                    password,
                    accept: false,
                    guard: Some(4),
                }
            },
            "limit move 101 bob **** reject#4",
        ),
        (
            "limit queue 101 bob pw 3-7, 4#6",
            {
                let (board, userid, password) = m(101, "bob", "pw");
                GameCommand::Queue {
                    board,
                    userid,
                    password,
                    mv: "3-7, 4".into(),
                    guard: Some(6),
                }
            },
            "limit queue 101 bob **** 3-7, 4#6",
        ),
    ];
    for (line, want, red) in cases {
        let got = parse(line).unwrap();
        assert_eq!(got, game(want), "{line}");
        assert_eq!(got.passwords(), vec!["pw"], "{line}");
        assert_eq!(got.redacted(), red, "{line}");
    }
    let bad: &[(&str, &str)] = &[
        ("limit move 101 alice hunter2xyz propose", "propose undo"),
        (
            "limit move 101 alice hunter2xyz propose peace",
            "'propose peace' is not a proposal",
        ),
        (
            "limit move 101 alice hunter2xyz propose undo now",
            "one word after it",
        ),
        (
            "limit move 101 alice hunter2xyz accept it",
            "'accept' takes nothing",
        ),
        ("limit queue 101 alice hunter2xyz", "missing the move"),
        (
            "limit queue 101 alice hunter2xyz propose draw",
            "cannot be queued",
        ),
        ("limit queue x alice hunter2xyz 3-7,4", "not a board number"),
    ];
    for (line, want) in bad {
        let err = parse(line).expect_err(line).to_string();
        assert!(err.contains(want), "{line} -> {err}");
        assert!(!err.contains("hunter2xyz"), "{line} -> {err}");
    }
    // A misspelt queue is recognised for the hint, and its password hidden.
    let err = parse("limit queu 101 alice hunter2xyz 3-7,4")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("did you mean:\n    limit queue 101 alice <password> 3-7,4"),
        "{err}"
    );
    assert!(!err.contains("hunter2xyz"), "{err}");
}

#[test]
fn the_password_place_is_the_first_candidate() {
    let cases = [
        ("signup alice secret", "secret"),
        ("sigup alice secret", "secret"),
        ("ADD alice secret x@y.example", "secret"),
        ("change pasword alice old new", "old"),
        ("change what alice pw more", "alice"),
        ("signoff alice pw", "pw"),
        ("limit mvoe 101 alice secret 3-7,4", "secret"),
        ("limit move abc alice secret", "secret"),
        ("limit resign 101 alice secret extra", "secret"),
        ("limit limt alice secret 3", "secret"),
        ("limit rejcet alice secret", "secret"),
        ("limit xyzzy 101 alice secret", "secret"),
        ("  limit   move 101 alice  secret  secretive ", "secret"),
    ];
    for (line, want) in cases {
        assert_eq!(
            password_candidates(line, &["limit"]).first(),
            Some(&want),
            "{line:?}"
        );
    }
    for line in ["limit show 101 102 103 104", ""] {
        assert!(password_candidates(line, &["limit"]).is_empty(), "{line:?}");
    }
    // No password place: the other words (the server leaves out registered userids).
    assert_eq!(
        password_candidates("limit move 101 alice", &["limit"]),
        ["alice"]
    );
}

#[test]
fn usage_for_help_on_a_command() {
    let u = |s: &str| command_usage(&s.split_whitespace().map(String::from).collect::<Vec<_>>());
    assert_eq!(
        u("signup").unwrap(),
        "signup <userid> <password> [<address>...]"
    );
    assert!(
        u("change password")
            .unwrap()
            .starts_with("change password <userid> <old")
    );
    assert!(
        u("limit move")
            .unwrap()
            .starts_with("limit move <board> <userid> <password>")
    );
    assert!(u("move").unwrap().starts_with("<game> move <board>"));
    // `list` takes game names since issue 16; `help list` used to answer a bare `list`.
    assert_eq!(u("list").unwrap(), "list [<game>...]");
    // An alias is the command's: `help add` used to find no help at all.
    assert_eq!(u("add"), u("signup"));
    assert_eq!(u("frobnicate"), None);
    assert_eq!(u("limit frobnicate"), None);
    assert_eq!(nearest_command("sigup"), Some("signup"));
    assert_eq!(nearest_command("chalenge"), Some("challenge"));
    assert_eq!(nearest_command("frobnicate"), None);
}

#[test]
fn board_mail_subjects() {
    for s in [
        "Limit Board 101 bob",
        "New Limit Board 101 alice",
        "Nag: Limit Board 101 alice",
        "NEW limit board 7 Over",
        "Limit Board 101 Error",
        "Chess Board 3 bob **",
    ] {
        assert!(is_board_mail_subject(s), "{s}");
        assert!(!may_be_command(s, &["limit"]), "{s}");
        assert!(password_candidates(s, &["limit"]).is_empty(), "{s}");
    }
    for s in [
        "limit show 101",
        "Board 101",
        "New Limit Board alice",
        "Old Limit Board 101 alice",
        "limit move 101 alice Board 7",
    ] {
        assert!(!is_board_mail_subject(s), "{s}");
    }
}

#[test]
fn looks_like_command_cases() {
    let games = ["limit"];
    let cases = [
        ("limit show 101", true),
        ("Limit MOVE 101 alice secret 3-7,4", true),
        ("limit standings", true),
        ("limit", false),
        ("Limit Board 101 Blue", false),
        ("New Limit Board 101 Red", false),
        ("help", true),
        ("signup alice pw", true),
        ("add bob pw", true),
        ("list", true),
        ("signoff alice pw", true),
        ("change password alice a b", true),
        ("change of plans, sorry", false),
        ("chess move 101 alice pw e4", false),
        ("Hi Bob,", false),
        ("", false),
        ("> limit move 101 alice secret 3-7,4", false),
    ];
    for (line, want) in cases {
        assert_eq!(looks_like_command(line, &games), want, "{line:?}");
    }
}

/// The textbook full-matrix form of [`edit_distance`], to check the three-row one against.
fn edit_distance_by_matrix(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().take(64).collect();
    let b: Vec<char> = b.chars().take(64).collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

proptest::proptest! {
    #![proptest_config(crate::props::with_cases(256))]

    #[test]
    fn edit_distance_agrees_with_the_full_matrix(
        a in crate::props::string_of("abcdé", 0..=70),
        b in crate::props::string_of("abcdé", 0..=70),
    ) {
        proptest::prop_assert_eq!(edit_distance(&a, &b), edit_distance_by_matrix(&a, &b));
    }
}

#[test]
fn edit_distance_and_closest() {
    assert_eq!(edit_distance("", "move"), 4);
    assert_eq!(edit_distance("abcd", "badc"), 2);
    assert_eq!(edit_distance("mvoe", "move"), 1);
    assert_eq!(edit_distance("kitten", "sitting"), 3);
    assert_eq!(closest("resing", &["resign", "move"]), Some("resign"));
    assert_eq!(closest("ab", &["add"]), None);
    assert_eq!(closest("zzzz", &["move"]), None);
}

#[test]
fn a_password_never_prints() {
    let pw = Password::from("s3cret");
    assert_eq!(pw.to_string(), MASK);
    assert_eq!(format!("{pw:?}"), MASK);
    assert_eq!(pw.expose(), "s3cret");
    for line in [
        "signup alice s3cret",
        "change password alice s3cret n3wpass",
        "password set alice s3cret n3wpass",
        "limit move 101 alice s3cret 3-7,4",
        "limit challenge --password=s3cret alice bob",
        "limit notify alice s3cret",
    ] {
        let cmd = parse(line).unwrap();
        let shown = format!("{cmd:?} {cmd:#?}");
        assert!(!shown.contains("s3cret"), "{line}: {shown}");
        assert!(!shown.contains("n3wpass"), "{line}: {shown}");
        assert!(cmd.passwords().contains(&"s3cret"), "{line}");
    }
}

#[test]
fn mask_passwords_hides_short_ones_as_words_and_long_ones_anywhere() {
    // `ab` is short: hidden where it is a word, not inside `about`; `s3cret` inside a word too.
    assert_eq!(
        mask_passwords(
            "ab about xs3cretx s3cret",
            &["ab", "s3cret"],
            &[] as &[&str]
        ),
        "**** about x****x ****"
    );
    // Suspects as whole words only.
    assert_eq!(
        mask_passwords("you and your", &[] as &[&str], &["you"]),
        "**** and your"
    );
    // The longer first: a password holding a shorter one is hidden whole.
    assert_eq!(
        mask_passwords("password1", &["pass", "password1"], &[] as &[&str]),
        "****"
    );
    // One mask for all: a suspect made of `*` makes the passwords' mask another character.
    assert_eq!(
        mask_passwords("s3cret **", &["s3cret"], &["**"]),
        "#### ####"
    );
}

#[test]
fn mask_secrets_terminates_and_hides() {
    assert_eq!(mask_secrets("a b a", &["a"]), "**** b ****");
    assert_eq!(mask_secrets("x**y", &["**"]), "x####y");
    assert_eq!(mask_secrets::<&str>("abc", &[]), "abc");
    assert_eq!(mask_secrets("abc", &[""]), "abc");
    // Owned strings too: the server masks a reply with every password of the mail.
    assert_eq!(
        mask_secrets("my pw is s3cret, s3cret!", &["s3cret".to_string()]),
        "my pw is ****, ****!"
    );
    assert_eq!(mask_secrets("nothing", &[String::new()]), "nothing");
    let m = mask_secrets("*#x?~_.", &["*", "#", "x", "?", "~", "_", "."]);
    for s in ["*", "#", "x", "?", "~", "_", "."] {
        assert!(!m.contains(s), "{m}");
    }
}

mod props {
    use super::super::*;
    use crate::props::{string_of, string_where};
    use proptest::prelude::*;
    use proptest::sample::select;

    /// Any text, or words of commands, numbers, options and any characters.
    fn any_line() -> impl Strategy<Value = String> {
        let word = prop_oneof![
            7 => select(&[
                "limit",
                "move",
                "show",
                "signup",
                "change",
                "password",
                "challenge",
                "#",
            ][..])
            .prop_map(str::to_string),
            1 => string_of("0123456789", 1..=12),
            1 => (0usize..=2, string_of("abcdefghijklmnopqrstuvwxyz=#0123456789,", 0..=6))
                .prop_map(|(dashes, rest)| "-".repeat(dashes) + &rest),
            1 => string_where(0..=8, |ch| !ch.is_control()),
        ];
        prop_oneof![
            string_where(0..40, |_| true),
            prop::collection::vec(word, 0..8).prop_map(|words| words.join(" ")),
        ]
    }

    proptest! {
        #![proptest_config(crate::props::with_cases(256))]

        #[test]
        fn never_panics(line in any_line()) {
            let _ = tokenize(&line);
            let _ = password_candidates(&line, &["limit"]);
            let _ = looks_like_command(&line, &["limit"]);
            match parse(&line) {
                Ok(c) => {
                    let _ = c.redacted();
                }
                Err(e) => {
                    let _ = e.to_string();
                }
            }
        }

        #[test]
        fn redacted_hides_the_password(
            pw in string_where(1..=12, |ch| !ch.is_whitespace()),
            user in string_of(
                "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_",
                1..=20,
            ),
            mv in string_of("abcdefghijklmnopqrstuvwxyz0123456789 ,-", 1..=10),
            which in 0usize..6,
        ) {
            let line = match which {
                0 => format!("signup {user} {pw} {user}@example.org"),
                1 => format!("change password {user} {pw} {pw}x"),
                2 => format!("signoff {user} {pw}"),
                3 => format!("limit move 101 {user} {pw} {mv}"),
                4 => format!("limit resign 7 {user} {pw}"),
                _ => format!("limit chat 101 {user} {pw}"),
            };
            match parse(&line) {
                Ok(c) => {
                    prop_assert!(c.passwords().contains(&pw.as_str()));
                    let r = c.redacted();
                    for p in c.passwords() {
                        prop_assert!(!r.contains(p), "{} -> {}", line, r);
                    }
                }
                // Not parsed: the server checks the candidates, the password's place first.
                Err(_) if !is_placeholder(&pw) => {
                    let c = password_candidates(&line, &["limit"]);
                    prop_assert!(c.contains(&pw.as_str()), "{} -> {:?}", line, c);
                }
                Err(_) => {}
            }
        }

        #[test]
        fn a_password_in_its_place_is_a_candidate_when_the_line_does_not_parse(
            pw in string_of("abcdefghijklmnopqrstuvwxyz0123456789!$%&", 10..=16),
            words in prop::collection::vec(
                string_of("abcdefghijklmnopqrstuvwxyz0123456789#!-", 1..=5),
                3..4,
            ),
            cmd in select(&["move", "resign", "chat", "mvoe", "xyz"][..]),
            which in 0usize..5,
        ) {
            let w = |i: usize| words.get(i).cloned().unwrap_or_default();
            let line = match which {
                0 => format!("signup {} {pw} {}", w(0), w(1)),
                1 => format!("change password {} {pw} {}", w(0), w(1)),
                2 => format!("limit move {} {} {pw} {}", w(0), w(1), w(2)),
                3 => format!("limit {cmd} {} {} {pw} {}", w(0), w(1), w(2)),
                _ => format!("limit resign {} {} {pw} {}", w(0), w(1), w(2)),
            };
            // Lines that may be a mistyped command or have the shape of one (`limit xyz 7 bob PW`);
            // `limit xyz ! - PW` is neither, and its words are not taken for passwords.
            let shaped = may_be_command(&line, &["limit"])
                || super::super::words::parse_positive(&w(0)).is_some();
            if parse(&line).is_err() && shaped {
                let c = password_candidates(&line, &["limit"]);
                prop_assert!(c.contains(&pw.as_str()), "{} -> {:?}", line, c);
            }
        }
    }
}

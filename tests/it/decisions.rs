//! The server's decisions as values (issue 13): what the admin's shell gets back besides the text,
//! the typed refusal and the play family's events, through the library `Server` on a real SQLite
//! file. The texts themselves are tested by the mail tests; here, what a robot or web page would read.

use crate::common;
use pbem::command::ProposalKind;
use pbem::config::Config;
use pbem::decision::{
    AccountEvent, AccountRefusal, Event, Game, Listing, Pending, PlayRefusal, Refusal, Settlement,
};
use pbem::games;
use pbem::ratings::SeatResult;
use pbem::server::{AdminOutcome, Server};

const NOW: i64 = 1_795_000_000;
const LIMIT: Game = Game {
    name: "limit",
    title: "Limit",
};

struct World {
    _dir: tempfile::TempDir,
    cfg: Config,
}

impl World {
    fn new() -> World {
        let dir = tempfile::tempdir().unwrap();
        let mut cfg = Config::default();
        cfg.server.address = "pbem@games.example".into();
        cfg.database.path = dir.path().join("pbem.sqlite");
        cfg.mail.outbox_dir = dir.path().join("outbox");
        cfg.passwords.memory_kib = 64;
        cfg.passwords.iterations = 1;
        World { _dir: dir, cfg }
    }

    fn admin(&self, line: &str) -> AdminOutcome {
        Server::open(self.cfg.clone(), NOW)
            .unwrap()
            .with_seed(Some(common::SEED))
            .run_admin(line, "")
            .unwrap()
    }
}

#[test]
fn a_game_from_challenge_to_resignation_as_events() {
    let w = World::new();
    for (u, pw) in [("alice", "pw-a"), ("bob", "pw-b")] {
        let out = w.admin(&format!("signup {u} {pw} {u}@example.org"));
        assert!(out.ok, "{}", out.text);
        assert_eq!(out.refusal, None);
        assert_eq!(
            out.events,
            vec![Event::Account(AccountEvent::SignedUp {
                userid: u.into(),
                confirmed: vec![format!("{u}@example.org")],
                pending: Pending::default(),
            })]
        );
    }

    let out = w.admin("limit challenge alice bob");
    assert!(out.ok, "{}", out.text);
    assert_eq!(
        out.events,
        vec![Event::GameStarted {
            game: LIMIT,
            board: 101,
            players: vec!["alice".into(), "bob".into()],
        }]
    );

    let first = common::legal_moves_after(&[], 2, &[])[0].clone();
    let out = w.admin(&format!("limit move 101 alice pw-a {first}"));
    assert!(out.ok, "{}", out.text);
    assert_eq!(
        out.events,
        vec![Event::MovePlayed {
            game: LIMIT,
            board: 101,
            seat: 0,
            userid: "alice".into(),
            mv: first.clone(),
            move_number: 1,
        }]
    );

    // Out of turn: refused, as a value as well as in words, and nothing happened.
    let second = common::legal_moves_after(&[], 2, &[&first])[0].clone();
    let out = w.admin(&format!("limit move 101 alice pw-a {second}"));
    assert!(!out.ok);
    assert!(out.events.is_empty());
    match &out.refusal {
        Some(Refusal::Play(PlayRefusal::NotYourTurn { board: 101, status })) => {
            assert!(out.text.contains(status.as_str()), "{}", out.text);
            assert!(status.contains("bob"), "{status}");
        }
        other => panic!("not the refusal of a move out of turn: {other:?}"),
    }

    let out = w.admin("limit move 101 bob wrong-pw resign");
    assert_eq!(
        out.refusal,
        Some(Refusal::Account(AccountRefusal::WrongPassword {
            userid: "bob".into(),
            per_sender: w.cfg.limits.password_failures_per_sender_per_hour,
            per_account: w.cfg.limits.password_failures_per_account_per_hour,
            from_owner: false,
        }))
    );

    let out = w.admin("limit resign 101 bob pw-b");
    assert!(out.ok, "{}", out.text);
    let [resigned, ended] = out.events.as_slice() else {
        panic!("two events: {:?}", out.events);
    };
    assert_eq!(
        resigned,
        &Event::Resigned {
            game: LIMIT,
            board: 101,
            seat: 1,
            userid: "bob".into(),
            declined: false,
        }
    );
    let Event::GameEnded {
        board: 101,
        result: games::Outcome::Winner(0),
        settlement: Settlement::Rated(results),
        ..
    } = ended
    else {
        panic!("alice won, rated: {ended:?}");
    };
    let seen: Vec<(&str, SeatResult, bool)> = results
        .iter()
        .map(|r| (r.userid.as_str(), r.result, r.after > r.before.rating))
        .collect();
    assert_eq!(
        seen,
        vec![
            ("alice", SeatResult::Won, true),
            ("bob", SeatResult::Lost, false)
        ]
    );
    // The board mail's text shows the same changes.
    for r in results {
        assert!(
            out.text.contains(&pbem::mail_text::rating_change(r)),
            "{}",
            out.text
        );
    }
    // The lists that follow are values too: a web page reads the standings and the finished games
    // without parsing the text, and the text is worded from the same value.
    let out = w.admin("limit standings");
    let Some(Listing::Standings { game, rows }) = &out.listing else {
        panic!("standings as a listing: {:?}", out.listing);
    };
    assert_eq!(*game, LIMIT);
    let won: Vec<(&str, u32, u32)> = rows
        .iter()
        .map(|s| (s.userid.as_str(), s.won, s.lost))
        .collect();
    assert_eq!(won, vec![("alice", 1, 0), ("bob", 0, 1)]);
    assert_eq!(
        pbem::mail_text::listing(out.listing.as_ref().unwrap()).1,
        out.text
    );
    let out = w.admin("limit history");
    let Some(Listing::Finished {
        total: 1, games, ..
    }) = &out.listing
    else {
        panic!("one finished game: {:?}", out.listing);
    };
    assert_eq!((games[0].board, games[0].results.len()), (101, 2));
    let out = w.admin("limit games alice all");
    let Some(Listing::GamesOf { players, .. }) = &out.listing else {
        panic!("alice's games: {:?}", out.listing);
    };
    assert_eq!(players[0].games[0].players, ["alice", "bob"]);
}

#[test]
fn a_draw_by_proposal_as_events() {
    let w = World::new();
    for (u, pw) in [("alice", "pw-a"), ("bob", "pw-b")] {
        assert!(w.admin(&format!("signup {u} {pw} {u}@example.org")).ok);
    }
    assert!(w.admin("limit challenge alice bob").ok);
    let first = common::legal_moves_after(&[], 2, &[])[0].clone();
    assert!(w.admin(&format!("limit move 101 alice pw-a {first}")).ok);

    let out = w.admin("limit move 101 alice pw-a propose draw");
    assert!(out.ok, "{}", out.text);
    assert_eq!(
        out.events,
        vec![Event::ProposalMade {
            game: LIMIT,
            board: 101,
            userid: "alice".into(),
            kind: ProposalKind::Draw,
        }]
    );

    let out = w.admin("limit move 101 bob pw-b accept");
    assert!(out.ok, "{}", out.text);
    let [drawn, ended] = out.events.as_slice() else {
        panic!("two events: {:?}", out.events);
    };
    assert_eq!(
        drawn,
        &Event::DrawAgreed {
            game: LIMIT,
            board: 101,
            proposer: "alice".into(),
        }
    );
    assert!(
        matches!(
            ended,
            Event::GameEnded {
                result: games::Outcome::Draw(seats),
                settlement: Settlement::Rated(_),
                ..
            } if seats == &[0, 1]
        ),
        "{ended:?}"
    );
    // The notice the event words heads the board mail.
    assert!(
        out.text
            .starts_with("All players accept alice's draw proposal: the game is drawn.\n\n"),
        "{}",
        out.text
    );
}

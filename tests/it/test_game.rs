//! A game that only this test knows, hosted by the real server and played by mail (issue 13: the
//! registry is passed in, not global, and a game is added by implementing its rules alone).
//!
//! The game is Nim with one pile: seven sticks, each turn takes 1, 2 or 3, and whoever takes the last
//! stick wins. It is written here, outside the crate, against the public `GameRules` and `GameState`
//! traits only; the server gets it through `Parts::games`. Mail goes through the real ingest path to a
//! real SQLite file, and the answers are read back from the outbox folder.

use std::sync::Arc;

use crate::common::{Env, NOW, eml};
use pbem::clock::FixedClock;
use pbem::config::Config;
use pbem::games::{
    GameOption, GameRules, GameState, MoveRecord, Outcome, Registry, RuleError, Status,
};
use pbem::server::{IngestOutcome, Parts, Server};

const STICKS: u32 = 7;

/// The game type.
struct Nim;

/// The one instance the registry holds.
static NIM: Nim = Nim;

/// A game of Nim: the moves so far (sticks taken), and a resignation if any.
#[derive(Clone, Debug, PartialEq)]
struct Pile {
    taken: Vec<u32>,
    resigned: Option<usize>,
}

impl Pile {
    fn left(&self) -> u32 {
        STICKS - self.taken.iter().sum::<u32>()
    }
}

impl GameRules for Nim {
    fn name(&self) -> &'static str {
        "nim"
    }
    fn title(&self) -> &'static str {
        "Nim"
    }
    fn players(&self) -> std::ops::RangeInclusive<usize> {
        2..=2
    }
    fn help(&self) -> String {
        "Nim: seven sticks; take 1, 2 or 3 a turn; whoever takes the last stick wins.\n".into()
    }
    fn new_game(
        &self,
        options: &[GameOption],
        players: usize,
        _seed: u64,
    ) -> Result<Box<dyn GameState>, RuleError> {
        if let Some(o) = options.first() {
            return Err(RuleError(format!("Nim has no option {o}.")));
        }
        assert_eq!(players, 2, "the server checks the number of players");
        Ok(Box::new(Pile {
            taken: Vec::new(),
            resigned: None,
        }))
    }
    fn load(&self, json: &str) -> Result<Box<dyn GameState>, RuleError> {
        // The document is `taken=3,1;resigned=-` (the server stores whatever `to_json` writes).
        let bad = || RuleError(format!("not a Nim document: {json}"));
        let (taken, resigned) = json.split_once(';').ok_or_else(bad)?;
        let taken = taken.strip_prefix("taken=").ok_or_else(bad)?;
        let taken = if taken.is_empty() {
            Vec::new()
        } else {
            taken
                .split(',')
                .map(|t| t.parse().map_err(|_| bad()))
                .collect::<Result<_, _>>()?
        };
        let resigned = match resigned.strip_prefix("resigned=").ok_or_else(bad)? {
            "-" => None,
            s => Some(s.parse().map_err(|_| bad())?),
        };
        Ok(Box::new(Pile { taken, resigned }))
    }
    fn read_move(&self, mv: &str) -> Result<(), RuleError> {
        match mv.trim() {
            "1" | "2" | "3" => Ok(()),
            _ => Err(RuleError(format!(
                "'{mv}' is not a Nim move: write how many sticks you take, 1, 2 or 3."
            ))),
        }
    }
}

impl GameState for Pile {
    fn to_json(&self) -> String {
        let taken: Vec<String> = self.taken.iter().map(u32::to_string).collect();
        let resigned = self.resigned.map_or("-".to_string(), |s| s.to_string());
        format!("taken={};resigned={resigned}", taken.join(","))
    }
    fn clone_box(&self) -> Box<dyn GameState> {
        Box::new(self.clone())
    }
    fn status(&self) -> Status {
        let mover = self.taken.len() % 2;
        if let Some(seat) = self.resigned {
            Status::Over(Outcome::Winner(1 - seat))
        } else if self.left() == 0 {
            // The last taker is the seat before the one now to move.
            Status::Over(Outcome::Winner(1 - mover))
        } else {
            Status::ToMove(mover)
        }
    }
    fn seat_names(&self) -> Vec<String> {
        vec!["First".into(), "Second".into()]
    }
    fn move_number(&self) -> u32 {
        self.taken.len() as u32 + 1
    }
    fn moves(&self) -> Vec<MoveRecord> {
        self.taken
            .iter()
            .enumerate()
            .map(|(i, t)| MoveRecord {
                seat: i % 2,
                text: t.to_string(),
                auto: false,
            })
            .collect()
    }
    fn options_summary(&self) -> String {
        format!("{STICKS} sticks")
    }
    fn legal_moves(&self) -> Vec<String> {
        if matches!(self.status(), Status::Over(_)) {
            return Vec::new();
        }
        (1..=self.left().min(3)).map(|n| n.to_string()).collect()
    }
    fn play(&mut self, mv: &str) -> Result<(), RuleError> {
        NIM.read_move(mv)?;
        let n: u32 = mv.trim().parse().expect("read_move checked it");
        if matches!(self.status(), Status::Over(_)) {
            return Err(RuleError("The game is over.".into()));
        }
        if n > self.left() {
            return Err(RuleError(format!(
                "Only {} stick(s) are left: take at most that many.",
                self.left()
            )));
        }
        self.taken.push(n);
        Ok(())
    }
    fn resign(&mut self, seat: usize) -> Result<(), RuleError> {
        self.resigned = Some(seat);
        Ok(())
    }
    fn agree_draw(&mut self) -> Result<(), RuleError> {
        Err(RuleError("Nim has no draws.".into()))
    }
    fn at_move(&self, n: u32) -> Result<Box<dyn GameState>, RuleError> {
        let keep = (n as usize).saturating_sub(1).min(self.taken.len());
        Ok(Box::new(Pile {
            taken: self.taken[..keep].to_vec(),
            resigned: None,
        }))
    }
    fn render(&self) -> String {
        format!(
            "Pile: {} ({} left)\n",
            "|".repeat(self.left() as usize),
            self.left()
        )
    }
}

/// A server on the test's database that hosts Limit and Nim.
fn nim_server(env: &Env) -> Server {
    let cfg = config(env);
    let parts = Parts::from_config(&cfg, Arc::new(FixedClock::new(NOW))).unwrap();
    let parts = Parts {
        games: Registry::standard().with(&NIM),
        ..parts
    };
    Server::open_with(cfg, parts).unwrap()
}

fn config(env: &Env) -> Config {
    let mut cfg = Config::default();
    cfg.server.address = "pbem@localhost".into();
    cfg.database.path = env.db.clone();
    cfg.mail.outbox_dir = env.outbox.clone();
    cfg.passwords.memory_kib = 64;
    cfg.passwords.iterations = 1;
    cfg
}

fn send(server: &mut Server, from: &str, subject: &str) {
    let out = server.ingest(eml(from, subject, "").as_bytes()).unwrap();
    assert!(matches!(out, IngestOutcome::Handled { .. }), "{out:?}");
}

#[test]
fn a_game_written_outside_the_crate_is_played_by_mail() {
    let env = Env::new();
    let mut server = nim_server(&env);
    for p in ["alice", "bob"] {
        send(
            &mut server,
            &format!("{p}@example.org"),
            &format!("signup {p} pw-{p}"),
        );
    }
    env.take_mails();

    // `list` and `help nim` know the game.
    send(&mut server, "alice@example.org", "list");
    let list = env.only_mail_to("alice@example.org");
    assert!(list.body.contains("nim"), "{}", list.body);
    assert!(list.body.contains("Nim (2 players)"), "{}", list.body);
    send(&mut server, "alice@example.org", "help nim");
    let help = env.only_mail_to("alice@example.org");
    assert!(
        help.flat_body()
            .contains("whoever takes the last stick wins")
    );

    send(&mut server, "alice@example.org", "nim challenge alice bob");
    let mails = env.take_mails();
    let board = mails
        .iter()
        .find(|m| m.to == ["bob@example.org"])
        .expect("bob gets the new board");
    assert!(board.subject.contains("Nim"), "{}", board.subject);
    assert!(
        board.body.contains("Pile: ||||||| (7 left)"),
        "{}",
        board.body
    );
    let number: u32 = board
        .subject
        .split_whitespace()
        .find_map(|w| w.trim_end_matches(':').parse().ok())
        .expect("the subject names the board");

    // A move the game refuses: its own words come back, and nothing changes.
    send(
        &mut server,
        "alice@example.org",
        &format!("nim move {number} alice pw-alice 5"),
    );
    let refused = env.only_mail_to("alice@example.org");
    assert!(
        refused.flat_body().contains("'5' is not a Nim move"),
        "{}",
        refused.body
    );

    for (who, take) in [("alice", 3), ("bob", 3)] {
        send(
            &mut server,
            &format!("{who}@example.org"),
            &format!("nim move {number} {who} pw-{who} {take}"),
        );
        env.take_mails();
    }
    // One stick left, and only alice may take it.
    send(
        &mut server,
        "bob@example.org",
        &format!("nim move {number} bob pw-bob 1"),
    );
    let not_yours = env.only_mail_to("bob@example.org");
    assert!(
        not_yours
            .body
            .starts_with("Your command was not carried out:"),
        "{}",
        not_yours.subject
    );
    send(
        &mut server,
        "alice@example.org",
        &format!("nim move {number} alice pw-alice 1"),
    );
    let end = env
        .take_mails()
        .into_iter()
        .find(|m| m.to == ["bob@example.org"])
        .expect("bob gets the last board");
    assert!(end.body.contains("(0 left)"), "{}", end.body);
    assert!(
        end.flat_body().contains("Game over: First (alice) wins."),
        "{}",
        end.body
    );

    // The stored game is the game's own document, as `to_json` wrote it.
    let state: String = env
        .sqlite()
        .query_row(
            "SELECT s.state FROM game_states s JOIN games g ON g.id = s.game_id \
             WHERE g.game_type = 'nim'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(state, "taken=3,3,1;resigned=-");
}

#[test]
fn a_server_without_the_game_refuses_it() {
    let env = Env::new();
    let mut server = Server::open(config(&env), NOW).unwrap();
    send(&mut server, "alice@example.org", "signup alice pw-alice");
    env.take_mails();
    send(
        &mut server,
        "alice@example.org",
        "nim challenge alice alice",
    );
    let refused = env.only_mail_to("alice@example.org");
    let hosts = format!(
        "This server hosts no game called 'nim'. It hosts: {}.",
        Registry::standard().names().join(", ")
    );
    assert!(refused.flat_body().contains(&hosts), "{}", refused.body);
}

/// `pbem engine` on a registry: (exit status, stdout, stderr).
fn engine(registry: &Registry, line: &str, input: &str) -> (i32, String, String) {
    let args: Vec<String> = line.split_whitespace().map(String::from).collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = pbem::engine_cli::run(registry, &args, &mut input.as_bytes(), &mut out, &mut err);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

#[test]
fn pbem_engine_plays_the_game_of_the_registry_it_is_given() {
    let nim = Registry::standard().with(&NIM);
    let (code, game, err) = engine(&nim, "nim new --seed 1", "");
    assert_eq!(code, 0, "{err}");
    // Nim's document is not JSON and its reader takes no trailing line end.
    let game = game.trim_end();
    let (code, moves, _) = engine(&nim, "nim moves", game);
    assert_eq!((code, moves.as_str()), (0, "1\n2\n3\n"));
    let (code, game, err) = engine(&nim, "nim play 3 3#2", game);
    assert_eq!(code, 0, "{err}");
    let game = game.trim_end();
    let (_, shown, _) = engine(&nim, "nim show", game);
    assert_eq!(shown, "Pile: | (1 left)\n");
    let (_, status, _) = engine(&nim, "nim status", game);
    assert_eq!(status, "to-move first\n");
    let (code, _, err) = engine(&nim, "chess moves", "");
    assert_eq!(code, 2);
    let listed = format!(
        "the games are: {}, nim",
        Registry::standard().names().join(", ")
    );
    assert!(err.contains(&listed), "{err}");
    let (code, _, err) = engine(&Registry::standard(), "nim moves", game);
    assert_eq!(code, 2);
    assert!(err.contains("no game called \"nim\""), "{err}");
}

#[test]
fn the_web_pages_list_the_games_of_the_registry_they_are_given() {
    let env = Env::new();
    drop(nim_server(&env));
    let busy = std::time::Duration::from_secs(5);
    let mut db = pbem::storage::Db::open_read_only(&env.db, busy).unwrap();
    let nim = Registry::standard().with(&NIM);
    let index = pbem::web::answer(&mut db, &nim, "pbem@localhost", "/");
    assert_eq!(index.status, 200);
    assert!(
        index.html.contains("<a href=\"/nim\">Nim</a>"),
        "{}",
        index.html
    );
    assert!(index.html.contains("<a href=\"/limit\">Limit</a>"));
    let list = pbem::web::answer(&mut db, &nim, "pbem@localhost", "/nim");
    assert_eq!(list.status, 200);
    assert!(list.html.contains("No games yet."), "{}", list.html);
    let standard = Registry::standard();
    assert_eq!(
        pbem::web::answer(&mut db, &standard, "pbem@localhost", "/nim").status,
        404
    );
    assert!(
        !pbem::web::answer(&mut db, &standard, "pbem@localhost", "/")
            .html
            .contains("/nim")
    );
}

/// Nim draws no cells, so it keeps the default board view: its sides, whose turn and the last move.
#[test]
fn a_game_without_cells_gets_the_default_board_view() {
    let mut pile = NIM.new_game(&[], 2, 0).unwrap();
    let view = pile.board_view();
    assert!(view.cells.is_empty() && view.tiles.is_empty());
    let names: Vec<(&str, char)> = view
        .sides
        .iter()
        .map(|s| (s.name.as_str(), s.letter))
        .collect();
    assert_eq!(names, [("First", 'F'), ("Second", 'S')]);
    assert_eq!((view.to_move, view.move_number), (Some(0), 1));
    assert_eq!(view.status, "First to move");
    assert!(view.last_move.is_none());
    pile.play("2").unwrap();
    let view = pile.board_view();
    assert_eq!((view.to_move, view.move_number), (Some(1), 2));
    let last = view.last_move.unwrap();
    assert_eq!((last.seat, last.text.as_str()), (0, "2"));
    pile.play("3").unwrap();
    pile.play("2").unwrap();
    let view = pile.board_view();
    assert_eq!((view.to_move, view.status.as_str()), (None, "First wins"));
}

/// The robot accounts play any hosted game (issue 23): the generic search plays this Nim, which gives
/// the search no action ids (it works through `legal_moves` and `play`), and plays it right: from seven
/// sticks it leaves four, then takes the rest.
#[test]
fn a_robot_plays_a_game_written_outside_the_crate_by_mail() {
    let env = Env::new();
    let mut server = nim_server(&env);
    send(&mut server, "alice@example.org", "signup alice pw-alice");
    env.take_mails();
    send(
        &mut server,
        "alice@example.org",
        "nim challenge robot2 alice",
    );
    let board = env.only_mail_to("alice@example.org");
    assert!(
        board.body.contains("(4 left)"),
        "robot2 moves first and leaves four sticks:\n{}",
        board.body
    );
    let number: u32 = board
        .subject
        .split_whitespace()
        .find_map(|w| w.trim_end_matches(':').parse().ok())
        .expect("the subject names the board");
    send(
        &mut server,
        "alice@example.org",
        &format!("nim move {number} alice pw-alice 1"),
    );
    let end = env.only_mail_to("alice@example.org");
    assert!(end.body.contains("(0 left)"), "{}", end.body);
    assert!(
        end.flat_body().contains("Game over: First (robot2) wins."),
        "{}",
        end.body
    );
}

//! `pbem engine <game> ...`: drives a rules engine from the shell, for tests, bug reports and tools.
//!
//! It knows no game: it finds the game by name in the [`Registry`] it is given and talks to it only through the
//! [`GameRules`] and [`GameState`] traits, reading and writing the game's JSON document.
//!
//! Exit status: 0 on success; 1 when the game refuses something (an illegal move, a stale `#N` guard, an
//! option it does not know, a JSON document it cannot read); 2 for a command line that is wrong in itself
//! (a usage text is printed).

mod args;
mod runs;

use std::io::{Read, Write};
use std::time::Instant;

use crate::games::{GameRules, GameState, Outcome, Registry, Status};
use args::{Command, parse, player_name};
use runs::{play_match, playouts, write_match, write_tally};

/// The usage text printed for a command line that cannot be run.
const USAGE: &str = "\
usage: pbem engine GAME COMMAND [ARGS]   (GAME: the game's name, e.g. limit)

  new [OPTIONS] [--players N] [--seed S]   print a new game as JSON
  moves   < game.json                      every legal move, one per line (none once over)
  play MOVE... < game.json                 play the moves in order, print the new JSON;
                                           a move may end in #N: refused unless the game is at move N
  status  < game.json                      one line: to-move PLAYER | winner PLAYER | draw
  show    < game.json                      the board as players read it
  svg     < game.json                      the board as an SVG picture (last move marked)
  perft DEPTH < game.json                  the number of legal move sequences of DEPTH moves
  playout --games N [--seed S] [OPTIONS] [--players N]
                                           play N random games to the end; print the results,
                                           the mean length and the games per second
  best [--playouts N | --player P] [--seed S] < game.json
                                           the robot's move for the player to move
                                           (default --player robot2, --seed 0)
  match A B --games N [--seed S] [OPTIONS] [--players N] [--moves] [--cpu-clock]
                                           A plays B N times; game i has seed S+i and A
                                           takes seat (S+i) mod players; one line per
                                           game, then A's wins, losses, draws, score with
                                           its 95% interval (Wilson), the median time
                                           per move of each player and the largest
                                           search tree (MB); --moves prints each game's
                                           moves; --cpu-clock reads the caps (robotN@MS)
                                           and the times per move on the thread's CPU
                                           time, as a free core would give them

Players (A, B, P): random (a random legal move); greedy (one ply: the turn that wins the most
pawns net of its own losses, ties at random); robot1, robot2, robot3 (the search player at the
server's robot levels); robot1@MS to robot3@MS (that level capped at MS milliseconds a move, as
the server caps its robots at 2000); playouts=N (the search player with N playouts a move).

OPTIONS are the game's own options as a challenge writes them: -size=8 -manual ...
The engine's own flags take two dashes: --players 3 or --players=3. Without --seed, `new` takes one from
the clock; `playout` starts at seed 0.
";

/// Runs `pbem engine` with the words after `engine`, on the games of `registry`; returns the exit
/// status.
pub fn run(
    registry: &Registry,
    args: &[String],
    input: &mut dyn Read,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    if matches!(
        args.first().map(String::as_str),
        Some("help" | "--help" | "-h")
    ) {
        return match out.write_all(USAGE.as_bytes()) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => 1,
            _ => 0,
        };
    }
    let result =
        parse(registry, args).and_then(|(game, command)| execute(game, &command, input, out));
    match result {
        Ok(()) => 0,
        Err(Failure::Usage(why)) => {
            let _ = writeln!(err, "pbem engine: {why}\n\n{USAGE}");
            2
        }
        Err(Failure::Refused(why)) => {
            let _ = writeln!(err, "pbem engine: {why}");
            1
        }
        Err(Failure::OutputClosed) => 0,
    }
}

/// Why a command did not succeed.
#[derive(Debug, PartialEq, Eq)]
enum Failure {
    /// The command line itself is wrong: exit 2 with the usage text.
    Usage(String),
    /// The game or its input refused: exit 1 with the reason.
    Refused(String),
    /// Whoever reads the output stopped reading (`moves | head -1`): not an error of ours.
    OutputClosed,
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            Failure::OutputClosed
        } else {
            Failure::Refused(format!("cannot write the output: {e}"))
        }
    }
}

/// Reads the game's JSON document from standard input.
fn load(game: &dyn GameRules, input: &mut dyn Read) -> Result<Box<dyn GameState>, Failure> {
    let mut text = String::new();
    input.read_to_string(&mut text).map_err(|e| {
        Failure::Refused(format!(
            "cannot read the game from standard input: {e} (it must be the game's JSON, as `new` prints it)"
        ))
    })?;
    if text.trim().is_empty() {
        return Err(Failure::Refused(format!(
            "standard input is empty: give the game's JSON, e.g. `pbem engine {} new > game.json` \
             and then `< game.json`",
            game.name()
        )));
    }
    game.load(&text).map_err(|e| {
        Failure::Refused(format!(
            "standard input is not a {} game that can be read: {e}",
            game.title()
        ))
    })
}

/// A seat as `status` and `playout` print it ([`GameState::status_seat`]: `red`, or Hex's `0`).
fn seat_name(state: &dyn GameState, seat: usize) -> String {
    state.status_seat(seat)
}

/// The line `status` prints.
fn status_line(state: &dyn GameState) -> String {
    match state.status() {
        Status::ToMove(seat) => format!("to-move {}", seat_name(state, seat)),
        Status::Over(Outcome::Winner(seat)) => format!("winner {}", seat_name(state, seat)),
        Status::Over(Outcome::Draw(_)) => "draw".to_string(),
    }
}

/// Splits a `#N` guard off a move: `3-7,4#12` is the move `3-7,4` meant for move 12.
fn split_guard(word: &str) -> Result<(&str, Option<u32>), Failure> {
    match word.split_once('#') {
        None => Ok((word.trim(), None)),
        Some((mv, n)) => {
            let n = n.trim().parse::<u32>().map_err(|_| {
                Failure::Refused(format!(
                    "{word:?}: after # comes the move number the move is meant for, e.g. 3-7,4#12"
                ))
            })?;
            Ok((mv.trim(), Some(n)))
        }
    }
}

/// Plays the moves in order on the game; stops at the first one refused.
fn play_all(state: &mut dyn GameState, moves: &[String]) -> Result<(), Failure> {
    for word in moves {
        let (mv, guard) = split_guard(word)?;
        let now = state.move_number();
        if let Status::Over(_) = state.status() {
            return Err(Failure::Refused(format!(
                "{word:?}: the game is over ({}); no more moves can be played",
                status_line(state)
            )));
        }
        if let Some(n) = guard
            && n != now
        {
            return Err(Failure::Refused(format!(
                "{word:?} was meant for move {n}, but the game is at move {now}; \
                 look at the board again and write the move for move {now}"
            )));
        }
        if mv.is_empty() {
            return Err(Failure::Refused(format!(
                "{word:?}: there is no move before the #"
            )));
        }
        state
            .play(mv)
            .map_err(|e| Failure::Refused(format!("move {now}: {mv:?} is not legal: {e}")))?;
    }
    Ok(())
}

/// The seed `new` uses when none is given: from the clock, so that two new games differ.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0)
}

/// Runs one parsed command.
fn execute(
    game: &dyn GameRules,
    command: &Command,
    input: &mut dyn Read,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    match command {
        Command::New(setup) => {
            let seed = setup.seed.unwrap_or_else(clock_seed);
            let state = game
                .new_game(&setup.options, setup.players, seed)
                .map_err(|e| Failure::Refused(e.to_string()))?;
            writeln!(out, "{}", state.to_json())?;
        }
        Command::Moves => {
            let state = load(game, input)?;
            for mv in state.legal_moves() {
                writeln!(out, "{mv}")?;
            }
        }
        Command::Play(moves) => {
            let mut state = load(game, input)?;
            play_all(state.as_mut(), moves)?;
            writeln!(out, "{}", state.to_json())?;
        }
        Command::Status => {
            let state = load(game, input)?;
            writeln!(out, "{}", status_line(state.as_ref()))?;
        }
        Command::Svg => {
            let state = load(game, input)?;
            match state.svg() {
                Some(svg) => write!(out, "{svg}")?,
                None => {
                    return Err(Failure::Usage(format!(
                        "there is no picture of a {} board yet: use `show`",
                        game.title()
                    )));
                }
            }
        }
        Command::Show => {
            let state = load(game, input)?;
            let board = state.render();
            write!(out, "{board}")?;
            if !board.ends_with('\n') {
                writeln!(out)?;
            }
        }
        Command::Perft(depth) => {
            let state = load(game, input)?;
            writeln!(out, "{}", state.perft(*depth))?;
        }
        Command::Playout { setup, games } => {
            let start = Instant::now();
            let tally = playouts(game, setup, *games)?;
            let seconds = start.elapsed().as_secs_f64();
            write_tally(out, &tally, seconds)?;
        }
        Command::Best { player, seed } => {
            let state = load(game, input)?;
            if let Status::Over(_) = state.status() {
                return Err(Failure::Refused(format!(
                    "the game is over ({}): there is no move to find",
                    status_line(state.as_ref())
                )));
            }
            let Some(mv) = state.robot_move(*player, *seed) else {
                return Err(Failure::Refused(format!(
                    "{} has no {} player",
                    game.title(),
                    player_name(*player)
                )));
            };
            writeln!(out, "{mv}")?;
        }
        Command::Match {
            a,
            b,
            setup,
            games,
            moves,
            cpu_clock,
        } => {
            if *cpu_clock {
                crate::games::search::use_cap_clock(thread_cpu_time);
            }
            let clock = if *cpu_clock {
                thread_cpu_time
            } else {
                wall_time
            };
            let tally = play_match(game, setup, (*a, *b), *games, (*moves, clock), out)?;
            write_match(out, (*a, *b), &tally)?;
        }
    }
    Ok(())
}

/// The CPU time this thread has used (`match --cpu-clock`): a capped robot then searches as long as
/// it would on a free core, however loaded the machine is.
fn thread_cpu_time() -> std::time::Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes only the timespec it is given, which lives for the call.
    let r = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(r, 0, "CLOCK_THREAD_CPUTIME_ID is there on Linux");
    std::time::Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// The wall-clock time since the first call (`match`'s times per move without `--cpu-clock`).
fn wall_time() -> std::time::Duration {
    static ORIGIN: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    ORIGIN.get_or_init(Instant::now).elapsed()
}

#[cfg(test)]
mod tests {
    use super::args::Setup;
    use super::runs::{median, wilson};
    use super::*;
    use crate::games::{GameOption, MoveRecord, Robot, RuleError};
    use serde::{Deserialize, Serialize};

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    fn parsed(s: &str) -> Result<Command, Failure> {
        parse(&Registry::standard(), &words(s)).map(|(_, c)| c)
    }

    fn usage(s: &str) -> String {
        match parsed(s) {
            Err(Failure::Usage(why)) => why,
            other => panic!("{s:?} should be a usage error, got {other:?}"),
        }
    }

    #[test]
    fn reads_each_command() {
        assert_eq!(parsed("limit moves"), Ok(Command::Moves));
        assert_eq!(parsed("LIMIT Status"), Ok(Command::Status));
        assert_eq!(parsed("limit show"), Ok(Command::Show));
        assert_eq!(parsed("limit svg"), Ok(Command::Svg));
        assert_eq!(parsed("limit perft 3"), Ok(Command::Perft(3)));
        assert_eq!(
            parsed("limit play r3 3-7,4#12"),
            Ok(Command::Play(words("r3 3-7,4#12")))
        );
        assert_eq!(
            parsed("limit new -size=6 -classic --players 3 --seed=42"),
            Ok(Command::New(Setup {
                options: vec![
                    GameOption::with_value("size", "6"),
                    GameOption::flag("classic")
                ],
                players: 3,
                seed: Some(42),
            }))
        );
        assert_eq!(
            parsed("limit new"),
            Ok(Command::New(Setup {
                options: vec![],
                players: 2,
                seed: None,
            }))
        );
        assert_eq!(
            parsed("limit playout --games 10 -manual --seed 7"),
            Ok(Command::Playout {
                setup: Setup {
                    options: vec![GameOption::flag("manual")],
                    players: 2,
                    seed: Some(7),
                },
                games: 10,
            })
        );
    }

    #[test]
    fn refuses_bad_command_lines_with_a_reason() {
        assert!(usage("").contains("name a game"));
        assert!(usage("chess moves").contains("no game called \"chess\""));
        assert!(usage("chess moves").contains("limit"));
        assert!(usage("limit").contains("name a command"));
        assert!(usage("limit frobnicate").contains("unknown command"));
        assert!(usage("limit moves extra").contains("takes no arguments"));
        assert!(usage("limit play").contains("at least one move"));
        assert!(usage("limit perft").contains("exactly one argument"));
        assert!(usage("limit perft two").contains("whole number"));
        assert!(usage("limit perft 1 2").contains("exactly one argument"));
        assert!(usage("limit new --players 4").contains("2 to 3 players, not 4"));
        assert!(usage("limit new --players").contains("needs a value"));
        assert!(usage("limit new --players x").contains("number of players"));
        assert!(usage("limit new --seed -1").contains("whole number"));
        assert!(usage("limit new --games 3").contains("unknown flag"));
        assert!(usage("limit new --colour red").contains("unknown flag"));
        assert!(usage("limit new size=8").contains("neither a game option"));
        assert!(usage("limit playout -size=8").contains("number of games"));
        assert!(usage("limit playout --games=many").contains("number of games"));
    }

    #[test]
    fn reads_best_and_match() {
        assert_eq!(
            parsed("limit best --playouts 500 --seed 3"),
            Ok(Command::Best {
                player: Robot::Playouts(500),
                seed: 3
            })
        );
        assert_eq!(
            parsed("limit best"),
            Ok(Command::Best {
                player: Robot::Level(2),
                seed: 0
            })
        );
        assert_eq!(
            parsed("limit best --player=Robot3"),
            Ok(Command::Best {
                player: Robot::Level(3),
                seed: 0
            })
        );
        assert_eq!(
            parsed("limit match robot1 greedy --games 4 -size=6 --players 3"),
            Ok(Command::Match {
                a: Robot::Level(1),
                b: Robot::Greedy,
                setup: Setup {
                    options: vec![GameOption::with_value("size", "6")],
                    players: 3,
                    seed: None,
                },
                games: 4,
                moves: false,
                cpu_clock: false,
            })
        );
        assert_eq!(
            parsed("hex match robot2 robot1 --moves --games 2 --seed 1000"),
            Ok(Command::Match {
                a: Robot::Level(2),
                b: Robot::Level(1),
                setup: Setup {
                    options: vec![],
                    players: 2,
                    seed: Some(1000),
                },
                games: 2,
                moves: true,
                cpu_clock: false,
            })
        );
        assert!(usage("limit best --playouts").contains("needs a value"));
        assert!(usage("limit best --player robot0").contains("not a player"));
        assert!(usage("limit match random").contains("two players"));
        assert!(usage("limit match random playouts=x --games 1").contains("playouts=N"));
    }

    #[test]
    fn a_match_caps_robots_and_may_read_the_cpu_clock() {
        assert_eq!(
            parsed("go match robot3@2000 robot2 --games 40 --cpu-clock -size=19"),
            Ok(Command::Match {
                a: Robot::Within {
                    level: 3,
                    millis: 2000
                },
                b: Robot::Level(2),
                setup: Setup {
                    options: vec![GameOption::with_value("size", "19")],
                    players: 2,
                    seed: None,
                },
                games: 40,
                moves: false,
                cpu_clock: true,
            })
        );
        for bad in [
            "robot3@",
            "robot3@0",
            "robot3@2s",
            "robot4@2000",
            "robot@2000",
        ] {
            assert!(
                usage(&format!("go match {bad} robot2 --games 1")).contains("robotN@MS"),
                "{bad}"
            );
        }
    }

    #[test]
    fn wilson_interval_and_median() {
        // 190 of 200: the interval is about 0.910 to 0.973.
        let (lo, hi) = wilson(0.95, 200);
        assert!(
            (lo - 0.910).abs() < 0.002 && (hi - 0.973).abs() < 0.002,
            "{lo} {hi}"
        );
        // A perfect score still has a lower bound below 1, and the bounds stay within [0, 1].
        let (lo, hi) = wilson(1.0, 20);
        assert!((lo - 0.839).abs() < 0.002 && hi == 1.0, "{lo} {hi}");
        assert_eq!(wilson(0.5, 0), (0.0, 1.0));
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(median(&[]), 0.0);
    }

    #[test]
    fn guards() {
        assert_eq!(split_guard("3-7,4").unwrap(), ("3-7,4", None));
        assert_eq!(split_guard("3-7,4#12").unwrap(), ("3-7,4", Some(12)));
        assert_eq!(split_guard(" r3 # 5 ").unwrap(), ("r3", Some(5)));
        assert!(matches!(split_guard("r3#"), Err(Failure::Refused(_))));
        assert!(matches!(split_guard("r3#x"), Err(Failure::Refused(_))));
    }

    #[test]
    fn exit_statuses_and_where_text_goes() {
        let run_words = |s: &str| {
            let (mut out, mut err) = (Vec::new(), Vec::new());
            let code = run(
                &Registry::standard(),
                &words(s),
                &mut std::io::empty(),
                &mut out,
                &mut err,
            );
            (
                code,
                String::from_utf8(out).unwrap(),
                String::from_utf8(err).unwrap(),
            )
        };
        let (code, out, err) = run_words("chess moves");
        assert_eq!(code, 2);
        assert!(out.is_empty());
        assert!(err.contains("no game called") && err.contains("usage: pbem engine"));
        let (code, out, _) = run_words("help");
        assert_eq!(code, 0);
        assert!(out.contains("usage: pbem engine"));
        // Empty standard input: the game refuses, no usage text.
        let (code, out, err) = run_words("limit moves");
        assert_eq!(code, 1);
        assert!(out.is_empty());
        assert!(err.contains("standard input is empty") && !err.contains("usage:"));
    }

    #[test]
    fn the_games_are_those_of_the_registry_given() {
        let registry = Registry::standard().with(&Race);
        let run_words = |registry: &Registry, s: &str, input: &str| {
            let (mut out, mut err) = (Vec::new(), Vec::new());
            let code = run(
                registry,
                &words(s),
                &mut input.as_bytes(),
                &mut out,
                &mut err,
            );
            (
                code,
                String::from_utf8(out).unwrap(),
                String::from_utf8(err).unwrap(),
            )
        };
        let (code, game, _) = run_words(&registry, "race new --seed 1 -target=3", "");
        assert_eq!(code, 0);
        let (code, out, _) = run_words(&registry, "race status", &game);
        assert_eq!((code, out.as_str()), (0, "to-move red\n"));
        let (code, _, err) = run_words(&registry, "chess moves", "");
        assert_eq!(code, 2);
        let listed = format!(
            "the games are: {}, race",
            Registry::standard().names().join(", ")
        );
        assert!(err.contains(&listed), "{err}");
        // The standard registry has no race.
        let (code, _, err) = run_words(&Registry::standard(), "race status", &game);
        assert_eq!(code, 2);
        let standard = format!(
            "no game called \"race\"; the games are: {}\n",
            Registry::standard().names().join(", ")
        );
        assert!(err.contains(&standard), "{err}");
    }

    /// A writer whose reader has gone away, as `pbem engine limit moves | head -1` leaves it.
    struct ClosedPipe;

    impl Write for ClosedPipe {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_closed_output_is_not_an_error() {
        let mut err = Vec::new();
        let code = run(
            &Registry::standard(),
            &words("help"),
            &mut std::io::empty(),
            &mut ClosedPipe,
            &mut err,
        );
        assert_eq!(code, 0);
        let game = new_race(&[], 2);
        let result = execute(
            &Race,
            &Command::Moves,
            &mut game.as_bytes(),
            &mut ClosedPipe,
        );
        assert_eq!(result, Err(Failure::OutputClosed));
        assert!(err.is_empty());
    }

    /// A tiny game to drive the commands without Limit: players in turn add 1 or 2 to a total; whoever
    /// reaches the target exactly wins (or, with `-draw`, the game is drawn).
    struct Race;

    #[derive(Clone, Serialize, Deserialize)]
    struct RaceState {
        target: u32,
        players: usize,
        draw: bool,
        seed: u64,
        steps: Vec<u32>,
    }

    impl RaceState {
        fn total(&self) -> u32 {
            self.steps.iter().sum()
        }
    }

    impl GameRules for Race {
        fn name(&self) -> &'static str {
            "race"
        }
        fn title(&self) -> &'static str {
            "Race"
        }
        fn players(&self) -> std::ops::RangeInclusive<usize> {
            2..=3
        }
        fn help(&self) -> String {
            String::new()
        }
        fn new_game(
            &self,
            options: &[GameOption],
            players: usize,
            seed: u64,
        ) -> Result<Box<dyn GameState>, RuleError> {
            let mut state = RaceState {
                target: 5,
                players,
                draw: false,
                seed,
                steps: vec![],
            };
            for o in options {
                match (o.name.as_str(), &o.value) {
                    ("target", Some(v)) => {
                        state.target = v.parse().map_err(|_| RuleError("bad target".into()))?
                    }
                    ("draw", None) => state.draw = true,
                    _ => return Err(RuleError(format!("unknown option {o}"))),
                }
            }
            Ok(Box::new(state))
        }
        fn load(&self, json: &str) -> Result<Box<dyn GameState>, RuleError> {
            serde_json::from_str::<RaceState>(json)
                .map(|s| Box::new(s) as Box<dyn GameState>)
                .map_err(|e| RuleError(e.to_string()))
        }
        fn read_move(&self, mv: &str) -> Result<(), RuleError> {
            match mv.trim() {
                "1" | "2" => Ok(()),
                _ => Err(RuleError(format!("a Race move is 1 or 2, not {mv:?}"))),
            }
        }
    }

    impl GameState for RaceState {
        fn to_json(&self) -> String {
            serde_json::to_string(self).unwrap()
        }
        fn clone_box(&self) -> Box<dyn GameState> {
            Box::new(self.clone())
        }
        fn status(&self) -> Status {
            let n = self.steps.len();
            match (self.total() == self.target, self.draw) {
                (false, _) => Status::ToMove(n % self.players),
                (true, false) => Status::Over(Outcome::Winner((n - 1) % self.players)),
                (true, true) => Status::Over(Outcome::Draw(vec![0, 1])),
            }
        }
        fn seat_names(&self) -> Vec<String> {
            ["Red", "Blue", "Green"][..self.players]
                .iter()
                .map(|s| s.to_string())
                .collect()
        }
        fn move_number(&self) -> u32 {
            self.steps.len() as u32 + 1
        }
        fn moves(&self) -> Vec<MoveRecord> {
            self.steps
                .iter()
                .enumerate()
                .map(|(i, s)| MoveRecord {
                    seat: i % self.players,
                    text: s.to_string(),
                    auto: false,
                })
                .collect()
        }
        fn options_summary(&self) -> String {
            format!("-target={}", self.target)
        }
        fn legal_moves(&self) -> Vec<String> {
            (1..=2)
                .filter(|k| self.total() + k <= self.target)
                .map(|k| k.to_string())
                .collect()
        }
        fn play(&mut self, mv: &str) -> Result<(), RuleError> {
            if !self.legal_moves().iter().any(|m| m == mv.trim()) {
                return Err(RuleError(format!("you may add {:?}", self.legal_moves())));
            }
            self.steps.push(mv.trim().parse().unwrap());
            Ok(())
        }
        fn resign(&mut self, _seat: usize) -> Result<(), RuleError> {
            Err(RuleError("no resigning in a race".into()))
        }
        fn agree_draw(&mut self) -> Result<(), RuleError> {
            Err(RuleError("no draws in a race".into()))
        }
        fn at_move(&self, n: u32) -> Result<Box<dyn GameState>, RuleError> {
            let mut s = self.clone();
            s.steps.truncate(n as usize - 1);
            Ok(Box::new(s))
        }
        fn render(&self) -> String {
            format!("total {} of {}", self.total(), self.target)
        }
    }

    /// Runs one command of the race game with `input` on standard input.
    fn race(command: Command, input: &str) -> Result<String, Failure> {
        let mut out = Vec::new();
        execute(&Race, &command, &mut input.as_bytes(), &mut out)?;
        Ok(String::from_utf8(out).unwrap())
    }

    fn new_race(options: &[&str], players: usize) -> String {
        let setup = Setup {
            options: options
                .iter()
                .map(|o| GameOption::parse(o).unwrap())
                .collect(),
            players,
            seed: Some(1),
        };
        race(Command::New(setup), "").unwrap()
    }

    fn play(game: &str, moves: &str) -> Result<String, Failure> {
        race(Command::Play(words(moves)), game)
    }

    fn refused(r: Result<String, Failure>) -> String {
        match r {
            Err(Failure::Refused(why)) => why,
            other => panic!("should be refused, got {other:?}"),
        }
    }

    #[test]
    fn new_moves_play_status_show() {
        let game = new_race(&["-target=4"], 2);
        assert_eq!(race(Command::Moves, &game).unwrap(), "1\n2\n");
        assert_eq!(race(Command::Status, &game).unwrap(), "to-move red\n");
        let game = play(&game, "2 1#2").unwrap();
        assert_eq!(race(Command::Status, &game).unwrap(), "to-move red\n");
        assert_eq!(race(Command::Show, &game).unwrap(), "total 3 of 4\n");
        assert_eq!(race(Command::Moves, &game).unwrap(), "1\n");
        let over = play(&game, "1").unwrap();
        assert_eq!(race(Command::Status, &over).unwrap(), "winner red\n");
        assert_eq!(race(Command::Moves, &over).unwrap(), "");
        let why = refused(play(&over, "1"));
        assert!(why.contains("game is over (winner red)"), "{why}");
        let drawn = play(&new_race(&["-draw", "-target=1"], 3), "1").unwrap();
        assert_eq!(race(Command::Status, &drawn).unwrap(), "draw\n");
    }

    #[test]
    fn refusals_say_why() {
        let game = new_race(&[], 3);
        let why = refused(play(&game, "1 3"));
        assert!(
            why.contains("move 2: \"3\" is not legal: you may add"),
            "{why}"
        );
        let why = refused(play(&game, "1#2"));
        assert!(
            why.contains("meant for move 2, but the game is at move 1"),
            "{why}"
        );
        assert!(refused(play(&game, "#1")).contains("no move before the #"));
        assert!(
            refused(race(
                Command::New(Setup {
                    options: vec![GameOption::flag("fast")],
                    players: 2,
                    seed: None,
                }),
                ""
            ))
            .contains("unknown option -fast")
        );
        let why = refused(race(Command::Moves, "{\"target\": "));
        assert!(why.contains("not a Race game that can be read"), "{why}");
        let why = refused(race(Command::Status, "  \n"));
        assert!(why.contains("standard input is empty"), "{why}");
    }

    #[test]
    fn perft_counts_sequences() {
        let game = new_race(&["-target=3"], 2);
        // Sequences adding up to at most 3: 1 | 2; then 1-1, 1-2, 2-1; then 1-1-1.
        assert_eq!(race(Command::Perft(0), &game).unwrap(), "1\n");
        assert_eq!(race(Command::Perft(1), &game).unwrap(), "2\n");
        assert_eq!(race(Command::Perft(2), &game).unwrap(), "3\n");
        assert_eq!(race(Command::Perft(3), &game).unwrap(), "1\n");
    }

    #[test]
    fn playouts_are_counted_and_repeatable() {
        let setup = Setup {
            options: vec![GameOption::with_value("target", "10")],
            players: 3,
            seed: Some(99),
        };
        let a = playouts(&Race, &setup, 200).unwrap();
        let b = playouts(&Race, &setup, 200).unwrap();
        assert_eq!(a, b, "the same seed plays the same games");
        assert_eq!(a.wins.iter().map(|w| w.1).sum::<u64>() + a.draws, 200);
        assert_eq!(a.unfinished, 0);
        let names: Vec<&str> = a.wins.iter().map(|w| w.0.as_str()).collect();
        assert_eq!(names, ["red", "blue", "green"]);
        // Every game takes between 5 and 10 steps of 1 or 2.
        assert!(a.played >= 5 * 200 && a.played <= 10 * 200, "{}", a.played);
        assert_eq!(a.played, a.entries);
        assert!(
            a.wins.iter().all(|w| w.1 > 0),
            "every seat wins some: {a:?}"
        );
        let mut out = Vec::new();
        write_tally(&mut out, &a, 0.5).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("games 200\nwinner red "), "{text}");
        assert!(text.contains("draw 0\n") && text.contains("games per second 400\n"));
        let drawn = Setup {
            options: vec![GameOption::flag("draw")],
            ..setup
        };
        assert_eq!(playouts(&Race, &drawn, 30).unwrap().draws, 30);
    }
}

//! The command line of `pbem engine`: the game, the command and its arguments, read into a [`Command`].

use super::Failure;
use crate::games::{GameOption, GameRules, Registry, Robot};

/// How a new game is set up (`new`, and each game of `playout`).
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Setup {
    /// The game's own options, `-size=8` and the like, in the order given.
    pub(super) options: Vec<GameOption>,
    /// The number of players.
    pub(super) players: usize,
    /// The seed given with `--seed`, if any.
    pub(super) seed: Option<u64>,
}

/// One engine command with its arguments.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Command {
    New(Setup),
    Moves,
    Play(Vec<String>),
    Status,
    Show,
    Svg,
    Perft(u32),
    Playout {
        setup: Setup,
        games: u64,
    },
    Best {
        player: Robot,
        seed: u64,
    },
    Match {
        a: Robot,
        b: Robot,
        setup: Setup,
        games: u64,
        /// `--moves`: print each game's moves too (to compare two builds move by move).
        moves: bool,
        /// `--cpu-clock`: caps and times per move on the thread's CPU time, not the wall clock.
        cpu_clock: bool,
    },
}

/// Reads the command line: the game, then the command and its arguments.
pub(super) fn parse(
    registry: &Registry,
    args: &[String],
) -> Result<(&'static dyn GameRules, Command), Failure> {
    let names = || registry.names().join(", ");
    let Some(name) = args.first() else {
        return Err(Failure::Usage(format!(
            "name a game ({}) and a command",
            names()
        )));
    };
    let Some(game) = registry.find(name) else {
        return Err(Failure::Usage(format!(
            "there is no game called {name:?}; the games are: {}",
            names()
        )));
    };
    let Some(word) = args.get(1) else {
        return Err(Failure::Usage(format!(
            "name a command after {}: new, moves, play, status, show, perft, playout, best or match",
            game.name()
        )));
    };
    let rest = &args[2..];
    let no_args = |cmd: Command| {
        if rest.is_empty() {
            Ok(cmd)
        } else {
            Err(Failure::Usage(format!(
                "{word} takes no arguments (it reads the game's JSON from standard input), but got: {}",
                rest.join(" ")
            )))
        }
    };
    let command = match word.to_ascii_lowercase().as_str() {
        "new" => {
            let (setup, games) = parse_setup(game, rest, false)?;
            debug_assert!(games.is_none());
            Command::New(setup)
        }
        "moves" => no_args(Command::Moves)?,
        "status" => no_args(Command::Status)?,
        "show" => no_args(Command::Show)?,
        "svg" => no_args(Command::Svg)?,
        "play" => {
            if rest.is_empty() {
                return Err(Failure::Usage(
                    "play needs at least one move, e.g. `play 3-7,4`".into(),
                ));
            }
            Command::Play(rest.to_vec())
        }
        "perft" => match rest {
            [depth] => Command::Perft(depth.parse().map_err(|_| {
                Failure::Usage(format!(
                    "perft takes a depth, a whole number such as 2, not {depth:?}"
                ))
            })?),
            _ => {
                return Err(Failure::Usage(
                    "perft takes exactly one argument, the depth, e.g. `perft 2`".into(),
                ));
            }
        },
        "playout" => {
            let (setup, games) = parse_setup(game, rest, true)?;
            let Some(games) = games else {
                return Err(Failure::Usage(
                    "playout needs the number of games, e.g. `--games 1000`".into(),
                ));
            };
            Command::Playout { setup, games }
        }
        "best" => parse_best(rest)?,
        "match" => {
            // Two words before the first flag: `match robot1 --games 3` names one player, not two.
            let named = rest.iter().take_while(|w| !w.starts_with('-')).count();
            let ([a, b, flags @ ..], 2..) = (rest, named) else {
                return Err(Failure::Usage(
                    "match needs two players and a number of games, e.g. `match robot1 random --games 200`"
                        .into(),
                ));
            };
            let (a, b) = (parse_player(a)?, parse_player(b)?);
            // `--moves` takes no value, unlike the setup's flags.
            let moves = flags.iter().any(|w| w == "--moves");
            let cpu_clock = flags.iter().any(|w| w == "--cpu-clock");
            let flags: Vec<String> = flags
                .iter()
                .filter(|w| *w != "--moves" && *w != "--cpu-clock")
                .cloned()
                .collect();
            let (setup, games) = parse_setup(game, &flags, true)?;
            let Some(games) = games else {
                return Err(Failure::Usage(
                    "match needs the number of games, e.g. `--games 200`".into(),
                ));
            };
            Command::Match {
                a,
                b,
                setup,
                games,
                moves,
                cpu_clock,
            }
        }
        other => {
            return Err(Failure::Usage(format!(
                "unknown command {other:?}: the commands are new, moves, play, status, show, perft, playout, \
                 best, match"
            )));
        }
    };
    Ok((game, command))
}

/// Reads the game options and the engine's `--players`, `--seed` and (for `playout`) `--games` flags.
fn parse_setup(
    game: &dyn GameRules,
    words: &[String],
    playout: bool,
) -> Result<(Setup, Option<u64>), Failure> {
    let mut setup = Setup {
        options: Vec::new(),
        players: *game.players().start(),
        seed: None,
    };
    let mut games = None;
    let mut i = 0;
    while i < words.len() {
        let word = &words[i];
        i += 1;
        if let Some(flag) = word.strip_prefix("--") {
            let (name, inline) = match flag.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (flag, None),
            };
            let known = matches!(name, "players" | "seed") || (playout && name == "games");
            if !known {
                let flags = if playout {
                    "--players, --seed and --games"
                } else {
                    "--players and --seed"
                };
                return Err(Failure::Usage(format!(
                    "unknown flag {word:?}: the flags here are {flags}"
                )));
            }
            let value = match inline {
                Some(v) => v,
                None => {
                    let Some(v) = words.get(i) else {
                        return Err(Failure::Usage(format!(
                            "--{name} needs a value, e.g. --{name} 3"
                        )));
                    };
                    i += 1;
                    v.clone()
                }
            };
            let number = |what: &str| {
                value
                    .parse::<u64>()
                    .map_err(|_| Failure::Usage(format!("--{name} takes {what}, not {value:?}")))
            };
            match name {
                "players" => {
                    let n = number("a number of players")?;
                    let range = game.players();
                    if !range.contains(&(n as usize)) {
                        let by = if range.start() == range.end() {
                            format!("{}", range.start())
                        } else {
                            format!("{} to {}", range.start(), range.end())
                        };
                        return Err(Failure::Usage(format!(
                            "{} is played by {by} players, not {n}",
                            game.title(),
                        )));
                    }
                    setup.players = n as usize;
                }
                "seed" => setup.seed = Some(number("a whole number from 0 to 2^64 - 1")?),
                _ => games = Some(number("a number of games")?),
            }
        } else if let Some(option) = GameOption::parse(word) {
            setup.options.push(option);
        } else {
            return Err(Failure::Usage(format!(
                "{word:?} is neither a game option (-name or -name=value) nor a flag (--players, --seed)"
            )));
        }
    }
    Ok((setup, games))
}

/// Reads a player's name: `random`, `greedy`, `robot1` to `robot3`, `robotN@MS`, `playouts=N`.
fn parse_player(word: &str) -> Result<Robot, Failure> {
    let lower = word.to_ascii_lowercase();
    let bad = || {
        Failure::Usage(format!(
            "{word:?} is not a player: write random, greedy, robot1, robot2, robot3, robotN@MS \
             (robot N capped at MS milliseconds a move, e.g. robot3@2000) or playouts=N \
             (N a whole number from 1, e.g. playouts=5000)"
        ))
    };
    match lower.as_str() {
        "random" => Ok(Robot::Random),
        "greedy" => Ok(Robot::Greedy),
        _ => {
            if let Some(n) = lower.strip_prefix("robot") {
                let (level, cap) = match n.split_once('@') {
                    Some((level, ms)) => match ms.parse::<u64>() {
                        Ok(ms @ 1..) => (level, Some(ms)),
                        _ => return Err(bad()),
                    },
                    None => (n, None),
                };
                return match (level.parse::<u8>(), cap) {
                    (Ok(k @ 1..=3), None) => Ok(Robot::Level(k)),
                    (Ok(level @ 1..=3), Some(millis)) => Ok(Robot::Within { level, millis }),
                    _ => Err(bad()),
                };
            }
            match lower.strip_prefix("playouts=").map(str::parse::<u32>) {
                Some(Ok(n)) if n >= 1 => Ok(Robot::Playouts(n)),
                _ => Err(bad()),
            }
        }
    }
}

/// A player's name as `match` prints it.
pub(super) fn player_name(p: Robot) -> String {
    match p {
        Robot::Random => "random".into(),
        Robot::Greedy => "greedy".into(),
        Robot::Level(k) => format!("robot{k}"),
        Robot::Playouts(n) => format!("playouts={n}"),
        Robot::Within { level, millis } => format!("robot{level}@{millis}"),
    }
}

/// Reads the flags of `best`: `--playouts N` or `--player P`, and `--seed S`.
fn parse_best(words: &[String]) -> Result<Command, Failure> {
    let mut player = None;
    let mut seed = 0;
    let mut i = 0;
    while i < words.len() {
        let word = &words[i];
        i += 1;
        let Some(flag) = word.strip_prefix("--") else {
            return Err(Failure::Usage(format!(
                "best reads the game's JSON from standard input and takes only the flags --playouts N, \
                 --player P and --seed S, not {word:?}"
            )));
        };
        let (name, value) = match flag.split_once('=') {
            Some((n, v)) => (n, v.to_string()),
            None => {
                let Some(v) = words.get(i) else {
                    return Err(Failure::Usage(format!(
                        "--{flag} needs a value, e.g. --{flag} 5000"
                    )));
                };
                i += 1;
                (flag, v.clone())
            }
        };
        let chosen = match name {
            "playouts" => Some(match value.parse::<u32>() {
                Ok(n) if n >= 1 => Robot::Playouts(n),
                _ => {
                    return Err(Failure::Usage(format!(
                        "--playouts takes a whole number from 1, e.g. --playouts 5000, not {value:?}"
                    )));
                }
            }),
            "player" => Some(parse_player(&value)?),
            "seed" => {
                seed = value.parse::<u64>().map_err(|_| {
                    Failure::Usage(format!(
                        "--seed takes a whole number from 0 to 2^64 - 1, not {value:?}"
                    ))
                })?;
                None
            }
            _ => {
                return Err(Failure::Usage(format!(
                    "unknown flag {word:?}: best takes --playouts N, --player P and --seed S"
                )));
            }
        };
        if let Some(p) = chosen {
            if player.is_some() {
                return Err(Failure::Usage(
                    "give --playouts or --player once, not both".into(),
                ));
            }
            player = Some(p);
        }
    }
    Ok(Command::Best {
        player: player.unwrap_or(Robot::Level(2)),
        seed,
    })
}

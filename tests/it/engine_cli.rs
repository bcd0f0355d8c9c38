//! End-to-end tests of `pbem engine limit ...`: the real binary, its standard input, output and exit status.

use crate::common::{Command, pbem_bin};

/// What one run of `pbem engine ...` gave.
struct Run {
    code: i32,
    out: String,
    err: String,
}

impl Run {
    /// The output of a run that must have succeeded.
    fn ok(self) -> String {
        assert_eq!(self.code, 0, "exit status; stderr: {}", self.err);
        self.out
    }
}

/// Runs `pbem engine` with `args` (split on spaces) and `stdin`.
fn engine(args: &str, stdin: &str) -> Run {
    let output = Command::new(pbem_bin())
        .arg("engine")
        .args(args.split_whitespace())
        .write_stdin(stdin)
        .output()
        .expect("pbem runs");
    Run {
        code: output.status.code().expect("pbem exits by itself"),
        out: String::from_utf8(output.stdout).expect("UTF-8 output"),
        err: String::from_utf8(output.stderr).expect("UTF-8 errors"),
    }
}

fn new_game(options: &str) -> String {
    let json = engine(&format!("limit new {options}"), "").ok();
    serde_json::from_str::<serde_json::Value>(&json).expect("new prints JSON");
    json
}

fn moves(game: &str) -> Vec<String> {
    engine("limit moves", game)
        .ok()
        .lines()
        .map(String::from)
        .collect()
}

fn status(game: &str) -> String {
    engine("limit status", game).ok()
}

fn play(game: &str, mv: &str) -> Run {
    engine(&format!("limit play {mv}"), game)
}

#[test]
fn new_moves_play_status_show_round_trip() {
    let game = new_game("--seed 7");
    assert_eq!(new_game("--seed 7"), game, "the seed fixes the game");
    assert_eq!(status(&game), "to-move red\n");
    let listed = moves(&game);
    assert!(!listed.is_empty(), "Red has moves at the start");
    let mut unique = listed.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), listed.len(), "no move listed twice");
    assert!(listed.iter().all(|m| !m.trim().is_empty() && m.trim() == m));

    let board = engine("limit show", &game).ok();
    assert!(board.contains("Red") && board.contains("Blue"), "{board}");
    for line in board.lines() {
        assert!(line.len() <= 72, "{} columns: {line:?}", line.len());
        assert_eq!(line, line.trim_end(), "trailing space: {line:?}");
    }

    let after = play(&game, &listed[0]).ok();
    serde_json::from_str::<serde_json::Value>(&after).expect("play prints JSON");
    assert_ne!(after, game);
    assert_eq!(status(&after), "to-move blue\n");
    assert_ne!(moves(&after), listed, "Blue's moves are not Red's");
    // Playing two moves in one call is playing them one after the other.
    let blue = moves(&after)[0].clone();
    let two = play(&game, &format!("{} {blue}", listed[0])).ok();
    assert_eq!(two, play(&after, &blue).ok());
    // Case and spaces do not matter in a move.
    let loud = listed[0].to_uppercase();
    assert_eq!(play(&game, &loud).ok(), after);
}

#[test]
fn every_listed_move_plays_and_a_made_up_one_is_refused_with_a_reason() {
    let game = new_game("--seed 11 -size=3");
    for mv in moves(&game) {
        play(&game, &mv).ok();
    }
    for bad in ["99-98,97", "hello", "3-3,3", "x999"] {
        let run = play(&game, bad);
        assert_eq!(run.code, 1, "{bad}: {}", run.err);
        assert!(run.out.is_empty(), "nothing printed for {bad}");
        assert!(
            run.err.contains(bad) && run.err.len() > bad.len() + 20,
            "the reason for {bad}: {}",
            run.err
        );
    }
}

#[test]
fn a_move_guard_must_name_the_move_now_awaited() {
    let game = new_game("--seed 3 -size=4");
    let first = moves(&game)[0].clone();
    // Exactly one move number is the one awaited.
    let mut accepted = Vec::new();
    for n in 1..=40 {
        let run = play(&game, &format!("{first}#{n}"));
        if run.code == 0 {
            accepted.push(n);
        } else {
            assert_eq!(run.code, 1);
            assert!(
                run.err.contains(&format!("meant for move {n}")),
                "{}",
                run.err
            );
        }
    }
    assert_eq!(accepted.len(), 1, "{accepted:?}");
    let n = accepted[0];
    let after = play(&game, &format!("{first}#{n}")).ok();
    let next = moves(&after)[0].clone();
    let stale = play(&after, &format!("{next}#{n}"));
    assert_eq!(stale.code, 1);
    assert!(
        stale.err.contains(&format!("meant for move {n}")),
        "{}",
        stale.err
    );
}

#[test]
fn perft_counts_what_moves_lists() {
    let game = new_game("--seed 5 -size=2");
    let listed = moves(&game);
    let perft1: usize = engine("limit perft 1", &game).ok().trim().parse().unwrap();
    assert_eq!(perft1, listed.len());
    assert_eq!(engine("limit perft 0", &game).ok(), "1\n");
    let by_hand: usize = listed
        .iter()
        .map(|m| moves(&play(&game, m).ok()).len())
        .sum();
    let perft2: usize = engine("limit perft 2", &game).ok().trim().parse().unwrap();
    assert_eq!(perft2, by_hand);
}

#[test]
fn a_game_played_to_the_end_lists_no_moves() {
    let mut game = new_game("--seed 21 -size=3");
    for turn in 0.. {
        assert!(turn < 200, "a size-3 game ends");
        let listed = moves(&game);
        if listed.is_empty() {
            break;
        }
        assert!(status(&game).starts_with("to-move "));
        // Not always the first move, to wander a little.
        game = play(&game, &listed[turn % listed.len()]).ok();
    }
    let end = status(&game);
    assert!(
        end == "winner red\n" || end == "winner blue\n" || end == "draw\n",
        "{end:?}"
    );
    assert_eq!(engine("limit moves", &game).ok(), "");
    assert_eq!(engine("limit perft 1", &game).ok(), "0\n");
    let late = play(&game, "1-2,3");
    assert_eq!(late.code, 1);
    assert!(late.err.contains("over"), "{}", late.err);
    engine("limit show", &game).ok();
}

#[test]
fn playout_counts_the_results() {
    for (args, names) in [
        ("--games 20 --seed 3", vec!["red", "blue"]),
        (
            "--games 10 --players 3 -size=4",
            vec!["red", "blue", "green"],
        ),
        ("--games 10 -classic --seed 1", vec!["white", "red"]),
    ] {
        let out = engine(&format!("limit playout {args}"), "").ok();
        let value = |key: &str| -> u64 { stat(&out, key) };
        let games = value("games ");
        assert_eq!(games, if args.contains("20") { 20 } else { 10 });
        let wins: u64 = names.iter().map(|n| value(&format!("winner {n} "))).sum();
        assert_eq!(wins + value("draw "), games, "{out}");
        assert_eq!(value("unfinished "), 0, "{out}");
        assert!(out.contains("mean length "), "{out}");
        assert!(out.contains("games per second "), "{out}");
    }
}

#[test]
fn status_names_the_first_player_of_each_rule_set() {
    assert_eq!(status(&new_game("--seed 1 --players 3")), "to-move red\n");
    assert_eq!(status(&new_game("--seed 1 -classic")), "to-move white\n");
    assert_eq!(status(&new_game("--seed 1 -manual")), "to-move red\n");
}

#[test]
fn hand_placement_shows_where_a_tile_may_go() {
    let board = engine("limit show", &new_game("--seed 1 -manual")).ok();
    assert!(board.contains('+'), "{board}");
}

#[test]
fn a_size_16_three_player_board_is_shown() {
    let game = new_game("--seed 2 -size=16 --players 3");
    let board = engine("limit show", &game).ok();
    assert!(board.contains("Green"), "{board}");
}

#[test]
fn bad_options_are_refused() {
    let random = engine("limit new -random", "");
    assert_eq!(random.code, 1);
    assert!(random.out.is_empty());
    assert!(random.err.contains("random"), "{}", random.err);
    for bad in [
        "-size=17",
        "-size=1",
        "-colour=red",
        "-classic -move_or_remove",
    ] {
        let run = engine(&format!("limit new {bad}"), "");
        assert_eq!(run.code, 1, "{bad}");
        assert!(!run.err.is_empty(), "{bad}");
    }
}

#[test]
fn bad_input_and_bad_command_lines() {
    let junk = engine("limit moves", "this is not JSON");
    assert_eq!(junk.code, 1);
    assert!(junk.err.contains("standard input"), "{}", junk.err);
    let empty = engine("limit status", "");
    assert_eq!(empty.code, 1);
    assert!(empty.err.contains("empty"), "{}", empty.err);
    for usage in [
        "limit",
        "limit perft",
        "limit play",
        "chess new",
        "limit new --players 4",
    ] {
        let run = engine(usage, "");
        assert_eq!(run.code, 2, "{usage}");
        assert!(
            run.err.contains("usage: pbem engine"),
            "{usage}: {}",
            run.err
        );
    }
}

#[test]
fn best_prints_a_legal_move_fixed_by_its_seed() {
    for setup in [
        "--seed 4",
        "--seed 4 --players 3",
        "--seed 4 -classic -size=3",
    ] {
        let game = new_game(setup);
        let listed = moves(&game);
        for player in ["--playouts 40", "--player greedy", "--player random"] {
            let mv = engine(&format!("limit best {player} --seed 9"), &game).ok();
            assert!(
                listed.iter().any(|m| format!("{m}\n") == mv),
                "{setup} {player}: {mv:?} not in {listed:?}"
            );
            assert_eq!(
                engine(&format!("limit best {player} --seed 9"), &game).ok(),
                mv,
                "the same seed gives the same move"
            );
        }
        // The move it prints plays.
        let mv = engine("limit best --playouts=40", &game).ok();
        play(&game, mv.trim()).ok();
    }
}

#[test]
fn best_refuses_a_finished_game_and_bad_flags() {
    let mut game = new_game("--seed 21 -size=2");
    while !moves(&game).is_empty() {
        let mv = engine("limit best --player greedy", &game).ok();
        game = play(&game, mv.trim()).ok();
    }
    let over = engine("limit best --playouts 10", &game);
    assert_eq!(over.code, 1);
    assert!(over.err.contains("the game is over"), "{}", over.err);
    for (bad, why) in [
        ("limit best --playouts 0", "whole number from 1"),
        ("limit best --playouts lots", "whole number from 1"),
        ("limit best --player robot7", "is not a player"),
        ("limit best --playouts 5 --player greedy", "not both"),
        ("limit best 3-7,4", "only the flags"),
        ("limit best --depth 3", "unknown flag"),
    ] {
        let run = engine(bad, &game);
        assert_eq!(run.code, 2, "{bad}");
        assert!(run.err.contains(why), "{bad}: {}", run.err);
    }
}

#[test]
fn match_counts_every_game_and_swaps_colours() {
    let out = engine(
        "limit match playouts=30 random --games 6 --seed 10 -size=4",
        "",
    )
    .ok();
    let games: Vec<&str> = out.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 6, "{out}");
    // Game seeds 10..15; A takes seat seed mod 2: red on even seeds, blue on odd ones.
    for (i, line) in games.iter().enumerate() {
        let seat = if i % 2 == 0 { "red" } else { "blue" };
        assert!(
            line.starts_with(&format!("game {} a {seat} ", 10 + i)),
            "{line}"
        );
    }
    let value = |key: &str| -> f64 { stat(&out, key) };
    let (w, l, d) = (value("wins "), value("losses "), value("draws "));
    assert_eq!(w + l + d, 6.0, "{out}");
    let outcomes = |word: &str| {
        games
            .iter()
            .filter(|g| g.contains(&format!(" {word} moves ")))
            .count() as f64
    };
    assert_eq!(
        (outcomes("win"), outcomes("loss"), outcomes("draw")),
        (w, l, d)
    );
    let score = value("score ");
    assert!((score - (w + d / 2.0) / 6.0).abs() < 1e-3, "{out}");
    let interval: Vec<f64> = out
        .lines()
        .find(|l| l.starts_with("interval "))
        .unwrap()
        .split_whitespace()
        .skip(1)
        .take(2)
        .map(|x| x.parse().unwrap())
        .collect();
    assert!(interval[0] <= score && score <= interval[1], "{out}");
    assert!(out.contains("a playouts=30\nb random\n"), "{out}");
    assert!(out.contains("a ms per move median "), "{out}");
    // The same seeds play the same games, whichever run plays them.
    let again = engine(
        "limit match playouts=30 random --games 2 --seed 14 -size=4",
        "",
    )
    .ok();
    let strip = |l: &str| l.split(" a-ms ").next().unwrap().to_string();
    let tail: Vec<String> = again
        .lines()
        .filter(|l| l.starts_with("game "))
        .map(strip)
        .collect();
    assert_eq!(
        tail,
        games[4..].iter().map(|l| strip(l)).collect::<Vec<_>>()
    );
}

#[test]
fn match_with_three_players_and_bad_command_lines() {
    let out = engine(
        "limit match greedy random --games 3 --players 3 -size=3 --seed 0",
        "",
    )
    .ok();
    for (i, seat) in ["red", "blue", "green"].iter().enumerate() {
        assert!(out.contains(&format!("game {i} a {seat} ")), "{out}");
    }
    assert!(out.contains("games 3\n"), "{out}");
    for (bad, why) in [
        ("limit match robot1 --games 3", "two players"),
        ("limit match robot1 chess --games 3", "is not a player"),
        ("limit match robot1 playouts=0 --games 3", "is not a player"),
        ("limit match robot1 random", "number of games"),
        (
            "limit match robot1 random --games 2 --colour red",
            "unknown flag",
        ),
    ] {
        let run = engine(bad, "");
        assert_eq!(run.code, 2, "{bad}");
        assert!(run.err.contains(why), "{bad}: {}", run.err);
    }
}

/// The number after `key` on the line of `out` that starts with it (`games 20`, `wins 3.5`).
fn stat<T: std::str::FromStr>(out: &str, key: &str) -> T
where
    T::Err: std::fmt::Debug,
{
    let line = out
        .lines()
        .find(|l| l.starts_with(key))
        .unwrap_or_else(|| panic!("no {key:?} in {out}"));
    line[key.len()..]
        .split_whitespace()
        .next()
        .unwrap_or_else(|| panic!("nothing after {key:?} in {out}"))
        .parse()
        .unwrap()
}

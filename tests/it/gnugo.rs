//! Our Go SGF read by another program: GNU Go (`apt-get install -y gnugo`) loads the file over GTP
//! (`loadsgf`) and must arrive at the same final position, the same komi and the same area score.
//! Skipped, with a message, where GNU Go is missing.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use pbem::games::go::GoGame;
use pbem::games::go::board::{BLACK, WHITE};
use pbem::games::go::options::GoOptions;
use pbem::games::{GameOption, GameState, Status};
use pbem::records::{RecordInfo, sgf};

/// GNU Go's program: on the path, or where Debian puts it (/usr/games is not on every path).
fn gnugo() -> Option<PathBuf> {
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .chain([PathBuf::from("/usr/games")])
        .map(|d| d.join("gnugo"))
        .find(|p| p.is_file())
}

/// A GNU Go child spoken to over GTP.
struct Gtp {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Gtp {
    fn start(program: &Path) -> Gtp {
        let mut child = Command::new(program)
            .args(["--mode", "gtp", "--chinese-rules"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("GNU Go starts");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Gtp {
            child,
            input,
            output,
        }
    }

    /// The answer to one command (after `= `); panics on a `?` answer.
    fn ask(&mut self, command: &str) -> String {
        writeln!(self.input, "{command}").unwrap();
        self.input.flush().unwrap();
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            assert!(
                self.output.read_line(&mut line).unwrap() > 0,
                "GNU Go ended on '{command}'"
            );
            if line.trim().is_empty() && !answer.is_empty() {
                break;
            }
            answer.push_str(&line);
        }
        let answer = answer.trim().to_string();
        match answer.strip_prefix('=') {
            Some(rest) => rest.trim().to_string(),
            None => panic!("GNU Go refused '{command}': {answer}"),
        }
    }
}

impl Drop for Gtp {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.child.wait();
    }
}

/// A game played to two passes by Go's playout policy (`crates/games/src/games/go/playout.rs`: random legal
/// points that fill no own eye, answering ataris), from a fixed seed.
fn played_out(size: u8, komi: &str, handicap: u8, seed: u64) -> GoGame {
    let mut opts = vec![
        GameOption::with_value("size", &size.to_string()),
        GameOption::with_value("komi", komi),
    ];
    if handicap > 0 {
        opts.push(GameOption::with_value("handicap", &handicap.to_string()));
    }
    let mut g = pbem::games::go::game(GoOptions::read(&opts).unwrap(), false);
    let mut x = seed;
    let mut pick = |n: usize| {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((x >> 33) as usize) % n.max(1)
    };
    // The policy plays on the position alone (a search's copy): its moves then go on the record.
    let mut copy = g.search_copy();
    let mut played = Vec::new();
    assert!(
        copy.search_playout(&mut pick, Some(&mut played)),
        "Go has a playout policy"
    );
    for (_, action) in played {
        g.apply_action(action);
    }
    assert!(matches!(g.status(), Status::Over(_)));
    assert_eq!(g.status(), copy.status());
    g
}

/// Our stones of `colour` as GTP names (upper case, as GNU Go writes them), sorted.
fn our_stones(g: &GoGame, colour: u8) -> Vec<String> {
    let b = g.board();
    let mut v: Vec<String> = b
        .points()
        .filter(|&p| b.at(p) == colour)
        .map(|p| b.name(p).to_uppercase())
        .collect();
    v.sort();
    v
}

fn sorted_words(text: &str) -> Vec<String> {
    let mut v: Vec<String> = text.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

/// Our score as GNU Go writes it: `B+3.5`, `W+12.0`, `0`.
fn our_result(g: &GoGame) -> String {
    let (b, w) = g.scores_halves();
    let margin = |h: i32| format!("{}.{}", h / 2, if h % 2 == 1 { 5 } else { 0 });
    match b.cmp(&w) {
        std::cmp::Ordering::Greater => format!("B+{}", margin(b - w)),
        std::cmp::Ordering::Less => format!("W+{}", margin(w - b)),
        std::cmp::Ordering::Equal => "0".into(),
    }
}

#[test]
fn gnu_go_reads_our_sgf_to_the_same_position_komi_and_area_score() {
    let Some(program) = gnugo() else {
        eprintln!("skipped: gnugo is missing (apt-get install -y gnugo)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut gtp = Gtp::start(&program);
    let players = ["alice".to_string(), "bob".to_string()];
    // (size, komi, handicap, seed): both sizes, whole and half komi, handicaps, several seeds.
    let cases: [(u8, &str, u8, u64); 8] = [
        (9, "7", 0, 1),
        (9, "7.5", 0, 2),
        (9, "0.5", 2, 3),
        (9, "7", 0, 4),
        (13, "6.5", 0, 5),
        (13, "0.5", 4, 6),
        (13, "7", 0, 7),
        (9, "0", 5, 8),
    ];
    let mut scored = 0;
    for (size, komi, handicap, seed) in cases {
        let g = played_out(size, komi, handicap, seed);
        let info = RecordInfo {
            game: "go",
            board: 101,
            players: &players,
            started: 0,
            last_move: 0,
            comments: &[],
        };
        let text = sgf(&g, &info).expect("Go has an SGF form");
        let file = dir.path().join(format!("game-{seed}.sgf"));
        std::fs::write(&file, &text).unwrap();
        let case = format!("{size}x{size} komi {komi} handicap {handicap} seed {seed}");
        gtp.ask(&format!("loadsgf {}", file.display()));
        assert_eq!(gtp.ask("query_boardsize"), size.to_string(), "{case}");
        let gnu_komi: f64 = gtp.ask("get_komi").parse().unwrap();
        assert_eq!(gnu_komi, komi.parse::<f64>().unwrap(), "{case}");
        // The same stones on the same points: a flipped row or column, a lost handicap stone or a
        // pass read as a move would all show here.
        for (colour, name) in [(BLACK, "black"), (WHITE, "white")] {
            assert_eq!(
                sorted_words(&gtp.ask(&format!("list_stones {name}"))),
                our_stones(&g, colour),
                "{case}: {name}'s stones\n{text}"
            );
        }
        // The area score: GNU Go's final score takes off the stones it judges dead; where it
        // judges none dead it counts as Tromp–Taylor does, and must agree with ours exactly.
        if gtp.ask("final_status_list dead").is_empty() {
            assert_eq!(gtp.ask("final_score"), our_result(&g), "{case}");
            scored += 1;
        }
    }
    eprintln!(
        "GNU Go's area score compared in {scored} of {} games",
        cases.len()
    );
    assert!(
        scored >= cases.len() / 2,
        "GNU Go judged stones dead in {} of {} games: the score was compared too rarely",
        cases.len() - scored,
        cases.len()
    );
}

//! The rules of `y-rules.md`, case by case (section 9's table), its perft table, and the notation.

use super::*;
use crate::games::Status;
use crate::games::hexgrid::Grid;
use crate::games::matchplay::Rules;

fn game(options: &[&str]) -> Game {
    let opts: Vec<GameOption> = options
        .iter()
        .map(|o| GameOption::parse(o).unwrap())
        .collect();
    Game::from_position(Position::new(Config::from_options(&opts).unwrap()))
}

/// Reads a move as a player writes it, and refuses a cell this board does not have.
fn parse(g: &Game, text: &str) -> Result<Move, RuleError> {
    let mv = Position::read(text)?;
    if let Move::Stone(c, r) = mv
        && g.grid().cell(c, r).is_none()
    {
        g.position().check(mv)?;
    }
    Ok(mv)
}

fn played(options: &[&str], moves: &[&str]) -> Game {
    let mut g = game(options);
    for m in moves {
        g.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    g
}

fn refused(g: &Game, mv: &str) -> String {
    let mut copy = g.clone();
    let why = copy.play_text(mv).expect_err(mv).0;
    assert_eq!(
        copy.to_json(),
        g.to_json(),
        "a refused move changes nothing"
    );
    assert_eq!(
        copy.position(),
        g.position(),
        "a refused move changes nothing"
    );
    why
}

fn perfts(options: &[&str], expected: &[u64]) {
    let g = game(options);
    for (k, want) in expected.iter().enumerate() {
        let depth = k as u32 + 1;
        assert_eq!(g.perft(depth), *want, "{options:?} perft {depth}");
        // The trait's generic walk (by text moves) agrees where it is cheap.
        if *want < 20_000 {
            assert_eq!(
                GameState::perft(&g.clone(), depth),
                *want,
                "{options:?} perft {depth}"
            );
        }
    }
}

#[test]
fn perft_size_4() {
    perfts(&["-size=4"], &[10, 100, 810, 5_760]);
}

#[test]
fn perft_size_15() {
    perfts(&[], &[120, 14_400]);
}

#[test]
fn perft_size_2() {
    perfts(&["-size=2"], &[3, 9, 12, 6, 0]);
}

#[test]
fn perft_size_3() {
    perfts(&["-size=3"], &[6, 36, 150, 480, 1_080, 1_080, 360, 0]);
}

#[test]
fn perft_size_3_no_swap() {
    perfts(&["-size=3", "-no_swap"], &[6, 30, 120, 360, 720, 360, 0]);
}

#[test]
fn board_names_and_neighbours() {
    let grid: &Grid = game::triangle(15);
    assert_eq!(grid.len(), 120);
    assert_eq!(game::triangle(4).len(), 10);
    let b2 = grid.parse("b2").unwrap();
    let mut names: Vec<String> = grid
        .neighbours(b2)
        .iter()
        .map(|&n| grid.name(n as usize))
        .collect();
    names.sort();
    assert_eq!(names, ["a1", "a2", "b3", "c3"]);
    // Corners lie on two sides each.
    let t = game::triangle(4);
    let sides = |name: &str| t.sides(t.parse(name).unwrap());
    assert_eq!(sides("a1"), game::LEFT | game::RIGHT);
    assert_eq!(sides("a4"), game::LEFT | game::BOTTOM);
    assert_eq!(sides("d4"), game::RIGHT | game::BOTTOM);
    assert_eq!(sides("b3"), 0);
    assert_eq!(sides("c3"), game::RIGHT);
}

#[test]
fn notation_reads_loosely_and_writes_canonically() {
    let g = game(&["-size=10"]);
    for (text, canonical) in [
        ("c5", "c5"),
        (" C 5 ", "c5"),
        ("j1 0", "j10"),
        ("s W A p", "swap"),
    ] {
        let mv = parse(&g, text).unwrap();
        assert_eq!(Position::write(mv), canonical);
        assert_eq!(
            parse(&g, canonical).unwrap(),
            mv,
            "round trip of {canonical}"
        );
    }
    // Every cell name round-trips.
    for cell in 0..g.grid().len() {
        let (c, r) = g.grid().coords(cell);
        let text = Position::write(Move::Stone(c, r));
        assert_eq!(parse(&g, &text).unwrap(), Move::Stone(c, r));
    }
    assert!(parse(&g, "c05").unwrap_err().0.contains("leading zero"));
    assert!(parse(&g, "b1").unwrap_err().0.contains("no cell b1"));
    assert!(parse(&g, "a11").unwrap_err().0.contains("no cell a11"));
    assert!(parse(&g, "aa1").unwrap_err().0.contains("not a cell"));
    assert!(parse(&g, "pass").unwrap_err().0.contains("no pass"));
    assert!(parse(&g, "resign").unwrap_err().0.contains("not a move"));
    assert!(Y.read_move("s19").is_ok() && Y.read_move("t1").is_err());
}

#[test]
fn options_and_their_refusals() {
    assert_eq!(
        game(&[]).config(),
        Config {
            size: 15,
            swap: true
        }
    );
    assert_eq!(
        game(&["-size=10", "-no_swap"]).config(),
        Config {
            size: 10,
            swap: false
        }
    );
    let refuse = |o: &[&str]| {
        let opts: Vec<GameOption> = o.iter().map(|w| GameOption::parse(w).unwrap()).collect();
        let why = Config::from_options(&opts).unwrap_err().0;
        assert!(why.contains("the options of y are -size=N"), "{why}");
        why
    };
    assert!(refuse(&["-size=1"]).contains("not a side from 2 to 19"));
    assert!(refuse(&["-size=20"]).contains("not a side"));
    assert!(refuse(&["-size=x"]).contains("not a side"));
    assert!(refuse(&["-size"]).contains("needs a value"));
    assert!(refuse(&["-swap", "-no_swap"]).contains("contradict"));
    assert!(refuse(&["-size=5", "-size=6"]).contains("twice"));
    assert!(refuse(&["-komi=1"]).contains("no option -komi=1"));
    assert!(Y.new_game(&[], 3, 0).is_err());
    assert_eq!(
        game(&["-size=7", "-no_swap"]).config().summary(),
        "-size=7 -no_swap"
    );
}

#[test]
fn the_swap_recolours_in_place_once_at_move_2() {
    let g = played(&["-size=5"], &["c4"]);
    assert!(GameState::legal_moves(&g).contains(&"swap".to_string()));
    let s = played(&["-size=5"], &["c4", "swap"]);
    let c4 = s.grid().parse("c4").unwrap();
    assert_eq!(s.stones()[c4], game::WHITE, "the stone stays, now white");
    assert_eq!(s.stones().iter().filter(|&&x| x != 0).count(), 1);
    assert_eq!(s.status(), Status::ToMove(0), "Black moves next");
    assert_eq!(s.move_number(), 3);
    // Never twice, never later, never first, never with -no_swap.
    assert!(refused(&s, "swap").contains("only the second move"));
    assert!(refused(&game(&["-size=5"]), "swap").contains("only the second move"));
    let later = played(&["-size=5"], &["c4", "a5", "b5"]);
    assert!(refused(&later, "swap").contains("only the second move"));
    let off = played(&["-size=5", "-no_swap"], &["c4"]);
    assert!(refused(&off, "swap").contains("-no_swap"));
    assert!(!GameState::legal_moves(&off).contains(&"swap".to_string()));
    // The swapped stone now counts for White's chains: White wins through it.
    let win = played(&["-size=2"], &["a1", "swap", "a2", "b2"]);
    assert_eq!(win.status(), Status::Over(Outcome::Winner(1)));
}

#[test]
fn a_chain_touching_three_sides_wins_corners_counting_twice() {
    // Size 3: a1 is on left and right; a1-a2-a3 touches left, right (a1) and bottom (a3).
    let g = played(&["-size=3", "-no_swap"], &["a1", "b2", "a2", "c3"]);
    assert_eq!(g.status(), Status::ToMove(0));
    let won = played(&["-size=3", "-no_swap"], &["a1", "b2", "a2", "c3", "a3"]);
    assert_eq!(won.status(), Status::Over(Outcome::Winner(0)));
    assert!(GameState::legal_moves(&won).is_empty());
    assert!(refused(&won, "b3").contains("over"));
    // Two sides are not enough: the bottom row alone touches left, bottom and right (its corners).
    let bottom = played(&["-size=3", "-no_swap"], &["a3", "a1", "b3"]);
    assert_eq!(bottom.status(), Status::ToMove(1));
    let row = played(&["-size=3", "-no_swap"], &["a3", "a1", "b3", "b2", "c3"]);
    assert_eq!(row.status(), Status::Over(Outcome::Winner(0)));
}

#[test]
fn taken_cells_pass_and_resign_are_refused() {
    let g = played(&["-size=4"], &["b3"]);
    assert!(refused(&g, "b3").contains("b3 is taken"));
    assert!(refused(&g, "pass").contains("no pass"));
    assert!(refused(&g, "resign").contains("not a move"));
}

#[test]
fn random_full_games_always_have_a_winner() {
    // No draw (section 6): every random game ends with a winner, before or when the board fills.
    let mut x = 7u64;
    let mut pick = move |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    for size in [2u8, 3, 5, 9, 15] {
        for _ in 0..50 {
            let mut g = Game::from_position(Position::new(Config { size, swap: true }));
            let played = g.random_playout(&mut pick);
            assert!(matches!(g.status(), Status::Over(Outcome::Winner(_))));
            assert!(played as usize <= g.grid().len() + 1);
            // The stored game replays to the same position.
            let back = Y.load(&g.to_json()).unwrap();
            assert_eq!(back.to_json(), g.to_json());
            assert_eq!(back.render(), g.render());
        }
    }
}

#[test]
fn actions_name_the_same_moves_as_the_text() {
    let mut g = played(&["-size=4"], &["c4"]);
    let mut acts = Vec::new();
    g.legal_actions(&mut acts);
    let mut texts: Vec<String> = acts.iter().map(|&a| g.action_text(a)).collect();
    texts.sort();
    assert_eq!(texts, GameState::legal_moves(&g));
    assert_eq!(g.action_space(), 11);
    g.apply_action(10);
    assert_eq!(g.records().last().unwrap().text, "swap");
}

#[test]
fn resign_forfeit_draw_and_earlier_positions() {
    let mut g = played(&["-size=4"], &["b3", "c4"]);
    GameState::resign(&mut g, 1).unwrap();
    assert_eq!(g.status(), Status::Over(Outcome::Winner(0)));
    assert_eq!(g.records().last().unwrap().text, "resign");
    assert!(GameState::resign(&mut g, 0).is_err());
    let back = Y.load(&g.to_json()).unwrap();
    assert_eq!(back.status(), g.status());
    let at = GameState::at_move(&g, 2).unwrap();
    assert_eq!(at.moves().len(), 1);
    let mut d = played(&["-size=4"], &["b3"]);
    GameState::agree_draw(&mut d).unwrap();
    assert_eq!(d.status(), Status::Over(Outcome::Draw(vec![0, 1])));
    let mut f = played(&["-size=4"], &["b3"]);
    GameState::forfeit(&mut f, 1).unwrap();
    assert_eq!(f.moves().last().unwrap().text, "forfeit");
}

#[test]
fn a_corrupt_document_is_refused() {
    // The documents before issue 36 carry a status line, which must agree with the moves.
    let text = include_str!("../../../tests/documents/8096aec/y-mid.json");
    assert!(text.contains("\"status\":\"to-move 1\""), "{text}");
    let bad = text.replace("to-move 1", "to-move 0");
    assert!(Y.load(&bad).err().unwrap().0.contains("corrupt"));
    let wrong_move = text.replace("b2", "b1");
    let e = Y.load(&wrong_move).err().unwrap().0;
    assert!(e.contains("no cell b1"), "{e}");
    let e = Y
        .load(&text.replace("\"version\":1", "\"version\":2"))
        .err()
        .unwrap()
        .0;
    assert!(e.contains("version 2"), "{e}");
    assert!(Y.load("{}").is_err());
}

/// The documents pbem 8096aec stored (scripts/match-fixtures.sh): each loads with its moves and
/// result, and writes itself in today's shape, which loads the same.
#[test]
fn documents_stored_by_8096aec_load() {
    for (doc, moves, status) in [
        (
            include_str!("../../../tests/documents/8096aec/y-mid.json"),
            &["c3", "swap", "b2"][..],
            Status::ToMove(1),
        ),
        (
            include_str!("../../../tests/documents/8096aec/y-resigned.json"),
            &["c3", "swap", "b2", "resign"],
            Status::Over(Outcome::Winner(0)),
        ),
        (
            include_str!("../../../tests/documents/8096aec/y-forfeit.json"),
            &["c3", "swap", "b2", "forfeit"],
            Status::Over(Outcome::Winner(0)),
        ),
        (
            include_str!("../../../tests/documents/8096aec/y-finished.json"),
            &["c4", "swap", "b4", "b3", "a3", "a2", "c5", "e5", "a4", "d4"],
            Status::Over(Outcome::Winner(1)),
        ),
    ] {
        let g = Y.load(doc).unwrap_or_else(|e| panic!("{doc}: {e}"));
        let texts: Vec<String> = g.moves().into_iter().map(|m| m.text).collect();
        assert_eq!(texts, moves, "{doc}");
        assert_eq!(g.status(), status, "{doc}");
        assert_eq!(g.options_summary(), "-size=5 -swap");
        let again = Y.load(&g.to_json()).unwrap();
        assert_eq!(again.moves(), g.moves());
        assert_eq!(again.status(), g.status());
    }
}

#[test]
fn the_ascii_board_fits_72_columns_at_every_size() {
    for size in 2..=19u8 {
        let g = game(&[&format!("-size={size}")]);
        let text = GameState::render(&g);
        let widest = text.lines().map(|l| l.chars().count()).max().unwrap();
        assert!(widest <= 72, "size {size}: {widest}\n{text}");
    }
    let g = played(&["-size=4"], &["b3", "swap", "a4"]);
    let text = GameState::render(&g);
    let board: Vec<&str> = text.lines().take(5).collect();
    assert_eq!(
        board,
        [
            "    1  .  1",
            "   2  . .  2",
            "  3  . W .  3",
            " 4 (B). . .  4",
            "   a b c d"
        ],
        "{text}"
    );
}

#[test]
fn the_picture_and_the_neutral_board() {
    let g = played(&["-size=4"], &["b3", "swap", "a4"]);
    let svg = GameState::svg(&g).unwrap();
    assert_eq!(svg.matches("class=\"cell\"").count(), 10);
    assert_eq!(svg.matches("class=\"stone black\"").count(), 1);
    assert_eq!(svg.matches("class=\"stone white\"").count(), 1);
    assert_eq!(svg.matches("class=\"last-move\"").count(), 1);
    let view = GameState::board_view(&g);
    assert_eq!(view.cells.len(), 10);
    assert_eq!(view.cells.iter().filter(|c| c.piece == Some(0)).count(), 1);
    assert_eq!(view.cells.iter().filter(|c| c.open).count(), 8);
    assert_eq!(view.to_move, Some(1));
    assert_eq!(view.last_move.unwrap().text, "a4");
}

/// The sides each chain of `colour` touches, found by a flood fill over (column, row) coordinates
/// with the page's neighbour list: an implementation independent of the engine's union-find.
fn flood_sides(n: u8, stones: &[(u8, u8, u8)], colour: u8) -> Vec<u8> {
    use std::collections::HashMap;
    let at: HashMap<(u8, u8), u8> = stones.iter().map(|&(c, r, s)| ((c, r), s)).collect();
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for &(c, r, s) in stones {
        if s != colour || !seen.insert((c, r)) {
            continue;
        }
        let mut stack = vec![(c, r)];
        let mut sides = 0;
        while let Some((c, r)) = stack.pop() {
            sides |= u8::from(c == 1) | u8::from(c == r) << 1 | u8::from(r == n) << 2;
            for (dc, dr) in [(-1i8, 0i8), (1, 0), (-1, -1), (0, -1), (0, 1), (1, 1)] {
                let (nc, nr) = (c as i8 + dc, r as i8 + dr);
                if nc < 1 || nr < 1 || nc > nr || nr > n as i8 {
                    continue;
                }
                let p = (nc as u8, nr as u8);
                if at.get(&p) == Some(&colour) && seen.insert(p) {
                    stack.push(p);
                }
            }
        }
        out.push(sides);
    }
    out
}

#[test]
fn every_ply_of_random_games_agrees_with_a_flood_fill() {
    let mut x = 99u64;
    let mut rnd = move |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    for size in [2u8, 3, 4, 7, 11] {
        for _ in 0..30 {
            let mut g = Game::from_position(Position::new(Config { size, swap: true }));
            while g.status() == Status::ToMove(g.to_move) {
                let legal = GameState::legal_moves(&g);
                let mover = g.to_move;
                g.play_text(&legal[rnd(legal.len())]).unwrap();
                let grid = g.grid();
                let stones: Vec<(u8, u8, u8)> = (0..grid.len())
                    .filter(|&i| g.stones()[i] != 0)
                    .map(|i| (grid.coords(i).0, grid.coords(i).1, g.stones()[i]))
                    .collect();
                let won = |colour| flood_sides(size, &stones, colour).contains(&7);
                let expected = match (won(game::BLACK), won(game::WHITE)) {
                    (false, false) => Status::ToMove(1 - mover),
                    (true, false) => Status::Over(Outcome::Winner(0)),
                    (false, true) => Status::Over(Outcome::Winner(1)),
                    (true, true) => panic!("both colours connected: {:?}", g.records()),
                };
                assert_eq!(g.status(), expected, "{:?}", g.records());
            }
        }
    }
}

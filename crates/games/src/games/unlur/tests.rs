//! The rules of `unlur-rules.md`, case by case (section 9's table), its perft table, and the notation.

use super::*;
use crate::games::Status;
use crate::games::hexgrid::Grid;
use crate::games::matchplay::Rules;

fn new(size: u8) -> Game {
    Game::from_position(Position::new(size))
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

fn played(size: u8, moves: &[&str]) -> Game {
    let mut g = new(size);
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

fn perfts(size: u8, expected: &[u64]) {
    let g = new(size);
    for (k, want) in expected.iter().enumerate() {
        let depth = k as u32 + 1;
        assert_eq!(g.perft(depth), *want, "size {size} perft {depth}");
        // The trait's generic walk (by text moves) agrees.
        assert_eq!(GameState::perft(&g.clone(), depth), *want);
    }
}

#[test]
fn perft_size_3() {
    perfts(3, &[8, 68, 720]);
}

#[test]
fn perft_size_4() {
    perfts(4, &[20, 398]);
}

#[test]
fn board_names_sides_and_corners() {
    let grid: &Grid = game::hexagon(8);
    assert_eq!(grid.len(), 169);
    assert_eq!(game::hexagon(3).len(), 19);
    let sides = |name: &str| grid.sides(grid.parse(name).unwrap());
    use game::{N, NE, NW, S, SE, SW};
    assert_eq!(sides("h1"), N | NW);
    assert_eq!(sides("o1"), N | NE);
    assert_eq!(sides("o8"), NE | SE);
    assert_eq!(sides("h15"), SE | S);
    assert_eq!(sides("a15"), S | SW);
    assert_eq!(sides("a8"), SW | NW);
    assert_eq!(sides("k1"), N);
    assert_eq!(sides("h8"), 0);
    let row = |r: u8| {
        (1..=15)
            .filter_map(|c| grid.cell(c, r))
            .map(|i| grid.name(i))
            .collect::<Vec<_>>()
    };
    assert_eq!(row(1).first().unwrap(), "h1");
    assert_eq!(row(1).len(), 8);
    assert_eq!(row(8).len(), 15);
    assert_eq!(row(15).last().unwrap(), "h15");
    assert!(grid.parse("a1").is_err() && grid.parse("o15").is_err());
    // Hex's neighbours: e5 touches d5, f5, e4, e6, f4, d6.
    let e5 = grid.parse("e5").unwrap();
    let mut names: Vec<String> = grid
        .neighbours(e5)
        .iter()
        .map(|&n| grid.name(n as usize))
        .collect();
    names.sort();
    assert_eq!(names, ["d5", "d6", "e4", "e6", "f4", "f5"]);
    // Interior cells of side 3: the seven the contract may use.
    let g = new(3);
    let mut interior: Vec<String> = GameState::legal_moves(&g);
    interior.retain(|m| m != "pass");
    assert_eq!(interior, ["b3", "b4", "c2", "c3", "c4", "d2", "d3"]);
}

#[test]
fn goals() {
    use game::{N, NE, NW, S, SE, SW, is_line, is_y};
    assert!(is_line(N | S) && is_line(NE | SW) && is_line(SE | NW));
    assert!(!is_line(N | NE | SE) && !is_line(N | SE | SW));
    assert!(is_y(N | SE | SW) && is_y(NE | S | NW));
    assert!(!is_y(N | NE | SE) && !is_y(N | S | SE));
    assert!(is_y(N | SE | SW | S) && is_line(N | SE | SW | S));
}

#[test]
fn the_contract() {
    // Only interior cells and pass; the passer plays Black; White moves next.
    let g = new(3);
    assert!(refused(&g, "c1").contains("edge cell"));
    assert!(refused(&g, "swap").contains("no swap"));
    assert!(refused(&g, "resign").contains("not a move"));
    let g = played(3, &["c3"]);
    assert!(refused(&g, "c3").contains("taken"));
    assert_eq!(g.status(), Status::ToMove(1));
    assert_eq!(g.seat_names(), ["First", "Second"]);
    let g = played(3, &["c3", "pass"]);
    assert_eq!(g.black_seat(), Some(1), "the passer is Black");
    assert_eq!(
        g.status(),
        Status::ToMove(0),
        "White (the other seat) moves next"
    );
    assert_eq!(g.seat_names(), ["White", "Black"]);
    assert!(refused(&g, "pass").contains("no pass any more"));
    // Edge cells are open now, and a White stone goes down.
    let g2 = played(3, &["c3", "pass", "c1"]);
    assert_eq!(g2.stones()[g2.grid().parse("c1").unwrap()], game::WHITE);
    // A pass as the very first move is legal.
    let first = played(3, &["pass"]);
    assert_eq!(
        (first.black_seat(), first.status()),
        (Some(0), Status::ToMove(1))
    );
    assert_eq!(GameState::legal_moves(&first).len(), 19);
    // When the interior is full, pass is the only move.
    let full = played(3, &["c2", "d2", "b3", "c3", "d3", "b4", "c4"]);
    assert_eq!(GameState::legal_moves(&full), ["pass"]);
}

#[test]
fn own_goal_wins() {
    // The first player passes (Black); White joins N and S down column c.
    let g = played(3, &["pass", "c1", "a5", "c2", "b5", "c3", "e1", "c4", "e2"]);
    assert_eq!(g.status(), Status::ToMove(1));
    let won = played(
        3,
        &["pass", "c1", "a5", "c2", "b5", "c3", "e1", "c4", "e2", "c5"],
    );
    assert_eq!(won.status(), Status::Over(Outcome::Winner(1)));
    assert!(GameState::legal_moves(&won).is_empty());
}

#[test]
fn the_other_goal_alone_loses() {
    // White (the second player) makes a Y (N d1, SE d4, SW a4) and no line: White loses.
    let before = [
        "pass", "d1", "a5", "d2", "b5", "d3", "e1", "c3", "e2", "b3", "c1", "a4", "c2",
    ];
    let g = played(3, &before);
    assert_eq!(g.status(), Status::ToMove(1));
    let mut all = before.to_vec();
    all.push("d4");
    let lost = played(3, &all);
    assert_eq!(lost.status(), Status::Over(Outcome::Winner(0)));
    // Black (the second player, who passed) makes a line only: Black loses.
    let line = played(
        3,
        &["c3", "pass", "e1", "c1", "e2", "c2", "a4", "c4", "b5", "c5"],
    );
    assert_eq!(line.black_seat(), Some(1));
    assert_eq!(line.status(), Status::Over(Outcome::Winner(0)));
}

#[test]
fn both_goals_at_once_win() {
    // White's chain c1 c2 c3 c4 b4 a4 touches N, NW and SW; c5 adds S and SE: a line and a Y.
    let moves = [
        "pass", "c1", "e1", "c2", "e2", "c3", "b5", "c4", "d1", "b4", "a5", "a4", "d4", "c5",
    ];
    let won = played(3, &moves);
    assert_eq!(won.status(), Status::Over(Outcome::Winner(1)));
}

#[test]
fn notation_reads_loosely_and_writes_canonically() {
    let g = new(8);
    for (text, canonical) in [("h8", "h8"), (" H 1 5 ", "h15"), ("P A S S", "pass")] {
        let mv = parse(&g, text).unwrap();
        assert_eq!(Position::write(mv), canonical);
        assert_eq!(parse(&g, canonical).unwrap(), mv);
    }
    for cell in 0..g.grid().len() {
        let (c, r) = g.grid().coords(cell);
        let text = Position::write(Move::Stone(c, r));
        assert_eq!(parse(&g, &text).unwrap(), Move::Stone(c, r));
    }
    assert!(parse(&g, "h08").unwrap_err().0.contains("leading zero"));
    assert!(parse(&g, "a1").unwrap_err().0.contains("no cell a1"));
    assert!(parse(&g, "o15").unwrap_err().0.contains("no cell o15"));
    assert!(Unlur.read_move("b2").is_ok(), "a cell of side 3");
    assert!(Unlur.read_move("pass").is_ok());
    assert!(Unlur.read_move("swap").is_err() && Unlur.read_move("z1").is_err());
}

#[test]
fn options_and_their_refusals() {
    let size = |o: &[&str]| {
        let opts: Vec<GameOption> = o.iter().map(|w| GameOption::parse(w).unwrap()).collect();
        size_from_options(&opts)
    };
    assert_eq!(size(&[]).unwrap(), 8);
    assert_eq!(size(&["-size=6"]).unwrap(), 6);
    for (bad, why) in [
        (&["-size=2"][..], "not a side from 3 to 13"),
        (&["-size=14"], "not a side"),
        (&["-swap"], "no swap"),
        (&["-no_swap"], "no swap"),
        (&["-size=5", "-size=6"], "twice"),
        (&["-komi=1"], "no option -komi=1"),
    ] {
        let e = size(bad).unwrap_err().0;
        assert!(e.contains(why) && e.contains("-size=N"), "{bad:?}: {e}");
    }
    assert!(Unlur.new_game(&[], 3, 0).is_err());
}

#[test]
fn random_games_always_end_with_a_winner() {
    let mut x = 11u64;
    let mut pick = move |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    for size in [3u8, 4, 6, 8] {
        for _ in 0..60 {
            let mut g = new(size);
            g.random_playout(&mut pick);
            assert!(
                matches!(g.status(), Status::Over(Outcome::Winner(_))),
                "{:?}",
                g.records()
            );
            let back = Unlur.load(&g.to_json()).unwrap();
            assert_eq!(back.to_json(), g.to_json());
            assert_eq!(back.render(), g.render());
        }
    }
}

#[test]
fn actions_name_the_same_moves_as_the_text() {
    let mut g = played(4, &["d4"]);
    let mut acts = Vec::new();
    g.legal_actions(&mut acts);
    let mut texts: Vec<String> = acts.iter().map(|&a| g.action_text(a)).collect();
    texts.sort();
    assert_eq!(texts, GameState::legal_moves(&g));
    assert_eq!(g.action_space(), 38);
    g.apply_action(37);
    assert_eq!(g.records().last().unwrap().text, "pass");
    assert_eq!(g.black_seat(), Some(1));
}

#[test]
fn resign_in_the_contract_and_documents() {
    let mut g = played(4, &["d4"]);
    GameState::resign(&mut g, 0).unwrap();
    assert_eq!(g.status(), Status::Over(Outcome::Winner(1)));
    let back = Unlur.load(&g.to_json()).unwrap();
    assert_eq!(back.to_json(), g.to_json());
    assert_eq!(back.status(), g.status());
    // The documents before issue 36 carry a status line, which must agree with the moves.
    let text = include_str!("../../../tests/documents/8096aec/unlur-mid.json");
    assert!(text.contains("\"status\":\"to-move 0\""), "{text}");
    let e = Unlur
        .load(&text.replace("to-move 0", "to-move 1"))
        .err()
        .unwrap()
        .0;
    assert!(e.contains("corrupt"), "{e}");
    let e = Unlur.load(&text.replace("d4", "d1")).err().unwrap().0;
    assert!(e.contains("edge cell"), "{e}");
    let at = GameState::at_move(&played(3, &["c3", "pass", "c1"]), 3).unwrap();
    assert_eq!(at.status(), Status::ToMove(0));
    assert_eq!(at.moves().len(), 2);
}

#[test]
fn the_ascii_board_fits_72_columns_at_every_size() {
    for size in 3..=13u8 {
        let text = GameState::render(&new(size));
        let widest = text.lines().map(|l| l.chars().count()).max().unwrap();
        assert!(widest <= 72, "size {size}: {widest}\n{text}");
    }
    let g = played(3, &["c3", "pass", "c1"]);
    let text = GameState::render(&g);
    let board: Vec<&str> = text.lines().take(7).collect();
    assert_eq!(
        board,
        [
            "     c d e",
            "   1 (W). .  1",
            "  2  . . . .  2",
            " 3  . . B . .  3",
            "  4  . . . .  4",
            "   5  . . .  5",
            "       a b c"
        ],
        "{text}"
    );
}

#[test]
fn the_picture_and_the_neutral_board() {
    let contract = played(3, &["c3", "d3"]);
    let view = GameState::board_view(&contract);
    assert_eq!(view.cells.iter().filter(|c| c.tile.is_some()).count(), 2);
    assert_eq!(view.cells.iter().filter(|c| c.open).count(), 5);
    let g = played(3, &["c3", "pass", "c1"]);
    let view = GameState::board_view(&g);
    assert_eq!(view.cells.len(), 19);
    assert_eq!(
        view.cells.iter().filter(|c| c.piece == Some(1)).count(),
        1,
        "Black is seat 1"
    );
    assert_eq!(view.cells.iter().filter(|c| c.piece == Some(0)).count(), 1);
    assert_eq!(view.to_move, Some(1));
    let svg = GameState::svg(&g).unwrap();
    assert_eq!(svg.matches("class=\"cell\"").count(), 19);
    assert_eq!(svg.matches("class=\"stone black\"").count(), 1);
    assert_eq!(svg.matches("class=\"stone white\"").count(), 1);
    assert_eq!(svg.matches("class=\"last-move\"").count(), 1);
}

/// The sides (bits N, NE, SE, S, SW, NW as in `game`) each chain of `colour` touches, by a flood fill
/// over (column, row) with Hex's neighbours: independent of the engine's grid and union-find.
fn flood_sides(n: u8, stones: &[(u8, u8, u8)], colour: u8) -> Vec<u8> {
    use std::collections::{HashMap, HashSet};
    let m = 2 * n - 1;
    let at: HashMap<(u8, u8), u8> = stones.iter().map(|&(c, r, s)| ((c, r), s)).collect();
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for &(c, r, s) in stones {
        if s != colour || !seen.insert((c, r)) {
            continue;
        }
        let mut stack = vec![(c, r)];
        let mut sides = 0u8;
        while let Some((c, r)) = stack.pop() {
            let sum = c + r;
            sides |= u8::from(r == 1)
                | u8::from(c == m) << 1
                | u8::from(sum == 3 * n - 1) << 2
                | u8::from(r == m) << 3
                | u8::from(c == 1) << 4
                | u8::from(sum == n + 1) << 5;
            for (dc, dr) in [(-1i8, 0i8), (1, 0), (0, -1), (0, 1), (1, -1), (-1, 1)] {
                let (nc, nr) = (c as i8 + dc, r as i8 + dr);
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
    let mut x = 5u64;
    let mut rnd = move |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    let y = |s: u8| s & 0b010101 == 0b010101 || s & 0b101010 == 0b101010;
    let line =
        |s: u8| s & 0b001001 == 0b001001 || s & 0b010010 == 0b010010 || s & 0b100100 == 0b100100;
    for size in [3u8, 4, 6] {
        for _ in 0..40 {
            let mut g = new(size);
            while let Status::ToMove(mover) = g.status() {
                let legal = GameState::legal_moves(&g);
                // The contract lists every empty interior cell and pass; the main phase every empty cell.
                let empty = g.stones().iter().filter(|&&s| s == 0).count();
                if g.in_contract() {
                    assert!(legal.contains(&"pass".to_string()) && legal.len() <= empty + 1);
                } else {
                    assert_eq!(legal.len(), empty);
                }
                // Pass rarely, so that contracts are long as well as short.
                let pick = if g.in_contract() && rnd(4) != 0 && legal.len() > 1 {
                    legal[rnd(legal.len() - 1)].clone()
                } else {
                    legal[rnd(legal.len())].clone()
                };
                let contract = g.in_contract();
                g.play_text(&pick).unwrap();
                if contract {
                    assert_eq!(g.status(), Status::ToMove(1 - mover));
                    continue;
                }
                let grid = g.grid();
                let stones: Vec<(u8, u8, u8)> = (0..grid.len())
                    .filter(|&i| g.stones()[i] != 0)
                    .map(|i| (grid.coords(i).0, grid.coords(i).1, g.stones()[i]))
                    .collect();
                let colour = if g.black_seat() == Some(mover) {
                    game::BLACK
                } else {
                    game::WHITE
                };
                let chains = flood_sides(size, &stones, colour);
                let (own, other): (bool, bool) = if colour == game::BLACK {
                    (
                        chains.iter().any(|&s| y(s)),
                        chains.iter().any(|&s| line(s)),
                    )
                } else {
                    (
                        chains.iter().any(|&s| line(s)),
                        chains.iter().any(|&s| y(s)),
                    )
                };
                let expected = if own {
                    Status::Over(Outcome::Winner(mover))
                } else if other {
                    Status::Over(Outcome::Winner(1 - mover))
                } else {
                    Status::ToMove(1 - mover)
                };
                assert_eq!(g.status(), expected, "{:?}", g.records());
            }
        }
    }
}

/// The documents pbem 8096aec stored (scripts/match-fixtures.sh): each loads with its moves, its
/// result and its seats' names, and writes itself in today's shape, which loads the same.
#[test]
fn documents_stored_by_8096aec_load() {
    let contract = ["d4", "pass", "b5", "c3"];
    for (doc, moves, status, names) in [
        (
            include_str!("../../../tests/documents/8096aec/unlur-mid.json"),
            &contract[..],
            Status::ToMove(0),
            ["White", "Black"],
        ),
        (
            include_str!("../../../tests/documents/8096aec/unlur-resigned.json"),
            &["d4", "pass", "b5", "c3", "resign"],
            Status::Over(Outcome::Winner(0)),
            ["White", "Black"],
        ),
        (
            include_str!("../../../tests/documents/8096aec/unlur-forfeit.json"),
            &["d4", "pass", "b5", "c3", "forfeit"],
            Status::Over(Outcome::Winner(1)),
            ["White", "Black"],
        ),
        (
            include_str!("../../../tests/documents/8096aec/unlur-finished.json"),
            &[
                "pass", "e5", "e6", "e2", "d6", "c5", "f5", "e3", "c6", "g4", "b5", "d2", "f4",
                "b6", "d4", "c4", "a7", "b7", "a4", "c3", "c7", "d1",
            ],
            Status::Over(Outcome::Winner(1)),
            ["Black", "White"],
        ),
    ] {
        let g = Unlur.load(doc).unwrap_or_else(|e| panic!("{doc}: {e}"));
        let texts: Vec<String> = g.moves().into_iter().map(|m| m.text).collect();
        assert_eq!(texts, moves, "{doc}");
        assert_eq!(g.status(), status, "{doc}");
        assert_eq!(g.seat_names(), names, "{doc}");
        assert_eq!(g.options_summary(), "-size=4");
        let again = Unlur.load(&g.to_json()).unwrap();
        assert_eq!(again.moves(), g.moves());
        assert_eq!(again.status(), g.status());
    }
}

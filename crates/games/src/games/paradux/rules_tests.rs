//! The decided cases of `paradux-rules.md` (section 8's table, and section 2's checks), one test
//! each, on positions reached by play or set by hand.

use super::super::notation::{read, write};
use super::*;

fn layout(size: u8, line: u8) -> Arc<Layout> {
    Layout::shared(size, line)
}

/// A position of side `size` with these Black and White cells, `to_move` to move.
fn set(size: u8, line: u8, black: &str, white: &str, to_move: usize) -> Position {
    let l = layout(size, line);
    let mut pieces = [Bits::EMPTY; 2];
    for (s, cells) in [black, white].iter().enumerate() {
        for c in cells.split_whitespace() {
            pieces[s].set(l.geo.read_cell(c).unwrap().0);
        }
    }
    Position::with(l, pieces, to_move)
}

fn names(p: &Position, b: Bits) -> Vec<String> {
    b.iter().map(|c| p.geo().name(c)).collect()
}

fn mv(p: &Position, text: &str) -> Move {
    read(p.geo(), text).unwrap()
}

/// Checks and plays a move given as text.
fn play(p: &mut Position, text: &str) -> Applied {
    let m = mv(p, text);
    p.check(m).unwrap_or_else(|e| panic!("{text}: {e}"));
    p.apply(m)
}

fn legal_texts(p: &Position) -> Vec<String> {
    let mut moves = Vec::new();
    p.legal(&mut moves);
    let mut out: Vec<String> = moves.iter().map(|&m| write(p.geo(), m)).collect();
    out.sort();
    out
}

#[test]
fn perft_from_the_start_matches_the_page() {
    let p = Position::start(layout(4, 4));
    assert_eq!(p.perft(1), 42);
    assert_eq!(p.perft(2), 1_690);
}

#[test]
fn the_reconstructed_set_up_is_the_pages() {
    let p = Position::start(layout(4, 4));
    let mut black = names(&p, p.pieces[0]);
    let mut white = names(&p, p.pieces[1]);
    black.sort();
    white.sort();
    let sorted = |s: &str| {
        let mut v: Vec<String> = s.split(' ').map(String::from).collect();
        v.sort();
        v
    };
    assert_eq!(black, sorted("a1 a3 b5 d7 f7 g6 g4 e2 c1 d3"));
    assert_eq!(white, sorted("a2 a4 c6 e7 g7 g5 f3 d1 b1 d5"));
    let ring_names: Vec<String> = ring(p.geo()).iter().map(|&c| p.geo().name(c)).collect();
    assert_eq!(
        ring_names.join(" "),
        "a1 a2 a3 a4 b5 c6 d7 e7 f7 g7 g6 g5 g4 f3 e2 d1 c1 b1"
    );
    assert_eq!((p.to_move, p.last, p.occurrences()), (0, None, 1));
    // Three more pieces a side per size step: 10, 13, 16, 19.
    for (n, count) in [(4, 10), (5, 13), (6, 16), (7, 19)] {
        let p = Position::start(layout(n, 4));
        assert_eq!([p.pieces[0].count(), p.pieces[1].count()], [count, count]);
    }
}

#[test]
fn even_sizes_are_symmetric_under_a_half_turn() {
    for n in [4u8, 6] {
        let p = Position::start(layout(n, 4));
        let g = p.geo();
        let m = 2 * n as i8;
        for c in p.pieces[0].iter() {
            let (r, d) = g.coords[c];
            let turned = g.at(m - r, m - d).unwrap();
            assert!(p.pieces[1].has(turned), "side {n}: {}", g.name(c));
        }
    }
    // On odd sizes the half turn maps a ring cell to one of the same colour.
    let p = Position::start(layout(5, 4));
    let g = p.geo();
    let a1 = g.at(1, 1).unwrap();
    assert!(p.pieces[0].has(a1) && p.pieces[0].has(g.at(9, 9).unwrap()));
}

#[test]
fn nobody_has_a_line_at_the_start_and_no_first_move_makes_one() {
    for n in 4..=7u8 {
        let p = Position::start(layout(n, 4));
        assert!(!p.layout.has_line(p.pieces[0]) && !p.layout.has_line(p.pieces[1]));
        let mut moves = Vec::new();
        p.legal(&mut moves);
        assert!(!moves.is_empty());
        for &m in &moves {
            let mut next = p.clone();
            let applied = next.apply(m);
            assert_eq!(applied.end, None, "side {n}: {}", write(p.geo(), m));
        }
    }
}

#[test]
fn the_centre_pieces_touch_no_enemy_piece() {
    let p = Position::start(layout(4, 4));
    let g = p.geo();
    for (seat, c) in centre(g).into_iter().enumerate() {
        assert!(
            g.near[c].and(p.pieces[1 - seat]).is_empty(),
            "{}",
            g.name(c)
        );
    }
    // So every move at the start is on the ring: 18 switches and 24 pair moves.
    let moves = legal_texts(&p);
    assert_eq!(moves.iter().filter(|m| m.contains('~')).count(), 18);
    assert!(!moves.iter().any(|m| m.contains("d3") || m.contains("d5")));
    assert!(moves.contains(&"a1a2-b2b3".to_string()), "{moves:?}");
}

#[test]
fn the_pages_example_moves_move_the_pieces_it_says() {
    // Broadside a1b1-b2c2: a1 to b2, b1 to c2 (Black a1, White b1 at the start).
    let mut p = Position::start(layout(4, 4));
    let g = p.layout.geo.clone();
    let at = |s: &str| g.read_cell(s).unwrap().0;
    play(&mut p, "a1b1-b2c2");
    assert!(p.pieces[0].has(at("b2")) && p.pieces[1].has(at("c2")));
    assert!(p.owner(at("a1")).is_none() && p.owner(at("b1")).is_none());
    // A switch swaps the two pieces.
    play(&mut p, "b2~c2");
    assert!(p.pieces[1].has(at("b2")) && p.pieces[0].has(at("c2")));
    // Inline d4d5-d5d6: the front piece into an empty cell, the back one into the cell it left.
    let mut p = set(4, 4, "d4", "d5", 0);
    let a = play(&mut p, "d4d5-d5d6");
    assert_eq!(a.end, None);
    assert_eq!(names(&p, p.pieces[0]), ["d5"]);
    assert_eq!(names(&p, p.pieces[1]), ["d6"]);
}

#[test]
fn a_pair_may_step_into_the_cell_its_partner_leaves_and_nowhere_taken() {
    // Black a1, White a2 at the start; after a1a2-b2b3 Black is on b2, White on b3.
    let mut p = Position::start(layout(4, 4));
    play(&mut p, "a1a2-b2b3");
    let moves = legal_texts(&p);
    // Inline towards b4 (empty): b2 into b3, b3 into b4.
    assert!(moves.contains(&"b2b3-b3b4".to_string()), "{moves:?}");
    // Inline the other way: b3 into b2, but b2 into b1, which White holds.
    let e = p.check(mv(&p, "b2b3-b1b2")).unwrap_err();
    assert!(e.contains("b1 holds a White piece"), "{e}");
    assert!(!moves.contains(&"b2b3-b1b2".to_string()));
    // Directions must agree, and a step is one cell.
    let e = p.check(mv(&p, "b2b3-c2b4")).unwrap_err();
    assert!(e.contains("same direction"), "{e}");
    let e = p.check(mv(&p, "b2b3-d2d3")).unwrap_err();
    assert!(e.contains("not one step"), "{e}");
    let e = p.check(mv(&p, "b2b3-c3b4")).unwrap_err();
    assert!(
        e.contains("b2 goes to c3, so b3 would go to c4, not to b4"),
        "{e}"
    );
    p.check(mv(&p, "b2b3-c2c3")).unwrap();
    p.check(mv(&p, "b2b3-c3c4")).unwrap();
}

#[test]
fn two_pieces_of_one_colour_never_make_a_pair_or_a_switch() {
    let p = set(4, 4, "d3 d4", "e5 e6", 0);
    let e = p.check(mv(&p, "d3d4-e3e4")).unwrap_err();
    assert!(e.contains("both yours"), "{e}");
    let e = p.check(mv(&p, "e5e6-f5f6")).unwrap_err();
    assert!(e.contains("both your opponent's (White)"), "{e}");
    let e = p.check(mv(&p, "d3~d4")).unwrap_err();
    assert!(e.contains("both yours"), "{e}");
    let e = p.check(mv(&p, "d4~d5")).unwrap_err();
    assert!(e.contains("d5 is empty"), "{e}");
    let e = p.check(mv(&p, "d3~e5")).unwrap_err();
    assert!(e.contains("not neighbours"), "{e}");
    // d4 (Black) and e5 (White) touch: the only pair.
    let moves = legal_texts(&p);
    assert!(
        moves.iter().all(|m| m.contains("d4") && m.contains("e5")),
        "{moves:?}"
    );
    assert!(moves.contains(&"d4~e5".to_string()));
}

#[test]
fn the_opponents_last_move_may_not_be_undone_and_only_that() {
    // A switch: the same switch back is illegal; a pair move of the same two pieces is not.
    let mut p = Position::start(layout(4, 4));
    play(&mut p, "a1~a2");
    let e = p.check(mv(&p, "a2~a1")).unwrap_err();
    assert!(
        e.contains("would undo the opponent's last move (a1~a2)"),
        "{e}"
    );
    let moves = legal_texts(&p);
    assert!(!moves.contains(&"a1~a2".to_string()));
    assert!(moves.contains(&"a1a2-b2b3".to_string()), "{moves:?}");
    // Exactly one move fewer than the same board with nothing to undo.
    let mut free = p.clone();
    free.last = None;
    assert_eq!(legal_texts(&free).len(), moves.len() + 1);

    // A pair move: the same two pieces straight back is illegal, in either order of writing;
    // switching them or moving them elsewhere is allowed.
    let mut p = Position::start(layout(4, 4));
    play(&mut p, "a1a2-b2b3");
    for undo in ["b2b3-a1a2", "b3b2-a2a1"] {
        let e = p.check(mv(&p, undo)).unwrap_err();
        assert!(
            e.contains("b2b3-a1a2 would undo the opponent's last move (a1a2-b2b3)"),
            "{e}"
        );
    }
    let moves = legal_texts(&p);
    assert!(!moves.contains(&"b2b3-a1a2".to_string()));
    for ok in ["b2~b3", "b2b3-c2c3", "b2b3-b3b4"] {
        assert!(moves.contains(&ok.to_string()), "{ok}: {moves:?}");
    }
    // The rule is about the last move only: after a move elsewhere, a1~a2 twice is fine.
    let mut p = Position::start(layout(4, 4));
    play(&mut p, "a1~a2");
    play(&mut p, "g7~g6");
    play(&mut p, "a1~a2");
    assert_eq!(p.result, None);
}

#[test]
fn lines_run_along_the_three_axes_only() {
    let l = layout(4, 4);
    let bits = |cells: &str| {
        let mut b = Bits::EMPTY;
        for c in cells.split_whitespace() {
            b.set(l.geo.read_cell(c).unwrap().0);
        }
        b
    };
    for line in [
        "a1 a2 a3 a4",
        "a1 b1 c1 d1",
        "a1 b2 c3 d4",
        "d4 e5 f6 g7",
        "g4 f4 e4 d4",
    ] {
        assert!(l.has_line(bits(line)), "{line}");
    }
    // Bent runs and runs of three are no line; b1 c2 d3 e4 is the (+1, +1) axis.
    for no in ["a1 a2 a3 b4", "a1 b1 c2 d3", "d1 d2 d3 e5", "a2 b2 c2"] {
        assert!(!l.has_line(bits(no)), "{no}");
    }
    assert!(l.has_line(bits("b1 c2 d3 e4")));
    // -line=5: four is not enough.
    let l5 = layout(4, 5);
    assert!(!l5.has_line(bits("d1 d2 d3 d4")) && l5.has_line(bits("d1 d2 d3 d4 d5")));
}

#[test]
fn when_both_get_a_line_the_mover_wins() {
    // Black b1 b2 b3 and c4, White c1 c2 c3 and b4: the switch b4~c4 gives Black b1..b4 and White
    // c1..c4 at once. Whoever makes it wins.
    for mover in 0..2 {
        let mut p = set(4, 4, "b1 b2 b3 c4", "c1 c2 c3 b4", mover);
        assert!(!p.layout.has_line(p.pieces[0]) && !p.layout.has_line(p.pieces[1]));
        let a = play(&mut p, "b4~c4");
        assert!(p.layout.has_line(p.pieces[0]) && p.layout.has_line(p.pieces[1]));
        assert_eq!(a.end, Some(End::Line(mover)));
        assert_eq!(p.result, Some(Outcome::Winner(mover)));
        assert!(legal_texts(&p).is_empty(), "nothing once over");
    }
}

#[test]
fn when_only_the_opponent_gets_a_line_the_opponent_wins() {
    // The switch: Black b1 b2 (no third), so only White gets c1..c4.
    let mut p = set(4, 4, "b1 b2 c4", "c1 c2 c3 b4", 0);
    let a = play(&mut p, "b4~c4");
    assert_eq!(a.end, Some(End::Line(1)));
    assert_eq!(p.result, Some(Outcome::Winner(1)));
    // A pair move: Black's d5 and White's d4 step south-east (to c5 and c4); White's c4 completes
    // c1..c4, Black's c5 makes nothing.
    let mut p = set(4, 4, "d5", "c1 c2 c3 d4", 0);
    let a = play(&mut p, "d4d5-c4c5");
    assert_eq!(a.end, Some(End::Line(1)));
    assert_eq!(
        p.layout.line_cells(p.pieces[1]).map(|v| names(
            &p,
            v.into_iter().fold(Bits::EMPTY, |mut b, c| {
                b.set(c);
                b
            })
        )),
        Some(vec!["c1".into(), "c2".into(), "c3".into(), "c4".into()])
    );
}

#[test]
fn five_in_a_row_is_a_line_too() {
    // Black d1 d2 d4 d5 and c3; White d3. The switch c3~d3 fills the gap: five in a row.
    let mut p = set(4, 4, "d1 d2 d4 d5 c3", "d3", 0);
    let a = play(&mut p, "c3~d3");
    assert_eq!(a.end, Some(End::Line(0)));
    let cells = p.layout.line_cells(p.pieces[0]).unwrap();
    let cells: Vec<String> = cells.iter().map(|&c| p.geo().name(c)).collect();
    assert_eq!(cells, ["d1", "d2", "d3", "d4", "d5"]);
}

#[test]
fn the_third_occurrence_of_a_position_is_a_draw_and_the_start_counts() {
    let mut p = Position::start(layout(4, 4));
    // Four plies bring the start back (Black to move): it occurs at plies 0, 4 and 8.
    let cycle = ["a1~a2", "g7~g6", "a1~a2", "g7~g6"];
    for (i, m) in cycle.iter().cycle().take(7).enumerate() {
        let a = play(&mut p, m);
        assert_eq!(a.end, None, "ply {}", i + 1);
    }
    assert_eq!(p.occurrences(), 2, "after ply 7: the position of ply 3");
    let a = play(&mut p, "g7~g6");
    assert_eq!(a.end, Some(End::Repetition));
    assert_eq!(p.result, Some(Outcome::Draw(vec![0, 1])));
    assert_eq!(p.pieces, Position::start(layout(4, 4)).pieces);
    // The same board with the other player to move is another position.
    let q = set(4, 4, "a1 a3", "a2", 1);
    let r = set(4, 4, "a1 a3", "a2", 0);
    assert_ne!(q.key(), r.key());
}

/// Black a1 b1, White a2 a3 b3 (side 4): the only pair of different colours is a1–a2, and it can
/// move nowhere (a3, b3 and b1 block it, the edge does the rest): the switch is the only move.
const WALLED: (&str, &str) = ("a1 b1", "a2 a3 b3");

#[test]
fn a_player_whose_only_move_is_the_undo_is_passed() {
    let p = set(4, 7, WALLED.0, WALLED.1, 0);
    assert_eq!(legal_texts(&p), ["a1~a2"]);
    // White, before the switch (a1 White, a2 Black), plays it; Black's only move would undo it.
    let mut p = set(4, 7, "a2 b1", "a1 a3 b3", 1);
    let a = play(&mut p, "a1~a2");
    assert_eq!(
        a,
        Applied {
            passed: true,
            end: None
        }
    );
    assert_eq!(
        (p.to_move, p.last),
        (1, None),
        "White again, nothing to undo"
    );
    assert_eq!(legal_texts(&p), ["a1~a2"], "White may switch back");
    assert_eq!(p.occurrences(), 1, "the position after the pass is counted");
}

#[test]
fn a_position_after_a_pass_counts_towards_the_draw() {
    let mut p = set(4, 7, "a2 b1", "a1 a3 b3", 1);
    // The walled board with White to move has been seen twice already: the pass makes it three.
    let walled = set(4, 7, WALLED.0, WALLED.1, 1);
    p.seen.insert(walled.key(), 2);
    let a = play(&mut p, "a1~a2");
    assert_eq!(
        a,
        Applied {
            passed: true,
            end: Some(End::Repetition)
        }
    );
    assert_eq!(p.result, Some(Outcome::Draw(vec![0, 1])));
}

/// Every switch and pair move the board could hold, by brute force over neighbouring cells and
/// directions, filtered by [`Position::check`]: the moves a generator must list. (Cells that are
/// not neighbours never move together: `check` refuses them first, as
/// `two_pieces_of_one_colour_never_make_a_pair_or_a_switch` shows.)
fn brute_force(p: &Position) -> Vec<String> {
    let g = p.geo();
    let mut out = Vec::new();
    for a in 0..g.cells() {
        for b in g.near[a].iter().filter(|&b| b > a) {
            let m = Move::Switch(a, b);
            if p.check(m).is_ok() {
                out.push(write(g, m));
            }
            for dir in 0..6 {
                if let (Some(ta), Some(tb)) = (g.step(a, dir), g.step(b, dir)) {
                    let m = Move::pair((a, ta), (b, tb));
                    if p.check(m).is_ok() {
                        out.push(write(g, m));
                    }
                }
            }
        }
    }
    out.sort();
    out
}

#[test]
fn random_games_list_exactly_the_legal_moves_and_end() {
    let mut seed = 5u64;
    let mut pick = |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 33) as usize) % n
    };
    let mut moves = Vec::new();
    for (size, line) in [(4, 4), (5, 4), (4, 5)] {
        for _ in 0..6 {
            let mut p = Position::start(layout(size, line));
            let mut plies = 0;
            while p.result.is_none() {
                let listed = legal_texts(&p);
                if plies < 40 {
                    assert_eq!(listed, brute_force(&p), "side {size}, ply {plies}");
                }
                let mut dedup = listed.clone();
                dedup.dedup();
                assert_eq!(dedup, listed, "each move once");
                p.legal(&mut moves);
                let m = moves[pick(moves.len())];
                assert_eq!(read(p.geo(), &write(p.geo(), m)).unwrap(), m);
                let mover = p.to_move;
                let a = p.apply(m);
                plies += 1;
                let lines = [0, 1].map(|s| p.layout.has_line(p.pieces[s]));
                match a.end {
                    Some(End::Line(w)) => {
                        assert!(lines[w]);
                        assert!(w == mover || !lines[mover]);
                    }
                    _ => assert_eq!(lines, [false, false]),
                }
            }
            assert!(plies > 0);
        }
    }
}

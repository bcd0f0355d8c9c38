//! One test per numbered rule of the spec, named after its section, on hand-built positions.
//!
//! Positions are written as (position number, tile colour, pawn) triples: colour `r b g k p` (p = plain),
//! pawn `.` for none or the seat `0`, `1`, `2`.

use super::board::{Board, bit};
use super::game::{IllegalMove, Phase, Position, SeatState};
use super::layout::below;
use super::options::Config;
use super::view::TileColour;
use super::*;
use crate::games::Status;
use crate::games::matchplay::Match;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

fn cfg(words: &[&str]) -> Config {
    let opts: Vec<GameOption> = words
        .iter()
        .map(|w| GameOption::parse(w).unwrap())
        .collect();
    Config::from_options(&opts).unwrap()
}

/// A movement-phase position: tiles laid in the order given, `to_move` to play, first turns already
/// taken (so the equaliser is off unless a test turns it back on).
fn position(
    words: &[&str],
    players: usize,
    tiles: &[(u32, char, char)],
    to_move: usize,
) -> Position {
    let mut g = Position::new(cfg(&[&["-manual"][..], words].concat()), players, 0).unwrap();
    let mut b = Board::default();
    for &(n, c, p) in tiles {
        let colour = match c {
            'r' => TileColour::Red,
            'b' => TileColour::Blue,
            'g' => TileColour::Green,
            'k' => TileColour::Black,
            _ => TileColour::Plain,
        };
        let i = b.add(n, colour);
        if let Some(s) = p.to_digit(10) {
            b.m.pawns[s as usize] |= bit(i);
        }
    }
    assert!(b.connected(b.m.tiles), "test boards are connected");
    for s in 0..3 {
        assert!(
            b.captured_all(b.m.pawns[s], b.m.empty()) == 0,
            "test boards start with every group free"
        );
    }
    g.board = b;
    g.phase = Phase::Movement;
    g.tiles_left = [0; 5];
    g.in_box = [0; 3];
    g.to_move = to_move;
    g.had_turn = [true; 3];
    g
}

/// The position on a record of its own, for what the record answers (legal moves, notes).
fn rec(g: &Position) -> Game {
    Match::from_position(g.clone())
}

fn pawn_at(g: &Position, n: u32) -> Option<usize> {
    g.board.tile_at(n).and_then(|i| g.board.m.owner(i))
}

fn err(g: &Position, mv: &str) -> IllegalMove {
    let mut h = g.clone();
    let e = h.play_str(mv).unwrap_err();
    assert_eq!(&h, g, "an illegal move changes nothing");
    e
}

/// Line along row 0: 14 (-2,0), 5 (-1,0), 1 (0,0), 2 (1,0), 8 (2,0).
const LINE: [u32; 5] = [14, 5, 1, 2, 8];

fn line(pawns: [char; 5]) -> Vec<(u32, char, char)> {
    LINE.iter().zip(pawns).map(|(&n, p)| (n, 'p', p)).collect()
}

/// The line plus an empty 4 (touching 5 and 1), which can go without cutting anything off.
fn line4(pawns: [char; 5]) -> Vec<(u32, char, char)> {
    let mut v = line(pawns);
    v.push((4, 'p', '.'));
    v
}

/// Red 5 can move to 2 and take the last freedom of blue 8; blue 4 keeps its freedom on 1.
fn capture_board() -> Vec<(u32, char, char)> {
    let mut v = line(['.', '0', '.', '.', '1']);
    v.push((4, 'p', '1'));
    v
}

/// The seven-hex flower: centre 1 empty, ring 2..7 alternating Red and Blue pawns.
fn flower() -> Vec<(u32, char, char)> {
    vec![
        (1, 'p', '.'),
        (2, 'p', '0'),
        (3, 'p', '1'),
        (4, 'p', '0'),
        (5, 'p', '1'),
        (6, 'p', '0'),
        (7, 'p', '1'),
    ]
}

/// The seeded random stream of these random games.
fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

// ---- 1, 2: geometry and numbers (more in geom.rs) -------------------------------------------------

#[test]
fn s1_free_edges_count_the_sides_without_a_tile() {
    let g = position(&[], 2, &flower(), 0);
    let b = &g.board;
    assert_eq!(b.free_edges(b.m.tiles, b.tile_at(1).unwrap()), 0);
    assert_eq!(b.free_edges(b.m.tiles, b.tile_at(2).unwrap()), 3);
}

#[test]
fn s2_moves_name_stable_position_numbers() {
    let mut g = position(&["-move_or_remove"], 2, &line(['0', '.', '.', '.', '1']), 0);
    g.play_str("x2").unwrap_err();
    g.play_str("14-5").unwrap();
    // The numbers of the other tiles do not change when a tile goes.
    g.play_str("x1").unwrap_err();
    assert_eq!(g.board.tile_at(8).map(|i| g.board.qr[i]), Some((2, 0)));
}

// ---- 3: options (more in options.rs) ------------------------------------------------------------

#[test]
fn s3_seat_names_and_first_player() {
    let g = Position::new(Config::default(), 3, 1).unwrap();
    assert_eq!(GameState::seat_names(&rec(&g)), ["Red", "Blue", "Green"]);
    assert_eq!(g.to_move(), Some(0));
    let c = Position::new(cfg(&["-classic"]), 3, 1).unwrap();
    assert_eq!(GameState::seat_names(&rec(&c)), ["White", "Red", "Black"]);
    assert_eq!(c.to_move(), Some(0));
}

#[test]
fn s3_new_game_refuses_bad_options_and_player_counts() {
    assert!(Limit.new_game(&[GameOption::flag("random")], 2, 0).is_err());
    assert!(Limit.new_game(&[], 4, 0).is_err());
    assert!(Limit.new_game(&[], 1, 0).is_err());
}

// ---- 4.1 random layout (more in layout.rs) --------------------------------------------------------

#[test]
fn s4_1_pawns_stand_on_their_colour_and_every_pawn_is_free() {
    for players in [2, 3] {
        let g = Position::new(Config::default(), players, 5).unwrap();
        let b = &g.board;
        assert_eq!(b.laid(), 32);
        for s in 0..players {
            assert_eq!(b.m.pawns[s].count_ones(), 8);
            for i in super::board::bits(b.m.pawns[s]) {
                assert_eq!(
                    b.colour[i],
                    [TileColour::Red, TileColour::Blue, TileColour::Green][s]
                );
                assert!(b.nb[i] & b.m.empty() != 0);
            }
        }
        assert_eq!(g.phase(), Phase::Movement);
    }
}

// ---- 4.2 manual placement -------------------------------------------------------------------------

#[test]
fn s4_2_manual_placement_rules() {
    let mut g = Position::new(cfg(&["-manual", "-size=2"]), 2, 0).unwrap();
    assert_eq!(g.phase(), Phase::Manual);
    assert!(matches!(err(&g, "r2"), IllegalMove::FirstAtOne));
    assert!(matches!(err(&g, "3-7,4"), IllegalMove::Form(_)));
    g.play_str("R1").unwrap();
    assert!(matches!(err(&g, "r2"), IllegalMove::SameColour { .. }));
    assert!(matches!(err(&g, "b8"), IllegalMove::MustTouch { .. }));
    g.play_str("b2").unwrap();
    // Later tiles touch two.
    assert!(matches!(
        err(&g, "g8"),
        IllegalMove::MustTouch {
            touches: 1,
            need: 2,
            ..
        }
    ));
    assert!(matches!(err(&g, "g1"), IllegalMove::TileThere(1)));
    g.play_str("r7").unwrap_err(); // 7 touches red 1
    g.play_str("g7").unwrap();
    g.play_str("r19").unwrap(); // touches 2 and 7
    assert!(matches!(err(&g, "r3"), IllegalMove::NoTilesLeft(_)));
    assert!(g.legal().iter().all(|m| matches!(m, Move::Lay { .. })));
}

#[test]
fn s4_2_pawn_without_pawnless_neighbour_stays_in_the_box() {
    // Red 1, blue 2, red 8 (touches 2 only... needs two): build with must_touch=1 so shapes are free.
    let mut g = Position::new(cfg(&["-manual", "-size=2", "-must_touch=1"]), 2, 0).unwrap();
    for m in ["r1", "b2", "r8", "k5", "g14", "b13", "k12", "g11"] {
        g.play_str(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    assert_eq!(g.phase(), Phase::Movement);
    // Red on 8 touches only blue 2: no pawnless neighbour, so it stays in the box.
    assert_eq!(pawn_at(&g, 8), None);
    assert_eq!(pawn_at(&g, 1), Some(0));
    assert_eq!(g.in_box(0), 1);
    assert_eq!(pawn_at(&g, 2), None, "blue 2 touches only red tiles");
    assert_eq!(pawn_at(&g, 13), Some(1));
    assert!(
        GameState::notes(&rec(&g))
            .iter()
            .any(|n| n.contains("stay in the box"))
    );
}

#[test]
fn s4_2_when_no_tile_can_be_laid_the_rest_are_set_aside() {
    // With must_touch=2 and only two colours left that both touch themselves, the phase ends early.
    let mut g = Position::new(cfg(&["-manual", "-size=2"]), 2, 3).unwrap();
    let mut r = rng(9);
    while g.phase() == Phase::Manual {
        let l = g.legal();
        g.play_move(&l[below(&mut r, l.len())]).unwrap();
    }
    let laid = g.board.laid() as u32;
    assert_eq!(laid + g.set_aside, 8);
}

// ---- 4.3 classic placement ------------------------------------------------------------------------

#[test]
fn s4_3_classic_pairs_and_balls() {
    let mut g = Position::new(cfg(&["-classic", "-size=2"]), 2, 0).unwrap();
    assert_eq!(g.phase(), Phase::ClassicTiles);
    assert!(matches!(err(&g, "2,3@2"), IllegalMove::FirstAtOne));
    assert!(matches!(err(&g, "1,8@1"), IllegalMove::PairOrder { .. }));
    assert!(
        matches!(err(&g, "1,2"), IllegalMove::BallCompulsory(_)),
        "a ball is possible"
    );
    let mut m = Match::from_position(g.clone());
    GameState::play(&mut m, "2,1@1").unwrap();
    assert_eq!(
        m.moves()[0].text,
        "1,2@1",
        "the record writes the pair in order"
    );
    g.play_str("2,1@1").unwrap();
    // Red: each tile touches two (3 touches 1 and 2; 9 touches 2 and 3).
    assert!(matches!(err(&g, "8,9@9"), IllegalMove::PairOrder { .. }));
    // A red ball on 3 would take the last freedom of... nothing yet; but a ball on 7 next to white 1 is fine.
    g.play_str("3,9@9").unwrap();
    assert_eq!(pawn_at(&g, 9), Some(1));
    // White may not put a ball next to its own ball on 1.
    assert!(matches!(err(&g, "6,7@7"), IllegalMove::Ball { .. }));
    assert!(
        g.legal()
            .iter()
            .all(|m| matches!(m, Move::Pair { ball: Some(_), .. }))
    );
}

#[test]
fn s4_3_classic_ball_only_phase() {
    // Three players and 4n tiles: the tiles run out first, then balls are placed one by one.
    let mut g = Position::new(cfg(&["-classic", "-size=3"]), 3, 0).unwrap();
    let mut r = rng(1);
    while g.phase() == Phase::ClassicTiles {
        let l = g.legal();
        g.play_move(&l[below(&mut r, l.len())]).unwrap();
    }
    assert_eq!(g.board.laid(), 12);
    assert_eq!(g.phase(), Phase::ClassicBalls);
    let l = g.legal();
    assert!(!l.is_empty() && l.iter().all(|m| matches!(m, Move::Ball { .. })));
    assert!(matches!(err(&g, "3-7,4"), IllegalMove::Form(_)));
    let s = g.to_move().unwrap();
    let before = g.in_box(s);
    g.play_move(&l[0]).unwrap();
    assert_eq!(g.in_box(s), before - 1);
    while g.phase() == Phase::ClassicBalls {
        let l = g.legal();
        g.play_move(&l[below(&mut r, l.len())]).unwrap();
    }
    assert!(matches!(g.phase(), Phase::Movement | Phase::Over));
    // Every ball has an empty neighbour and no two balls of one colour touch.
    let b = &g.board;
    for s in 0..3 {
        for i in super::board::bits(b.m.pawns[s]) {
            assert!(b.nb[i] & b.m.empty() != 0);
            assert!(b.nb[i] & b.m.pawns[s] == 0);
        }
    }
}

#[test]
fn s4_3_ball_phase_auto_pass() {
    // A hand-built ball phase: White has a ball left but every empty tile touches a white ball.
    // White on 2; the empty 1, 3 and 7 all touch it, so White cannot place; Red can.
    let mut g = position(
        &["-classic"],
        2,
        &[(2, 'p', '0'), (1, 'p', '.'), (3, 'p', '.'), (7, 'p', '.')],
        0,
    );
    g.phase = Phase::ClassicBalls;
    g.in_box = [1, 1, 0];
    g.advance_for_test();
    // One automatic entry, White's, who stays in: a pass.
    assert_eq!(g.autos(), [0]);
    assert_eq!(g.seat_state(0), SeatState::In);
    assert_eq!(g.to_move(), Some(1));
}

// ---- 5.1 a turn -----------------------------------------------------------------------------------

#[test]
fn s5_1_pawns_move_only_through_empty_tiles() {
    let g = position(&[], 2, &line(['0', '.', '1', '.', '.']), 0);
    assert!(matches!(
        err(&g, "14-2,8"),
        IllegalMove::NotReachable { from: 14, to: 2 }
    ));
    assert!(matches!(
        err(&g, "1-2,8"),
        IllegalMove::NotYourPawn { at: 1, .. }
    ));
    assert!(matches!(err(&g, "5-2,8"), IllegalMove::NoPawn(5)));
    assert!(matches!(err(&g, "14-1,8"), IllegalMove::Occupied(1)));
    assert!(matches!(err(&g, "14-14,8"), IllegalMove::SameTile));
    assert!(matches!(err(&g, "14-30,8"), IllegalMove::NotATile(30)));
    assert!(matches!(err(&g, "14-5,1"), IllegalMove::RemoveOccupied(1)));
    assert!(g.legal().contains(&Move::Turn {
        from: 14,
        to: 5,
        remove: 8
    }));
}

#[test]
fn s5_1_move_captures_enemy_group_without_freedom() {
    // Blue on 8 (line end) and on 4; red on 5 moves to 2, taking the last freedom of blue 8.
    let mut g = position(&[], 2, &capture_board(), 0);
    g.play_str("5-2,14").unwrap();
    assert_eq!(pawn_at(&g, 8), None, "blue 8 captured by the move");
    assert_eq!(pawn_at(&g, 4), Some(1), "blue 4 keeps its freedom on 1");
    assert_eq!(pawn_at(&g, 2), Some(0));
    assert_eq!(g.result(), None);
}

#[test]
fn s5_1_self_capture_after_enemy_capture_gives_freedom_back() {
    // 1 empty; red 2; blue 3 and 9 (a group). Removing 1 takes the last freedom of both; blue is
    // captured first, which frees 3 and 9 next to red 2, so red survives.
    let tiles = [(1, 'p', '.'), (2, 'p', '0'), (3, 'p', '1'), (9, 'p', '1')];
    let mut g = position(&["-move_or_remove"], 2, &tiles, 0);
    g.play_str("x1").unwrap();
    assert_eq!(g.result(), Some(&Outcome::Winner(0)));
    assert_eq!(pawn_at(&g, 2), Some(0), "red got its freedom back");
    assert_eq!(pawn_at(&g, 3), None);
    assert_eq!(pawn_at(&g, 9), None);
    assert_eq!(g.board.tile_at(1), None);
}

#[test]
fn s5_1_self_capture_when_no_enemy_is_captured() {
    // Red 2 and blue 3 side by side... red's only freedom is 1 and blue keeps 4: red removes 1 and loses 2.
    let tiles = [
        (1, 'p', '.'),
        (2, 'p', '0'),
        (3, 'p', '1'),
        (4, 'p', '.'),
        (5, 'p', '0'),
        (14, 'p', '.'),
    ];
    let mut g = position(&["-move_or_remove"], 2, &tiles, 0);
    g.play_str("x1").unwrap();
    assert_eq!(pawn_at(&g, 2), None, "suicide by removal");
    assert_eq!(pawn_at(&g, 3), Some(1));
    assert_eq!(pawn_at(&g, 5), Some(0));
}

#[test]
fn s5_1_three_players_both_enemies_captured_at_once() {
    // Blue 2 and green 7 have their last freedom on 1; red moves 5 -> 1 and captures both at once.
    let tiles = [(5, 'p', '0'), (1, 'p', '.'), (2, 'p', '1'), (7, 'p', '2')];
    let mut g = position(&[], 3, &tiles, 0);
    g.play_str("5-1,5").unwrap();
    assert_eq!(pawn_at(&g, 2), None);
    assert_eq!(pawn_at(&g, 7), None);
    assert_eq!(
        g.result(),
        Some(&Outcome::Winner(0)),
        "capture-all with three players wins"
    );
}

// ---- 5.2 which turns are legal --------------------------------------------------------------------

#[test]
fn s5_2_move_alone_when_no_pair_is_legal() {
    // Flower variant: red 2, blue 3..7; the only pair 2-1,2 would capture, which the equaliser forbids.
    let tiles = [
        (1, 'p', '.'),
        (2, 'p', '0'),
        (3, 'p', '1'),
        (4, 'p', '1'),
        (5, 'p', '1'),
        (6, 'p', '1'),
        (7, 'p', '1'),
    ];
    let mut g = position(&[], 2, &tiles, 0);
    g.had_turn = [false; 3];
    assert_eq!(GameState::legal_moves(&rec(&g)), ["2-1"]);
    assert!(matches!(err(&g, "2-1,2"), IllegalMove::Equaliser(_)));
    g.play_str("2-1").unwrap();
    assert_eq!(g.streak, 1);
}

#[test]
fn s5_2_must_move_and_remove_when_possible() {
    let g = position(&[], 2, &line4(['0', '.', '.', '.', '1']), 0);
    assert!(matches!(err(&g, "14-5"), IllegalMove::Form(_)));
    assert!(matches!(err(&g, "x4"), IllegalMove::Form(_)));
    assert!(g.legal().iter().all(|m| matches!(m, Move::Turn { .. })));
}

#[test]
fn s5_2_auto_pass_when_nothing_is_legal() {
    // Flower: every red move captures a blue pawn (forbidden on red's first turn) and the centre has no
    // free edge, so red passes; blue then moves.
    let mut g = position(&[], 2, &flower(), 0);
    g.had_turn = [false; 3];
    assert!(g.legal_acts().is_empty());
    g.advance_for_test();
    assert_eq!(g.autos(), [0]);
    assert_eq!(g.seat_state(0), SeatState::In, "a pass");
    assert_eq!(g.to_move(), Some(1));
    let g = Match::from_position(g);
    assert!(!GameState::legal_moves(&g).is_empty());
    assert!(GameState::legal_moves(&g).iter().all(|m| m != "pass"));
}

// ---- 5.3 cut-off parts ----------------------------------------------------------------------------

#[test]
fn s5_3_removal_cutting_off_an_empty_part_removes_it() {
    // Red 14, blue 1; removing 2 cuts off the empty 8, which leaves the game.
    let mut g = position(&["-move_or_remove"], 2, &line(['0', '.', '1', '.', '.']), 0);
    g.play_str("x2").unwrap();
    assert_eq!(g.board.tile_at(2), None);
    assert_eq!(g.board.tile_at(8), None, "the empty part vanished");
    assert!(g.board.connected(g.board.m.tiles));
}

#[test]
fn s5_3_removal_that_would_cut_off_pawns_is_illegal() {
    let g = position(&["-move_or_remove"], 2, &line(['.', '1', '.', '0', '.']), 0);
    assert!(matches!(err(&g, "x1"), IllegalMove::WouldIsolate(1)));
}

#[test]
fn s5_3_can_isolate_captures_the_cut_off_pawns_without_freedom() {
    // Blue 5 is next only to 1 (and 14, which holds a blue pawn too); removing 1 cuts {14, 5} off with no
    // freedom, so they are captured; the red part keeps its freedom on 8.
    let tiles = line(['1', '1', '.', '0', '.']);
    let g = position(&["-move_or_remove"], 2, &tiles, 0);
    assert!(matches!(err(&g, "x1"), IllegalMove::WouldIsolate(1)));
    let mut g = position(&["-move_or_remove", "-can_isolate"], 2, &tiles, 0);
    g.play_str("x1").unwrap();
    assert_eq!(g.board.tile_at(5), None);
    assert_eq!(g.board.tile_at(14), None);
    assert_eq!(g.result(), Some(&Outcome::Winner(0)));
}

#[test]
fn s5_3_can_isolate_refuses_cutting_off_free_pawns() {
    // Red 5 with freedom 14 on one side, blue 2 with freedom 8 on the other.
    let g = position(
        &["-move_or_remove", "-can_isolate"],
        2,
        &line(['.', '0', '.', '1', '.']),
        0,
    );
    assert!(matches!(err(&g, "x1"), IllegalMove::IsolateFree(1)));
}

#[test]
fn s5_3_board_stays_connected_after_every_turn() {
    for seed in 0..10 {
        let mut g = Position::new(Config::default(), 2, seed).unwrap();
        let mut r = rng(seed);
        while g.phase() == Phase::Movement {
            let a = g.legal_acts();
            g.commit_act(a[below(&mut r, a.len())]);
            assert!(g.board.connected(g.board.m.tiles));
        }
    }
}

// ---- 5.4 move and remove --------------------------------------------------------------------------

#[test]
fn s5_4_move_and_remove_eliminates() {
    // The flower with the equaliser: red has no legal pair, so under -move_and_remove it is eliminated.
    let mut g = position(&["-move_and_remove"], 2, &flower(), 0);
    g.had_turn = [false; 3];
    g.advance_for_test();
    assert_eq!(g.autos(), [0]);
    assert_eq!(g.seat_state(0), SeatState::Eliminated);
    assert_eq!(g.result(), Some(&Outcome::Winner(1)));
}

#[test]
fn s5_4_move_or_remove_allows_one_not_both() {
    let mut g = position(
        &["-move_or_remove"],
        2,
        &line4(['0', '.', '.', '.', '1']),
        0,
    );
    assert!(matches!(err(&g, "14-5,1"), IllegalMove::Form(_)));
    let l = GameState::legal_moves(&rec(&g));
    assert!(
        l.contains(&"14-5".to_string())
            && l.contains(&"x4".to_string())
            && l.iter().all(|m| !m.contains(','))
    );
    g.play_str("14-1").unwrap();
    assert_eq!(g.to_move(), Some(1));
}

#[test]
fn s5_4_move_and_remove_refuses_a_move_alone() {
    let g = position(
        &["-move_and_remove"],
        2,
        &line(['0', '.', '.', '.', '1']),
        0,
    );
    assert!(matches!(err(&g, "14-5"), IllegalMove::Form(_)));
}

// ---- 5.5 equaliser --------------------------------------------------------------------------------

#[test]
fn s5_5_equaliser_refuses_a_capture_on_the_first_turn() {
    // Red 5 moving to 2 captures blue 8.
    let mut g = position(&[], 2, &capture_board(), 0);
    g.had_turn = [false; 3];
    assert!(matches!(err(&g, "5-2,14"), IllegalMove::Equaliser(_)));
    g.had_turn = [true; 3];
    assert!(g.clone().play_str("5-2,14").is_ok());
    let mut off = position(&["-no_equaliser"], 2, &capture_board(), 0);
    off.had_turn = [false; 3];
    assert!(off.play_str("5-2,14").is_ok());
}

#[test]
fn s5_5_three_players_only_the_third_may_capture_in_the_first_round() {
    let tiles = capture_board();
    for (mover, allowed) in [(0, false), (1, false), (2, true)] {
        // Rotate the pawns so that `mover` plays the capture.
        let t: Vec<(u32, char, char)> = tiles
            .iter()
            .map(|&(n, c, p)| {
                let q = match p {
                    '0' => char::from(b'0' + mover as u8),
                    '1' => char::from(b'0' + ((mover + 1) % 3) as u8),
                    x => x,
                };
                (n, c, q)
            })
            .collect();
        let mut g = position(&[], 3, &t, mover);
        g.had_turn = [false; 3];
        assert_eq!(
            g.clone().play_str("5-2,14").is_ok(),
            allowed,
            "seat {mover}"
        );
    }
}

#[test]
fn s5_5_first_default_game_turn_captures_nothing() {
    for seed in 0..20 {
        let g = Position::new(Config::default(), 2, seed).unwrap();
        let total = g.board.m.occupied().count_ones();
        for a in g.legal_acts() {
            let mut h = g.clone();
            h.commit_act(a);
            assert_eq!(h.board.m.occupied().count_ones(), total);
        }
    }
}

// ---- 6.1 endings ----------------------------------------------------------------------------------

#[test]
fn s6_1_last_player_with_pawns_wins() {
    let mut g = position(&[], 2, &line(['.', '0', '.', '.', '1']), 0);
    g.play_str("5-2,5").unwrap();
    assert_eq!(g.result(), Some(&Outcome::Winner(0)));
    assert!(matches!(
        g.clone().play_str("2-1,8"),
        Err(IllegalMove::GameOver)
    ));
    let g = Match::from_position(g);
    assert_eq!(GameState::status(&g), Status::Over(Outcome::Winner(0)));
    assert!(GameState::legal_moves(&g).is_empty());
    let e = GameState::play(&mut g.clone(), "2-1,8").unwrap_err();
    assert_eq!(e.0, "the game is over (Red wins)");
}

#[test]
fn s6_1_turn_leaving_no_pawn() {
    // Under the capture order of 5.1 a removal that captures the last enemy always leaves the mover a
    // freedom (the captured tiles are empty and touch the board), so no real turn can clear the board;
    // the rule is checked here on the ending itself.
    let mut g = position(&[], 2, &line(['0', '.', '.', '.', '1']), 0);
    g.board.m.pawns = [0; 3];
    g.finish_turn_for_test(0, &[0, 1]);
    assert_eq!(
        g.result(),
        Some(&Outcome::Winner(1)),
        "two in: the mover loses"
    );
    let mut g = position(&[], 3, &line(['0', '.', '2', '.', '1']), 0);
    g.board.m.pawns = [0; 3];
    g.finish_turn_for_test(0, &[0, 1, 2]);
    assert_eq!(
        g.result(),
        Some(&Outcome::Draw(vec![0, 1, 2])),
        "three in: a tie"
    );
    let mut g = position(&["-classic"], 2, &line(['0', '.', '.', '.', '1']), 0);
    g.board.m.pawns = [0; 3];
    g.finish_turn_for_test(1, &[0, 1]);
    assert_eq!(
        g.result(),
        Some(&Outcome::Winner(1)),
        "classic: capturing every ball wins"
    );
}

#[test]
fn s6_1_stalemate_draw() {
    let mut g = position(&["-move_or_remove"], 2, &line(['0', '.', '.', '.', '1']), 0);
    g.play_str("14-5").unwrap();
    assert_eq!(g.result(), None);
    g.play_str("8-2").unwrap();
    assert_eq!(g.result(), Some(&Outcome::Draw(vec![0, 1])));
    // A removal in between restarts the count.
    let mut g = position(&["-move_or_remove"], 2, &line(['0', '.', '.', '.', '1']), 0);
    g.play_str("14-5").unwrap();
    g.play_str("x14").unwrap();
    g.play_str("5-1").unwrap();
    assert_eq!(g.result(), None);
}

#[test]
fn s6_1_resignation() {
    let mut g = new_game(Config::default(), 3, 4).unwrap();
    GameState::resign(&mut g, 1).unwrap();
    assert_eq!(g.seat_state(1), SeatState::Resigned);
    assert_eq!(g.board.m.pawns[1], 0);
    assert_eq!(GameState::status(&g), Status::ToMove(0), "two play on");
    let e = GameState::resign(&mut g, 1).unwrap_err();
    assert_eq!(e.0, "Blue is no longer in the game");
    GameState::resign(&mut g, 0).unwrap();
    assert_eq!(g.result(), Some(&Outcome::Winner(2)));
    assert_eq!(GameState::status(&g), Status::Over(Outcome::Winner(2)));
    let back = documents::load(&g.to_json()).unwrap();
    assert_eq!(back.position(), g.position());
    assert_eq!(back.moves(), g.moves());
    // Resigning out of turn skips the resigned seat.
    let mut g = new_game(Config::default(), 3, 4).unwrap();
    GameState::resign(&mut g, 1).unwrap();
    let a = g.legal_acts()[0];
    let text = g.act_move(a).to_string();
    GameState::play(&mut g, &text).unwrap();
    assert_eq!(g.to_move(), Some(2));
}

/// Not in the rules document: the server ends games on time (`forfeit`) and by an accepted draw
/// proposal (`draw`). Both are move-list entries, so the document's replay must reproduce them.
#[test]
fn server_endings_forfeit_and_agreed_draw() {
    let mut g = new_game(Config::default(), 2, 4).unwrap();
    GameState::forfeit(&mut g, 0).unwrap();
    assert_eq!(g.result(), Some(&Outcome::Winner(1)));
    assert_eq!(g.moves().last().unwrap().text, "forfeit");
    let back = documents::load(&g.to_json()).unwrap();
    assert_eq!(back.position(), g.position());

    let mut g = new_game(Config::default(), 3, 4).unwrap();
    let a = g.legal_acts()[0];
    let text = g.act_move(a).to_string();
    GameState::play(&mut g, &text).unwrap();
    GameState::resign(&mut g, 2).unwrap();
    let mover = g.to_move().unwrap();
    GameState::agree_draw(&mut g).unwrap();
    assert_eq!(
        GameState::status(&g),
        Status::Over(Outcome::Draw(vec![0, 1])),
        "only the seats still in share it"
    );
    assert_eq!(g.phase(), Phase::Over);
    let last = g.moves().last().unwrap().clone();
    assert_eq!(
        (last.seat, last.text.as_str(), last.auto),
        (mover, "draw", false)
    );
    let back = documents::load(&g.to_json()).unwrap();
    assert_eq!(back.position(), g.position());
    assert_eq!(back.moves(), g.moves());
    assert!(GameState::agree_draw(&mut g).is_err());
    assert!(GameState::forfeit(&mut g, 0).is_err());
}

// ---- 6.2 classic ----------------------------------------------------------------------------------

#[test]
fn s6_2_classic_elimination_at_start_of_turn() {
    let mut g = position(&["-classic"], 2, &flower(), 0);
    // White is stuck by the equaliser: every move captures and the centre has no free edge.
    g.had_turn = [false; 3];
    g.advance_for_test();
    assert_eq!(g.autos(), [0]);
    assert_eq!(g.seat_state(0), SeatState::Eliminated);
    assert_eq!(g.board.m.pawns[0], 0, "their balls leave the board");
    assert_eq!(
        g.result(),
        Some(&Outcome::Winner(1)),
        "red is the last left"
    );
}

// ---- 7 notation -----------------------------------------------------------------------------------

#[test]
fn s7_guard_is_accepted_and_ignored_by_play() {
    let mut g = Match::from_position(position(&[], 2, &line(['0', '.', '.', '.', '1']), 0));
    GameState::play(&mut g, " 14 - 5 , 14 #99").unwrap();
    assert_eq!(g.moves()[0].text, "14-5,14");
}

#[test]
fn at_move_replays_the_list() {
    let mut g = new_game(Config::default(), 2, 9).unwrap();
    let mut r = rng(2);
    g.random_playout(&mut |n| below(&mut r, n));
    let all = g.moves();
    let n = all.len() as u32;
    for k in 1..=n + 1 {
        let h = g.at_move(k).unwrap();
        let moves = h.moves();
        assert!(moves.len() as u32 >= k - 1);
        assert_eq!(moves[..], all[..moves.len()]);
    }
    assert_eq!(g.at_move(n + 1).unwrap().to_json(), g.to_json());
    assert!(g.at_move(0).is_err() && g.at_move(n + 2).is_err());
}

/// A layout can leave the first seats without a turn (size 2, three players, seed 0: Red and Blue
/// pass, as 8096aec wrote it too): the record starts with those automatic entries, and keeps them
/// through its document and replays.
#[test]
fn a_start_without_a_turn_is_the_first_entries() {
    let g = new_game(cfg(&["-size=2"]), 3, 0).unwrap();
    let first: Vec<(usize, String, bool)> = g
        .moves()
        .into_iter()
        .map(|r| (r.seat, r.text, r.auto))
        .collect();
    assert_eq!(
        first,
        [(0, "pass".to_string(), true), (1, "pass".to_string(), true)]
    );
    assert_eq!(g.to_move(), Some(2));
    assert_eq!(GameState::move_number(&g), 3);
    let back = documents::load(&g.to_json()).unwrap();
    assert_eq!(back.moves(), g.moves());
    assert_eq!(g.at_move(3).unwrap().moves(), g.moves());
    assert_eq!(
        GameState::turn_notes(&g, 1),
        [
            "Red passes (Auto): Red had no legal turn.",
            "Blue passes (Auto): Blue had no legal turn."
        ]
    );
}

#[test]
fn view_lists_tiles_and_open_cells() {
    let g = new_game(cfg(&["-manual", "-size=2"]), 2, 0).unwrap();
    let v = g.board_view();
    assert_eq!(v.cells.len(), 1);
    assert_eq!((v.cells[0].number, v.cells[0].tile.as_deref()), (1, None));
    assert!(v.cells[0].open);
    assert_eq!(v.to_move, Some(0));
    assert_eq!(v.status, "Red to lay a tile (placement phase)");
    let g = new_game(Config::default(), 2, 0).unwrap();
    let v = g.board_view();
    assert_eq!(v.cells.len(), 32);
    assert!(v.cells.iter().all(|c| c.tile.is_some()));
    assert_eq!(
        v.sides.iter().map(|s| s.on_board).collect::<Vec<_>>(),
        [8, 8]
    );
    assert_eq!(v.status, "Red to move (movement phase)");
}

#[test]
fn help_names_every_option() {
    let h = Limit.help();
    for o in [
        "-size",
        "-manual",
        "-classic",
        "-must_touch",
        "-free_edges",
        "-equaliser",
        "-no_equaliser",
        "-no_isolate",
        "-can_isolate",
        "-move_and_remove",
        "-move_or_remove",
        "3-7,4",
        "12,13@13",
        "@17",
        "(Auto)",
    ] {
        assert!(h.contains(o), "{o}");
    }
}

/// The board mail's words for an `(Auto)` entry say why it was made (issue 16), for every kind the
/// engine makes: passes in placement and movement, and eliminations.
#[test]
fn turn_notes_explain_every_auto_entry() {
    let mut seen = std::collections::BTreeSet::new();
    for (words, players) in [
        (&["-classic", "-size=4"][..], 3),
        (&["-size=4"][..], 3),
        (&["-size=4", "-move_or_remove"][..], 3),
        (&["-size=4", "-move_or_remove"][..], 2),
    ] {
        let Ok(c) = Config::from_options(
            &words
                .iter()
                .map(|w| GameOption::parse(w).unwrap())
                .collect::<Vec<_>>(),
        ) else {
            continue;
        };
        for seed in 0..25u64 {
            let mut g = new_game(c, players, seed).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            while let Status::ToMove(_) = GameState::status(&g) {
                let moves = GameState::legal_moves(&g);
                GameState::play(&mut g, &moves[below(&mut rng, moves.len())]).unwrap();
            }
            let records = g.moves();
            // Every entry counts, the engine's too.
            assert_eq!(GameState::move_number(&g) as usize, records.len() + 1);
            let replayed = g.replayed();
            for (k, rec) in records.iter().enumerate().filter(|(_, r)| r.auto) {
                let notes = g.turn_notes(k as u32 + 1);
                let side = g.side_title(rec.seat);
                assert!(
                    notes
                        .first()
                        .is_some_and(|n| n.starts_with(&side) && n.contains("(Auto)")),
                    "{words:?} seed {seed}, entry {} ({}): {notes:?}",
                    k + 1,
                    rec.text
                );
                seen.insert(format!("{} {:?}", rec.text, replayed[k].1.phase()));
            }
        }
    }
    assert!(
        seen.len() >= 2 && seen.iter().any(|k| k.starts_with("eliminated")),
        "too few kinds of (Auto) entries met: {seen:?}"
    );
}

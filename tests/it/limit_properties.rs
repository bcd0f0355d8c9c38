//! Property tests of the Limit engine over random games: every rule set, both player counts and a spread of
//! options. Case counts are kept small so that the file runs in seconds in a debug build.

use crate::common::props::{string_of, with_cases};
use pbem::games::limit::board::bits;
use pbem::games::limit::layout::below;
use pbem::games::limit::layout::{check_layout, random_layout};
use pbem::games::limit::{Config, Move, Phase, Position, documents, new_game};
use pbem::games::{GameOption, GameState};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use proptest::prelude::*;

const OPTION_SETS: &[&[&str]] = &[
    &[],
    &["-classic"],
    &["-classic", "-size=3", "-must_touch=1"],
    &["-manual", "-size=4"],
    &["-manual", "-size=3", "-must_touch=1", "-can_isolate"],
    &["-move_or_remove", "-size=5"],
    &["-move_and_remove", "-free_edges=2"],
    &["-can_isolate", "-no_equaliser", "-size=6"],
    &["-free_edges=3", "-size=4"],
    &["-size=2"],
    &["-size=16", "-must_touch=1"],
];

fn config(words: &[&str]) -> Config {
    let opts: Vec<GameOption> = words
        .iter()
        .map(|w| GameOption::parse(w).unwrap())
        .collect();
    Config::from_options(&opts).unwrap()
}

/// The seeded random stream of these random games.
fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// The board is connected and every group on it has a freedom.
fn check_board(g: &Position) {
    let b = g.board();
    assert!(b.connected(b.m.tiles), "board not connected");
    if g.phase() != Phase::Manual {
        for s in 0..3 {
            assert_eq!(
                b.captured_all(b.m.pawns[s], b.m.empty()),
                0,
                "a group of seat {} has no freedom",
                s
            );
        }
    }
}

/// A legal move with one of its numbers changed.
fn mutate(m: &Move, r: &mut ChaCha8Rng) -> String {
    let d = [1u32, 2, 6, 13][below(r, 4)];
    let up = below(r, 2) == 0;
    let bump = move |n: u32| {
        if up {
            n + d
        } else {
            n.saturating_sub(d).max(1)
        }
    };
    match *m {
        Move::Turn { from, to, remove } => match (from + to + remove) % 3 {
            0 => format!("{}-{to},{remove}", bump(from)),
            1 => format!("{from}-{}", bump(to)) + &format!(",{remove}"),
            _ => format!("{from}-{to},{}", bump(remove)),
        },
        Move::Step { from, to } => format!("{from}-{}", bump(to)),
        Move::Remove { tile } => format!("x{}", bump(tile)),
        Move::Lay { at, .. } => format!("{}{}", ["r", "b", "g", "k"][(at % 4) as usize], bump(at)),
        Move::Pair { a, b, ball } => match ball {
            Some(x) => format!("{a},{}@{x}", bump(b)),
            None => format!("{},{b}", bump(a)),
        },
        Move::Ball { at } => format!("@{}", bump(at)),
    }
}

proptest! {
    #![proptest_config(with_cases(40))]

    #[test]
    fn random_games_keep_every_invariant(
        set in 0..OPTION_SETS.len(),
        players in 2usize..=3,
        seed: u64,
        walk: u64,
    ) {
        let cfg = config(OPTION_SETS[set]);
        let mut g = new_game(cfg, players, seed).unwrap();
        let mut r = rng(walk);
        let mut steps = 0;
        loop {
            check_board(&g);
            let legal = g.legal();
            if g.phase() == Phase::Over {
                assert!(legal.is_empty());
                break;
            }
            assert!(
                !legal.is_empty(),
                "a player to move always has a legal move"
            );
            // Notation round-trips, and every listed move (a sample on big lists) plays.
            let stride = (legal.len() / 12).max(1);
            for m in legal.iter().step_by(stride) {
                let text = m.to_string();
                assert_eq!(Move::parse(&text).unwrap().0, *m);
                assert_eq!(
                    Move::parse(&text.to_uppercase().replace(',', " , "))
                        .unwrap()
                        .0,
                    *m
                );
                let mut h = g.position().clone();
                assert!(h.play_str(&text).is_ok(), "listed move {} refused", text);
            }
            // Anything not listed fails and changes nothing, on the record too.
            for _ in 0..6 {
                let m = &legal[below(&mut r, legal.len())];
                let bad = mutate(m, &mut r);
                let listed = Move::parse(&bad)
                    .map(|(x, _)| legal.contains(&x))
                    .unwrap_or(false);
                if !listed {
                    let mut h = g.clone();
                    assert!(GameState::play(&mut h, &bad).is_err(), "unlisted move {} accepted", bad);
                    assert_eq!(h.position(), g.position());
                    assert_eq!(h.moves(), g.moves());
                }
            }
            let m = legal[below(&mut r, legal.len())];
            GameState::play(&mut g, &m.to_string()).unwrap();
            steps += 1;
            if steps % 7 == 0 {
                let text = g.to_json();
                let back = documents::load(&text).unwrap();
                assert_eq!(back.position(), g.position());
                assert_eq!(back.moves(), g.moves());
                assert_eq!(back.to_json(), text);
            }
            assert!(steps < 400, "game did not end");
        }
        let text = g.to_json();
        assert_eq!(documents::load(&text).unwrap().to_json(), text);
    }

    #[test]
    fn fast_playouts_end_with_every_invariant(
        set in 0..OPTION_SETS.len(),
        players in 2usize..=3,
        seed: u64,
        walk: u64,
    ) {
        let mut g = new_game(config(OPTION_SETS[set]), players, seed).unwrap();
        let mut r = rng(walk);
        g.random_playout(&mut |n| below(&mut r, n));
        assert_eq!(g.phase(), Phase::Over);
        check_board(&g);
        // The fast path plays only legal moves: the replay of its move list agrees.
        let back = documents::load(&g.to_json()).unwrap();
        assert_eq!(back.position(), g.position());
        assert_eq!(back.moves(), g.moves());
    }

    #[test]
    fn random_layouts_meet_their_three_constraints(
        size in 2u32..=16,
        players in 2usize..=3,
        must_touch in 1u32..=2,
        seed: u64,
    ) {
        let l = random_layout(seed, size, players, must_touch);
        assert_eq!(check_layout(&l, size, players, must_touch), Ok(()));
        // The board of a new game is that layout with the pawns on their colours.
        let cfg = config(&[
            &format!("-size={size}"),
            &format!("-must_touch={must_touch}"),
        ]);
        let g = Position::new(cfg, players, seed).unwrap();
        let b = g.board();
        assert_eq!(b.laid(), 4 * size as usize);
        for s in 0..players {
            assert_eq!(bits(b.m.pawns[s]).count(), size as usize);
        }
    }

    #[test]
    fn nonsense_never_plays(
        text in string_of("0123456789abcdefghijklmnopqrstuvwxyz@#,x -", 0..=12),
        seed in 0u64..50,
    ) {
        let g = Position::new(Config::default(), 2, seed).unwrap();
        let legal = g.legal();
        let listed = Move::parse(&text)
            .map(|(m, _)| legal.contains(&m))
            .unwrap_or(false);
        let mut h = g.clone();
        assert_eq!(h.play_str(&text).is_ok(), listed);
    }
}

//! The games whose own playout only makes the search's generic one faster must draw exactly as it
//! does: the same actions from the same random numbers, so the robots play the same moves.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

use super::pos::{below, random_actions};
use crate::games::{GameOption, GameState, Registry};

/// Plays `g` out both ways from the same seed; panics naming the game and seed if they part.
fn same_both_ways(name: &str, g: &dyn GameState, seed: u64) {
    let (mut own, mut generic) = (g.search_copy(), g.search_copy());
    let (mut own_played, mut generic_played) = (Vec::new(), Vec::new());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pick = |n: usize| below(&mut rng, n);
    assert!(
        own.search_playout(&mut pick, Some(&mut own_played)),
        "{name} plays out with its own code"
    );
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pick = |n: usize| below(&mut rng, n);
    random_actions(
        generic.as_mut(),
        &mut pick,
        Some(&mut generic_played),
        &mut Vec::new(),
    );
    assert_eq!(
        own_played, generic_played,
        "{name}, seed {seed}: the actions"
    );
    // The board, not the document: a game on `matchplay::Match` plays its own playout on the
    // position alone, and the move list of a search's copy stays behind (the search never reads it).
    assert_eq!(
        own.render(),
        generic.render(),
        "{name}, seed {seed}: the game"
    );
    assert_eq!(
        own.status(),
        generic.status(),
        "{name}, seed {seed}: the end"
    );
}

#[test]
fn chameleon_playouts_draw_as_the_generic_loop() {
    let registry = Registry::standard();
    let cases: [(&str, &[&str]); 3] = [
        ("chameleon", &[]),
        ("chameleon", &["-size=5"]),
        ("chameleon", &["-size=19"]),
    ];
    for (name, words) in cases {
        let rules = registry.find(name).expect("a standard game");
        let options: Vec<GameOption> = words
            .iter()
            .map(|w| GameOption::parse(w).expect("an option"))
            .collect();
        for seed in 0..40u64 {
            let mut g = rules.new_game(&options, 2, seed).expect("a new game");
            // From the first position (Y's swap is legal at the second) and from games under way.
            let mut rng = ChaCha8Rng::seed_from_u64(seed + 100);
            let mut acts = Vec::new();
            for _ in 0..(seed % 8) * (seed % 3) {
                g.legal_actions(&mut acts);
                if acts.is_empty() {
                    break;
                }
                g.apply_action(acts[rng.next_u32() as usize % acts.len()]);
            }
            same_both_ways(name, g.as_ref(), seed);
        }
    }
}

/// Game `name` at `words`: a random game from seed `seed`, `back` plies before its end.
fn near_the_end(name: &str, words: &[&str], seed: u64, back: usize) -> Box<dyn GameState> {
    let registry = Registry::standard();
    let rules = registry.find(name).expect("a standard game");
    let options: Vec<GameOption> = words
        .iter()
        .map(|w| GameOption::parse(w).expect("an option"))
        .collect();
    let start = rules.new_game(&options, 2, seed).expect("a new game");
    let mut g = start.search_copy();
    let mut rng = ChaCha8Rng::seed_from_u64(seed + 100);
    let (mut acts, mut line) = (Vec::new(), Vec::new());
    loop {
        g.legal_actions(&mut acts);
        if acts.is_empty() {
            break;
        }
        let a = acts[rng.next_u32() as usize % acts.len()];
        line.push(a);
        g.apply_action(a);
    }
    let mut g = start;
    for &a in &line[..line.len().saturating_sub(back)] {
        g.apply_action(a);
    }
    g
}

#[test]
fn connection_games_say_exactly_which_stones_may_win() {
    // The search copies the game for each action that may win: saying so for every stone cost
    // Chameleon a fifth of its search. A stone that wins must be named (else the robot misses a win
    // in one); a stone that does not end the game must not be (else nothing was saved).
    let cases: [(&str, &[&str]); 5] = [
        ("chameleon", &["-size=5"]),
        ("chameleon", &[]),
        ("hex", &["-size=5"]),
        ("hex", &[]),
        ("y", &["-size=5"]),
    ];
    let (mut wins, mut others) = (0, 0);
    for (name, words) in cases {
        for seed in 0..30u64 {
            let g = near_the_end(name, words, seed, 1 + seed as usize % 4);
            let mut acts = Vec::new();
            g.legal_actions(&mut acts);
            for &a in &acts {
                let text = g.action_text(a);
                if text == "swap" {
                    continue;
                }
                let mut h = g.search_copy();
                h.apply_action(a);
                let ends = matches!(h.status(), crate::games::Status::Over(_));
                assert_eq!(
                    g.may_win_at_once(a),
                    ends,
                    "{name} {words:?} seed {seed}: {text} {}",
                    if ends { "ends the game" } else { "does not" }
                );
                if ends { wins += 1 } else { others += 1 }
            }
        }
    }
    assert!(
        wins > 20 && others > 1000,
        "{wins} winning stones, {others} others"
    );
}

#[test]
fn sort_keys_order_priors_as_total_cmp_does() {
    let xs = [
        f32::NEG_INFINITY,
        -1e30,
        -2.5,
        -1.0,
        -f32::MIN_POSITIVE,
        -0.0,
        0.0,
        f32::MIN_POSITIVE,
        0.25,
        1.0,
        7.5,
        1e30,
        f32::INFINITY,
        f32::NAN,
        -f32::NAN,
    ];
    for &a in &xs {
        for &b in &xs {
            assert_eq!(
                super::tree::total_order_key(a).cmp(&super::tree::total_order_key(b)),
                a.total_cmp(&b),
                "{a} against {b}"
            );
        }
    }
}

/// An Ataxx 7×7 game under way, Black to move, in which Black leads by at least `lead` pieces and
/// White still has four: the first seeded random game that gets there.
fn ataxx_with_black_ahead(lead: i64) -> Box<dyn GameState> {
    let rules = Registry::standard().find("ataxx").expect("a standard game");
    let count = |g: &dyn GameState, seat: usize| {
        g.board_view()
            .cells
            .iter()
            .filter(|c| c.piece == Some(seat))
            .count() as i64
    };
    let mut acts = Vec::new();
    for seed in 0..100 {
        let mut g = rules.new_game(&[], 2, 0).expect("a new game");
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while let crate::games::Status::ToMove(seat) = g.status() {
            let (black, white) = (count(g.as_ref(), 0), count(g.as_ref(), 1));
            if seat == 0 && black >= white + lead && white >= 4 {
                return g;
            }
            g.legal_actions(&mut acts);
            g.apply_action(acts[below(&mut rng, acts.len())]);
        }
    }
    panic!("no seed below 100 gives Black a lead of {lead}");
}

#[test]
fn ataxx_playouts_stop_short_and_the_game_judges_them() {
    let g = ataxx_with_black_ahead(8);
    let pos = super::pos::Pos::new(g.as_ref());
    let mut judged = 0;
    for seed in 0..50u64 {
        let mut h = g.search_copy();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (r, cut) = pos.playout(h.as_mut(), &mut rng, None, &mut Vec::new());
        if cut {
            judged += 1;
            // The rewards are the game's value of the position the playout stopped in.
            assert!(super::pos::to_move(h.as_ref()).is_some(), "seed {seed}");
            assert_eq!(r[0], h.playout_value(0).unwrap(), "seed {seed}");
            assert_eq!(r[1], h.playout_value(1).unwrap(), "seed {seed}");
            assert!((r[0] + r[1] - 1.0).abs() < 1e-6, "{r:?}");
        } else {
            assert!(super::pos::to_move(h.as_ref()).is_none(), "seed {seed}");
        }
    }
    assert!(judged > 40, "{judged} of 50 playouts judged");
    // Black leads by 8 with most of the board empty: the search, counting judged playouts as they
    // are (not as draws, and without the contempt for draws), rates Black's best move well above a
    // half. Taken as shared points, the playouts would give Black 0.1 (half a point less contempt).
    let t = super::think(g.as_ref(), super::Budget::playouts(2_000), 7).expect("a move");
    assert_eq!(t.proven, None, "{t:?}");
    assert!(t.value > 0.7, "{t:?}");
}

#[test]
fn hexxagon_playouts_still_play_to_the_end() {
    let rules = Registry::standard()
        .find("hexxagon")
        .expect("a standard game");
    let g = rules.new_game(&[], 2, 0).expect("a new game");
    let pos = super::pos::Pos::new(g.as_ref());
    for seed in 0..5u64 {
        let mut h = g.search_copy();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (_, cut) = pos.playout(h.as_mut(), &mut rng, None, &mut Vec::new());
        assert!(!cut && super::pos::to_move(h.as_ref()).is_none());
        assert_eq!(h.playout_value(0), None);
    }
}

/// Searches the first position of `name` at `words` for `iterations` iterations with a tree capped
/// at `cap` bytes; returns the tree's largest count of bytes and of nodes after any iteration, the
/// root's visits, and the move chosen.
fn capped_search(
    name: &str,
    words: &[&str],
    cap: usize,
    iterations: u32,
) -> (usize, usize, u32, String) {
    let rules = Registry::standard().find(name).expect("a standard game");
    let options: Vec<GameOption> = words
        .iter()
        .map(|w| GameOption::parse(w).expect("an option"))
        .collect();
    let g = rules.new_game(&options, 2, 1).expect("a new game");
    let pos = super::pos::Pos::new(g.as_ref());
    let me = super::pos::to_move(g.as_ref()).expect("a player to move");
    let mut tree = super::tree::Tree::new(g.as_ref(), pos, me).with_cap(cap);
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let (mut most_bytes, mut most_nodes) = (0, 0);
    for _ in 0..iterations {
        tree.iterate(g.as_ref(), &mut rng);
        most_bytes = most_bytes.max(tree.bytes());
        most_nodes = most_nodes.max(tree.nodes.len());
        // The count the cap is held to is never below what the nodes really hold.
        assert!(
            tree.recount() <= tree.bytes(),
            "{name}: the count fell short"
        );
    }
    let visits = tree.nodes[0].visits;
    let (action, _) = tree.choice();
    (most_bytes, most_nodes, visits, g.action_text(action))
}

#[test]
fn a_full_tree_stops_growing_and_searches_on() {
    // Chameleon 11 x 11 lists all 121 stones of a node at once: 600 iterations grew a tree of
    // megabytes before the cap. Capped at 256 KB, it stays within one listing (121 nodes and their
    // room in the list) above the cap, and every iteration still counts at the root.
    let cap = 256 << 10;
    let slack = 121 * 200;
    let (bytes, nodes, visits, mv) = capped_search("chameleon", &["-size=11"], cap, 600);
    assert!(bytes <= cap + slack, "{bytes} bytes held, the cap is {cap}");
    assert!(nodes <= (cap + slack) / 96, "{nodes} nodes");
    assert_eq!(visits, 600, "every iteration backs up through the root");
    assert!(!mv.is_empty());
    // The same search uncapped goes far past it: the cap is what held it.
    let (bytes, _, _, _) = capped_search("chameleon", &["-size=11"], usize::MAX, 600);
    assert!(
        bytes > 2 * cap,
        "uncapped, the tree held only {bytes} bytes"
    );
    // A game with priors (widened one child at a time) is held too.
    let (bytes, _, visits, _) = capped_search("hex", &["-size=11"], cap / 4, 600);
    assert!(bytes <= cap / 4 + slack, "hex: {bytes} bytes held");
    assert_eq!(visits, 600);
}

#[test]
fn children_not_yet_visited_take_a_few_bytes() {
    // Games without priors list every action of a position as a child at once, and most are never
    // visited: Hex 11's robot3 tree held 172 MB at its first move, Chameleon 11's 512 MB, nearly all of
    // it such children as nodes of about a hundred bytes. Kept as leaves (an action and its RAVE
    // counts) until their first visit, they take 16 bytes each.
    for (name, words, most) in [
        ("hex", &["-size=11"][..], 3_000),
        ("chameleon", &["-size=11"][..], 7_000),
        ("y", &[][..], 3_000),
    ] {
        let iterations = 1_500;
        let (bytes, _, visits, _) = capped_search(name, words, usize::MAX, iterations);
        assert_eq!(visits, iterations, "{name}: every iteration counted");
        let per = bytes / iterations as usize;
        eprintln!("{name}: {bytes} bytes, {per} an iteration");
        assert!(
            per <= most,
            "{name}: {per} bytes an iteration (at most {most})"
        );
    }
}

/// What robot searches of `playouts` playouts find from the first position of `name` at its default
/// board: the first player's search, then (its tree kept) its next, two plies on (the reply chosen by
/// a small search); for each the move, playouts, reused visits, nodes and the value's bits.
fn two_searches(name: &str, playouts: u32) -> Vec<(String, u32, u32, usize, u32)> {
    let rules = Registry::standard().find(name).expect("a standard game");
    let mut g = rules.new_game(&[], 2, 1).expect("a new game");
    let budget = super::Budget {
        playouts,
        millis: None,
        reuse: true,
    };
    super::reuse::forget();
    let mut seen = Vec::new();
    for turn in 0..2u64 {
        let t = super::think(g.as_ref(), budget, 5 + turn).expect("a move");
        seen.push((
            t.text.clone(),
            t.playouts,
            t.reused,
            t.nodes,
            t.value.to_bits(),
        ));
        g.play(&t.text).expect("the robot's move is legal");
        let reply = super::think(g.as_ref(), super::Budget::playouts(200), 9).expect("a reply");
        g.play(&reply.text).expect("the reply is legal");
    }
    super::reuse::forget();
    seen
}

#[test]
fn leaves_search_as_nodes_did() {
    // Leaves in place of nodes change what the tree holds, not what it finds: these are the moves,
    // counts and values the search gave with every child a node (main at 91149d9, whose trees this
    // small are 8096aec's), the second move with the first's tree reused, to the bit; nodes counts
    // leaves too.
    type Seen = (&'static str, u32, u32, usize, u32);
    let before: [(&str, [Seen; 2]); 8] = [
        (
            "chameleon",
            [
                ("b:j4", 600, 0, 201123, 1061158912),
                ("w:d10", 600, 1, 196807, 1061158912),
            ],
        ),
        (
            "hex",
            [
                ("f5", 600, 0, 86183, 1060559726),
                ("d8", 600, 0, 84245, 1059061760),
            ],
        ),
        (
            "unlur",
            [
                ("c8", 600, 0, 92447, 1062557013),
                ("pass", 600, 0, 90741, 1036831949),
            ],
        ),
        (
            "y",
            [
                ("c11", 600, 0, 85342, 1065353216),
                ("d8", 600, 0, 83409, 1056964608),
            ],
        ),
        (
            "ataxx",
            [
                ("b7", 600, 0, 6733, 1058835007),
                ("a6", 600, 4, 16112, 1059558651),
            ],
        ),
        (
            "hexxagon",
            [
                ("e9f8", 600, 0, 14524, 1058013184),
                ("b1", 600, 1, 11197, 1058806010),
            ],
        ),
        (
            "cups",
            [
                ("d2", 600, 0, 963, 1056953310),
                ("d1", 600, 82, 1089, 1055131804),
            ],
        ),
        (
            "paradux",
            [
                ("c1d1-c2d2", 600, 0, 25594, 1059061760),
                ("a1a2-b2b3", 600, 1, 26667, 1062171330),
            ],
        ),
    ];
    for (name, expected) in before {
        let seen = two_searches(name, 600);
        let expected: Vec<_> = expected
            .iter()
            .map(|&(m, p, r, n, v)| (m.to_string(), p, r, n, v))
            .collect();
        assert_eq!(seen, expected, "{name}");
    }
}

/// A capped search stops once its most visited move leads by more than the iterations left, and
/// plays the move the whole budget would have played (issue 35: robot3's capped moves on Go 19x19).
#[test]
fn a_capped_search_stops_when_its_move_is_settled() {
    let rules = Registry::standard().find("go").expect("a standard game");
    let options = [GameOption::with_value("size", "9")];
    let mut stopped_early = 0;
    for seed in 1..=3u64 {
        let mut g = rules.new_game(&options, 2, seed).expect("a new game");
        // White's d5, e5 and f5 are in atari: Black's f6 takes them.
        for m in "c5 d5 d4 e5 e4 f5 f4 a1 g5 a2 d6 a3 e6 a4".split(' ') {
            g.play(m).expect("a legal move");
        }
        let whole = super::think(g.as_ref(), super::Budget::playouts(1_500), seed).expect("a move");
        // A cap no search here comes near: only the budget bounds what is left.
        let capped = super::think(
            g.as_ref(),
            super::Budget::playouts(1_500).with_millis(600_000),
            seed,
        )
        .expect("a move");
        assert_eq!(
            whole.playouts, 1_500,
            "seed {seed}: uncapped, the whole budget"
        );
        assert_eq!(
            capped.text, whole.text,
            "seed {seed}: the capped search stopped before its move was settled"
        );
        if capped.playouts < whole.playouts {
            stopped_early += 1;
        }
    }
    // Several moves win for Black here (seed 3 plays c2), so the visits may spread over them and a
    // search not settle before its end.
    assert!(
        stopped_early >= 2,
        "{stopped_early} of 3 capped searches stopped early"
    );
}

//! Hex's playouts save bridges (`src/games/hex/playout.rs`): a search on them sees a chain of bridges
//! as the players do, joined, where a search on random playouts lets each bridge be cut a quarter of
//! the time, rates a position won by a chain of bridges as open, and so does not play the stone that
//! completes one.

use pbem::games::search::{self, Budget};
use pbem::games::{GameState, Registry, Robot};

/// An 11 x 11 game (swap allowed, not taken) with Black's and White's stones placed in turn.
fn position(black: &[&str], white: &[&str]) -> Box<dyn GameState> {
    let rules = Registry::standard().find("hex").unwrap();
    let mut g = rules.new_game(&[], 2, 0).unwrap();
    for i in 0..black.len().max(white.len()) {
        for stones in [black, white] {
            if let Some(s) = stones.get(i) {
                g.play(s).unwrap();
            }
        }
    }
    g
}

/// Black's f2, e4, d6, c8 and b10 join top and bottom through six bridges whose cells are f1 g1,
/// e3 f3, d5 e5, c7 d7, b9 c9 and a11 b11 (no cell in two): whatever White does, Black answers each
/// intrusion in the same bridge's other cell and wins.
const CHAIN: [&str; 5] = ["f2", "e4", "d6", "c8", "b10"];

#[test]
fn hex_a_chain_of_bridges_is_seen_as_lost_by_the_side_cut_off() {
    // White to move, its stones away from the bridges: the game is lost for White. Measured with
    // robot2's 5,000 playouts: White's best move scored 0.20 to 0.25 on bridge-saving playouts, 0.43
    // to 0.49 on random ones (seeds 0 to 2).
    let g = position(&CHAIN, &["h3", "i5", "h8", "j9"]);
    for seed in 0..3 {
        let t = search::think(g.as_ref(), Budget::playouts(5_000), seed).unwrap();
        assert!(
            t.value < 0.33,
            "seed {seed}: White's {} scored {}, a lost position counted as open",
            t.text,
            t.value
        );
    }
}

#[test]
fn hex_robot2_completes_a_chain_of_bridges() {
    // Black to move with d6 missing from the chain, White's stones around it but on no bridge cell:
    // d6 wins (the chain above). On random playouts robot2 played e5 for seeds 1 and 2.
    let rules = Registry::standard().find("hex").unwrap();
    let black = ["f2", "e4", "c8", "b10"];
    let g = position(&black, &["c6", "d4", "f5", "g6"]);
    for seed in 0..3 {
        search::expect_move(rules, &g.to_json(), Robot::Level(2), seed, &["d6"]).unwrap();
    }
}

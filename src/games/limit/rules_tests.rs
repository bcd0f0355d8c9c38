//! One test per numbered rule of the spec, on hand-built positions.

use super::board::bit;
use super::game::{Game, Phase, SeatState};
use super::options::Config;
use super::view::TileColour;
use super::*;

fn cfg(words: &[&str]) -> Config {
    let opts: Vec<GameOption> = words
        .iter()
        .map(|w| GameOption::parse(w).unwrap())
        .collect();
    Config::from_options(&opts).unwrap()
}

struct Lcg(u64);
impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

#[test]
fn smoke_random_games_end() {
    for words in [
        &[][..],
        &["-classic"],
        &["-manual"],
        &["-move_or_remove"],
        &["-move_and_remove"],
        &["-can_isolate", "-free_edges=2"],
    ] {
        for players in [2, 3] {
            for seed in 0..5 {
                let mut g = Game::new(cfg(words), players, seed).unwrap();
                let mut r = Lcg(seed);
                let n = g.playout(&mut |n| r.below(n));
                assert_eq!(g.phase(), Phase::Over, "{words:?} {players}");
                assert!(n > 0);
                let back = json::from_json(&json::to_json(&g)).unwrap();
                assert_eq!(back, g);
            }
        }
    }
}

//! The property tests' settings and a strategy they draw from (proptest; the unit tests have the
//! same in `src/props.rs`).

use proptest::collection::{SizeRange, vec};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, RngSeed};

/// proptest's settings for a property checked on `cases` random cases: the same cases on every run
/// (a fixed seed unless `PROPTEST_RNG_SEED=<n>` asks for others), so a failure in CI fails again
/// on the next run and on the developer's machine, and no regressions file is written beside the
/// source (a failure prints its shrunk case; a case worth keeping becomes a plain test).
pub fn with_cases(cases: u32) -> Config {
    let default = Config::default();
    Config {
        cases,
        failure_persistence: None,
        rng_algorithm: RngAlgorithm::ChaCha,
        rng_seed: match default.rng_seed {
            RngSeed::Random => RngSeed::Fixed(SEED),
            chosen => chosen,
        },
        ..default
    }
}

/// The cases' seed when none is asked for.
const SEED: u64 = 36;

/// A string of characters from `alphabet`, as many as drawn from `len`.
pub fn string_of(alphabet: &str, len: impl Into<SizeRange>) -> impl Strategy<Value = String> {
    let chars: Vec<char> = alphabet.chars().collect();
    vec(proptest::sample::select(chars), len).prop_map(|chars| chars.into_iter().collect())
}

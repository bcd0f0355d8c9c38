//! The property tests' settings and the strategies several of them draw from (proptest). The
//! end-to-end tests include this same file (`tests/it/common/mod.rs`).

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

/// Any character: printable ASCII half the time, else control characters, blanks of all kinds,
/// Latin-1, the rest of the Basic Multilingual Plane and beyond, so that text handling meets
/// multi-byte characters, combining marks and right-to-left scripts, not only letters.
pub fn any_char() -> impl Strategy<Value = char> {
    const ODD: &[char] = &[
        '\0', '\t', '\n', '\r', '\u{b}', '\u{c}', '\u{7f}', '\u{85}', '\u{a0}', '\u{2028}',
        '\u{200b}', '\u{feff}', '\u{fffd}', '>', '#', '"', '\\', '=',
    ];
    prop_oneof![
        4 => proptest::char::range(' ', '~'),
        1 => proptest::sample::select(ODD),
        1 => proptest::char::range('\u{80}', '\u{7ff}'),
        1 => proptest::char::range('\u{800}', '\u{ffff}'),
        1 => proptest::char::range('\u{10000}', '\u{10ffff}'),
    ]
}

/// A string of [`any_char`]s that `keep` accepts, as many as drawn from `len`.
pub fn string_where(
    len: impl Into<SizeRange>,
    keep: fn(char) -> bool,
) -> impl Strategy<Value = String> {
    vec(
        any_char().prop_filter("a character to keep", move |c| keep(*c)),
        len,
    )
    .prop_map(|chars| chars.into_iter().collect())
}

/// A string of characters from `alphabet`, as many as drawn from `len`.
pub fn string_of(alphabet: &str, len: impl Into<SizeRange>) -> impl Strategy<Value = String> {
    let chars: Vec<char> = alphabet.chars().collect();
    vec(proptest::sample::select(chars), len).prop_map(|chars| chars.into_iter().collect())
}

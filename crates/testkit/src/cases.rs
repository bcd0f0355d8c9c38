//! Randomized property tests without a framework: [`check`] runs a property on many cases, each drawn
//! from its own seeded ChaCha stream through a [`Case`]. The cases are the same on every run, so a
//! failure is reproducible; a failing case names its seed, and `PBEM_CASE=<seed>` replays that case
//! alone. `PBEM_CASES_SEED=<n>` draws another set of cases (to explore beyond the fixed ones).
//!
//! The unit tests use it as `crate::cases`; the end-to-end tests include this same file (it needs only
//! std and `rand_chacha`). It replaced proptest, whose dependencies were a fifth of the first build.
//! Unlike proptest it does not shrink a failing case: the assertion's message and the seed must do.

#![allow(dead_code)]

use std::ops::{Bound, RangeBounds};
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

/// Checks `property` on `count` random cases. The case seeds depend on the test's name (its thread's
/// name under `cargo test`), so two properties do not see the same cases.
pub fn check(count: u32, mut property: impl FnMut(&mut Case)) {
    if let Some(seed) = env_u64("PBEM_CASE") {
        property(&mut Case::new(seed));
        return;
    }
    let name = std::thread::current().name().unwrap_or("").to_string();
    for (i, seed) in seeds(&name, count).enumerate() {
        let run = catch_unwind(AssertUnwindSafe(|| property(&mut Case::new(seed))));
        if let Err(panic) = run {
            eprintln!(
                "{name}: case {} of {count} failed; replay it alone with PBEM_CASE={seed}",
                i + 1
            );
            resume_unwind(panic);
        }
    }
}

/// The seeds of the cases of the test `name`.
fn seeds(name: &str, count: u32) -> impl Iterator<Item = u64> {
    let base = env_u64("PBEM_CASES_SEED").unwrap_or(0) ^ fnv(name.as_bytes());
    (0..count).map(move |i| mix(base.wrapping_add(u64::from(i))))
}

fn env_u64(var: &str) -> Option<u64> {
    let text = std::env::var(var).ok()?;
    Some(
        text.trim()
            .parse()
            .unwrap_or_else(|_| panic!("{var} must be a whole number, not {text:?}")),
    )
}

/// FNV-1a: a stable hash of the test's name (std's hasher may change between releases).
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// SplitMix64's finalizer: neighbouring case numbers get unrelated seeds.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The random source of one case.
pub struct Case {
    rng: ChaCha8Rng,
}

/// The integer types a [`Case`] draws from a range.
pub trait Int: Copy {
    /// The value, widened.
    fn wide(self) -> i128;
    /// The value back from its widened form (always in range: it came from a range of `Self`).
    fn narrow(v: i128) -> Self;
}

macro_rules! int {
    ($($t:ty),*) => {$(
        impl Int for $t {
            fn wide(self) -> i128 {
                self as i128
            }
            fn narrow(v: i128) -> Self {
                v as $t
            }
        }
    )*};
}
int!(u8, u16, u32, u64, usize, i32, i64);

/// A seeded `pick(n)` (a number below `n`), the form the engines' random playouts take their
/// choices in, for tests that walk random games.
pub fn picker(seed: u64) -> impl FnMut(usize) -> usize {
    let mut case = Case::new(seed);
    move |n: usize| case.range(0..n)
}

impl Case {
    /// A case drawn from `seed`.
    pub fn new(seed: u64) -> Case {
        Case {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// The case's generator, for code that takes one.
    pub fn rng(&mut self) -> &mut ChaCha8Rng {
        &mut self.rng
    }

    /// Any `u64`.
    pub fn u64(&mut self) -> u64 {
        self.rng.next_u64()
    }

    /// Any byte.
    pub fn byte(&mut self) -> u8 {
        self.rng.next_u64() as u8
    }

    /// True or false, even odds.
    pub fn bool(&mut self) -> bool {
        self.rng.next_u64() & 1 == 1
    }

    /// A number in `range` (`a..b` or `a..=b`), uniform but for a bias below 2^-60.
    pub fn range<T: Int>(&mut self, range: impl RangeBounds<T>) -> T {
        let lo = match range.start_bound() {
            Bound::Included(v) => v.wide(),
            Bound::Excluded(v) => v.wide() + 1,
            Bound::Unbounded => panic!("a range to draw from needs a start"),
        };
        let hi = match range.end_bound() {
            Bound::Included(v) => v.wide(),
            Bound::Excluded(v) => v.wide() - 1,
            Bound::Unbounded => panic!("a range to draw from needs an end"),
        };
        assert!(lo <= hi, "empty range to draw from");
        let span = (hi - lo + 1) as u128;
        let r = (u128::from(self.rng.next_u64()) << 64 | u128::from(self.rng.next_u64())) % span;
        T::narrow(lo + r as i128)
    }

    /// `Some` of a number in `range` or, one time in ten, `None`.
    pub fn maybe<T: Int>(&mut self, range: impl RangeBounds<T>) -> Option<T> {
        if self.range(0..10u8) == 0 {
            None
        } else {
            Some(self.range(range))
        }
    }

    /// One of `items`.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.range(0..items.len())]
    }

    /// `len` (drawn from a range) values made by `make`.
    pub fn vec<T>(
        &mut self,
        len: impl RangeBounds<usize>,
        mut make: impl FnMut(&mut Case) -> T,
    ) -> Vec<T> {
        let n = self.range(len);
        (0..n).map(|_| make(self)).collect()
    }

    /// Random bytes, as many as drawn from `len`.
    pub fn bytes(&mut self, len: impl RangeBounds<usize>) -> Vec<u8> {
        self.vec(len, Case::byte)
    }

    /// A string of characters from `alphabet`, as many as drawn from `len`.
    pub fn string_of(&mut self, alphabet: &str, len: impl RangeBounds<usize>) -> String {
        let chars: Vec<char> = alphabet.chars().collect();
        self.vec(len, |c| *c.pick(&chars)).into_iter().collect()
    }

    /// Any character: printable ASCII half the time, else control characters, blanks of all kinds,
    /// Latin-1, the rest of the Basic Multilingual Plane and beyond, so that text handling meets
    /// multi-byte characters, combining marks and right-to-left scripts, not only letters.
    pub fn char(&mut self) -> char {
        const ODD: &[char] = &[
            '\0', '\t', '\n', '\r', '\u{b}', '\u{c}', '\u{7f}', '\u{85}', '\u{a0}', '\u{2028}',
            '\u{200b}', '\u{feff}', '\u{fffd}', '>', '#', '"', '\\', '=',
        ];
        loop {
            let c = match self.range(0..8u8) {
                0..=3 => char::from_u32(self.range(0x20..0x7fu32)),
                4 => Some(*self.pick(ODD)),
                5 => char::from_u32(self.range(0x80..0x800u32)),
                6 => char::from_u32(self.range(0x800..0x1_0000u32)),
                _ => char::from_u32(self.range(0x1_0000..0x11_0000u32)),
            };
            if let Some(c) = c {
                return c;
            }
        }
    }

    /// A string of [`Case::char`]s that `keep` accepts, as many as drawn from `len`.
    pub fn string_where(
        &mut self,
        len: impl RangeBounds<usize>,
        keep: impl Fn(char) -> bool,
    ) -> String {
        let n = self.range(len);
        let mut s = String::new();
        let mut count = 0;
        while count < n {
            let c = self.char();
            if keep(c) {
                s.push(c);
                count += 1;
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_reach_both_ends_and_stay_inside() {
        let mut c = Case::new(1);
        let mut seen = [false; 5];
        for _ in 0..500 {
            seen[c.range(3usize..8) - 3] = true;
            let v = c.range(-2i32..=2);
            assert!((-2..=2).contains(&v));
            assert_eq!(c.range(u64::MAX..=u64::MAX), u64::MAX);
        }
        assert_eq!(seen, [true; 5]);
    }

    #[test]
    fn strings_keep_to_their_alphabet_and_length() {
        let mut c = Case::new(2);
        for _ in 0..200 {
            let s = c.string_of("ab", 0..=4);
            assert!(s.chars().count() <= 4 && s.chars().all(|ch| ch == 'a' || ch == 'b'));
            let t = c.string_where(1..3, |ch| !ch.is_control());
            assert!((1..3).contains(&t.chars().count()));
            assert!(!t.chars().any(char::is_control));
        }
        // Beyond ASCII too.
        assert!((0..200).any(|_| !c.char().is_ascii()));
    }

    #[test]
    fn a_failing_case_fails_the_check_and_the_cases_differ() {
        let mut drawn = Vec::new();
        check(50, |c| drawn.push(c.u64()));
        drawn.sort_unstable();
        drawn.dedup();
        assert_eq!(drawn.len(), 50);
        // A property false on a few cases only is caught.
        let caught = catch_unwind(|| check(200, |c| assert!(c.range(0..50u32) != 7)));
        assert!(caught.is_err());
    }

    #[test]
    fn the_seed_a_failure_names_replays_its_case() {
        let name = std::thread::current().name().unwrap().to_string();
        let mut seen = Vec::new();
        check(20, |c| seen.push((c.u64(), c.range(0..1000u32))));
        let replayed: Vec<_> = seeds(&name, 20)
            .map(|seed| {
                let mut c = Case::new(seed);
                (c.u64(), c.range(0..1000u32))
            })
            .collect();
        assert_eq!(seen, replayed);
    }
}

//! pbem's games: every game's rules as a pure position ([`games`]), its move records, its board
//! painted once through [`picture`]'s painter, and the one search that plays them all
//! (`games::search`). No I/O: the server crate (`pbem`) stores, mails and serves what this crate
//! decides and draws, and this crate cannot reach it.

pub mod games;
pub mod html;
pub mod picture;
pub mod text;

/// A seeded `pick(n)` (a number below `n`), the form the engines' random playouts take their
/// choices in, for the tests that walk random games. It draws as the test runner it replaced did
/// (two ChaCha8 words modulo `n`), so those tests walk the same games as before.
#[cfg(test)]
pub(crate) fn picker(seed: u64) -> impl FnMut(usize) -> usize {
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::{Rng, SeedableRng};
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    move |n: usize| {
        let r = u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64());
        (r % n as u128) as usize
    }
}

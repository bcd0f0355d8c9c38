//! pbem's games: every game's rules as a pure position ([`games`]), its move records, its board
//! painted once through [`picture`]'s painter, and the one search that plays them all
//! (`games::search`). No I/O: the server crate (`pbem`) stores, mails and serves what this crate
//! decides and draws, and this crate cannot reach it.

pub mod games;
pub mod html;
pub mod picture;

#[cfg(test)]
use pbem_testkit::cases;

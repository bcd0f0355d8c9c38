//! pbem: a play-by-email game server, modelled on pbmserv.
//!
//! Mail comes in ([`mail_in`]), its text becomes commands ([`command`]), the server checks them against
//! the accounts ([`accounts`]), the stored games ([`storage`]) and the rules ([`games`]) and decides in
//! types ([`decision`]: refusals, events, lists); [`mail_text`] and [`summary`] word the decisions and
//! the boards, and [`mail_out`] sends them; finished games are rated with [`ratings`]. [`server`] ties
//! these together, at the time its [`clock`] gives. `docs/architecture.md` draws the whole path.

pub mod accounts;
pub mod cli;
pub mod clock;
pub mod command;
pub mod config;
pub mod decision;
pub mod engine_cli;
pub mod exit;
pub mod lmtp;
pub mod mail_in;
pub mod mail_out;
pub mod mail_text;
pub mod model;
pub mod news;
pub mod ratings;
pub mod records;
pub mod reply_token;
pub mod server;
pub mod storage;
pub mod summary;
pub mod sys;
pub mod web;

// The games, their pictures and the markup escaping the pictures share with the web live in their
// own crate (crates/games); they keep their paths here, so `crate::games::hex` names the same thing
// in both crates.
pub use pbem_games::{games, html, picture};

#[cfg(test)]
pub(crate) mod props;

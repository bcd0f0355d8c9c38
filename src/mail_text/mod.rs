//! The English of the server's mails, written from its decisions ([`crate::decision`]): the texts
//! pbmserv's players know. The server decides in types and this module words them, so that another
//! front end (a web page, a robot, a JSON API) can take the same decisions without parsing prose.

mod events;
mod listings;
mod refusals;

pub use events::{
    account_answer, confirmation_letter, dropped_queued_move, message_letter, nag, new_game_notice,
    notice, queued_answer, rating_change, reset_letter, setting_done, subscription_answer, verdict,
};
pub use listings::listing;
pub use refusals::{active_games, following, open_proposal, refusal};

/// Limit's names, for the tests of the texts.
#[cfg(test)]
const LIMIT: crate::decision::Game = crate::decision::Game {
    name: "limit",
    title: "Limit",
};

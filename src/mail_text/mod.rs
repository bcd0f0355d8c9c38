//! The English of the server's mails, written from its decisions ([`crate::decision`]): the texts
//! pbmserv's players know. The server decides in types and this module words them, so that another
//! front end (a web page, a robot, a JSON API) can take the same decisions without parsing prose.

mod accounts; // the account family's answers and letters
mod events; // the play family's notices, verdicts, reminders
mod listings;
mod refusals;
mod settings; // subscriptions and settings

pub use accounts::{account_answer, confirmation_letter, message_letter, reset_letter};
pub use events::{
    dropped_queued_move, nag, new_game_notice, notice, queued_answer, rating_change, verdict,
};
pub use listings::listing;
pub use refusals::{active_games, following, open_proposal, refusal};
pub use settings::{setting_done, subscription_answer};

/// Limit's names, for the tests of the texts.
#[cfg(test)]
const LIMIT: crate::decision::Game = crate::decision::Game {
    name: "limit",
    title: "Limit",
};

//! The command language, the same by mail and from the shell (pbmserv's syntax).
//!
//! Every command, how it is written and what its `help` line says is in one table, `table.rs`
//! (`pbem help` shows it); `signup alice PW`, `limit move 101 alice PW 3-7,4` are typical lines.
//!
//! This module only reads the text: [`parse`] turns one line into a [`RawCommand`] and refuses lines that
//! are malformed on their face (a missing word, a board number that is not a number, a userid with a
//! space in it). Whether the userids exist, the board exists, the game is hosted and the move is legal is
//! for the server to check afterwards.
//!
//! The table says, for every command, its words, how it is written, its `help` lines, where its
//! passwords stand and which function reads it; the parser, the usage and help texts, the typo hints
//! and the masking of quoted lines all read it. The files: `tokenizer` (words and options), `table`,
//! `parser` (finding the command), `args` with `server_args` and `game_args` (reading its words),
//! `ast` (the commands read, and their canonical text), `usage`, `recognise` (command or prose?),
//! `candidates` and `mask` (passwords), `words` and `spelling` (what a word may be; near misses).
//!
//! Passwords are the one thing that must never leak: they are held as [`Password`]s, which print as
//! `****`; [`RawCommand::quoted`] rebuilds a command with [`PLACEHOLDER`] in its password places,
//! as answers quote it. A line that does not parse has no password places, only the places of the
//! command it resembles ([`unread_stops`]: an answer quotes it up to the first) and guesses
//! ([`password_candidates`]): [`CommandError`] quotes its words as written, and whoever shows the
//! error decides what of it may be shown (the server: `server::secrets`).

mod args;
mod ast;
mod candidates;
mod error;
mod game_args;
mod mask;
mod parser;
mod recognise;
mod server_args;
mod spelling;
mod table;
mod tokenizer;
mod usage;
mod words;

pub use args::MAX_GAMES_USERIDS;
pub use ast::{
    GameCommand, GameLimit, GamesFilter, HistoryForm, MailSetting, NotifySetting, ProposalKind,
    RawCommand,
};
pub use candidates::{may_be_password, password_candidates, sets_new_password, unread_stops};
pub use error::CommandError;
pub use mask::{
    MASK, PLACEHOLDER, Password, WHOLE_WORD_BELOW, mask_passwords, mask_secrets, mask_words,
};
pub use parser::parse;
pub use recognise::{is_board_mail_subject, looks_like_command, may_be_command};
pub use table::{Scope, game_command_words, server_keywords};
pub use tokenizer::{Token, tokenize};
pub use usage::{command_list, command_usage, help_list, nearest_command};
pub use words::{MAX_USERID_LEN, is_address, is_placeholder, is_userid, parse_date};

#[cfg(test)]
use spelling::{closest, edit_distance};

#[cfg(test)]
mod tests;

#[cfg(test)]
mod table_tests;

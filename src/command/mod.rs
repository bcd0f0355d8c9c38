//! The command language, the same by mail and from the shell (pbmserv's syntax).
//!
//! ```text
//! help [subject...]                      signup|add userid password [address...]
//! change password userid old new         change address userid password [address...]
//! signoff userid password                list
//! <game> help                            <game> challenge [-option[=value]...] userid1 userid2 [userid3]
//! <game> move board userid password move[#N]     <game> resign board userid password
//! <game> show board[#N]...               <game> history [board | page N]
//! <game> ratings                         <game> standings
//! <game> games userid [active|all|finished]      <game> preview board move...
//! <game> move board userid password propose undo|draw    <game> move board userid password accept|reject
//! <game> queue board userid password move[#N]
//! <game> chat board userid password      (the mail body is the message)
//! <game> subscribe|unsubscribe board userid password
//! <game> notify userid password [on|off|board...]
//! <game> limit userid password [N|off]   <game> accept|reject userid password [userid...]
//! vacation userid password FROM TO       vacation userid password off
//! ```
//!
//! This module only reads the text: [`parse`] turns one line into a [`RawCommand`] and refuses lines that
//! are malformed on their face (a missing word, a board number that is not a number, a userid with a
//! space in it). Whether the userids exist, the board exists, the game is hosted and the move is legal is
//! for the server to check afterwards.
//!
//! One table (`table.rs`) says, for every command, its words, how it is written, its `help` lines,
//! where its passwords stand and which function reads it; the parser, the usage and help texts, the
//! typo hints and the masking of quoted lines all read it.
//!
//! Passwords are the one thing that must never leak: they are held as [`Password`]s, which print as
//! `****`; [`CommandError`] never quotes one, [`RawCommand::redacted`] and [`redact_line`] mask them.

mod args;
mod ast;
mod error;
mod game_args;
mod mask;
mod parser;
mod recognise;
mod redact;
mod server_args;
mod spelling;
mod table;
mod tokenizer;
mod usage;
mod words;

pub use args::MAX_GAMES_USERIDS;
pub use ast::{GameCommand, GameLimit, GamesFilter, NotifySetting, ProposalKind, RawCommand};
pub use error::CommandError;
pub use mask::{MASK, Password, mask_secrets, mask_words};
pub use parser::parse;
pub use recognise::{is_board_mail_subject, looks_like_command, may_be_command};
pub use redact::{line_passwords, redact_line, suspect_words};
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

//! What is wrong with a command line.

use super::usage::command_list;

/// What is wrong with a command line. The text says what was wrong and how to write it right. It
/// quotes the words it is about as written (of a line that does not parse, no word is known to be a
/// password): whoever shows it hides the passwords of the mail in it, as the server does.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// The line has no words at all.
    #[error(
        "the command is empty: write one of these commands:\n{}",
        command_list()
    )]
    Empty,
    /// The first words are not a command we know: what was written and, when it is close to one,
    /// the line it was meant to be. No list of commands: the answer points to `help`.
    #[error("{what}")]
    Unknown {
        /// What was not understood (its words as written).
        what: String,
    },
    /// A known command written wrongly.
    #[error("{problem}\nusage: {usage}")]
    Usage {
        /// What is wrong (its words as written).
        problem: String,
        /// How the command is written.
        usage: String,
    },
}

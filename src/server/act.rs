//! A player's command on one board as written, and whose mail a change of the game answers: what
//! `move`, `propose`, `accept`/`reject` and `queue` are handed.

use crate::command::Password;
use crate::games::GameRules;
use crate::storage::Comment;

/// Whose mail a change of the game answers when that is not the actor's, and what that mail
/// said: a robot that settles a proposal at once (`server/robot_answers.rs`) acts in the run of
/// the proposer's mail, so the board mails answer the proposer and carry the proposal's comment,
/// as a person's `accept` carries its own.
#[derive(Debug, Default)]
pub(super) struct Answering {
    /// The seat whose mail is answered: their copy is the reply, and never waits for a digest.
    pub seat: Option<usize>,
    /// Comments already stored in this run that the change's board mails show before the actor's.
    pub comments: Vec<Comment>,
}

/// A player's command on one board, as written: who, with which password, which board, the `#N`
/// guard and the mail's comment. `move`, `propose`, `accept`/`reject` and `queue` take one.
#[derive(Clone, Copy)]
pub(super) struct Act<'a> {
    pub rules: &'a dyn GameRules,
    pub board: u32,
    pub userid: &'a str,
    pub password: &'a str,
    pub guard: Option<u32>,
    pub comment: &'a str,
}

impl<'a> Act<'a> {
    pub(super) fn new(
        rules: &'a dyn GameRules,
        board: u32,
        userid: &'a str,
        password: &'a Password,
        guard: Option<u32>,
        comment: &'a str,
    ) -> Act<'a> {
        Act {
            rules,
            board,
            userid,
            password: password.expose(),
            guard,
            comment,
        }
    }
}

//! Player-to-player mail through the server (issue 16): `message userid password to-userid...`, the
//! mail's body being the message. Neither side sees the other's address: the recipient reads who
//! wrote and answers with a `message` of their own.
//!
//! Only a signed-up player with their password can write, only to signed-up people (not the robots),
//! and at most [`MESSAGES_PER_DAY`] recipients a day, so the server is no relay for strangers.
//!
//! Chats and messages together are capped per writer and reader ([`TALK_PER_DAY`] a day), and a game
//! that is over carries no chats from a player who never moved in it (issue 34): a stranger who
//! challenged a player cannot mail them without end, least of all once they declined the game.

use super::{Handling, HostedGame, Letter, Outcome, Refused, Sign, Step};
use crate::decision::{AccountEvent, Game, MessageRefusal};
use crate::games::{GameRules, GameState, Status};
use crate::mail_text;
use crate::reply_token::Target;
use crate::storage::{StorageError, Tx, User};

/// Recipients one player may write to in 24 hours.
pub const MESSAGES_PER_DAY: u32 = 30;

/// Chats and messages one player may send another in 24 hours.
pub const TALK_PER_DAY: u32 = 30;

impl Handling<'_> {
    /// `message userid password to-userid...`.
    pub(super) fn message(
        &self,
        tx: &Tx<'_>,
        userid: &str,
        password: &str,
        to: &[String],
        body: &str,
    ) -> Step<Outcome> {
        let sender = self.authenticate(tx, userid, password)?;
        let body = body.trim();
        if body.is_empty() {
            return Err(MessageRefusal::Empty.into());
        }
        let mut recipients: Vec<User> = Vec::new();
        for name in to {
            let user = tx
                .user(name)?
                .filter(|u| u.password_hash.is_some() && !u.addresses.is_empty())
                .ok_or_else(|| MessageRefusal::NotRegistered {
                    userid: name.clone(),
                })?;
            if !recipients.iter().any(|r| r.id == user.id) {
                recipients.push(user);
            }
        }
        let sent = tx.messages_since(sender.id, self.now - 86_400)?;
        if sent + recipients.len() as u32 > MESSAGES_PER_DAY {
            return Err(MessageRefusal::TooMany {
                per_day: MESSAGES_PER_DAY,
                sent,
            }
            .into());
        }
        if let Some(r) = self.talk_refusal(tx, sender.id, &recipients, false)? {
            return Err(r.into());
        }
        let mut letters = Vec::new();
        for r in &recipients {
            tx.record_message(sender.id, r.id, self.now)?;
            let (subject, body) =
                mail_text::message_letter(&self.cfg.server.name, &sender.userid, &r.userid, body);
            letters.push(Letter {
                to: r.addresses.clone(),
                subject,
                body,
                reply: false,
                picture: None,
                // The reader's reply is a `message` back to the writer.
                sign: Some(Sign {
                    reader: r.id,
                    target: Target::Message(sender.id),
                }),
                thread: None,
                headline: None,
            });
        }
        let sent = AccountEvent::MessageSent {
            userid: sender.userid,
            to: recipients.into_iter().map(|r| r.userid).collect(),
        };
        let mut outcome = self.account_reply(sent);
        outcome.letters.extend(letters);
        Ok(outcome)
    }
}

impl Handling<'_> {
    pub(super) fn chat(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        board: u32,
        userid: &str,
        password: &str,
        comment: &str,
    ) -> Step<Outcome> {
        let (row, state, user, seat) = self.seated(tx, rules, board, userid, password)?;
        if comment.trim().is_empty() {
            return Err(Refused::on(
                MessageRefusal::EmptyChat {
                    game: Game::of(rules),
                    board,
                    userid: user.userid,
                },
                rules.name(),
                board,
            )
            .into());
        }
        if matches!(state.status(), Status::Over(_)) && !moved_in(state.as_ref(), seat) {
            return Err(Refused::on(
                MessageRefusal::ChatClosed {
                    game: Game::of(rules),
                    board,
                    userid: user.userid,
                },
                rules.name(),
                board,
            )
            .into());
        }
        // The other players: spectators asked for every board mail of the game.
        let mut others: Vec<User> = Vec::new();
        for p in &row.players {
            if p.id != user.id && !p.addresses.is_empty() && others.iter().all(|o| o.id != p.id) {
                others.push(p.clone());
            }
        }
        if let Some(r) = self.talk_refusal(tx, user.id, &others, true)? {
            return Err(Refused::on(r, rules.name(), board).into());
        }
        for o in &others {
            tx.record_chat(user.id, o.id, row.id, self.now)?;
        }
        let comments = self.comment_at(tx, &row, state.move_number(), user.id, comment)?;
        let mut outcome = self.board_mails(
            tx,
            HostedGame::new(rules, &row, state.as_ref()),
            &comments,
            false,
            Some(seat),
            None,
        )?;
        // The writer knows the board and their own words: one line says where they went
        // (issue 37), still in the game's thread and with their own Reply-To, so that the move
        // can follow as a reply to it.
        let names: Vec<&str> = others.iter().map(|o| o.userid.as_str()).collect();
        let to = if names.is_empty() {
            "nobody: no other player has an address".to_string()
        } else {
            names.join(", ")
        };
        for letter in outcome.letters.iter_mut().filter(|l| l.reply) {
            letter.body = format!(
                "Your words went to {to} as a chat on {} Board {board}; nothing was played.\n",
                rules.title()
            );
            letter.picture = None;
            letter.headline = None;
        }
        Ok(outcome)
    }
}

impl Handling<'_> {
    /// The refusal of a chat (`chat`) or message from `from` when one of `to` already had
    /// [`TALK_PER_DAY`] of them from `from` in the last 24 hours.
    fn talk_refusal(
        &self,
        tx: &Tx<'_>,
        from: i64,
        to: &[User],
        chat: bool,
    ) -> Result<Option<MessageRefusal>, StorageError> {
        for r in to {
            let (sent, first) = tx.talk_since(from, r.id, self.now - 86_400)?;
            if sent >= TALK_PER_DAY {
                return Ok(Some(MessageRefusal::TooManyTo {
                    to: r.userid.clone(),
                    per_day: TALK_PER_DAY,
                    first_at: first.unwrap_or(self.now),
                    chat,
                }));
            }
        }
        Ok(None)
    }
}

/// True when the player in `seat` made a move of their own in the game (not a resignation, a
/// forfeit or a draw agreed, nor an entry the rules made for them).
fn moved_in(state: &dyn GameState, seat: usize) -> bool {
    state.moves().iter().any(|m| {
        m.seat == seat && !m.auto && !matches!(m.text.as_str(), "resign" | "forfeit" | "draw")
    })
}

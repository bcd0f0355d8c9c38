//! Replies by signed address (issue 25): the `Reply-To` of a board mail (and of a `message`) is the
//! reader's own `pbem+<token>@host` (see [`crate::reply_token`]), and a reply to it from an address
//! registered to that reader may hold just the move, or any command of that game, without userid and
//! password; a reply to a `message` is a `message` back to its writer.
//!
//! The token is checked before the write lock, as passwords are (`auth`), and the reply becomes one
//! full command (its first line that reads as one; the rest is the comment, see
//! [`Handling::reply_commands`]) with the reader's userid and a password that stands for the token: a
//! word made for this mail alone, which [`Handling::authenticate`] takes as the token's proof (if the reader's
//! reply generation is still the one checked). Anything that does not hold (no token, a wrong or
//! stale one, a From or Reply-To not registered to its reader, a game gone) leaves the mail as it
//! was: it gets the answer it got before, asking for the password, with no hint of what failed.

use std::io::Read;

use super::{Core, Sign};
use crate::command::looks_like_command;
use crate::games::GameRules;
use crate::mail_in::{Incoming, tidy_comment};
use crate::reply_token::{self, Reader, Target, Unchecked};
use crate::storage::{Db, StorageError, Tx};

/// A reply whose token held: who wrote it and what it answers.
#[derive(Debug, Clone)]
pub(super) struct Grant {
    /// The reader's account row and userid.
    pub user_id: i64,
    pub userid: String,
    /// The reply generation the token was checked at.
    pub generation: i64,
    /// The password the rewritten commands carry: made for this mail, never mailed.
    pub marker: String,
    to: Answers,
}

/// What the reply answers.
#[derive(Debug, Clone)]
enum Answers {
    /// A board: its game's command word and number.
    Board { game: String, board: u32 },
    /// A `message`: its writer's userid.
    Message { writer: String },
}

/// 32 bytes from the operating system's random source, for the server's reply key.
pub(super) fn random_key() -> std::io::Result<[u8; 32]> {
    let mut key = [0u8; 32];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut key)?;
    Ok(key)
}

impl Core {
    /// The signed reply address of a letter to one player; `None` when the reader is signed off.
    /// Makes the server's reply key the first time.
    pub(super) fn reply_address(
        &self,
        tx: &Tx<'_>,
        sign: Sign,
    ) -> Result<Option<String>, StorageError> {
        let Some(generation) = tx.reply_generation(sign.reader)? else {
            return Ok(None);
        };
        let secret = tx.reply_secret(random_key)?;
        let reader = Reader {
            user_id: sign.reader,
            generation,
        };
        let token = reply_token::token(&secret, sign.target, reader);
        Ok(Some(reply_token::address(&self.cfg.server.address, &token)))
    }

    /// The reply token a reply was sent to: the first recipient, of the envelope (`RCPT TO`) then
    /// of the headers, that is one of the server's signed reply addresses; `None` for a mail that
    /// is no reply.
    fn reply_token_of(&self, incoming: &Incoming, envelope: &[String]) -> Option<Unchecked> {
        incoming.reply_lines.as_ref()?;
        let own = &self.cfg.server.address;
        envelope
            .iter()
            .chain(&incoming.recipients)
            .find_map(|r| reply_token::token_of(own, r).and_then(Unchecked::parse))
    }

    /// Checks a reply's token, before the write lock: `envelope` are the recipients the MTA gave
    /// (LMTP's `RCPT TO`; none from a pipe), then the mail's recipient headers are looked at.
    /// `reply_to` is where answers go. `None` unless the token is right, is the reader's whose
    /// account both the From and the answer address are registered to, and what it answers exists.
    pub(super) fn reply_grant(
        &self,
        db: &Db,
        incoming: &Incoming,
        envelope: &[String],
        reply_to: &str,
    ) -> Result<Option<Grant>, StorageError> {
        let token = self.reply_token_of(incoming, envelope);
        let (Some(token), Some(from)) = (token, incoming.from.as_deref()) else {
            return Ok(None);
        };
        let Some(secret) = db.reply_secret()? else {
            return Ok(None);
        };
        let mut readers = db.readers_at_address(from)?;
        if !reply_to.eq_ignore_ascii_case(from) {
            let answered = db.readers_at_address(reply_to)?;
            readers.retain(|r| answered.iter().any(|a| a.user_id == r.user_id));
        }
        let Some(reader) = readers.into_iter().find(|r| {
            token.is_for(
                &secret,
                Reader {
                    user_id: r.user_id,
                    generation: r.generation,
                },
            )
        }) else {
            return Ok(None);
        };
        let to = match token.target {
            Target::Board(id) => match db.game_ref(id)? {
                Some((game, board)) if self.games.find(&game).is_some() => {
                    Answers::Board { game, board }
                }
                _ => return Ok(None),
            },
            Target::Message(id) => match db.signed_up_userid(id)? {
                Some(writer) => Answers::Message { writer },
                None => return Ok(None),
            },
        };
        let digest = super::fresh_digest(self.now, &[reader.userid.as_bytes()]);
        let marker: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
        Ok(Some(Grant {
            user_id: reader.user_id,
            userid: reader.userid,
            generation: reader.generation,
            marker: format!("reply-{marker}"),
            to,
        }))
    }

    /// For a reply whose token held for no account at its From (see [`Handling::reply_grant`]): the
    /// game and board when the token is right for one of that board's players, so the reply came
    /// from an address of theirs that is not registered (a second address, a forward). The answer
    /// then says to send from the registered address, instead of asking for a password as for
    /// any mail. Naming nobody: the sender learns only what the board mail they hold told them.
    pub(super) fn unregistered_reply(
        &self,
        db: &Db,
        incoming: &Incoming,
        envelope: &[String],
    ) -> Result<Option<(String, u32)>, StorageError> {
        let Some(token) = self.reply_token_of(incoming, envelope) else {
            return Ok(None);
        };
        let Some(secret) = db.reply_secret()? else {
            return Ok(None);
        };
        let Target::Board(id) = token.target else {
            return Ok(None);
        };
        let Some((game, board)) = db.game_ref(id)? else {
            return Ok(None);
        };
        let held = db.readers_of_game(id)?.into_iter().any(|r| {
            token.is_for(
                &secret,
                Reader {
                    user_id: r.user_id,
                    generation: r.generation,
                },
            )
        });
        Ok(held.then_some((game, board)))
    }

    /// The mail as its command with the reader's userid and the grant's password: a `message`
    /// back to the writer, or for a board the first line that reads as a command (a command of
    /// the game, `resign`, `propose draw`, `show`, `accept`, ..., a move, or a whole command such as
    /// `help` or one with its own password, which stays as written); every other line, before or
    /// after it, is its comment. One reply is one command (issue 34): a reply of a thousand
    /// `chat` lines is one chat, and `chat` over a line `d4` is a chat saying `d4`. A reply whose
    /// lines hold no command runs its Subject when that is a command written in full; else its
    /// first line is tried as the move, so that the answer says why it is not one.
    pub(super) fn reply_commands(&self, grant: &Grant, incoming: &Incoming) -> Incoming {
        let lines = incoming.reply_lines.clone().unwrap_or_default();
        let (commands, comment) = match &grant.to {
            Answers::Message { writer } => (
                vec![format!(
                    "message {} {} {writer}",
                    grant.userid, grant.marker
                )],
                lines.join("\n"),
            ),
            Answers::Board { game, board } => {
                let rules = self.games.find(game);
                let names = self.games.names();
                let command_at = |line: &String| {
                    if line.is_empty() {
                        None
                    } else if looks_like_command(line, &names) {
                        Some(line.clone())
                    } else {
                        rules.and_then(|r| board_line(grant, r, *board, line))
                    }
                };
                let found = lines
                    .iter()
                    .enumerate()
                    .find_map(|(i, line)| command_at(line).map(|c| (i, c)));
                let others = |i: usize| {
                    let rest: Vec<&str> = lines
                        .iter()
                        .enumerate()
                        .filter(|(j, _)| *j != i)
                        .map(|(_, l)| l.as_str())
                        .collect();
                    tidy_comment(&rest)
                };
                match found {
                    Some((i, command)) => (vec![command], others(i)),
                    // No line is a command and the Subject is one, with its password.
                    None if looks_like_command(&incoming.subject, &names) => {
                        (incoming.commands.clone(), incoming.comment.clone())
                    }
                    // Words only: table talk goes to the other players as a chat (issue 37),
                    // unless the first line has the shape of a move gone wrong (`c33`, `k1 27`),
                    // which is tried as the move so that the answer says why it is not one.
                    None => match lines.iter().position(|l| !l.is_empty()) {
                        Some(i) if looks_like_a_move(&lines[i]) => (
                            vec![format!(
                                "{game} move {board} {} {} {}",
                                grant.userid, grant.marker, lines[i]
                            )],
                            others(i),
                        ),
                        Some(_) => (
                            vec![format!(
                                "{game} chat {board} {} {}",
                                grant.userid, grant.marker
                            )],
                            tidy_comment(&lines.iter().map(String::as_str).collect::<Vec<_>>()),
                        ),
                        None => (Vec::new(), String::new()),
                    },
                }
            }
        };
        Incoming {
            commands,
            comment,
            ..incoming.clone()
        }
    }
}

/// Whether a line no game reads is still an attempt at a move rather than words: a cell or a move
/// is short and names a place by a number (`c33`, `k1 27`, `3-7,44`), where table talk is words
/// (`Nice opening!`, `Take your time :)`, `See you at 5 then`).
fn looks_like_a_move(line: &str) -> bool {
    let tokens = line.split_whitespace().count();
    tokens <= 3 && line.chars().any(|c| c.is_ascii_digit())
}

/// One line of a reply to a board as the full command, or `None` when it is no command of the game
/// (then it is part of the comment).
fn board_line(grant: &Grant, rules: &dyn GameRules, board: u32, line: &str) -> Option<String> {
    let game = rules.name();
    let login = format!("{} {}", grant.userid, grant.marker);
    let mut words = line.split_whitespace();
    let first = words.next()?.to_lowercase();
    let rest: Vec<&str> = words.collect();
    let rest = rest.join(" ");
    let bare = rest.is_empty();
    let command = match first.as_str() {
        "move" if !bare => format!("{game} move {board} {login} {rest}"),
        "resign" if bare => format!("{game} resign {board} {login}"),
        "rematch" if bare => format!("{game} rematch {board} {login}"),
        "propose" if !bare => format!("{game} move {board} {login} propose {rest}"),
        "accept" | "reject" if bare => format!("{game} move {board} {login} {first}"),
        "queue" if !bare => format!("{game} queue {board} {login} {rest}"),
        "chat" if bare => format!("{game} chat {board} {login}"),
        "subscribe" | "unsubscribe" if bare => format!("{game} {first} {board} {login}"),
        // `show`, `show #12`: the board, as it stands or at a move.
        "show" => format!("{game} show {board}{}", rest.replace(' ', "")),
        "history" => format!("{game} history {board} {rest}"),
        "preview" if !bare => format!("{game} preview {board} {rest}"),
        _ => {
            // A move, with or without the `#N` that says which move it answers.
            let mv = line.split_once('#').map_or(line, |(m, _)| m).trim();
            if mv.is_empty() || !rules.reads_as_move(mv) {
                return None;
            }
            format!("{game} move {board} {login} {line}")
        }
    };
    Some(command.trim_end().to_string())
}

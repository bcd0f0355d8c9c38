//! One mail's commands: the size limit, carrying out each line and turning a refusal into its error
//! mail (with the mail's passwords hidden: see `secrets`), and the dispatch of a checked command to
//! its family.

use super::queue;
use super::secrets::Secrets;
use super::{Failure, Handling, IngestOutcome, Origin, Outcome, ServerError, Step};
use crate::command::{self, RawCommand};
use crate::decision::{HelpRefusal, MailRefusal};
use crate::mail_in::{Incoming, MailLimits};
use crate::mail_text;
use crate::storage::{Db, StorageError, Tx};
use crate::summary;

impl Handling<'_> {
    /// The answer to a mail larger than `max_message_bytes`: nothing of it is acted on, and the
    /// sender is told so (once: the mail counts as processed).
    pub(super) fn refuse_oversized(
        &self,
        db: &mut Db,
        incoming: &Incoming,
        origin: &Origin,
        secrets: &Secrets,
    ) -> Result<IngestOutcome, ServerError> {
        let refusal = MailRefusal::TooLarge {
            max_bytes: self.cfg.limits.max_message_bytes,
        };
        let text = summary::error_body(
            &mail_text::refusal(&refusal.into()),
            None,
            &secrets.quote_unread(&incoming.subject),
        );
        let tx = db.transaction()?;
        if tx.is_processed(&incoming.key)? {
            return Ok(IngestOutcome::Duplicate);
        }
        let outcome = Outcome::error(summary::error_subject(None, None), text);
        let mails = self.letters_to_mails(&tx, origin, vec![outcome])?;
        let ids = queue(&tx, &mails, self.now)?;
        tx.mark_processed(&incoming.key, self.now)?;
        tx.commit()?;
        self.send_claimed(db, &ids, &mails);
        Ok(IngestOutcome::Handled { mails: mails.len() })
    }

    pub(super) fn limits(&self) -> MailLimits {
        let l = &self.cfg.limits;
        MailLimits {
            max_bytes: l.max_message_bytes,
            max_lines: l.max_body_lines,
            max_parts: l.max_mime_parts,
            max_commands: l.max_commands_per_mail,
        }
    }

    /// Carries out a mail's commands and hides the mail's passwords (`secrets`) in the comment
    /// before it is stored or relayed, and where the answers to the sender quote the player's words.
    pub(super) fn run_mail_commands(
        &self,
        tx: &mut Tx<'_>,
        incoming: &Incoming,
        origin: &Origin,
        secrets: &Secrets,
    ) -> Result<Vec<Outcome>, StorageError> {
        self.mail.confirmation_sent.set(false);
        let comment = secrets.hide(&incoming.comment);
        let mut outcomes = self.run_commands(tx, incoming, origin, &comment, secrets)?;
        for o in &mut outcomes {
            secrets.hide_in(o);
        }
        Ok(outcomes)
    }

    /// Runs each command line of the mail; with none, says what a command looks like. The answers
    /// quote only what they read (see [`Handling::execute`]).
    pub(super) fn run_commands(
        &self,
        tx: &mut Tx<'_>,
        incoming: &Incoming,
        origin: &Origin,
        comment: &str,
        secrets: &Secrets,
    ) -> Result<Vec<Outcome>, StorageError> {
        if incoming.commands.is_empty() {
            // A Subject that names a game but no command of it ("limit frobnicate 101") was meant as
            // a command: say what is wrong with it. A reply's "Limit Board 101 bob" was not.
            let mut words = incoming.subject.split_whitespace();
            let first = words.next().unwrap_or("");
            let second = words.next().unwrap_or("");
            let game_named =
                self.games.find(first).is_some() && !second.eq_ignore_ascii_case("board");
            // "chess show 101": a game command word after an unknown game's name.
            let unknown_game = command::looks_like_command(&incoming.subject, &[first]);
            // "New Limit Board 101 alice", "Nag: Limit Board 101 alice": a reply to our own mail,
            // although "Limit" after "New" reads like a game command word.
            // "pbem help", "pbem signup alice": the Subject of one of the server's own answers.
            let reply = command::is_board_mail_subject(&incoming.subject)
                || first.eq_ignore_ascii_case(&self.cfg.server.name);
            if (game_named || unknown_game) && !reply {
                return Ok(vec![self.execute(
                    tx,
                    &incoming.subject,
                    "",
                    origin,
                    secrets,
                )?]);
            }
            if let Some((game, board)) = &origin.unregistered_reply
                && let Some(rules) = self.games.find(game)
            {
                let refusal = MailRefusal::UnregisteredReply {
                    game: crate::decision::Game::of(rules),
                    board: *board,
                };
                let text = summary::error_body(&mail_text::refusal(&refusal.into()), None, "");
                return Ok(vec![Outcome::error(
                    summary::error_subject(Some((rules.title(), *board)), None),
                    text,
                )]);
            }
            let example = self.example_move(tx, origin)?;
            let refusal = MailRefusal::NoCommand {
                example,
                notes: incoming.notes.clone(),
            };
            // The Subject was no command: quoted up to where a password may stand in it.
            let text = summary::error_body(
                &mail_text::refusal(&refusal.into()),
                None,
                &secrets.quote_unread(&incoming.subject),
            );
            return Ok(vec![Outcome::error(
                summary::error_subject(None, None),
                text,
            )]);
        }
        let mut outcomes = Vec::new();
        for line in &incoming.commands {
            outcomes.push(self.execute(tx, line, comment, origin, secrets)?);
        }
        Ok(outcomes)
    }

    /// A move command to show as an example: the sender's own userid and one of their boards when the
    /// sender is a registered player, with `<password>` where the password goes. The placeholder is
    /// refused before any password check, so an autoresponder that echoes the example costs nothing.
    pub(super) fn example_move(
        &self,
        tx: &Tx<'_>,
        origin: &Origin,
    ) -> Result<String, StorageError> {
        let game = self.games.iter().next().map_or("limit", |g| g.name());
        let userid = match &origin.reply_to {
            Some(a) => tx.userid_at_address(a)?,
            None => None,
        };
        let board = match &userid {
            Some(u) => tx.an_active_board(u, game)?,
            None => None,
        };
        let userid = userid.unwrap_or_else(|| "<userid>".to_string());
        Ok(format!(
            "{game} move {} {userid} <password> 3-7,4",
            board.unwrap_or(101)
        ))
    }

    /// Parses, validates and carries out one command line. An answer quotes back only what it read:
    /// a command that parsed rebuilt from its parts, `<password>` in every password place (and for
    /// any other word that is one of the mail's passwords: `secrets`); a line that did not parse
    /// only up to where the command it resembles has its password; the comment only when the
    /// command's password was found right (or the mail came to a valid reply address), since
    /// nothing else of a mail may go into the outbox in clear.
    pub(super) fn execute(
        &self,
        tx: &mut Tx<'_>,
        line: &str,
        comment: &str,
        origin: &Origin,
        secrets: &Secrets,
    ) -> Result<Outcome, StorageError> {
        let parsed = command::parse(line);
        let game_word = line.split_whitespace().next().map(str::to_lowercase);
        let cmd = match parsed {
            Ok(cmd) => cmd,
            Err(e) => {
                let word = game_word.filter(|w| self.games.find(w).is_some());
                return Ok(Outcome::error(
                    summary::error_subject(None, word.as_deref()),
                    summary::error_body(
                        &self.unread_explanation(&e, line, secrets),
                        None,
                        &secrets.quote_unread(line),
                    ),
                ));
            }
        };
        let checked = cmd
            .login()
            .is_some_and(|(u, pw)| self.mail.logins.borrow().was_right(u, pw.expose()));
        let quoted = quote_with_comment(&secrets.quote_command(&cmd), comment, checked);
        self.mail.agreeing.borrow_mut().clear();
        let done = self.dispatch(tx, &cmd, comment, origin);
        let agreeing = std::mem::take(&mut *self.mail.agreeing.borrow_mut());
        if !matches!(&done, Ok(o) if o.ok) {
            for (game_id, seat) in agreeing {
                tx.unagree(game_id, seat)?;
            }
        }
        match done {
            Ok(o) => Ok(Outcome {
                proved: o.ok && proves_owner(&cmd),
                ..o
            }),
            Err(Failure::Storage(e)) => Err(e),
            Err(Failure::Refused(r)) => {
                // The game word goes into the Subject: only a plain word (the parser takes any
                // word here; the fuzzer sent one with NULs, and the answer could not be built).
                let game_word = match &cmd {
                    RawCommand::Game { game, .. }
                        if game.len() <= 20
                            && game
                                .chars()
                                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') =>
                    {
                        Some(game.as_str())
                    }
                    _ => None,
                };
                let in_game = match (&r.board, &origin.reply_to) {
                    (Some((game_type, board)), Some(address)) => {
                        self.answer_in_game(tx, game_type, *board, address)?
                    }
                    _ => None,
                };
                let (subject, board) = match &r.board {
                    Some((game_type, board)) => {
                        let title = self.games.find(game_type).map_or("Game", |g| g.title());
                        let shown = self.board_text(tx, game_type, *board)?;
                        // An answer to one of the game's players keeps the game's one Subject,
                        // so that Gmail keeps it in the game's conversation (the body's first
                        // line says the command was not carried out), unless the player chose
                        // `subject state`.
                        let plain = match (&in_game, &origin.reply_to) {
                            (Some(_), Some(address)) => !tx.state_subject_at(address)?,
                            _ => false,
                        };
                        let subject = if plain {
                            summary::game_subject(title, *board)
                        } else {
                            summary::error_subject(Some((title, *board)), game_word)
                        };
                        (subject, shown)
                    }
                    None => (summary::error_subject(None, game_word), None),
                };
                let text =
                    summary::error_body(&mail_text::refusal(&r.refusal), board.as_deref(), &quoted);
                Ok(Outcome {
                    refusal: Some(r.refusal),
                    in_game,
                    ..Outcome::error(subject, text)
                })
            }
        }
    }

    /// What an answer says of a line that could not be read: the parser's explanation when it
    /// names no word of the line past what the answer shows of it (see [`Secrets::unread_shown`]),
    /// else only that the line was not understood, with how the command is written.
    fn unread_explanation(
        &self,
        e: &command::CommandError,
        line: &str,
        secrets: &Secrets,
    ) -> String {
        let mut text = match secrets.explain_unread(&e.to_string(), line) {
            Some(text) => text,
            None => {
                let mut text = "This line was not understood.".to_string();
                if let command::CommandError::Usage { usage, .. } = e
                    && let Some(usage) = secrets.explain_unread(usage, line)
                {
                    text.push_str(&format!("\nusage: {usage}"));
                }
                text
            }
        };
        if secrets.unread_shown(line) < line.split_whitespace().count() {
            text.push_str(
                "\nIt is quoted below only up to where a password may stand in it: the rest \
                 is not repeated.",
            );
        }
        text
    }

    /// The game's thread and signed Reply-To for an answer about board `board` to `address`,
    /// when the address is one of that game's players' (issue 37: an error answer is a mail of the
    /// game, and the corrected move can be a bare reply to it).
    pub(super) fn answer_in_game(
        &self,
        tx: &Tx<'_>,
        game_type: &str,
        board: u32,
        address: &str,
    ) -> Result<Option<(super::Sign, super::letters::Thread)>, StorageError> {
        let (Some(rules), Some(row)) = (self.games.find(game_type), tx.game(game_type, board)?)
        else {
            return Ok(None);
        };
        let Some(player) = row
            .players
            .iter()
            .find(|p| p.addresses.iter().any(|a| a.eq_ignore_ascii_case(address)))
        else {
            return Ok(None);
        };
        let topic = summary::game_subject(rules.title(), board);
        let thread = self.thread_of(tx, row.id, player.id, &topic)?;
        let sign = super::Sign {
            reader: player.id,
            target: crate::reply_token::Target::Board(row.id),
        };
        Ok(Some((sign, thread)))
    }

    pub(super) fn dispatch(
        &self,
        tx: &mut Tx<'_>,
        cmd: &RawCommand,
        comment: &str,
        origin: &Origin,
    ) -> Step<Outcome> {
        match cmd {
            RawCommand::Help { subject } => self.help(subject),
            RawCommand::List { games } => self.list(tx, games),
            RawCommand::Confirm { userid, code } => self.confirm(tx, userid, code, origin),
            RawCommand::Signup {
                userid,
                password,
                addresses,
            } => self.signup(tx, userid, password.expose(), addresses, origin),
            RawCommand::ChangePassword { userid, old, new } => {
                self.change_password(tx, userid, old.expose(), new.expose())
            }
            RawCommand::ChangeAddress {
                userid,
                password,
                addresses,
            } => self.change_address(tx, userid, password.expose(), addresses, origin),
            RawCommand::Signoff { userid, password } => self.signoff(tx, userid, password.expose()),
            RawCommand::PasswordReset { userid } => self.password_reset(tx, userid, origin),
            RawCommand::Message {
                userid,
                password,
                to,
            } => self.message(tx, userid, password.expose(), to, comment),
            RawCommand::PasswordSet { userid, code, new } => {
                self.password_set(tx, userid, code.expose(), new.expose(), origin)
            }
            RawCommand::Vacation {
                userid,
                password,
                days,
            } => self.vacation(tx, userid, password.expose(), *days, origin),
            RawCommand::Set {
                userid,
                password,
                setting,
            } => self.set_mail(tx, userid, password.expose(), *setting, origin),
            RawCommand::Game { game, command } => {
                let rules = self
                    .games
                    .find(game)
                    .ok_or_else(|| HelpRefusal::UnknownGame {
                        game: game.clone(),
                        hosted: self.hosted_games(),
                    })?;
                self.game_command(tx, rules, command, comment, origin)
            }
        }
    }
}

/// Whether carrying out `cmd` shows that its sender's address is a player's: it made an account
/// there (`signup`), or needed an account's password or a code mailed to the account's address.
/// Asking (`help`, `list`, `show`) does not: a stranger writing under someone else's Reply-To could.
fn proves_owner(cmd: &RawCommand) -> bool {
    cmd.login().is_some()
        || matches!(
            cmd,
            RawCommand::Signup { .. } | RawCommand::Confirm { .. } | RawCommand::PasswordSet { .. }
        )
}

/// A refused command's quote: the command as rebuilt, then the comment when it was `checked`
/// (written with the command's right password, or by a valid reply address); an unchecked comment is
/// only counted, as anyone may have written it and it may hold anything.
fn quote_with_comment(command: &str, comment: &str, checked: bool) -> String {
    let lines = comment.lines().filter(|l| !l.trim().is_empty()).count();
    match (checked, lines) {
        (_, 0) => command.to_string(),
        (true, _) => format!("{command}\n{comment}"),
        (false, 1) => format!("{command}\n[your comment, 1 line, is not quoted back]"),
        (false, n) => format!("{command}\n[your comment, {n} lines, is not quoted back]"),
    }
}

//! The admin's overrides (issue 16), at the shell only (`pbem admin ...`): set a player's password,
//! end a game (a winner, a draw, or cancelled unrated), put another player in a seat, take back the
//! last move. Each is written into the game's verdict lines with the admin's reason, so that every
//! board mail and `history` of the game show it, and the players get the board as after a move.
//! By mail, `admin` is no command (see `crate::command`).

use super::{Handling, HostedGame, MailState, Outcome, Server, ServerError, Step, queue};
use crate::accounts;
use crate::decision::{
    AccountEvent, AccountRefusal, AdminRefusal, Event, Game, PasswordChange, PlayRefusal,
};
use crate::games::{self, GameRules, GameState, Status};
use crate::mail_text;
use crate::storage::Tx;

/// What the admin does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Override {
    /// Sets a player's password (they forgot it and have no address that works).
    Password {
        /// The player.
        userid: String,
        /// The new password.
        password: String,
    },
    /// Ends a game: `winner` a player, or `None` for a draw between the players still in; rated
    /// unless `cancel`.
    End {
        /// The game type.
        game: String,
        /// The board.
        board: u32,
        /// The winner; `None`: a draw.
        winner: Option<String>,
        /// True: the game ends unrated, as if never played.
        cancel: bool,
        /// Why, as the players will read it.
        reason: String,
    },
    /// Puts `new` in the seat of `old`.
    Replace {
        /// The game type.
        game: String,
        /// The board.
        board: u32,
        /// The player leaving.
        old: String,
        /// The player coming in.
        new: String,
        /// Why.
        reason: String,
    },
    /// Takes back the last move (and the `(Auto)` entries after it).
    Undo {
        /// The game type.
        game: String,
        /// The board.
        board: u32,
        /// Why.
        reason: String,
    },
}

impl Server {
    /// Carries out an admin override in one transaction, with its mails; the answer is the text
    /// for the admin.
    pub fn admin_override(&mut self, what: &Override) -> Result<(bool, String), ServerError> {
        self.tick();
        let mail = MailState::new(None);
        let core = self.core.with(&mail);
        let tx = self.db.transaction()?;
        let origin = super::Origin::default();
        let outcome = match core.override_step(&tx, what) {
            Ok(o) => o,
            Err(super::Failure::Refused(r)) => {
                return Ok((false, format!("{}\n", mail_text::refusal(&r.refusal))));
            }
            Err(super::Failure::Storage(e)) => return Err(e.into()),
        };
        let text = outcome.text.clone();
        let mails = core.letters_to_mails(&tx, &origin, vec![outcome])?;
        let ids = queue(&tx, &mails, core.now)?;
        tx.commit()?;
        core.send_claimed(&self.db, &ids, &mails);
        // A robot given the turn (a seat handed to a robot, a move taken back) moves now, each move
        // in its own transaction (see `server/robots.rs`).
        let waiting = core.robots_waiting();
        self.robots_after_commit(&mail, waiting, false);
        Ok((true, text))
    }
}

impl Handling<'_> {
    fn override_step(&self, tx: &Tx<'_>, what: &Override) -> Step<Outcome> {
        match what {
            Override::Password { userid, password } => {
                accounts::check_password(password).map_err(AccountRefusal::Invalid)?;
                let user = tx
                    .user(userid)?
                    .filter(|u| u.robot.is_none())
                    .ok_or_else(|| AdminRefusal::NotRegistered {
                        userid: userid.clone(),
                    })?;
                let hash = accounts::hash_password(&self.cfg.passwords, password)
                    .map_err(AccountRefusal::Invalid)?;
                tx.set_password(user.id, Some(&hash))?;
                let changed = AccountEvent::PasswordChanged {
                    userid: user.userid,
                    by: PasswordChange::ByAdmin,
                };
                Ok(self.account_notice(changed, user.addresses))
            }
            Override::End {
                game,
                board,
                winner,
                cancel,
                reason,
            } => {
                let (rules, row, state) = self.game_for_override(tx, game, *board, reason)?;
                let mut next = state.clone_box();
                let winner = match winner {
                    Some(w) => {
                        let seat = row
                            .players
                            .iter()
                            .position(|p| p.userid.eq_ignore_ascii_case(w))
                            .ok_or_else(|| AdminRefusal::NotOnBoard {
                                userid: w.clone(),
                                board: *board,
                            })?;
                        for other in 0..row.players.len() {
                            if other != seat && !matches!(next.status(), Status::Over(_)) {
                                // A seat already out refuses; the others forfeit.
                                let _ = next.forfeit(other);
                            }
                        }
                        if next.status() != Status::Over(games::Outcome::Winner(seat)) {
                            return Err(AdminRefusal::CannotWin {
                                userid: w.clone(),
                                board: *board,
                            }
                            .into());
                        }
                        Some(row.players[seat].userid.clone())
                    }
                    None => {
                        next.agree_draw().map_err(PlayRefusal::Rules)?;
                        None
                    }
                };
                if *cancel {
                    tx.cancel_game(row.id, self.now)?;
                }
                let ended = Event::AdminEnded {
                    game: Game::of(rules),
                    board: *board,
                    winner,
                    cancelled: *cancel,
                    reason: reason.clone(),
                };
                let before = next.move_number();
                self.record_with_verdict(
                    tx,
                    HostedGame::new(rules, &row, next.as_ref()),
                    before,
                    ended,
                )
            }
            Override::Replace {
                game,
                board,
                old,
                new,
                reason,
            } => {
                let (rules, row, state) = self.game_for_override(tx, game, *board, reason)?;
                let seat = row
                    .players
                    .iter()
                    .position(|p| p.userid.eq_ignore_ascii_case(old))
                    .ok_or_else(|| AdminRefusal::NotOnBoard {
                        userid: old.clone(),
                        board: *board,
                    })?;
                let user = tx
                    .user(new)?
                    .filter(|u| u.password_hash.is_some() || u.robot.is_some())
                    .ok_or_else(|| AdminRefusal::NotRegistered {
                        userid: new.clone(),
                    })?;
                if row.players.iter().any(|p| p.id == user.id) {
                    return Err(AdminRefusal::AlreadyPlays {
                        userid: user.userid,
                        board: *board,
                    }
                    .into());
                }
                if user.robot.is_some() && !rules.has_robot() {
                    return Err(AdminRefusal::NoRobot {
                        userid: user.userid,
                        game: Game::of(rules),
                    }
                    .into());
                }
                let replaced = Event::SeatReplaced {
                    game: Game::of(rules),
                    board: *board,
                    old: row.players[seat].userid.clone(),
                    new: user.userid.clone(),
                    reason: reason.clone(),
                };
                tx.replace_seat(row.id, seat, user.id, self.now)?;
                tx.clear_queued_moves(row.id)?;
                let row = tx
                    .game(rules.name(), *board)?
                    .ok_or(AdminRefusal::Vanished { board: *board })?;
                let before = state.move_number();
                self.record_with_verdict(
                    tx,
                    HostedGame::new(rules, &row, state.as_ref()),
                    before,
                    replaced,
                )
            }
            Override::Undo {
                game,
                board,
                reason,
            } => {
                let (rules, row, state) = self.game_for_override(tx, game, *board, reason)?;
                let moves = state.moves();
                let last = moves
                    .iter()
                    .rposition(|m| !m.auto)
                    .ok_or(AdminRefusal::NothingToTakeBack { board: *board })?;
                let next = state
                    .at_move(last as u32 + 1)
                    .map_err(|error| AdminRefusal::TakeBackFailed { error })?;
                tx.clear_queued_moves(row.id)?;
                let taken_back = Event::MoveTakenBack {
                    game: Game::of(rules),
                    board: *board,
                    move_number: last + 1,
                    mv: moves[last].text.clone(),
                    reason: reason.clone(),
                };
                let before = next.move_number();
                self.record_with_verdict(
                    tx,
                    HostedGame::new(rules, &row, next.as_ref()),
                    before,
                    taken_back,
                )
            }
        }
    }

    /// Writes the verdict line of an override's event into the game's record, then saves the game
    /// and writes its mails as after a move; the event comes first among the outcome's events.
    fn record_with_verdict(
        &self,
        tx: &Tx<'_>,
        game: HostedGame<'_>,
        before: u32,
        event: Event,
    ) -> Step<Outcome> {
        let HostedGame { row, .. } = game;
        if let Some(verdict) = mail_text::verdict(&event) {
            tx.add_verdict(row.id, &verdict)?;
        }
        let mut outcome = self.record_turn(tx, game, None, before, "")?;
        outcome.events.insert(0, event);
        Ok(outcome)
    }

    /// The running game an override acts on, after checking the reason is given.
    fn game_for_override(
        &self,
        tx: &Tx<'_>,
        game: &str,
        board: u32,
        reason: &str,
    ) -> Step<(
        &'static dyn GameRules,
        crate::storage::GameRow,
        Box<dyn GameState>,
    )> {
        if reason.trim().is_empty() {
            return Err(AdminRefusal::NoReason.into());
        }
        let rules = self
            .games
            .find(game)
            .ok_or_else(|| AdminRefusal::UnknownGame {
                game: game.to_string(),
            })?;
        let (row, state) = self.load_game(tx, rules, board)?;
        if row.finished {
            return Err(AdminRefusal::Finished { board }.into());
        }
        Ok((rules, row, state))
    }
}

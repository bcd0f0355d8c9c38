//! Queued moves: `queue` keeps a move for when the player's turn comes, and a change of the game
//! that makes it their turn plays it (more board mails) or drops it (a mail to them).

use super::act::Act;
use super::boards::seats_in;
use super::proposals::{name_of, with_event, with_notice};
use super::{Handling, HostedGame, Letter, Outcome, Refused, Step};
use crate::decision::{Dropped, Event, Game, ProposalRefusal};
use crate::games::Status;
use crate::mail_text;
use crate::storage::{QueuedMove, StorageError, Tx, User};
use crate::summary;

impl Handling<'_> {
    /// `queue board userid password move[#N]`: keeps a move for when the player's turn comes.
    pub(super) fn queue_move(&self, tx: &Tx<'_>, act: Act<'_>, mv: &str) -> Step<Outcome> {
        let Act {
            rules,
            board,
            userid,
            password,
            guard,
            comment,
        } = act;
        let (row, state, user, seat) = self.seated(tx, rules, board, userid, password)?;
        let refuse = |r: ProposalRefusal| Refused::on(r, rules.name(), board);
        if let Err(error) = rules.read_move(mv) {
            return Err(refuse(ProposalRefusal::QueueUnreadable { board, error }).into());
        }
        let players = super::userids(&row);
        match state.status() {
            Status::Over(_) => {
                return Err(refuse(ProposalRefusal::QueueOver {
                    game: Game::of(rules),
                    board,
                    status: summary::status_line(state.as_ref(), &players),
                })
                .into());
            }
            Status::ToMove(s) if s == seat => {
                return Err(refuse(ProposalRefusal::QueueOnTurn {
                    game: Game::of(rules),
                    board,
                    userid: user.userid,
                    mv: mv.trim().to_string(),
                })
                .into());
            }
            Status::ToMove(_) => {}
        }
        if !seats_in(state.as_ref()).contains(&seat) {
            return Err(refuse(ProposalRefusal::QueueOut {
                userid: user.userid,
                board,
            })
            .into());
        }
        let now_at = state.move_number();
        if let Some(n) = guard
            && n <= now_at
        {
            return Err(refuse(ProposalRefusal::QueueGuard {
                board,
                meant: n,
                at: now_at,
            })
            .into());
        }
        let queued = QueuedMove {
            mv: mv.trim().to_string(),
            guard,
            comment: comment.trim().to_string(),
            created_at: self.now,
        };
        let old = tx.set_queued_move(row.id, user.id, &queued)?;
        let event = Event::MoveQueued {
            game: Game::of(rules),
            board,
            userid: user.userid,
            mv: queued.mv,
            guard,
            replaced: old.map(|o| o.mv),
        };
        let (subject, mut text) =
            mail_text::queued_answer(&event).expect("queued_answer words a MoveQueued event");
        text.push_str(&self.summary(tx, HostedGame::new(rules, &row, state.as_ref()), &[])?);
        Ok(Outcome {
            events: vec![event],
            ..Outcome::reply(subject, text)
        })
    }

    /// Called by `record_turn` with the board mails of a change: adds `notes` at their top, then, if the
    /// change made it the turn of a player with a queued move, plays it (more board mails) or drops it
    /// (a mail to that player).
    pub(super) fn after_turn(
        &self,
        tx: &Tx<'_>,
        game: HostedGame<'_>,
        outcome: Outcome,
        notes: &[String],
    ) -> Step<Outcome> {
        let HostedGame { rules, row, state } = game;
        let mut outcome = if notes.is_empty() {
            outcome
        } else {
            with_notice(outcome, &notes.join("\n"))
        };
        // This change may itself be a queued move: its own mails (and only those, not the ones of
        // moves it brings due in turn) say so.
        if let Some((user_id, at, queued)) = tx.take_played_queued_move(row.id)? {
            let played = Event::QueuedMovePlayed {
                game: Game::of(rules),
                board: row.board,
                userid: name_of(row, user_id),
                move_number: at,
                mv: queued.mv,
                queued_at: queued.created_at,
            };
            outcome = with_event(outcome, played);
            // Nobody's mail caused it, so no copy is a reply to the mail being handled.
            for l in &mut outcome.letters {
                l.reply = false;
            }
        }
        let Status::ToMove(seat) = state.status() else {
            return Ok(outcome);
        };
        let Some(player) = row.players.get(seat) else {
            return Ok(outcome);
        };
        let Some(queued) = tx.queued_move(row.id, player.id)? else {
            return Ok(outcome);
        };
        let mut next = state.clone_box();
        let at = next.move_number();
        let tried = match queued.guard {
            Some(n) if n != at => Err(Dropped::WrongMove { meant: n, at }),
            _ => next.play(&queued.mv).map_err(Dropped::Illegal),
        };
        match tried {
            Ok(()) => {
                tx.mark_queued_move_played(row.id, player.id, at)?;
                let played = self.record_turn(
                    tx,
                    HostedGame::new(rules, row, next.as_ref()),
                    Some((player, seat)),
                    at,
                    &queued.comment,
                )?;
                outcome.letters.extend(played.letters);
                outcome.events.extend(played.events);
            }
            Err(why) => {
                tx.take_queued_move(row.id, player.id)?;
                let dropped = Event::QueuedMoveDropped {
                    game: Game::of(rules),
                    board: row.board,
                    userid: player.userid.clone(),
                    mv: queued.mv,
                    why,
                };
                outcome
                    .letters
                    .extend(self.dropped_letter(tx, game, player, &dropped)?);
                outcome.events.push(dropped);
            }
        }
        Ok(outcome)
    }

    /// The mail telling a player that their queued move was dropped (`dropped`, an
    /// [`Event::QueuedMoveDropped`]), with the board.
    fn dropped_letter(
        &self,
        tx: &Tx<'_>,
        game: HostedGame<'_>,
        player: &User,
        dropped: &Event,
    ) -> Result<Option<Letter>, StorageError> {
        let board_text = self.summary(tx, game, &[])?;
        Ok(
            mail_text::dropped_queued_move(dropped, &board_text).map(|(subject, body)| Letter {
                to: player.addresses.clone(),
                subject,
                body,
                reply: false,
                picture: None,
                sign: None,
                thread: None,
                headline: None,
            }),
        )
    }
}

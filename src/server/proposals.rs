//! Proposals (`propose undo|draw`, `accept`, `reject`) and queued moves.
//!
//! The rules chosen where pbmserv left them open (they are in the general help, [`HELP`]):
//!
//! * Any player still in the game may propose, on their turn or not; a board has at most one open
//!   proposal. Nothing can be proposed once the game is over.
//! * `propose undo` takes back the proposer's last own move and every move after it, so that it is the
//!   proposer's turn again. It is refused when the proposer has made no move yet, and when a
//!   resignation or forfeit came after that move (leaving the game is not taken back).
//! * `propose draw` ends the game as a draw between the players still in.
//! * The proposal is settled when every other player still in has accepted it (then it is carried out),
//!   when any of them rejects it (nothing changes), or when the game changes before that (a move, a
//!   resignation, a forfeit): it lapses and the board mails say so. So to offer a draw together with a
//!   move, play the move first and propose after it (Subject `multiple`, one command a line).
//! * Nobody answers their own proposal; answering when none is open, or answering twice, is refused.
//! * An accepted undo also drops every queued move on the board: they were written for a position
//!   that is gone.
//! * `queue` is refused on the player's own turn (play the move now). One queued move per player per
//!   board; a new one replaces the old. When a change of the game makes it that player's turn, the
//!   queued move is played at once if it is legal (and its `#N`, if any, matches the move awaited), with
//!   its comment, and every board mail says it was queued; otherwise it is dropped and the player is
//!   mailed why, with the board. Queued moves are never shown to the other players.

use super::act::{Act, Answering};
use super::boards::seats_in;
use super::{Handling, HostedGame, Outcome, Refused, Step};
use crate::command::ProposalKind;
use crate::decision::{Event, Game, OpenProposal, PlayRefusal, ProposalRefusal};
use crate::games::{GameState, Status};
use crate::mail_text;
use crate::news;
use crate::storage::{GameRow, Proposal, StorageError, Tx, User};
use crate::summary;

/// Whether the game lists the word `accept` among its moves now and `seat` may move (Go's scoring
/// step): then `accept` with no proposal open is that move, and the game says why if it refuses it.
fn takes_accept_as_move(state: &dyn GameState, seat: usize) -> bool {
    let may = match state.status() {
        Status::ToMove(s) => s == seat || state.acts_out_of_turn(seat),
        Status::Over(_) => false,
    };
    may && state.legal_moves().iter().any(|m| m == "accept")
}

/// The commands of this module and the rules chosen, for the general help.
pub(super) const HELP: &str = "\
Proposals and queued moves:\n\
\x20 <game> move board userid password propose undo|draw\n\
\x20 <game> move board userid password accept|reject\n\
\x20 <game> queue board userid password move[#N]   (kept for your turn)\n\
Any player still in may propose, on their turn or not: `propose undo`\n\
takes back the proposer's own last move and everything after it, so that\n\
it is their turn again; `propose draw` ends the game as a draw. A board\n\
has one open proposal at a time, shown under the status of every board\n\
mail. It is carried out when all the other players still in accept it,\n\
dropped when one of them rejects it, and it lapses when the game changes\n\
first (a move, a resignation, a forfeit): to offer a draw with your\n\
move, send the move first, then the proposal. An unanswered draw\n\
proposal is accepted when the forfeit clock runs out. An undo cannot\n\
take back a resignation or a forfeit, and it drops the board's queued\n\
moves.\n\
\n\
A queued move is kept (one per player and board; a new one replaces the\n\
old) until your turn comes. Then it is played if it is still legal (and\n\
its #N, if any, is the move awaited), or dropped and you are told why.\n\
The other players do not see it. On your own turn, play the move\n\
instead.\n\
";

/// One player's answer to the open proposal, as [`Handling::settle`] weighs it.
struct ProposalAnswer<'a> {
    /// Who answers, and from which seat.
    user: User,
    seat: usize,
    /// The proposal answered.
    open: Proposal,
    /// `accept` rather than `reject`.
    accept: bool,
    /// The comment of the answer's mail.
    comment: &'a str,
}

impl Handling<'_> {
    /// Lines under a board's status about its open proposals (empty when none is open).
    pub(super) fn proposal_lines(
        &self,
        tx: &Tx<'_>,
        game: HostedGame<'_>,
    ) -> Result<Vec<String>, StorageError> {
        let HostedGame { rules, row, state } = game;
        let Some(p) = tx.open_proposal(row.id)? else {
            return Ok(Vec::new());
        };
        let mut lines = vec![proposal_line(&p, row, state)];
        // How each player still to answer does it. A robot has no password to write it with: it
        // answers in the run that made the proposal (`server/robot_answers.rs`), and is left
        // waiting only when its search failed; say so rather than show it a line (issue 25).
        for who in waiting_for(&p, row, state) {
            if row
                .players
                .iter()
                .any(|u| u.userid == who && u.robot.is_some())
            {
                lines.push(format!(
                    "  {who} is a robot and could not answer: this proposal lapses with the \
                     next move."
                ));
                continue;
            }
            let line = format!("{} move {} {who} <password>", rules.name(), row.board);
            lines.push(format!("  {who} answers with:  {line} accept"));
            lines.push(format!(
                "  {:width$}   or:  {line} reject",
                "",
                width = who.len() + 8
            ));
        }
        Ok(lines)
    }

    /// The proposal open on the board as the news at the top of a board mail tells it, with the
    /// words of the Subject for it (`draw offered`, `undo asked`).
    pub(super) fn open_proposal_news(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
        state: &dyn GameState,
    ) -> Result<Option<(news::OpenProposal, &'static str)>, StorageError> {
        let Some(p) = tx.open_proposal(row.id)? else {
            return Ok(None);
        };
        let waiting = waiting_for(&p, row, state);
        let words = match p.kind {
            ProposalKind::Draw => "draw offered",
            ProposalKind::Undo => "undo asked",
        };
        Ok(Some((
            news::OpenProposal {
                text: mail_text::open_proposal(&open_proposal(&p, row, state)),
                waiting: row
                    .players
                    .iter()
                    .enumerate()
                    .filter(|(_, u)| waiting.contains(&u.userid))
                    .map(|(s, _)| s)
                    .collect(),
            },
            words,
        )))
    }

    /// Takes the draw proposal open on this board, if any, for the forfeit clock, which accepts it
    /// instead of forfeiting the player who left it unanswered. Returns its proposer's userid. The
    /// proposal is settled here, so the board mails do not also report it as closed.
    pub(super) fn take_open_draw_proposal(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
    ) -> Result<Option<String>, StorageError> {
        match tx.open_proposal(row.id)? {
            Some(open) if open.kind == ProposalKind::Draw => {
                tx.clear_proposal(row.id)?;
                Ok(Some(name_of(row, open.proposer_id)))
            }
            _ => Ok(None),
        }
    }

    /// `move ... propose undo|draw`.
    pub(super) fn propose(&self, tx: &Tx<'_>, act: Act<'_>, kind: ProposalKind) -> Step<Outcome> {
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
        check_guard(state.as_ref(), board, guard).map_err(refuse)?;
        let players = super::userids(&row);
        if matches!(state.status(), Status::Over(_)) {
            return Err(refuse(ProposalRefusal::Over {
                game: Game::of(rules),
                board,
                status: summary::status_line(state.as_ref(), &players),
            })
            .into());
        }
        if !seats_in(state.as_ref()).contains(&seat) {
            return Err(refuse(ProposalRefusal::ProposerOut {
                userid: user.userid,
                board,
            })
            .into());
        }
        if let Some(open) = tx.open_proposal(row.id)? {
            return Err(refuse(ProposalRefusal::AlreadyOpen {
                board,
                open: open_proposal(&open, &row, state.as_ref()),
            })
            .into());
        }
        if kind == ProposalKind::Undo {
            undo_target(state.as_ref(), seat).map_err(refuse)?;
        }
        let at = state.move_number();
        tx.insert_proposal(row.id, kind, user.id, at, self.now)?;
        let comments = self.comment_at(tx, &row, at, user.id, comment)?;
        let made = Event::ProposalMade {
            game: Game::of(rules),
            board,
            userid: user.userid.clone(),
            kind,
        };
        let answering = Answering {
            seat: Some(seat),
            comments: comments.clone(),
        };
        if let Some(answered) =
            self.robots_answer(tx, HostedGame::new(rules, &row, state.as_ref()), answering)?
        {
            return Ok(with_event(answered, made));
        }
        let outcome = self.board_mails(
            tx,
            HostedGame::new(rules, &row, state.as_ref()),
            &comments,
            false,
            Some(seat),
            None,
        )?;
        Ok(with_event(outcome, made))
    }

    /// The robots among the players still to answer the proposal just made answer it at once (see
    /// `server/robot_answers.rs`). Returns the mails of the answer that settles it (a rejection,
    /// or the last acceptance, carried out): they answer the proposer's mail (`proposer`: their
    /// seat, and the comment it carried, which every copy shows); `None` while people still have
    /// to answer, or when a robot's draw answer is still to be thought out (that pass is rolled
    /// back and runs again once the robots have thought).
    fn robots_answer(
        &self,
        tx: &Tx<'_>,
        game: HostedGame<'_>,
        proposer: Answering,
    ) -> Step<Option<Outcome>> {
        let HostedGame { rules, row, state } = game;
        let Some(open) = tx.open_proposal(row.id)? else {
            return Ok(None);
        };
        let robots: Vec<(usize, &User, u8)> = {
            let waiting = waiting_for(&open, row, state);
            row.players
                .iter()
                .enumerate()
                .filter(|(_, u)| waiting.contains(&u.userid))
                .filter_map(|(s, u)| u.robot.map(|level| (s, u, level)))
                .collect()
        };
        // Every robot's answer first, so that one rolled-back pass notes all that need thinking.
        let mut answers = Vec::new();
        for &(seat, robot, level) in &robots {
            let accept = match open.kind {
                ProposalKind::Undo => Some(true),
                ProposalKind::Draw => self.robot_accepts_draw(rules, row.board, state, seat, level),
            };
            answers.push(accept.map(|a| (seat, robot, a)));
        }
        let Some(answers) = answers.into_iter().collect::<Option<Vec<_>>>() else {
            return Ok(None);
        };
        for (seat, robot, accept) in answers {
            let open = tx.open_proposal(row.id)?.ok_or_else(|| {
                StorageError::Corrupt(format!("board {}: the proposal went", row.board))
            })?;
            let others = waiting_for(&open, row, state).len() - 1;
            if accept && others > 0 {
                // Not the last answer: noted quietly, the mails go out with the last one.
                tx.accept_proposal(row.id, robot.id)?;
                continue;
            }
            let answer = ProposalAnswer {
                user: robot.clone(),
                seat,
                open,
                accept,
                comment: "",
            };
            let outcome = self.settle(tx, game, answer, proposer)?;
            return Ok(Some(outcome));
        }
        Ok(None)
    }

    /// `move ... accept` and `move ... reject`.
    pub(super) fn answer(&self, tx: &Tx<'_>, act: Act<'_>, accept: bool) -> Step<Outcome> {
        let Act {
            rules,
            board,
            userid,
            password,
            guard,
            comment,
        } = act;
        let (row, state, user, seat) = self.seat_of(tx, rules, board, userid, password)?;
        let refuse = |r: ProposalRefusal| Refused::on(r, rules.name(), board);
        check_guard(state.as_ref(), board, guard).map_err(refuse)?;
        let agreed_before = tx.has_agreed(row.id, seat)?;
        let open = tx.open_proposal(row.id)?;
        if open.is_none() && !agreed_before {
            // No proposal to answer: the answer is to the challenge itself.
            if !accept {
                return self.resign_seated(
                    tx,
                    HostedGame::new(rules, &row, state.as_ref()),
                    &user,
                    seat,
                    comment,
                );
            }
            return self.accept_game(
                tx,
                HostedGame::new(rules, &row, state.as_ref()),
                &user,
                seat,
                comment,
            );
        }
        self.agree_by_command(tx, row.id, seat)?;
        if open.is_none() && accept && takes_accept_as_move(state.as_ref(), seat) {
            // No proposal is open and the game itself takes `accept` as a move (Go's scoring
            // step): the word is that move.
            return self.play(tx, act, "accept");
        }
        let Some(open) = open else {
            return Err(refuse(ProposalRefusal::NoneOpen {
                game: Game::of(rules),
                board,
                userid: user.userid,
                accept,
            })
            .into());
        };
        let answering = Answering::default();
        self.settle(
            tx,
            HostedGame::new(rules, &row, state.as_ref()),
            ProposalAnswer {
                user,
                seat,
                open,
                accept,
                comment,
            },
            answering,
        )
    }

    /// An answer of `user` (in `seat`) to the open proposal `open`, after the checks of who wrote
    /// it: refused, or recorded and mailed, and the proposal carried out once all have accepted.
    /// `answering`: whose mail the answer's mails answer when not `user`'s (a robot answers in
    /// the run of the proposer's mail), and the comments that mail carried.
    fn settle(
        &self,
        tx: &Tx<'_>,
        game: HostedGame<'_>,
        answer: ProposalAnswer<'_>,
        answering: Answering,
    ) -> Step<Outcome> {
        let ProposalAnswer {
            user,
            seat,
            open,
            accept,
            comment,
        } = answer;
        let HostedGame { rules, row, state } = game;
        let board = row.board;
        let refuse = |r: ProposalRefusal| Refused::on(r, rules.name(), board);
        let what = open_proposal(&open, row, state);
        if open.proposer_id == user.id {
            return Err(refuse(ProposalRefusal::OwnProposal { open: what }).into());
        }
        if !seats_in(state).contains(&seat) {
            return Err(refuse(ProposalRefusal::AnswererOut {
                userid: user.userid,
                board,
            })
            .into());
        }
        if accept && open.accepted_by.contains(&user.id) {
            return Err(refuse(ProposalRefusal::AlreadyAccepted { open: what }).into());
        }
        let proposer = name_of(row, open.proposer_id);
        let at = state.move_number();
        let reply_seat = answering.seat;
        let mut comments = answering.comments;
        if !accept {
            tx.clear_proposal(row.id)?;
            comments.extend(self.comment_at(tx, row, at, user.id, comment)?);
            let outcome = self.board_mails(
                tx,
                HostedGame::new(rules, row, state),
                &comments,
                false,
                Some(reply_seat.unwrap_or(seat)),
                None,
            )?;
            let rejected = Event::ProposalRejected {
                game: Game::of(rules),
                board,
                userid: user.userid,
                proposer,
                kind: open.kind,
            };
            return Ok(with_event(outcome, rejected));
        }
        let mut accepted = open.accepted_by.clone();
        accepted.push(user.id);
        let waiting = waiting_for(&open.clone_with(accepted), row, state);
        if !waiting.is_empty() {
            tx.accept_proposal(row.id, user.id)?;
            comments.extend(self.comment_at(tx, row, at, user.id, comment)?);
            let outcome = self.board_mails(
                tx,
                HostedGame::new(rules, row, state),
                &comments,
                false,
                Some(reply_seat.unwrap_or(seat)),
                None,
            )?;
            let accepted = Event::ProposalAccepted {
                game: Game::of(rules),
                board,
                userid: user.userid,
                proposer,
                kind: open.kind,
            };
            return Ok(with_event(outcome, accepted));
        }
        // Everyone has agreed: carry it out.
        let proposer_seat = row
            .players
            .iter()
            .position(|p| p.id == open.proposer_id)
            .ok_or_else(|| {
                StorageError::Corrupt(format!("board {board}: the proposer has no seat"))
            })?;
        let (next, carried) = match open.kind {
            ProposalKind::Draw => {
                let mut next = state.clone_box();
                next.agree_draw()
                    .map_err(|e| Refused::on(PlayRefusal::Rules(e), rules.name(), board))?;
                let drawn = Event::DrawAgreed {
                    game: Game::of(rules),
                    board,
                    proposer,
                };
                (next, drawn)
            }
            ProposalKind::Undo => {
                let target = undo_target(state, proposer_seat).map_err(refuse)?;
                let next = state
                    .at_move(target)
                    .map_err(|error| refuse(ProposalRefusal::UndoFailed { error }))?;
                let undone = Event::UndoAgreed {
                    game: Game::of(rules),
                    board,
                    proposer,
                    back_to: target,
                    last: at - 1,
                };
                (next, undone)
            }
        };
        // Written only now that nothing can be refused any more. The proposal goes before the
        // change, so that the change does not report it as lapsed.
        tx.clear_proposal(row.id)?;
        if open.kind == ProposalKind::Undo {
            tx.clear_queued_moves(row.id)?;
        }
        let before = next.move_number();
        let answering = Answering {
            seat: reply_seat,
            comments,
        };
        let outcome = self.record_turn_with(
            tx,
            HostedGame::new(rules, row, next.as_ref()),
            Some((&user, seat)),
            before,
            comment,
            answering,
        )?;
        Ok(with_event(outcome, carried))
    }

    /// Called by `record_turn` right after a game changed: an open proposal lapses (it was made for
    /// the game as it stood), and a finished game keeps no queued moves. Returns the proposal closed,
    /// if one was open (the board mails open with its notice).
    pub(super) fn game_changed(
        &self,
        tx: &Tx<'_>,
        game: HostedGame<'_>,
    ) -> Result<Option<Event>, StorageError> {
        let HostedGame { rules, row, state } = game;
        let mut closed = None;
        if let Some(open) = tx.open_proposal(row.id)? {
            tx.clear_proposal(row.id)?;
            closed = Some(Event::ProposalClosed {
                game: Game::of(rules),
                board: row.board,
                proposer: name_of(row, open.proposer_id),
                kind: open.kind,
                game_over: matches!(state.status(), Status::Over(_)),
            });
        }
        if matches!(state.status(), Status::Over(_)) {
            tx.clear_queued_moves(row.id)?;
        }
        Ok(closed)
    }
}

impl Proposal {
    /// The same proposal with another list of acceptances.
    fn clone_with(&self, accepted_by: Vec<i64>) -> Proposal {
        Proposal {
            accepted_by,
            ..self.clone()
        }
    }
}

/// Adds an event to an outcome: first among its events, and its notice, if it has one, above the
/// text of the outcome and of each of its letters.
pub(super) fn with_event(outcome: Outcome, event: Event) -> Outcome {
    let mut outcome = match mail_text::notice(&event) {
        Some(notice) => with_notice(outcome, &notice),
        None => outcome,
    };
    outcome.events.insert(0, event);
    outcome
}

/// Puts `notice` (and a blank line) above the text of an outcome and of each of its letters.
pub(super) fn with_notice(mut outcome: Outcome, notice: &str) -> Outcome {
    // Wrapped by words at 72 columns: an accepted undo's notice ran to 140 (issue 37).
    let notice: Vec<&str> = notice
        .trim_end()
        .lines()
        .flat_map(|l| crate::summary::wrap(l, crate::summary::ERROR_WIDTH))
        .collect();
    let notice = notice.join("\n");
    let add = |body: &str| format!("{notice}\n\n{body}");
    outcome.text = add(&outcome.text);
    for l in &mut outcome.letters {
        l.body = add(&l.body);
    }
    outcome
}

/// Refuses a command whose `#N` names another move than the one awaited.
fn check_guard(
    state: &dyn GameState,
    board: u32,
    guard: Option<u32>,
) -> Result<(), ProposalRefusal> {
    match guard {
        Some(n) if n != state.move_number() => Err(ProposalRefusal::Guard {
            board,
            meant: n,
            at: state.move_number(),
        }),
        _ => Ok(()),
    }
}

/// The move number an undo proposed by `seat` goes back to: that of the seat's last own move (so that
/// it is the seat's turn again). The error says why there is nothing to take back.
pub(super) fn undo_target(state: &dyn GameState, seat: usize) -> Result<u32, ProposalRefusal> {
    const LEAVING: [&str; 2] = ["resign", "forfeit"];
    let moves = state.moves();
    let Some(last) = moves.iter().rposition(|m| {
        m.seat == seat && !m.auto && !LEAVING.contains(&m.text.as_str()) && m.text != "draw"
    }) else {
        return Err(ProposalRefusal::NothingToUndo);
    };
    if let Some(k) = moves[last..]
        .iter()
        .position(|m| !m.auto && LEAVING.contains(&m.text.as_str()))
    {
        return Err(ProposalRefusal::UndoPastLeaving {
            last: last + 1,
            leaving: last + k + 1,
            what: moves[last + k].text.clone(),
        });
    }
    let target = last as u32 + 1;
    let back = state
        .at_move(target)
        .map_err(|error| ProposalRefusal::UndoImpossible { target, error })?;
    if back.status() != Status::ToMove(seat) {
        return Err(ProposalRefusal::UndoNotYourTurn { target });
    }
    Ok(target)
}

/// The userids of the players still in who have not yet answered `p` (the proposer excepted).
pub(super) fn waiting_for(p: &Proposal, row: &GameRow, state: &dyn GameState) -> Vec<String> {
    seats_in(state)
        .into_iter()
        .filter_map(|s| row.players.get(s))
        .filter(|u| u.id != p.proposer_id && !p.accepted_by.contains(&u.id))
        .map(|u| u.userid.clone())
        .collect()
}

pub(super) fn name_of(row: &GameRow, user_id: i64) -> String {
    row.players
        .iter()
        .find(|p| p.id == user_id)
        .map_or_else(|| "?".to_string(), |p| p.userid.clone())
}

/// An open proposal as the texts describe it: `alice proposes a draw (move 12)`.
fn open_proposal(p: &Proposal, row: &GameRow, state: &dyn GameState) -> OpenProposal {
    let undo_to = match p.kind {
        ProposalKind::Draw => None,
        ProposalKind::Undo => row
            .players
            .iter()
            .position(|u| u.id == p.proposer_id)
            .and_then(|s| undo_target(state, s).ok()),
    };
    OpenProposal {
        proposer: name_of(row, p.proposer_id),
        kind: p.kind,
        undo_to,
        move_number: p.move_number,
    }
}

/// The status line of an open proposal:
/// `Open proposal: alice proposes a draw (move 12); accepted by carol; waiting for bob.`
pub(super) fn proposal_line(p: &Proposal, row: &GameRow, state: &dyn GameState) -> String {
    let mut line = format!(
        "Open proposal: {}",
        mail_text::open_proposal(&open_proposal(p, row, state))
    );
    let accepted: Vec<String> = p.accepted_by.iter().map(|&id| name_of(row, id)).collect();
    if !accepted.is_empty() {
        line.push_str(&format!("; accepted by {}", accepted.join(", ")));
    }
    let waiting = waiting_for(p, row, state);
    if !waiting.is_empty() {
        line.push_str(&format!("; waiting for {}", waiting.join(", ")));
    }
    line.push('.');
    line
}

#[cfg(test)]
mod tests {
    use super::super::Letter;
    use super::*;
    use crate::games;

    fn new_game(players: usize) -> Box<dyn GameState> {
        games::Registry::standard()
            .find("limit")
            .unwrap()
            .new_game(&[], players, 7)
            .unwrap()
    }

    /// Plays the first legal move `n` times.
    fn play(g: &mut Box<dyn GameState>, n: usize) {
        for _ in 0..n {
            let m = g.legal_moves()[0].clone();
            g.play(&m).unwrap();
        }
    }

    fn user(id: i64, name: &str) -> User {
        User {
            id,
            userid: name.into(),
            password_hash: Some("h".into()),
            addresses: vec![format!("{name}@example.org")],
            robot: None,
        }
    }

    fn row(names: &[&str]) -> GameRow {
        GameRow {
            id: 1,
            game_type: "limit".into(),
            board: 101,
            state: String::new(),
            finished: false,
            created_at: 0,
            updated_at: 0,
            players: names
                .iter()
                .enumerate()
                .map(|(i, n)| user(i as i64 + 10, n))
                .collect(),
        }
    }

    #[test]
    fn seats_in_follows_resignations_and_the_end() {
        let mut g = new_game(3);
        assert_eq!(seats_in(g.as_ref()), vec![0, 1, 2]);
        g.resign(1).unwrap();
        assert_eq!(seats_in(g.as_ref()), vec![0, 2]);
        g.resign(0).unwrap();
        assert!(matches!(g.status(), Status::Over(_)));
        assert!(seats_in(g.as_ref()).is_empty());
    }

    #[test]
    fn undo_goes_back_to_the_proposers_last_own_move() {
        let mut g = new_game(2);
        assert_eq!(
            undo_target(g.as_ref(), 0),
            Err(ProposalRefusal::NothingToUndo)
        );
        play(&mut g, 3); // Red 1, Blue 2, Red 3; Blue to move at 4.
        assert_eq!(undo_target(g.as_ref(), 0), Ok(3));
        assert_eq!(undo_target(g.as_ref(), 1), Ok(2));
        let back = g.at_move(2).unwrap();
        assert_eq!(back.status(), Status::ToMove(1));
        assert_eq!(back.move_number(), 2);
    }

    #[test]
    fn undo_does_not_take_back_a_resignation() {
        let mut g = new_game(3);
        play(&mut g, 2); // Red 1, Blue 2; Green to move.
        g.resign(2).unwrap();
        assert_eq!(
            undo_target(g.as_ref(), 0),
            Err(ProposalRefusal::UndoPastLeaving {
                last: 1,
                leaving: 3,
                what: "resign".into(),
            })
        );
        // The resigned seat has no move of its own to take back.
        assert!(undo_target(g.as_ref(), 2).is_err());
    }

    #[test]
    fn the_status_line_names_who_accepted_and_who_is_awaited() {
        let mut g = new_game(3);
        play(&mut g, 4);
        let r = row(&["alice", "bob", "carol"]);
        let mut p = Proposal {
            kind: ProposalKind::Draw,
            proposer_id: 10,
            move_number: 5,
            created_at: 0,
            accepted_by: Vec::new(),
        };
        assert_eq!(
            proposal_line(&p, &r, g.as_ref()),
            "Open proposal: alice proposes a draw (move 5); waiting for bob, carol."
        );
        p.accepted_by.push(12);
        assert_eq!(
            proposal_line(&p, &r, g.as_ref()),
            "Open proposal: alice proposes a draw (move 5); accepted by carol; waiting for bob."
        );
        // alice (Red) made moves 1 and 4: her undo goes back to move 4.
        p.kind = ProposalKind::Undo;
        p.accepted_by.clear();
        assert_eq!(
            proposal_line(&p, &r, g.as_ref()),
            "Open proposal: alice proposes to undo back to move 4 (move 5); waiting for bob, carol."
        );
        // A player who resigned is no longer awaited.
        g.resign(1).unwrap();
        assert_eq!(waiting_for(&p, &r, g.as_ref()), vec!["carol".to_string()]);
    }

    #[test]
    fn a_notice_heads_the_text_and_every_letter() {
        let o = Outcome {
            ok: true,
            text: "Summary".into(),
            subject: "s".into(),
            letters: vec![Letter {
                to: vec!["a@x".into()],
                subject: "s".into(),
                body: "Summary".into(),
                reply: false,
                picture: None,
                sign: None,
                thread: None,
                headline: None,
            }],
            ..Outcome::default()
        };
        let o = with_notice(o, "bob rejects.");
        assert_eq!(o.text, "bob rejects.\n\nSummary");
        assert_eq!(o.letters[0].body, "bob rejects.\n\nSummary");
    }
}

//! The prose that the play family's events add to the board mails: the new-game notice, the verdict
//! lines a game keeps, the rating changes.

use crate::decision::{Dropped, Event, Settlement};
use crate::model::ProposalKind;
use crate::storage::GameResult;
use crate::summary;

/// The notice to the players who asked (`notify`) about new games of the type: the Subject and the
/// text, over `board` (the new board's mail). `None` for any event but [`Event::GameStarted`].
pub fn new_game_notice(event: &Event, board_text: &str) -> Option<(String, String)> {
    let Event::GameStarted {
        game,
        board,
        players,
    } = event
    else {
        return None;
    };
    let who = players.join(" vs ");
    let subject = format!("New {} Board {board} {who}", game.title);
    let text = format!(
        "A new {title} game has started on Board {board}: {who}.\n\n\
         To get every board mail of it:  {name} subscribe {board} <userid> <password>\n\
         To stop these notices:          {name} notify <userid> <password> off\n\n{board_text}",
        title = game.title,
        name = game.name,
    );
    Some((subject, text))
}

/// The verdict line an event leaves in the game's record (shown under the status of its board mails
/// and in `history`), if it leaves one.
pub fn verdict(event: &Event) -> Option<String> {
    match event {
        Event::Resigned {
            userid,
            declined: true,
            ..
        } => Some(format!(
            "{userid} declined the game: resigned before ever agreeing to it."
        )),
        Event::GameEnded {
            settlement: Settlement::NotAgreed(players),
            ..
        } => Some(format!(
            "Cancelled for the ratings: {} never agreed to this game (by a move or other \
             command with the password, by `accept`, or by a challenge with --password), \
             so it is not rated.",
            players.join(" and ")
        )),
        Event::GameEnded {
            settlement: Settlement::RobotsOnly,
            ..
        } => Some("Not rated: robots alone played this game.".to_string()),
        Event::Forfeited { userid, days, .. } => {
            Some(format!("{userid} forfeited: no move in {days} days."))
        }
        Event::DrawAtForfeit {
            proposer,
            userid,
            days,
            ..
        } => Some(format!(
            "{proposer}'s proposal of a draw is carried out: {userid} did not move for \
             {days} days while it was open, so it was accepted at forfeit time, \
             and the game is drawn."
        )),
        Event::AdminEnded {
            winner,
            cancelled,
            reason,
            ..
        } => {
            let said = match winner {
                Some(w) => format!("{w} wins"),
                None => "a draw between the players still in".to_string(),
            };
            Some(if *cancelled {
                format!("Cancelled by the server's admin, not rated ({said}): {reason}")
            } else {
                format!("Adjudicated by the server's admin: {said}. {reason}")
            })
        }
        Event::SeatReplaced {
            old, new, reason, ..
        } => Some(format!(
            "The server's admin put {new} in the seat of {old}: {reason}"
        )),
        Event::MoveTakenBack {
            move_number,
            mv,
            reason,
            ..
        } => Some(format!(
            "The server's admin took back move {move_number} ({mv}): {reason}"
        )),
        _ => None,
    }
}

/// The line an event puts at the top of the board mails of the change it made, if it puts one.
pub fn notice(event: &Event) -> Option<String> {
    Some(match event {
        Event::GameAccepted {
            userid, waiting, ..
        } => {
            if waiting.is_empty() {
                format!(
                    "{userid} accepted the game: every player has agreed, so it counts for the \
                     ratings."
                )
            } else {
                let verb = if waiting.len() == 1 {
                    "agrees"
                } else {
                    "agree"
                };
                format!(
                    "{userid} accepted the game. It counts for the ratings once {} {verb} too.",
                    waiting.join(" and ")
                )
            }
        }
        Event::ProposalRejected {
            userid,
            proposer,
            kind,
            ..
        } => format!(
            "{userid} rejects {proposer}'s proposal of {}: nothing changes.",
            noun(*kind)
        ),
        Event::DrawAgreed { proposer, .. } => {
            format!("All players accept {proposer}'s draw proposal: the game is drawn.")
        }
        Event::UndoAgreed {
            proposer,
            back_to,
            last,
            ..
        } => format!(
            "All players accept {proposer}'s undo: moves {back_to} to {last} are taken \
             back and it is {proposer}'s turn again at move {back_to}. Queued moves on \
             this board are dropped."
        ),
        Event::ProposalClosed {
            proposer,
            kind,
            game_over: true,
            ..
        } => format!(
            "{proposer}'s proposal of {} is closed: the game is over.",
            noun(*kind)
        ),
        Event::ProposalClosed {
            proposer,
            kind,
            game_over: false,
            ..
        } => format!(
            "{proposer}'s proposal of {} lapsed: the game changed before everyone accepted.",
            noun(*kind)
        ),
        Event::QueuedMovePlayed {
            userid,
            move_number,
            mv,
            queued_at,
            ..
        } => format!(
            "Move {move_number} is {userid}'s queued move {mv} (queued {}).",
            summary::format_time(*queued_at)
        ),
        _ => return None,
    })
}

/// The answer to `queue`: the Subject, and the text that goes above the board, within 72
/// columns. `None` for other events.
pub fn queued_answer(event: &Event) -> Option<(String, String)> {
    queued_words(event).map(|(s, t)| (s, fill(&t)))
}

/// The answer to `queue`: the Subject, and the text that goes above the board. `None` for other
/// events.
fn queued_words(event: &Event) -> Option<(String, String)> {
    let Event::MoveQueued {
        game,
        board,
        userid,
        mv,
        guard,
        replaced,
    } = event
    else {
        return None;
    };
    let shown = match guard {
        Some(n) => format!("{mv}#{n}"),
        None => mv.clone(),
    };
    let mut text = format!(
        "Your move {shown} is queued on {} board {board}. It will be played as soon as it is \
         your turn, if it is legal then{}; if not, it is dropped and you will be told why. The \
         other players do not see it.\n",
        game.title,
        if guard.is_some() {
            " and the game is at that move"
        } else {
            ""
        }
    );
    if let Some(old) = replaced {
        text.push_str(&format!(
            "It replaces your earlier queued move {old} (one queued move per player and board).\n"
        ));
    }
    text.push('\n');
    Some((
        format!("{} Board {board} Queued move {userid}", game.title),
        text,
    ))
}

/// The reminder to the player to move: the Subject, and the text that goes above the board. `None`
/// for other events.
pub fn nag(event: &Event) -> Option<(String, String)> {
    let Event::Nagged {
        game,
        board,
        userid: who,
        days,
        vacation_left_out,
        since,
        deadline,
        nag_days,
        forfeit_days,
        draw_open,
    } = event
    else {
        return None;
    };
    let title = game.title;
    let not_counted = if *vacation_left_out {
        " (not counting your vacation)"
    } else {
        ""
    };
    let at_forfeit = if *draw_open {
        "the open draw proposal is accepted and the game is drawn"
    } else {
        "you forfeit the game"
    };
    let prose = fill(&format!(
        "{who}, it is your move on {title} Board {board}, and it has been for {days} \
         days{not_counted}, since {}.\n\n\
         After {forfeit_days} days without a move {at_forfeit}: that is on {}, unless you \
         move before then. You are reminded every {nag_days} days until you move.\n\n",
        summary::format_time(*since),
        summary::format_time(*deadline),
    ));
    let text = format!(
        "{prose}To move:      reply to this mail with just your move, or send\n\
         \x20             {} move {board} {who} <password> <move>\n\
         Going away?   vacation {who} <password> <first day> <last day>\n\
         \x20             with the days as YYYY-MM-DD: it stops the clock of\n\
         \x20             all your games while you are away.\n\n",
        game.name,
    );
    Some((format!("Nag: {title} Board {board} {who}"), text))
}

/// The mail telling a player that their queued move was dropped: the Subject and the text, over
/// `board_text` (the board as it stands). `None` for any event but [`Event::QueuedMoveDropped`].
pub fn dropped_queued_move(event: &Event, board_text: &str) -> Option<(String, String)> {
    let Event::QueuedMoveDropped {
        game,
        board,
        userid,
        mv,
        why,
    } = event
    else {
        return None;
    };
    let why = match why {
        Dropped::WrongMove { meant, at } => {
            format!("it was meant for move {meant}, but your turn came at move {at}")
        }
        Dropped::Illegal(e) => format!("it is not legal now: {e}"),
    };
    let subject = format!("{} Board {board} Queued move dropped {userid}", game.title);
    let body = format!(
        "Your queued move {mv} on {} board {board} was not played: {why}.\nIt has been dropped. \
         It is your turn: send your move with `{} move {board} {userid} <password> <move>`.\n\n\
         {board_text}",
        game.title, game.name
    );
    Some((subject, body))
}

/// `text` with each line of prose longer than 72 columns broken between words (a line that starts
/// with a blank, an example to send, stays whole): these answers are written a paragraph a line.
pub(super) fn fill(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let bare = line.trim_end_matches('\n');
        for part in summary::wrap(bare, summary::ERROR_WIDTH) {
            out.push_str(part);
            out.push('\n');
        }
        if !line.ends_with('\n') {
            out.pop();
        }
    }
    out
}

/// `an undo`, `a draw`.
fn noun(kind: ProposalKind) -> &'static str {
    match kind {
        ProposalKind::Undo => "an undo",
        ProposalKind::Draw => "a draw",
    }
}

/// `alice 1600 -> 1632 (+32)`: one seat's rating change.
pub fn rating_change(r: &GameResult) -> String {
    format!(
        "{} {} -> {} ({:+})",
        r.userid,
        r.before.rating,
        r.after,
        r.after - r.before.rating
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games;
    use crate::ratings::{Rating, SeatResult};

    use super::super::LIMIT;

    #[test]
    fn the_new_game_notice_heads_the_board() {
        let started = Event::GameStarted {
            game: LIMIT,
            board: 7,
            players: vec!["alice".into(), "bob".into()],
        };
        let (subject, text) = new_game_notice(&started, "BOARD\n").unwrap();
        assert_eq!(subject, "New Limit Board 7 alice vs bob");
        assert_eq!(
            text,
            "A new Limit game has started on Board 7: alice vs bob.\n\n\
             To get every board mail of it:  limit subscribe 7 <userid> <password>\n\
             To stop these notices:          limit notify <userid> <password> off\n\nBOARD\n"
        );
        assert_eq!(verdict(&started), None);
    }

    #[test]
    fn verdicts_for_a_declined_game_and_an_unagreed_one() {
        let declined = Event::Resigned {
            game: LIMIT,
            board: 7,
            seat: 1,
            userid: "bob".into(),
            declined: true,
        };
        assert_eq!(
            verdict(&declined).as_deref(),
            Some("bob declined the game: resigned before ever agreeing to it.")
        );
        let ended = Event::GameEnded {
            game: LIMIT,
            board: 7,
            result: games::Outcome::Winner(0),
            settlement: Settlement::NotAgreed(vec!["bob".into(), "carol".into()]),
        };
        assert_eq!(
            verdict(&ended).as_deref(),
            Some(
                "Cancelled for the ratings: bob and carol never agreed to this game (by a move or \
                 other command with the password, by `accept`, or by a challenge with \
                 --password), so it is not rated."
            )
        );
        let resigned = Event::Resigned {
            game: LIMIT,
            board: 7,
            seat: 1,
            userid: "bob".into(),
            declined: false,
        };
        assert_eq!(verdict(&resigned), None);
        let ended = Event::AdminEnded {
            game: LIMIT,
            board: 7,
            winner: None,
            cancelled: true,
            reason: "the server lost a week of mail".into(),
        };
        assert_eq!(
            verdict(&ended).as_deref(),
            Some(
                "Cancelled by the server's admin, not rated (a draw between the players still \
                 in): the server lost a week of mail"
            )
        );
        let drawn = Event::DrawAtForfeit {
            game: LIMIT,
            board: 7,
            proposer: "alice".into(),
            userid: "bob".into(),
            days: 14,
        };
        assert_eq!(
            verdict(&drawn).as_deref(),
            Some(
                "alice's proposal of a draw is carried out: bob did not move for 14 days while it \
                 was open, so it was accepted at forfeit time, and the game is drawn."
            )
        );
    }

    #[test]
    fn notices_of_proposals_and_queued_moves() {
        let closed = Event::ProposalClosed {
            game: LIMIT,
            board: 7,
            proposer: "alice".into(),
            kind: ProposalKind::Undo,
            game_over: false,
        };
        assert_eq!(
            notice(&closed).as_deref(),
            Some("alice's proposal of an undo lapsed: the game changed before everyone accepted.")
        );
        let undone = Event::UndoAgreed {
            game: LIMIT,
            board: 7,
            proposer: "alice".into(),
            back_to: 4,
            last: 6,
        };
        assert_eq!(
            notice(&undone).as_deref(),
            Some(
                "All players accept alice's undo: moves 4 to 6 are taken back and it is alice's \
                 turn again at move 4. Queued moves on this board are dropped."
            )
        );
        let accepted = Event::GameAccepted {
            game: LIMIT,
            board: 7,
            userid: "bob".into(),
            waiting: vec!["carol".into()],
        };
        assert_eq!(
            notice(&accepted).as_deref(),
            Some("bob accepted the game. It counts for the ratings once carol agrees too.")
        );
        let made = Event::ProposalMade {
            game: LIMIT,
            board: 7,
            userid: "alice".into(),
            kind: ProposalKind::Draw,
        };
        assert_eq!(notice(&made), None, "the board's status line shows it");
        let dropped = Event::QueuedMoveDropped {
            game: LIMIT,
            board: 7,
            userid: "bob".into(),
            mv: "3-7,4".into(),
            why: Dropped::WrongMove { meant: 5, at: 6 },
        };
        let (subject, body) = dropped_queued_move(&dropped, "BOARD\n").unwrap();
        assert_eq!(subject, "Limit Board 7 Queued move dropped bob");
        assert_eq!(
            body,
            "Your queued move 3-7,4 on Limit board 7 was not played: it was meant for move 5, but \
             your turn came at move 6.\nIt has been dropped. It is your turn: send your move with \
             `limit move 7 bob <password> <move>`.\n\nBOARD\n"
        );
        assert_eq!(dropped_queued_move(&made, "BOARD\n"), None);
    }

    #[test]
    fn a_nag_names_the_wait_and_the_deadline() {
        let nagged = Event::Nagged {
            game: LIMIT,
            board: 7,
            userid: "bob".into(),
            days: 7,
            vacation_left_out: true,
            since: 0,
            deadline: 86_400 * 14,
            nag_days: 7,
            forfeit_days: 14,
            draw_open: true,
        };
        let (subject, text) = nag(&nagged).unwrap();
        assert_eq!(subject, "Nag: Limit Board 7 bob");
        assert_eq!(
            text,
            "bob, it is your move on Limit Board 7, and it has been for 7 days (not\n\
             counting your vacation), since 1970-01-01 00:00 UTC.\n\n\
             After 14 days without a move the open draw proposal is accepted and the\n\
             game is drawn: that is on 1970-01-15 00:00 UTC, unless you move before\n\
             then. You are reminded every 7 days until you move.\n\n\
             To move:      reply to this mail with just your move, or send\n\
             \x20             limit move 7 bob <password> <move>\n\
             Going away?   vacation bob <password> <first day> <last day>\n\
             \x20             with the days as YYYY-MM-DD: it stops the clock of\n\
             \x20             all your games while you are away.\n\n"
        );
    }

    #[test]
    fn a_rating_change_is_signed() {
        let r = GameResult {
            seat: 0,
            userid: "alice".into(),
            result: SeatResult::Lost,
            before: Rating {
                rating: 1600,
                games: 3,
            },
            after: 1584,
        };
        assert_eq!(rating_change(&r), "alice 1600 -> 1584 (-16)");
    }
}

//! The prose that the play family's events add to the board mails: the new-game notice, the verdict
//! lines a game keeps, the rating changes.

use crate::decision::{
    AccountEvent, Dropped, Event, PasswordChange, Pending, SettingChange, Settlement,
};
use crate::model::{MailSetting, ProposalKind};
use crate::storage::ChallengeList;
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

/// The answer to an account command: the Subject and the text, within 72 columns. `games` are the
/// command words of the games the server hosts, which the welcome mail lists.
pub fn account_answer(event: &AccountEvent, server: &str, games: &[&str]) -> (String, String) {
    let (subject, text) = account_words(event, server, games);
    (subject, fill(&text))
}

/// The answer to an account command, on the server called `server`: the Subject and the text.
fn account_words(event: &AccountEvent, server: &str, games: &[&str]) -> (String, String) {
    match event {
        AccountEvent::SignedUp {
            userid,
            confirmed,
            pending,
        } => {
            // One challenge line a game, so that a newcomer sees every game at once.
            let first = games.first().copied().unwrap_or("limit");
            let challenges: String = games
                .iter()
                .map(|g| format!("    {g} challenge {userid} <their userid>\n"))
                .collect();
            let mut text = format!(
                "Welcome to {server}, {userid}!\n\nYou are registered with the address(es):\n  {}\n\n\
                 Mail for your games goes there. Send `help` for the commands and\n\
                 `GAME help` for a game's rules. To challenge someone, send one of:\n\
                 {challenges}\
                 or play a robot at once (robot1, robot2, robot3: the strongest):\n\
                 \x20   {first} challenge {userid} robot1\n",
                if confirmed.is_empty() {
                    "(none confirmed yet)".to_string()
                } else {
                    confirmed.join("\n  ")
                }
            );
            text.push_str(&pending_paragraph(userid, pending));
            text.push('\n');
            text.push_str(&summary::wrap(&subject_hint(userid), summary::ERROR_WIDTH).join("\n"));
            text.push('\n');
            (format!("{server} signup {userid}"), text)
        }
        AccountEvent::AddressesChanged {
            userid,
            addresses,
            pending,
        } => {
            let mut text = format!(
                "The mail of {userid} now goes to:\n  {}\n",
                addresses.join("\n  ")
            );
            text.push_str(&pending_paragraph(userid, pending));
            (format!("{server} address changed"), text)
        }
        AccountEvent::AddressConfirmed {
            userid,
            address,
            addresses,
        } => (
            format!("{server} address confirmed"),
            format!(
                "{address} is confirmed: the mail of {userid} now goes to:\n  {}\n",
                addresses.join("\n  ")
            ),
        ),
        AccountEvent::PasswordChanged { userid, by } => (
            format!("{server} password changed"),
            match by {
                PasswordChange::ByPassword => {
                    format!("The password of {userid} has been changed.\n")
                }
                PasswordChange::ByResetCode => format!(
                    "The password of {userid} has been set with the code of the reset mail.\n"
                ),
                PasswordChange::ByAdmin => {
                    format!("The password of {userid} has been set by the server's admin.\n")
                }
            },
        ),
        AccountEvent::PasswordResetAsked {
            userid,
            codes_per_day,
        } => (
            format!("{server} password reset"),
            format!(
                "If {userid} is a registered player, a one-time code is on its way to the player's \
                 registered address (not to this one, unless it is that address). With it, send\n\n    \
                 password set {userid} <code> <new password>\n\n\
                 within 24 hours. Nothing has changed yet: the old password still works. At most \
                 {codes_per_day} codes are sent a day.\n"
            ),
        ),
        AccountEvent::VacationSet {
            userid: who,
            from,
            to,
            replaced,
        } => (
            format!("{server} vacation {who}"),
            format!(
                "{who} is on vacation from {from} to {to} (UTC, both days included){}.\n\n\
                 While away, {who} gets no reminders and forfeits no game, and the time does not \
                 count towards them. The opponents see it under the status of every board of \
                 {who}'s.\nBack early? Send `vacation {who} <password> off`.\n",
                if *replaced {
                    "; this replaces the vacation set before"
                } else {
                    ""
                }
            ),
        ),
        AccountEvent::VacationEnded { userid: who, ended } => (
            format!("{server} vacation {who}"),
            if *ended {
                format!(
                    "{who} is back: the vacation ended now, and any planned one is dropped. The \
                     clocks of {who}'s games run again from now.\n"
                )
            } else {
                format!("{who} had no vacation, current or planned: nothing was changed.\n")
            },
        ),
        AccountEvent::MailSettingSet {
            userid: who,
            setting,
            changed,
            all,
            digest_sent,
        } => {
            let what = if *changed {
                format!("{who}'s mail setting is now `{}`.", setting.words())
            } else {
                format!(
                    "{who}'s mail setting was `{}` already: nothing was changed.",
                    setting.words()
                )
            };
            let undo = format!(
                "To undo it, send `set {who} <password> {}`.",
                setting.undo().words()
            );
            let sent = if *digest_sent {
                "The board mails held for your digest went just now, in one digest mail."
            } else {
                ""
            };
            let now = format!(
                "Your mail settings now: {}.",
                all.iter()
                    .map(|s| format!("`{}`", s.words()))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            let gmail = if all.contains(&MailSetting::PlainSubject(false)) {
                gmail_hint(who)
            } else {
                String::new()
            };
            let text = [
                what.as_str(),
                mail_setting_meaning(*setting),
                sent,
                &undo,
                &now,
                &gmail,
            ]
            .iter()
            .filter(|p| !p.is_empty())
            .map(|p| summary::wrap(p, summary::ERROR_WIDTH).join("\n") + "\n")
            .collect::<Vec<_>>()
            .join("\n");
            (format!("{server} set {who} {}", setting.words()), text)
        }
        AccountEvent::MessageSent { to, .. } => (
            format!("{server} message sent"),
            format!("Your message went to {}.\n", to.join(", ")),
        ),
        AccountEvent::SignedOff { userid } => (
            format!("{server} signoff"),
            format!(
                "{userid} has signed off. The userid stays reserved for the finished games that \
                 name it.\n"
            ),
        ),
    }
}

/// The mail with a password reset code for `userid` on the server `server`: the Subject and the
/// text. `asked_from` is the address that asked (`None`: the admin at the shell).
pub fn reset_letter(
    server: &str,
    userid: &str,
    code: &str,
    asked_from: Option<&str>,
) -> (String, String) {
    let asked = match asked_from {
        Some(from) => format!("from the address {from}"),
        None => "by the server's admin".into(),
    };
    (
        format!("{server} password reset {userid}"),
        fill(&format!(
            "Someone ({asked}) asked for a new password for the player {userid} on {server}.\n\n\
             If that was you, send this line (as the Subject), with a new password of your \
             choice:\n\n    password set {userid} {code} <new password>\n\n\
             The code works once, within 24 hours. If it was not you, ignore this mail: your \
             password is unchanged.\n"
        )),
    )
}

/// The mail asking an address given for `userid` to confirm it with `code`: the Subject and the
/// text.
pub fn confirmation_letter(server: &str, userid: &str, code: &str) -> (String, String) {
    (
        format!("confirm {userid} {code}"),
        format!(
            "Someone asked {server} to send the mail of the player {userid} to this address.\n\n\
             If that was you, reply to this mail, keeping its Subject\n\n    \
             confirm {userid} {code}\n\n\
             Until then this address gets no mail of {userid}. If it was not you, \
             ignore this mail: nothing more will come.\n"
        ),
    )
}

/// A player's message to another through the server `server`: the Subject and the text.
pub fn message_letter(server: &str, from: &str, to: &str, body: &str) -> (String, String) {
    (
        format!("{server} message from {from}"),
        // The player's own words as written; the server's lines within 72 columns.
        format!(
            "{}\n{body}\n\n{}",
            fill(&format!(
                "{from} writes to you through {server} (neither of you sees the other's \
                 address):\n"
            )),
            fill(&format!(
                "To answer, reply to this mail with your answer (from your registered address: \
                 no password needed), or send `message {to} <password> {from}` with your \
                 answer in the body.\n"
            ))
        ),
    )
}

/// `text` with each line of prose longer than 72 columns broken between words (a line that starts
/// with a blank, an example to send, stays whole): these answers are written a paragraph a line.
fn fill(text: &str) -> String {
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

/// The paragraph under an account answer about the addresses that wait for confirmation (empty
/// when none waits).
fn pending_paragraph(userid: &str, pending: &Pending) -> String {
    let Some(first) = pending.addresses.first() else {
        return String::new();
    };
    let list = pending.addresses.join(", ");
    let text = if pending.mailed {
        format!(
            "Not confirmed yet: {list}. Such an address gets no mail of {userid} until it \
             answers its confirmation mail (sent to {first}; one a mail), or until you send \
             `change address` from it."
        )
    } else {
        format!(
            "Not confirmed yet: {list}. Such an address gets no mail of {userid} until you send \
             `change address` from it (no confirmation mail could go out now)."
        )
    };
    format!(
        "\n{}\n",
        summary::wrap(&text, summary::ERROR_WIDTH).join("\n")
    )
}

/// The answer to `subscribe` and `unsubscribe`: the Subject and the text above the board, within
/// 72 columns. `None` for other events.
pub fn subscription_answer(event: &Event) -> Option<(String, String)> {
    subscription_words(event).map(|(s, t)| (s, fill(&t)))
}

/// The answer to `subscribe` or `unsubscribe`: the Subject, and the text that goes above the
/// board. `None` for other events.
fn subscription_words(event: &Event) -> Option<(String, String)> {
    Some(match event {
        Event::Subscribed {
            game,
            board,
            userid,
            addresses,
        } => (
            format!("{} Board {board} Subscribed {userid}", game.title),
            format!(
                "{userid} is now subscribed to {} Board {board}: every board mail of it goes to {} \
                 until the game ends or you write `{} unsubscribe {board} {userid} <password>`.\n\n",
                game.title,
                addresses.join(", "),
                game.name
            ),
        ),
        Event::Unsubscribed {
            game,
            board,
            userid,
            following: boards,
        } => (
            format!("{} Board {board} Unsubscribed {userid}", game.title),
            format!(
                "{userid} is no longer subscribed to {} Board {board}: its board mails stop. {}\n\n",
                game.title,
                super::following(game.title, boards)
            ),
        ),
        _ => return None,
    })
}

/// What a settings command did, as its answer says it above the settings (empty when the change
/// says nothing). `None` for other events.
pub fn setting_done(event: &Event) -> Option<String> {
    let Event::SettingChanged {
        game,
        userid,
        change,
    } = event
    else {
        return None;
    };
    let title = game.title;
    Some(match change {
        SettingChange::Notices { on, changed } => {
            let state = if *on { "on" } else { "off" };
            if *changed {
                format!("Notices of new {title} games are now {state} for {userid}.")
            } else {
                format!("Notices of new {title} games were {state} already for {userid}.")
            }
        }
        SettingChange::Boards { new, already } => {
            let list = |b: &[u32]| b.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
            let mut s = String::new();
            if !new.is_empty() {
                s.push_str(&format!(
                    "{userid} is now subscribed to {title} Board(s) {}: every board mail of them \
                     comes to you.",
                    list(new)
                ));
            }
            if !already.is_empty() {
                if !s.is_empty() {
                    s.push(' ');
                }
                s.push_str(&format!(
                    "{userid} was subscribed to {title} Board(s) {} already.",
                    list(already)
                ));
            }
            s
        }
        SettingChange::Limit(None) => format!("The limit of {title} games for {userid} is lifted."),
        SettingChange::Limit(Some(n)) => {
            format!("The limit of {title} games for {userid} is now {n}.")
        }
        SettingChange::List { list, userids } => match (list, userids.is_empty()) {
            (ChallengeList::Accept, true) => format!(
                "The accept list of {userid} is cleared: {title} challenges are taken from anyone \
                 not on the reject list."
            ),
            (ChallengeList::Accept, false) => format!(
                "{userid} now takes {title} challenges only from {}.",
                userids.join(", ")
            ),
            (ChallengeList::Reject, true) => format!("The reject list of {userid} is cleared."),
            (ChallengeList::Reject, false) => format!(
                "{userid} now refuses {title} challenges from {}.",
                userids.join(", ")
            ),
        },
    })
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

/// What a mail setting does, for its confirmation.
fn mail_setting_meaning(setting: MailSetting) -> &'static str {
    match setting {
        MailSetting::Digest(true) => {
            "The board mails of your opponents' moves now wait for one mail a day (sent by the \
             server's daily run): \"Your move in N games\", each game with its status and the \
             line to send, and the games finished since the last one with their result. The \
             answers to your own mails, new games, proposals, messages and reminders still \
             come at once: each asks something of you or answers you."
        }
        MailSetting::Digest(false) => {
            "You get a board mail for every move again, as soon as it is played."
        }
        MailSetting::TextOnly(true) => {
            "Your board mails are plain text now: no HTML part and no picture of the board."
        }
        MailSetting::TextOnly(false) => {
            "Your board mails have the picture of the board again (an HTML part with the text)."
        }
        MailSetting::PlainSubject(true) => {
            "Your board mails keep one Subject a game (`Limit Board 101`), so that Gmail shows \
             each game as one conversation; what happened and whose move it is are the first \
             lines of each mail."
        }
        MailSetting::PlainSubject(false) => {
            "Your board mails say the state after the game in the Subject (`Limit Board 101: \
             your move`). Gmail starts a new conversation each time it changes."
        }
    }
}

/// What the welcome mail says of the Subjects: one a game by default (issue 37), and how to have
/// the state in it.
pub fn subject_hint(userid: &str) -> String {
    format!(
        "A game's mails keep one Subject (`Limit Board 101`), so that Gmail shows each game as \
         one conversation; whose move it is stands in each mail's first line. To have it in the \
         Subject too, send `set {userid} <password> subject state`."
    )
}

/// The hint for Gmail users in the settings answer of a player who chose `subject state`.
pub fn gmail_hint(userid: &str) -> String {
    format!(
        "Gmail users: send `set {userid} <password> subject plain` to keep each game's mails \
         in one conversation (Gmail starts a new one when the Subject changes)."
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
    fn a_signup_with_an_address_waiting() {
        let signed_up = AccountEvent::SignedUp {
            userid: "alice".into(),
            confirmed: vec!["alice@example.org".into()],
            pending: Pending {
                addresses: vec!["work@example.com".into()],
                mailed: true,
            },
        };
        let (subject, text) = account_answer(&signed_up, "pbem", &["limit", "hex"]);
        assert_eq!(subject, "pbem signup alice");
        assert_eq!(
            text,
            "Welcome to pbem, alice!\n\nYou are registered with the address(es):\n  \
             alice@example.org\n\nMail for your games goes there. Send `help` for the commands \
             and\n`GAME help` for a game's rules. To challenge someone, send one of:\n    \
             limit challenge alice <their userid>\n    hex challenge alice <their userid>\n\
             or play a robot at once (robot1, robot2, robot3: the strongest):\n    \
             limit challenge alice robot1\n\nNot confirmed yet: work@example.com. Such an address gets no mail of\n\
             alice until it answers its confirmation mail (sent to work@example.com;\n\
             one a mail), or until you send `change address` from it.\n\n\
             A game's mails keep one Subject (`Limit Board 101`), so that Gmail shows\n\
             each game as one conversation; whose move it is stands in each mail's\n\
             first line. To have it in the Subject too, send `set alice <password>\n\
             subject state`.\n"
        );
        let (subject, text) = account_answer(
            &AccountEvent::PasswordChanged {
                userid: "alice".into(),
                by: PasswordChange::ByAdmin,
            },
            "pbem",
            &[],
        );
        assert_eq!(subject, "pbem password changed");
        assert_eq!(
            text,
            "The password of alice has been set by the server's admin.\n"
        );
    }

    #[test]
    fn a_vacation_and_a_message() {
        let day = |d| chrono::NaiveDate::from_ymd_opt(2026, 12, d).unwrap();
        let (subject, text) = account_answer(
            &AccountEvent::VacationSet {
                userid: "bob".into(),
                from: day(20),
                to: day(27),
                replaced: true,
            },
            "pbem",
            &[],
        );
        assert_eq!(subject, "pbem vacation bob");
        assert_eq!(
            text,
            fill(
                "bob is on vacation from 2026-12-20 to 2026-12-27 (UTC, both days included); this \
             replaces the vacation set before.\n\nWhile away, bob gets no reminders and forfeits \
             no game, and the time does not count towards them. The opponents see it under the \
             status of every board of bob's.\nBack early? Send `vacation bob <password> off`.\n",
            )
        );
        let (subject, text) = message_letter("pbem", "alice", "bob", "Rematch?");
        assert_eq!(subject, "pbem message from alice");
        assert_eq!(
            text,
            fill(
                "alice writes to you through pbem (neither of you sees the other's address):\n\n\
             Rematch?\n\nTo answer, reply to this mail with your answer (from your registered \
             address: no password needed), or send `message bob <password> alice` with your \
             answer in the body.\n",
            )
        );
    }

    #[test]
    fn subscriptions_and_settings() {
        let queued = Event::MoveQueued {
            game: LIMIT,
            board: 7,
            userid: "carol".into(),
            mv: "3-7,4".into(),
            guard: Some(9),
            replaced: Some("2-6,1".into()),
        };
        let (subject, head) = queued_answer(&queued).unwrap();
        assert_eq!(subject, "Limit Board 7 Queued move carol");
        assert_eq!(
            head,
            fill(
                "Your move 3-7,4#9 is queued on Limit board 7. It will be played as soon as it is your \
             turn, if it is legal then and the game is at that move; if not, it is dropped and you \
             will be told why. The other players do not see it.\nIt replaces your earlier queued \
             move 2-6,1 (one queued move per player and board).\n\n",
            )
        );
        let (subject, head) = subscription_answer(&Event::Unsubscribed {
            game: LIMIT,
            board: 7,
            userid: "carol".into(),
            following: vec![9, 12],
        })
        .unwrap();
        assert_eq!(subject, "Limit Board 7 Unsubscribed carol");
        assert_eq!(
            head,
            fill(
                "carol is no longer subscribed to Limit Board 7: its board mails stop. You are \
             subscribed to Limit Board(s) 9, 12.\n\n",
            )
        );
        let boards = Event::SettingChanged {
            game: LIMIT,
            userid: "carol".into(),
            change: SettingChange::Boards {
                new: vec![7],
                already: vec![9, 12],
            },
        };
        assert_eq!(
            setting_done(&boards).as_deref(),
            Some(
                "carol is now subscribed to Limit Board(s) 7: every board mail of them comes to \
                 you. carol was subscribed to Limit Board(s) 9, 12 already."
            )
        );
        let cleared = Event::SettingChanged {
            game: LIMIT,
            userid: "carol".into(),
            change: SettingChange::List {
                list: ChallengeList::Accept,
                userids: Vec::new(),
            },
        };
        assert_eq!(
            setting_done(&cleared).as_deref(),
            Some(
                "The accept list of carol is cleared: Limit challenges are taken from anyone not \
                 on the reject list."
            )
        );
        assert_eq!(subscription_answer(&cleared), None);
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
    fn a_reset_code_asked_at_the_shell() {
        let (subject, text) = reset_letter("pbem", "alice", "ABCDE23456", None);
        assert_eq!(subject, "pbem password reset alice");
        assert_eq!(
            text,
            fill(
                "Someone (by the server's admin) asked for a new password for the player alice on \
             pbem.\n\nIf that was you, send this line (as the Subject), with a new password of \
             your choice:\n\n    password set alice ABCDE23456 <new password>\n\nThe code works \
             once, within 24 hours. If it was not you, ignore this mail: your password is \
             unchanged.\n",
            )
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

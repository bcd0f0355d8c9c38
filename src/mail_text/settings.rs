//! The prose of the answers to `subscribe`/`unsubscribe` and to the settings commands.

use super::events::fill;
use crate::decision::{Event, SettingChange};
use crate::storage::ChallengeList;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail_text::queued_answer;

    use super::super::LIMIT;

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
}

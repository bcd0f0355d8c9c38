//! The prose of the account family's answers and letters: signup, passwords, addresses,
//! vacations, mail settings, reset codes, confirmations and messages between players.

use super::events::fill;
use crate::decision::{AccountEvent, PasswordChange, Pending};
use crate::model::MailSetting;
use crate::summary;

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
}

//! The parse functions of the server's commands (see [`super::table`]).

use super::args::{Args, MAX_GAMES_USERIDS, Problem};
use super::ast::RawCommand;
use super::words::parse_date;
use crate::model::MailSetting;

/// `help [subject...]`
pub(crate) fn help(a: &Args) -> Result<RawCommand, Problem> {
    Ok(RawCommand::Help {
        subject: a.words.iter().map(|s| s.to_string()).collect(),
    })
}

/// `signup userid password [address...]`
pub(crate) fn signup(a: &Args) -> Result<RawCommand, Problem> {
    a.at_least(&["the userid", "the password"])?;
    Ok(RawCommand::Signup {
        userid: a.userid(a.words[0])?,
        password: a.words[1].into(),
        addresses: a.addresses(&a.words[2..])?,
    })
}

/// `change password userid old new`
pub(crate) fn change_password(a: &Args) -> Result<RawCommand, Problem> {
    a.exact(&["your userid", "the old password", "the new password"])?;
    Ok(RawCommand::ChangePassword {
        userid: a.userid(a.words[0])?,
        old: a.words[1].into(),
        new: a.words[2].into(),
    })
}

/// `change address userid password [address...]`
pub(crate) fn change_address(a: &Args) -> Result<RawCommand, Problem> {
    a.at_least(&["your userid", "your password"])?;
    Ok(RawCommand::ChangeAddress {
        userid: a.userid(a.words[0])?,
        password: a.words[1].into(),
        addresses: a.addresses(&a.words[2..])?,
    })
}

/// `signoff userid password`
pub(crate) fn signoff(a: &Args) -> Result<RawCommand, Problem> {
    a.exact(&["your userid", "your password"])?;
    Ok(RawCommand::Signoff {
        userid: a.userid(a.words[0])?,
        password: a.words[1].into(),
    })
}

/// `message userid password to-userid...`
pub(crate) fn message(a: &Args) -> Result<RawCommand, Problem> {
    a.at_least(&["your userid", "your password", "whom it is for"])?;
    if a.len() > 2 + MAX_GAMES_USERIDS {
        return Err(
            format!("'message' goes to at most {MAX_GAMES_USERIDS} players at once").into(),
        );
    }
    Ok(RawCommand::Message {
        userid: a.userid(a.words[0])?,
        password: a.words[1].into(),
        to: a.userids(&a.words[2..])?,
    })
}

/// `password reset userid`
pub(crate) fn password_reset(a: &Args) -> Result<RawCommand, Problem> {
    a.exact(&["your userid"])?;
    Ok(RawCommand::PasswordReset {
        userid: a.userid(a.words[0])?,
    })
}

/// `password set userid code new`
pub(crate) fn password_set(a: &Args) -> Result<RawCommand, Problem> {
    a.exact(&[
        "your userid",
        "the code of the reset mail",
        "the new password",
    ])?;
    Ok(RawCommand::PasswordSet {
        userid: a.userid(a.words[0])?,
        code: a.words[1].into(),
        new: a.words[2].into(),
    })
}

/// `confirm userid code`
pub(crate) fn confirm(a: &Args) -> Result<RawCommand, Problem> {
    a.exact(&["your userid", "the code of the confirmation mail"])?;
    Ok(RawCommand::Confirm {
        userid: a.userid(a.words[0])?,
        code: a.words[1].to_string(),
    })
}

/// `list [gametype...]`
pub(crate) fn list(a: &Args) -> Result<RawCommand, Problem> {
    if a.len() > MAX_GAMES_USERIDS {
        return Err(format!("'list' takes at most {MAX_GAMES_USERIDS} game names").into());
    }
    Ok(RawCommand::List {
        games: a.words.iter().map(|w| w.to_lowercase()).collect(),
    })
}

/// `vacation userid password FROM TO` or `vacation userid password off`. Only the form is checked
/// here (real dates, the last not before the first); the server checks them against the clock.
pub(crate) fn vacation(a: &Args) -> Result<RawCommand, Problem> {
    a.at_least(&[
        "your userid",
        "your password",
        "the first and last day (or off)",
    ])?;
    let userid = a.userid(a.words[0])?;
    let password = a.words[1].into();
    let days = match &a.words[2..] {
        [w] if w.eq_ignore_ascii_case("off") => None,
        [from, to] => {
            let day = |w: &str| {
                parse_date(w).ok_or_else(|| {
                    Problem(format!(
                        "'{}' is not a day: write days as YYYY-MM-DD, such as 2026-12-24",
                        w
                    ))
                })
            };
            let (from, to) = (day(from)?, day(to)?);
            if to < from {
                return Err(format!(
                    "the last day {to} is before the first day {from}: write the first day, then \
                     the last"
                )
                .into());
            }
            Some((from, to))
        }
        [one] => {
            return Err(format!(
                "'vacation' needs two days, the first and the last away (or 'off'), but only '{}' \
                 was given",
                one
            )
            .into());
        }
        more => {
            return Err(format!(
                "'vacation' takes the first and the last day (or 'off') after the password, but {} \
                 words were given",
                more.len()
            )
            .into());
        }
    };
    Ok(RawCommand::Vacation {
        userid,
        password,
        days,
    })
}

/// `set userid password digest on|off`, `set userid password mail text|html` or
/// `set userid password subject plain|state`.
pub(crate) fn set(a: &Args) -> Result<RawCommand, Problem> {
    const FORMS: &str = "write `digest on`, `digest off`, `mail text`, `mail html`, `subject \
                         plain` or `subject state` after the password";
    a.at_least(&["your userid", "your password", "a setting"])?;
    let userid = a.userid(a.words[0])?;
    let password = a.words[1].into();
    let setting = match &a.words[2..] {
        [name, value] => {
            let value = value.to_ascii_lowercase();
            match (name.to_ascii_lowercase().as_str(), value.as_str()) {
                ("digest", "on") => MailSetting::Digest(true),
                ("digest", "off") => MailSetting::Digest(false),
                ("mail", "text") => MailSetting::TextOnly(true),
                ("mail", "html") => MailSetting::TextOnly(false),
                ("subject", "plain") => MailSetting::PlainSubject(true),
                ("subject", "state") => MailSetting::PlainSubject(false),
                ("digest", _) => {
                    return Err(format!(
                        "'digest' is set 'on' or 'off', not '{value}': write `digest on` (one \
                         mail a day) or `digest off` (a mail per move)"
                    )
                    .into());
                }
                ("mail", _) => {
                    return Err(format!(
                        "'mail' is set 'text' or 'html', not '{value}': write `mail text` (no \
                         picture) or `mail html` (with the board's picture)"
                    )
                    .into());
                }
                ("subject", _) => {
                    return Err(format!(
                        "'subject' is set 'plain' or 'state', not '{value}': write `subject \
                         plain` (one Subject a game, for Gmail) or `subject state` (the state \
                         after it)"
                    )
                    .into());
                }
                (other, _) => {
                    return Err(format!("'{other}' is not a setting of 'set': {FORMS}").into());
                }
            }
        }
        [one] => {
            return Err(format!("'{one}' alone sets nothing: {FORMS}").into());
        }
        more => {
            return Err(format!(
                "'set' takes one setting and its value after the password, but {} words were \
                 given: {FORMS}",
                more.len()
            )
            .into());
        }
    };
    Ok(RawCommand::Set {
        userid,
        password,
        setting,
    })
}

//! The parse functions of a game's commands, the words after `<game> <command>` (see
//! [`super::table`]).

use super::args::{Args, MAX_GAMES_USERIDS, Problem};
use super::ast::{GameCommand, GameLimit, GamesFilter, HistoryForm, NotifySetting, ProposalKind};
use super::mask::Password;
use super::tokenizer::{Token, token};
use super::words::parse_positive;

/// The words of a command on a board: board number, userid, password.
const ON_BOARD: &[&str] = &["the board number", "your userid", "your password"];

/// `<game> help`
pub(crate) fn help(_: &Args) -> Result<GameCommand, Problem> {
    Ok(GameCommand::Help)
}

/// `<game> challenge [-option[=value]...] [--option[=value]...] userid...`
pub(crate) fn challenge(a: &Args) -> Result<GameCommand, Problem> {
    let mut options = Vec::new();
    let mut server_options = Vec::new();
    let mut userids = Vec::new();
    let mut password = None;
    let mut words = a.words.iter().peekable();
    while let Some(w) = words.next() {
        match token(w) {
            // `-size 9` is read as `-size=9`, as players of command-line tools write it (the board
            // mail's `Options:` line then shows the form with `=`). The price: a userid of digits
            // alone cannot follow an option written without a value.
            Token::GameOption(mut o) if o.value.is_none() => {
                if let Some(n) = words.next_if(|n| is_number(n)) {
                    o.value = Some(n.to_string());
                }
                options.push(o);
            }
            Token::GameOption(o) => options.push(o),
            Token::ServerOption(n, v) if n.eq_ignore_ascii_case("password") => {
                if password.is_some() {
                    return Err("--password is given twice: give it once".into());
                }
                let v = v.filter(|v| !v.is_empty()).ok_or_else(|| {
                    Problem::from(
                        "--password needs the challenger's password: write --password=yourpassword",
                    )
                })?;
                password = Some(Password::from(v));
            }
            Token::ServerOption(n, v) => server_options.push((n, v)),
            Token::Word(w) => {
                if w.starts_with('-') {
                    return Err(format!(
                        "'{}' is not an option: write options as -name or -name=value",
                        &w
                    )
                    .into());
                }
                userids.push(a.userid(&w)?);
            }
        }
    }
    if userids.is_empty() {
        return Err(format!(
            "'{}' needs the userids of the players, the challenger among them",
            a.name
        )
        .into());
    }
    Ok(GameCommand::Challenge {
        options,
        server_options,
        userids,
        password,
    })
}

/// A whole or decimal number, such as `9` or `6.5`: the value of an option written without `=`.
fn is_number(word: &str) -> bool {
    let digits = word.replacen('.', "", 1);
    !digits.is_empty()
        && digits.chars().all(|c| c.is_ascii_digit())
        && !word.starts_with('.')
        && !word.ends_with('.')
}

/// The words of `move` and `queue`: board, userid, password (left in `words[2]`), then the move with
/// its `#N` guard.
fn board_user_move(a: &Args) -> Result<(u32, String, String, Option<u32>), Problem> {
    a.at_least(&[
        "the board number",
        "your userid",
        "your password",
        "the move",
    ])?;
    let board = a.board(a.words[0])?;
    let userid = a.userid(a.words[1])?;
    let (mv, guard) = a.move_text(&a.words[3..])?;
    Ok((board, userid, mv, guard))
}

/// `<game> move board userid password move[#N]`; the move may be a proposal (`propose undo|draw`) or
/// an answer (`accept`, `reject`).
pub(crate) fn move_(a: &Args) -> Result<GameCommand, Problem> {
    let (board, userid, mv, guard) = board_user_move(a)?;
    let password = a.words[2].into();
    let lower = mv.to_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    Ok(match words.as_slice() {
        ["propose", what] => match ProposalKind::from_word(what) {
            Some(kind) => GameCommand::Propose {
                board,
                userid,
                password,
                kind,
                guard,
            },
            None => {
                return Err(format!(
                    "'propose {}' is not a proposal: write 'propose undo' or 'propose draw'",
                    what
                )
                .into());
            }
        },
        ["propose", ..] => {
            return Err(
                "'propose' takes one word after it: write 'propose undo' or 'propose draw'".into(),
            );
        }
        [word @ ("accept" | "reject"), rest @ ..] => {
            if !rest.is_empty() {
                return Err(format!(
                    "'{word}' takes nothing after it (it answers the open proposal)"
                )
                .into());
            }
            GameCommand::Answer {
                board,
                userid,
                password,
                accept: *word == "accept",
                guard,
            }
        }
        _ => GameCommand::Move {
            board,
            userid,
            password,
            mv,
            guard,
        },
    })
}

/// `<game> queue board userid password move[#N]`
pub(crate) fn queue(a: &Args) -> Result<GameCommand, Problem> {
    let (board, userid, mv, guard) = board_user_move(a)?;
    let first = mv.split_whitespace().next().unwrap_or("").to_lowercase();
    if matches!(first.as_str(), "propose" | "accept" | "reject" | "resign") {
        return Err(format!(
            "'{first}' cannot be queued: only a move of the game waits for your turn; send `{} move \
             <board> <userid> <password> {first}...` instead",
            a.game
        )
        .into());
    }
    Ok(GameCommand::Queue {
        board,
        userid,
        password: a.words[2].into(),
        mv,
        guard,
    })
}

/// The board, userid and password of `resign`, `chat`, `subscribe` and `unsubscribe`.
fn on_board(a: &Args) -> Result<(u32, String, Password), Problem> {
    a.exact(ON_BOARD)?;
    Ok((
        a.board(a.words[0])?,
        a.userid(a.words[1])?,
        a.words[2].into(),
    ))
}

/// `<game> resign board userid password`
pub(crate) fn resign(a: &Args) -> Result<GameCommand, Problem> {
    let (board, userid, password) = on_board(a)?;
    Ok(GameCommand::Resign {
        board,
        userid,
        password,
    })
}

/// `<game> rematch board userid password`
pub(crate) fn rematch(a: &Args) -> Result<GameCommand, Problem> {
    let (board, userid, password) = on_board(a)?;
    Ok(GameCommand::Rematch {
        board,
        userid,
        password,
    })
}

/// `<game> chat board userid password`
pub(crate) fn chat(a: &Args) -> Result<GameCommand, Problem> {
    let (board, userid, password) = on_board(a)?;
    Ok(GameCommand::Chat {
        board,
        userid,
        password,
    })
}

/// `<game> subscribe board userid password`
pub(crate) fn subscribe(a: &Args) -> Result<GameCommand, Problem> {
    let (board, userid, password) = on_board(a)?;
    Ok(GameCommand::Subscribe {
        board,
        userid,
        password,
    })
}

/// `<game> unsubscribe board userid password`
pub(crate) fn unsubscribe(a: &Args) -> Result<GameCommand, Problem> {
    let (board, userid, password) = on_board(a)?;
    Ok(GameCommand::Unsubscribe {
        board,
        userid,
        password,
    })
}

/// `<game> show board[#N]...`
pub(crate) fn show(a: &Args) -> Result<GameCommand, Problem> {
    let mut boards: Vec<(u32, Option<u32>)> = Vec::new();
    let bad_n = |n: &str| {
        Problem(format!(
            "'#{}' is not a move number: write <board>#N, such as 101#5",
            n
        ))
    };
    for w in a.words {
        if let Some(n) = w.strip_prefix('#') {
            // `show 101 #5`: the move number written apart from its board.
            let n = parse_positive(n).ok_or_else(|| bad_n(n))?;
            match boards.last_mut() {
                Some((_, at @ None)) => *at = Some(n),
                _ => return Err(bad_n(&n.to_string())),
            }
            continue;
        }
        let (b, n) = match w.split_once('#') {
            Some((b, n)) => (b, Some(parse_positive(n).ok_or_else(|| bad_n(n))?)),
            None => (*w, None),
        };
        boards.push((a.board(b)?, n));
    }
    if boards.is_empty() {
        return Err(format!("'{}' needs at least one board number", a.name).into());
    }
    Ok(GameCommand::Show { boards })
}

/// `<game> history [board [-record | -sgf] | page N]`
pub(crate) fn history(a: &Args) -> Result<GameCommand, Problem> {
    // The form may stand anywhere after `history`; the rest is read as before.
    let mut form = HistoryForm::Text;
    let mut rest = Vec::with_capacity(a.words.len());
    for w in a.words {
        let as_form = match w.to_ascii_lowercase().as_str() {
            "-record" => Some(HistoryForm::Record),
            "-sgf" | "-pgn" => Some(HistoryForm::Sgf),
            _ => None,
        };
        match as_form {
            Some(f) if form != HistoryForm::Text && form != f => {
                return Err(format!(
                    "'{}' takes one of -record and -sgf, not both: send `{} history <board> -record` \
                     for the text record, or `-sgf` for the SGF file",
                    a.name,
                    a.game
                )
                .into());
            }
            Some(f) => form = f,
            None => rest.push(*w),
        }
    }
    let words: &[&str] = &rest;
    Ok(match words {
        [] if form != HistoryForm::Text => {
            return Err(format!(
                "'{}' needs the board whose record you want: `{} history 101 {}`",
                a.name,
                a.game,
                if form == HistoryForm::Sgf {
                    "-sgf"
                } else {
                    "-record"
                }
            )
            .into());
        }
        [] => GameCommand::History {
            board: None,
            page: None,
            form,
        },
        [p, _] if p.eq_ignore_ascii_case("page") && form != HistoryForm::Text => {
            return Err(format!(
                "'{}': -record and -sgf are for one board (`{} history 101 -record`), not for a page",
                a.name,
                a.game
            )
            .into());
        }
        [p, n] if p.eq_ignore_ascii_case("page") => {
            let page = n.parse::<u32>().ok().filter(|&n| n >= 1).ok_or_else(|| {
                Problem(format!("'{n}' is not a page number: pages count from 1"))
            })?;
            GameCommand::History {
                board: None,
                page: Some(page),
                form,
            }
        }
        [b] => GameCommand::History {
            board: Some(a.board(b)?),
            page: None,
            form,
        },
        _ => {
            return Err(format!("'{}' takes at most one board number, or `page N`", a.name).into());
        }
    })
}

/// `<game> games userid... [active|all|finished|next]`
pub(crate) fn games(a: &Args) -> Result<GameCommand, Problem> {
    a.at_least(&["the userid"])?;
    let args = a.words;
    let (filter, names) = match args.last().map(|w| w.to_lowercase()).as_deref() {
        Some("active") => (GamesFilter::Active, &args[..args.len() - 1]),
        Some("all") => (GamesFilter::All, &args[..args.len() - 1]),
        Some("finished" | "inactive") => (GamesFilter::Finished, &args[..args.len() - 1]),
        Some("next") => (GamesFilter::Next, &args[..args.len() - 1]),
        _ => (GamesFilter::Active, args),
    };
    if names.is_empty() {
        return Err(format!("'{}' needs a userid", a.name).into());
    }
    if names.len() > MAX_GAMES_USERIDS {
        return Err(format!("'{}' takes at most {MAX_GAMES_USERIDS} userids", a.name).into());
    }
    Ok(GameCommand::Games {
        userids: a.userids(names)?,
        filter,
    })
}

/// `<game> preview board move...`
pub(crate) fn preview(a: &Args) -> Result<GameCommand, Problem> {
    a.at_least(&["the board number", "the moves"])?;
    Ok(GameCommand::Preview {
        board: a.board(a.words[0])?,
        moves: join_moves(&a.words[1..]),
    })
}

/// Preview moves are written one per word, but a move may itself hold a comma followed by a space
/// (`3-7, 4`): a word ending in a comma, or a word starting with one, belongs with its neighbour.
fn join_moves(words: &[&str]) -> Vec<String> {
    let mut moves: Vec<String> = Vec::new();
    let mut glue = false;
    for w in words {
        match moves.last_mut() {
            Some(last) if glue || w.starts_with(',') => {
                last.push(' ');
                last.push_str(w);
            }
            _ => moves.push(w.to_string()),
        }
        glue = w.ends_with(',');
    }
    moves
}

/// Checks that nothing follows a command that takes no words.
fn nothing(a: &Args) -> Result<(), Problem> {
    if a.len() > 0 {
        return Err(format!("'{}' takes no words after it", a.name).into());
    }
    Ok(())
}

/// `<game> ratings`
pub(crate) fn ratings(a: &Args) -> Result<GameCommand, Problem> {
    nothing(a).map(|()| GameCommand::Ratings)
}

/// `<game> standings`
pub(crate) fn standings(a: &Args) -> Result<GameCommand, Problem> {
    nothing(a).map(|()| GameCommand::Standings)
}

/// `<game> notify userid password [on|off|board...]`
pub(crate) fn notify(a: &Args) -> Result<GameCommand, Problem> {
    a.at_least(&["your userid", "your password"])?;
    let userid = a.userid(a.words[0])?;
    let password = a.words[1].into();
    let rest = &a.words[2..];
    let setting = match rest {
        [] => NotifySetting::On,
        [w] if w.eq_ignore_ascii_case("on") => NotifySetting::On,
        [w] if w.eq_ignore_ascii_case("off") => NotifySetting::Off,
        _ => {
            let mut boards = Vec::new();
            for w in rest {
                let b = parse_positive(w).ok_or_else(|| {
                    Problem(format!(
                        "'{}' is neither on, off nor a board number: write `on` (or nothing) to hear \
                         of new games, `off` to stop, or board numbers such as 101 to follow those \
                         games",
                        w
                    ))
                })?;
                if !boards.contains(&b) {
                    boards.push(b);
                }
            }
            NotifySetting::Boards(boards)
        }
    };
    Ok(GameCommand::Notify {
        userid,
        password,
        setting,
    })
}

/// `<game> limit userid password [N|off]`
pub(crate) fn limit(a: &Args) -> Result<GameCommand, Problem> {
    a.at_least(&["your userid", "your password"])?;
    if a.len() > 3 {
        return Err(format!(
            "'{}' takes your userid, your password and at most one number (or off), but {} words \
             were given",
            a.name,
            a.len()
        )
        .into());
    }
    let userid = a.userid(a.words[0])?;
    let setting = match a.words.get(2) {
        None => None,
        Some(w) if w.eq_ignore_ascii_case("off") || w.eq_ignore_ascii_case("none") => {
            Some(GameLimit::Off)
        }
        Some(w) => match w.parse::<u32>() {
            Ok(n) if w.bytes().all(|b| b.is_ascii_digit()) => Some(GameLimit::At(n)),
            _ => {
                return Err(format!(
                    "'{}' is not a number of games: write a number such as 3 (0 takes no new \
                     games), or off to lift the limit",
                    w
                )
                .into());
            }
        },
    };
    Ok(GameCommand::Limit {
        userid,
        password: a.words[1].into(),
        setting,
    })
}

/// The userid, password and other players of `accept` and `reject`, the others without repeats.
fn challenge_list(a: &Args) -> Result<(String, Password, Vec<String>), Problem> {
    a.at_least(&["your userid", "your password"])?;
    let userid = a.userid(a.words[0])?;
    let password = a.words[1].into();
    let mut userids: Vec<String> = Vec::new();
    for w in &a.words[2..] {
        let u = a.userid(w)?;
        if !userids.iter().any(|x| x.eq_ignore_ascii_case(&u)) {
            userids.push(u);
        }
    }
    Ok((userid, password, userids))
}

/// `<game> accept userid password [userid...]`
pub(crate) fn accept(a: &Args) -> Result<GameCommand, Problem> {
    let (userid, password, userids) = challenge_list(a)?;
    Ok(GameCommand::Accept {
        userid,
        password,
        userids,
    })
}

/// `<game> reject userid password [userid...]`
pub(crate) fn reject(a: &Args) -> Result<GameCommand, Problem> {
    let (userid, password, userids) = challenge_list(a)?;
    Ok(GameCommand::Reject {
        userid,
        password,
        userids,
    })
}

//! Every refusal's text, as the error mail says it above the board and the quoted command.

use crate::decision::{
    AccountRefusal, AdminRefusal, ChallengeBlock, ChallengeUsage, ClockRefusal, HelpRefusal,
    ListRefusal, MailRefusal, MessageRefusal, OpenProposal, PlayRefusal, ProposalRefusal, Refusal,
    SocialRefusal,
};
use crate::model::ProposalKind;
use crate::storage::ChallengeList;

/// The reason a command was refused, as the player reads it.
pub fn refusal(r: &Refusal) -> String {
    match r {
        Refusal::Account(r) => account(r),
        Refusal::Play(r) => play(r),
        Refusal::Proposal(r) => proposal(r),
        Refusal::Social(r) => social(r),
        Refusal::Clock(r) => clock(r),
        Refusal::Message(r) => message(r),
        Refusal::Help(r) => help(r),
        Refusal::List(r) => list(r),
        Refusal::Admin(r) => admin(r),
        Refusal::Mail(r) => mail(r),
    }
}

/// `alice proposes a draw (move 12)`, `bob proposes to undo back to move 4 (move 6)`.
pub fn open_proposal(p: &OpenProposal) -> String {
    let what = match (p.kind, p.undo_to) {
        (ProposalKind::Draw, _) => "a draw".to_string(),
        (ProposalKind::Undo, Some(t)) => format!("to undo back to move {t}"),
        (ProposalKind::Undo, None) => "an undo".to_string(),
    };
    format!("{} proposes {what} (move {})", p.proposer, p.move_number)
}

/// `Write it `limit challenge [options] <userid1> <userid2>`.`
fn usage(u: &ChallengeUsage) -> String {
    format!(
        "Write it `{} challenge [options] <userid1> <userid2>{}`.",
        u.game.name,
        if u.max_players > 2 {
            " [<userid3>]"
        } else {
            ""
        }
    )
}

/// `1 active Limit game`, `2 active Limit games`.
pub fn active_games(n: u32, title: &str) -> String {
    format!("{n} active {title} game{}", if n == 1 { "" } else { "s" })
}

fn account(r: &AccountRefusal) -> String {
    match r {
        AccountRefusal::Invalid(e) => e.to_string(),
        AccountRefusal::AddressNeededAtShell => "From the shell, give the player's mail address: \
                                                 `signup <userid> <password> <address>`."
            .to_string(),
        AccountRefusal::UseridTaken { userid } => format!(
            "The userid '{userid}' is taken. Choose another: `signup <userid> <password> [address...]`."
        ),
        AccountRefusal::StillPlaying { userid, active } => format!(
            "{userid} still plays {active} game(s). Finish or resign them first \
             (`<game> resign <board> <userid> <password>`), then sign off."
        ),
        // The allowances of wrong passwords are in `help`; here what to do comes first.
        AccountRefusal::WrongPassword {
            userid,
            from_owner: true,
            ..
        } => format!(
            "Forgot it? Send `password reset {userid}`.\n\
             The userid '{userid}' and that password do not match. Passwords are \
             case-sensitive (is Caps Lock on?). \
             After too many failed tries in an hour, passwords are not checked for the rest of \
             the hour (`help` says how many)."
        ),
        AccountRefusal::WrongPassword { userid, .. } => format!(
            "Forgot it? Send `password reset {userid}`.\n\
             The userid '{userid}' and that password do not match a registered player. \
             Passwords are case-sensitive. After too many failed tries in an hour, passwords are \
             not checked for the rest of the hour (`help` says how many). New here? Send \
             `signup <userid> <password>`."
        ),
        AccountRefusal::TooManyChecks { max } => format!(
            "Too many password checks in one mail (at most {max}); send the rest in another mail."
        ),
        AccountRefusal::NoPendingAddress { userid } => format!(
            "No address of '{userid}' waits for confirmation with that code from this address. \
             Reply to the confirmation mail from the address it was sent to, keeping its \
             Subject `confirm <userid> <code>`."
        ),
        AccountRefusal::ConfirmAtShell => {
            "`confirm` comes by mail from the address being confirmed; at the shell, give \
             the addresses to `change address` instead."
                .to_string()
        }
        AccountRefusal::BadResetCode { userid } => format!(
            "That code does not set a password of {userid}: it is wrong, used, or older than \
             24 hours. Ask for a new one with `password reset {userid}`."
        ),
    }
}

fn block(b: &ChallengeBlock) -> String {
    match b {
        ChallengeBlock::TakesNone { userid, game } => format!(
            "{userid} takes no new {} games by challenge for now (their limit is 0).",
            game.title
        ),
        ChallengeBlock::AtLimit {
            userid,
            game,
            max,
            active,
        } => format!(
            "{userid} takes at most {} by challenge and has {active} now: try again when \
             one of them ends.",
            active_games(*max, game.title)
        ),
        ChallengeBlock::Rejects {
            userid,
            game,
            challenger,
        } => format!(
            "{userid} does not take {} challenges from {challenger} (their reject list).",
            game.title
        ),
        ChallengeBlock::NotAccepted {
            userid,
            game,
            challenger,
        } => format!(
            "{userid} takes {} challenges only from the players on their accept list, and \
             {challenger} is not on it.",
            game.title
        ),
    }
}

fn play(r: &PlayRefusal) -> String {
    match r {
        PlayRefusal::NoSuchBoard { game, board } => format!(
            "There is no {} board {board}. Send `{} games <userid>` for a player's boards.",
            game.title, game.name
        ),
        PlayRefusal::PlayerCount { usage: u, named } => format!(
            "{} is played by {} players; you named {named}. {}",
            u.game.title,
            if u.min_players == u.max_players {
                u.min_players.to_string()
            } else {
                format!("{} to {}", u.min_players, u.max_players)
            },
            usage(u)
        ),
        PlayRefusal::NotRegistered { userid, usage: u } => format!(
            "'{userid}' is not a registered player. Every player signs up first with \
             `signup <userid> <password>`. {}",
            usage(u)
        ),
        PlayRefusal::NamedTwice { userid, usage: u } => format!(
            "'{userid}' is named twice: a game needs different players. {}",
            usage(u)
        ),
        PlayRefusal::NoRobot { userid, usage: u } => format!(
            "'{userid}' is a robot, and there is no robot for {} yet. {}",
            u.game.title,
            usage(u)
        ),
        PlayRefusal::RobotsOnly { usage: u } => format!(
            "A game between robots only is not made by mail: robots play people. Name yourself \
             first and a robot to play against, with your password: `{} challenge \
             --password=<your password> <your userid> robot1`. {}",
            u.game.name,
            usage(u)
        ),
        PlayRefusal::RobotChallengeByStranger { usage: u } => format!(
            "A game against a robot is made by the person who plays it: name yourself first \
             with your password (`{} challenge --password=<your password> <your userid> \
             robot1`), or send the challenge from your registered address. {}",
            u.game.name,
            usage(u)
        ),
        PlayRefusal::RobotGamesToday {
            userid,
            max,
            next_at,
            usage: u,
        } => format!(
            "The challenge was not made: {userid} has started {max} games against robots in the \
             last 24 hours, the most a player may start in a day (a robot's thinking costs the \
             server for everyone). The next one may start at {} or later; the games under way go \
             on as before. {}",
            crate::summary::format_time(*next_at),
            usage(u)
        ),
        PlayRefusal::BadOptions { error, usage: u } => format!("{error}\n{}", usage(u)),
        PlayRefusal::Blocked { reasons } => format!(
            "The challenge was not made: {}\n(The first userid of a challenge is taken as the \
             challenger.)",
            reasons.iter().map(block).collect::<Vec<_>>().join("\n")
        ),
        PlayRefusal::NotAPlayer {
            userid,
            game,
            board,
            players,
        } => format!(
            "{userid} does not play {} board {board}: its players are {}.",
            game.title,
            players.join(", ")
        ),
        PlayRefusal::Over {
            game,
            board,
            status,
        } => format!(
            "{} board {board} is over: {status}\nTo play it again with the colours swapped, reply \
             `rematch` to its mail, or send `{} rematch {board} <userid> <password>`.",
            game.title, game.name
        ),
        PlayRefusal::RematchOfRunning {
            game,
            board,
            status,
            players,
        } => format!(
            "{} board {board} is still being played ({status}): a rematch starts once it is \
             over. To start another game now, send `{} challenge {}`.",
            game.title,
            game.name,
            players.join(" ")
        ),
        PlayRefusal::NotYourTurn { board, status } => {
            format!("It is not your turn on board {board}: {status}")
        }
        PlayRefusal::MoveGuard { board, meant, at } => format!(
            "Your move was meant for move {meant}, but board {board} is at move {at}: the board changed \
             since you looked. Look at the board below and send your move again (with #{at} or \
             without a guard)."
        ),
        PlayRefusal::Illegal {
            game,
            board,
            userid,
            mv,
            error,
        } => format!(
            "The move '{mv}' is not legal: {error}\nWrite it `{} move {board} {userid} <password> <move>`; \
             the move syntax is in `{} help`.",
            game.name, game.name
        ),
        PlayRefusal::Rules(error) => error.to_string(),
        PlayRefusal::PreviewOver { after, mv } => {
            format!("The game is over after move {after}; '{mv}' cannot follow.")
        }
        PlayRefusal::PreviewIllegal { number, mv, error } => {
            format!("Preview move {number} '{mv}' is not legal: {error}")
        }
    }
}

fn proposal(r: &ProposalRefusal) -> String {
    match r {
        ProposalRefusal::Guard { board, meant, at } => format!(
            "Your command was meant for move {meant}, but board {board} is at move {at}: the board changed \
             since you looked. Look at the board below and send it again."
        ),
        ProposalRefusal::Over {
            game,
            board,
            status,
        } => format!(
            "{} board {board} is over ({status}): there is nothing left to propose.",
            game.title
        ),
        ProposalRefusal::ProposerOut { userid, board } => {
            format!("{userid} is no longer in the game on board {board}, so cannot propose.")
        }
        ProposalRefusal::AlreadyOpen { board, open } => format!(
            "Board {board} already has an open proposal: {}\nA board has one open proposal at \
             a time; propose again once it is settled.",
            open_proposal(open)
        ),
        ProposalRefusal::NothingToUndo => {
            "There is nothing to undo: you have not made a move in this game yet.".to_string()
        }
        ProposalRefusal::UndoPastLeaving {
            last,
            leaving,
            what,
        } => format!(
            "Your last move (move {last}) cannot be taken back: move {leaving} is a {what}, and \
             leaving the game is not undone."
        ),
        ProposalRefusal::UndoImpossible { target, error } => {
            format!("The game cannot be taken back to move {target}: {error}")
        }
        ProposalRefusal::UndoNotYourTurn { target } => format!(
            "Taking back to move {target} would not make it your turn, so there is nothing of yours \
             to undo."
        ),
        ProposalRefusal::UndoFailed { error } => {
            format!("The undo cannot be carried out: {error}")
        }
        ProposalRefusal::NoneOpen {
            game,
            board,
            userid,
            accept,
        } => format!(
            "There is no open proposal on board {board}, so there is nothing to {}. To make \
             one, write `{} move {board} {userid} <password> propose undo` (or `propose draw`).",
            if *accept { "accept" } else { "reject" },
            game.name
        ),
        ProposalRefusal::OwnProposal { open } => format!(
            "The open proposal is your own ({}); the other players answer it. It lapses by \
             itself when the game changes.",
            open_proposal(open)
        ),
        ProposalRefusal::AnswererOut { userid, board } => format!(
            "{userid} is no longer in the game on board {board}; only the players still in answer \
             proposals."
        ),
        ProposalRefusal::AlreadyAccepted { open } => format!(
            "You have already accepted the open proposal ({}).",
            open_proposal(open)
        ),
        ProposalRefusal::QueueUnreadable { board, error } => {
            format!("Nothing was queued on board {board}: {error}")
        }
        ProposalRefusal::QueueOver {
            game,
            board,
            status,
        } => format!(
            "{} board {board} is over ({status}): there is no turn left to queue a move for.",
            game.title
        ),
        ProposalRefusal::QueueOnTurn {
            game,
            board,
            userid,
            mv,
        } => format!(
            "It is your turn on board {board}: play the move now with `{} move {board} {userid} \
             <password> {mv}`. A queued move waits for a turn that has not come yet.",
            game.name
        ),
        ProposalRefusal::QueueOut { userid, board } => {
            format!("{userid} is no longer in the game on board {board}: no turn will come.")
        }
        ProposalRefusal::QueueGuard { board, meant, at } => format!(
            "A queued move's #{meant} names the move it is meant for, but board {board} is already \
             at move {at}: write a later move number, or none."
        ),
    }
}

/// `You are subscribed to Limit Board(s) 101, 103.` or that you follow none.
pub fn following(title: &str, boards: &[u32]) -> String {
    if boards.is_empty() {
        format!("You are subscribed to no {title} boards that are still going on.")
    } else {
        format!(
            "You are subscribed to {title} Board(s) {}.",
            boards
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

fn social(r: &SocialRefusal) -> String {
    match r {
        SocialRefusal::NotSocial { game } => format!(
            "'{}' is not a command about subscriptions or challenges.",
            game.name
        ),
        SocialRefusal::OwnGame {
            userid,
            game,
            board,
        } => format!(
            "{userid} plays {} Board {board}, so every board mail of it comes to them already; \
             subscribe is for watching the games of others.",
            game.title
        ),
        SocialRefusal::Finished { game, board } => format!(
            "{} Board {board} is over, so no more board mails will come. Read it with \
             `{} show {board}` or `{} history {board}`.",
            game.title, game.name, game.name
        ),
        SocialRefusal::AlreadySubscribed {
            userid,
            game,
            board,
        } => format!(
            "{userid} is subscribed to {} Board {board} already; nothing changed. To stop, write \
             `{} unsubscribe {board} {userid} <password>`.",
            game.title, game.name
        ),
        SocialRefusal::NotSubscribed {
            userid,
            game,
            board,
            following: boards,
        } => format!(
            "{userid} is not subscribed to {} Board {board}, so there is nothing to stop. {}",
            game.title,
            following(game.title, boards)
        ),
        SocialRefusal::ListNotRegistered { userid, game, list } => format!(
            "'{userid}' is not a registered player, so the {} list was not changed. {}",
            list.as_str(),
            list_usage(game.name, *list)
        ),
        SocialRefusal::ListNamesSelf { userid, game, list } => format!(
            "You named yourself ({userid}) in your own {} list; name the players whose \
             challenges you {}. The list was not changed. {}",
            list.as_str(),
            if *list == ChallengeList::Accept {
                "take"
            } else {
                "refuse"
            },
            list_usage(game.name, *list)
        ),
    }
}

fn list_usage(name: &str, list: ChallengeList) -> String {
    format!(
        "Write it `{name} {} <your userid> <password> [<userid>...]`.",
        list.as_str()
    )
}

/// How `vacation` is written, for its refusals.
const VACATION_USAGE: &str = "Write it `vacation <userid> <password> <first day> <last day>` with \
                              days as YYYY-MM-DD (UTC, both days included), or `vacation <userid> \
                              <password> off`.";

fn clock(r: &ClockRefusal) -> String {
    match r {
        ClockRefusal::UnknownOption { name, usage: u } => format!(
            "There is no server option --{name}. The server options are \
             --nagtime=DAYS (days without a move before a reminder) and \
             --forfeittime=DAYS (days without a move before a forfeit). {}",
            usage(u)
        ),
        ClockRefusal::OptionTwice { name, usage: u } => {
            format!("--{name} is given twice: give it once. {}", usage(u))
        }
        ClockRefusal::BadDays {
            name,
            value,
            max,
            usage: u,
        } => {
            let shown = match value {
                Some(v) => format!("--{name}={v}"),
                None => format!("--{name}"),
            };
            format!(
                "{shown}: --{name} takes a whole number of days from 1 to {max}, \
                 written --{name}=DAYS, such as --{name}=14. {}",
                usage(u)
            )
        }
        ClockRefusal::ForfeitNotAfterNag {
            forfeit_days,
            forfeit_given,
            nag_days,
            nag_given,
            usage: u,
        } => {
            let whose = |given: bool| if given { "" } else { ", the server's" };
            format!(
                "The forfeit time ({forfeit_days} days{}) must be longer than the nag time \
                 ({nag_days} days{}), so that a player is reminded before losing on time. Give \
                 both, such as --nagtime=3 --forfeittime=10. {}",
                whose(*forfeit_given),
                whose(*nag_given),
                usage(u)
            )
        }
        ClockRefusal::VacationPast { to, today } => {
            format!("The last day {to} is already past (today is {today}, UTC). {VACATION_USAGE}")
        }
        ClockRefusal::VacationStartsPast { from, today } => format!(
            "The first day {from} is before today ({today}, UTC): a vacation cannot start in \
             the past. To be away from now on, write today's date, {today}. {VACATION_USAGE}"
        ),
        ClockRefusal::VacationTooLong {
            from,
            to,
            length,
            max,
        } => format!(
            "{from} to {to} is {length} days; a vacation is at most {max} days, \
             since your opponents wait all that time. {VACATION_USAGE}"
        ),
        ClockRefusal::VacationTooFarAhead { from, max_ahead } => format!(
            "{from} is more than {max_ahead} days ahead: plan a vacation at most a \
             year ahead. {VACATION_USAGE}"
        ),
    }
}

fn message(r: &MessageRefusal) -> String {
    match r {
        MessageRefusal::Empty => {
            "The message is the body of your mail, and it is empty. Write the \
                                  command in the Subject and the message in the body."
                .to_string()
        }
        MessageRefusal::NotRegistered { userid } => format!(
            "'{userid}' is not a registered player, so nothing was sent (to anyone). \
             Write it `message <userid> <password> <to userid>...`."
        ),
        MessageRefusal::TooMany { per_day, sent } => format!(
            "You can write to {per_day} players a day and have written to {sent} in \
             the last 24 hours, so nothing was sent. Try again tomorrow."
        ),
        MessageRefusal::EmptyChat {
            game,
            board,
            userid,
        } => format!(
            "A chat needs a message: write it in the body of the mail, with \
             `{} chat {board} {userid} <password>` in the Subject.",
            game.name
        ),
        MessageRefusal::TooManyTo {
            to,
            per_day,
            first_at,
            chat,
        } => format!(
            "You have sent {to} {per_day} chats and messages in the last 24 hours, as many as \
             one player may send another in a day, so this {} was not sent (to anyone). You \
             can write to {to} again after {}.",
            if *chat { "chat" } else { "message" },
            crate::summary::format_time(first_at + 86_400)
        ),
        MessageRefusal::ChatClosed {
            game,
            board,
            userid,
        } => format!(
            "{} Board {board} is over and {userid} never moved in it, so it carries no chat \
             from {userid}: nothing was sent.",
            game.title
        ),
    }
}

fn help(r: &HelpRefusal) -> String {
    match r {
        HelpRefusal::NoHelp {
            subject,
            nearest,
            hosted,
        } => {
            let hint = nearest
                .as_ref()
                .map(|c| format!(" Did you mean '{c}'?"))
                .unwrap_or_default();
            format!(
                "There is no help on '{}'.{hint} Send `help` for the commands, or \
                 `help <game>` for a game's rules; the games are: {}.",
                subject.join(" "),
                hosted.join(", ")
            )
        }
        HelpRefusal::UnknownGame { game, hosted } => format!(
            "This server hosts no game called '{game}'. It hosts: {}. \
             Send `list` for the list, or `<game> help` for a game's rules.",
            hosted.join(", ")
        ),
    }
}

fn list(r: &ListRefusal) -> String {
    match r {
        ListRefusal::UnknownGame { game, hosted } => format!(
            "This server hosts no game called '{game}'. It hosts: {}.",
            hosted.join(", ")
        ),
        ListRefusal::NotRegistered { userid, game } => format!(
            "'{userid}' is not a registered player. Write it `{} games <userid>... \
             [active|all|finished|next]`.",
            game.name
        ),
        ListRefusal::NoSgf { game, board } => format!(
            "There is no SGF or PGN file of {} Board {board}: no tool of {} players reads one \
             for this game, so it is kept as a text record. Send `{} history {board} -record` \
             for it.",
            game.title, game.title, game.name
        ),
    }
}

fn mail(r: &MailRefusal) -> String {
    match r {
        MailRefusal::TooLarge { max_bytes } => {
            let size = if max_bytes.is_multiple_of(1024) {
                format!("{} KiB", max_bytes / 1024)
            } else {
                format!("{max_bytes} bytes")
            };
            format!(
                "Your mail is larger than {size}, the most this server reads; nothing was done. \
                 Send the command again in a short plain-text mail: without attachments, pictures \
                 or a long quoted conversation."
            )
        }
        MailRefusal::UnregisteredReply { game, board } => format!(
            "Nothing was done: this reply to a mail of {} Board {board} came from an address that \
             is not registered to the player the mail went to. A reply with just the move works \
             only from your registered address: send from your registered address (the one the \
             board mail went to), or write the whole command with your password, \
             `{} move {board} <userid> <password> <move>`. To play from this address too, send \
             `change address <userid> <password>` followed by all your addresses, this one among \
             them.",
            game.title, game.name
        ),
        MailRefusal::NoCommand { example, notes } => format!(
            "Your mail holds no command. Write the command in the Subject, for example\n\
             \n    {example}\n\n\
             with your own password in place of <password>, and anything in the body is \
             shown to the other players as your comment. Or reply to a board mail with the \
             command on a line of its own. Send `help` in the Subject for every command.{}",
            if notes.is_empty() {
                String::new()
            } else {
                format!("\n\nAbout your mail: {}", notes.join("; "))
            }
        ),
    }
}

fn admin(r: &AdminRefusal) -> String {
    match r {
        AdminRefusal::NotRegistered { userid } => {
            format!("'{userid}' is not a registered player.")
        }
        AdminRefusal::NotOnBoard { userid, board } => {
            format!("'{userid}' does not play on board {board}.")
        }
        AdminRefusal::CannotWin { userid, board } => format!(
            "{userid} cannot be made the winner of board {board}: they are out of \
             the game."
        ),
        AdminRefusal::AlreadyPlays { userid, board } => {
            format!("{userid} already plays on board {board}.")
        }
        AdminRefusal::NoRobot { userid, game } => format!(
            "{userid} is a robot, and there is no robot for {}.",
            game.title
        ),
        AdminRefusal::Vanished { board } => format!("Board {board} vanished."),
        AdminRefusal::NothingToTakeBack { board } => {
            format!("Board {board} has no move to take back.")
        }
        AdminRefusal::TakeBackFailed { error } => {
            format!("The move cannot be taken back: {error}")
        }
        AdminRefusal::NoReason => {
            "Give the reason (--reason \"...\"): the players read it with the board.".to_string()
        }
        AdminRefusal::UnknownGame { game } => {
            format!("This server hosts no game called '{game}'.")
        }
        AdminRefusal::Finished { board } => {
            format!("Board {board} is over: its result and ratings stand.")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decision::RuleError;

    use super::super::LIMIT;

    #[test]
    fn a_wrong_password_leads_with_the_reset_and_offers_signup_only_to_strangers() {
        let text = |from_owner| {
            refusal(
                &AccountRefusal::WrongPassword {
                    userid: "alice".into(),
                    per_sender: 10,
                    per_account: 20,
                    from_owner,
                }
                .into(),
            )
        };
        for from_owner in [true, false] {
            let t = text(from_owner);
            assert!(
                t.starts_with("Forgot it? Send `password reset alice`"),
                "{t}"
            );
            assert!(t.contains("case-sensitive"), "{t}");
            // The figures are in `help`.
            assert!(!t.contains("10") && !t.contains("20"), "{t}");
            assert_eq!(t.contains("signup"), !from_owner, "{t}");
        }
    }

    #[test]
    fn an_illegal_move_quotes_the_rules_and_how_to_write_it() {
        let text = refusal(
            &PlayRefusal::Illegal {
                game: LIMIT,
                board: 101,
                userid: "bob".into(),
                mv: "9-9,9".into(),
                error: RuleError("there is no square 9-9".into()),
            }
            .into(),
        );
        assert_eq!(
            text,
            "The move '9-9,9' is not legal: there is no square 9-9\n\
             Write it `limit move 101 bob <password> <move>`; the move syntax is in `limit help`."
        );
    }

    #[test]
    fn a_blocked_challenge_gives_every_reason_on_its_own_line() {
        let text = refusal(
            &PlayRefusal::Blocked {
                reasons: vec![
                    ChallengeBlock::AtLimit {
                        userid: "bob".into(),
                        game: LIMIT,
                        max: 1,
                        active: 1,
                    },
                    ChallengeBlock::Rejects {
                        userid: "carol".into(),
                        game: LIMIT,
                        challenger: "alice".into(),
                    },
                ],
            }
            .into(),
        );
        assert_eq!(
            text,
            "The challenge was not made: bob takes at most 1 active Limit game by challenge and \
             has 1 now: try again when one of them ends.\n\
             carol does not take Limit challenges from alice (their reject list).\n\
             (The first userid of a challenge is taken as the challenger.)"
        );
    }

    #[test]
    fn clock_options_end_with_the_challenge_usage_of_the_game() {
        let usage = ChallengeUsage {
            game: LIMIT,
            min_players: 2,
            max_players: 3,
        };
        let text = refusal(
            &ClockRefusal::BadDays {
                name: "nagtime".into(),
                value: Some("0".into()),
                max: 365,
                usage,
            }
            .into(),
        );
        assert_eq!(
            text,
            "--nagtime=0: --nagtime takes a whole number of days from 1 to 365, written \
             --nagtime=DAYS, such as --nagtime=14. Write it `limit challenge [options] <userid1> \
             <userid2> [<userid3>]`."
        );
        let two = ChallengeUsage {
            max_players: 2,
            ..usage
        };
        let text = refusal(
            &ClockRefusal::ForfeitNotAfterNag {
                forfeit_days: 3,
                forfeit_given: true,
                nag_days: 5,
                nag_given: false,
                usage: two,
            }
            .into(),
        );
        assert_eq!(
            text,
            "The forfeit time (3 days) must be longer than the nag time (5 days, the server's), \
             so that a player is reminded before losing on time. Give both, such as --nagtime=3 \
             --forfeittime=10. Write it `limit challenge [options] <userid1> <userid2>`."
        );
    }

    #[test]
    fn proposals_are_described_by_kind() {
        let mut open = OpenProposal {
            proposer: "alice".into(),
            kind: ProposalKind::Undo,
            undo_to: Some(4),
            move_number: 6,
        };
        assert_eq!(
            refusal(&ProposalRefusal::AlreadyAccepted { open: open.clone() }.into()),
            "You have already accepted the open proposal (alice proposes to undo back to move 4 \
             (move 6))."
        );
        open.undo_to = None;
        assert_eq!(open_proposal(&open), "alice proposes an undo (move 6)");
        open.kind = ProposalKind::Draw;
        assert_eq!(open_proposal(&open), "alice proposes a draw (move 6)");
    }

    #[test]
    fn account_errors_are_shown_as_the_accounts_module_words_them() {
        let e = crate::accounts::check_password("").unwrap_err();
        assert_eq!(
            refusal(&AccountRefusal::Invalid(e).into()),
            "the password is empty; a password is 1 to 64 characters with no spaces, tabs or \
             control characters"
        );
        assert_eq!(
            refusal(
                &HelpRefusal::NoHelp {
                    subject: vec!["mvoe".into()],
                    nearest: Some("move".into()),
                    hosted: vec!["limit".into()],
                }
                .into()
            ),
            "There is no help on 'mvoe'. Did you mean 'move'? Send `help` for the commands, or \
             `help <game>` for a game's rules; the games are: limit."
        );
    }
}

//! The command language, the same by mail and from the shell (pbmserv's syntax).
//!
//! ```text
//! help [subject...]                      signup|add userid password [address...]
//! change password userid old new         change address userid password [address...]
//! signoff userid password                list
//! <game> help                            <game> challenge [-option[=value]...] userid1 userid2 [userid3]
//! <game> move board userid password move[#N]     <game> resign board userid password
//! <game> show board[#N]...               <game> history [board | page N]
//! <game> ratings                         <game> standings
//! <game> games userid [active|all|finished]      <game> preview board move...
//! <game> move board userid password propose undo|draw    <game> move board userid password accept|reject
//! <game> queue board userid password move[#N]
//! <game> chat board userid password      (the mail body is the message)
//! <game> subscribe|unsubscribe board userid password
//! <game> notify userid password [on|off|board...]
//! <game> limit userid password [N|off]   <game> accept|reject userid password [userid...]
//! vacation userid password FROM TO       vacation userid password off
//! ```
//!
//! This module only reads the text: [`parse`] turns one line into a [`RawCommand`] and refuses lines that
//! are malformed on their face (a missing word, a board number that is not a number, a userid with a
//! space in it). Whether the userids exist, the board exists, the game is hosted and the move is legal is
//! for the server to check afterwards.
//!
//! Passwords are the one thing that must never leak: [`CommandError`] never quotes one,
//! [`RawCommand::redacted`] and [`redact_line`] mask them with `****`.

use std::fmt;

use crate::games::GameOption;

/// The mask written in place of a password.
pub const MASK: &str = "****";

/// The longest userid; userids are 1 to this many letters, digits, `_` or `-`.
pub const MAX_USERID_LEN: usize = 20;

/// The server-level keywords; any other first word is taken as the name of a game.
pub const SERVER_KEYWORDS: &[&str] = &[
    "help", "signup", "add", "change", "signoff", "list", "vacation", "confirm", "password",
    "message",
];

/// The most userids of one `games` command.
pub const MAX_GAMES_USERIDS: usize = 10;

/// The words a game command may start with (after the game's name).
pub const GAME_COMMAND_WORDS: &[&str] = &[
    "help",
    "challenge",
    "move",
    "resign",
    "show",
    "history",
    "games",
    "preview",
    "chat",
    "queue",
    "standings",
    "ratings",
    "subscribe",
    "unsubscribe",
    "notify",
    "limit",
    "accept",
    "reject",
];

/// One word of a command line, as [`tokenize`] reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Token {
    /// A plain word: a keyword, a userid, a board number, a move.
    Word(String),
    /// A game option, `-name` or `-name=value`.
    GameOption(GameOption),
    /// A server option, `--name` or `--name=value`.
    ServerOption(String, Option<String>),
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Word(w) => f.write_str(w),
            Token::GameOption(o) => write!(f, "{o}"),
            Token::ServerOption(name, None) => write!(f, "--{name}"),
            Token::ServerOption(name, Some(v)) => write!(f, "--{name}={v}"),
        }
    }
}

/// Splits a line into words at whitespace and tells options from plain words: `-size=8` and `-manual`
/// are game options, `--nagtime=7` a server option, anything else (including a lone `-` or `--`, and
/// `-x!` whose name is not a name) a plain word.
pub fn tokenize(line: &str) -> Vec<Token> {
    line.split_whitespace().map(token).collect()
}

fn token(word: &str) -> Token {
    if let Some(rest) = word.strip_prefix("--") {
        let (name, value) = match rest.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (rest, None),
        };
        if !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            return Token::ServerOption(name.to_string(), value);
        }
        return Token::Word(word.to_string());
    }
    match GameOption::parse(word) {
        Some(o) => Token::GameOption(o),
        None => Token::Word(word.to_string()),
    }
}

/// A command as written, checked for form only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RawCommand {
    /// `help [subject...]`
    Help {
        /// The words after `help`, as written.
        subject: Vec<String>,
    },
    /// `signup userid password [address...]` (also `add`)
    Signup {
        /// The new userid, as written.
        userid: String,
        /// The password chosen.
        password: String,
        /// The addresses to mail; empty means the sender's address.
        addresses: Vec<String>,
    },
    /// `change password userid old new`
    ChangePassword {
        /// The userid, as written.
        userid: String,
        /// The current password.
        old: String,
        /// The new password.
        new: String,
    },
    /// `message userid password to-userid...`: the mail's body to other players, through the server.
    Message {
        /// The sender, as written.
        userid: String,
        /// The sender's password.
        password: String,
        /// The recipients, as written.
        to: Vec<String>,
    },
    /// `password reset userid`: mail a one-time code to the account's addresses.
    PasswordReset {
        /// The userid, as written.
        userid: String,
    },
    /// `password set userid code new`: a new password with the code of `password reset`.
    PasswordSet {
        /// The userid, as written.
        userid: String,
        /// The code of the reset mail.
        code: String,
        /// The new password.
        new: String,
    },
    /// `change address userid password [address...]`
    ChangeAddress {
        /// The userid, as written.
        userid: String,
        /// The password.
        password: String,
        /// The new addresses; empty means the sender's address.
        addresses: Vec<String>,
    },
    /// `signoff userid password`
    Signoff {
        /// The userid, as written.
        userid: String,
        /// The password.
        password: String,
    },
    /// `confirm userid code`: sent from an address given to `signup` or `change address` that was
    /// not the sender's, with the code of the confirmation mail it received.
    Confirm {
        /// The userid, as written.
        userid: String,
        /// The code from the confirmation mail.
        code: String,
    },
    /// `list [gametype...]`: the games this server hosts, or those named with their counts.
    List {
        /// The game types named, lowercase; none: all.
        games: Vec<String>,
    },
    /// `vacation userid password FROM TO` (days, `YYYY-MM-DD`, UTC, both included), or
    /// `vacation userid password off`.
    Vacation {
        /// The userid, as written.
        userid: String,
        /// The password.
        password: String,
        /// The first and last day away; `None` for `off` (back now, planned vacations dropped).
        days: Option<(chrono::NaiveDate, chrono::NaiveDate)>,
    },
    /// `<game> ...`: a command for one game type.
    Game {
        /// The game's name, lowercased (not checked: the server knows which games it hosts).
        game: String,
        /// What to do.
        command: GameCommand,
    },
}

/// Which of a player's games `games` lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GamesFilter {
    /// The games still going on (the default).
    #[default]
    Active,
    /// Every game.
    All,
    /// The games that are over (`finished`, or pbmserv's `inactive`).
    Finished,
    /// The games where it is the player's turn.
    Next,
}

impl GamesFilter {
    /// The word as written in a command.
    pub fn as_str(self) -> &'static str {
        match self {
            GamesFilter::Active => "active",
            GamesFilter::All => "all",
            GamesFilter::Finished => "finished",
            GamesFilter::Next => "next",
        }
    }
}

/// A command for one game type (the words after the game's name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameCommand {
    /// `<game> help`
    Help,
    /// `<game> challenge [options] userid...`
    Challenge {
        /// The game options (`-size=8`), in the order written.
        options: Vec<GameOption>,
        /// The server options (`--nagtime=7`), name without dashes, in the order written; never
        /// `--password`, which is taken out into `password`.
        server_options: Vec<(String, Option<String>)>,
        /// The players, in seat order, as written.
        userids: Vec<String>,
        /// `--password=PW`: the first player's password. A challenge that carries it counts as that
        /// player's agreement to the game; without it, anyone could have sent it.
        password: Option<String>,
    },
    /// `<game> move board userid password move[#N]`
    Move {
        /// The board number.
        board: u32,
        /// The userid, as written.
        userid: String,
        /// The password.
        password: String,
        /// The move as written (words joined by single spaces), without the `#N` guard; may be `resign`.
        mv: String,
        /// The `#N` guard: the move is refused unless move N is the one awaited.
        guard: Option<u32>,
    },
    /// `<game> resign board userid password`
    Resign {
        /// The board number.
        board: u32,
        /// The userid, as written.
        userid: String,
        /// The password.
        password: String,
    },
    /// `<game> show board[#N]...`
    Show {
        /// Each board, with the move number to show it at (`101#5`), if any.
        boards: Vec<(u32, Option<u32>)>,
    },
    /// `<game> history [board | page N]`
    History {
        /// The board, if one was named.
        board: Option<u32>,
        /// Without a board: which page of finished games, newest first (`page 2`); `None` is the first.
        page: Option<u32>,
    },
    /// `<game> games userid [active|all|finished]`
    Games {
        /// Whose games, as written (one or more).
        userids: Vec<String>,
        /// Which games.
        filter: GamesFilter,
    },
    /// `<game> preview board move...`
    Preview {
        /// The board number.
        board: u32,
        /// The moves to try, in order.
        moves: Vec<String>,
    },
    /// `<game> chat board userid password` (the mail body is the message)
    Chat {
        /// The board number.
        board: u32,
        /// The userid, as written.
        userid: String,
        /// The password.
        password: String,
    },
    /// `<game> ratings`: the rating list.
    Ratings,
    /// `<game> standings`: games played, won, lost, drawn and active per player.
    Standings,
    /// `<game> subscribe board userid password`: mail me every board mail of this game.
    Subscribe {
        /// The board number.
        board: u32,
        /// The userid, as written.
        userid: String,
        /// The password.
        password: String,
    },
    /// `<game> unsubscribe board userid password`
    Unsubscribe {
        /// The board number.
        board: u32,
        /// The userid, as written.
        userid: String,
        /// The password.
        password: String,
    },
    /// `<game> notify userid password [on|off|board...]`
    Notify {
        /// The userid, as written.
        userid: String,
        /// The password.
        password: String,
        /// What to turn on or off.
        setting: NotifySetting,
    },
    /// `<game> limit userid password [N|off]`: at most N unfinished games of this type by challenge.
    Limit {
        /// The userid, as written.
        userid: String,
        /// The password.
        password: String,
        /// The new limit; `None` only asks for the current one.
        setting: Option<GameLimit>,
    },
    /// `<game> accept userid password [userid...]`: take challenges only from these (none: from anyone).
    Accept {
        /// The userid, as written.
        userid: String,
        /// The password.
        password: String,
        /// The players whose challenges are taken, as written.
        userids: Vec<String>,
    },
    /// `<game> reject userid password [userid...]`: refuse challenges from these (none: clear the list).
    Reject {
        /// The userid, as written.
        userid: String,
        /// The password.
        password: String,
        /// The players whose challenges are refused, as written.
        userids: Vec<String>,
    },
    /// `<game> move board userid password propose undo|draw[#N]`: a proposal the other players answer.
    Propose {
        /// The board number.
        board: u32,
        /// The userid, as written.
        userid: String,
        /// The password.
        password: String,
        /// What is proposed.
        kind: ProposalKind,
        /// The `#N` guard: refused unless move N is the one awaited.
        guard: Option<u32>,
    },
    /// `<game> move board userid password accept|reject[#N]`: the answer to the open proposal.
    Answer {
        /// The board number.
        board: u32,
        /// The userid, as written.
        userid: String,
        /// The password.
        password: String,
        /// True for `accept`, false for `reject`.
        accept: bool,
        /// The `#N` guard: refused unless move N is the one awaited.
        guard: Option<u32>,
    },
    /// `<game> queue board userid password move[#N]`: a move kept until the player's turn comes.
    Queue {
        /// The board number.
        board: u32,
        /// The userid, as written.
        userid: String,
        /// The password.
        password: String,
        /// The move as written, without the guard.
        mv: String,
        /// The `#N` guard: the queued move is played only if its turn comes at move N.
        guard: Option<u32>,
    },
}

/// What a proposal asks the other players to agree to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProposalKind {
    /// Take back the proposer's last own move and everything after it.
    Undo,
    /// End the game as a draw between the players still in.
    Draw,
}

impl ProposalKind {
    /// The word as written after `propose`.
    pub fn as_str(self) -> &'static str {
        match self {
            ProposalKind::Undo => "undo",
            ProposalKind::Draw => "draw",
        }
    }

    /// Reads the stored or written word back.
    pub fn from_word(word: &str) -> Option<ProposalKind> {
        match word.to_ascii_lowercase().as_str() {
            "undo" => Some(ProposalKind::Undo),
            "draw" => Some(ProposalKind::Draw),
            _ => None,
        }
    }
}

/// What `notify` asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotifySetting {
    /// Tell me of every new game of this type (`notify userid password`, or `... on`).
    On,
    /// No more notices of new games (`... off`).
    Off,
    /// Subscribe to these boards, as `subscribe` does for one.
    Boards(Vec<u32>),
}

/// A new value for `limit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameLimit {
    /// At most this many unfinished games (0: no new games by challenge).
    At(u32),
    /// No limit (`off` or `none`).
    Off,
}

impl RawCommand {
    /// The passwords written in this command, in order (none for most commands).
    pub fn passwords(&self) -> Vec<&str> {
        match self {
            RawCommand::Signup { password, .. }
            | RawCommand::ChangeAddress { password, .. }
            | RawCommand::Signoff { password, .. } => vec![password.as_str()],
            RawCommand::Vacation { password, .. } => vec![password.as_str()],
            RawCommand::ChangePassword { old, new, .. } => vec![old.as_str(), new.as_str()],
            RawCommand::PasswordSet { code, new, .. } => vec![code.as_str(), new.as_str()],
            RawCommand::PasswordReset { .. } => Vec::new(),
            RawCommand::Message { password, .. } => vec![password.as_str()],
            RawCommand::Game { command, .. } => match command {
                GameCommand::Move { password, .. }
                | GameCommand::Resign { password, .. }
                | GameCommand::Chat { password, .. } => vec![password.as_str()],
                GameCommand::Subscribe { password, .. }
                | GameCommand::Unsubscribe { password, .. }
                | GameCommand::Notify { password, .. }
                | GameCommand::Limit { password, .. }
                | GameCommand::Accept { password, .. }
                | GameCommand::Reject { password, .. } => vec![password.as_str()],
                GameCommand::Propose { password, .. }
                | GameCommand::Answer { password, .. }
                | GameCommand::Queue { password, .. } => vec![password.as_str()],
                GameCommand::Challenge {
                    password: Some(password),
                    ..
                } => vec![password.as_str()],
                _ => Vec::new(),
            },
            RawCommand::Help { .. } | RawCommand::List { .. } | RawCommand::Confirm { .. } => {
                Vec::new()
            }
        }
    }

    /// The command as canonical text (keywords lowercase, single spaces) with every password replaced by
    /// `****`, fit for logs and for quoting back in a mail. Should a password also occur elsewhere in the
    /// text (a userid or move that contains it), that occurrence is masked too.
    pub fn redacted(&self) -> String {
        let pws = self.passwords();
        let mask = mask_for(&pws);
        let m = mask.as_str();
        let words: Vec<String> = match self {
            RawCommand::Help { subject } => {
                let mut w = vec!["help".to_string()];
                w.extend(subject.iter().cloned());
                w
            }
            RawCommand::Signup {
                userid, addresses, ..
            } => {
                let mut w = vec!["signup".into(), userid.clone(), m.into()];
                w.extend(addresses.iter().cloned());
                w
            }
            RawCommand::ChangePassword { userid, .. } => {
                vec![
                    "change".into(),
                    "password".into(),
                    userid.clone(),
                    m.into(),
                    m.into(),
                ]
            }
            RawCommand::ChangeAddress {
                userid, addresses, ..
            } => {
                let mut w = vec!["change".into(), "address".into(), userid.clone(), m.into()];
                w.extend(addresses.iter().cloned());
                w
            }
            RawCommand::Signoff { userid, .. } => vec!["signoff".into(), userid.clone(), m.into()],
            RawCommand::Message { userid, to, .. } => {
                let mut w = vec!["message".into(), userid.clone(), m.into()];
                w.extend(to.iter().cloned());
                w
            }
            RawCommand::PasswordReset { userid } => {
                vec!["password".into(), "reset".into(), userid.clone()]
            }
            RawCommand::PasswordSet { userid, .. } => vec![
                "password".into(),
                "set".into(),
                userid.clone(),
                m.into(),
                m.into(),
            ],
            RawCommand::List { games } => {
                let mut w = vec!["list".to_string()];
                w.extend(games.iter().cloned());
                w
            }
            RawCommand::Confirm { userid, code } => {
                vec!["confirm".into(), userid.clone(), code.clone()]
            }
            RawCommand::Vacation { userid, days, .. } => {
                let mut w = vec!["vacation".into(), userid.clone(), m.into()];
                match days {
                    Some((from, to)) => w.extend([from.to_string(), to.to_string()]),
                    None => w.push("off".into()),
                }
                w
            }
            RawCommand::Game { game, command } => {
                let mut w = vec![game.clone()];
                match command {
                    GameCommand::Help => w.push("help".into()),
                    GameCommand::Challenge {
                        options,
                        server_options,
                        userids,
                        password,
                    } => {
                        w.push("challenge".into());
                        w.extend(options.iter().map(|o| o.to_string()));
                        w.extend(
                            server_options.iter().map(|(n, v)| {
                                Token::ServerOption(n.clone(), v.clone()).to_string()
                            }),
                        );
                        if password.is_some() {
                            w.push(format!("--password={MASK}"));
                        }
                        w.extend(userids.iter().cloned());
                    }
                    GameCommand::Move {
                        board,
                        userid,
                        mv,
                        guard,
                        ..
                    } => {
                        let mv = match guard {
                            Some(n) => format!("{mv}#{n}"),
                            None => mv.clone(),
                        };
                        w.extend([
                            "move".into(),
                            board.to_string(),
                            userid.clone(),
                            m.into(),
                            mv,
                        ]);
                    }
                    GameCommand::Resign { board, userid, .. } => {
                        w.extend(["resign".into(), board.to_string(), userid.clone(), m.into()]);
                    }
                    GameCommand::Show { boards } => {
                        w.push("show".into());
                        w.extend(boards.iter().map(|(b, n)| match n {
                            Some(n) => format!("{b}#{n}"),
                            None => b.to_string(),
                        }));
                    }
                    GameCommand::History { board, page } => {
                        w.push("history".into());
                        w.extend(board.map(|b| b.to_string()));
                        if let Some(p) = page {
                            w.extend(["page".into(), p.to_string()]);
                        }
                    }
                    GameCommand::Games { userids, filter } => {
                        w.push("games".into());
                        w.extend(userids.iter().cloned());
                        w.push(filter.as_str().to_string());
                    }
                    GameCommand::Preview { board, moves } => {
                        w.extend(["preview".into(), board.to_string()]);
                        w.extend(moves.iter().cloned());
                    }
                    GameCommand::Chat { board, userid, .. } => {
                        w.extend(["chat".into(), board.to_string(), userid.clone(), m.into()]);
                    }
                    GameCommand::Ratings => w.push("ratings".into()),
                    GameCommand::Standings => w.push("standings".into()),
                    GameCommand::Subscribe { board, userid, .. }
                    | GameCommand::Unsubscribe { board, userid, .. } => {
                        let word = if matches!(command, GameCommand::Subscribe { .. }) {
                            "subscribe"
                        } else {
                            "unsubscribe"
                        };
                        w.extend([word.into(), board.to_string(), userid.clone(), m.into()]);
                    }
                    GameCommand::Notify {
                        userid, setting, ..
                    } => {
                        w.extend(["notify".into(), userid.clone(), m.into()]);
                        match setting {
                            NotifySetting::On => {}
                            NotifySetting::Off => w.push("off".into()),
                            NotifySetting::Boards(b) => w.extend(b.iter().map(u32::to_string)),
                        }
                    }
                    GameCommand::Limit {
                        userid, setting, ..
                    } => {
                        w.extend(["limit".into(), userid.clone(), m.into()]);
                        match setting {
                            None => {}
                            Some(GameLimit::At(n)) => w.push(n.to_string()),
                            Some(GameLimit::Off) => w.push("off".into()),
                        }
                    }
                    GameCommand::Accept {
                        userid, userids, ..
                    }
                    | GameCommand::Reject {
                        userid, userids, ..
                    } => {
                        let word = if matches!(command, GameCommand::Accept { .. }) {
                            "accept"
                        } else {
                            "reject"
                        };
                        w.extend([word.into(), userid.clone(), m.into()]);
                        w.extend(userids.iter().cloned());
                    }
                    GameCommand::Propose {
                        board,
                        userid,
                        kind,
                        guard,
                        ..
                    } => {
                        w.extend(["move".into(), board.to_string(), userid.clone(), m.into()]);
                        w.push("propose".into());
                        w.push(with_guard(kind.as_str(), *guard));
                    }
                    GameCommand::Answer {
                        board,
                        userid,
                        accept,
                        guard,
                        ..
                    } => {
                        w.extend(["move".into(), board.to_string(), userid.clone(), m.into()]);
                        let word = if *accept { "accept" } else { "reject" };
                        w.push(with_guard(word, *guard));
                    }
                    GameCommand::Queue {
                        board,
                        userid,
                        mv,
                        guard,
                        ..
                    } => {
                        w.extend(["queue".into(), board.to_string(), userid.clone(), m.into()]);
                        w.push(with_guard(mv, *guard));
                    }
                }
                w
            }
        };
        mask_secrets(&words.join(" "), &pws)
    }
}

/// `text#N`, or `text` without a guard.
fn with_guard(text: &str, guard: Option<u32>) -> String {
    match guard {
        Some(n) => format!("{text}#{n}"),
        None => text.to_string(),
    }
}

/// What is wrong with a command line. The text says what was wrong and how to write it right; it never
/// contains a password from the line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// The line has no words at all.
    #[error(
        "the command is empty: write one of these commands:\n{}",
        command_list()
    )]
    Empty,
    /// The first words are not a command we know.
    #[error("{what}: write one of these commands:\n{}", command_list())]
    Unknown {
        /// What was not understood (passwords masked).
        what: String,
    },
    /// A known command written wrongly.
    #[error("{problem}\nusage: {usage}")]
    Usage {
        /// What is wrong (passwords masked).
        problem: String,
        /// How the command is written.
        usage: String,
    },
}

/// Every command, one per line, with its usage: the text an unknown command is answered with.
pub fn command_list() -> String {
    let mut s = String::new();
    for u in [
        usage_server("help"),
        usage_server("signup"),
        usage_server("change password"),
        usage_server("change address"),
        usage_server("signoff"),
        usage_server("message"),
        usage_server("password reset"),
        usage_server("password set"),
        usage_server("confirm"),
        usage_server("list"),
        usage_server("vacation"),
    ] {
        s.push_str("  ");
        s.push_str(u);
        s.push('\n');
    }
    for w in [
        "help",
        "challenge",
        "move",
        "resign",
        "show",
        "history",
        "games",
        "preview",
        "queue",
        "chat",
        "ratings",
        "standings",
        "subscribe",
        "unsubscribe",
        "notify",
        "limit",
        "accept",
        "reject",
    ] {
        s.push_str("  ");
        s.push_str(&usage_game("<game>", w));
        s.push('\n');
    }
    s.push_str("where <game> is one of the games the server hosts (write 'list' to see them).");
    s
}

fn usage_server(cmd: &str) -> &'static str {
    match cmd {
        "help" => "help [<subject>...]",
        "signup" => "signup <userid> <password> [<address>...]",
        "change password" => "change password <userid> <old password> <new password>",
        "change address" => "change address <userid> <password> [<address>...]",
        "change" => {
            "change password <userid> <old password> <new password>\n   or: change address <userid> <password> [<address>...]"
        }
        "signoff" => "signoff <userid> <password>",
        "message" => "message <userid> <password> <to userid>...   (the mail body is the message)",
        "password reset" => "password reset <userid>   (a one-time code goes to your address)",
        "password set" => {
            "password set <userid> <code> <new password>   (the code of the reset mail)"
        }
        "password" => {
            "password reset <userid>   (a one-time code goes to your address)\n   or: password set <userid> <code> <new password>"
        }
        "confirm" => "confirm <userid> <code>   (from the address being confirmed)",
        "vacation" => {
            "vacation <userid> <password> <first day> <last day>   (days as YYYY-MM-DD, UTC)\n   or: vacation <userid> <password> off"
        }
        _ => "list [<game>...]",
    }
}

fn usage_game(game: &str, word: &str) -> String {
    let rest = match word {
        "help" => "help",
        "challenge" => "challenge [-option[=value]...] <userid1> <userid2> [<userid3>]",
        "move" => {
            "move <board> <userid> <password> <move>[#N]\n   or: move <board> <userid> <password> propose undo|draw\n   or: move <board> <userid> <password> accept|reject"
        }
        "queue" => "queue <board> <userid> <password> <move>[#N]   (played when your turn comes)",
        "resign" => "resign <board> <userid> <password>",
        "show" => "show <board>[#N]...",
        "history" => "history [<board> | page <n>]",
        "games" => "games <userid>... [active|all|finished|next]   (next: where it is their turn)",
        "preview" => "preview <board> <move>...",
        "chat" => "chat <board> <userid> <password>   (the mail body is the message)",
        "ratings" => "ratings",
        "standings" => "standings",
        "subscribe" => "subscribe <board> <userid> <password>   (get every board mail of a game)",
        "unsubscribe" => "unsubscribe <board> <userid> <password>",
        "notify" => "notify <userid> <password> [on|off|<board>...]   (mail me about new games)",
        "limit" => "limit <userid> <password> [<N>|off]   (at most N active games by challenge)",
        "accept" => {
            "accept <userid> <password> [<userid>...]   (challenges only from these; none: from anyone)"
        }
        "reject" => {
            "reject <userid> <password> [<userid>...]   (no challenges from these; none: clear)"
        }
        _ => {
            "help|challenge|move|resign|show|history|games|preview|chat|queue|ratings|standings|subscribe|notify|limit|accept|reject ..."
        }
    };
    format!("{game} {rest}")
}

/// How a command is written, for `help <command>`: `help signup`, `help change password`, `help limit
/// move` (a game's command, after any game's name) or `help move` (shown with `<game>`). `None` when
/// the words name no command.
pub fn command_usage(subject: &[String]) -> Option<String> {
    let words: Vec<String> = subject.iter().map(|w| w.to_lowercase()).collect();
    let first = words.first()?.as_str();
    let second = words.get(1).map(String::as_str);
    if first == "list" {
        return Some("list".into());
    }
    if first == "password" {
        return Some(
            match second {
                Some("reset") => usage_server("password reset"),
                Some("set") => usage_server("password set"),
                _ => usage_server("password"),
            }
            .into(),
        );
    }
    if first == "change" {
        return Some(
            match second {
                Some("password") => usage_server("change password"),
                Some("address") => usage_server("change address"),
                _ => usage_server("change"),
            }
            .into(),
        );
    }
    if SERVER_KEYWORDS.contains(&first) && first != "add" {
        return Some(usage_server(first).into());
    }
    match second {
        Some(w) if GAME_COMMAND_WORDS.contains(&w) => Some(usage_game(&subject[0], w)),
        None if GAME_COMMAND_WORDS.contains(&first) => Some(usage_game("<game>", first)),
        _ => None,
    }
}

/// The command (server keyword, or game command word) nearest to a mistyped one, if any is one or two
/// letters off.
pub fn nearest_command(word: &str) -> Option<&'static str> {
    let word = word.to_lowercase();
    let all: Vec<&'static str> = SERVER_KEYWORDS
        .iter()
        .chain(GAME_COMMAND_WORDS)
        .copied()
        .collect();
    closest(&word, &all)
}

/// Reads one command line. The line is checked for form only (see the module documentation).
pub fn parse(line: &str) -> Result<RawCommand, CommandError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let secrets: Vec<&str> = password_positions(&words)
        .into_iter()
        .map(|i| secret_of(words[i]))
        .collect();
    let p = Parser {
        words: &words,
        secrets: &secrets,
    };
    let cmd = p.parse()?;
    // Our own mails show commands with `<password>` in place of the password. A line that still holds
    // the placeholder was copied back unchanged (often by an autoresponder quoting our answer): it is
    // refused here, before any password check, so that an echo costs no argon2 work.
    if cmd.passwords().iter().any(|pw| is_placeholder(pw)) {
        return Err(CommandError::Usage {
            problem: "the command still holds the placeholder `<password>`: write your own \
                      password in its place"
                .into(),
            usage: mask_secrets(&words.join(" "), &secrets),
        });
    }
    Ok(cmd)
}

/// True for a word written as a placeholder, like `<password>` or `<yourpassword>`, never a real one.
pub fn is_placeholder(word: &str) -> bool {
    word.len() > 2 && word.starts_with('<') && word.ends_with('>')
}

struct Parser<'a> {
    words: &'a [&'a str],
    secrets: &'a [&'a str],
}

impl Parser<'_> {
    /// A word of the line as it may be quoted in an error: any password in it masked.
    fn q(&self, word: &str) -> String {
        mask_secrets(word, self.secrets)
    }

    fn usage_err(&self, problem: String, usage: String) -> CommandError {
        CommandError::Usage { problem, usage }
    }

    fn parse(&self) -> Result<RawCommand, CommandError> {
        let Some(first) = self.words.first() else {
            return Err(CommandError::Empty);
        };
        let first = first.to_lowercase();
        let args = &self.words[1..];
        match first.as_str() {
            "help" => Ok(RawCommand::Help {
                subject: args.iter().map(|s| s.to_string()).collect(),
            }),
            "signup" | "add" => self.signup(&first, args),
            "admin" => Err(CommandError::Unknown {
                what: "'admin' is the server admin's, at the shell (`pbem admin ...`); it is not \
                       taken by mail"
                    .to_string(),
            }),
            "change" => self.change(args),
            "password" => self.password(args),
            "message" => {
                let usage = usage_server("message").to_string();
                self.min_args(
                    "message",
                    args,
                    &["your userid", "your password", "whom it is for"],
                    &usage,
                )?;
                if args.len() > 2 + MAX_GAMES_USERIDS {
                    return Err(self.usage_err(
                        format!("'message' goes to at most {MAX_GAMES_USERIDS} players at once"),
                        usage,
                    ));
                }
                Ok(RawCommand::Message {
                    userid: self.userid(args[0], &usage)?,
                    password: args[1].to_string(),
                    to: args[2..]
                        .iter()
                        .map(|u| self.userid(u, &usage))
                        .collect::<Result<_, _>>()?,
                })
            }
            "confirm" => {
                let usage = usage_server("confirm").to_string();
                self.exact_args(
                    "confirm",
                    args,
                    &["your userid", "the code of the confirmation mail"],
                    &usage,
                )?;
                Ok(RawCommand::Confirm {
                    userid: self.userid(args[0], &usage)?,
                    code: args[1].to_string(),
                })
            }
            "signoff" => {
                let usage = usage_server("signoff").to_string();
                self.exact_args("signoff", args, &["your userid", "your password"], &usage)?;
                Ok(RawCommand::Signoff {
                    userid: self.userid(args[0], &usage)?,
                    password: args[1].to_string(),
                })
            }
            "vacation" => self.vacation(args),
            "list" => {
                if args.len() > MAX_GAMES_USERIDS {
                    return Err(self.usage_err(
                        format!("'list' takes at most {MAX_GAMES_USERIDS} game names"),
                        usage_server("list").to_string(),
                    ));
                }
                Ok(RawCommand::List {
                    games: args.iter().map(|w| w.to_lowercase()).collect(),
                })
            }
            _ => self.game(first, args),
        }
    }

    /// Checks that exactly `names.len()` words follow the command.
    fn exact_args(
        &self,
        cmd: &str,
        args: &[&str],
        names: &[&str],
        usage: &str,
    ) -> Result<(), CommandError> {
        self.min_args(cmd, args, names, usage)?;
        if args.len() > names.len() {
            return Err(self.usage_err(
                format!(
                    "'{}' takes {} words after it ({}), but {} were given",
                    self.q(cmd),
                    names.len(),
                    and_list(names),
                    args.len()
                ),
                usage.to_string(),
            ));
        }
        Ok(())
    }

    /// Checks that at least `names.len()` words follow the command.
    fn min_args(
        &self,
        cmd: &str,
        args: &[&str],
        names: &[&str],
        usage: &str,
    ) -> Result<(), CommandError> {
        if args.len() < names.len() {
            let missing = and_list(&names[args.len()..]);
            return Err(self.usage_err(
                format!("'{}' is missing {missing}", self.q(cmd)),
                usage.to_string(),
            ));
        }
        Ok(())
    }

    fn userid(&self, word: &str, usage: &str) -> Result<String, CommandError> {
        if is_userid(word) {
            Ok(word.to_string())
        } else {
            Err(self.usage_err(
                format!(
                    "'{}' is not a userid: a userid is 1 to {MAX_USERID_LEN} letters, digits, '_' or '-'",
                    self.q(word)
                ),
                usage.to_string(),
            ))
        }
    }

    fn board(&self, word: &str, usage: &str) -> Result<u32, CommandError> {
        parse_positive(word).ok_or_else(|| {
            self.usage_err(
                format!(
                    "'{}' is not a board number: write the board's number, such as 101",
                    self.q(word)
                ),
                usage.to_string(),
            )
        })
    }

    fn addresses(&self, words: &[&str], usage: &str) -> Result<Vec<String>, CommandError> {
        words
            .iter()
            .map(|w| {
                let a = w
                    .strip_prefix('<')
                    .and_then(|a| a.strip_suffix('>'))
                    .unwrap_or(w);
                if is_address(a) {
                    Ok(a.to_string())
                } else {
                    Err(self.usage_err(
                        format!(
                            "'{}' is not a mail address: write it as name@example.org",
                            self.q(w)
                        ),
                        usage.to_string(),
                    ))
                }
            })
            .collect()
    }

    fn signup(&self, cmd: &str, args: &[&str]) -> Result<RawCommand, CommandError> {
        let usage = usage_server("signup").to_string();
        self.min_args(cmd, args, &["the userid", "the password"], &usage)?;
        Ok(RawCommand::Signup {
            userid: self.userid(args[0], &usage)?,
            password: args[1].to_string(),
            addresses: self.addresses(&args[2..], &usage)?,
        })
    }

    /// `password reset userid` or `password set userid code new`.
    fn password(&self, args: &[&str]) -> Result<RawCommand, CommandError> {
        match args.first().map(|w| w.to_lowercase()).as_deref() {
            Some("reset") => {
                let usage = usage_server("password reset").to_string();
                self.exact_args("password reset", &args[1..], &["your userid"], &usage)?;
                Ok(RawCommand::PasswordReset {
                    userid: self.userid(args[1], &usage)?,
                })
            }
            Some("set") => {
                let usage = usage_server("password set").to_string();
                self.exact_args(
                    "password set",
                    &args[1..],
                    &[
                        "your userid",
                        "the code of the reset mail",
                        "the new password",
                    ],
                    &usage,
                )?;
                Ok(RawCommand::PasswordSet {
                    userid: self.userid(args[1], &usage)?,
                    code: args[2].to_string(),
                    new: args[3].to_string(),
                })
            }
            _ => Err(self.usage_err(
                "'password' needs 'reset' or 'set' after it (to change a password you know, \
                 use `change password`)"
                    .to_string(),
                usage_server("password").to_string(),
            )),
        }
    }

    fn change(&self, args: &[&str]) -> Result<RawCommand, CommandError> {
        let what = args.first().map(|w| w.to_lowercase());
        match what.as_deref() {
            Some("password") => {
                let usage = usage_server("change password").to_string();
                self.exact_args(
                    "change password",
                    &args[1..],
                    &["your userid", "the old password", "the new password"],
                    &usage,
                )?;
                Ok(RawCommand::ChangePassword {
                    userid: self.userid(args[1], &usage)?,
                    old: args[2].to_string(),
                    new: args[3].to_string(),
                })
            }
            Some("address") => {
                let usage = usage_server("change address").to_string();
                self.min_args(
                    "change address",
                    &args[1..],
                    &["your userid", "your password"],
                    &usage,
                )?;
                Ok(RawCommand::ChangeAddress {
                    userid: self.userid(args[1], &usage)?,
                    password: args[2].to_string(),
                    addresses: self.addresses(&args[3..], &usage)?,
                })
            }
            Some(_) => Err(self.usage_err(
                format!(
                    "'change {}' is not a command: change either your password or your address",
                    self.q(args[0])
                ),
                usage_server("change").to_string(),
            )),
            None => Err(self.usage_err(
                "'change' needs 'password' or 'address' after it".to_string(),
                usage_server("change").to_string(),
            )),
        }
    }

    /// `vacation userid password FROM TO` or `vacation userid password off`. Only the form is checked
    /// here (real dates, the last not before the first); the server checks them against the clock.
    fn vacation(&self, args: &[&str]) -> Result<RawCommand, CommandError> {
        let usage = usage_server("vacation").to_string();
        self.min_args(
            "vacation",
            args,
            &[
                "your userid",
                "your password",
                "the first and last day (or off)",
            ],
            &usage,
        )?;
        let userid = self.userid(args[0], &usage)?;
        let password = args[1].to_string();
        let days = match &args[2..] {
            [w] if w.eq_ignore_ascii_case("off") => None,
            [from, to] => {
                let day = |w: &str| {
                    parse_date(w).ok_or_else(|| {
                        self.usage_err(
                            format!(
                                "'{}' is not a day: write days as YYYY-MM-DD, such as 2026-12-24",
                                self.q(w)
                            ),
                            usage.clone(),
                        )
                    })
                };
                let (from, to) = (day(from)?, day(to)?);
                if to < from {
                    return Err(self.usage_err(
                        format!(
                            "the last day {to} is before the first day {from}: write the first day, \
                             then the last"
                        ),
                        usage,
                    ));
                }
                Some((from, to))
            }
            [one] => {
                return Err(self.usage_err(
                    format!(
                        "'vacation' needs two days, the first and the last away (or 'off'), but \
                         only '{}' was given",
                        self.q(one)
                    ),
                    usage,
                ));
            }
            more => {
                return Err(self.usage_err(
                    format!(
                        "'vacation' takes the first and the last day (or 'off') after the password, \
                         but {} words were given",
                        more.len()
                    ),
                    usage,
                ));
            }
        };
        Ok(RawCommand::Vacation {
            userid,
            password,
            days,
        })
    }

    fn game(&self, game: String, args: &[&str]) -> Result<RawCommand, CommandError> {
        let Some(word) = args.first() else {
            // One word: a mistyped server command ("frobnicate", "sigup"), or a game's name alone.
            let hint = closest(&game.to_lowercase(), SERVER_KEYWORDS)
                .map(|c| format!(" (did you mean '{c}'?)"))
                .unwrap_or_default();
            return Err(CommandError::Unknown {
                what: format!(
                    "'{}' is not a command{hint} (a game's name needs a command after it)",
                    self.q(&game)
                ),
            });
        };
        let word = word.to_lowercase();
        let args = &args[1..];
        let g = self.q(&game);
        let usage = usage_game(&g, &word);
        let cmd = format!("{g} {word}");
        let command = match word.as_str() {
            "help" => GameCommand::Help,
            "challenge" => self.challenge(&cmd, args, &usage)?,
            "move" => {
                let (board, userid, mv, guard) = self.board_user_move(&cmd, args, &usage)?;
                self.move_or_proposal(board, userid, args[2].to_string(), mv, guard, &usage)?
            }
            "queue" => {
                let (board, userid, mv, guard) = self.board_user_move(&cmd, args, &usage)?;
                let first = mv.split_whitespace().next().unwrap_or("").to_lowercase();
                if matches!(first.as_str(), "propose" | "accept" | "reject" | "resign") {
                    return Err(self.usage_err(
                        format!(
                            "'{first}' cannot be queued: only a move of the game waits for your turn; \
                             send `{g} move <board> <userid> <password> {first}...` instead"
                        ),
                        usage,
                    ));
                }
                GameCommand::Queue {
                    board,
                    userid,
                    password: args[2].to_string(),
                    mv,
                    guard,
                }
            }
            "resign" | "chat" => {
                self.exact_args(
                    &cmd,
                    args,
                    &["the board number", "your userid", "your password"],
                    &usage,
                )?;
                let board = self.board(args[0], &usage)?;
                let userid = self.userid(args[1], &usage)?;
                let password = args[2].to_string();
                if word == "resign" {
                    GameCommand::Resign {
                        board,
                        userid,
                        password,
                    }
                } else {
                    GameCommand::Chat {
                        board,
                        userid,
                        password,
                    }
                }
            }
            "show" => self.show(&cmd, args, &usage)?,
            "history" => match args {
                [] => GameCommand::History {
                    board: None,
                    page: None,
                },
                [p, n] if p.eq_ignore_ascii_case("page") => {
                    let page = n.parse::<u32>().ok().filter(|&n| n >= 1).ok_or_else(|| {
                        self.usage_err(
                            format!("'{n}' is not a page number: pages count from 1"),
                            usage.clone(),
                        )
                    })?;
                    GameCommand::History {
                        board: None,
                        page: Some(page),
                    }
                }
                [b] => GameCommand::History {
                    board: Some(self.board(b, &usage)?),
                    page: None,
                },
                _ => {
                    return Err(self.usage_err(
                        format!("'{cmd}' takes at most one board number, or `page N`"),
                        usage,
                    ));
                }
            },
            "games" => {
                self.min_args(&cmd, args, &["the userid"], &usage)?;
                let (filter, names) = match args.last().map(|w| w.to_lowercase()).as_deref() {
                    Some("active") => (GamesFilter::Active, &args[..args.len() - 1]),
                    Some("all") => (GamesFilter::All, &args[..args.len() - 1]),
                    Some("finished" | "inactive") => {
                        (GamesFilter::Finished, &args[..args.len() - 1])
                    }
                    Some("next") => (GamesFilter::Next, &args[..args.len() - 1]),
                    _ => (GamesFilter::Active, args),
                };
                if names.is_empty() {
                    return Err(self.usage_err(format!("'{cmd}' needs a userid"), usage));
                }
                if names.len() > MAX_GAMES_USERIDS {
                    return Err(self.usage_err(
                        format!("'{cmd}' takes at most {MAX_GAMES_USERIDS} userids"),
                        usage,
                    ));
                }
                let userids = names
                    .iter()
                    .map(|u| self.userid(u, &usage))
                    .collect::<Result<Vec<_>, _>>()?;
                GameCommand::Games { userids, filter }
            }
            "preview" => {
                self.min_args(&cmd, args, &["the board number", "the moves"], &usage)?;
                let board = self.board(args[0], &usage)?;
                GameCommand::Preview {
                    board,
                    moves: join_moves(&args[1..]),
                }
            }
            "ratings" | "standings" => {
                if !args.is_empty() {
                    return Err(self.usage_err(format!("'{cmd}' takes no words after it"), usage));
                }
                if word == "ratings" {
                    GameCommand::Ratings
                } else {
                    GameCommand::Standings
                }
            }
            "subscribe" | "unsubscribe" => self.subscription(&cmd, &word, args, &usage)?,
            "notify" => self.notify(&cmd, args, &usage)?,
            "limit" => self.limit(&cmd, args, &usage)?,
            "accept" | "reject" => self.challenge_list(&cmd, &word, args, &usage)?,
            _ => {
                // "limit mvoe ...": a mistyped game command; "sigup alice ...": a mistyped
                // server command read as a game's name.
                let hint = closest(&word, GAME_COMMAND_WORDS)
                    .map(|c| format!(" (did you mean '{g} {c}'?)"))
                    .or_else(|| {
                        closest(&game.to_lowercase(), SERVER_KEYWORDS)
                            .map(|c| format!(" (did you mean '{c}'?)"))
                    })
                    .unwrap_or_default();
                return Err(CommandError::Unknown {
                    what: format!("'{g} {}' is not a command{hint}", self.q(&word)),
                });
            }
        };
        Ok(RawCommand::Game { game, command })
    }

    fn subscription(
        &self,
        cmd: &str,
        word: &str,
        args: &[&str],
        usage: &str,
    ) -> Result<GameCommand, CommandError> {
        self.exact_args(
            cmd,
            args,
            &["the board number", "your userid", "your password"],
            usage,
        )?;
        let board = self.board(args[0], usage)?;
        let userid = self.userid(args[1], usage)?;
        let password = args[2].to_string();
        Ok(if word == "subscribe" {
            GameCommand::Subscribe {
                board,
                userid,
                password,
            }
        } else {
            GameCommand::Unsubscribe {
                board,
                userid,
                password,
            }
        })
    }

    fn notify(&self, cmd: &str, args: &[&str], usage: &str) -> Result<GameCommand, CommandError> {
        self.min_args(cmd, args, &["your userid", "your password"], usage)?;
        let userid = self.userid(args[0], usage)?;
        let password = args[1].to_string();
        let rest = &args[2..];
        let setting = match rest {
            [] => NotifySetting::On,
            [w] if w.eq_ignore_ascii_case("on") => NotifySetting::On,
            [w] if w.eq_ignore_ascii_case("off") => NotifySetting::Off,
            _ => {
                let mut boards = Vec::new();
                for w in rest {
                    let b = parse_positive(w).ok_or_else(|| {
                        self.usage_err(
                            format!(
                                "'{}' is neither on, off nor a board number: write `on` (or nothing) \
                                 to hear of new games, `off` to stop, or board numbers such as 101 \
                                 to follow those games",
                                self.q(w)
                            ),
                            usage.to_string(),
                        )
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

    fn limit(&self, cmd: &str, args: &[&str], usage: &str) -> Result<GameCommand, CommandError> {
        self.min_args(cmd, args, &["your userid", "your password"], usage)?;
        if args.len() > 3 {
            return Err(self.usage_err(
                format!(
                    "'{cmd}' takes your userid, your password and at most one number (or off), \
                     but {} words were given",
                    args.len()
                ),
                usage.to_string(),
            ));
        }
        let userid = self.userid(args[0], usage)?;
        let setting = match args.get(2) {
            None => None,
            Some(w) if w.eq_ignore_ascii_case("off") || w.eq_ignore_ascii_case("none") => {
                Some(GameLimit::Off)
            }
            Some(w) => match w.parse::<u32>() {
                Ok(n) if w.bytes().all(|b| b.is_ascii_digit()) => Some(GameLimit::At(n)),
                _ => {
                    return Err(self.usage_err(
                        format!(
                            "'{}' is not a number of games: write a number such as 3 (0 takes no \
                             new games), or off to lift the limit",
                            self.q(w)
                        ),
                        usage.to_string(),
                    ));
                }
            },
        };
        Ok(GameCommand::Limit {
            userid,
            password: args[1].to_string(),
            setting,
        })
    }

    fn challenge_list(
        &self,
        cmd: &str,
        word: &str,
        args: &[&str],
        usage: &str,
    ) -> Result<GameCommand, CommandError> {
        self.min_args(cmd, args, &["your userid", "your password"], usage)?;
        let userid = self.userid(args[0], usage)?;
        let password = args[1].to_string();
        let mut userids: Vec<String> = Vec::new();
        for w in &args[2..] {
            let u = self.userid(w, usage)?;
            if !userids.iter().any(|x| x.eq_ignore_ascii_case(&u)) {
                userids.push(u);
            }
        }
        Ok(if word == "accept" {
            GameCommand::Accept {
                userid,
                password,
                userids,
            }
        } else {
            GameCommand::Reject {
                userid,
                password,
                userids,
            }
        })
    }

    /// The words of `move` and `queue`: board, userid, password (left in `args[2]`), then the move with
    /// its `#N` guard.
    fn board_user_move(
        &self,
        cmd: &str,
        args: &[&str],
        usage: &str,
    ) -> Result<(u32, String, String, Option<u32>), CommandError> {
        self.min_args(
            cmd,
            args,
            &[
                "the board number",
                "your userid",
                "your password",
                "the move",
            ],
            usage,
        )?;
        let board = self.board(args[0], usage)?;
        let userid = self.userid(args[1], usage)?;
        let (mv, guard) = self.move_text(&args[3..], usage)?;
        Ok((board, userid, mv, guard))
    }

    /// A `move` command's move: a proposal (`propose undo|draw`), an answer (`accept`, `reject`) or a
    /// move of the game.
    fn move_or_proposal(
        &self,
        board: u32,
        userid: String,
        password: String,
        mv: String,
        guard: Option<u32>,
        usage: &str,
    ) -> Result<GameCommand, CommandError> {
        let lower = mv.to_lowercase();
        let words: Vec<&str> = lower.split_whitespace().collect();
        let kind = match words.as_slice() {
            ["propose", what] => match ProposalKind::from_word(what) {
                Some(kind) => Some(kind),
                None => {
                    return Err(self.usage_err(
                        format!(
                            "'propose {}' is not a proposal: write 'propose undo' or 'propose draw'",
                            self.q(what)
                        ),
                        usage.to_string(),
                    ));
                }
            },
            ["propose", ..] => {
                return Err(self.usage_err(
                    "'propose' takes one word after it: write 'propose undo' or 'propose draw'"
                        .to_string(),
                    usage.to_string(),
                ));
            }
            [word @ ("accept" | "reject"), rest @ ..] => {
                if !rest.is_empty() {
                    return Err(self.usage_err(
                        format!("'{word}' takes nothing after it (it answers the open proposal)"),
                        usage.to_string(),
                    ));
                }
                return Ok(GameCommand::Answer {
                    board,
                    userid,
                    password,
                    accept: *word == "accept",
                    guard,
                });
            }
            _ => None,
        };
        Ok(match kind {
            Some(kind) => GameCommand::Propose {
                board,
                userid,
                password,
                kind,
                guard,
            },
            None => GameCommand::Move {
                board,
                userid,
                password,
                mv,
                guard,
            },
        })
    }

    fn challenge(
        &self,
        cmd: &str,
        args: &[&str],
        usage: &str,
    ) -> Result<GameCommand, CommandError> {
        let mut options = Vec::new();
        let mut server_options = Vec::new();
        let mut userids = Vec::new();
        let mut password = None;
        for w in args {
            match token(w) {
                Token::GameOption(o) => options.push(o),
                Token::ServerOption(n, v) if n.eq_ignore_ascii_case("password") => {
                    if password.is_some() {
                        return Err(self.usage_err(
                            "--password is given twice: give it once".into(),
                            usage.to_string(),
                        ));
                    }
                    password = Some(v.filter(|v| !v.is_empty()).ok_or_else(|| {
                        self.usage_err(
                            "--password needs the challenger's password: write \
                             --password=yourpassword"
                                .into(),
                            usage.to_string(),
                        )
                    })?);
                }
                Token::ServerOption(n, v) => server_options.push((n, v)),
                Token::Word(w) => {
                    if w.starts_with('-') {
                        return Err(self.usage_err(
                            format!(
                                "'{}' is not an option: write options as -name or -name=value",
                                self.q(&w)
                            ),
                            usage.to_string(),
                        ));
                    }
                    userids.push(self.userid(&w, usage)?);
                }
            }
        }
        if userids.is_empty() {
            return Err(self.usage_err(
                format!("'{cmd}' needs the userids of the players, the challenger among them"),
                usage.to_string(),
            ));
        }
        Ok(GameCommand::Challenge {
            options,
            server_options,
            userids,
            password,
        })
    }

    /// The move is the rest of the line; a trailing `#N` (attached or as its own word) is the guard.
    fn move_text(
        &self,
        words: &[&str],
        usage: &str,
    ) -> Result<(String, Option<u32>), CommandError> {
        let joined = words.join(" ");
        let (mv, guard) = match joined.rfind('#') {
            Some(i) => {
                let n = joined[i + 1..].trim();
                match parse_positive(n) {
                    Some(n) => (joined[..i].trim_end().to_string(), Some(n)),
                    None => {
                        return Err(self.usage_err(
                            format!(
                                "'#{}' after the move is not a move number: write #N at the end, such as 3-7,4#12",
                                self.q(n)
                            ),
                            usage.to_string(),
                        ));
                    }
                }
            }
            None => (joined, None),
        };
        if mv.is_empty() {
            return Err(self.usage_err(
                "the move is missing before the '#'".to_string(),
                usage.to_string(),
            ));
        }
        Ok((mv, guard))
    }

    fn show(&self, cmd: &str, args: &[&str], usage: &str) -> Result<GameCommand, CommandError> {
        let mut boards: Vec<(u32, Option<u32>)> = Vec::new();
        for w in args {
            let bad_n = |n: &str| {
                self.usage_err(
                    format!(
                        "'#{}' is not a move number: write <board>#N, such as 101#5",
                        self.q(n)
                    ),
                    usage.to_string(),
                )
            };
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
            boards.push((self.board(b, usage)?, n));
        }
        if boards.is_empty() {
            return Err(self.usage_err(
                format!("'{cmd}' needs at least one board number"),
                usage.to_string(),
            ));
        }
        Ok(GameCommand::Show { boards })
    }
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

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// A day written `YYYY-MM-DD` (exactly: four, two and two digits) that exists in the calendar.
pub fn parse_date(s: &str) -> Option<chrono::NaiveDate> {
    let b = s.as_bytes();
    let shape = b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
    if !shape {
        return None;
    }
    let year = s[..4].parse().ok()?;
    let month = s[5..7].parse().ok()?;
    let day = s[8..].parse().ok()?;
    chrono::NaiveDate::from_ymd_opt(year, month, day)
}

fn parse_positive(s: &str) -> Option<u32> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse::<u32>().ok().filter(|&n| n > 0)
}

/// True for a well-formed userid: 1 to 20 ASCII letters, digits, `_` or `-`, not starting with `-`
/// (which would read as an option).
pub fn is_userid(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= MAX_USERID_LEN
        && !s.starts_with('-')
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// True for what can be a mail address in a command: `local@domain`, both parts non-empty, printable,
/// without the characters that would let it smuggle more into a header.
pub fn is_address(s: &str) -> bool {
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    !local.is_empty()
        && !domain.is_empty()
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && s.len() <= 254
        && s.chars().all(|c| {
            !c.is_control() && !c.is_whitespace() && !matches!(c, '<' | '>' | ',' | ';' | '"')
        })
}

/// The mask for a set of secrets: `****`, unless a secret contains `*`; then four of a character that
/// occurs in no secret, so that masking can never leave or create an occurrence of a secret.
fn mask_for(secrets: &[&str]) -> String {
    let c = ['*', '#', 'x', '?', '~', '_', '.', '\u{2022}']
        .into_iter()
        .chain('A'..='Z')
        .chain('a'..='z')
        .find(|c| secrets.iter().all(|s| !s.contains(*c)))
        .unwrap_or('\u{2588}');
    std::iter::repeat_n(c, 4).collect()
}

/// Replaces every occurrence of each (non-empty) secret in `text` with a mask (see [`MASK`]; another
/// character when a secret contains `*`).
pub fn mask_secrets(text: &str, secrets: &[&str]) -> String {
    let secrets: Vec<&str> = secrets.iter().copied().filter(|s| !s.is_empty()).collect();
    if secrets.is_empty() {
        return text.to_string();
    }
    let mask = mask_for(&secrets);
    let mut out = text.to_string();
    for s in &secrets {
        if out.contains(s) {
            out = out.replace(s, &mask);
        }
    }
    out
}

/// The 0-based positions of the password words in a line split at whitespace, by the shape of the
/// command its first words name. Misspelt keywords (one or two letters off, such as `mvoe`) are read as
/// the command they resemble, so that a bad command quoted back still hides its password.
fn password_positions(words: &[&str]) -> Vec<usize> {
    let Some(first) = words.first() else {
        return Vec::new();
    };
    // A reply's "New Limit Board 101 alice" reads like `<game> limit userid PW`, but holds none.
    if board_subject_words(words) {
        return Vec::new();
    }
    let first = first.to_lowercase();
    let pos: &[usize] = match closest(
        &first,
        &[
            "signup", "add", "change", "signoff", "vacation", "password", "message",
        ],
    ) {
        Some("signup" | "add" | "signoff" | "vacation" | "message") => &[2],
        // `password set userid CODE NEW`; a `password reset` line holds no secret, but an
        // unreadable `password` line may.
        Some("password") => match words.get(1).map(|w| w.to_lowercase()).as_deref() {
            Some("reset") => &[],
            _ => &[3, 4],
        },
        Some("change") => match words.get(1).map(|w| w.to_lowercase()).as_deref() {
            Some(w) if closest(w, &["password"]).is_some() => &[3, 4],
            Some(w) if closest(w, &["address"]).is_some() => &[3],
            // An unreadable `change` line: hide everything that could be a password.
            _ => &[2, 3, 4],
        },
        _ => {
            let word = words.get(1).map(|w| w.to_lowercase()).unwrap_or_default();
            match closest(
                &word,
                &[
                    "move",
                    "resign",
                    "chat",
                    "queue",
                    "subscribe",
                    "unsubscribe",
                    "notify",
                    "help",
                    "challenge",
                    "show",
                    "history",
                    "games",
                    "preview",
                    "standings",
                    "ratings",
                    "limit",
                    "accept",
                    "reject",
                ],
            ) {
                Some("move" | "resign" | "chat" | "queue" | "subscribe" | "unsubscribe") => &[4],
                Some("notify" | "limit" | "accept" | "reject") => &[3],
                Some(_) => &[],
                // Unknown: if it has the shape `<game> <word> <board> <userid> <password>`, hide word 4.
                None if words.len() > 4 && parse_positive(words[2]).is_some() => &[4],
                None => &[],
            }
        }
    };
    let mut pos: Vec<usize> = pos.iter().copied().filter(|&i| i < words.len()).collect();
    // `--password=PW` of a challenge, wherever it stands.
    for (i, w) in words.iter().enumerate() {
        if option_password(w).is_some() && !pos.contains(&i) {
            pos.push(i);
        }
    }
    pos
}

/// The password of a `--password=PW` word (any case), if the word is one.
fn option_password(word: &str) -> Option<&str> {
    const PREFIX: &str = "--password=";
    let head = word.get(..PREFIX.len())?;
    head.eq_ignore_ascii_case(PREFIX)
        .then(|| &word[PREFIX.len()..])
        .filter(|pw| !pw.is_empty())
}

/// The secret a password word holds: the word, or the value of `--password=PW`.
fn secret_of(word: &str) -> &str {
    option_password(word).unwrap_or(word)
}

/// The candidate `word` is (ignoring case), or is at most one edit (two for long words) away from.
fn closest<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    if let Some(c) = candidates.iter().find(|c| **c == word) {
        return Some(c);
    }
    let len = word.chars().count();
    if len < 3 {
        return None;
    }
    // The distance is at least the difference in length: most words are ruled out without it.
    candidates
        .iter()
        .copied()
        .filter_map(|c| {
            let limit = if c.len() >= 6 { 2 } else { 1 };
            if len.abs_diff(c.chars().count()) > limit {
                return None;
            }
            let d = edit_distance(word, c);
            (d <= limit).then_some((d, c))
        })
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Damerau-Levenshtein distance (optimal string alignment), on chars; short words only (the first 64
/// chars of each count).
fn edit_distance(a: &str, b: &str) -> usize {
    const MAX: usize = 64;
    // Every mail line's first words go through here, so it works in three rows on the stack.
    let mut bc = ['\0'; MAX];
    let mut bn = 0;
    for (slot, c) in bc.iter_mut().zip(b.chars()) {
        *slot = c;
        bn += 1;
    }
    let b = &bc[..bn];
    let mut two_up = [0usize; MAX + 1];
    let mut up: [usize; MAX + 1] = std::array::from_fn(|j| j);
    let mut row = [0usize; MAX + 1];
    let mut before = '\0';
    for (i, ca) in a.chars().take(MAX).enumerate() {
        row[0] = i + 1;
        for j in 1..=b.len() {
            let cost = usize::from(ca != b[j - 1]);
            let mut v = (up[j] + 1).min(row[j - 1] + 1).min(up[j - 1] + cost);
            if i > 0 && j > 1 && ca == b[j - 2] && before == b[j - 1] {
                v = v.min(two_up[j - 2] + 1);
            }
            row[j] = v;
        }
        two_up = up;
        up = row;
        before = ca;
    }
    up[b.len()]
}

/// The password words of a line, found by position as [`redact_line`] finds them, whether or not the
/// line parses. Used to mask them wherever else the mail repeats them.
pub fn line_passwords(line: &str) -> Vec<&str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    password_positions(&words)
        .into_iter()
        .map(|i| secret_of(words[i]))
        .collect()
}

/// The line with its password words (found by position, as the command its first words name would
/// have them: `signup` word 3, `move` word 5, …) replaced by `****`, and any other occurrence of those
/// words masked too. Works on lines that do not parse, for quoting a bad command back in an error mail.
/// Words are rejoined with single spaces.
pub fn redact_line(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let pos = password_positions(&words);
    let secrets: Vec<&str> = pos.iter().map(|&i| secret_of(words[i])).collect();
    let mask = mask_for(&secrets);
    let masked: Vec<&str> = words
        .iter()
        .enumerate()
        .map(|(i, w)| if pos.contains(&i) { mask.as_str() } else { *w })
        .collect();
    mask_secrets(&masked.join(" "), &secrets)
}

/// Words of the command language that are never a password worth hiding (ignoring case).
const PLAIN_WORDS: &[&str] = &[
    "password", "address", "propose", "undo", "draw", "resign", "pass", "on", "off", "all",
    "active", "finished", "mult", "multiple", "board", "re:", "fwd:", "new", "error", "nag:",
];

/// True for the Subject of a board mail this server sent, as a reply keeps it: `Limit Board 101 bob`,
/// `New Limit Board 101 alice`, `Nag: Limit Board 101 alice`, `Limit Board 101 Error`: a game's
/// name (any word: the game may be one this server no longer hosts), `Board`, a number, and at most
/// `New` or `Nag:` before them. Such a Subject is never a command, nor a mistyped one with a
/// password to hide.
pub fn is_board_mail_subject(line: &str) -> bool {
    board_subject_words(&line.split_whitespace().collect::<Vec<_>>())
}

/// [`is_board_mail_subject`] on the words of a line.
fn board_subject_words(words: &[&str]) -> bool {
    let start = match words.first().map(|w| w.to_lowercase()).as_deref() {
        Some("new" | "nag:") => 1,
        _ => 0,
    };
    words.len() >= start + 3
        && words[start + 1].eq_ignore_ascii_case("board")
        && words[start + 2].parse::<u32>().is_ok()
        && words[start].chars().all(|c| c.is_alphanumeric())
}

/// True when a line may be a command, however mistyped: its first word is (or is one or two letters
/// off) a server keyword, or a game's name followed by a game command word or a number, or a game
/// command word in a line that also holds a number (`move 101 alice PW 4-1,3` without the game).
/// Wider than [`looks_like_command`], which decides what is run; this decides what is hidden.
pub fn may_be_command(line: &str, games: &[&str]) -> bool {
    if is_board_mail_subject(line) {
        return false;
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(first) = words.first().map(|w| w.to_lowercase()) else {
        return false;
    };
    if closest(&first, SERVER_KEYWORDS).is_some() {
        return true;
    }
    if closest(&first, games).is_some() {
        let second = words.get(1).map(|w| w.to_lowercase()).unwrap_or_default();
        return closest(&second, GAME_COMMAND_WORDS).is_some() || parse_positive(&second).is_some();
    }
    // Four words at least: `move 101 alice PW` is the shortest mistyped command with a password.
    closest(&first, GAME_COMMAND_WORDS).is_some()
        && words.len() >= 4
        && words
            .iter()
            .any(|w| parse_positive(w.trim_end_matches(',')).is_some())
}

/// The words of a line that could be a password: every word of a line that [`may_be_command`], except
/// the words of the command language, game names, numbers and moves (digits with punctuation),
/// options (`-size=8`), mail addresses and `<placeholders>`. A userid is among them: the caller
/// leaves out the registered ones. Hiding all of these, not only the word at the password's place,
/// keeps a password secret when a typo shifts the words (`limit move alice PW 4-1,3`,
/// `signup Dan Smith PW`).
pub fn suspect_words<'a>(line: &'a str, games: &[&str]) -> Vec<&'a str> {
    if !may_be_command(line, games) {
        return Vec::new();
    }
    line.split_whitespace()
        // An option's value, whatever the option's name (`--pasword=PW` is a typo too).
        .map(|w| match w.split_once('=') {
            Some((name, value)) if name.starts_with('-') => value,
            _ => w,
        })
        .filter(|w| !is_plain_word(w, games))
        .collect()
}

fn is_plain_word(word: &str, games: &[&str]) -> bool {
    let lower = word.to_lowercase();
    let bare = lower.trim_matches(|c: char| matches!(c, ',' | '.' | ';' | ':' | '!' | '?'));
    if bare.is_empty()
        || SERVER_KEYWORDS.contains(&bare)
        || GAME_COMMAND_WORDS.contains(&bare)
        || PLAIN_WORDS.contains(&lower.as_str())
        || PLAIN_WORDS.contains(&bare)
        || games.iter().any(|g| g.eq_ignore_ascii_case(bare))
    {
        return true;
    }
    // Numbers, board guards, moves and dates: digits with punctuation, no letters.
    if word.chars().any(|c| c.is_ascii_digit())
        && word
            .chars()
            .all(|c| c.is_ascii_digit() || "-,#.:/()x".contains(c))
    {
        return true;
    }
    // Options (`-manual`; `-name=value` arrive here as the value alone).
    word.starts_with('-') || is_address(word) || is_placeholder(word)
}

/// Replaces each whole-word occurrence of the secrets in `text` with a mask: an occurrence whose
/// neighbours are not letters, digits or `_`. For words that are only suspected of being passwords,
/// where masking inside longer words would spoil ordinary text.
pub fn mask_words(text: &str, secrets: &[&str]) -> String {
    let secrets: Vec<&str> = secrets.iter().copied().filter(|s| !s.is_empty()).collect();
    if secrets.is_empty() {
        return text.to_string();
    }
    let mask = mask_for(&secrets);
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = text.to_string();
    for s in &secrets {
        let mut result = String::with_capacity(out.len());
        let mut rest = out.as_str();
        let mut prev: Option<char> = None;
        while let Some(i) = rest.find(s) {
            let before = rest[..i].chars().next_back().or(prev);
            let after = rest[i + s.len()..].chars().next();
            let starts = !before.is_some_and(is_word) || !s.starts_with(is_word);
            let ends = !after.is_some_and(is_word) || !s.ends_with(is_word);
            result.push_str(&rest[..i]);
            if starts && ends {
                result.push_str(&mask);
            } else {
                result.push_str(s);
            }
            prev = s.chars().next_back();
            rest = &rest[i + s.len()..];
        }
        result.push_str(rest);
        out = result;
    }
    out
}

/// True when the line reads as a command rather than prose: its first word is a server keyword (for
/// `change`, followed by `password` or `address`), or one of `games` (ignoring case) followed by a
/// game command word. Tells a Subject `Re: Limit Board 101 Blue` (a reply) from `limit show 101`.
pub fn looks_like_command(line: &str, games: &[&str]) -> bool {
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else {
        return false;
    };
    let first = first.to_lowercase();
    let second = words.next().map(|w| w.to_lowercase());
    if first == "change" {
        return matches!(second.as_deref(), Some("password" | "address"));
    }
    if first == "password" {
        return matches!(second.as_deref(), Some("reset" | "set"));
    }
    // The admin's overrides are refused by mail, with a word on where they are taken.
    if first == "admin" {
        return second.is_some();
    }
    if SERVER_KEYWORDS.contains(&first.as_str()) {
        return true;
    }
    games.iter().any(|g| g.eq_ignore_ascii_case(&first))
        && second.is_some_and(|w| GAME_COMMAND_WORDS.contains(&w.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suspect_words_cover_shifted_passwords_and_spare_the_language() {
        let g = &["limit"];
        let cases: &[(&str, &[&str])] = &[
            ("limit move alice PW 4-1,3", &["alice", "PW"]),
            ("limit move 101 PW 4-1,3", &["PW"]),
            ("move 101 alice PW 4-1,3", &["alice", "PW"]),
            ("limit show 101 alice PW", &["alice", "PW"]),
            ("limit queue alice PW 4-1,3", &["alice", "PW"]),
            (
                "signup Dan Smith Sup3rSecret dan@d.example",
                &["Dan", "Smith", "Sup3rSecret"],
            ),
            (
                "limit challenge -size=8 --password=PW alice bob",
                &["PW", "alice", "bob"],
            ),
            (
                "limit challenge --pasword=PW alice bob",
                &["PW", "alice", "bob"],
            ),
            // Misspelt keywords are hidden too: safer than guessing which word is the password.
            (
                "lmiit mvoe 101 alice PW 3-7,4",
                &["lmiit", "mvoe", "alice", "PW"],
            ),
            ("Move along, nothing to see here", &[]),
            ("Limit is a fine game", &[]),
        ];
        for (line, want) in cases {
            let mut got = suspect_words(line, g);
            got.sort();
            let mut want = want.to_vec();
            want.sort();
            assert_eq!(got, want, "{line}");
        }
    }

    #[test]
    fn mask_words_masks_whole_words_only() {
        assert_eq!(
            mask_words("PW, PWx xPW (PW) PW", &["PW"]),
            "****, PWx xPW (****) ****"
        );
        assert_eq!(mask_words("a-PW-b", &["PW"]), "a-****-b");
        assert_eq!(mask_words("Tr0ub4dor&3!", &["Tr0ub4dor&3"]), "****!");
        assert_eq!(mask_words("nothing", &[""]), "nothing");
    }

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    fn game(cmd: GameCommand) -> RawCommand {
        RawCommand::Game {
            game: "limit".into(),
            command: cmd,
        }
    }

    #[test]
    fn tokenize_words_and_options() {
        let t =
            tokenize("  limit challenge -size=8 -manual --nagtime=7 --quiet alice\tbob - -- -x! ");
        assert_eq!(
            t,
            vec![
                Token::Word("limit".into()),
                Token::Word("challenge".into()),
                Token::GameOption(GameOption::with_value("size", "8")),
                Token::GameOption(GameOption::flag("manual")),
                Token::ServerOption("nagtime".into(), Some("7".into())),
                Token::ServerOption("quiet".into(), None),
                Token::Word("alice".into()),
                Token::Word("bob".into()),
                Token::Word("-".into()),
                Token::Word("--".into()),
                Token::Word("-x!".into()),
            ]
        );
        assert_eq!(tokenize(""), vec![]);
        assert_eq!(tokenize("3-7,4"), vec![Token::Word("3-7,4".into())]);
        let back: Vec<String> = t.iter().map(|t| t.to_string()).collect();
        assert_eq!(back[2], "-size=8");
        assert_eq!(back[4], "--nagtime=7");
    }

    #[test]
    fn parse_good_commands() {
        let cases: Vec<(&str, RawCommand)> = vec![
            ("help", RawCommand::Help { subject: vec![] }),
            (
                "HELP limit move",
                RawCommand::Help {
                    subject: s(&["limit", "move"]),
                },
            ),
            (
                "signup Alice secret",
                RawCommand::Signup {
                    userid: "Alice".into(),
                    password: "secret".into(),
                    addresses: vec![],
                },
            ),
            (
                "add bob Pw9 bob@example.org <bob@work.example.com>",
                RawCommand::Signup {
                    userid: "bob".into(),
                    password: "Pw9".into(),
                    addresses: s(&["bob@example.org", "bob@work.example.com"]),
                },
            ),
            (
                "Change Password alice old New",
                RawCommand::ChangePassword {
                    userid: "alice".into(),
                    old: "old".into(),
                    new: "New".into(),
                },
            ),
            (
                "change address alice secret a@b.example",
                RawCommand::ChangeAddress {
                    userid: "alice".into(),
                    password: "secret".into(),
                    addresses: s(&["a@b.example"]),
                },
            ),
            (
                "signoff alice secret",
                RawCommand::Signoff {
                    userid: "alice".into(),
                    password: "secret".into(),
                },
            ),
            ("LIST", RawCommand::List { games: Vec::new() }),
            (
                "list Limit",
                RawCommand::List {
                    games: vec!["limit".into()],
                },
            ),
            ("Limit help", game(GameCommand::Help)),
            (
                "limit challenge -size=6 -manual --nagtime=7 alice bob",
                game(GameCommand::Challenge {
                    options: vec![
                        GameOption::with_value("size", "6"),
                        GameOption::flag("manual"),
                    ],
                    server_options: vec![("nagtime".into(), Some("7".into()))],
                    userids: s(&["alice", "bob"]),
                    password: None,
                }),
            ),
            (
                "limit challenge alice bob Carol",
                game(GameCommand::Challenge {
                    options: vec![],
                    server_options: vec![],
                    userids: s(&["alice", "bob", "Carol"]),
                    password: None,
                }),
            ),
            (
                "limit move 101 alice secret 3-7,4",
                game(GameCommand::Move {
                    board: 101,
                    userid: "alice".into(),
                    password: "secret".into(),
                    mv: "3-7,4".into(),
                    guard: None,
                }),
            ),
            (
                "LIMIT MOVE 101 alice SeCrEt 3-7, 4",
                game(GameCommand::Move {
                    board: 101,
                    userid: "alice".into(),
                    password: "SeCrEt".into(),
                    mv: "3-7, 4".into(),
                    guard: None,
                }),
            ),
            (
                "limit move 101 alice secret 3-7,4#12",
                game(GameCommand::Move {
                    board: 101,
                    userid: "alice".into(),
                    password: "secret".into(),
                    mv: "3-7,4".into(),
                    guard: Some(12),
                }),
            ),
            (
                "limit move 101 alice secret 3-7, 4 #12",
                game(GameCommand::Move {
                    board: 101,
                    userid: "alice".into(),
                    password: "secret".into(),
                    mv: "3-7, 4".into(),
                    guard: Some(12),
                }),
            ),
            (
                "limit move 102 bob pw r3",
                game(GameCommand::Move {
                    board: 102,
                    userid: "bob".into(),
                    password: "pw".into(),
                    mv: "r3".into(),
                    guard: None,
                }),
            ),
            (
                "limit move 101 alice secret resign",
                game(GameCommand::Move {
                    board: 101,
                    userid: "alice".into(),
                    password: "secret".into(),
                    mv: "resign".into(),
                    guard: None,
                }),
            ),
            (
                "limit resign 101 bob pw",
                game(GameCommand::Resign {
                    board: 101,
                    userid: "bob".into(),
                    password: "pw".into(),
                }),
            ),
            (
                "limit show 101 102#5 103 #7",
                game(GameCommand::Show {
                    boards: vec![(101, None), (102, Some(5)), (103, Some(7))],
                }),
            ),
            (
                "limit history",
                game(GameCommand::History {
                    board: None,
                    page: None,
                }),
            ),
            (
                "limit history page 3",
                game(GameCommand::History {
                    board: None,
                    page: Some(3),
                }),
            ),
            ("limit ratings", game(GameCommand::Ratings)),
            ("LIMIT Standings", game(GameCommand::Standings)),
            (
                "limit history 101",
                game(GameCommand::History {
                    board: Some(101),
                    page: None,
                }),
            ),
            (
                "limit games alice",
                game(GameCommand::Games {
                    userids: vec!["alice".into()],
                    filter: GamesFilter::Active,
                }),
            ),
            (
                "limit games alice ALL",
                game(GameCommand::Games {
                    userids: vec!["alice".into()],
                    filter: GamesFilter::All,
                }),
            ),
            (
                "limit games alice finished",
                game(GameCommand::Games {
                    userids: vec!["alice".into()],
                    filter: GamesFilter::Finished,
                }),
            ),
            (
                "limit games alice bob inactive",
                game(GameCommand::Games {
                    userids: vec!["alice".into(), "bob".into()],
                    filter: GamesFilter::Finished,
                }),
            ),
            (
                "limit games alice next",
                game(GameCommand::Games {
                    userids: vec!["alice".into()],
                    filter: GamesFilter::Next,
                }),
            ),
            (
                "limit preview 101 3-7,4 5-1, 2 9-8 ,6",
                game(GameCommand::Preview {
                    board: 101,
                    moves: s(&["3-7,4", "5-1, 2", "9-8 ,6"]),
                }),
            ),
            (
                "limit chat 101 alice secret",
                game(GameCommand::Chat {
                    board: 101,
                    userid: "alice".into(),
                    password: "secret".into(),
                }),
            ),
            (
                "othergame help",
                RawCommand::Game {
                    game: "othergame".into(),
                    command: GameCommand::Help,
                },
            ),
        ];
        for (line, want) in cases {
            assert_eq!(parse(line).as_ref(), Ok(&want), "line {line:?}");
        }
    }

    /// Each bad line, and words its error must contain (the problem and the usage line).
    #[test]
    fn parse_errors_say_what_and_how() {
        let cases: &[(&str, &[&str])] = &[
            ("", &["empty", "signup <userid> <password>", "<game> move"]),
            ("   ", &["empty"]),
            (
                "hello",
                &[
                    "'hello' is not a command (a game's name needs a command after it)",
                    "<game> move",
                ],
            ),
            (
                "sigup",
                &["'sigup' is not a command (did you mean 'signup'?)"],
            ),
            (
                "limit dance 101",
                &[
                    "'limit dance' is not a command",
                    "signup <userid>",
                    "<game> show",
                ],
            ),
            // `list all` now names a game (issue 16: `list [gametype...]`); the server refuses it.
            (
                "list a b c d e f g h i j k",
                &["at most 10 game names", "usage: list [<game>...]"],
            ),
            (
                "signup alice",
                &["missing the password", "usage: signup <userid> <password>"],
            ),
            (
                "signup al!ce secret",
                &["'al!ce' is not a userid", "1 to 20"],
            ),
            ("signup abcdefghijklmnopqrstu secret", &["is not a userid"]),
            (
                "signup alice secret not-an-address",
                &["'not-an-address' is not a mail address", "usage: signup"],
            ),
            (
                "change",
                &["needs 'password' or 'address'", "or: change address"],
            ),
            ("change name alice x", &["'change name' is not a command"]),
            (
                "change password alice old",
                &["missing the new password", "usage: change password"],
            ),
            (
                "change password alice old new extra",
                &["takes 3 words after it", "but 4 were given"],
            ),
            ("change address alice", &["missing your password"]),
            (
                "signoff alice",
                &["missing your password", "usage: signoff"],
            ),
            (
                "limit move 101 alice secret",
                &[
                    "'limit move' is missing the move",
                    "usage: limit move <board> <userid> <password> <move>[#N]",
                ],
            ),
            (
                "limit move",
                &["missing the board number, your userid, your password and the move"],
            ),
            (
                "limit move abc alice secret 3-7,4",
                &[
                    "'abc' is not a board number",
                    "such as 101",
                    "usage: limit move",
                ],
            ),
            (
                "limit move 0 alice secret 3-7,4",
                &["'0' is not a board number"],
            ),
            (
                "limit move -5 alice secret 3-7,4",
                &["'-5' is not a board number"],
            ),
            (
                "limit move 101 alice secret 3-7,4#x",
                &["'#x' after the move is not a move number", "#12"],
            ),
            (
                "limit move 101 alice secret 3-7,4#0",
                &["'#0' after the move is not a move number"],
            ),
            ("limit move 101 alice secret #5", &["the move is missing"]),
            (
                "limit resign 101 alice",
                &[
                    "missing your password",
                    "usage: limit resign <board> <userid> <password>",
                ],
            ),
            ("limit resign 101 alice secret now", &["takes 3 words"]),
            (
                "limit show",
                &[
                    "needs at least one board",
                    "usage: limit show <board>[#N]...",
                ],
            ),
            ("limit show 101#", &["'#' is not a move number"]),
            ("limit show #5", &["'#5' is not a move number"]),
            ("limit show x", &["'x' is not a board number"]),
            ("limit history 101 102", &["at most one board"]),
            ("limit history page 0", &["not a page number"]),
            ("limit history page two", &["not a page number"]),
            (
                "limit games",
                &[
                    "missing the userid",
                    "usage: limit games <userid>... [active|all|finished|next]",
                ],
            ),
            (
                // With several userids (issue 16) a last word that is no choice is a userid: the
                // server then answers that it is no player.
                "limit games alice b?b",
                &["'b?b' is not a userid"],
            ),
            ("limit games a b c d e f g h i j k", &["at most 10 userids"]),
            (
                "limit preview 101",
                &["missing the moves", "usage: limit preview"],
            ),
            (
                "limit challenge",
                &["needs the userids", "usage: limit challenge"],
            ),
            ("limit challenge -size=8", &["needs the userids"]),
            ("limit challenge -x! alice bob", &["'-x!' is not an option"]),
            ("limit challenge al?ce bob", &["'al?ce' is not a userid"]),
            (
                "limit chat 101 alice",
                &["missing your password", "(the mail body is the message)"],
            ),
            (
                "limit ratings 101",
                &[
                    "'limit ratings' takes no words after it",
                    "usage: limit ratings",
                ],
            ),
            ("limit ratngs", &["did you mean 'limit ratings'?"]),
            (
                "limit standings alice",
                &[
                    "'limit standings' takes no words after it",
                    "usage: limit standings",
                ],
            ),
            (
                "limit subscribe 101 alice",
                &[
                    "missing your password",
                    "usage: limit subscribe <board> <userid> <password>",
                ],
            ),
            (
                "limit unsubscribe x alice pw",
                &["'x' is not a board number"],
            ),
            ("limit subscribe 101 alice pw extra", &["takes 3 words"]),
            (
                "limit notify alice",
                &["missing your password", "usage: limit notify"],
            ),
            (
                "limit notify alice pw 101 soon",
                &["'soon' is neither on, off nor a board number"],
            ),
            (
                "limit limit alice pw lots",
                &["'lots' is not a number of games", "off to lift"],
            ),
            ("limit limit alice pw -1", &["'-1' is not a number"]),
            ("limit limit alice pw 3 4", &["at most one number"]),
            (
                "limit accept alice",
                &["missing your password", "usage: limit accept"],
            ),
            ("limit reject alice pw b?b", &["'b?b' is not a userid"]),
        ];
        for (line, needles) in cases {
            let err = match parse(line) {
                Err(e) => e.to_string(),
                Ok(c) => panic!("{line:?} parsed as {c:?}"),
            };
            for n in *needles {
                assert!(err.contains(n), "error for {line:?} lacks {n:?}:\n{err}");
            }
        }
    }

    #[test]
    fn social_commands_parse_into_their_settings() {
        let game = |line: &str| match parse(line).unwrap() {
            RawCommand::Game { command, .. } => command,
            other => panic!("{line:?} parsed as {other:?}"),
        };
        assert_eq!(
            game("limit notify carol pw 102 101 102"),
            GameCommand::Notify {
                userid: "carol".into(),
                password: "pw".into(),
                setting: NotifySetting::Boards(vec![102, 101]),
            }
        );
        assert!(matches!(
            game("limit notify carol pw Off"),
            GameCommand::Notify {
                setting: NotifySetting::Off,
                ..
            }
        ));
        assert!(matches!(
            game("limit limit carol pw 0"),
            GameCommand::Limit {
                setting: Some(GameLimit::At(0)),
                ..
            }
        ));
        assert!(matches!(
            game("limit limit carol pw"),
            GameCommand::Limit { setting: None, .. }
        ));
        assert_eq!(
            game("limit reject carol pw bob BOB dave"),
            GameCommand::Reject {
                userid: "carol".into(),
                password: "pw".into(),
                userids: vec!["bob".into(), "dave".into()],
            }
        );
        assert_eq!(
            game("limit unsubscribe 7 carol pw"),
            GameCommand::Unsubscribe {
                board: 7,
                userid: "carol".into(),
                password: "pw".into(),
            }
        );
    }

    #[test]
    fn vacation_parses_days_or_off() {
        let d = |s: &str| parse_date(s).unwrap();
        assert_eq!(
            parse("Vacation alice pw 2026-12-01 2026-12-05").unwrap(),
            RawCommand::Vacation {
                userid: "alice".into(),
                password: "pw".into(),
                days: Some((d("2026-12-01"), d("2026-12-05"))),
            }
        );
        assert_eq!(
            parse("vacation alice pw OFF").unwrap(),
            RawCommand::Vacation {
                userid: "alice".into(),
                password: "pw".into(),
                days: None,
            }
        );
        // One day away: the first day is the last.
        assert!(parse("vacation alice pw 2026-12-01 2026-12-01").is_ok());
    }

    #[test]
    fn vacation_errors_say_what_and_how_and_hide_the_password() {
        let cases: &[(&str, &[&str])] = &[
            (
                "vacation alice",
                &["missing your password", "usage: vacation"],
            ),
            (
                "vacation alice hunter2xyz",
                &["missing the first and last day (or off)"],
            ),
            (
                "vacation alice hunter2xyz 2026-12-01",
                &["needs two days", "'2026-12-01'"],
            ),
            (
                "vacation alice hunter2xyz 2026-12-05 2026-12-01",
                &["last day 2026-12-01 is before the first day 2026-12-05"],
            ),
            (
                "vacation alice hunter2xyz 2026-02-30 2026-03-01",
                &["'2026-02-30' is not a day", "YYYY-MM-DD"],
            ),
            (
                "vacation alice hunter2xyz 1/12/2026 2026-12-01",
                &["'1/12/2026' is not a day"],
            ),
            ("vacation alice hunter2xyz on", &["needs two days"]),
            (
                "vacation alice hunter2xyz 2026-12-01 2026-12-02 x",
                &["3 words were given"],
            ),
            (
                "vacation al!ce hunter2xyz off",
                &["'al!ce' is not a userid"],
            ),
        ];
        for (line, needles) in cases {
            let err = parse(line).expect_err(line).to_string();
            for n in *needles {
                assert!(err.contains(n), "error for {line:?} lacks {n:?}:\n{err}");
            }
            assert!(!err.contains("hunter2xyz"), "{line:?} -> {err}");
        }
    }

    #[test]
    fn vacation_password_is_redacted() {
        let c = parse("vacation alice s3cret 2026-12-01 2026-12-05").unwrap();
        assert_eq!(c.passwords(), vec!["s3cret"]);
        assert_eq!(c.redacted(), "vacation alice **** 2026-12-01 2026-12-05");
        let off = parse("vacation alice s3cret off").unwrap();
        assert_eq!(off.redacted(), "vacation alice **** off");
        // Also when the line does not parse, and when the keyword is misspelt.
        assert_eq!(
            redact_line("vacation alice s3cret 2026-99-01"),
            "vacation alice **** 2026-99-01"
        );
        assert_eq!(line_passwords("vacaton alice s3cret off"), vec!["s3cret"]);
        assert!(looks_like_command("vacation alice s3cret off", &["limit"]));
    }

    #[test]
    fn dates_are_strict_calendar_days() {
        assert_eq!(
            parse_date("2028-02-29"),
            chrono::NaiveDate::from_ymd_opt(2028, 2, 29)
        );
        for bad in [
            "2026-02-29",
            "2026-13-01",
            "2026-00-10",
            "2026-1-05",
            "26-01-05",
            "2026/01/05",
            "2026-01-05x",
            "",
            "+026-01-05",
            "2026-01-+5",
        ] {
            assert_eq!(parse_date(bad), None, "{bad}");
        }
    }

    #[test]
    fn errors_never_quote_passwords() {
        let lines = [
            "signup al!ce hunter2xyz",
            "signup alice hunter2xyz bad-address",
            "change password alice hunter2xyz",
            "change password al!ce hunter2xyz new5678",
            "change address al!ce hunter2xyz",
            "limit move abc alice hunter2xyz 3-7",
            "limit move 101 al!ce hunter2xyz 3-7",
            "limit move 101 alice hunter2xyz 3-7#hunter2xyz",
            "limit resign 101 alice hunter2xyz extra",
            "limit mvoe 101 alice hunter2xyz 3-7",
            // The password typed where the userid belongs is still quoted masked, as it is also in a
            // password position.
            "limit move 101 hunter2xyz! hunter2xyz! 3-7",
            "limit subscribe x alice hunter2xyz",
            "limit notify alice hunter2xyz 101 hunter2xyz",
            "limit limit alice hunter2xyz hunter2xyz",
            "limit accept al!ce hunter2xyz bob",
            "limit reject alice hunter2xyz hunter2xyz!",
        ];
        for line in lines {
            let err = parse(line).expect_err(line).to_string();
            assert!(!err.contains("hunter2xyz"), "{line:?} -> {err}");
        }
    }

    #[test]
    fn passwords_and_redacted() {
        let cases: &[(&str, &[&str], &str)] = &[
            (
                "signup alice secret a@b.example",
                &["secret"],
                "signup alice **** a@b.example",
            ),
            ("add alice secret", &["secret"], "signup alice ****"),
            (
                "change password alice old new",
                &["old", "new"],
                "change password alice **** ****",
            ),
            (
                "change address alice pw x@y.example",
                &["pw"],
                "change address alice **** x@y.example",
            ),
            ("signoff alice pw", &["pw"], "signoff alice ****"),
            (
                "limit move 101 alice secret 3-7, 4 #12",
                &["secret"],
                "limit move 101 alice **** 3-7, 4#12",
            ),
            (
                "limit resign 101 alice secret",
                &["secret"],
                "limit resign 101 alice ****",
            ),
            (
                "limit chat 101 alice secret",
                &["secret"],
                "limit chat 101 alice ****",
            ),
            ("limit show 101#3 102", &[], "limit show 101#3 102"),
            (
                "limit subscribe 101 carol secret",
                &["secret"],
                "limit subscribe 101 carol ****",
            ),
            (
                "limit UNSUBSCRIBE 101 carol secret",
                &["secret"],
                "limit unsubscribe 101 carol ****",
            ),
            (
                "limit notify carol secret",
                &["secret"],
                "limit notify carol ****",
            ),
            (
                "limit notify carol secret ON",
                &["secret"],
                "limit notify carol ****",
            ),
            (
                "limit notify carol secret off",
                &["secret"],
                "limit notify carol **** off",
            ),
            (
                "limit notify carol secret 101 102 101",
                &["secret"],
                "limit notify carol **** 101 102",
            ),
            (
                "limit limit carol secret",
                &["secret"],
                "limit limit carol ****",
            ),
            (
                "limit limit carol secret 0",
                &["secret"],
                "limit limit carol **** 0",
            ),
            (
                "limit limit carol secret None",
                &["secret"],
                "limit limit carol **** off",
            ),
            (
                "limit accept carol secret alice BOB alice",
                &["secret"],
                "limit accept carol **** alice BOB",
            ),
            (
                "limit reject carol secret",
                &["secret"],
                "limit reject carol ****",
            ),
            (
                "limit challenge -size=6 --nagtime=7 alice bob",
                &[],
                "limit challenge -size=6 --nagtime=7 alice bob",
            ),
            ("limit games alice", &[], "limit games alice active"),
            ("Limit RATINGS", &[], "limit ratings"),
            ("limit standings", &[], "limit standings"),
            ("help me", &[], "help me"),
            ("list", &[], "list"),
            // A password that occurs in another field is masked there too.
            (
                "limit move 101 alice 4 3-7,4",
                &["4"],
                "limit move 101 alice **** 3-7,****",
            ),
            ("signup alice alice", &["alice"], "signup **** ****"),
            // A password made of asterisks is masked with another character.
            ("signoff alice **", &["**"], "signoff alice ####"),
        ];
        for (line, pws, red) in cases {
            let c = parse(line).unwrap();
            assert_eq!(&c.passwords(), pws, "{line}");
            assert_eq!(&c.redacted(), red, "{line}");
        }
    }

    #[test]
    fn proposals_answers_and_queued_moves() {
        let m =
            |board, userid: &str, password: &str| (board, userid.to_string(), password.to_string());
        let cases: Vec<(&str, GameCommand, &str)> = vec![
            (
                "limit move 101 alice pw propose undo",
                {
                    let (board, userid, password) = m(101, "alice", "pw");
                    GameCommand::Propose {
                        board,
                        userid,
                        password,
                        kind: ProposalKind::Undo,
                        guard: None,
                    }
                },
                "limit move 101 alice **** propose undo",
            ),
            (
                "limit MOVE 7 bob pw Propose DRAW #12",
                {
                    let (board, userid, password) = m(7, "bob", "pw");
                    GameCommand::Propose {
                        board,
                        userid,
                        password,
                        kind: ProposalKind::Draw,
                        guard: Some(12),
                    }
                },
                "limit move 7 bob **** propose draw#12",
            ),
            (
                "limit move 101 bob pw accept",
                {
                    let (board, userid, password) = m(101, "bob", "pw");
                    GameCommand::Answer {
                        board,
                        userid,
                        password,
                        accept: true,
                        guard: None,
                    }
                },
                "limit move 101 bob **** accept",
            ),
            (
                "limit move 101 bob pw Reject#4",
                {
                    let (board, userid, password) = m(101, "bob", "pw");
                    GameCommand::Answer {
                        board,
                        userid,
                        password,
                        accept: false,
                        guard: Some(4),
                    }
                },
                "limit move 101 bob **** reject#4",
            ),
            (
                "limit queue 101 bob pw 3-7, 4#6",
                {
                    let (board, userid, password) = m(101, "bob", "pw");
                    GameCommand::Queue {
                        board,
                        userid,
                        password,
                        mv: "3-7, 4".into(),
                        guard: Some(6),
                    }
                },
                "limit queue 101 bob **** 3-7, 4#6",
            ),
        ];
        for (line, want, red) in cases {
            let got = parse(line).unwrap();
            assert_eq!(got, game(want), "{line}");
            assert_eq!(got.passwords(), vec!["pw"], "{line}");
            assert_eq!(got.redacted(), red, "{line}");
        }
        let bad: &[(&str, &str)] = &[
            ("limit move 101 alice hunter2xyz propose", "propose undo"),
            (
                "limit move 101 alice hunter2xyz propose peace",
                "'propose peace' is not a proposal",
            ),
            (
                "limit move 101 alice hunter2xyz propose undo now",
                "one word after it",
            ),
            (
                "limit move 101 alice hunter2xyz accept it",
                "'accept' takes nothing",
            ),
            ("limit queue 101 alice hunter2xyz", "missing the move"),
            (
                "limit queue 101 alice hunter2xyz propose draw",
                "cannot be queued",
            ),
            ("limit queue x alice hunter2xyz 3-7,4", "not a board number"),
        ];
        for (line, want) in bad {
            let err = parse(line).expect_err(line).to_string();
            assert!(err.contains(want), "{line} -> {err}");
            assert!(!err.contains("hunter2xyz"), "{line} -> {err}");
        }
        // A misspelt queue is recognised for the hint, and its password hidden.
        let err = parse("limit queu 101 alice hunter2xyz 3-7,4")
            .unwrap_err()
            .to_string();
        assert!(err.contains("did you mean 'limit queue'"), "{err}");
        assert!(!err.contains("hunter2xyz"), "{err}");
    }

    #[test]
    fn redact_line_by_position() {
        let cases = [
            ("signup alice secret", "signup alice ****"),
            ("sigup alice secret", "sigup alice ****"),
            ("ADD alice secret x@y.example", "ADD alice **** x@y.example"),
            (
                "change password alice old new",
                "change password alice **** ****",
            ),
            (
                "change pasword alice old new",
                "change pasword alice **** ****",
            ),
            (
                "change address alice pw a@b.example",
                "change address alice **** a@b.example",
            ),
            ("change what alice pw more", "change what **** **** ****"),
            ("signoff alice pw", "signoff alice ****"),
            (
                "limit move 101 alice secret 3-7,4",
                "limit move 101 alice **** 3-7,4",
            ),
            (
                "limit mvoe 101 alice secret 3-7,4",
                "limit mvoe 101 alice **** 3-7,4",
            ),
            ("limit move abc alice secret", "limit move abc alice ****"),
            (
                "limit resign 101 alice secret extra",
                "limit resign 101 alice **** extra",
            ),
            ("limit chat 101 alice secret", "limit chat 101 alice ****"),
            (
                "limit queue 101 alice secret 3-7",
                "limit queue 101 alice **** 3-7",
            ),
            (
                "limit notify alice secret 101",
                "limit notify alice **** 101",
            ),
            ("limit limit alice secret 3", "limit limit alice **** 3"),
            ("limit limt alice secret 3", "limit limt alice **** 3"),
            (
                "limit accept alice secret bob",
                "limit accept alice **** bob",
            ),
            ("limit rejcet alice secret", "limit rejcet alice ****"),
            (
                "limit subscribe 101 alice secret",
                "limit subscribe 101 alice ****",
            ),
            ("limit xyzzy 101 alice secret", "limit xyzzy 101 alice ****"),
            ("limit show 101 102 103 104", "limit show 101 102 103 104"),
            ("limit move 101 alice", "limit move 101 alice"),
            ("", ""),
            (
                "  limit   move 101 alice  secret  secretive ",
                "limit move 101 alice **** ****ive",
            ),
        ];
        for (line, want) in cases {
            assert_eq!(redact_line(line), want, "{line:?}");
        }
        assert_eq!(
            line_passwords("limit move 101 alice secret 3-7"),
            vec!["secret"]
        );
    }

    #[test]
    fn usage_for_help_on_a_command() {
        let u =
            |s: &str| command_usage(&s.split_whitespace().map(String::from).collect::<Vec<_>>());
        assert_eq!(
            u("signup").unwrap(),
            "signup <userid> <password> [<address>...]"
        );
        assert!(
            u("change password")
                .unwrap()
                .starts_with("change password <userid> <old")
        );
        assert!(
            u("limit move")
                .unwrap()
                .starts_with("limit move <board> <userid> <password>")
        );
        assert!(u("move").unwrap().starts_with("<game> move <board>"));
        assert_eq!(u("list").unwrap(), "list");
        assert_eq!(u("frobnicate"), None);
        assert_eq!(u("limit frobnicate"), None);
        assert_eq!(nearest_command("sigup"), Some("signup"));
        assert_eq!(nearest_command("chalenge"), Some("challenge"));
        assert_eq!(nearest_command("frobnicate"), None);
    }

    #[test]
    fn board_mail_subjects() {
        for s in [
            "Limit Board 101 bob",
            "New Limit Board 101 alice",
            "Nag: Limit Board 101 alice",
            "NEW limit board 7 Over",
            "Limit Board 101 Error",
            "Chess Board 3 bob **",
        ] {
            assert!(is_board_mail_subject(s), "{s}");
            assert!(!may_be_command(s, &["limit"]), "{s}");
            assert_eq!(redact_line(s), s);
            assert!(line_passwords(s).is_empty(), "{s}");
        }
        for s in [
            "limit show 101",
            "Board 101",
            "New Limit Board alice",
            "Old Limit Board 101 alice",
            "limit move 101 alice Board 7",
        ] {
            assert!(!is_board_mail_subject(s), "{s}");
        }
    }

    #[test]
    fn looks_like_command_cases() {
        let games = ["limit"];
        let cases = [
            ("limit show 101", true),
            ("Limit MOVE 101 alice secret 3-7,4", true),
            ("limit standings", true),
            ("limit", false),
            ("Limit Board 101 Blue", false),
            ("New Limit Board 101 Red", false),
            ("help", true),
            ("signup alice pw", true),
            ("add bob pw", true),
            ("list", true),
            ("signoff alice pw", true),
            ("change password alice a b", true),
            ("change of plans, sorry", false),
            ("chess move 101 alice pw e4", false),
            ("Hi Bob,", false),
            ("", false),
            ("> limit move 101 alice secret 3-7,4", false),
        ];
        for (line, want) in cases {
            assert_eq!(looks_like_command(line, &games), want, "{line:?}");
        }
    }

    /// The textbook full-matrix form of [`edit_distance`], to check the three-row one against.
    fn edit_distance_by_matrix(a: &str, b: &str) -> usize {
        let a: Vec<char> = a.chars().take(64).collect();
        let b: Vec<char> = b.chars().take(64).collect();
        let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
        for (i, row) in d.iter_mut().enumerate() {
            row[0] = i;
        }
        for (j, cell) in d[0].iter_mut().enumerate() {
            *cell = j;
        }
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                let mut v = (d[i - 1][j] + 1)
                    .min(d[i][j - 1] + 1)
                    .min(d[i - 1][j - 1] + cost);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    v = v.min(d[i - 2][j - 2] + 1);
                }
                d[i][j] = v;
            }
        }
        d[a.len()][b.len()]
    }

    proptest::proptest! {
        #[test]
        fn edit_distance_agrees_with_the_full_matrix(a in "[a-dé]{0,70}", b in "[a-dé]{0,70}") {
            proptest::prop_assert_eq!(edit_distance(&a, &b), edit_distance_by_matrix(&a, &b));
        }
    }

    #[test]
    fn edit_distance_and_closest() {
        assert_eq!(edit_distance("", "move"), 4);
        assert_eq!(edit_distance("abcd", "badc"), 2);
        assert_eq!(edit_distance("mvoe", "move"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(closest("resing", &["resign", "move"]), Some("resign"));
        assert_eq!(closest("ab", &["add"]), None);
        assert_eq!(closest("zzzz", &["move"]), None);
    }

    #[test]
    fn mask_secrets_terminates_and_hides() {
        assert_eq!(mask_secrets("a b a", &["a"]), "**** b ****");
        assert_eq!(mask_secrets("x**y", &["**"]), "x####y");
        assert_eq!(mask_secrets("abc", &[]), "abc");
        assert_eq!(mask_secrets("abc", &[""]), "abc");
        let m = mask_secrets("*#x?~_.", &["*", "#", "x", "?", "~", "_", "."]);
        for s in ["*", "#", "x", "?", "~", "_", "."] {
            assert!(!m.contains(s), "{m}");
        }
    }

    mod props {
        use super::super::*;
        use proptest::prelude::*;

        fn any_line() -> impl Strategy<Value = String> {
            prop_oneof![
                any::<String>(),
                proptest::collection::vec(
                    prop_oneof![
                        Just("limit".to_string()),
                        Just("move".to_string()),
                        Just("show".to_string()),
                        Just("signup".to_string()),
                        Just("change".to_string()),
                        Just("password".to_string()),
                        Just("challenge".to_string()),
                        Just("#".to_string()),
                        "[0-9]{1,12}",
                        "-{0,2}[a-z=#0-9,]{0,6}",
                        "\\PC{0,8}",
                    ],
                    0..8
                )
                .prop_map(|w| w.join(" ")),
            ]
        }

        proptest! {
            #[test]
            fn never_panics(line in any_line()) {
                let _ = tokenize(&line);
                let _ = redact_line(&line);
                let _ = looks_like_command(&line, &["limit"]);
                match parse(&line) {
                    Ok(c) => {
                        let _ = c.redacted();
                    }
                    Err(e) => {
                        let _ = e.to_string();
                    }
                }
            }

            #[test]
            fn redacted_hides_the_password(
                pw in "\\S{1,12}",
                user in "[A-Za-z0-9_]{1,20}",
                mv in "[a-z0-9 ,-]{1,10}",
                which in 0usize..6,
            ) {
                let line = match which {
                    0 => format!("signup {user} {pw} {user}@example.org"),
                    1 => format!("change password {user} {pw} {pw}x"),
                    2 => format!("signoff {user} {pw}"),
                    3 => format!("limit move 101 {user} {pw} {mv}"),
                    4 => format!("limit resign 7 {user} {pw}"),
                    _ => format!("limit chat 101 {user} {pw}"),
                };
                let red = redact_line(&line);
                prop_assert!(!red.contains(&pw), "{} -> {}", line, red);
                if let Ok(c) = parse(&line) {
                    prop_assert!(c.passwords().contains(&pw.as_str()));
                    let r = c.redacted();
                    for p in c.passwords() {
                        prop_assert!(!r.contains(p), "{} -> {}", line, r);
                    }
                }
            }

            #[test]
            fn errors_hide_the_password(
                pw in "[a-z0-9!$%&]{10,16}",
                words in proptest::collection::vec("[a-z0-9#!-]{1,5}", 3..4),
                cmd in prop_oneof![Just("move"), Just("resign"), Just("chat"), Just("mvoe"), Just("xyz")],
                which in 0usize..5,
            ) {
                let w = |i: usize| words.get(i).cloned().unwrap_or_default();
                let line = match which {
                    0 => format!("signup {} {pw} {}", w(0), w(1)),
                    1 => format!("change password {} {pw} {}", w(0), w(1)),
                    2 => format!("limit move {} {} {pw} {}", w(0), w(1), w(2)),
                    3 => format!("limit {cmd} {} {} {pw} {}", w(0), w(1), w(2)),
                    _ => format!("limit resign {} {} {pw} {}", w(0), w(1), w(2)),
                };
                if let Err(e) = parse(&line) {
                    let msg = e.to_string();
                    prop_assert!(!msg.contains(&pw), "{} -> {}", line, msg);
                }
            }
        }
    }
}

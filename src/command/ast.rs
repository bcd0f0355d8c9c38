//! A command as read: [`RawCommand`] and [`GameCommand`], and their canonical text with the passwords
//! masked.

use std::borrow::Cow;

use super::mask::{PLACEHOLDER, Password, WHOLE_WORD_BELOW, mask_for, mask_secrets};
use super::tokenizer::Token;
use crate::games::GameOption;
pub use crate::model::{GamesFilter, MailSetting, ProposalKind};

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
        password: Password,
        /// The addresses to mail; empty means the sender's address.
        addresses: Vec<String>,
    },
    /// `change password userid old new`
    ChangePassword {
        /// The userid, as written.
        userid: String,
        /// The current password.
        old: Password,
        /// The new password.
        new: Password,
    },
    /// `message userid password to-userid...`: the mail's body to other players, through the server.
    Message {
        /// The sender, as written.
        userid: String,
        /// The sender's password.
        password: Password,
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
        code: Password,
        /// The new password.
        new: Password,
    },
    /// `change address userid password [address...]`
    ChangeAddress {
        /// The userid, as written.
        userid: String,
        /// The password.
        password: Password,
        /// The new addresses; empty means the sender's address.
        addresses: Vec<String>,
    },
    /// `signoff userid password`
    Signoff {
        /// The userid, as written.
        userid: String,
        /// The password.
        password: Password,
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
        password: Password,
        /// The first and last day away; `None` for `off` (back now, planned vacations dropped).
        days: Option<(chrono::NaiveDate, chrono::NaiveDate)>,
    },
    /// `set userid password digest on|off` or `set userid password mail text|html`: how the
    /// server mails the player.
    Set {
        /// The userid, as written.
        userid: String,
        /// The password.
        password: Password,
        /// The setting and its new value.
        setting: MailSetting,
    },
    /// `<game> ...`: a command for one game type.
    Game {
        /// The game's name, lowercased (not checked: the server knows which games it hosts).
        game: String,
        /// What to do.
        command: GameCommand,
    },
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
        password: Option<Password>,
    },
    /// `<game> move board userid password move[#N]`
    Move {
        /// The board number.
        board: u32,
        /// The userid, as written.
        userid: String,
        /// The password.
        password: Password,
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
        password: Password,
    },
    /// `<game> rematch board userid password`: the same game again, with the same options and the
    /// seats turned (colours swapped), once the board is over.
    Rematch {
        /// The finished board.
        board: u32,
        /// The userid, as written.
        userid: String,
        /// The password.
        password: Password,
    },
    /// `<game> show board[#N]...`
    Show {
        /// Each board, with the move number to show it at (`101#5`), if any.
        boards: Vec<(u32, Option<u32>)>,
    },
    /// `<game> history [board [-record | -sgf] | page N]`
    History {
        /// The board, if one was named.
        board: Option<u32>,
        /// Without a board: which page of finished games, newest first (`page 2`); `None` is the first.
        page: Option<u32>,
        /// For one board: the history as players read it, or a game record to keep.
        form: HistoryForm,
    },
    /// `<game> games userid... [active|all|finished|next]`
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
        password: Password,
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
        password: Password,
    },
    /// `<game> unsubscribe board userid password`
    Unsubscribe {
        /// The board number.
        board: u32,
        /// The userid, as written.
        userid: String,
        /// The password.
        password: Password,
    },
    /// `<game> notify userid password [on|off|board...]`
    Notify {
        /// The userid, as written.
        userid: String,
        /// The password.
        password: Password,
        /// What to turn on or off.
        setting: NotifySetting,
    },
    /// `<game> limit userid password [N|off]`: at most N unfinished games of this type by challenge.
    Limit {
        /// The userid, as written.
        userid: String,
        /// The password.
        password: Password,
        /// The new limit; `None` only asks for the current one.
        setting: Option<GameLimit>,
    },
    /// `<game> accept userid password [userid...]`: take challenges only from these (none: from anyone).
    Accept {
        /// The userid, as written.
        userid: String,
        /// The password.
        password: Password,
        /// The players whose challenges are taken, as written.
        userids: Vec<String>,
    },
    /// `<game> reject userid password [userid...]`: refuse challenges from these (none: clear the list).
    Reject {
        /// The userid, as written.
        userid: String,
        /// The password.
        password: Password,
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
        password: Password,
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
        password: Password,
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
        password: Password,
        /// The move as written, without the guard.
        mv: String,
        /// The `#N` guard: the queued move is played only if its turn comes at move N.
        guard: Option<u32>,
    },
}

/// What `<game> history <board>` mails.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HistoryForm {
    /// The history as players read it: status, move list, comments, times.
    Text,
    /// `-record`: the game's text record (records.md section 1), a file to keep.
    Record,
    /// `-sgf`: the game as SGF (Hex, Go) or PGN (Ataxx), attached; refused for other games.
    Sgf,
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

/// One word of a command's canonical text: plain, or a password (after a fixed prefix such as
/// `--password=`). Both [`RawCommand::passwords`] and [`RawCommand::redacted`] read these, so that
/// a password cannot be listed in one and shown by the other.
enum Piece<'a> {
    Plain(Cow<'a, str>),
    Secret(&'static str, &'a str),
}

impl<'a> Piece<'a> {
    fn word(w: &'a str) -> Self {
        Piece::Plain(Cow::Borrowed(w))
    }

    fn owned(w: String) -> Self {
        Piece::Plain(Cow::Owned(w))
    }

    fn secret(pw: &'a Password) -> Self {
        Piece::Secret("", pw.expose())
    }
}

/// `text#N`, or `text` without a guard.
fn with_guard(text: &str, guard: Option<u32>) -> String {
    match guard {
        Some(n) => format!("{text}#{n}"),
        None => text.to_string(),
    }
}

impl RawCommand {
    /// The passwords written in this command, in order (none for most commands).
    pub fn passwords(&self) -> Vec<&str> {
        self.pieces()
            .into_iter()
            .filter_map(|p| match p {
                Piece::Secret(_, pw) => Some(pw),
                Piece::Plain(_) => None,
            })
            .collect()
    }

    /// The command as canonical text (keywords lowercase, single spaces) with every password replaced by
    /// `****`, fit for logs and for quoting back in a mail. Should a password also occur elsewhere in the
    /// text (a userid or move that contains it), that occurrence is masked too.
    pub fn redacted(&self) -> String {
        let pieces = self.pieces();
        let pws: Vec<&str> = pieces
            .iter()
            .filter_map(|p| match p {
                Piece::Secret(_, pw) => Some(*pw),
                Piece::Plain(_) => None,
            })
            .collect();
        let mask = mask_for(&pws);
        let words: Vec<Cow<'_, str>> = pieces
            .into_iter()
            .map(|p| match p {
                Piece::Plain(w) => w,
                Piece::Secret("", _) => Cow::Borrowed(mask.as_str()),
                Piece::Secret(prefix, _) => Cow::Owned(format!("{prefix}{mask}")),
            })
            .collect();
        mask_secrets(&words.join(" "), &pws)
    }

    /// The command rebuilt from its parts, as an answer quotes it back: every password place
    /// written [`PLACEHOLDER`], and so is any other word that is one of this command's passwords or
    /// that `hidden` says may be a password (a password written in the userid's place, say). No
    /// text around the parts is masked: the parts are all there is.
    pub fn quoted(&self, hidden: impl Fn(&str) -> bool) -> String {
        let pieces = self.pieces();
        let pws: Vec<&str> = pieces
            .iter()
            .filter_map(|p| match p {
                Piece::Secret(_, pw) => Some(*pw),
                Piece::Plain(_) => None,
            })
            .collect();
        let words: Vec<Cow<'_, str>> = pieces
            .iter()
            .map(|p| match p {
                Piece::Secret(prefix, _) => Cow::Owned(format!("{prefix}{PLACEHOLDER}")),
                // A short password is a word of its own (`a` is no part of `alice`), as masks take it.
                Piece::Plain(w)
                    if hidden(w)
                        || pws.iter().any(|pw| {
                            *pw == w.as_ref() || (pw.len() >= WHOLE_WORD_BELOW && w.contains(*pw))
                        }) =>
                {
                    Cow::Borrowed(PLACEHOLDER)
                }
                Piece::Plain(w) => Cow::Borrowed(w.as_ref()),
            })
            .collect();
        words.join(" ")
    }

    /// The userid and password the command logs in with: the player's own, or for a challenge
    /// with `--password=PW` the first userid's (the challenger). `None` for commands that log in with
    /// no password (`signup` makes one, `password set` uses a mailed code, the rest need none).
    /// Its password is checked before the write lock is taken (`server::auth`), so a new command
    /// that takes a password belongs here: a table test checks that every one does.
    pub fn login(&self) -> Option<(&str, &Password)> {
        match self {
            RawCommand::ChangePassword { userid, old, .. } => Some((userid, old)),
            RawCommand::Message {
                userid, password, ..
            }
            | RawCommand::ChangeAddress {
                userid, password, ..
            }
            | RawCommand::Signoff { userid, password }
            | RawCommand::Vacation {
                userid, password, ..
            }
            | RawCommand::Set {
                userid, password, ..
            }
            | RawCommand::Game {
                command:
                    GameCommand::Move {
                        userid, password, ..
                    }
                    | GameCommand::Resign {
                        userid, password, ..
                    }
                    | GameCommand::Rematch {
                        userid, password, ..
                    }
                    | GameCommand::Chat {
                        userid, password, ..
                    }
                    | GameCommand::Propose {
                        userid, password, ..
                    }
                    | GameCommand::Answer {
                        userid, password, ..
                    }
                    | GameCommand::Queue {
                        userid, password, ..
                    }
                    | GameCommand::Subscribe {
                        userid, password, ..
                    }
                    | GameCommand::Unsubscribe {
                        userid, password, ..
                    }
                    | GameCommand::Notify {
                        userid, password, ..
                    }
                    | GameCommand::Limit {
                        userid, password, ..
                    }
                    | GameCommand::Accept {
                        userid, password, ..
                    }
                    | GameCommand::Reject {
                        userid, password, ..
                    },
                ..
            } => Some((userid, password)),
            RawCommand::Game {
                command:
                    GameCommand::Challenge {
                        userids,
                        password: Some(password),
                        ..
                    },
                ..
            } => userids.first().map(|u| (u.as_str(), password)),
            _ => None,
        }
    }

    /// The canonical words of the command.
    fn pieces(&self) -> Vec<Piece<'_>> {
        use Piece as P;
        let mut w: Vec<Piece<'_>> = Vec::new();
        match self {
            RawCommand::Help { subject } => {
                w.push(P::word("help"));
                w.extend(subject.iter().map(|s| P::word(s)));
            }
            RawCommand::Signup {
                userid,
                password,
                addresses,
            } => {
                w.extend([P::word("signup"), P::word(userid), P::secret(password)]);
                w.extend(addresses.iter().map(|a| P::word(a)));
            }
            RawCommand::ChangePassword { userid, old, new } => w.extend([
                P::word("change"),
                P::word("password"),
                P::word(userid),
                P::secret(old),
                P::secret(new),
            ]),
            RawCommand::ChangeAddress {
                userid,
                password,
                addresses,
            } => {
                w.extend([
                    P::word("change"),
                    P::word("address"),
                    P::word(userid),
                    P::secret(password),
                ]);
                w.extend(addresses.iter().map(|a| P::word(a)));
            }
            RawCommand::Signoff { userid, password } => {
                w.extend([P::word("signoff"), P::word(userid), P::secret(password)]);
            }
            RawCommand::Message {
                userid,
                password,
                to,
            } => {
                w.extend([P::word("message"), P::word(userid), P::secret(password)]);
                w.extend(to.iter().map(|u| P::word(u)));
            }
            RawCommand::PasswordReset { userid } => {
                w.extend([P::word("password"), P::word("reset"), P::word(userid)]);
            }
            RawCommand::PasswordSet { userid, code, new } => w.extend([
                P::word("password"),
                P::word("set"),
                P::word(userid),
                P::secret(code),
                P::secret(new),
            ]),
            RawCommand::List { games } => {
                w.push(P::word("list"));
                w.extend(games.iter().map(|g| P::word(g)));
            }
            RawCommand::Confirm { userid, code } => {
                w.extend([P::word("confirm"), P::word(userid), P::word(code)]);
            }
            RawCommand::Vacation {
                userid,
                password,
                days,
            } => {
                w.extend([P::word("vacation"), P::word(userid), P::secret(password)]);
                match days {
                    Some((from, to)) => {
                        w.extend([P::owned(from.to_string()), P::owned(to.to_string())]);
                    }
                    None => w.push(P::word("off")),
                }
            }
            RawCommand::Set {
                userid,
                password,
                setting,
            } => {
                w.extend([P::word("set"), P::word(userid), P::secret(password)]);
                w.extend(setting.words().split(' ').map(P::word));
            }
            RawCommand::Game { game, command } => {
                w.push(P::word(game));
                command.pieces(&mut w);
            }
        }
        w
    }
}

impl GameCommand {
    /// Appends the canonical words of the command (after the game's name).
    fn pieces<'a>(&'a self, w: &mut Vec<Piece<'a>>) {
        use Piece as P;
        // The words every command on a board starts with.
        let on_board =
            |w: &mut Vec<Piece<'a>>, word, board: &u32, userid: &'a str, pw: &'a Password| {
                w.extend([
                    P::word(word),
                    P::owned(board.to_string()),
                    P::word(userid),
                    P::secret(pw),
                ]);
            };
        let of_player = |w: &mut Vec<Piece<'a>>, word, userid: &'a str, pw: &'a Password| {
            w.extend([P::word(word), P::word(userid), P::secret(pw)]);
        };
        match self {
            GameCommand::Help => w.push(P::word("help")),
            GameCommand::Challenge {
                options,
                server_options,
                userids,
                password,
            } => {
                w.push(P::word("challenge"));
                w.extend(options.iter().map(|o| P::owned(o.to_string())));
                w.extend(
                    server_options.iter().map(|(n, v)| {
                        P::owned(Token::ServerOption(n.clone(), v.clone()).to_string())
                    }),
                );
                if let Some(pw) = password {
                    w.push(P::Secret("--password=", pw.expose()));
                }
                w.extend(userids.iter().map(|u| P::word(u)));
            }
            GameCommand::Move {
                board,
                userid,
                password,
                mv,
                guard,
            } => {
                on_board(w, "move", board, userid, password);
                w.push(P::owned(with_guard(mv, *guard)));
            }
            GameCommand::Resign {
                board,
                userid,
                password,
            } => on_board(w, "resign", board, userid, password),
            GameCommand::Rematch {
                board,
                userid,
                password,
            } => on_board(w, "rematch", board, userid, password),
            GameCommand::Show { boards } => {
                w.push(P::word("show"));
                w.extend(
                    boards
                        .iter()
                        .map(|(b, n)| P::owned(with_guard(&b.to_string(), *n))),
                );
            }
            GameCommand::History { board, page, form } => {
                w.push(P::word("history"));
                w.extend(board.map(|b| P::owned(b.to_string())));
                if let Some(p) = page {
                    w.extend([P::word("page"), P::owned(p.to_string())]);
                }
                match form {
                    HistoryForm::Text => {}
                    HistoryForm::Record => w.push(P::word("-record")),
                    HistoryForm::Sgf => w.push(P::word("-sgf")),
                }
            }
            GameCommand::Games { userids, filter } => {
                w.push(P::word("games"));
                w.extend(userids.iter().map(|u| P::word(u)));
                w.push(P::word(filter.as_str()));
            }
            GameCommand::Preview { board, moves } => {
                w.extend([P::word("preview"), P::owned(board.to_string())]);
                w.extend(moves.iter().map(|m| P::word(m)));
            }
            GameCommand::Chat {
                board,
                userid,
                password,
            } => on_board(w, "chat", board, userid, password),
            GameCommand::Ratings => w.push(P::word("ratings")),
            GameCommand::Standings => w.push(P::word("standings")),
            GameCommand::Subscribe {
                board,
                userid,
                password,
            } => on_board(w, "subscribe", board, userid, password),
            GameCommand::Unsubscribe {
                board,
                userid,
                password,
            } => on_board(w, "unsubscribe", board, userid, password),
            GameCommand::Notify {
                userid,
                password,
                setting,
            } => {
                of_player(w, "notify", userid, password);
                match setting {
                    NotifySetting::On => {}
                    NotifySetting::Off => w.push(P::word("off")),
                    NotifySetting::Boards(b) => w.extend(b.iter().map(|b| P::owned(b.to_string()))),
                }
            }
            GameCommand::Limit {
                userid,
                password,
                setting,
            } => {
                of_player(w, "limit", userid, password);
                match setting {
                    None => {}
                    Some(GameLimit::At(n)) => w.push(P::owned(n.to_string())),
                    Some(GameLimit::Off) => w.push(P::word("off")),
                }
            }
            GameCommand::Accept {
                userid,
                password,
                userids,
            } => {
                of_player(w, "accept", userid, password);
                w.extend(userids.iter().map(|u| P::word(u)));
            }
            GameCommand::Reject {
                userid,
                password,
                userids,
            } => {
                of_player(w, "reject", userid, password);
                w.extend(userids.iter().map(|u| P::word(u)));
            }
            GameCommand::Propose {
                board,
                userid,
                password,
                kind,
                guard,
            } => {
                on_board(w, "move", board, userid, password);
                w.push(P::word("propose"));
                w.push(P::owned(with_guard(kind.as_str(), *guard)));
            }
            GameCommand::Answer {
                board,
                userid,
                password,
                accept,
                guard,
            } => {
                on_board(w, "move", board, userid, password);
                let word = if *accept { "accept" } else { "reject" };
                w.push(P::owned(with_guard(word, *guard)));
            }
            GameCommand::Queue {
                board,
                userid,
                password,
                mv,
                guard,
            } => {
                on_board(w, "queue", board, userid, password);
                w.push(P::owned(with_guard(mv, *guard)));
            }
        }
    }
}

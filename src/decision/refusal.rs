//! Why a command was refused, one enum per family of commands. [`crate::mail_text::refusal`] writes
//! each as the player reads it.

use chrono::NaiveDate;

use super::{AccountError, Game, RuleError};
use crate::model::ProposalKind;
use crate::storage::ChallengeList;

/// Why a command was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Accounts: signup, passwords, addresses, signoff.
    Account(AccountRefusal),
    /// Playing: challenge, move, resign, show, preview.
    Play(PlayRefusal),
    /// Undo and draw proposals, queued moves.
    Proposal(ProposalRefusal),
    /// Subscriptions and challenge limits and lists.
    Social(SocialRefusal),
    /// A game's clock options and vacations.
    Clock(ClockRefusal),
    /// Player-to-player mail and chat.
    Message(MessageRefusal),
    /// `help`, and a command for a game the server does not host.
    Help(HelpRefusal),
    /// `list` and `games`.
    List(ListRefusal),
    /// The admin's overrides at the shell.
    Admin(AdminRefusal),
    /// A mail as a whole: too large, or without a command.
    Mail(MailRefusal),
}

macro_rules! family {
    ($($family:ident => $variant:ident),* $(,)?) => {
        $(impl From<$family> for Refusal {
            fn from(r: $family) -> Refusal {
                Refusal::$variant(r)
            }
        })*
    };
}

family! {
    AccountRefusal => Account,
    PlayRefusal => Play,
    ProposalRefusal => Proposal,
    SocialRefusal => Social,
    ClockRefusal => Clock,
    MessageRefusal => Message,
    HelpRefusal => Help,
    ListRefusal => List,
    AdminRefusal => Admin,
    MailRefusal => Mail,
}

/// Refusals of a whole mail, before any command of it is carried out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MailRefusal {
    /// Larger than `limits.max_message_bytes`: nothing of it was read.
    TooLarge {
        /// The most bytes the server reads.
        max_bytes: usize,
    },
    /// A reply to a board mail's own address from an address not registered to the player it was
    /// mailed to.
    UnregisteredReply {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
    },
    /// No command in the Subject or the body.
    NoCommand {
        /// A move command to show, with `<password>` in its place.
        example: String,
        /// What the reading of the mail noticed (for instance a command in an attachment).
        notes: Vec<String>,
    },
}

/// Refusals of account commands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AccountRefusal {
    /// A userid, password or address breaks the rules (or hashing failed).
    Invalid(AccountError),
    /// At the shell a signup or address change names no address.
    AddressNeededAtShell,
    /// `signup` with a userid someone has.
    UseridTaken {
        /// The userid asked for.
        userid: String,
    },
    /// `signoff` while games are going on.
    StillPlaying {
        /// The player.
        userid: String,
        /// Their games still going on.
        active: i64,
    },
    /// Unknown userid, wrong password or throttled: the same answer for all three.
    WrongPassword {
        /// The userid as written.
        userid: String,
        /// Wrong passwords checked an hour from one address.
        per_sender: u32,
        /// Wrong passwords checked an hour for one account from addresses not registered to it.
        per_account: u32,
        /// The mail came from an address registered to that userid: its writer has the account,
        /// so the answer may say so (and never suggests `signup`).
        from_owner: bool,
    },
    /// The mail used up its password checks.
    TooManyChecks {
        /// Password checks a mail may cost.
        max: u32,
    },
    /// `confirm` with a code that no pending address of this sender has.
    NoPendingAddress {
        /// The userid as written.
        userid: String,
    },
    /// `confirm` at the shell.
    ConfirmAtShell,
    /// `password set` with a wrong, used or old code.
    BadResetCode {
        /// The userid as written.
        userid: String,
    },
}

/// How a challenge is written, for the refusals of one: `limit challenge [options] <userid1> <userid2>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChallengeUsage {
    /// The game challenged to.
    pub game: Game,
    /// Fewest players of the game.
    pub min_players: usize,
    /// Most players of the game.
    pub max_players: usize,
}

/// Why a challenged player's settings stop a challenge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChallengeBlock {
    /// Their limit is 0.
    TakesNone {
        /// The challenged player.
        userid: String,
        /// The game.
        game: Game,
    },
    /// They have as many games going on as their limit.
    AtLimit {
        /// The challenged player.
        userid: String,
        /// The game.
        game: Game,
        /// Their limit.
        max: u32,
        /// Their games of the type going on.
        active: u32,
    },
    /// The challenger is on their reject list.
    Rejects {
        /// The challenged player.
        userid: String,
        /// The game.
        game: Game,
        /// The challenger.
        challenger: String,
    },
    /// They have an accept list without the challenger.
    NotAccepted {
        /// The challenged player.
        userid: String,
        /// The game.
        game: Game,
        /// The challenger.
        challenger: String,
    },
}

/// Refusals of playing commands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayRefusal {
    /// No such board of the game.
    NoSuchBoard {
        /// The game.
        game: Game,
        /// The board asked for.
        board: u32,
    },
    /// A challenge names too few or too many players.
    PlayerCount {
        /// How a challenge is written.
        usage: ChallengeUsage,
        /// Players named.
        named: usize,
    },
    /// A challenge names someone not signed up.
    NotRegistered {
        /// The userid as written.
        userid: String,
        /// How a challenge is written.
        usage: ChallengeUsage,
    },
    /// A challenge names a player twice.
    NamedTwice {
        /// The userid as written.
        userid: String,
        /// How a challenge is written.
        usage: ChallengeUsage,
    },
    /// A challenge names a robot of a game without one.
    NoRobot {
        /// The userid as written.
        userid: String,
        /// How a challenge is written.
        usage: ChallengeUsage,
    },
    /// By mail, a challenge names robots only.
    RobotsOnly {
        /// How a challenge is written.
        usage: ChallengeUsage,
    },
    /// By mail, a challenge to a robot comes from someone who is not shown to be one of its
    /// people (no `--password`, and not sent from a player's registered address).
    RobotChallengeByStranger {
        /// How a challenge is written.
        usage: ChallengeUsage,
    },
    /// By mail, a challenge to a robot from a person who already has the day's allowance of games
    /// against robots (`unsolicited_challenges_per_day`, the same number as the games others may put
    /// a person in a day).
    RobotGamesToday {
        /// The person at the limit.
        userid: String,
        /// Games against robots a person may start in a day.
        max: u32,
        /// When (Unix seconds) the oldest of the day's games is a day old and one more may start.
        next_at: i64,
        /// How a challenge is written.
        usage: ChallengeUsage,
    },
    /// The rules refused the challenge's options.
    BadOptions {
        /// What the rules said.
        error: RuleError,
        /// How a challenge is written.
        usage: ChallengeUsage,
    },
    /// A challenged player's limit or lists stop the challenge.
    Blocked {
        /// Every reason, in seat order.
        reasons: Vec<ChallengeBlock>,
    },
    /// The player does not play this board.
    NotAPlayer {
        /// The player.
        userid: String,
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// Its players.
        players: Vec<String>,
    },
    /// A move on a finished game.
    Over {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// The board's status line.
        status: String,
    },
    /// A rematch of a game still being played.
    RematchOfRunning {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// The board's status line.
        status: String,
        /// Its players, seat by seat.
        players: Vec<String>,
    },
    /// A move out of turn.
    NotYourTurn {
        /// The board.
        board: u32,
        /// The board's status line (who is to move).
        status: String,
    },
    /// A move whose `#N` is not the move awaited.
    MoveGuard {
        /// The board.
        board: u32,
        /// The move number written.
        meant: u32,
        /// The move number awaited.
        at: u32,
    },
    /// The rules refused the move.
    Illegal {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// The player.
        userid: String,
        /// The move as written (trimmed).
        mv: String,
        /// What the rules said.
        error: RuleError,
    },
    /// The rules refused an act (a resignation, a draw, showing an earlier move).
    Rules(RuleError),
    /// A preview goes on after the game ended.
    PreviewOver {
        /// Moves of the preview played before.
        after: usize,
        /// The move that cannot follow.
        mv: String,
    },
    /// A preview's move is not legal.
    PreviewIllegal {
        /// Its place in the preview, from 1.
        number: usize,
        /// The move.
        mv: String,
        /// What the rules said.
        error: RuleError,
    },
}

/// An open proposal as the texts describe it: `alice proposes a draw (move 12)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenProposal {
    /// The proposer's userid.
    pub proposer: String,
    /// What is proposed.
    pub kind: ProposalKind,
    /// For an undo, the move it goes back to, when that can still be said.
    pub undo_to: Option<u32>,
    /// The move awaited when it was proposed.
    pub move_number: u32,
}

/// Refusals of proposals, answers and queued moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProposalRefusal {
    /// The command's `#N` is not the move awaited.
    Guard {
        /// The board.
        board: u32,
        /// The move number written.
        meant: u32,
        /// The move number awaited.
        at: u32,
    },
    /// A proposal on a finished game.
    Over {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// The board's status line.
        status: String,
    },
    /// A proposal by a player who left the game.
    ProposerOut {
        /// The player.
        userid: String,
        /// The board.
        board: u32,
    },
    /// The board has an open proposal already.
    AlreadyOpen {
        /// The board.
        board: u32,
        /// The open proposal.
        open: OpenProposal,
    },
    /// An undo by a player who has made no move.
    NothingToUndo,
    /// An undo across a resignation or forfeit.
    UndoPastLeaving {
        /// The proposer's last own move.
        last: usize,
        /// The move that left the game after it.
        leaving: usize,
        /// `resign` or `forfeit`.
        what: String,
    },
    /// The rules cannot go back to that move.
    UndoImpossible {
        /// The move to go back to.
        target: u32,
        /// What the rules said.
        error: RuleError,
    },
    /// Going back would not make it the proposer's turn.
    UndoNotYourTurn {
        /// The move to go back to.
        target: u32,
    },
    /// An accepted undo the rules could not carry out.
    UndoFailed {
        /// What the rules said.
        error: RuleError,
    },
    /// `accept` or `reject` with no proposal open.
    NoneOpen {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// The player answering.
        userid: String,
        /// True for `accept`, false for `reject`.
        accept: bool,
    },
    /// An answer to one's own proposal.
    OwnProposal {
        /// The proposal.
        open: OpenProposal,
    },
    /// An answer by a player who left the game.
    AnswererOut {
        /// The player.
        userid: String,
        /// The board.
        board: u32,
    },
    /// `accept` twice.
    AlreadyAccepted {
        /// The proposal.
        open: OpenProposal,
    },
    /// A queued move the rules cannot read.
    QueueUnreadable {
        /// The board.
        board: u32,
        /// What the rules said.
        error: RuleError,
    },
    /// A queued move on a finished game.
    QueueOver {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// The board's status line.
        status: String,
    },
    /// A queued move on one's own turn.
    QueueOnTurn {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// The player.
        userid: String,
        /// The move (trimmed).
        mv: String,
    },
    /// A queued move by a player who left the game.
    QueueOut {
        /// The player.
        userid: String,
        /// The board.
        board: u32,
    },
    /// A queued move whose `#N` has passed.
    QueueGuard {
        /// The board.
        board: u32,
        /// The move number written.
        meant: u32,
        /// The move number the board is at.
        at: u32,
    },
}

/// Refusals of subscriptions and of the challenge lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SocialRefusal {
    /// A game command that is not one of this family (the dispatch never sends one).
    NotSocial {
        /// The game.
        game: Game,
    },
    /// A player subscribing to their own game.
    OwnGame {
        /// The player.
        userid: String,
        /// The game.
        game: Game,
        /// The board.
        board: u32,
    },
    /// A subscription to a finished game.
    Finished {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
    },
    /// Subscribed already.
    AlreadySubscribed {
        /// The player.
        userid: String,
        /// The game.
        game: Game,
        /// The board.
        board: u32,
    },
    /// `unsubscribe` from a board not subscribed to.
    NotSubscribed {
        /// The player.
        userid: String,
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// The boards of the game the player does follow.
        following: Vec<u32>,
    },
    /// An accept or reject list names someone not signed up.
    ListNotRegistered {
        /// The userid as written.
        userid: String,
        /// The game.
        game: Game,
        /// Which list.
        list: ChallengeList,
    },
    /// A player names themself in their own list.
    ListNamesSelf {
        /// The userid as written.
        userid: String,
        /// The game.
        game: Game,
        /// Which list.
        list: ChallengeList,
    },
}

/// Refusals of a challenge's clock options and of vacations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClockRefusal {
    /// An option other than `--nagtime` and `--forfeittime`.
    UnknownOption {
        /// The option's name as written.
        name: String,
        /// How a challenge is written.
        usage: ChallengeUsage,
    },
    /// An option given twice.
    OptionTwice {
        /// The option's name as written.
        name: String,
        /// How a challenge is written.
        usage: ChallengeUsage,
    },
    /// An option without a number of days in range.
    BadDays {
        /// The option's name as written.
        name: String,
        /// Its value as written.
        value: Option<String>,
        /// The most days allowed.
        max: u32,
        /// How a challenge is written.
        usage: ChallengeUsage,
    },
    /// The forfeit time is not longer than the nag time.
    ForfeitNotAfterNag {
        /// Days before a forfeit.
        forfeit_days: u32,
        /// False when that is the server's.
        forfeit_given: bool,
        /// Days before a reminder.
        nag_days: u32,
        /// False when that is the server's.
        nag_given: bool,
        /// How a challenge is written.
        usage: ChallengeUsage,
    },
    /// A vacation whose last day has passed.
    VacationPast {
        /// Its last day.
        to: NaiveDate,
        /// Today (UTC).
        today: NaiveDate,
    },
    /// A vacation that starts before today.
    VacationStartsPast {
        /// Its first day.
        from: NaiveDate,
        /// Today (UTC).
        today: NaiveDate,
    },
    /// A vacation that is too long.
    VacationTooLong {
        /// Its first day.
        from: NaiveDate,
        /// Its last day.
        to: NaiveDate,
        /// Its days.
        length: i64,
        /// The most days allowed.
        max: i64,
    },
    /// A vacation too far ahead.
    VacationTooFarAhead {
        /// Its first day.
        from: NaiveDate,
        /// The most days ahead allowed.
        max_ahead: i64,
    },
}

/// Refusals of player-to-player mail and of chat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MessageRefusal {
    /// A `message` with an empty body.
    Empty,
    /// A `message` to someone not signed up.
    NotRegistered {
        /// The userid as written.
        userid: String,
    },
    /// Past the daily allowance of recipients.
    TooMany {
        /// Recipients allowed a day.
        per_day: u32,
        /// Recipients written to in the last 24 hours.
        sent: u32,
    },
    /// A chat with an empty body.
    EmptyChat {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// The player.
        userid: String,
    },
    /// Past the daily allowance of chats and messages from one player to another.
    TooManyTo {
        /// The player who would get one more.
        to: String,
        /// Chats and messages allowed from one player to another in 24 hours.
        per_day: u32,
        /// When the first of those counted was sent (unix seconds): a day after it, one more may go.
        first_at: i64,
        /// True for a chat, false for a `message`.
        chat: bool,
    },
    /// A chat on a game that is over (finished, declined, cancelled) from a player who never
    /// moved in it.
    ChatClosed {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// The player.
        userid: String,
    },
}

/// Refusals of `help`, and of a command for a game the server does not host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HelpRefusal {
    /// `help` on something unknown.
    NoHelp {
        /// The words asked about.
        subject: Vec<String>,
        /// The command nearest to the first word, if one is near.
        nearest: Option<String>,
        /// The games hosted.
        hosted: Vec<String>,
    },
    /// A game command for a game not hosted.
    UnknownGame {
        /// The game word as written.
        game: String,
        /// The games hosted.
        hosted: Vec<String>,
    },
}

/// Refusals of the lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ListRefusal {
    /// `list` of a game not hosted.
    UnknownGame {
        /// The game word as written.
        game: String,
        /// The games hosted.
        hosted: Vec<String>,
    },
    /// `games` of someone not signed up.
    NotRegistered {
        /// The userid as written.
        userid: String,
        /// The game.
        game: Game,
    },
    /// `history N -sgf` of a game that has no SGF form.
    NoSgf {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
    },
}

/// Refusals of the admin's overrides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AdminRefusal {
    /// No such player.
    NotRegistered {
        /// The userid as written.
        userid: String,
    },
    /// The player does not play the board.
    NotOnBoard {
        /// The userid as written.
        userid: String,
        /// The board.
        board: u32,
    },
    /// The winner named is out of the game.
    CannotWin {
        /// The userid as written.
        userid: String,
        /// The board.
        board: u32,
    },
    /// The player coming in plays the board already.
    AlreadyPlays {
        /// The player.
        userid: String,
        /// The board.
        board: u32,
    },
    /// A robot for a game without one.
    NoRobot {
        /// The robot's userid.
        userid: String,
        /// The game.
        game: Game,
    },
    /// The board disappeared during the override.
    Vanished {
        /// The board.
        board: u32,
    },
    /// Nothing to take back.
    NothingToTakeBack {
        /// The board.
        board: u32,
    },
    /// The rules could not go back.
    TakeBackFailed {
        /// What the rules said.
        error: RuleError,
    },
    /// No `--reason`.
    NoReason,
    /// A game not hosted.
    UnknownGame {
        /// The game word as written.
        game: String,
    },
    /// The game is over.
    Finished {
        /// The board.
        board: u32,
    },
}

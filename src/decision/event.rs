//! What a command did, as values: a game started, a move played, a player resigned, a game ended and
//! how it was rated; proposals, queued moves, forfeits and the admin's overrides; and what account
//! commands did. The board mails themselves are written by [`crate::summary`]; [`crate::mail_text`]
//! writes the prose these events add (the new-game notice, notices, verdict lines, rating changes)
//! and the answers to account commands.

use chrono::NaiveDate;

use super::{Game, RuleError};
use crate::games;
use crate::model::{MailSetting, ProposalKind};
use crate::storage::{ChallengeList, GameResult};

/// Something a command did: to a game, or to an account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// An account changed.
    Account(AccountEvent),
    /// A challenge started a game.
    GameStarted {
        /// The game.
        game: Game,
        /// Its board.
        board: u32,
        /// The players, in seat order.
        players: Vec<String>,
    },
    /// A player's move was played (robots' answers and queued moves are played by the same rules but
    /// are not reported as events of the command).
    MovePlayed {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// The mover's seat, 0-based.
        seat: usize,
        /// The mover.
        userid: String,
        /// The move as written (trimmed).
        mv: String,
        /// The move's number.
        move_number: u32,
    },
    /// A player resigned.
    Resigned {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// The seat, 0-based.
        seat: usize,
        /// The player.
        userid: String,
        /// True when they had never agreed to the game: they declined it.
        declined: bool,
    },
    /// The game ended.
    GameEnded {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// Who won, or who shared the draw (seats).
        result: games::Outcome,
        /// What the ratings made of it.
        settlement: Settlement,
    },
    /// A player agreed to a game by `accept` (with no proposal open).
    GameAccepted {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// The player.
        userid: String,
        /// The players who still have not agreed (the game is rated once none is left).
        waiting: Vec<String>,
    },
    /// A player proposed an undo or a draw.
    ProposalMade {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// The proposer.
        userid: String,
        /// What was proposed.
        kind: ProposalKind,
    },
    /// A player accepted an open proposal; others have yet to.
    ProposalAccepted {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// The player accepting.
        userid: String,
        /// The proposer.
        proposer: String,
        /// What was proposed.
        kind: ProposalKind,
    },
    /// A player rejected an open proposal: nothing changes.
    ProposalRejected {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// The player rejecting.
        userid: String,
        /// The proposer.
        proposer: String,
        /// What was proposed.
        kind: ProposalKind,
    },
    /// Everyone accepted a draw proposal: the game is drawn.
    DrawAgreed {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// The proposer.
        proposer: String,
    },
    /// Everyone accepted an undo: moves `back_to` to `last` are taken back.
    UndoAgreed {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// The proposer, whose turn it is again.
        proposer: String,
        /// The move the game is back at.
        back_to: u32,
        /// The last move taken back.
        last: u32,
    },
    /// An open proposal ended unanswered because the game changed (or ended).
    ProposalClosed {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// The proposer.
        proposer: String,
        /// What was proposed.
        kind: ProposalKind,
        /// True when the game is over; false when it only changed.
        game_over: bool,
    },
    /// A player queued a move for their turn.
    MoveQueued {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// The player.
        userid: String,
        /// The move (trimmed).
        mv: String,
        /// The move number it is meant for, if given.
        guard: Option<u32>,
        /// The queued move it replaces, if any.
        replaced: Option<String>,
    },
    /// A queued move came due and was played.
    QueuedMovePlayed {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// Whose move it was.
        userid: String,
        /// The move's number.
        move_number: u32,
        /// The move.
        mv: String,
        /// When it was queued (unix seconds).
        queued_at: i64,
    },
    /// A queued move came due and could not be played: it was dropped.
    QueuedMoveDropped {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// Whose move it was.
        userid: String,
        /// The move.
        mv: String,
        /// Why it was not played.
        why: Dropped,
    },
    /// A player subscribed to a board's mails.
    Subscribed {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// The player.
        userid: String,
        /// Where the board mails go.
        addresses: Vec<String>,
    },
    /// A player unsubscribed from a board.
    Unsubscribed {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// The player.
        userid: String,
        /// The boards of the game they still follow.
        following: Vec<u32>,
    },
    /// A player changed a setting of theirs for a game type (`notify`, `limit`, `accept`, `reject`).
    SettingChanged {
        /// The game.
        game: Game,
        /// The player.
        userid: String,
        /// What changed.
        change: SettingChange,
    },
    /// The clock reminded the player to move.
    Nagged {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// The player to move.
        userid: String,
        /// Whole days the wait has counted so far.
        days: i64,
        /// True when days on vacation were left out of them.
        vacation_left_out: bool,
        /// When the wait began (the last change of the game; unix seconds).
        since: i64,
        /// When the player loses on time (unix seconds).
        deadline: i64,
        /// Days without a move before a reminder.
        nag_days: u32,
        /// Days without a move before the forfeit.
        forfeit_days: u32,
        /// True when a draw proposal is open: the forfeit time draws the game instead.
        draw_open: bool,
    },
    /// The player to move lost on time.
    Forfeited {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// The player.
        userid: String,
        /// The forfeit time, in days.
        days: u32,
    },
    /// The player to move ran out of time with a draw proposal open: it was accepted instead.
    DrawAtForfeit {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// Who proposed the draw.
        proposer: String,
        /// The player who did not move.
        userid: String,
        /// The forfeit time, in days.
        days: u32,
    },
    /// The admin ended a game.
    AdminEnded {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// The winner; `None`: a draw between the players still in.
        winner: Option<String>,
        /// True: ended unrated.
        cancelled: bool,
        /// The admin's reason.
        reason: String,
    },
    /// The admin put another player in a seat.
    SeatReplaced {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// The player leaving.
        old: String,
        /// The player coming in.
        new: String,
        /// The admin's reason.
        reason: String,
    },
    /// The admin took back the last move.
    MoveTakenBack {
        /// The game.
        game: Game,
        /// The board.
        board: u32,
        /// The move's number.
        move_number: usize,
        /// The move.
        mv: String,
        /// The admin's reason.
        reason: String,
    },
}

/// What an account command did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AccountEvent {
    /// A player signed up.
    SignedUp {
        /// The new userid.
        userid: String,
        /// The addresses that take its mail now.
        confirmed: Vec<String>,
        /// The addresses that wait for confirmation.
        pending: Pending,
    },
    /// A player's addresses were changed by `change address`.
    AddressesChanged {
        /// The player.
        userid: String,
        /// The addresses that take the mail now.
        addresses: Vec<String>,
        /// The addresses that wait for confirmation.
        pending: Pending,
    },
    /// An address answered its confirmation mail.
    AddressConfirmed {
        /// The player.
        userid: String,
        /// The address confirmed.
        address: String,
        /// The addresses that take the mail now.
        addresses: Vec<String>,
    },
    /// A player's password was changed.
    PasswordChanged {
        /// The player.
        userid: String,
        /// How.
        by: PasswordChange,
    },
    /// `password reset` was asked for (the answer is the same whether or not a code went out, so
    /// that it tells a stranger nothing).
    PasswordResetAsked {
        /// The userid as written.
        userid: String,
        /// Codes sent to an account a day, at most.
        codes_per_day: u32,
    },
    /// A player signed off.
    SignedOff {
        /// The player.
        userid: String,
    },
    /// A player set a vacation.
    VacationSet {
        /// The player.
        userid: String,
        /// The first day away (UTC).
        from: NaiveDate,
        /// The last day away (UTC).
        to: NaiveDate,
        /// True when it replaces a vacation set before.
        replaced: bool,
    },
    /// `vacation ... off`.
    VacationEnded {
        /// The player.
        userid: String,
        /// False when there was no vacation, current or planned, to end.
        ended: bool,
    },
    /// `set userid password ...`: a mail setting.
    MailSettingSet {
        /// The player.
        userid: String,
        /// The setting as it is now.
        setting: MailSetting,
        /// False when it was so already.
        changed: bool,
        /// Every mail setting of the player as it stands now (this one among them).
        all: Vec<MailSetting>,
        /// True when turning the digest off sent the pending one at once, in a mail of its own.
        digest_sent: bool,
    },
    /// A player's message went to other players.
    MessageSent {
        /// The sender.
        userid: String,
        /// The recipients, in the order named.
        to: Vec<String>,
    },
}

/// A change of a player's settings for a game type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettingChange {
    /// New-game notices on or off.
    Notices {
        /// On or off now.
        on: bool,
        /// False when they were so already.
        changed: bool,
    },
    /// `notify` with board numbers: subscriptions.
    Boards {
        /// Boards newly subscribed to.
        new: Vec<u32>,
        /// Boards subscribed to before.
        already: Vec<u32>,
    },
    /// The limit of games by challenge; `None`: lifted.
    Limit(Option<u32>),
    /// The accept or reject list, as now set (empty: cleared).
    List {
        /// Which list.
        list: ChallengeList,
        /// The userids, as written.
        userids: Vec<String>,
    },
}

/// Addresses of an account that wait for confirmation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pending {
    /// The addresses, as given.
    pub addresses: Vec<String>,
    /// True when a confirmation mail went to the first of them (one a mail, and the hourly cap).
    pub mailed: bool,
}

/// How a password was changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PasswordChange {
    /// `change password` with the old one.
    ByPassword,
    /// `password set` with the code of a reset mail.
    ByResetCode,
    /// The admin's override at the shell.
    ByAdmin,
}

/// Why a queued move that came due was not played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dropped {
    /// Its `#N` was not the move at which the turn came.
    WrongMove {
        /// The move number written.
        meant: u32,
        /// The move the turn came at.
        at: u32,
    },
    /// The rules refused it.
    Illegal(RuleError),
}

/// How a game that has just ended was rated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Settlement {
    /// Rated: every seat's result and rating change.
    Rated(Vec<GameResult>),
    /// Not rated: these players never agreed to the game.
    NotAgreed(Vec<String>),
    /// Not rated: robots alone played it (robots' ratings move only in games a person played).
    RobotsOnly,
    /// Nothing new for the ratings: the admin cancelled the game (unrated), or it was settled before.
    Unchanged,
}

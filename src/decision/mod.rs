//! What the server decided, as values: why a command was refused ([`Refusal`]) and what a command did
//! ([`Event`]) or looked up ([`Listing`]), before any English is written. [`crate::server`] decides; [`crate::mail_text`] turns a decision into the mail a player
//! reads; a web page, a robot or a JSON API can read the same values without parsing prose.
//!
//! This module depends on neither of them (server -> decision, server -> mail_text -> decision), so
//! each variant carries every datum its text needs: userids, boards, game names, limits, and the
//! errors that are already typed elsewhere ([`AccountError`], [`RuleError`]).

mod event;
mod listing;
mod refusal;

pub use event::{AccountEvent, Dropped, Event, PasswordChange, Pending, SettingChange, Settlement};

pub use listing::{FinishedGame, Hosted, ListedGame, Listing, PlayerGames};

pub use refusal::{
    AccountRefusal, AdminRefusal, ChallengeBlock, ChallengeUsage, ClockRefusal, HelpRefusal,
    ListRefusal, MailRefusal, MessageRefusal, OpenProposal, PlayRefusal, ProposalRefusal, Refusal,
    SocialRefusal,
};

use crate::games::GameRules;

pub use crate::accounts::AccountError;
pub use crate::games::RuleError;

/// A game type as the texts name it: `limit` in commands, `Limit` in prose and Subjects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Game {
    /// The word commands use (`limit`).
    pub name: &'static str,
    /// The title (`Limit`).
    pub title: &'static str,
}

impl Game {
    /// The names of a hosted game.
    pub fn of(rules: &dyn GameRules) -> Game {
        Game {
            name: rules.name(),
            title: rules.title(),
        }
    }
}

/// A refused command: why, and the board it concerns, if any (the error mail names that board in its
/// Subject and shows it under the reason).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// Why the command was refused.
    pub refusal: Refusal,
    /// The game type's command word and the board number.
    pub board: Option<(String, u32)>,
}

impl Refused {
    /// A refusal that concerns no particular board.
    pub fn new(refusal: impl Into<Refusal>) -> Refused {
        Refused {
            refusal: refusal.into(),
            board: None,
        }
    }

    /// A refusal about `board` of the game type `game` (its command word).
    pub fn on(refusal: impl Into<Refusal>, game: &str, board: u32) -> Refused {
        Refused {
            refusal: refusal.into(),
            board: Some((game.to_string(), board)),
        }
    }
}

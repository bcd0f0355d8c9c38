//! Words the command language, the store and the server share: what a command asks for, as the store
//! keeps it. Here rather than in [`crate::command`] so that the store needs nothing of the parser.

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

/// A player's setting of how the server mails them (`set userid password ...`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MailSetting {
    /// `digest on|off`: one mail a day listing the games on move, instead of a board mail per move.
    Digest(bool),
    /// `mail text|html`: `true` for text only (no HTML part, no picture).
    TextOnly(bool),
    /// `subject plain|state`: `true` (the default) for one Subject a game (`Limit Board 101`), so
    /// that Gmail, which starts a new conversation when the Subject changes, keeps a game in one.
    PlainSubject(bool),
}

impl MailSetting {
    /// The words that set it, as written after the password: `digest on`, `mail text`.
    pub fn words(self) -> &'static str {
        match self {
            MailSetting::Digest(true) => "digest on",
            MailSetting::Digest(false) => "digest off",
            MailSetting::TextOnly(true) => "mail text",
            MailSetting::TextOnly(false) => "mail html",
            MailSetting::PlainSubject(true) => "subject plain",
            MailSetting::PlainSubject(false) => "subject state",
        }
    }

    /// The words that undo it.
    pub fn undo(self) -> MailSetting {
        match self {
            MailSetting::Digest(on) => MailSetting::Digest(!on),
            MailSetting::TextOnly(on) => MailSetting::TextOnly(!on),
            MailSetting::PlainSubject(on) => MailSetting::PlainSubject(!on),
        }
    }
}

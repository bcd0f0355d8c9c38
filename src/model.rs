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

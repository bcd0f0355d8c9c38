//! The command table: one [`CommandDef`] per command, from which the parser, the usage and help
//! texts, the typo hints and the password masking all read.
//!
//! Adding a command: a [`CommandDef`] here, its parse function (in `server_args` or `game_args`),
//! its variant of [`RawCommand`] or [`GameCommand`] (with its canonical words in `ast`, and its
//! login in [`RawCommand::login`] if it takes a password: a table test checks that), and the
//! server's handling of it.

use std::sync::LazyLock;

use super::args::{Args, Problem};
use super::ast::{GameCommand, RawCommand};
use super::{game_args as g, server_args as s};

/// Where a command is written: on its own, or after a game's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// `signup ...`, `change password ...`: a command of the server.
    Server,
    /// `<game> move ...`: a command for one game type.
    Game,
}

/// How a command's words (after its own words) are read into a command.
#[derive(Clone, Copy)]
pub(crate) enum Parse {
    /// A server command.
    Server(fn(&Args<'_>) -> Result<RawCommand, Problem>),
    /// A game's command.
    Game(fn(&Args<'_>) -> Result<GameCommand, Problem>),
}

/// One command of the language.
pub(crate) struct CommandDef {
    /// The words that name it, lowercase: `["signup"]`, `["change", "password"]`; for a game's
    /// command the word after the game's name: `["move"]`. A server command of two words belongs to
    /// the [`Group`] of its first word.
    pub words: &'static [&'static str],
    /// Other spellings of the first word, taken as it is (`add` for `signup`).
    pub aliases: &'static [&'static str],
    /// How it is written, one line per form, without the game's name (it is put in front of each).
    pub usage: &'static [&'static str],
    /// Its lines in the list of commands of the `help` mail.
    pub help: &'static [&'static str],
    /// Which of the words after the command's own words are passwords (0-based). In a line that does
    /// not parse, or whose command word is one or two letters off, the words at the same places are
    /// the first candidates the server checks against the writer's password.
    pub passwords: &'static [usize],
    /// Reads its words.
    pub parse: Parse,
}

impl CommandDef {
    /// Whether it is a server command or a game's.
    pub fn scope(&self) -> Scope {
        match self.parse {
            Parse::Server(_) => Scope::Server,
            Parse::Game(_) => Scope::Game,
        }
    }

    /// How many words of a line come before the command's own arguments: its own words, and the
    /// game's name for a game's command.
    pub fn prefix_len(&self) -> usize {
        match self.scope() {
            Scope::Server => self.words.len(),
            Scope::Game => 1 + self.words.len(),
        }
    }

    /// Its first word and the aliases of it.
    pub fn spellings(&self) -> impl Iterator<Item = &'static str> {
        std::iter::once(self.words[0]).chain(self.aliases.iter().copied())
    }
}

/// Server commands that share a first word (`change password`, `change address`).
pub(crate) struct Group {
    /// The shared first word.
    pub word: &'static str,
    /// What is wrong when the second word is missing (`None`) or names no member (`Some`, as it may
    /// be quoted).
    pub problem: fn(Option<&str>) -> String,
    /// The password places (after the group's word) of a line whose second word names no member
    /// with passwords: every word that could be one (the first candidates, as for `passwords`).
    pub unreadable: &'static [usize],
}

/// The groups of server commands.
pub(crate) static GROUPS: &[Group] = &[
    Group {
        word: "change",
        problem: |second| match second {
            Some(w) => format!(
                "'change {w}' is not a command: change either your password or your address"
            ),
            None => "'change' needs 'password' or 'address' after it".to_string(),
        },
        unreadable: &[1, 2, 3],
    },
    Group {
        word: "password",
        problem: |_| {
            "'password' needs 'reset' or 'set' after it (to change a password you know, use \
             `change password`)"
                .to_string()
        },
        unreadable: &[2, 3],
    },
];

/// Every command, server commands first, in the order the lists of commands show them.
pub(crate) static TABLE: &[CommandDef] = &[
    CommandDef {
        words: &["help"],
        aliases: &[],
        usage: &["help [<subject>...]"],
        help: &["help [subject...]                      this help, or a game's help: help limit"],
        passwords: &[],
        parse: Parse::Server(s::help),
    },
    CommandDef {
        words: &["signup"],
        aliases: &["add"],
        usage: &["signup <userid> <password> [<address>...]"],
        help: &[
            "signup userid password [address...]    register (userid: 1-20 letters, digits, _ or -)",
        ],
        passwords: &[1],
        parse: Parse::Server(s::signup),
    },
    CommandDef {
        words: &["change", "password"],
        aliases: &[],
        usage: &["change password <userid> <old password> <new password>"],
        help: &["change password userid old new"],
        passwords: &[1, 2],
        parse: Parse::Server(s::change_password),
    },
    CommandDef {
        words: &["change", "address"],
        aliases: &[],
        usage: &["change address <userid> <password> [<address>...]"],
        help: &["change address userid password [address...]"],
        passwords: &[1],
        parse: Parse::Server(s::change_address),
    },
    CommandDef {
        words: &["signoff"],
        aliases: &[],
        usage: &["signoff <userid> <password>"],
        help: &["signoff userid password"],
        passwords: &[1],
        parse: Parse::Server(s::signoff),
    },
    CommandDef {
        words: &["message"],
        aliases: &[],
        usage: &["message <userid> <password> <to userid>...   (the mail body is the message)"],
        help: &[
            "message userid password to-userid...   the mail's body to other players (no addresses shown)",
        ],
        passwords: &[1],
        parse: Parse::Server(s::message),
    },
    CommandDef {
        words: &["password", "reset"],
        aliases: &[],
        usage: &["password reset <userid>   (a one-time code goes to your address)"],
        help: &[
            "password reset userid                  forgot it: a one-time code goes to your address",
        ],
        passwords: &[],
        parse: Parse::Server(s::password_reset),
    },
    CommandDef {
        words: &["password", "set"],
        aliases: &[],
        usage: &["password set <userid> <code> <new password>   (the code of the reset mail)"],
        help: &[
            "password set userid code new           a new password with that code (within 24 hours)",
        ],
        // The code of a reset mail is as good as a password until it is used.
        passwords: &[1, 2],
        parse: Parse::Server(s::password_set),
    },
    CommandDef {
        words: &["confirm"],
        aliases: &[],
        usage: &["confirm <userid> <code>   (from the address being confirmed)"],
        help: &[
            "confirm userid code                    from an address given to signup or change",
            "                                       address: the code of its confirmation mail",
        ],
        // The code only confirms an address, and only when sent from that address.
        passwords: &[],
        parse: Parse::Server(s::confirm),
    },
    CommandDef {
        words: &["list"],
        aliases: &[],
        usage: &["list [<game>...]"],
        help: &["list                                   the games this server hosts"],
        passwords: &[],
        parse: Parse::Server(s::list),
    },
    CommandDef {
        words: &["vacation"],
        aliases: &[],
        usage: &[
            "vacation <userid> <password> <first day> <last day>   (days as YYYY-MM-DD, UTC)",
            "vacation <userid> <password> off",
        ],
        help: &[
            "vacation userid password FROM TO       away from day FROM to day TO (YYYY-MM-DD, UTC,",
            "                                       at most 60 days): no reminders or forfeits",
            "vacation userid password off           back early (also drops a planned vacation)",
        ],
        passwords: &[1],
        parse: Parse::Server(s::vacation),
    },
    CommandDef {
        words: &["set"],
        aliases: &[],
        usage: &[
            "set <userid> <password> digest on|off   (on: a mail a day, not a move)",
            "set <userid> <password> mail text|html   (text: no picture)",
            "set <userid> <password> subject plain|state   (state: in the Subject)",
        ],
        help: &[
            "set userid password digest on|off      on: a mail a day, not one a move",
            "set userid password mail text|html     text: no picture, no HTML part",
            "set userid password subject plain|state   plain (the default): one Subject a game, \
             one Gmail conversation; state: the state in it, `Hex Board 101: your move`",
        ],
        passwords: &[1],
        parse: Parse::Server(s::set),
    },
    CommandDef {
        words: &["help"],
        aliases: &[],
        usage: &["help"],
        help: &["<game> help"],
        passwords: &[],
        parse: Parse::Game(g::help),
    },
    CommandDef {
        words: &["challenge"],
        aliases: &[],
        usage: &["challenge [-option[=value]...] <userid1> <userid2> [<userid3>]"],
        help: &["<game> challenge [options] [--password=PW] userid1 userid2 [userid3]"],
        // `--password=PW` is found wherever it stands (see `redact`).
        passwords: &[],
        parse: Parse::Game(g::challenge),
    },
    CommandDef {
        words: &["move"],
        aliases: &[],
        usage: &[
            "move <board> <userid> <password> <move>[#N]",
            "move <board> <userid> <password> propose undo|draw",
            "move <board> <userid> <password> accept|reject",
        ],
        help: &[
            "<game> move board userid password move[#N]   (move may be `resign`)",
            "<game> move board userid password accept|reject   agree to a new game, or decline it",
        ],
        passwords: &[2],
        parse: Parse::Game(g::move_),
    },
    CommandDef {
        words: &["resign"],
        aliases: &[],
        usage: &["resign <board> <userid> <password>"],
        help: &["<game> resign board userid password"],
        passwords: &[2],
        parse: Parse::Game(g::resign),
    },
    CommandDef {
        words: &["rematch"],
        aliases: &[],
        usage: &["rematch <board> <userid> <password>"],
        help: &["<game> rematch board userid password   the same game again, colours swapped"],
        passwords: &[2],
        parse: Parse::Game(g::rematch),
    },
    CommandDef {
        words: &["show"],
        aliases: &[],
        usage: &["show <board>[#N]..."],
        help: &["<game> show board[#N]..."],
        passwords: &[],
        parse: Parse::Game(g::show),
    },
    CommandDef {
        words: &["history"],
        aliases: &[],
        usage: &["history [<board> [-record | -sgf] | page <n>]"],
        help: &[
            "<game> history [board]                finished games with rating changes, or one game",
            "<game> history board -record          the game record (text, attached); -sgf: as SGF",
        ],
        passwords: &[],
        parse: Parse::Game(g::history),
    },
    CommandDef {
        words: &["ratings"],
        aliases: &[],
        usage: &["ratings"],
        help: &["<game> ratings                        the rating list (Elo, from 1600)"],
        passwords: &[],
        parse: Parse::Game(g::ratings),
    },
    CommandDef {
        words: &["standings"],
        aliases: &[],
        usage: &["standings"],
        help: &["<game> standings                      games played, won, lost, drawn, active"],
        passwords: &[],
        parse: Parse::Game(g::standings),
    },
    CommandDef {
        words: &["games"],
        aliases: &[],
        usage: &["games <userid>... [active|all|finished|next]   (next: where it is their turn)"],
        help: &["<game> games userid [active|all|finished|next]"],
        passwords: &[],
        parse: Parse::Game(g::games),
    },
    CommandDef {
        words: &["preview"],
        aliases: &[],
        usage: &["preview <board> <move>..."],
        help: &["<game> preview board move..."],
        passwords: &[],
        parse: Parse::Game(g::preview),
    },
    CommandDef {
        words: &["queue"],
        aliases: &[],
        usage: &["queue <board> <userid> <password> <move>[#N]   (played when your turn comes)"],
        // The help explains it with the proposals, in a section of its own.
        help: &[],
        passwords: &[2],
        parse: Parse::Game(g::queue),
    },
    CommandDef {
        words: &["chat"],
        aliases: &[],
        usage: &["chat <board> <userid> <password>   (the mail body is the message)"],
        help: &["<game> chat board userid password     (the body is the message)"],
        passwords: &[2],
        parse: Parse::Game(g::chat),
    },
    CommandDef {
        words: &["subscribe"],
        aliases: &[],
        usage: &["subscribe <board> <userid> <password>   (get every board mail of a game)"],
        help: &[
            "<game> subscribe board userid password     every board mail of a game, as a spectator",
        ],
        passwords: &[2],
        parse: Parse::Game(g::subscribe),
    },
    CommandDef {
        words: &["unsubscribe"],
        aliases: &[],
        usage: &["unsubscribe <board> <userid> <password>"],
        help: &["<game> unsubscribe board userid password"],
        passwords: &[2],
        parse: Parse::Game(g::unsubscribe),
    },
    CommandDef {
        words: &["notify"],
        aliases: &[],
        usage: &["notify <userid> <password> [on|off|<board>...]   (mail me about new games)"],
        help: &[
            "<game> notify userid password [on|off|board...]   mail me about each new game",
            "                                       (board numbers: subscribe to those games)",
        ],
        passwords: &[1],
        parse: Parse::Game(g::notify),
    },
    CommandDef {
        words: &["limit"],
        aliases: &[],
        usage: &["limit <userid> <password> [<N>|off]   (at most N active games by challenge)"],
        help: &[
            "<game> limit userid password [N|off]   at most N active games by challenge (0: none)",
        ],
        passwords: &[1],
        parse: Parse::Game(g::limit),
    },
    CommandDef {
        words: &["accept"],
        aliases: &[],
        usage: &[
            "accept <userid> <password> [<userid>...]   (challenges only from these; none: from anyone)",
        ],
        help: &[
            "<game> accept userid password [userid...]   challenges only from these (none: anyone)",
        ],
        passwords: &[1],
        parse: Parse::Game(g::accept),
    },
    CommandDef {
        words: &["reject"],
        aliases: &[],
        usage: &[
            "reject <userid> <password> [<userid>...]   (no challenges from these; none: clear)",
        ],
        help: &[
            "<game> reject userid password [userid...]   no challenges from these (none: clear)",
            "  (limit, accept and reject concern challenges by others, never your own: the first",
            "  userid of a challenge is the challenger)",
        ],
        passwords: &[1],
        parse: Parse::Game(g::reject),
    },
];

/// The commands of one scope, in table order.
pub(crate) fn defs(scope: Scope) -> impl Iterator<Item = &'static CommandDef> {
    TABLE.iter().filter(move |d| d.scope() == scope)
}

/// The group of server commands whose first word is `word` (lowercase).
pub(crate) fn group(word: &str) -> Option<&'static Group> {
    GROUPS.iter().find(|g| g.word == word)
}

/// The members of a group, in table order.
pub(crate) fn members(group: &Group) -> impl Iterator<Item = &'static CommandDef> {
    let word = group.word;
    defs(Scope::Server).filter(move |d| d.words.len() == 2 && d.words[0] == word)
}

/// The member of a group its second word (lowercase) names.
pub(crate) fn member(group: &Group, second: &str) -> Option<&'static CommandDef> {
    members(group).find(|d| d.words[1] == second)
}

/// The one-word server command `word` (lowercase) names, by its word or an alias.
pub(crate) fn server_def(word: &str) -> Option<&'static CommandDef> {
    defs(Scope::Server).find(|d| d.words.len() == 1 && d.spellings().any(|w| w == word))
}

/// The game's command `word` (lowercase) names.
pub(crate) fn game_def(word: &str) -> Option<&'static CommandDef> {
    defs(Scope::Game).find(|d| d.words[0] == word)
}

/// The words a line may start with to be a server command (group words once, aliases included); any
/// other first word is taken as the name of a game.
pub fn server_keywords() -> &'static [&'static str] {
    static WORDS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
        let mut words: Vec<&'static str> = Vec::new();
        for w in defs(Scope::Server).flat_map(CommandDef::spellings) {
            if !words.contains(&w) {
                words.push(w);
            }
        }
        words
    });
    &WORDS
}

/// The words a game's command may start with (after the game's name).
pub fn game_command_words() -> &'static [&'static str] {
    static WORDS: LazyLock<Vec<&'static str>> =
        LazyLock::new(|| defs(Scope::Game).map(|d| d.words[0]).collect());
    &WORDS
}

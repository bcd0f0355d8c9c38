//! `help`: the general page, a game's rules, how one command is written.

use super::{Core, Outcome, Step};
use crate::command::{self, Scope};
use crate::config::Config;
use crate::decision::HelpRefusal;

impl Core {
    pub(super) fn help(&self, subject: &[String]) -> Step<Outcome> {
        match subject.first() {
            None => Ok(Outcome::reply(
                "pbem help".into(),
                general_help(&self.cfg, &self.game_names()),
            )),
            // `help limit` is the game's rules; `help limit move` how that command is written.
            Some(word) => match self.games.find(word).filter(|_| subject.len() == 1) {
                Some(rules) => Ok(Outcome::reply(
                    format!("{} help", rules.title()),
                    rules.help(),
                )),
                None => match command::command_usage(subject) {
                    Some(usage) => Ok(Outcome::reply(
                        format!("pbem help {}", subject.join(" ")),
                        format!(
                            "How to write it:\n\n  {}\n\nSend `help` for every command and what it \
                             does, or `help <game>` for a game's rules; the games are: {}.\n",
                            usage.replace('\n', "\n  "),
                            self.game_names()
                        ),
                    )),
                    None => Err(HelpRefusal::NoHelp {
                        subject: subject.to_vec(),
                        nearest: command::nearest_command(word).map(str::to_string),
                        hosted: self.hosted_games(),
                    }
                    .into()),
                },
            },
        }
    }
}

/// The `help` mail: what the server is, every command (from the command table), and the rules of
/// play that hold for every game.
pub(super) fn general_help(cfg: &Config, game_names: &str) -> String {
    let mut text = format!(
        "{} is a play-by-email game server. Write one command in the Subject of a mail (the body is a\n\
         comment for the other players), or the Subject `multiple` and one command per line of the body.\n\n\
         Server commands:\n\
         {}\n\
         Game commands (for each game, here <game>):\n\
         {}\n\
         A move ending in #N is played only if the game is still at move N (every board mail says\n\
         `Move N`), so a move written against an old board is refused rather than misplayed.\n\
         Passwords are case-sensitive and are never shown in any mail.\n\n\
         A game counts for the ratings only when every player agreed to it: by a move or other\n\
         command with their password, by `accept`, or, for the challenger, by --password=PW (the\n\
         first userid's password). Declining (`reject`, or resigning before agreeing) ends it\n\
         unrated. Nobody is put into more than {} new games a day that they did not agree to.\n\n",
        cfg.server.name,
        command::help_list(Scope::Server),
        command::help_list(Scope::Game),
        cfg.limits.unsolicited_challenges_per_day
    );
    text.push_str(&format!(
        "The player to move is reminded after {} days without a move, and again every {} days;\n\
         after {} days they forfeit (an open draw proposal is accepted instead). Days on vacation do\n\
         not count. A challenge may set its own times, in days:\n\
         \x20 <game> challenge --nagtime=DAYS --forfeittime=DAYS userid1 userid2\n\n",
        cfg.time.nag_days, cfg.time.nag_days, cfg.time.forfeit_days
    ));
    text.push_str(super::proposals::HELP);
    text.push('\n');
    text.push_str("Games: ");
    text.push_str(game_names);
    text.push('\n');
    text
}

impl Core {
    /// The hosted games' command words, `limit, ...`, for texts that list them.
    pub(super) fn game_names(&self) -> String {
        self.games.names().join(", ")
    }

    /// The hosted games' command words, for the refusals that list them.
    pub(super) fn hosted_games(&self) -> Vec<String> {
        self.games.names().into_iter().map(str::to_string).collect()
    }
}

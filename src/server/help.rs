//! `help`: the general page, a game's rules, how one command is written.

use super::{Core, Outcome, Step};
use crate::command::{self, Scope};
use crate::config::Config;
use crate::decision::HelpRefusal;
use crate::games::GameRules;

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
                    game_help(rules),
                )),
                None => match command::command_usage(subject) {
                    Some(usage) => Ok(Outcome::reply(
                        format!("pbem help {}", subject.join(" ")),
                        crate::summary::reflow(
                            &format!(
                                "How to write it:\n\n  {}\n\nSend `help` for every command and \
                                 what it does, or `help <game>` for a game's rules; the games \
                                 are: {}.\n",
                                usage.replace('\n', "\n  "),
                                self.game_names()
                            ),
                            72,
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

/// A game's help page (`help limit`, `limit help`): its rules, laid out within 72 columns (the
/// pages are written wider than mail is read best), and who to play when no friend is around.
pub(super) fn game_help(rules: &dyn GameRules) -> String {
    let mut text = crate::summary::reflow(&rules.help(), 72);
    if rules.has_robot() {
        text.push_str(&format!(
            "\nRobots play {} at any time: send\n    {} challenge <you> robot1\n\
             (robot2 and robot3 are stronger); a robot answers each move in the\n\
             same mail.\n{}",
            rules.title(),
            rules.name(),
            super::robot_answers::HELP
        ));
    }
    text
}

/// The `help` mail: a six-line "start here" (issue 25), what the server is, every command (from
/// the command table), and the rules of play that hold for every game; within 72 columns.
pub(super) fn general_help(cfg: &Config, game_names: &str) -> String {
    let l = &cfg.limits;
    let mut text = String::from(START_HERE);
    text.push('\n');
    let paragraphs = [
        format!(
            "{} is a play-by-email game server. Write one command in the Subject of a mail (the \
             body is a comment for the other players), or the Subject `multiple` and one command \
             per line of the body.",
            cfg.server.name
        ),
        format!("Robots to play against at any time: {}.", ROBOTS),
    ];
    for p in &paragraphs {
        push_wrapped(&mut text, p);
        text.push('\n');
    }
    text.push_str("Server commands:\n");
    text.push_str(&command::help_list(Scope::Server));
    text.push_str("\nGame commands (for each game, here <game>):\n");
    text.push_str(&command::help_list(Scope::Game));
    text.push('\n');
    let rules = [
        "A move ending in #N is played only if the game is still at move N (every board mail \
         says `Move N`), so a move written against an old board is refused rather than \
         misplayed."
            .to_string(),
        format!(
            "Passwords are case-sensitive and are never shown in any mail. To stop guessing, at \
             most {} wrong passwords an hour are checked from one address, and at most {} an hour \
             for one account from addresses not registered to it; past that, passwords from there \
             are not checked until the hour has passed. Mail from an address registered to the \
             account keeps its own {} an hour whatever anyone else sends, so it always works with \
             the right password. Forgot it? Send `password reset <userid>`.",
            l.password_failures_per_sender_per_hour,
            l.password_failures_per_account_per_hour,
            l.password_failures_per_sender_per_hour,
        ),
        format!(
            "A game counts for the ratings only when every player agreed to it: by a move or \
             other command with their password, by `accept`, or, for the challenger, by \
             --password=PW (the first userid's password). Declining (`reject`, or resigning \
             before agreeing) ends it unrated. Nobody is put into more than {} new games a day \
             that they did not agree to, nor starts more than {} games against robots a day. A \
             robot's rating moves only in games where every person made at least {} moves.",
            l.unsolicited_challenges_per_day,
            l.unsolicited_challenges_per_day,
            super::standings::ROBOT_RATED_MOVES,
        ),
        format!(
            "The player to move is reminded after {} days without a move, and again every {} \
             days; after {} days they forfeit (an open draw proposal is accepted instead). Days on \
             vacation do not count. A challenge may set its own times, in days:",
            cfg.time.nag_days, cfg.time.nag_days, cfg.time.forfeit_days
        ),
    ];
    for (i, p) in rules.iter().enumerate() {
        push_wrapped(&mut text, p);
        if i + 1 < rules.len() {
            text.push('\n');
        }
    }
    text.push_str("  <game> challenge --nagtime=DAYS --forfeittime=DAYS userid1 userid2\n\n");
    for line in super::proposals::HELP.lines() {
        push_wrapped(&mut text, line);
    }
    text.push('\n');
    text.push_str(super::robot_answers::HELP);
    text.push('\n');
    push_wrapped(&mut text, &format!("Games: {game_names}"));
    text
}

/// The first lines of `help`: how to begin, in six lines (the welcome mail says the same in its
/// own words, `mail_text::account_answer`).
pub(super) const START_HERE: &str = "\
Start here:
  1. Sign up: send the Subject `signup <userid> <password>`.
  2. Challenge a friend, or a robot: `limit challenge <you> robot1`.
  3. Move: `limit move <board> <you> <password> <move>`, or reply
     to a board mail with the line it gives you to send.
  4. `#N` after a move (`4-1,3#5`) plays it only at move N.
";

/// The robot accounts, as the help texts name them.
pub(super) const ROBOTS: &str = "robot1, robot2 and robot3 (the strongest), in every game: \
                                 challenge one as you would a friend; it answers each move in \
                                 the same mail";

/// Appends `line` wrapped between words at 72 columns (an indented line stays as it is).
fn push_wrapped(text: &mut String, line: &str) {
    for part in crate::summary::wrap(line, crate::summary::ERROR_WIDTH) {
        text.push_str(part);
        text.push('\n');
    }
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

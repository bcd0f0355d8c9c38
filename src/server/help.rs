//! `help`: the general page, a game's rules, how one command is written.

use super::{Core, Outcome, Refusal, Step};
use crate::command::{self};
use crate::config::Config;

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
                    None => {
                        let hint = command::nearest_command(word)
                            .map(|c| format!(" Did you mean '{c}'?"))
                            .unwrap_or_default();
                        Err(Refusal::new(format!(
                            "There is no help on '{}'.{hint} Send `help` for the commands, or \
                             `help <game>` for a game's rules; the games are: {}.",
                            subject.join(" "),
                            self.game_names()
                        ))
                        .into())
                    }
                },
            },
        }
    }
}

pub(super) fn general_help(cfg: &Config, game_names: &str) -> String {
    let mut text = format!(
        "{} is a play-by-email game server. Write one command in the Subject of a mail (the body is a\n\
         comment for the other players), or the Subject `multiple` and one command per line of the body.\n\n\
         Server commands:\n\
         \x20 help [subject...]                      this help, or a game's help: help limit\n\
         \x20 signup userid password [address...]    register (userid: 1-20 letters, digits, _ or -)\n\
         \x20 change password userid old new\n\
         \x20 change address userid password [address...]\n\
         \x20 signoff userid password\n\
         \x20 message userid password to-userid...   the mail's body to other players (no addresses shown)\n\
         \x20 password reset userid                  forgot it: a one-time code goes to your address\n\
         \x20 password set userid code new           a new password with that code (within 24 hours)\n\
         \x20 confirm userid code                    from an address given to signup or change\n\
         \x20                                        address: the code of its confirmation mail\n\
         \x20 list                                   the games this server hosts\n\
         \x20 vacation userid password FROM TO       away from day FROM to day TO (YYYY-MM-DD, UTC,\n\
         \x20                                        at most 60 days): no reminders or forfeits\n\
         \x20 vacation userid password off           back early (also drops a planned vacation)\n\n\
         Game commands (for each game, here <game>):\n\
         \x20 <game> help\n\
         \x20 <game> challenge [options] [--password=PW] userid1 userid2 [userid3]\n\
         \x20 <game> move board userid password move[#N]   (move may be `resign`)\n\
         \x20 <game> move board userid password accept|reject   agree to a new game, or decline it\n\
         \x20 <game> resign board userid password\n\
         \x20 <game> show board[#N]...\n\
         \x20 <game> history [board]                finished games with rating changes, or one game\n\
         \x20 <game> ratings                        the rating list (Elo, from 1600)\n\
         \x20 <game> standings                      games played, won, lost, drawn, active\n\
         \x20 <game> games userid [active|all|finished]\n\
         \x20 <game> preview board move...\n\
         \x20 <game> chat board userid password     (the body is the message)\n\
         \x20 <game> subscribe board userid password     every board mail of a game, as a spectator\n\
         \x20 <game> unsubscribe board userid password\n\
         \x20 <game> notify userid password [on|off|board...]   mail me about each new game\n\
         \x20                                        (board numbers: subscribe to those games)\n\
         \x20 <game> limit userid password [N|off]   at most N active games by challenge (0: none)\n\
         \x20 <game> accept userid password [userid...]   challenges only from these (none: anyone)\n\
         \x20 <game> reject userid password [userid...]   no challenges from these (none: clear)\n\
         \x20   (limit, accept and reject concern challenges by others, never your own: the first\n\
         \x20   userid of a challenge is the challenger)\n\n\
         A move ending in #N is played only if the game is still at move N (every board mail says\n\
         `Move N`), so a move written against an old board is refused rather than misplayed.\n\
         Passwords are case-sensitive and are never shown in any mail.\n\n\
         A game counts for the ratings only when every player agreed to it: by a move or other\n\
         command with their password, by `accept`, or, for the challenger, by --password=PW (the\n\
         first userid's password). Declining (`reject`, or resigning before agreeing) ends it\n\
         unrated. Nobody is put into more than {} new games a day that they did not agree to.\n\n",
        cfg.server.name, cfg.limits.unsolicited_challenges_per_day
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
}

//! Spectators and challenge control: `subscribe`, `unsubscribe`, `notify`, `limit`, `accept`, `reject`.
//!
//! Everything here is per game type, as the commands are written after a game's name. A player's limit
//! and lists guard them against challenges by others: the challenger's own settings never stop their
//! own challenge, since they chose to play. In a three-player game each challenged player's lists are
//! checked against the challenger only (the one who sent the challenge).

use super::{Handling, HostedGame, Letter, Outcome, Refused, Step};
use crate::command::{GameCommand, GameLimit, NotifySetting};
use crate::decision::{ChallengeBlock, Event, Game, PlayRefusal, SettingChange, SocialRefusal};
use crate::games::GameRules;
use crate::mail_text;
use crate::storage::{ChallengeList, GameRow, StorageError, Tx, User};

impl Handling<'_> {
    /// The userids subscribed to a board, for its summary.
    pub(super) fn subscriber_names(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
    ) -> Result<Vec<String>, StorageError> {
        Ok(active_subscribers(tx, row)?
            .into_iter()
            .map(|u| u.userid)
            .collect())
    }

    /// Each subscriber's copy of a board mail: `subject` as it is, or `plain` (the game's own
    /// Subject, also the `Thread-Topic`) to a subscriber who did not choose `subject state`.
    pub(super) fn subscriber_letters(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
        [subject, plain]: [&str; 2],
        body: &str,
    ) -> Result<Vec<Letter>, StorageError> {
        active_subscribers(tx, row)?
            .into_iter()
            .map(|u| {
                let is_plain = tx.mail_settings(u.id)?.plain_subject;
                Ok(Letter {
                    subject: match is_plain {
                        true => plain.to_string(),
                        false => subject.to_string(),
                    },
                    to: u.addresses,
                    body: body.to_string(),
                    reply: false,
                    picture: None,
                    sign: None,
                    thread: Some(self.thread_of(tx, row.id, u.id, plain)?),
                    headline: (is_plain && subject != plain).then(|| subject.to_string()),
                })
            })
            .collect()
    }

    /// Refuses a challenge that a challenged player's limit or accept/reject lists do not allow; the
    /// refusal says why. `players` are in seat order; the first is taken as the challenger.
    pub(super) fn check_challenge(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        players: &[User],
    ) -> Step<()> {
        let Some((challenger, challenged)) = players.split_first() else {
            return Ok(());
        };
        let (name, game) = (rules.name(), Game::of(rules));
        let mut reasons = Vec::new();
        for p in challenged {
            let userid = p.userid.clone();
            if let Some(max) = tx.game_limit(name, p.id)? {
                let active = tx.active_games_of_type(p.id, name)?;
                if active >= max {
                    reasons.push(if max == 0 {
                        ChallengeBlock::TakesNone { userid, game }
                    } else {
                        ChallengeBlock::AtLimit {
                            userid,
                            game,
                            max,
                            active,
                        }
                    });
                }
            }
            let userid = p.userid.clone();
            let reject = tx.challenge_list(name, p.id, ChallengeList::Reject)?;
            if reject.iter().any(|u| u.id == challenger.id) {
                reasons.push(ChallengeBlock::Rejects {
                    userid,
                    game,
                    challenger: challenger.userid.clone(),
                });
            }
            let userid = p.userid.clone();
            let accept = tx.challenge_list(name, p.id, ChallengeList::Accept)?;
            if !accept.is_empty() && !accept.iter().any(|u| u.id == challenger.id) {
                reasons.push(ChallengeBlock::NotAccepted {
                    userid,
                    game,
                    challenger: challenger.userid.clone(),
                });
            }
        }
        if reasons.is_empty() {
            return Ok(());
        }
        Err(PlayRefusal::Blocked { reasons }.into())
    }

    /// The mails telling players who asked (`notify`) about a new game of this type (`started`, a
    /// [`Event::GameStarted`]), over the new board's mail `body`.
    pub(super) fn new_game_letters(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
        started: &Event,
        body: &str,
    ) -> Result<Vec<Letter>, StorageError> {
        let Some((subject, text)) = mail_text::new_game_notice(started, body) else {
            return Ok(Vec::new());
        };
        Ok(tx
            .new_game_watchers(&row.game_type)?
            .into_iter()
            .filter(|u| u.password_hash.is_some() && !row.players.iter().any(|p| p.id == u.id))
            .map(|u| Letter {
                to: u.addresses,
                subject: subject.clone(),
                body: text.clone(),
                reply: false,
                picture: None,
                sign: None,
                thread: None,
                headline: None,
            })
            .collect())
    }

    /// Carries out `subscribe`, `unsubscribe`, `notify`, `limit`, `accept` and `reject`.
    pub(super) fn social_command(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        cmd: &GameCommand,
    ) -> Step<Outcome> {
        match cmd {
            GameCommand::Subscribe {
                board,
                userid,
                password,
            } => self.subscribe(tx, rules, *board, userid, password.expose()),
            GameCommand::Unsubscribe {
                board,
                userid,
                password,
            } => self.unsubscribe(tx, rules, *board, userid, password.expose()),
            GameCommand::Notify {
                userid,
                password,
                setting,
            } => self.notify(tx, rules, userid, password.expose(), setting),
            GameCommand::Limit {
                userid,
                password,
                setting,
            } => self.set_limit(tx, rules, userid, password.expose(), *setting),
            GameCommand::Accept {
                userid,
                password,
                userids,
            } => self.set_list(
                tx,
                rules,
                userid,
                password.expose(),
                ChallengeList::Accept,
                userids,
            ),
            GameCommand::Reject {
                userid,
                password,
                userids,
            } => self.set_list(
                tx,
                rules,
                userid,
                password.expose(),
                ChallengeList::Reject,
                userids,
            ),
            _ => Err(SocialRefusal::NotSocial {
                game: Game::of(rules),
            }
            .into()),
        }
    }

    /// Checks that `user` may subscribe to `row`: not a player of it, and the game still going on.
    fn may_subscribe(&self, rules: &dyn GameRules, row: &GameRow, user: &User) -> Step<()> {
        if row.players.iter().any(|p| p.id == user.id) {
            return Err(Refused::on(
                SocialRefusal::OwnGame {
                    userid: user.userid.clone(),
                    game: Game::of(rules),
                    board: row.board,
                },
                rules.name(),
                row.board,
            )
            .into());
        }
        if row.finished {
            return Err(Refused::on(
                SocialRefusal::Finished {
                    game: Game::of(rules),
                    board: row.board,
                },
                rules.name(),
                row.board,
            )
            .into());
        }
        Ok(())
    }

    fn subscribe(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        board: u32,
        userid: &str,
        password: &str,
    ) -> Step<Outcome> {
        let (row, state) = self.load_game(tx, rules, board)?;
        let user = self.authenticate_on(tx, userid, password, rules, board)?;
        self.may_subscribe(rules, &row, &user)?;
        if !tx.subscribe(row.id, user.id, self.now)? {
            return Err(Refused::on(
                SocialRefusal::AlreadySubscribed {
                    userid: user.userid,
                    game: Game::of(rules),
                    board,
                },
                rules.name(),
                board,
            )
            .into());
        }
        let subscribed = Event::Subscribed {
            game: Game::of(rules),
            board,
            userid: user.userid,
            addresses: user.addresses,
        };
        self.subscription_reply(tx, HostedGame::new(rules, &row, state.as_ref()), subscribed)
    }

    /// The answer to `subscribe` or `unsubscribe` (`event`): what it did, above the board.
    fn subscription_reply(&self, tx: &Tx<'_>, game: HostedGame<'_>, event: Event) -> Step<Outcome> {
        let (subject, mut text) = mail_text::subscription_answer(&event)
            .expect("subscription_answer words a Subscribed or Unsubscribed event");
        text.push_str(&self.summary(tx, game, &[])?);
        Ok(Outcome {
            events: vec![event],
            ..Outcome::reply(subject, text)
        })
    }

    fn unsubscribe(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        board: u32,
        userid: &str,
        password: &str,
    ) -> Step<Outcome> {
        let (row, state) = self.load_game(tx, rules, board)?;
        let user = self.authenticate_on(tx, userid, password, rules, board)?;
        if !tx.unsubscribe(row.id, user.id)? {
            let boards = tx.subscribed_boards(user.id, rules.name())?;
            return Err(Refused::on(
                SocialRefusal::NotSubscribed {
                    userid: user.userid,
                    game: Game::of(rules),
                    board,
                    following: boards,
                },
                rules.name(),
                board,
            )
            .into());
        }
        let unsubscribed = Event::Unsubscribed {
            game: Game::of(rules),
            board,
            userid: user.userid,
            following: tx.subscribed_boards(user.id, rules.name())?,
        };
        self.subscription_reply(
            tx,
            HostedGame::new(rules, &row, state.as_ref()),
            unsubscribed,
        )
    }

    fn notify(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        userid: &str,
        password: &str,
        setting: &NotifySetting,
    ) -> Step<Outcome> {
        let name = rules.name();
        // The boards are read before the password is checked, so that a wrong board number is
        // answered without counting as a login.
        let rows = match setting {
            NotifySetting::Boards(boards) => {
                let mut rows = Vec::new();
                for &b in boards {
                    rows.push(self.load_game(tx, rules, b)?.0);
                }
                rows
            }
            _ => Vec::new(),
        };
        let user = self.authenticate(tx, userid, password)?;
        let change = match setting {
            NotifySetting::On | NotifySetting::Off => {
                let on = matches!(setting, NotifySetting::On);
                let changed = tx.set_new_game_notices(name, user.id, on, self.now)?;
                SettingChange::Notices { on, changed }
            }
            NotifySetting::Boards(_) => {
                // Every board is checked before any subscription is written, so that a refusal
                // changes nothing.
                for row in &rows {
                    self.may_subscribe(rules, row, &user)?;
                }
                let mut new = Vec::new();
                let mut already = Vec::new();
                for row in &rows {
                    if tx.subscribe(row.id, user.id, self.now)? {
                        new.push(row.board);
                    } else {
                        already.push(row.board);
                    }
                }
                SettingChange::Boards { new, already }
            }
        };
        self.settings_reply(tx, rules, &user, "notify", Some(change))
    }

    fn set_limit(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        userid: &str,
        password: &str,
        setting: Option<GameLimit>,
    ) -> Step<Outcome> {
        let user = self.authenticate(tx, userid, password)?;
        let change = match setting {
            None => None,
            Some(GameLimit::Off) => {
                tx.set_game_limit(rules.name(), user.id, None)?;
                Some(SettingChange::Limit(None))
            }
            Some(GameLimit::At(n)) => {
                tx.set_game_limit(rules.name(), user.id, Some(n))?;
                Some(SettingChange::Limit(Some(n)))
            }
        };
        self.settings_reply(tx, rules, &user, "limit", change)
    }

    fn set_list(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        userid: &str,
        password: &str,
        list: ChallengeList,
        others: &[String],
    ) -> Step<Outcome> {
        let word = list.as_str();
        // Every userid is checked before the password and before anything is written.
        let mut ids = Vec::new();
        for o in others {
            let other = tx.user(o)?.filter(|u| u.password_hash.is_some());
            let Some(other) = other else {
                return Err(SocialRefusal::ListNotRegistered {
                    userid: o.clone(),
                    game: Game::of(rules),
                    list,
                }
                .into());
            };
            if other.userid.eq_ignore_ascii_case(userid) {
                return Err(SocialRefusal::ListNamesSelf {
                    userid: o.clone(),
                    game: Game::of(rules),
                    list,
                }
                .into());
            }
            ids.push(other.id);
        }
        let user = self.authenticate(tx, userid, password)?;
        tx.set_challenge_list(rules.name(), user.id, list, &ids)?;
        let change = SettingChange::List {
            list,
            userids: others.to_vec(),
        };
        self.settings_reply(tx, rules, &user, word, Some(change))
    }

    /// The answer to a settings command: what it did (`change`, if it changed anything), then every
    /// setting of the player for this game type as it now stands.
    fn settings_reply(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        user: &User,
        word: &str,
        change: Option<SettingChange>,
    ) -> Step<Outcome> {
        let (name, title) = (rules.name(), rules.title());
        let event = change.map(|change| Event::SettingChanged {
            game: Game::of(rules),
            userid: user.userid.clone(),
            change,
        });
        let done = event
            .as_ref()
            .and_then(mail_text::setting_done)
            .unwrap_or_default();
        let mut text = String::new();
        if !done.is_empty() {
            text.push_str(&done);
            text.push_str("\n\n");
        }
        text.push_str(&format!("{title} settings of {}:\n", user.userid));
        let active = tx.active_games_of_type(user.id, name)?;
        let limit = match tx.game_limit(name, user.id)? {
            None => "none".to_string(),
            Some(0) => "0 (no new games by challenge)".to_string(),
            Some(n) => format!("at most {} by challenge", mail_text::active_games(n, title)),
        };
        text.push_str(&format!(
            "  Limit:             {limit}\n  Active now:        {active}\n"
        ));
        let names = |list| -> Result<String, StorageError> {
            let users = tx.challenge_list(name, user.id, list)?;
            Ok(users
                .into_iter()
                .map(|u| u.userid)
                .collect::<Vec<_>>()
                .join(", "))
        };
        let accept = names(ChallengeList::Accept)?;
        let reject = names(ChallengeList::Reject)?;
        text.push_str(&format!(
            "  Accept list:       {}\n",
            if accept.is_empty() {
                "none (challenges from anyone)"
            } else {
                &accept
            }
        ));
        text.push_str(&format!(
            "  Reject list:       {}\n",
            if reject.is_empty() { "none" } else { &reject }
        ));
        let notices = if tx.wants_new_game_notices(name, user.id)? {
            "on"
        } else {
            "off"
        };
        text.push_str(&format!("  New-game notices:  {notices}\n"));
        let boards = tx.subscribed_boards(user.id, name)?;
        text.push_str(&format!(
            "  Subscribed to:     {}\n",
            if boards.is_empty() {
                "no boards".to_string()
            } else {
                boards
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        ));
        // Wrapped at 72 columns (issue 37: the first sentence was one line of 101).
        text.push_str(&format!(
            "\nThe limit and the lists apply to challenges by others; your own\n\
             challenges are not held back by them. Change them with:\n\
             \x20 {name} limit <userid> <password> <N>|off\n\
             \x20 {name} accept <userid> <password> [<userid>...]  (none: anyone)\n\
             \x20 {name} reject <userid> <password> [<userid>...]  (none: clear)\n\
             \x20 {name} notify <userid> <password> [on|off|<board>...]\n"
        ));
        Ok(Outcome {
            events: event.into_iter().collect(),
            ..Outcome::reply(format!("{title} {word} {}", user.userid), text)
        })
    }
}

/// The subscribers of a game who can still get mail (signed-off accounts have no address).
fn active_subscribers(tx: &Tx<'_>, row: &GameRow) -> Result<Vec<User>, StorageError> {
    Ok(tx
        .subscribers(row.id)?
        .into_iter()
        .filter(|u| u.password_hash.is_some() && !u.addresses.is_empty())
        .collect())
}

//! Play: `challenge`, `move`, `resign`, `preview`, and the robot accounts' answers.

use super::act::{Act, Answering};
use super::{Failure, Handling, HostedGame, Origin, Outcome, Refused, Step};
use super::{fresh_digest, saved_status, userids};
use crate::command::{GameCommand, Password};
use crate::decision::{ChallengeUsage, Event, Game, PlayRefusal};
use crate::games::{self, GameRules, GameState, Status};
use crate::mail_text;
use crate::storage::{Comment, GameRow, StorageError, Tx, User};
use crate::summary;

/// What a challenge asks for, beside the game it is of and the mail it came in.
#[derive(Clone, Copy)]
struct Challenge<'a> {
    /// The game's options (`--size=9`).
    options: &'a [games::GameOption],
    /// The server's options for the game: its own nag and forfeit times.
    server_options: &'a [(String, Option<String>)],
    /// The players, seat by seat.
    userids: &'a [String],
    /// The first player's password (`--password`), which makes the challenge their agreement.
    password: Option<&'a str>,
    /// The seat whose player has shown already that they agree (the player who asked for a
    /// rematch, with their password).
    proven: Option<usize>,
}

impl Handling<'_> {
    pub(super) fn load_game(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        board: u32,
    ) -> Step<(GameRow, Box<dyn GameState>)> {
        let row = tx
            .game(rules.name(), board)?
            .ok_or_else(|| PlayRefusal::NoSuchBoard {
                game: Game::of(rules),
                board,
            })?;
        let state = rules.load(&row.state).map_err(|e| {
            Failure::Storage(StorageError::Corrupt(format!(
                "{} board {board}: {e}",
                rules.name()
            )))
        })?;
        Ok((row, state))
    }

    pub(super) fn game_command(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        cmd: &GameCommand,
        comment: &str,
        origin: &Origin,
    ) -> Step<Outcome> {
        match cmd {
            GameCommand::Help => Ok(Outcome::reply(
                format!("{} help", rules.title()),
                super::help::game_help(rules),
            )),
            GameCommand::Challenge {
                options,
                server_options,
                userids,
                password,
            } => {
                let challenge = Challenge {
                    options,
                    server_options,
                    userids,
                    password: password.as_ref().map(Password::expose),
                    proven: None,
                };
                self.challenge(tx, rules, challenge, comment, origin)
            }
            GameCommand::Rematch {
                board,
                userid,
                password,
            } => {
                let act = Act {
                    rules,
                    board: *board,
                    userid,
                    password: password.expose(),
                    guard: None,
                    comment,
                };
                self.rematch(tx, act, origin)
            }
            GameCommand::Move {
                board,
                userid,
                password,
                mv,
                guard,
            } => {
                if mv.trim().eq_ignore_ascii_case("resign") {
                    self.resign(tx, rules, *board, userid, password.expose(), comment)
                } else {
                    let act = Act::new(rules, *board, userid, password, *guard, comment);
                    self.play(tx, act, mv)
                }
            }
            GameCommand::Resign {
                board,
                userid,
                password,
            } => self.resign(tx, rules, *board, userid, password.expose(), comment),
            GameCommand::Show { boards } => {
                self.show(tx, rules, boards, origin.reply_to.as_deref())
            }
            GameCommand::History { board, page, form } => match board {
                Some(board) => self.history(tx, rules, *board, *form),
                None => self.history_all(tx, rules, page.unwrap_or(1)),
            },
            GameCommand::Games { userids, filter } => self.games(tx, rules, userids, *filter),
            GameCommand::Preview { board, moves } => self.preview(tx, rules, *board, moves),
            GameCommand::Chat {
                board,
                userid,
                password,
            } => self.chat(tx, rules, *board, userid, password.expose(), comment),
            GameCommand::Ratings => self.ratings(tx, rules),
            GameCommand::Standings => self.standings(tx, rules),
            GameCommand::Subscribe { .. }
            | GameCommand::Unsubscribe { .. }
            | GameCommand::Notify { .. }
            | GameCommand::Limit { .. }
            | GameCommand::Accept { .. }
            | GameCommand::Reject { .. } => self.social_command(tx, rules, cmd),
            GameCommand::Propose {
                board,
                userid,
                password,
                kind,
                guard,
            } => {
                let act = Act::new(rules, *board, userid, password, *guard, comment);
                self.propose(tx, act, *kind)
            }
            GameCommand::Answer {
                board,
                userid,
                password,
                accept,
                guard,
            } => {
                let act = Act::new(rules, *board, userid, password, *guard, comment);
                self.answer(tx, act, *accept)
            }
            GameCommand::Queue {
                board,
                userid,
                password,
                mv,
                guard,
            } => {
                let act = Act::new(rules, *board, userid, password, *guard, comment);
                self.queue_move(tx, act, mv)
            }
        }
    }

    /// `<game> challenge`. The admin's challenge binds every player; by mail, only the first player
    /// and only with `--password`: the others (and a challenger without it) agree later by acting on
    /// the game, and the game counts for ratings only once all have. A player who received
    /// `unsolicited_challenges_per_day` such challenges in the last day gets no more: the challenge is
    /// dropped without an answer, so that a stranger can neither flood them nor hear back.
    fn challenge(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        challenge: Challenge<'_>,
        comment: &str,
        origin: &Origin,
    ) -> Step<Outcome> {
        let Challenge {
            options,
            server_options,
            userids,
            password,
            proven,
        } = challenge;
        let usage = ChallengeUsage {
            game: Game::of(rules),
            min_players: *rules.players().start(),
            max_players: *rules.players().end(),
        };
        let (nag_days, forfeit_days) = self.clock_options(server_options, &usage)?;
        if !rules.players().contains(&userids.len()) {
            return Err(PlayRefusal::PlayerCount {
                usage,
                named: userids.len(),
            }
            .into());
        }
        let mut players = Vec::new();
        for u in userids {
            let user = tx
                .user(u)?
                .filter(|u| u.password_hash.is_some() || u.robot.is_some())
                .ok_or_else(|| PlayRefusal::NotRegistered {
                    userid: u.clone(),
                    usage,
                })?;
            if players.iter().any(|p: &User| p.id == user.id) {
                return Err(PlayRefusal::NamedTwice {
                    userid: u.clone(),
                    usage,
                }
                .into());
            }
            if user.robot.is_some() && !rules.has_robot() {
                return Err(PlayRefusal::NoRobot {
                    userid: u.clone(),
                    usage,
                }
                .into());
            }
            players.push(user);
        }
        let admin = origin.reply_to.is_none();
        if !admin {
            robot_challenge_by_mail(
                &players,
                password.is_some() || proven.is_some(),
                origin,
                usage,
            )?;
        }
        self.check_challenge(tx, rules, &players)?;
        // A robot agrees to every game it is challenged to.
        let mut agreed: Vec<bool> = players.iter().map(|p| admin || p.robot.is_some()).collect();
        if let Some(password) = password {
            self.authenticate(tx, &userids[0], password)?;
            agreed[0] = true;
        }
        // A challenge from the challenger's own registered address is her agreement (issue 25), as
        // a robot challenge from it is allowed: the address is the one her board mails go to.
        let from_challenger = origin.reply_to.as_deref().is_some_and(|sender| {
            players[0]
                .addresses
                .iter()
                .any(|a| a.eq_ignore_ascii_case(sender))
        });
        if from_challenger {
            agreed[0] = true;
        }
        if let Some(seat) = proven {
            agreed[seat] = true;
        }
        // After the password is checked: a stranger learns nothing of a player's games from it.
        if !admin && players.iter().any(|p| p.robot.is_some()) {
            self.check_robot_allowance(tx, &players, usage)?;
        }
        if !admin {
            let cap = self.cfg.limits.unsolicited_challenges_per_day;
            for (p, _) in players.iter().zip(&agreed).filter(|(_, a)| !**a) {
                if tx.unsolicited_challenges(p.id, self.now - 86_400)? >= cap {
                    eprintln!(
                        "pbem: {} had {cap} unsolicited challenges in the last day; a challenge \
                         naming them was dropped without an answer",
                        p.userid
                    );
                    return Ok(Outcome::silent());
                }
            }
        }
        let seed = self.seed(userids);
        let state = rules
            .new_hosted_game(options, players.len(), seed)
            .map_err(|error| PlayRefusal::BadOptions { error, usage })?;
        let board = tx.next_board(rules.name())?;
        // A robot that moves first has moved when the players get the new board.
        let state = self
            .robot_replies(rules, board, &players, state.as_ref())
            .unwrap_or(state);
        let ids: Vec<i64> = players.iter().map(|p| p.id).collect();
        let names: Vec<String> = players.iter().map(|p| p.userid.clone()).collect();
        let game_id = tx.insert_game(
            rules.name(),
            board,
            &state.to_json(),
            &saved_status(state.as_ref(), &names),
            &ids,
            self.now,
        )?;
        if nag_days.is_some() || forfeit_days.is_some() {
            tx.set_clock_days(game_id, nag_days, forfeit_days)?;
        }
        for (seat, _) in agreed.iter().enumerate().filter(|(_, a)| **a) {
            tx.agree(game_id, seat, self.now)?;
        }
        let row = tx
            .game(rules.name(), board)?
            .ok_or_else(|| StorageError::Corrupt(format!("game {game_id} vanished")))?;
        // Robots alone may have played it to the end.
        let ended = self.settle_game(tx, HostedGame::new(rules, &row, state.as_ref()))?;
        // The challenge's comment ("Fancy a game?") goes to every player. Signed with the first
        // player's password (--password) or sent from her registered address, it is her comment
        // on the game, kept in its history; a challenge from elsewhere without one may come from
        // anybody, so its comment is shown as unsigned and not kept.
        let comments: Vec<Comment> = if comment.trim().is_empty() {
            Vec::new()
        } else if password.is_some() || from_challenger || proven.is_some() {
            // Move 0: it came with the challenge, not with the first move (records tell them apart).
            let writer = &players[proven.unwrap_or(0)];
            tx.add_comment(row.id, 0, writer.id, comment, self.now)?;
            tx.comments(row.id)?
        } else {
            vec![Comment {
                move_number: 1,
                userid: "The challenge (unsigned: sent without --password)".into(),
                body: comment.to_string(),
                created_at: self.now,
            }]
        };
        let mut outcome = self.board_mails(
            tx,
            HostedGame::new(rules, &row, state.as_ref()),
            &comments,
            true,
            None,
            None,
        )?;
        let started = Event::GameStarted {
            game: Game::of(rules),
            board,
            players: names,
        };
        let letters = self.new_game_letters(tx, &row, &started, &outcome.text)?;
        outcome.letters.extend(letters);
        outcome.events.push(started);
        outcome.events.extend(ended);
        Ok(outcome)
    }

    /// `<game> rematch board userid password` (a bare `rematch` in reply to a board mail): once the
    /// board is over, a player of it starts the same game again with its options, its own nag and
    /// forfeit times, and the seats
    /// turned by one (two players swap colours), as a challenge that is the player's agreement: the
    /// others get the new game's mail and agree by acting on it, as after any challenge.
    fn rematch(&self, tx: &Tx<'_>, act: Act<'_>, origin: &Origin) -> Step<Outcome> {
        let Act {
            rules,
            board,
            userid,
            password,
            comment,
            ..
        } = act;
        let (row, state, _, seat) = self.seat_of(tx, rules, board, userid, password)?;
        if !row.finished {
            return Err(Refused::on(
                PlayRefusal::RematchOfRunning {
                    game: Game::of(rules),
                    board,
                    status: summary::status_line(state.as_ref(), &userids(&row)),
                    players: userids(&row),
                },
                rules.name(),
                board,
            )
            .into());
        }
        let options: Vec<games::GameOption> = state
            .options_summary()
            .split_whitespace()
            .filter_map(games::GameOption::parse)
            .collect();
        // The game's own clock, as its challenge set it (`--nagtime`, `--forfeittime`): a player
        // who asked for a slow game keeps it; a game on the server's times keeps following them.
        let clock = tx.game_clock(row.id)?;
        let clock_options: Vec<(String, Option<String>)> = [
            ("nagtime", clock.nag_days),
            ("forfeittime", clock.forfeit_days),
        ]
        .into_iter()
        .filter_map(|(name, days)| days.map(|d| (name.to_string(), Some(d.to_string()))))
        .collect();
        let mut players = userids(&row);
        players.rotate_left(1);
        let proven = (seat + players.len() - 1) % players.len();
        let challenge = Challenge {
            options: &options,
            server_options: &clock_options,
            userids: &players,
            password: None,
            proven: Some(proven),
        };
        self.challenge(tx, rules, challenge, comment, origin)
    }

    /// By mail, the people of a game against a robot may each start `unsolicited_challenges_per_day`
    /// such games a day: a robot accepts every challenge, and each of its games costs the server its
    /// thinking at every move (two mails once made 40 games of 19 x 19 Go, issue 34).
    fn check_robot_allowance(
        &self,
        tx: &Tx<'_>,
        players: &[User],
        usage: ChallengeUsage,
    ) -> Step<()> {
        let max = self.cfg.limits.unsolicited_challenges_per_day;
        let since = self.now - 86_400;
        for p in players.iter().filter(|p| p.robot.is_none()) {
            let (count, oldest) = tx.robot_games(p.id, since)?;
            if count >= max {
                return Err(PlayRefusal::RobotGamesToday {
                    userid: p.userid.clone(),
                    max,
                    next_at: oldest.unwrap_or(self.now) + 86_400,
                    usage,
                }
                .into());
            }
        }
        Ok(())
    }

    /// A seed for a new game's random layout: different for every challenge, from the clock, the process
    /// and the players; stored with the game, so the game replays the same.
    pub(super) fn seed(&self, userids: &[String]) -> u64 {
        if let Some(seed) = self.seed {
            return seed;
        }
        // The same in a second pass over the mail, which must lay out the same boards.
        self.pass_seed(|| {
            let parts: Vec<&[u8]> = userids.iter().map(|u| u.as_bytes()).collect();
            let d = fresh_digest(self.now, &parts);
            u64::from_le_bytes(d[..8].try_into().expect("8 bytes"))
        })
    }

    /// A board, and the player named by a command that acts on it with their seat, after checking
    /// the password: the start of every command a player makes on their own game. Such an act is the
    /// player's agreement to the game (see [`Handling::challenge`]).
    pub(super) fn seated(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        board: u32,
        userid: &str,
        password: &str,
    ) -> Step<(GameRow, Box<dyn GameState>, User, usize)> {
        let (row, state, user, seat) = self.seat_of(tx, rules, board, userid, password)?;
        self.agree_by_command(tx, row.id, seat)?;
        Ok((row, state, user, seat))
    }

    /// [`Handling::seated`] without recording an agreement: for the acts that decline a game.
    pub(super) fn seat_of(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        board: u32,
        userid: &str,
        password: &str,
    ) -> Step<(GameRow, Box<dyn GameState>, User, usize)> {
        let (row, state) = self.load_game(tx, rules, board)?;
        let user = self.authenticate_on(tx, userid, password, rules, board)?;
        let Some(seat) = row.players.iter().position(|p| p.id == user.id) else {
            return Err(Refused::on(
                PlayRefusal::NotAPlayer {
                    userid: user.userid,
                    game: Game::of(rules),
                    board,
                    players: userids(&row),
                },
                rules.name(),
                board,
            )
            .into());
        };
        Ok((row, state, user, seat))
    }

    pub(super) fn play(&self, tx: &Tx<'_>, act: Act<'_>, mv: &str) -> Step<Outcome> {
        let Act {
            rules,
            board,
            userid,
            password,
            guard,
            comment,
        } = act;
        let (row, mut state, user, seat) = self.seated(tx, rules, board, userid, password)?;
        let refuse = |r: PlayRefusal| Failure::from(Refused::on(r, rules.name(), board));
        let players = userids(&row);
        match state.status() {
            Status::Over(_) => {
                return Err(refuse(PlayRefusal::Over {
                    game: Game::of(rules),
                    board,
                    status: summary::status_line(state.as_ref(), &players),
                }));
            }
            Status::ToMove(s) if s != seat && !state.acts_out_of_turn(seat) => {
                return Err(refuse(PlayRefusal::NotYourTurn {
                    board,
                    status: summary::status_line(state.as_ref(), &players),
                }));
            }
            Status::ToMove(_) => {}
        }
        if let Some(n) = guard
            && n != state.move_number()
        {
            return Err(refuse(PlayRefusal::MoveGuard {
                board,
                meant: n,
                at: state.move_number(),
            }));
        }
        let before = state.move_number();
        let played = Event::MovePlayed {
            game: Game::of(rules),
            board,
            seat,
            userid: user.userid.clone(),
            mv: mv.trim().to_string(),
            move_number: before,
        };
        state.play_for(seat, mv).map_err(|error| {
            refuse(PlayRefusal::Illegal {
                game: Game::of(rules),
                board,
                userid: user.userid.clone(),
                mv: mv.trim().to_string(),
                error,
            })
        })?;
        let mut outcome = self.record_turn(
            tx,
            HostedGame::new(rules, &row, state.as_ref()),
            Some((&user, seat)),
            before,
            comment,
        )?;
        outcome.events.insert(0, played);
        Ok(outcome)
    }

    /// Saves a game after it changed (a move, a resignation, a forfeit, an accepted proposal) and mails
    /// every player the board with the comment that came with it. `actor` is the player who acted, if
    /// a player did (the server's clock acts for nobody). Every game ends through here, so this is
    /// where a finished game is settled (ratings).
    pub(super) fn record_turn(
        &self,
        tx: &Tx<'_>,
        game: HostedGame<'_>,
        actor: Option<(&User, usize)>,
        before: u32,
        comment: &str,
    ) -> Step<Outcome> {
        let answering = Answering::default();
        self.record_turn_with(tx, game, actor, before, comment, answering)
    }

    /// [`Handling::record_turn`] for a change whose mails answer another player's mail than the
    /// actor's, with the comment that mail carried (see [`Answering`]).
    pub(super) fn record_turn_with(
        &self,
        tx: &Tx<'_>,
        game: HostedGame<'_>,
        actor: Option<(&User, usize)>,
        before: u32,
        comment: &str,
        answering: Answering,
    ) -> Step<Outcome> {
        let HostedGame { rules, row, state } = game;
        // A robot whose turn this makes it answers at once, with the move it thought out before the
        // transaction (see `server/robots.rs`): the players' board mail shows its move.
        let replied = self.robot_replies(rules, row.board, &row.players, state);
        let state = replied.as_deref().unwrap_or(state);
        let status = saved_status(state, &userids(row));
        let finished = status.finished;
        let row_was_finished = row.finished;
        tx.charge_time(row.id, self.now)?;
        tx.update_game(row.id, &state.to_json(), &status, self.now)?;
        let row = GameRow {
            updated_at: self.now,
            finished,
            ..row.clone()
        };
        // The moves themselves (and the game's notes on them) are each reader's news, written by
        // `board_mails`; the closed proposals are told to all alike.
        let closed = self.game_changed(tx, HostedGame::new(rules, &row, state))?;
        let notes: Vec<String> = closed.iter().filter_map(mail_text::notice).collect();
        let ended = if finished && !row_was_finished {
            self.settle_game(tx, HostedGame::new(rules, &row, state))?
        } else {
            None
        };
        let mut comments = answering.comments;
        if let Some((user, _)) = actor {
            comments.extend(self.comment_at(tx, &row, before, user.id, comment)?);
        }
        let mut outcome = self.board_mails(
            tx,
            HostedGame::new(rules, &row, state),
            &comments,
            false,
            actor.map(|(_, seat)| seat),
            Some(before),
        )?;
        if let Some(answered) = answering.seat {
            // The players' letters come first, seat by seat (`board_mails`).
            for (seat, letter) in outcome
                .letters
                .iter_mut()
                .enumerate()
                .take(row.players.len())
            {
                letter.reply = seat == answered;
            }
        }
        // After the reply is chosen: the answer to a player's own mail is never held back.
        let outcome = self.hold_for_digest(tx, &row, outcome)?;
        // A queued move comes due only once this change is saved and its mails are written.
        let mut outcome =
            self.after_turn(tx, HostedGame::new(rules, &row, state), outcome, &notes)?;
        // Before a queued move's events, which `after_turn` added.
        outcome.events.splice(0..0, closed.into_iter().chain(ended));
        Ok(outcome)
    }

    pub(super) fn comment_at(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
        move_number: u32,
        user_id: i64,
        comment: &str,
    ) -> Step<Vec<Comment>> {
        let body = comment.trim();
        if body.is_empty() {
            return Ok(Vec::new());
        }
        tx.add_comment(row.id, move_number, user_id, body, self.now)?;
        let userid = row
            .players
            .iter()
            .find(|p| p.id == user_id)
            .map_or_else(String::new, |p| p.userid.clone());
        Ok(vec![Comment {
            move_number,
            userid,
            body: body.to_string(),
            created_at: self.now,
        }])
    }

    pub(super) fn resign(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        board: u32,
        userid: &str,
        password: &str,
        comment: &str,
    ) -> Step<Outcome> {
        let (row, state, user, seat) = self.seat_of(tx, rules, board, userid, password)?;
        self.resign_seated(
            tx,
            HostedGame::new(rules, &row, state.as_ref()),
            &user,
            seat,
            comment,
        )
    }

    /// Resigns a player already seated. A player who resigns before ever agreeing to the game
    /// declines it: the game ends as a resignation, and is not rated (see `settle_game`).
    pub(super) fn resign_seated(
        &self,
        tx: &Tx<'_>,
        game: HostedGame<'_>,
        user: &User,
        seat: usize,
        comment: &str,
    ) -> Step<Outcome> {
        let HostedGame { rules, row, state } = game;
        let board = row.board;
        let before = state.move_number();
        let mut state = state.clone_box();
        state
            .resign(seat)
            .map_err(|e| Refused::on(PlayRefusal::Rules(e), rules.name(), board))?;
        let resigned = Event::Resigned {
            game: Game::of(rules),
            board,
            seat,
            userid: user.userid.clone(),
            declined: !tx.has_agreed(row.id, seat)?,
        };
        if let Some(verdict) = mail_text::verdict(&resigned) {
            tx.add_verdict(row.id, &verdict)?;
        }
        let mut outcome = self.record_turn(
            tx,
            HostedGame::new(rules, row, state.as_ref()),
            Some((user, seat)),
            before,
            comment,
        )?;
        outcome.events.insert(0, resigned);
        Ok(outcome)
    }

    pub(super) fn preview(
        &self,
        tx: &Tx<'_>,
        rules: &dyn GameRules,
        board: u32,
        moves: &[String],
    ) -> Step<Outcome> {
        let (row, state) = self.load_game(tx, rules, board)?;
        let mut trial = state.clone_box();
        for (i, m) in moves.iter().enumerate() {
            if matches!(trial.status(), Status::Over(_)) {
                return Err(Refused::on(
                    PlayRefusal::PreviewOver {
                        after: i,
                        mv: m.clone(),
                    },
                    rules.name(),
                    board,
                )
                .into());
            }
            trial.play(m).map_err(|error| {
                Refused::on(
                    PlayRefusal::PreviewIllegal {
                        number: i + 1,
                        mv: m.clone(),
                        error,
                    },
                    rules.name(),
                    board,
                )
            })?;
        }
        let mut text = format!(
            "Preview of {} Board {board} after {}: nothing has been played.\n\n",
            rules.title(),
            moves.join(" ")
        );
        text.push_str(&self.summary(tx, HostedGame::new(rules, &row, trial.as_ref()), &[])?);
        Ok(Outcome::reply(
            format!("{} Board {board} Preview", rules.title()),
            text,
        ))
    }
}

/// By mail, a game with a robot is made only by one of its people: robots alone would play a game
/// nobody reads (and rate each other), and a stranger could set robots thinking for games nobody
/// asked for. The challenger shows they are a player with `--password` (checked later, for the
/// first userid), or by sending from a registered address of one of the people named. The admin
/// at the shell may make any game.
fn robot_challenge_by_mail(
    players: &[User],
    signed: bool,
    origin: &Origin,
    usage: ChallengeUsage,
) -> Result<(), PlayRefusal> {
    if players.iter().all(|p| p.robot.is_none()) {
        return Ok(());
    }
    if players.iter().all(|p| p.robot.is_some()) {
        return Err(PlayRefusal::RobotsOnly { usage });
    }
    let from_a_player = origin.reply_to.as_deref().is_some_and(|sender| {
        players
            .iter()
            .filter(|p| p.robot.is_none())
            .any(|p| p.addresses.iter().any(|a| a.eq_ignore_ascii_case(sender)))
    });
    if signed || from_a_player {
        Ok(())
    } else {
        Err(PlayRefusal::RobotChallengeByStranger { usage })
    }
}

//! Time in correspondence play: nag mails, forfeits on time, vacations, and the `pbem cron` run.
//!
//! A game's clock counts the time since its last change (`games.updated_at`: a move, or the
//! challenge) that the player to move was not on vacation. Past the nag time the player is reminded,
//! and again every nag time after that; past the forfeit time they forfeit (or, with a draw proposal
//! open, the game is drawn). `pbem cron` handles each game in its own write transaction that also
//! queues the game's mails, so a nag or forfeit is committed with its mails or not at all, and a
//! second run (at the same time or later) sees it done.

use chrono::{DateTime, NaiveDate};

use super::{
    Failure, Handling, HostedGame, Letter, MailState, Origin, Outcome, Server, ServerError, Sign,
    Step, queue,
};
use crate::config::MAX_CLOCK_DAYS;
use crate::decision::{AccountEvent, ChallengeUsage, ClockRefusal, Event, Game};
use crate::games::Status;
use crate::mail_text;
use crate::reply_token::Target;
use crate::storage::{ClockCandidate, GameClock, GameRow, StorageError, Tx, User, Vacation};

/// Seconds in a day.
const DAY: i64 = 86_400;
/// How long before a forfeit by the clock its player must have been sent a nag (see `clock_tick`).
const FORFEIT_WARNING: i64 = 2 * DAY;

/// The longest vacation one `vacation` command may ask for, in days. Two months covers a long trip;
/// longer absences are better handled by resigning, since every opponent waits the whole time.
pub const MAX_VACATION_DAYS: i64 = 60;

/// How far ahead a vacation may be planned, in days.
pub const MAX_VACATION_AHEAD_DAYS: i64 = 365;

/// What one `pbem cron` run did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CronReport {
    /// Unfinished games, all looked at by the database's query (only those whose last move is old
    /// enough for the clock to be due are read and checked one by one).
    pub games: usize,
    /// Nag mails sent (one per player reminded).
    pub nags: usize,
    /// Players who forfeited on time.
    pub forfeits: usize,
    /// Games drawn at forfeit time because a draw proposal was open.
    pub draws: usize,
    /// Games that could not be read (each told on stderr); the others were still handled.
    pub skipped: usize,
    /// Mails sent by this run (its own and what the outbox still held).
    pub mails: usize,
    /// Mails that failed to send (left in the outbox for the next run).
    pub failed: usize,
    /// Moves played by robots that were left to move (by a process that died after its commit and
    /// before its robot's move: see `server/robots.rs`).
    pub robot_moves: usize,
    /// Daily digests written (see `server/digest.rs`).
    pub digests: usize,
}

impl CronReport {
    /// The one-line report `pbem cron` prints.
    pub fn line(&self) -> String {
        let mut s = format!(
            "cron: {} games looked at, {} nags, {} forfeits, {} drawn at forfeit time, {} mails sent",
            self.games, self.nags, self.forfeits, self.draws, self.mails
        );
        if self.digests > 0 {
            s.push_str(&format!(", {} daily digests", self.digests));
        }
        if self.failed > 0 {
            s.push_str(&format!(", {} failed (left in the outbox)", self.failed));
        }
        if self.skipped > 0 {
            s.push_str(&format!(", {} games unreadable", self.skipped));
        }
        if self.robot_moves > 0 {
            s.push_str(&format!(", {} robot moves played", self.robot_moves));
        }
        s
    }
}

/// What the clock did to one game.
enum Tick {
    Nothing,
    Nag(Outcome),
    Forfeit(Outcome),
    Draw(Outcome),
    Unreadable(String),
}

impl Server {
    /// Stores the clock's next look at each game it looked at (see `Db::reschedule_clock`).
    fn reschedule_clock(&mut self) -> Result<(), ServerError> {
        let time = &self.core.cfg.time;
        self.db.reschedule_clock(
            self.core.now,
            time.nag_days,
            time.forfeit_days,
            FORFEIT_WARNING,
        )?;
        Ok(())
    }

    /// Runs the clock once over every unfinished game (nags, forfeits), then flushes the outbox.
    /// Each game is its own transaction, with its mails queued in it: safe to run twice at once or
    /// to interrupt.
    pub fn cron(&mut self) -> Result<CronReport, ServerError> {
        self.tick();
        let mut report = CronReport::default();
        let origin = Origin::default();
        // A robot left to move plays before the clock looks: robots never run out of time.
        let mail = MailState::new(None);
        report.robot_moves = self.play_all_robots(&mail)?;
        self.core.with(&mail).robots_begin_pass();
        self.tick();
        // The games looked at since the last run (nagged, or due and on vacation) get the time of
        // their next look, so that only the games whose time has come are read below.
        self.reschedule_clock()?;
        let due = self.db.clock_candidates(
            self.core.now,
            self.core.cfg.time.nag_days,
            self.core.cfg.time.forfeit_days,
            FORFEIT_WARNING,
        )?;
        report.games = self.db.running_games()?;
        for ClockCandidate { game_type, board } in due {
            let tx = self.db.transaction()?;
            let outcome = match self.core.with(&mail).clock_tick(&tx, &game_type, board)? {
                Tick::Nothing => continue,
                Tick::Unreadable(why) => {
                    eprintln!("pbem: cron: {game_type} board {board} skipped: {why}");
                    report.skipped += 1;
                    continue;
                }
                Tick::Nag(o) => {
                    report.nags += 1;
                    o
                }
                Tick::Forfeit(o) => {
                    report.forfeits += 1;
                    o
                }
                Tick::Draw(o) => {
                    report.draws += 1;
                    o
                }
            };
            let mails = self
                .core
                .with(&mail)
                .letters_to_mails(&tx, &origin, vec![outcome])?;
            let ids = queue(&tx, &mails, self.core.now)?;
            tx.commit()?;
            let sent = self.core.send_claimed(&self.db, &ids, &mails);
            report.mails += sent;
            report.failed += mails.len() - sent;
        }
        // A forfeit may have given a robot the turn (a game of three): it moves now.
        let waiting = self.core.with(&mail).robots_waiting();
        report.robot_moves += self.play_robots(&mail, &waiting, usize::MAX)?;
        // The games nagged above: their next look, so that the next run does not read them again.
        self.reschedule_clock()?;
        let (digests, sent, failed) = self.digests()?;
        report.digests = digests;
        report.mails += sent;
        report.failed += failed;
        let flush = self.flush_outbox()?;
        self.db.tidy()?;
        report.mails += flush.sent;
        // A mail that failed above and again in the flush counts once.
        report.failed = report.failed.max(flush.failed);
        Ok(report)
    }
}

impl Handling<'_> {
    /// The nag and forfeit times of a game, in days: its own, else the server's.
    fn clock_days(&self, clock: &GameClock) -> (u32, u32) {
        (
            clock.nag_days.unwrap_or(self.cfg.time.nag_days),
            clock.forfeit_days.unwrap_or(self.cfg.time.forfeit_days),
        )
    }

    /// Looks at one game and nags or forfeits its player to move if their time is up. Writes only
    /// into `tx`; the caller queues the mails in it and commits.
    fn clock_tick(&self, tx: &Tx<'_>, game_type: &str, board: u32) -> Result<Tick, StorageError> {
        let Some(rules) = self.games.find(game_type) else {
            return Ok(Tick::Unreadable(format!(
                "this pbem hosts no game called '{game_type}'"
            )));
        };
        let Some(row) = tx.game(game_type, board)? else {
            return Ok(Tick::Nothing);
        };
        if row.finished {
            // Another run ended it between our list and our transaction.
            return Ok(Tick::Nothing);
        }
        let mut state = match rules.load(&row.state) {
            Ok(s) => s,
            Err(e) => return Ok(Tick::Unreadable(e.to_string())),
        };
        let Status::ToMove(seat) = state.status() else {
            return Ok(Tick::Nothing);
        };
        let Some(player) = row.players.get(seat).cloned() else {
            return Ok(Tick::Unreadable(format!("no player in seat {seat}")));
        };
        let away = tx.vacations(player.id)?;
        if away
            .iter()
            .any(|v| v.starts_at <= self.now && self.now < v.ends_at)
        {
            return Ok(Tick::Nothing);
        }
        let clock = tx.game_clock(row.id)?;
        let (nag_days, forfeit_days) = self.clock_days(&clock);
        let spans: Vec<(i64, i64)> = away.iter().map(|v| (v.starts_at, v.ends_at)).collect();
        let counted = counted_seconds(row.updated_at, self.now, &spans);
        let sent = if clock.nag_wait == Some(row.updated_at) {
            clock.nags_sent
        } else {
            0
        };
        // Nobody loses a game by the clock without having been warned: a forfeit needs a nag of this
        // wait sent at least `FORFEIT_WARNING` before. A cron that did not run for longer than the
        // forfeit time therefore nags first and forfeits on a later run.
        let first_nag = if sent > 0 { clock.first_nag_at } else { None };
        let warned = first_nag.is_some_and(|t| t <= self.now - FORFEIT_WARNING);
        let overdue = counted >= i64::from(forfeit_days) * DAY;
        if overdue && warned {
            let before = state.move_number();
            let proposer = self.take_open_draw_proposal(tx, &row)?;
            let draw = proposer.is_some();
            let (game, board, userid) = (Game::of(rules), row.board, player.userid.clone());
            let (result, event) = if let Some(proposer) = proposer {
                let drawn = Event::DrawAtForfeit {
                    game,
                    board,
                    proposer,
                    userid,
                    days: forfeit_days,
                };
                (state.agree_draw(), drawn)
            } else {
                let forfeited = Event::Forfeited {
                    game,
                    board,
                    userid,
                    days: forfeit_days,
                };
                (state.forfeit(seat), forfeited)
            };
            if let Err(e) = result {
                return Ok(Tick::Unreadable(format!(
                    "the rules refused the forfeit: {e}"
                )));
            }
            if let Some(verdict) = mail_text::verdict(&event) {
                tx.add_verdict(row.id, &verdict)?;
            }
            let recorded = self
                .record_turn(
                    tx,
                    HostedGame::new(rules, &row, state.as_ref()),
                    None,
                    before,
                    "",
                )
                .map(|mut o| {
                    o.events.insert(0, event);
                    o
                });
            return match recorded {
                Ok(o) if draw => Ok(Tick::Draw(o)),
                Ok(o) => Ok(Tick::Forfeit(o)),
                Err(Failure::Storage(e)) => Err(e),
                Err(Failure::Refused(r)) => Ok(Tick::Unreadable(mail_text::refusal(&r.refusal))),
            };
        }
        let nag_secs = i64::from(nag_days) * DAY;
        if counted < nag_secs {
            return Ok(Tick::Nothing);
        }
        let mut due = u32::try_from(counted / nag_secs).unwrap_or(u32::MAX);
        if overdue && sent == 0 {
            // The forfeit time passed with no nag sent (cron did not run): the last warning now.
            due = due.max(1);
        }
        if due <= sent {
            return Ok(Tick::Nothing);
        }
        let outcome = self.nag(
            tx,
            HostedGame::new(rules, &row, state.as_ref()),
            &player,
            counted,
            (nag_days, forfeit_days),
            first_nag.unwrap_or(self.now),
        )?;
        tx.record_nag(row.id, row.updated_at, due, self.now)?;
        Ok(Tick::Nag(outcome))
    }

    /// The nag mail to the player to move.
    fn nag(
        &self,
        tx: &Tx<'_>,
        game: HostedGame<'_>,
        player: &User,
        counted: i64,
        (nag_days, forfeit_days): (u32, u32),
        first_nag: i64,
    ) -> Result<Outcome, StorageError> {
        let HostedGame { rules, row, .. } = game;
        // The clock's own deadline, but never sooner than the warning a forfeit needs.
        let deadline =
            (self.now + i64::from(forfeit_days) * DAY - counted).max(first_nag + FORFEIT_WARNING);
        // With a draw proposal open, the forfeit time draws the game instead (see `clock_tick`).
        let draw_open = matches!(
            tx.open_proposal(row.id)?,
            Some(p) if p.kind == crate::command::ProposalKind::Draw
        );
        let nagged = Event::Nagged {
            game: Game::of(rules),
            board: row.board,
            userid: player.userid.clone(),
            days: counted / DAY,
            vacation_left_out: counted < self.now - row.updated_at,
            since: row.updated_at,
            deadline,
            nag_days,
            forfeit_days,
            draw_open,
        };
        let (subject, mut body) = mail_text::nag(&nagged).expect("nag words a Nagged event");
        body.push_str(&self.summary(tx, game, &[])?);
        // In the thread of the player's board mails of the game, under its Subject for a player
        // who did not choose `subject state`: Gmail would otherwise show it apart (the text says it is a
        // reminder).
        let topic = crate::summary::game_subject(rules.title(), row.board);
        let plain = tx.mail_settings(player.id)?.plain_subject;
        let letter_subject = match plain {
            true => topic.clone(),
            false => subject.clone(),
        };
        Ok(Outcome {
            ok: true,
            text: body.clone(),
            subject: subject.clone(),
            events: vec![nagged],
            letters: vec![Letter {
                to: player.addresses.clone(),
                subject: letter_subject,
                body,
                reply: false,
                picture: None,
                sign: Some(Sign {
                    reader: player.id,
                    target: Target::Board(row.id),
                }),
                thread: Some(self.thread_of(tx, row.id, player.id, &topic)?),
                headline: plain.then(|| subject.clone()),
            }],
            ..Outcome::default()
        })
    }

    /// Lines under a board's status from the clock: what the clock did to the game (a forfeit), the
    /// game's own nag and forfeit times, and its players away on vacation now or soon (empty when
    /// there is nothing to say).
    pub(super) fn away_lines(
        &self,
        tx: &Tx<'_>,
        row: &GameRow,
    ) -> Result<Vec<String>, StorageError> {
        let clock = tx.game_clock(row.id)?;
        let mut lines: Vec<String> = clock
            .verdict
            .as_deref()
            .map(|v| v.lines().map(str::to_string).collect())
            .unwrap_or_default();
        if row.finished {
            return Ok(lines);
        }
        if clock.nag_days.is_some() || clock.forfeit_days.is_some() {
            let (nag, forfeit) = self.clock_days(&clock);
            lines.push(format!(
                "Time: a reminder after {nag} days without a move, a forfeit after {forfeit} \
                 (this game's own times)."
            ));
        }
        for p in &row.players {
            let vacations = tx.vacations(p.id)?;
            if let Some(v) = vacations
                .iter()
                .find(|v| v.starts_at <= self.now && self.now < v.ends_at)
            {
                lines.push(format!("{} is on vacation until {}.", p.userid, v.last_day));
            } else if let Some(v) = vacations
                .iter()
                .find(|v| v.starts_at > self.now && v.starts_at - self.now <= 30 * DAY)
            {
                lines.push(format!(
                    "{} will be on vacation from {} until {}.",
                    p.userid,
                    day_of(v.starts_at),
                    v.last_day
                ));
            }
        }
        Ok(lines)
    }

    /// Reads a challenge's server options: `--nagtime=DAYS` and `--forfeittime=DAYS`, the game's own
    /// nag and forfeit times (`None`: the server's). Anything else, or times that do not fit, is
    /// refused, before anything is written.
    pub(super) fn clock_options(
        &self,
        server_options: &[(String, Option<String>)],
        usage: &ChallengeUsage,
    ) -> Step<(Option<u32>, Option<u32>)> {
        let usage = *usage;
        let mut nag = None;
        let mut forfeit = None;
        for (name, value) in server_options {
            let slot = match name.to_lowercase().as_str() {
                "nagtime" => &mut nag,
                "forfeittime" => &mut forfeit,
                _ => {
                    return Err(ClockRefusal::UnknownOption {
                        name: name.clone(),
                        usage,
                    }
                    .into());
                }
            };
            if slot.is_some() {
                return Err(ClockRefusal::OptionTwice {
                    name: name.clone(),
                    usage,
                }
                .into());
            }
            let days = value
                .as_deref()
                .and_then(|v| v.parse::<u32>().ok())
                .filter(|d| (1..=MAX_CLOCK_DAYS).contains(d))
                .ok_or_else(|| ClockRefusal::BadDays {
                    name: name.clone(),
                    value: value.clone(),
                    max: MAX_CLOCK_DAYS,
                    usage,
                })?;
            *slot = Some(days);
        }
        let (nag_days, forfeit_days) = self.clock_days(&GameClock {
            nag_days: nag,
            forfeit_days: forfeit,
            ..GameClock::default()
        });
        if forfeit_days <= nag_days {
            return Err(ClockRefusal::ForfeitNotAfterNag {
                forfeit_days,
                forfeit_given: forfeit.is_some(),
                nag_days,
                nag_given: nag.is_some(),
                usage,
            }
            .into());
        }
        Ok((nag, forfeit))
    }

    /// `vacation userid password FROM TO`, or `... off`.
    pub(super) fn vacation(
        &self,
        tx: &Tx<'_>,
        userid: &str,
        password: &str,
        days: Option<(NaiveDate, NaiveDate)>,
        origin: &Origin,
    ) -> Step<Outcome> {
        let user = self.authenticate(tx, userid, password)?;
        let Some((from, to)) = days else {
            let changed = tx.end_vacations(user.id, self.now)?;
            let back = AccountEvent::VacationEnded {
                userid: user.userid,
                ended: changed != 0,
            };
            return Ok(self.account_confirmation(back, user.addresses, origin));
        };
        let today = day_of(self.now);
        if to < today {
            return Err(ClockRefusal::VacationPast { to, today }.into());
        }
        if from < today {
            return Err(ClockRefusal::VacationStartsPast { from, today }.into());
        }
        let length = (to - from).num_days() + 1;
        if length > MAX_VACATION_DAYS {
            return Err(ClockRefusal::VacationTooLong {
                from,
                to,
                length,
                max: MAX_VACATION_DAYS,
            }
            .into());
        }
        if (from - today).num_days() > MAX_VACATION_AHEAD_DAYS {
            return Err(ClockRefusal::VacationTooFarAhead {
                from,
                max_ahead: MAX_VACATION_AHEAD_DAYS,
            }
            .into());
        }
        // Away from the first day's midnight, or from now when that is today: time before the
        // command was sent cannot be taken back.
        let vacation = Vacation {
            starts_at: midnight(from).max(self.now),
            ends_at: midnight(to) + DAY,
            last_day: to.to_string(),
        };
        let replaced = tx.end_vacations(user.id, self.now)? > 0;
        tx.add_vacation(user.id, &vacation, self.now)?;
        let away = AccountEvent::VacationSet {
            userid: user.userid,
            from,
            to,
            replaced,
        };
        Ok(self.account_confirmation(away, user.addresses, origin))
    }
}

/// The seconds of a wait from `start` to `now` that count towards nag and forfeit: those outside all
/// the `away` spans (`[from, to)`, in any order, possibly overlapping or reaching outside the wait).
pub(crate) fn counted_seconds(start: i64, now: i64, away: &[(i64, i64)]) -> i64 {
    if now <= start {
        return 0;
    }
    let mut spans: Vec<(i64, i64)> = away
        .iter()
        .map(|&(a, b)| (a.max(start), b.min(now)))
        .filter(|(a, b)| a < b)
        .collect();
    spans.sort_unstable();
    let mut covered = 0;
    let mut reach = start;
    for (a, b) in spans {
        let a = a.max(reach);
        if b > a {
            covered += b - a;
            reach = b;
        }
    }
    now - start - covered
}

/// The UTC day of a unix time.
fn day_of(unix: i64) -> NaiveDate {
    DateTime::from_timestamp(unix, 0)
        .map(|t| t.date_naive())
        .unwrap_or_default()
}

/// Unix seconds of a day's 00:00 UTC.
fn midnight(day: NaiveDate) -> i64 {
    day.and_hms_opt(0, 0, 0)
        .map(|t| t.and_utc().timestamp())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counted_seconds_without_vacation_is_the_wait() {
        assert_eq!(counted_seconds(100, 1000, &[]), 900);
        assert_eq!(
            counted_seconds(1000, 100, &[]),
            0,
            "a clock never runs backwards"
        );
        assert_eq!(counted_seconds(100, 100, &[]), 0);
    }

    #[test]
    fn counted_seconds_leaves_out_the_vacation_inside_the_wait() {
        // A wait of 10 days with days 2..5 away: 7 days count.
        let d = DAY;
        assert_eq!(counted_seconds(0, 10 * d, &[(2 * d, 5 * d)]), 7 * d);
        // Spans reaching outside the wait count only inside it.
        assert_eq!(counted_seconds(3 * d, 10 * d, &[(0, 5 * d)]), 5 * d);
        assert_eq!(counted_seconds(0, 10 * d, &[(8 * d, 20 * d)]), 8 * d);
        // Spans wholly outside change nothing.
        assert_eq!(
            counted_seconds(5 * d, 10 * d, &[(0, 5 * d), (10 * d, 12 * d)]),
            5 * d
        );
        // The whole wait away: nothing counts.
        assert_eq!(counted_seconds(d, 2 * d, &[(0, 3 * d)]), 0);
    }

    #[test]
    fn counted_seconds_counts_overlapping_spans_once_in_any_order() {
        let d = DAY;
        let spans = [(6 * d, 9 * d), (d, 3 * d), (2 * d, 4 * d), (7 * d, 8 * d)];
        // Away: days 1..4 and 6..9, that is 6 days of 20.
        assert_eq!(counted_seconds(0, 20 * d, &spans), 14 * d);
        // Touching spans join without a gap or a double count.
        assert_eq!(
            counted_seconds(0, 10 * d, &[(d, 2 * d), (2 * d, 3 * d)]),
            8 * d
        );
    }

    #[test]
    fn days_and_midnights_are_utc() {
        let day = NaiveDate::from_ymd_opt(2026, 11, 18).unwrap();
        // 1_795_000_000 is 2026-11-18 11:06:40 UTC.
        assert_eq!(day_of(1_795_000_000), day);
        assert_eq!(midnight(day), 1_795_000_000 - (11 * 3600 + 6 * 60 + 40));
        assert_eq!(day_of(midnight(day)), day);
        assert_eq!(day_of(midnight(day) - 1), day.pred_opt().unwrap());
    }

    #[test]
    fn report_line_names_every_count() {
        let r = CronReport {
            games: 3,
            nags: 1,
            forfeits: 1,
            draws: 0,
            skipped: 0,
            mails: 3,
            failed: 0,
            robot_moves: 0,
            digests: 0,
        };
        assert_eq!(
            r.line(),
            "cron: 3 games looked at, 1 nags, 1 forfeits, 0 drawn at forfeit time, 3 mails sent"
        );
        let r = CronReport {
            robot_moves: 2,
            ..r
        };
        assert!(r.line().ends_with(", 2 robot moves played"), "{}", r.line());
    }
}

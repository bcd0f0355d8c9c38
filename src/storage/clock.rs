//! Storage for clock (see `crate::server::clock`): each game's own nag and forfeit times, the nags
//! sent, the clock's verdicts, and the players' vacations (migration `0003_clock.sql`).

use rusqlite::{OptionalExtension, params};

use super::{Result, Tx};

/// A game's own clock settings and what the clock has done to it. The default (no row) is a game that
/// follows the server's times and was never nagged.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameClock {
    /// The game's nag time in days (`--nagtime`); `None`: the server's.
    pub nag_days: Option<u32>,
    /// The game's forfeit time in days (`--forfeittime`); `None`: the server's.
    pub forfeit_days: Option<u32>,
    /// The wait (the game's `updated_at`) that `nags_sent` counts for; a later move starts a new wait.
    pub nag_wait: Option<i64>,
    /// Nags sent during that wait.
    pub nags_sent: u32,
    /// Unix seconds of the last nag.
    pub last_nag_at: Option<i64>,
    /// Unix seconds of the first nag of the wait in `nag_wait`.
    pub first_nag_at: Option<i64>,
    /// What the clock did to the game (a forfeit, a draw at forfeit time), one line each.
    pub verdict: Option<String>,
}

/// A player's vacation: `[starts_at, ends_at)` in unix seconds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vacation {
    /// First second away.
    pub starts_at: i64,
    /// First second back.
    pub ends_at: i64,
    /// The last day away as the player wrote it (`YYYY-MM-DD`).
    pub last_day: String,
}

impl Tx<'_> {
    /// A game's clock row, or the default when it has none.
    pub fn game_clock(&self, game_id: i64) -> Result<GameClock> {
        Ok(self
            .0
            .query_row(
                "SELECT nag_days, forfeit_days, nag_wait, nags_sent, last_nag_at, verdict,
                        first_nag_at
                 FROM game_clocks WHERE game_id = ?1",
                [game_id],
                |r| {
                    Ok(GameClock {
                        nag_days: r.get(0)?,
                        forfeit_days: r.get(1)?,
                        nag_wait: r.get(2)?,
                        nags_sent: r.get(3)?,
                        last_nag_at: r.get(4)?,
                        verdict: r.get(5)?,
                        first_nag_at: r.get(6)?,
                    })
                },
            )
            .optional()?
            .unwrap_or_default())
    }

    fn ensure_clock(&self, game_id: i64) -> Result<()> {
        self.0.execute(
            "INSERT OR IGNORE INTO game_clocks (game_id) VALUES (?1)",
            [game_id],
        )?;
        Ok(())
    }

    /// Sets a game's own nag and forfeit times (`None`: the server's).
    pub fn set_clock_days(
        &self,
        game_id: i64,
        nag_days: Option<u32>,
        forfeit_days: Option<u32>,
    ) -> Result<()> {
        self.ensure_clock(game_id)?;
        self.0.execute(
            "UPDATE game_clocks SET nag_days = ?1, forfeit_days = ?2 WHERE game_id = ?3",
            params![nag_days, forfeit_days, game_id],
        )?;
        Ok(())
    }

    /// Records that `nags_sent` nags have now been sent during the wait that began at `wait`.
    pub fn record_nag(&self, game_id: i64, wait: i64, nags_sent: u32, now: i64) -> Result<()> {
        self.ensure_clock(game_id)?;
        self.0.execute(
            "UPDATE game_clocks SET nag_wait = ?1, nags_sent = ?2, last_nag_at = ?3,
             first_nag_at = CASE WHEN nag_wait IS ?1 AND first_nag_at IS NOT NULL
                            THEN first_nag_at ELSE ?3 END
             WHERE game_id = ?4",
            params![wait, nags_sent, now, game_id],
        )?;
        Ok(())
    }

    /// Adds a line to what the clock did to a game.
    pub fn add_verdict(&self, game_id: i64, line: &str) -> Result<()> {
        self.ensure_clock(game_id)?;
        self.0.execute(
            "UPDATE game_clocks SET verdict = CASE WHEN verdict IS NULL THEN ?1
                                                   ELSE verdict || char(10) || ?1 END
             WHERE game_id = ?2",
            params![line, game_id],
        )?;
        Ok(())
    }

    /// A player's vacations, past, present and planned, by start.
    pub fn vacations(&self, user_id: i64) -> Result<Vec<Vacation>> {
        let mut stmt = self.0.prepare(
            "SELECT starts_at, ends_at, last_day FROM vacations WHERE user_id = ?1
             ORDER BY starts_at, id",
        )?;
        let rows = stmt
            .query_map([user_id], |r| {
                Ok(Vacation {
                    starts_at: r.get(0)?,
                    ends_at: r.get(1)?,
                    last_day: r.get(2)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(rows)
    }

    /// Records a vacation.
    pub fn add_vacation(&self, user_id: i64, v: &Vacation, now: i64) -> Result<()> {
        self.0.execute(
            "INSERT INTO vacations (user_id, starts_at, ends_at, last_day, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![user_id, v.starts_at, v.ends_at, v.last_day, now],
        )?;
        Ok(())
    }

    /// Ends a player's vacations at `now`: a planned one is dropped, a current one ends now; past ones
    /// stay (the clock of a wait that spans them still needs them). Returns how many were changed.
    pub fn end_vacations(&self, user_id: i64, now: i64) -> Result<usize> {
        let dropped = self.0.execute(
            "DELETE FROM vacations WHERE user_id = ?1 AND starts_at >= ?2",
            params![user_id, now],
        )?;
        let cut = self.0.execute(
            "UPDATE vacations SET ends_at = ?2 WHERE user_id = ?1 AND starts_at < ?2 AND ends_at > ?2",
            params![user_id, now],
        )?;
        Ok(dropped + cut)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::storage::{Db, SavedStatus};

    #[test]
    fn clock_rows_default_then_record() {
        let dir = tempfile::tempdir().unwrap();
        let mut db = Db::open(&dir.path().join("t.sqlite"), Duration::from_secs(5)).unwrap();
        let tx = db.transaction().unwrap();
        let a = tx.insert_user("a", "h", &[], 1).unwrap();
        let b = tx.insert_user("b", "h", &[], 1).unwrap();
        let g = tx
            .insert_game("limit", 101, "{}", &SavedStatus::bare(false), &[a, b], 1)
            .unwrap();
        assert_eq!(tx.game_clock(g).unwrap(), GameClock::default());
        tx.set_clock_days(g, Some(2), Some(5)).unwrap();
        tx.record_nag(g, 1, 1, 50).unwrap();
        tx.add_verdict(g, "one").unwrap();
        tx.add_verdict(g, "two").unwrap();
        let c = tx.game_clock(g).unwrap();
        assert_eq!(
            (
                c.nag_days,
                c.forfeit_days,
                c.nag_wait,
                c.nags_sent,
                c.last_nag_at
            ),
            (Some(2), Some(5), Some(1), 1, Some(50))
        );
        assert_eq!(c.verdict.as_deref(), Some("one\ntwo"));
        tx.commit().unwrap();
        // Moved at 1, nagged once for this wait (at 50), nag time 2 days, forfeit 5; a forfeit
        // needs a nag sent 2 days before.
        let due = |db: &Db, now: i64| db.clock_candidates(now, 3, 21, 2 * 86_400).unwrap().len();
        assert_eq!(due(&db, 1 + 86_400), 0, "before the nag time");
        assert_eq!(due(&db, 1 + 2 * 86_400), 0, "the first nag is sent");
        assert_eq!(due(&db, 1 + 4 * 86_400), 1, "the second nag is due");
        assert_eq!(due(&db, 1 + 5 * 86_400), 1, "the forfeit is due");
        let tx = db.transaction().unwrap();
        tx.record_nag(g, 1, 3, 5 * 86_400).unwrap();
        tx.commit().unwrap();
        assert_eq!(
            due(&db, 6 * 86_400),
            1,
            "forfeit time, the first nag (at 50) long enough ago"
        );
        let tx = db.transaction().unwrap();
        tx.update_game(g, "{}", &SavedStatus::bare(false), 1 + 86_400)
            .unwrap();
        tx.record_nag(g, 1 + 86_400, 3, 6 * 86_400).unwrap();
        tx.commit().unwrap();
        assert_eq!(
            due(&db, 7 * 86_400),
            0,
            "past the forfeit time of the new wait, but its only nag is a day old"
        );
        assert_eq!(due(&db, 8 * 86_400), 1, "two days after that nag");
        let tx = db.transaction().unwrap();
        tx.update_game(g, "{}", &SavedStatus::bare(true), 1)
            .unwrap();
        tx.commit().unwrap();
        assert_eq!(due(&db, 1 + 5 * 86_400), 0, "finished games are never due");
    }

    /// The clock's test as it was before `games.clock_at` (8096aec): every running game not moved
    /// for a day, read whole. The oracle of the test below.
    const EVERY_WAITING_GAME: &str = "WITH waiting AS (
             SELECT g.game_type, g.board, ?1 - g.updated_at AS wait,
                    86400 * COALESCE(c.nag_days, ?2) AS nag,
                    86400 * COALESCE(c.forfeit_days, ?3) AS forfeit,
                    CASE WHEN c.nag_wait = g.updated_at THEN c.nags_sent ELSE 0 END AS sent,
                    CASE WHEN c.nag_wait = g.updated_at AND c.nags_sent > 0
                         THEN c.first_nag_at END AS first_nag
             FROM games g LEFT JOIN game_clocks c ON c.game_id = g.id
             WHERE g.finished = 0 AND g.updated_at <= ?1 - 86400)
         SELECT board FROM waiting
         WHERE (wait >= forfeit AND first_nag <= ?1 - ?4)
            OR (wait >= nag AND (wait / nag > sent OR (wait >= forfeit AND sent = 0)))
         ORDER BY board";

    const DAY: i64 = 86_400;

    proptest::proptest! {
        #![proptest_config(crate::props::with_cases(40))]

        /// The next look that cron stores (`reschedule_clock`) never hides a game that reading every
        /// waiting game finds due: random games (their own times or the server's, nags sent for this
        /// wait or an older one, a move after the look), a look at a random time, then every six
        /// hours for a month the two tests must name the same games. Each game: when it moved, its
        /// own nag and forfeit days if it has them, and the nag recorded (for this wait or the one
        /// before, the first nag's time after the move, the sent count) if one was.
        #[test]
        fn the_stored_next_look_finds_every_game_that_reading_all_of_them_finds(
            nag in 1..5u32,
            forfeit in 1..12u32,
            drawn in proptest::collection::vec(
                (
                    0..3 * DAY,
                    proptest::option::of((1..5u32, 1..12u32)),
                    proptest::option::of((proptest::bool::ANY, DAY..8 * DAY, 1..4u32)),
                ),
                4,
            ),
            look in 0..10 * DAY,
            moved_after in proptest::option::of(0..4usize),
        ) {
            let dir = tempfile::tempdir().unwrap();
            let mut db = Db::open(&dir.path().join("t.sqlite"), Duration::from_secs(5)).unwrap();
            let warning = 2 * DAY;
            let tx = db.transaction().unwrap();
            let a = tx.insert_user("a", "h", &[], 1).unwrap();
            let b = tx.insert_user("b", "h", &[], 1).unwrap();
            let mut games = Vec::new();
            for (board, &(moved, clock, nagged)) in (101..105u32).zip(&drawn) {
                let g = tx
                    .insert_game(
                        "limit",
                        board,
                        "{}",
                        &SavedStatus::bare(false),
                        &[a, b],
                        moved,
                    )
                    .unwrap();
                if let Some((nag, forfeit)) = clock {
                    tx.set_clock_days(g, Some(nag), Some(forfeit)).unwrap();
                }
                if let Some((this_wait, after, sent)) = nagged {
                    let wait = if this_wait { moved } else { moved - 1 };
                    tx.record_nag(g, wait, sent, moved + after).unwrap();
                }
                games.push((g, moved));
            }
            tx.commit().unwrap();
            db.reschedule_clock(look, nag, forfeit, warning).unwrap();
            if let Some(i) = moved_after {
                // A move after the look starts a new wait.
                let (g, moved) = games[i];
                let tx = db.transaction().unwrap();
                tx.update_game(g, "{}", &SavedStatus::bare(false), moved + look)
                    .unwrap();
                tx.commit().unwrap();
            }
            for step in 0..120 {
                let now = look + step * 6 * 3600;
                let stored: Vec<u32> = db
                    .clock_candidates(now, nag, forfeit, warning)
                    .unwrap()
                    .into_iter()
                    .map(|g| g.board)
                    .collect();
                let mut stmt = db.conn.prepare(EVERY_WAITING_GAME).unwrap();
                let every: Vec<u32> = stmt
                    .query_map(params![now, nag, forfeit, warning], |r| r.get(0))
                    .unwrap()
                    .collect::<rusqlite::Result<_>>()
                    .unwrap();
                proptest::prop_assert_eq!(stored, every, "at {}, looked at {}", now, look);
            }
        }
    }

    /// Cron's own times changed (a new configuration): every stored next look is dropped, since
    /// a shorter nag time than the one it was computed with would otherwise be missed.
    #[test]
    fn new_server_times_drop_the_stored_next_looks() {
        let dir = tempfile::tempdir().unwrap();
        let mut db = Db::open(&dir.path().join("t.sqlite"), Duration::from_secs(5)).unwrap();
        let tx = db.transaction().unwrap();
        let a = tx.insert_user("a", "h", &[], 1).unwrap();
        let b = tx.insert_user("b", "h", &[], 1).unwrap();
        tx.insert_game("limit", 101, "{}", &SavedStatus::bare(false), &[a, b], 0)
            .unwrap();
        tx.commit().unwrap();
        db.reschedule_clock(2 * DAY, 7, 21, 2 * DAY).unwrap();
        assert!(
            db.clock_candidates(3 * DAY, 3, 21, 2 * DAY)
                .unwrap()
                .is_empty()
        );
        db.reschedule_clock(3 * DAY, 3, 21, 2 * DAY).unwrap();
        assert_eq!(
            db.clock_candidates(3 * DAY, 3, 21, 2 * DAY).unwrap().len(),
            1
        );
    }

    #[test]
    fn ending_vacations_keeps_the_past_cuts_the_present_drops_the_planned() {
        let dir = tempfile::tempdir().unwrap();
        let mut db = Db::open(&dir.path().join("t.sqlite"), Duration::from_secs(5)).unwrap();
        let tx = db.transaction().unwrap();
        let a = tx.insert_user("a", "h", &[], 1).unwrap();
        let v = |s, e| Vacation {
            starts_at: s,
            ends_at: e,
            last_day: "2026-01-01".into(),
        };
        tx.add_vacation(a, &v(10, 20), 1).unwrap();
        tx.add_vacation(a, &v(30, 60), 1).unwrap();
        tx.add_vacation(a, &v(70, 80), 1).unwrap();
        assert_eq!(tx.end_vacations(a, 40).unwrap(), 2);
        let left: Vec<(i64, i64)> = tx
            .vacations(a)
            .unwrap()
            .iter()
            .map(|v| (v.starts_at, v.ends_at))
            .collect();
        assert_eq!(left, vec![(10, 20), (30, 40)]);
    }
}

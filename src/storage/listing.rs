//! Storage for the lists (`games`, `history`) and the clock's choice of games: each answered by one
//! query over the small `games` rows, never by reading (let alone replaying) a game's state.

use rusqlite::{OptionalExtension, params};

use super::{GamesFilter, Result, SavedStatus, StorageError, Tx};
use crate::ratings::{Rating, SeatResult};
use crate::storage::{Db, GameResult};

/// A game as the lists show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    /// Row id.
    pub id: i64,
    /// The board number.
    pub board: u32,
    /// True once the game is over.
    pub finished: bool,
    /// Unix seconds of the last move.
    pub updated_at: i64,
    /// The status line saved with the state; `None` for a game not saved since migration 0011
    /// (see [`Tx::game_state`] and [`Tx::set_status`]).
    pub status: Option<String>,
    /// The players' userids, seat by seat.
    pub players: Vec<String>,
    /// The settled results, seat by seat (empty for a game in progress or not rated).
    pub results: Vec<GameResult>,
}

/// A game as `pbem web` shows it ([`Tx::game_view`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameView {
    /// Row id.
    pub id: i64,
    /// The game's JSON document.
    pub state: String,
    /// Unix seconds.
    pub created_at: i64,
    /// Unix seconds of the last move.
    pub updated_at: i64,
    /// The players' userids and current ratings in this game type, seat by seat.
    pub players: Vec<(String, Rating)>,
}

/// A running game the clock may have to act on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClockCandidate {
    /// The game's command word.
    pub game_type: String,
    /// The board number.
    pub board: u32,
}

impl Db {
    /// How many games are running (counted on the partial index of running games).
    pub fn running_games(&self) -> Result<usize> {
        let n: i64 = self.conn.query_row(
            "SELECT COUNT(*) FROM games INDEXED BY games_running WHERE finished = 0",
            [],
            |r| r.get(0),
        )?;
        Ok(n.max(0) as usize)
    }

    /// The running games whose clock may be due at `now`: the nag or forfeit that `pbem cron` would
    /// carry out if the player to move had not been away, by the same rules with the wall-clock time
    /// since the last move (which vacations only shorten): a nag once the wait passes a nag time not
    /// yet covered by the nags sent (or the forfeit time with none sent), a forfeit once the wait
    /// passes the forfeit time and the first nag is `forfeit_warning` seconds old. `nag_days` and
    /// `forfeit_days` are the server's times, for games without their own. The clock still checks
    /// each candidate (vacations); this leaves out, through the partial index on running games,
    /// every game that cannot be due.
    pub fn clock_candidates(
        &self,
        now: i64,
        nag_days: u32,
        forfeit_days: u32,
        forfeit_warning: i64,
    ) -> Result<Vec<ClockCandidate>> {
        // `clock_at` is never later than the first time the test below holds (migration 0050 and
        // `reschedule_clock`), so only the games it names are read.
        let mut stmt = self.conn.prepare_cached(
            "WITH waiting AS (
                 SELECT g.game_type, g.board, ?1 - g.updated_at AS wait,
                        86400 * COALESCE(c.nag_days, ?2) AS nag,
                        86400 * COALESCE(c.forfeit_days, ?3) AS forfeit,
                        CASE WHEN c.nag_wait = g.updated_at THEN c.nags_sent ELSE 0 END AS sent,
                        CASE WHEN c.nag_wait = g.updated_at AND c.nags_sent > 0
                             THEN c.first_nag_at END AS first_nag
                 FROM games g INDEXED BY games_clock LEFT JOIN game_clocks c ON c.game_id = g.id
                 WHERE g.finished = 0 AND g.clock_at <= ?1)
             SELECT game_type, board FROM waiting
             WHERE (wait >= forfeit AND first_nag <= ?1 - ?4)
                OR (wait >= nag AND (wait / nag > sent OR (wait >= forfeit AND sent = 0)))
             ORDER BY game_type, board",
        )?;
        let rows = stmt
            .query_map(params![now, nag_days, forfeit_days, forfeit_warning], |r| {
                Ok(ClockCandidate {
                    game_type: r.get(0)?,
                    board: r.get(1)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(rows)
    }
}

/// The first time the clock's test in [`Db::clock_candidates`] can hold for a game moved at `moved`
/// (its wall-clock wait only grows until a move or a nag changes the game): a day after the move at
/// the earliest, then the next nag time not covered by the `sent` nags, or, once a first nag went
/// out at `first_nag`, the forfeit time if that nag is `warning` seconds old by then. Times in
/// seconds; `nag` and `forfeit` are the game's times.
pub(crate) fn next_clock_check(
    moved: i64,
    nag: i64,
    forfeit: i64,
    sent: i64,
    first_nag: Option<i64>,
    warning: i64,
) -> i64 {
    let next_nag = moved.saturating_add(nag.saturating_mul(sent + 1));
    let forfeit_at = first_nag.map_or(i64::MAX, |f| {
        moved.saturating_add(forfeit).max(f.saturating_add(warning))
    });
    next_nag.min(forfeit_at).max(moved + DAY)
}

const DAY: i64 = 86_400;

/// The games of [`Db::robots_to_move`]: read from the index of the games a robot is to move in
/// (migration 0044), not from every running game, since every committed mail asks.
pub(crate) const ROBOTS_TO_MOVE: &str =
    "SELECT game_type, board FROM games INDEXED BY games_robot_turn
     WHERE robot_turn = 1 AND updated_at <= ?1 ORDER BY updated_at LIMIT ?2";

impl Db {
    /// Makes the clock's next look at each running game it may have to act on by `now` the time its
    /// next nag or forfeit can fall due (see [`next_clock_check`]), once `pbem cron` has acted on
    /// what was due: the next run reads only the games whose time has come, not every game that
    /// waits. The times are the server's (`nag_days`, `forfeit_days`, for games without their own,
    /// and `warning`); when they differ from the ones the stored times were computed with, every
    /// running game is looked at again from a day after its last move.
    pub fn reschedule_clock(
        &mut self,
        now: i64,
        nag_days: u32,
        forfeit_days: u32,
        warning: i64,
    ) -> Result<()> {
        // The write lock first: a read that turns into a write fails at once when another
        // process writes, where this waits for it.
        let tx = self.transaction()?;
        let basis: Option<(i64, i64, i64)> =
            tx.0.query_row(
                "SELECT nag_days, forfeit_days, warning FROM clock_basis WHERE id = 1",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()?;
        let now_basis = (i64::from(nag_days), i64::from(forfeit_days), warning);
        if basis != Some(now_basis) {
            tx.0.execute(
                "UPDATE games SET clock_at = updated_at + 86400 WHERE finished = 0",
                [],
            )?;
            tx.0.execute(
                "INSERT OR REPLACE INTO clock_basis (id, nag_days, forfeit_days, warning)
                 VALUES (1, ?1, ?2, ?3)",
                params![now_basis.0, now_basis.1, now_basis.2],
            )?;
        }
        let looked: Vec<(i64, i64)> = {
            let mut stmt = tx.0.prepare_cached(
                "SELECT g.id, g.updated_at, 86400 * COALESCE(c.nag_days, ?2),
                        86400 * COALESCE(c.forfeit_days, ?3),
                        CASE WHEN c.nag_wait = g.updated_at THEN c.nags_sent ELSE 0 END,
                        CASE WHEN c.nag_wait = g.updated_at AND c.nags_sent > 0
                             THEN c.first_nag_at END
                 FROM games g INDEXED BY games_clock LEFT JOIN game_clocks c ON c.game_id = g.id
                 WHERE g.finished = 0 AND g.clock_at <= ?1",
            )?;
            stmt.query_map(params![now, nag_days, forfeit_days], |r| {
                let next = next_clock_check(
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    warning,
                );
                Ok((r.get(0)?, next))
            })?
            .collect::<rusqlite::Result<_>>()?
        };
        {
            let mut set =
                tx.0.prepare_cached("UPDATE games SET clock_at = ?2 WHERE id = ?1")?;
            for (id, next) in looked {
                set.execute(params![id, next])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// Running games where a robot account is to move and has been since `before` (unix seconds)
    /// or longer, oldest first, at most `limit`: what a process that died between a commit and
    /// its robot's move left (see `server/robots.rs`). Read without the write lock.
    pub fn robots_to_move(&self, before: i64, limit: u32) -> Result<Vec<(String, u32)>> {
        let mut stmt = self.conn.prepare_cached(ROBOTS_TO_MOVE)?;
        let rows = stmt
            .query_map(params![before, limit], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(rows)
    }
}

/// Reads the rows of a listing query whose columns are: game id, board, finished, updated_at,
/// status, seat, userid, then result, rating before, games before, rating after (NULL when not
/// settled); ordered by game, then seat.
fn collect_listing(rows: &mut rusqlite::Rows<'_>) -> Result<Vec<Listed>> {
    let mut out: Vec<Listed> = Vec::new();
    while let Some(r) = rows.next()? {
        let id: i64 = r.get(0)?;
        if out.last().is_none_or(|l| l.id != id) {
            out.push(Listed {
                id,
                board: r.get(1)?,
                finished: r.get(2)?,
                updated_at: r.get(3)?,
                status: r.get(4)?,
                players: Vec::new(),
                results: Vec::new(),
            });
        }
        let entry = out.last_mut().expect("pushed above");
        let seat: i64 = r.get(5)?;
        let userid: String = r.get(6)?;
        let result: Option<String> = r.get(7)?;
        if let Some(result) = result {
            let result = SeatResult::parse(&result)
                .ok_or_else(|| StorageError::Corrupt(format!("game {id}: a result '{result}'")))?;
            entry.results.push(GameResult {
                seat: seat as usize,
                userid: userid.clone(),
                result,
                before: Rating {
                    rating: r.get(8)?,
                    games: r.get(9)?,
                },
                after: r.get(10)?,
            });
        }
        entry.players.push(userid);
    }
    Ok(out)
}

impl Tx<'_> {
    /// A player's row id and userid as signed up, found by userid ignoring case (`pbem web`'s
    /// player page): nothing else of the account is read.
    pub fn player(&self, userid: &str) -> Result<Option<(i64, String)>> {
        Ok(self
            .0
            .query_row(
                "SELECT id, userid FROM users WHERE userid_key = ?1",
                [crate::accounts::userid_key(userid)],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?)
    }

    /// A player's games of one type, by board number, in one query.
    pub fn games_of(
        &self,
        user_id: i64,
        game_type: &str,
        filter: GamesFilter,
    ) -> Result<Vec<Listed>> {
        let finished = match filter {
            GamesFilter::Active | GamesFilter::Next => Some(false),
            GamesFilter::Finished => Some(true),
            GamesFilter::All => None,
        };
        let next = filter == GamesFilter::Next;
        let mut stmt = self.0.prepare_cached(
            "SELECT g.id, g.board, g.finished, g.updated_at, g.status, s.seat, u.userid,
                    r.result, r.rating_before, r.games_before, r.rating_after
             FROM seats mine JOIN games g ON g.id = mine.game_id
             JOIN seats s ON s.game_id = g.id JOIN users u ON u.id = s.user_id
             LEFT JOIN game_results r ON r.game_id = g.id AND r.seat = s.seat
             WHERE mine.user_id = ?1 AND g.game_type = ?2 AND (?3 IS NULL OR g.finished = ?3)
               AND (NOT ?4 OR g.to_move = mine.seat)
             ORDER BY g.board, s.seat",
        )?;
        let mut rows = stmt.query(params![user_id, game_type, finished, next])?;
        collect_listing(&mut rows)
    }

    /// One page of a game type's finished games, newest first (`limit` games after skipping
    /// `offset`), with their players and results, in one query.
    pub fn finished_page(&self, game_type: &str, limit: u32, offset: u64) -> Result<Vec<Listed>> {
        self.page_of_games(game_type, "AND finished = 1", limit, offset)
    }

    /// One page of a game type's games, running and finished, most recently moved first (`limit`
    /// games after skipping `offset`), with their players and results, in one query (`pbem web`).
    pub fn games_page(&self, game_type: &str, limit: u32, offset: u64) -> Result<Vec<Listed>> {
        self.page_of_games(game_type, "", limit, offset)
    }

    /// The page query of [`Tx::finished_page`] and [`Tx::games_page`]; `only` is a fixed condition
    /// on games (kept in the SQL text, so that the finished games' partial index serves it).
    fn page_of_games(
        &self,
        game_type: &str,
        only: &str,
        limit: u32,
        offset: u64,
    ) -> Result<Vec<Listed>> {
        let mut stmt = self.0.prepare_cached(&format!(
            "WITH page AS (SELECT id, board, finished, updated_at, status FROM games
                           WHERE game_type = ?1 {only}
                           ORDER BY updated_at DESC, board DESC LIMIT ?2 OFFSET ?3)
             SELECT p.id, p.board, p.finished, p.updated_at, p.status, s.seat, u.userid,
                    r.result, r.rating_before, r.games_before, r.rating_after
             FROM page p JOIN seats s ON s.game_id = p.id JOIN users u ON u.id = s.user_id
             LEFT JOIN game_results r ON r.game_id = p.id AND r.seat = s.seat
             ORDER BY p.updated_at DESC, p.board DESC, s.seat"
        ))?;
        let offset = i64::try_from(offset).unwrap_or(i64::MAX);
        let mut rows = stmt.query(params![game_type, limit, offset])?;
        collect_listing(&mut rows)
    }

    /// One game as `pbem web` shows it: its state and its players with their ratings, and nothing
    /// else of theirs (no address, no password hash is read).
    pub fn game_view(&self, game_type: &str, board: u32) -> Result<Option<GameView>> {
        let head = self
            .0
            .query_row(
                "SELECT g.id, st.state, g.created_at, g.updated_at
                 FROM games g JOIN game_states st ON st.game_id = g.id
                 WHERE g.game_type = ?1 AND g.board = ?2",
                params![game_type, board],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .optional()?;
        let Some((id, state, created_at, updated_at)) = head else {
            return Ok(None);
        };
        let mut stmt = self.0.prepare_cached(
            "SELECT u.userid, COALESCE(r.rating, ?3), COALESCE(r.games, 0)
             FROM seats s JOIN users u ON u.id = s.user_id
             LEFT JOIN ratings r ON r.user_id = s.user_id AND r.game_type = ?2
             WHERE s.game_id = ?1 ORDER BY s.seat",
        )?;
        let players = stmt
            .query_map(
                params![id, game_type, Rating::default().rating],
                super::ratings::userid_and_rating,
            )?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(Some(GameView {
            id,
            state,
            created_at,
            updated_at,
            players,
        }))
    }

    /// How many games of a type are running, and how many finished.
    pub fn game_counts(&self, game_type: &str) -> Result<(u64, u64)> {
        let (running, finished): (i64, i64) = self.0.query_row(
            "SELECT COALESCE(SUM(finished = 0), 0), COALESCE(SUM(finished = 1), 0)
             FROM games WHERE game_type = ?1",
            [game_type],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        Ok((running.max(0) as u64, finished.max(0) as u64))
    }

    /// How many games of a type are finished.
    pub fn finished_count(&self, game_type: &str) -> Result<u64> {
        let n: i64 = self.0.query_row(
            "SELECT COUNT(*) FROM games WHERE game_type = ?1 AND finished = 1",
            [game_type],
            |r| r.get(0),
        )?;
        Ok(n.max(0) as u64)
    }

    /// A game's JSON document (for a listed game without a saved status).
    pub fn game_state(&self, game_id: i64) -> Result<String> {
        Ok(self.0.query_row(
            "SELECT state FROM game_states WHERE game_id = ?1",
            [game_id],
            |r| r.get(0),
        )?)
    }

    /// A player's running games of a type whose seat to move is not saved yet (saved before
    /// migration 0011): `games ... next` fills them in first.
    pub fn games_without_to_move(&self, user_id: i64, game_type: &str) -> Result<Vec<u32>> {
        let mut stmt = self.0.prepare_cached(
            "SELECT g.board FROM games g JOIN seats s ON s.game_id = g.id
             WHERE s.user_id = ?1 AND g.game_type = ?2 AND g.finished = 0 AND g.to_move IS NULL",
        )?;
        let ids = stmt
            .query_map(params![user_id, game_type], |r| r.get(0))?
            .collect::<rusqlite::Result<Vec<u32>>>()?;
        Ok(ids)
    }

    /// Saves what the lists show of a game whose state is unchanged (a game saved before migration
    /// 0011, once it has been loaded).
    pub fn set_status(&self, game_id: i64, status: &SavedStatus) -> Result<()> {
        self.0.execute(
            "UPDATE games SET finished = ?1, to_move = ?2, status = ?3 WHERE id = ?4",
            params![
                status.finished,
                status.to_move.map(|s| s as i64),
                status.line,
                game_id
            ],
        )?;
        Ok(())
    }
}

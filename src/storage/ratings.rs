//! Storage for ratings (see `crate::server::standings`): each player's current rating per game type
//! (table `ratings`), and each finished game's results with the ratings before and after (table
//! `game_results`).

use rusqlite::{OptionalExtension, params};

use super::{Result, StorageError, Tx};
use crate::ratings::{Rating, SeatResult};

/// One seat of a settled game: how it fared and what it did to the player's rating.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameResult {
    /// The seat, 0-based.
    pub seat: usize,
    /// The player's userid.
    pub userid: String,
    /// Won, lost or drew.
    pub result: SeatResult,
    /// The rating (and games played) before the game.
    pub before: Rating,
    /// The rating after it.
    pub after: i32,
}

/// One player's line of a game type's standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    /// The player's userid.
    pub userid: String,
    /// Finished (rated) games.
    pub played: u32,
    /// Games won.
    pub won: u32,
    /// Games lost (a seat left out of a shared draw lost).
    pub lost: u32,
    /// Games drawn.
    pub drawn: u32,
    /// Games still going on.
    pub active: u32,
}

impl Tx<'_> {
    /// A player's rating in a game type: 1600 after no games when they have none yet.
    pub fn rating(&self, game_type: &str, user_id: i64) -> Result<Rating> {
        let row = self
            .0
            .query_row(
                "SELECT rating, games FROM ratings WHERE game_type = ?1 AND user_id = ?2",
                params![game_type, user_id],
                |r| {
                    Ok(Rating {
                        rating: r.get(0)?,
                        games: r.get(1)?,
                    })
                },
            )
            .optional()?;
        Ok(row.unwrap_or_default())
    }

    /// True once a game's results are recorded.
    pub fn is_settled(&self, game_id: i64) -> Result<bool> {
        Ok(self
            .0
            .query_row(
                "SELECT 1 FROM game_results WHERE game_id = ?1 LIMIT 1",
                [game_id],
                |_| Ok(()),
            )
            .optional()?
            .is_some())
    }

    /// Records one seat of a finished game and sets the player's rating to `after`.
    #[allow(clippy::too_many_arguments)]
    pub fn record_result(
        &self,
        game_type: &str,
        game_id: i64,
        seat: usize,
        user_id: i64,
        result: SeatResult,
        before: Rating,
        after: Rating,
        now: i64,
    ) -> Result<()> {
        self.0.execute(
            "INSERT INTO game_results
             (game_id, seat, user_id, result, rating_before, rating_after, games_before, settled_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                game_id,
                seat as i64,
                user_id,
                result.as_str(),
                before.rating,
                after.rating,
                before.games,
                now
            ],
        )?;
        self.0.execute(
            "INSERT INTO ratings (game_type, user_id, rating, games) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (game_type, user_id) DO UPDATE SET rating = ?3, games = ?4",
            params![game_type, user_id, after.rating, after.games],
        )?;
        Ok(())
    }

    /// A settled game's results, seat by seat (empty for a game not settled).
    pub fn game_results(&self, game_id: i64) -> Result<Vec<GameResult>> {
        let mut stmt = self.0.prepare(
            "SELECT r.seat, u.userid, r.result, r.rating_before, r.games_before, r.rating_after
             FROM game_results r JOIN users u ON u.id = r.user_id
             WHERE r.game_id = ?1 ORDER BY r.seat",
        )?;
        let rows = stmt
            .query_map([game_id], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, i32>(3)?,
                    r.get::<_, u32>(4)?,
                    r.get::<_, i32>(5)?,
                ))
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        rows.into_iter()
            .map(|(seat, userid, result, rating, games, after)| {
                let result = SeatResult::parse(&result).ok_or_else(|| {
                    StorageError::Corrupt(format!("game {game_id}: a result '{result}'"))
                })?;
                Ok(GameResult {
                    seat: seat as usize,
                    userid,
                    result,
                    before: Rating { rating, games },
                    after,
                })
            })
            .collect()
    }

    /// A game type's rating list: every rated player, best first (ties by userid).
    pub fn rating_list(&self, game_type: &str) -> Result<Vec<(String, Rating)>> {
        let mut stmt = self.0.prepare(
            "SELECT u.userid, r.rating, r.games FROM ratings r JOIN users u ON u.id = r.user_id
             WHERE r.game_type = ?1 ORDER BY r.rating DESC, u.userid_key",
        )?;
        let rows = stmt
            .query_map([game_type], |r| {
                Ok((
                    r.get(0)?,
                    Rating {
                        rating: r.get(1)?,
                        games: r.get(2)?,
                    },
                ))
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(rows)
    }

    /// A game type's standings: every player with a game of the type (finished or not), by games won,
    /// then drawn, then fewest lost, then userid.
    pub fn standings(&self, game_type: &str) -> Result<Vec<Standing>> {
        let mut stmt = self.0.prepare(
            "SELECT u.userid,
                    COALESCE(f.played, 0), COALESCE(f.won, 0), COALESCE(f.lost, 0),
                    COALESCE(f.drawn, 0), COALESCE(a.active, 0)
             FROM users u
             LEFT JOIN (SELECT r.user_id, COUNT(*) AS played,
                               SUM(r.result = 'won') AS won, SUM(r.result = 'lost') AS lost,
                               SUM(r.result = 'drew') AS drawn
                        FROM game_results r JOIN games g ON g.id = r.game_id
                        WHERE g.game_type = ?1 GROUP BY r.user_id) f ON f.user_id = u.id
             LEFT JOIN (SELECT s.user_id, COUNT(*) AS active
                        FROM seats s JOIN games g ON g.id = s.game_id
                        WHERE g.game_type = ?1 AND g.finished = 0 GROUP BY s.user_id) a
                    ON a.user_id = u.id
             WHERE f.user_id IS NOT NULL OR a.user_id IS NOT NULL
             ORDER BY 3 DESC, 5 DESC, 4 ASC, u.userid_key",
        )?;
        let rows = stmt
            .query_map([game_type], |r| {
                Ok(Standing {
                    userid: r.get(0)?,
                    played: r.get(1)?,
                    won: r.get(2)?,
                    lost: r.get(3)?,
                    drawn: r.get(4)?,
                    active: r.get(5)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::Db;
    use crate::storage::SavedStatus;

    fn setup() -> (tempfile::TempDir, Db) {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(
            &dir.path().join("t.sqlite"),
            std::time::Duration::from_secs(5),
        )
        .unwrap();
        (dir, db)
    }

    #[test]
    fn results_and_ratings_round_trip_and_make_the_standings() {
        let (_dir, mut db) = setup();
        let tx = db.transaction().unwrap();
        let a = tx.insert_user("Alice", "h", &[], 1).unwrap();
        let b = tx.insert_user("bob", "h", &[], 1).unwrap();
        let c = tx.insert_user("carol", "h", &[], 1).unwrap();
        let g1 = tx
            .insert_game("limit", 101, "{}", &SavedStatus::bare(true), &[a, b], 1)
            .unwrap();
        let g2 = tx
            .insert_game("limit", 102, "{}", &SavedStatus::bare(false), &[b, c], 1)
            .unwrap();
        tx.insert_game("other", 101, "{}", &SavedStatus::bare(false), &[a, c], 1)
            .unwrap();

        assert_eq!(tx.rating("limit", a).unwrap(), Rating::initial());
        assert!(!tx.is_settled(g1).unwrap());
        let after_a = Rating {
            rating: 1632,
            games: 1,
        };
        let after_b = Rating {
            rating: 1568,
            games: 1,
        };
        tx.record_result(
            "limit",
            g1,
            0,
            a,
            SeatResult::Won,
            Rating::initial(),
            after_a,
            5,
        )
        .unwrap();
        tx.record_result(
            "limit",
            g1,
            1,
            b,
            SeatResult::Lost,
            Rating::initial(),
            after_b,
            5,
        )
        .unwrap();
        assert!(tx.is_settled(g1).unwrap());
        assert!(!tx.is_settled(g2).unwrap());
        assert_eq!(tx.rating("limit", a).unwrap(), after_a);
        assert_eq!(tx.rating("other", a).unwrap(), Rating::initial());

        let results = tx.game_results(g1).unwrap();
        assert_eq!(
            results,
            vec![
                GameResult {
                    seat: 0,
                    userid: "Alice".into(),
                    result: SeatResult::Won,
                    before: Rating::initial(),
                    after: 1632
                },
                GameResult {
                    seat: 1,
                    userid: "bob".into(),
                    result: SeatResult::Lost,
                    before: Rating::initial(),
                    after: 1568
                }
            ]
        );
        assert_eq!(
            tx.rating_list("limit").unwrap(),
            vec![("Alice".to_string(), after_a), ("bob".to_string(), after_b)]
        );
        // carol has no finished game but an active one; the game of another type does not count.
        let s = tx.standings("limit").unwrap();
        let line = |u: &str| s.iter().find(|x| x.userid == u).unwrap().clone();
        assert_eq!(s.len(), 3);
        assert_eq!(s[0].userid, "Alice");
        assert_eq!(
            (
                line("Alice").played,
                line("Alice").won,
                line("Alice").active
            ),
            (1, 1, 0)
        );
        let bob = line("bob");
        assert_eq!(
            (bob.played, bob.won, bob.lost, bob.drawn, bob.active),
            (1, 0, 1, 0, 1)
        );
        let carol = line("carol");
        assert_eq!((carol.played, carol.active), (0, 1));

        let finished = tx.finished_page("limit", 50, 0).unwrap();
        assert_eq!(finished.len(), 1);
        assert_eq!(finished[0].board, 101);
        assert_eq!(finished[0].players, vec!["Alice", "bob"]);
        assert_eq!(finished[0].results.len(), 2, "both seats settled");
        assert_eq!(tx.finished_count("limit").unwrap(), 1);
        assert!(tx.finished_page("limit", 50, 1).unwrap().is_empty());
    }

    #[test]
    fn a_seat_is_settled_once() {
        let (_dir, mut db) = setup();
        let tx = db.transaction().unwrap();
        let a = tx.insert_user("a", "h", &[], 1).unwrap();
        let b = tx.insert_user("b", "h", &[], 1).unwrap();
        let g = tx
            .insert_game("limit", 101, "{}", &SavedStatus::bare(true), &[a, b], 1)
            .unwrap();
        let r = Rating::initial();
        tx.record_result("limit", g, 0, a, SeatResult::Drew, r, r, 5)
            .unwrap();
        assert!(
            tx.record_result("limit", g, 0, a, SeatResult::Drew, r, r, 5)
                .is_err(),
            "the primary key refuses a second settlement of the same seat"
        );
    }
}

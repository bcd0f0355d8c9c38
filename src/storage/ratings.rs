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

/// One seat's result of a finished game, as [`Tx::record_result`] records it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeatRecord {
    /// The seat, 0-based.
    pub seat: usize,
    /// The player's account row.
    pub user_id: i64,
    /// Won, lost or drew.
    pub result: SeatResult,
    /// The rating (and games played) before the game.
    pub before: Rating,
    /// The rating (and games played) after it.
    pub after: Rating,
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

    /// Records one seat of a finished game and sets the player's rating to its `after`.
    pub fn record_result(
        &self,
        game_type: &str,
        game_id: i64,
        seat: &SeatRecord,
        now: i64,
    ) -> Result<()> {
        let SeatRecord {
            seat,
            user_id,
            result,
            before,
            after,
        } = *seat;
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
            .query_map([game_type], userid_and_rating)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(rows)
    }

    /// A game type's standings: every player with a game of the type (finished or not), by games won,
    /// then drawn, then fewest lost, then userid.
    pub fn standings(&self, game_type: &str) -> Result<Vec<Standing>> {
        // The `standings` table is kept by triggers (migration 0011): no count over the games.
        let mut stmt = self.0.prepare_cached(
            "SELECT u.userid, s.played, s.won, s.lost, s.drawn, s.active
             FROM standings s JOIN users u ON u.id = s.user_id
             WHERE s.game_type = ?1 AND (s.played > 0 OR s.active > 0)
             ORDER BY s.won DESC, s.drawn DESC, s.lost ASC, u.userid_key",
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

/// A row of `userid, rating, games`, as the rating list and the web's player list select them.
pub(super) fn userid_and_rating(r: &rusqlite::Row<'_>) -> rusqlite::Result<(String, Rating)> {
    Ok((
        r.get(0)?,
        Rating {
            rating: r.get(1)?,
            games: r.get(2)?,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(
        seat: usize,
        user_id: i64,
        result: SeatResult,
        before: Rating,
        after: Rating,
    ) -> SeatRecord {
        SeatRecord {
            seat,
            user_id,
            result,
            before,
            after,
        }
    }
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
        let initial = Rating::initial();
        tx.record_result(
            "limit",
            g1,
            &rec(0, a, SeatResult::Won, initial, after_a),
            5,
        )
        .unwrap();
        tx.record_result(
            "limit",
            g1,
            &rec(1, b, SeatResult::Lost, initial, after_b),
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
        tx.record_result("limit", g, &rec(0, a, SeatResult::Drew, r, r), 5)
            .unwrap();
        assert!(
            tx.record_result("limit", g, &rec(0, a, SeatResult::Drew, r, r), 5)
                .is_err(),
            "the primary key refuses a second settlement of the same seat"
        );
    }

    /// Rows of (game type, user id, userid, [played, won, lost, drawn, active]) from `sql`.
    fn standings_rows(tx: &Tx<'_>, sql: &str) -> Vec<(String, i64, String, [i64; 5])> {
        let mut stmt = tx.0.prepare(sql).unwrap();
        stmt.query_map([], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                [r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?, r.get(7)?],
            ))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect()
    }

    /// The standings counted from the games, seats and results (what the triggers of migration
    /// 0011 keep in the `standings` table), in the table's order.
    fn standings_counted(tx: &Tx<'_>) -> Vec<(String, i64, String, [i64; 5])> {
        standings_rows(
            tx,
            "SELECT x.game_type, x.user_id, u.userid, SUM(played), SUM(won), SUM(lost),
                    SUM(drawn), SUM(active)
             FROM (SELECT g.game_type, r.user_id, 1 AS played, r.result = 'won' AS won,
                          r.result = 'lost' AS lost, r.result = 'drew' AS drawn, 0 AS active
                   FROM game_results r JOIN games g ON g.id = r.game_id
                   UNION ALL
                   SELECT g.game_type, s.user_id, 0, 0, 0, 0, 1
                   FROM seats s JOIN games g ON g.id = s.game_id WHERE g.finished = 0) x
             JOIN users u ON u.id = x.user_id
             GROUP BY x.game_type, x.user_id ORDER BY 1, 2",
        )
    }

    /// The `standings` table, with the rows of nothing dropped.
    fn standings_kept(tx: &Tx<'_>) -> Vec<(String, i64, String, [i64; 5])> {
        standings_rows(
            tx,
            "SELECT s.game_type, s.user_id, u.userid, played, won, lost, drawn, active
             FROM standings s JOIN users u ON u.id = s.user_id
             WHERE played <> 0 OR won <> 0 OR lost <> 0 OR drawn <> 0 OR active <> 0
             ORDER BY 1, 2",
        )
    }

    #[test]
    fn the_kept_standings_always_equal_the_counted_ones() {
        use rand_chacha::ChaCha8Rng;
        use rand_core::{Rng, SeedableRng};
        let (_dir, mut db) = setup();
        let tx = db.transaction().unwrap();
        let users: Vec<i64> = (0..6)
            .map(|u| tx.insert_user(&format!("u{u}"), "h", &[], 1).unwrap())
            .collect();
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut pick = |n: usize| (rng.next_u64() % n as u64) as usize;
        let mut games: Vec<(i64, Vec<i64>)> = Vec::new();
        for step in 0..400 {
            match pick(6) {
                0 | 1 => {
                    let a = users[pick(6)];
                    let b = users.iter().copied().find(|&u| u != a).unwrap();
                    let c = users[pick(6)];
                    let seats = if c != a && c != b && pick(2) == 0 {
                        vec![a, b, c]
                    } else {
                        vec![a, b]
                    };
                    let kind = ["limit", "other"][pick(2)];
                    let board = 101 + step;
                    let id = tx
                        .insert_game(
                            kind,
                            board,
                            "{}",
                            &SavedStatus::bare(pick(5) == 0),
                            &seats,
                            1,
                        )
                        .unwrap();
                    games.push((id, seats));
                }
                2 if !games.is_empty() => {
                    let (id, _) = &games[pick(games.len())];
                    let finished = pick(4) != 0;
                    tx.update_game(*id, "{}", &SavedStatus::bare(finished), 2)
                        .unwrap();
                }
                3 if !games.is_empty() => {
                    let (id, seats) = &games[pick(games.len())];
                    if !tx.is_settled(*id).unwrap() {
                        let kind: String = tx
                            .0
                            .query_row("SELECT game_type FROM games WHERE id = ?1", [id], |r| {
                                r.get(0)
                            })
                            .unwrap();
                        for (seat, &u) in seats.iter().enumerate() {
                            let result =
                                [SeatResult::Won, SeatResult::Lost, SeatResult::Drew][pick(3)];
                            let r = Rating::initial();
                            tx.record_result(&kind, *id, &rec(seat, u, result, r, r), 3)
                                .unwrap();
                        }
                    }
                }
                4 if !games.is_empty() => {
                    let (id, _) = &games[pick(games.len())];
                    tx.0.execute("DELETE FROM game_results WHERE game_id = ?1", [id])
                        .unwrap();
                }
                5 if !games.is_empty() => {
                    let k = pick(games.len());
                    let (id, seats) = &mut games[k];
                    let seat = pick(seats.len());
                    let new = users[pick(6)];
                    if !seats.contains(&new) {
                        tx.0.execute(
                            "UPDATE seats SET user_id = ?1 WHERE game_id = ?2 AND seat = ?3",
                            params![new, *id, seat as i64],
                        )
                        .unwrap();
                        seats[seat] = new;
                    }
                }
                _ => {}
            }
            assert_eq!(
                standings_kept(&tx),
                standings_counted(&tx),
                "after step {step}"
            );
        }
        // Deleting games (the seats and results go with them) keeps them equal too.
        for (id, _) in games.iter().take(20) {
            tx.0.execute("DELETE FROM game_results WHERE game_id = ?1", [id])
                .unwrap();
            tx.0.execute("DELETE FROM games WHERE id = ?1", [id])
                .unwrap();
            assert_eq!(
                standings_kept(&tx),
                standings_counted(&tx),
                "after deleting game {id}"
            );
        }
        assert!(!standings_kept(&tx).is_empty());
    }
}

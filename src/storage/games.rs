//! Storage of the games: their rows, seats, states, time used and comments.

use rusqlite::{OptionalExtension, params};

use super::{Comment, GameRow, Result, SavedStatus, Tx, User};

impl Tx<'_> {
    /// The number the next board of this game type gets: 101 for the first.
    pub fn next_board(&self, game_type: &str) -> Result<u32> {
        let max: Option<u32> = self.0.query_row(
            "SELECT MAX(board) FROM games WHERE game_type = ?1",
            [game_type],
            |r| r.get(0),
        )?;
        Ok(max.map_or(101, |m| m + 1))
    }

    /// Stores a new game with its players (user row ids, seat by seat); returns its row id.
    pub fn insert_game(
        &self,
        game_type: &str,
        board: u32,
        state: &str,
        status: &SavedStatus,
        players: &[i64],
        now: i64,
    ) -> Result<i64> {
        self.0.execute(
            "INSERT INTO games (game_type, board, finished, to_move, status, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)",
            params![
                game_type,
                board,
                status.finished,
                status.to_move.map(|s| s as i64),
                status.line,
                now
            ],
        )?;
        let id = self.0.last_insert_rowid();
        self.0.execute(
            "INSERT INTO game_states (game_id, state) VALUES (?1, ?2)",
            params![id, state],
        )?;
        for (seat, user) in players.iter().enumerate() {
            self.0.execute(
                "INSERT INTO seats (game_id, seat, user_id) VALUES (?1, ?2, ?3)",
                params![id, seat as i64, user],
            )?;
        }
        Ok(id)
    }

    /// The game of this type with this board number.
    pub fn game(&self, game_type: &str, board: u32) -> Result<Option<GameRow>> {
        let row = self
            .0
            .query_row(
                "SELECT g.id, g.game_type, g.board, st.state, g.finished, g.created_at, g.updated_at
                 FROM games g JOIN game_states st ON st.game_id = g.id
                 WHERE g.game_type = ?1 AND g.board = ?2",
                params![game_type, board],
                game_row,
            )
            .optional()?;
        match row {
            Some(mut g) => {
                g.players = self.players(g.id)?;
                Ok(Some(g))
            }
            None => Ok(None),
        }
    }

    fn players(&self, game_id: i64) -> Result<Vec<User>> {
        let ids = {
            let mut stmt = self
                .0
                .prepare("SELECT user_id FROM seats WHERE game_id = ?1 ORDER BY seat")?;
            stmt.query_map([game_id], |r| r.get::<_, i64>(0))?
                .collect::<rusqlite::Result<Vec<_>>>()?
        };
        ids.into_iter().map(|id| self.user_by_id(id)).collect()
    }

    /// Charges the time since the game's last change to the seat that had the move (as saved with
    /// the game): called when a turn is made, before its state is saved.
    pub fn charge_time(&self, game_id: i64, now: i64) -> Result<()> {
        self.0.execute(
            "UPDATE seats SET time_used = time_used +
                 MAX(0, ?2 - (SELECT updated_at FROM games WHERE id = ?1))
             WHERE game_id = ?1 AND seat = (SELECT to_move FROM games WHERE id = ?1)",
            params![game_id, now],
        )?;
        Ok(())
    }

    /// Marks a game cancelled by the admin: it ends unrated.
    pub fn cancel_game(&self, game_id: i64, now: i64) -> Result<()> {
        self.0.execute(
            "UPDATE games SET cancelled_at = ?2 WHERE id = ?1",
            params![game_id, now],
        )?;
        Ok(())
    }

    /// True when the admin cancelled the game.
    pub fn is_cancelled(&self, game_id: i64) -> Result<bool> {
        Ok(self.0.query_row(
            "SELECT cancelled_at IS NOT NULL FROM games WHERE id = ?1",
            [game_id],
            |r| r.get(0),
        )?)
    }

    /// Puts another player in a seat (the admin's `replace`), who agrees to the game by it.
    pub fn replace_seat(&self, game_id: i64, seat: usize, user_id: i64, now: i64) -> Result<()> {
        self.0.execute(
            "UPDATE seats SET user_id = ?3, agreed_at = ?4 WHERE game_id = ?1 AND seat = ?2",
            params![game_id, seat as i64, user_id, now],
        )?;
        Ok(())
    }

    /// The time each seat of a game has used, in seconds, seat by seat.
    pub fn time_used(&self, game_id: i64) -> Result<Vec<i64>> {
        let mut stmt = self
            .0
            .prepare_cached("SELECT time_used FROM seats WHERE game_id = ?1 ORDER BY seat")?;
        let rows = stmt
            .query_map([game_id], |r| r.get(0))?
            .collect::<rusqlite::Result<Vec<i64>>>()?;
        Ok(rows)
    }

    /// Saves a game's new state, with what the lists show of it.
    pub fn update_game(
        &self,
        game_id: i64,
        state: &str,
        status: &SavedStatus,
        now: i64,
    ) -> Result<()> {
        self.0.execute(
            "UPDATE games SET finished = ?1, to_move = ?2, status = ?3, updated_at = ?4 WHERE id = ?5",
            params![
                status.finished,
                status.to_move.map(|s| s as i64),
                status.line,
                now,
                game_id
            ],
        )?;
        self.0.execute(
            "UPDATE game_states SET state = ?1 WHERE game_id = ?2",
            params![state, game_id],
        )?;
        Ok(())
    }

    /// The number of unfinished games a player is in, of any type.
    pub fn active_games(&self, user_id: i64) -> Result<i64> {
        Ok(self.0.query_row(
            "SELECT COUNT(*) FROM games g JOIN seats s ON s.game_id = g.id
             WHERE s.user_id = ?1 AND g.finished = 0",
            [user_id],
            |r| r.get(0),
        )?)
    }

    /// Attaches a comment to a game.
    pub fn add_comment(
        &self,
        game_id: i64,
        move_number: u32,
        user_id: i64,
        body: &str,
        now: i64,
    ) -> Result<()> {
        self.0.execute(
            "INSERT INTO comments (game_id, move_number, user_id, body, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![game_id, move_number, user_id, body, now],
        )?;
        Ok(())
    }

    /// A game's comments, oldest first.
    pub fn comments(&self, game_id: i64) -> Result<Vec<Comment>> {
        let mut stmt = self.0.prepare(
            "SELECT c.move_number, u.userid, c.body, c.created_at FROM comments c
             JOIN users u ON u.id = c.user_id WHERE c.game_id = ?1 ORDER BY c.id",
        )?;
        let rows = stmt
            .query_map([game_id], |r| {
                Ok(Comment {
                    move_number: r.get(0)?,
                    userid: r.get(1)?,
                    body: r.get(2)?,
                    created_at: r.get(3)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(rows)
    }
}

fn game_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<GameRow> {
    Ok(GameRow {
        id: r.get(0)?,
        game_type: r.get(1)?,
        board: r.get(2)?,
        state: r.get(3)?,
        finished: r.get(4)?,
        created_at: r.get(5)?,
        updated_at: r.get(6)?,
        players: Vec::new(),
    })
}

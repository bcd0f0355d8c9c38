//! Storage for what keeps strangers from hurting players (see `crate::server` and issue "Trust"): who a
//! sender is, which players agreed to a game, addresses that wait for confirmation, and outbox pruning.

use rusqlite::{OptionalExtension, params};

use super::{Result, Tx};

impl Tx<'_> {
    /// The userid registered with this address (ignoring case), if one is; the oldest account first
    /// when several share it.
    pub fn userid_at_address(&self, address: &str) -> Result<Option<String>> {
        Ok(self
            .0
            .query_row(
                "SELECT u.userid FROM users u JOIN addresses a ON a.user_id = u.id
                 WHERE lower(a.address) = lower(?1) AND u.password_hash IS NOT NULL
                 ORDER BY u.id LIMIT 1",
                [address],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// The lowest unfinished board of this type that the player sits at, for examples in answers.
    pub fn an_active_board(&self, userid: &str, game_type: &str) -> Result<Option<u32>> {
        Ok(self
            .0
            .query_row(
                "SELECT g.board FROM games g JOIN seats s ON s.game_id = g.id
                 JOIN users u ON u.id = s.user_id
                 WHERE u.userid_key = ?1 AND g.game_type = ?2 AND g.finished = 0
                 ORDER BY g.board LIMIT 1",
                params![userid.to_lowercase(), game_type],
                |r| r.get(0),
            )
            .optional()?)
    }
}

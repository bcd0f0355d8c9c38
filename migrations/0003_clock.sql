-- The clock of correspondence play (`pbem cron`): per-game nag and forfeit times, the nags sent, the
-- clock's verdicts, and the players' vacations.

-- One row per game that has its own times or has been acted on by the clock; a game without a row
-- follows the server's [time] settings and has never been nagged.
CREATE TABLE game_clocks (
    game_id      INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    nag_days     INTEGER,                     -- --nagtime; NULL: the server's time.nag_days
    forfeit_days INTEGER,                     -- --forfeittime; NULL: the server's time.forfeit_days
    nag_wait     INTEGER,                     -- games.updated_at of the wait the nags below belong to
    nags_sent    INTEGER NOT NULL DEFAULT 0,  -- nags sent during that wait
    last_nag_at  INTEGER,                     -- unix seconds of the last nag
    verdict      TEXT                         -- what the clock did to the game (forfeits), shown under the status
);

-- A player away: no nags or forfeits, and the time does not count towards them.
CREATE TABLE vacations (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users(id),
    starts_at  INTEGER NOT NULL,              -- unix seconds, inclusive
    ends_at    INTEGER NOT NULL,              -- unix seconds, exclusive (00:00 UTC after the last day)
    last_day   TEXT    NOT NULL,              -- the last day as the player wrote it (YYYY-MM-DD)
    created_at INTEGER NOT NULL
);
CREATE INDEX vacations_by_user ON vacations(user_id, ends_at);

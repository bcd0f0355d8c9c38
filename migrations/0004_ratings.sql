-- Ratings (issue 4): each player's Elo rating per game type, and what every finished game did to it.
-- The arithmetic is in src/ratings.rs; the server writes these rows when a game ends (settle_game).

-- The current rating of a player in a game type; no row means 1600 after no games.
CREATE TABLE ratings (
    game_type TEXT    NOT NULL,                -- the game's command word: limit
    user_id   INTEGER NOT NULL REFERENCES users(id),
    rating    INTEGER NOT NULL,
    games     INTEGER NOT NULL,                -- rated games played (provisional below 20)
    PRIMARY KEY (game_type, user_id)
);

-- One row per seat of every finished game: the result and the rating before and after, for the game's
-- mails, the history and the standings. A game has rows once it is settled, and is settled once.
CREATE TABLE game_results (
    game_id       INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL,            -- 0-based, as in seats
    user_id       INTEGER NOT NULL REFERENCES users(id),
    result        TEXT    NOT NULL CHECK (result IN ('won', 'lost', 'drew')),
    rating_before INTEGER NOT NULL,
    rating_after  INTEGER NOT NULL,
    games_before  INTEGER NOT NULL,            -- rated games before this one (below 20: rated provisional)
    settled_at    INTEGER NOT NULL,            -- unix seconds
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_results_by_user ON game_results(user_id);

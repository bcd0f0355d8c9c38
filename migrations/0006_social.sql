-- Spectators, new-game notices and challenge control (issue 4). Everything is per game type, because
-- every command that sets it is written after a game's name (`limit subscribe ...`).

-- Players who watch a game: they get a copy of every board mail of it.
CREATE TABLE subscriptions (
    game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL REFERENCES users(id),
    created_at INTEGER NOT NULL,                 -- unix seconds
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX subscriptions_by_user ON subscriptions(user_id);

-- Players who asked (`notify`) to be told of every new game of a type.
CREATE TABLE new_game_notices (
    game_type  TEXT    NOT NULL,
    user_id    INTEGER NOT NULL REFERENCES users(id),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (game_type, user_id)
);

-- At most this many unfinished games of a type may a challenge put a player in; no row: no limit.
CREATE TABLE game_limits (
    game_type  TEXT    NOT NULL,
    user_id    INTEGER NOT NULL REFERENCES users(id),
    max_active INTEGER NOT NULL CHECK (max_active >= 0),
    PRIMARY KEY (game_type, user_id)
);

-- Whose challenges a player takes: with any 'accept' rows only from those players; never from the
-- players of the 'reject' rows.
CREATE TABLE challenge_lists (
    game_type  TEXT    NOT NULL,
    user_id    INTEGER NOT NULL REFERENCES users(id),
    kind       TEXT    NOT NULL CHECK (kind IN ('accept', 'reject')),
    other_id   INTEGER NOT NULL REFERENCES users(id),
    PRIMARY KEY (game_type, user_id, kind, other_id)
);

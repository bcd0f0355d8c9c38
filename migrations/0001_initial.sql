-- The first schema: accounts, games, comments, processed messages and the outbox.
-- Never edit this file once landed: add 0002_... instead.

CREATE TABLE users (
    id            INTEGER PRIMARY KEY,
    userid        TEXT    NOT NULL,             -- as the player wrote it at signup
    userid_key    TEXT    NOT NULL UNIQUE,      -- lowercase: userids compare ignoring case
    password_hash TEXT,                         -- argon2id PHC string; NULL once signed off
    created_at    INTEGER NOT NULL,             -- unix seconds
    failed_logins INTEGER NOT NULL DEFAULT 0,
    locked_until  INTEGER                        -- unix seconds; NULL when not locked
);

CREATE TABLE addresses (
    user_id  INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    address  TEXT    NOT NULL,
    PRIMARY KEY (user_id, position)
);

CREATE TABLE games (
    id         INTEGER PRIMARY KEY,
    game_type  TEXT    NOT NULL,               -- the game's command word: limit
    board      INTEGER NOT NULL,               -- board number, from 101 per game type
    state      TEXT    NOT NULL,               -- the rules engine's JSON document
    finished   INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,               -- time of the last move
    UNIQUE (game_type, board)
);

CREATE TABLE seats (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL,                  -- 0-based, in challenge order
    user_id INTEGER NOT NULL REFERENCES users(id),
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX seats_by_user ON seats(user_id);

CREATE TABLE comments (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    move_number INTEGER NOT NULL,              -- the move awaited when the comment was written
    user_id     INTEGER NOT NULL REFERENCES users(id),
    body        TEXT    NOT NULL,              -- passwords already masked
    created_at  INTEGER NOT NULL
);
CREATE INDEX comments_by_game ON comments(game_id, move_number);

-- Every message acted on (or deliberately ignored), so that a second delivery does nothing.
CREATE TABLE processed (
    message_key  TEXT    PRIMARY KEY,           -- Message-ID, or sha256 of the message without one
    processed_at INTEGER NOT NULL
);

-- Mail written in the same transaction as the change it reports; sent after the commit.
CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY,
    mail       TEXT    NOT NULL,               -- mail_out::OutgoingMail as JSON
    created_at INTEGER NOT NULL,
    claimed_at INTEGER,                        -- a sender took it at this time (unix seconds)
    sent_at    INTEGER,
    attempts   INTEGER NOT NULL DEFAULT 0,
    last_error TEXT
);
CREATE INDEX outbox_unsent ON outbox(sent_at) WHERE sent_at IS NULL;

-- The thread of each reader's board mails of a game (issue 25, section 2): the Message-ID of the
-- first board mail of the game a player (or subscriber) got. Every later board mail of that game to
-- them carries it in In-Reply-To and References, so that mail clients show the game as one thread.
-- A game begun before this table has no row: its next board mail to each reader becomes the root.
-- Never edit this file once landed: add a new one instead.

CREATE TABLE thread_roots (
    game_id    INTEGER NOT NULL REFERENCES games(id),
    user_id    INTEGER NOT NULL REFERENCES users(id),
    message_id TEXT    NOT NULL,   -- with its angle brackets
    PRIMARY KEY (game_id, user_id)
);

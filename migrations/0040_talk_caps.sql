-- One reply never floods a player (issue 34, items 1 and 4).
-- Never edit this file once landed: add a new one instead.

-- Chats, one row per player mailed, for the cap on chats and messages from one player to another
-- a day (server/message.rs). The text is not kept here (it is the game's comment).
CREATE TABLE chats (
    id        INTEGER PRIMARY KEY,
    from_user INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    to_user   INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    game_id   INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    sent_at   INTEGER NOT NULL                -- unix seconds
);
CREATE INDEX chats_by_pair ON chats(from_user, to_user, sent_at);
-- Messages are counted by pair too.
CREATE INDEX messages_by_pair ON messages(from_user, to_user, sent_at);

-- A digest of the last mail answered to an address (its Subject, commands and comment): the same text
-- again looks automatic, so it counts toward the quiet spell even when it carries a right password or
-- came to a signed reply address (server/letters.rs).
ALTER TABLE reply_standing ADD COLUMN last_digest TEXT;

-- Player-to-player mail through the server (issue 16): `message userid password to-userid...`. One row
-- per recipient, for the daily cap; the text itself is not kept. Addresses are never shown.
-- Never edit this file once landed: add 0015_... instead.
CREATE TABLE messages (
    id        INTEGER PRIMARY KEY,
    from_user INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    to_user   INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    sent_at   INTEGER NOT NULL                -- unix seconds
);
CREATE INDEX messages_by_sender ON messages(from_user, sent_at);

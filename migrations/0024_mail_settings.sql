-- How a player takes the server's mail (issue 25, section 2): a daily digest instead of a board
-- mail per move, and text-only mail (no HTML part, no picture). No row: the defaults (a mail per
-- move, with the picture).
-- Never edit this file once landed: add a new one instead.

CREATE TABLE mail_settings (
    user_id     INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    digest      INTEGER NOT NULL DEFAULT 0,   -- 1: board mails of moves wait for the daily digest
    text_only   INTEGER NOT NULL DEFAULT 0,   -- 1: board mails as text/plain alone
    digest_day  INTEGER,                      -- UTC day (unix seconds / 86400) of the last digest
    digest_from INTEGER                       -- unix seconds: games finished from then on go in the next
);

-- Signed reply addresses (issue 25): a board mail's Reply-To is pbem+<token>@host, the token an
-- HMAC under the server's secret of what the mail is about, the reader's account and the
-- account's reply generation. Every password change (change password, password set after a
-- reset, signoff, the admin's override) adds one to the generation, so the tokens mailed before it
-- stop working.
-- The secret lives here rather than in a file beside the database: it is made once by the first
-- board mail, every process that opens the database (ingest, lmtp workers, cron) reads the same
-- one, it survives restarts and is in every backup of the games it signs for. `pbem web` never
-- reads this table.
-- Never edit this file once landed: add a new one instead.
ALTER TABLE users ADD COLUMN reply_generation INTEGER NOT NULL DEFAULT 0;

CREATE TABLE server_secrets (
    name  TEXT PRIMARY KEY,               -- 'reply': the key of the reply tokens
    value BLOB NOT NULL                   -- 32 bytes from the operating system's random source
);

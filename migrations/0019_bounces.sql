-- Mail refused for good (issue 22, item 7). A permanent refusal (SMTP 5xx, sendmail's EX_NOUSER or
-- EX_NOHOST) is not retried: the outbox row is marked refused. The address that refused is recorded
-- and the server stops mailing it (as mailing-list servers do), until a mail to it gets through again:
-- an answer to a mail from that address is still tried, and once it is accepted the record goes.
-- Never edit this file once landed: add a new one instead.

ALTER TABLE outbox ADD COLUMN refused_at INTEGER;   -- unix seconds: refused for good, never tried again

CREATE TABLE bounces (
    address  TEXT PRIMARY KEY,            -- lowercase
    first_at INTEGER NOT NULL,            -- unix seconds of the first refusal
    last_at  INTEGER NOT NULL,            -- and of the last
    refusal  TEXT NOT NULL,               -- what the relay (or sendmail) said the last time
    held     INTEGER NOT NULL DEFAULT 0   -- mails not sent to it since the first refusal
);

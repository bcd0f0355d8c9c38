-- Two more of a player's mail settings (issue 25, section 2):
-- * plain_subject: board mails keep one Subject a game (`Limit Board 101`), the state only in the
--   body's first line. Gmail starts a new conversation when the Subject changes, so the default
--   Subject with the state after it (`Limit Board 101: your move`) splits a game there.
-- * held: board mails held back for the digest since the last one was written, so that turning
--   the digest off sends the one still pending at once, and only when one is pending.
-- Never edit this file once landed: add a new one instead.

ALTER TABLE mail_settings ADD COLUMN plain_subject INTEGER NOT NULL DEFAULT 0;
ALTER TABLE mail_settings ADD COLUMN held INTEGER NOT NULL DEFAULT 0;

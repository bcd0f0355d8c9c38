-- What answers an address may get (issue 22, items 5c and 8). An address that never showed it is a
-- player's (a signup carried out from it, or a command with an account's password or a code mailed to
-- it) gets limits.replies_per_new_address_per_day answers a day, not 30 an hour: a stranger's Reply-To
-- cannot turn the server on a victim. A run of error answers with no command carried out between
-- them (a naive autoresponder, a loop) makes the address quiet: no error answers for a day, doubling
-- each time.
-- Never edit this file once landed: add a new one instead.

CREATE TABLE reply_standing (
    address     TEXT PRIMARY KEY,            -- lowercase
    proved_at   INTEGER,                     -- unix seconds of the last such command; NULL: never
    error_run   INTEGER NOT NULL DEFAULT 0,  -- error answers since the last command carried out (or quiet spell)
    quiet_until INTEGER,                     -- no error answers before this (unix seconds)
    quiet_days  INTEGER NOT NULL DEFAULT 0   -- length of the last quiet spell; the next is twice as long
);

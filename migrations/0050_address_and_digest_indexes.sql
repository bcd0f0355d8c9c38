-- Two lookups that walked a whole table on every mail or every `pbem cron` (issue 35, item 1; the
-- test `server::query_plans` runs every statement of the mail path and of cron and finds them):
-- * the accounts of a sender's address: every mail asks it (is the sender a player? text-only?
--   plain Subject?) with `lower(address) = lower(?)`, which no index of `addresses` answered, so
--   SQLite read every address of every player;
-- * the players who take the daily digest: cron read every player's mail settings.
-- Never edit this file once landed: add a new one instead.

CREATE INDEX addresses_by_address ON addresses(lower(address));

CREATE INDEX mail_settings_digest ON mail_settings(user_id) WHERE digest = 1;

-- Lookups that grew with the server on every mail or every `pbem cron` (issue 35, item 1; the test
-- `server::query_plans` runs every statement of the mail path and of cron and finds the scans):
-- * the accounts of a sender's address: every mail asks it (is the sender a player? text-only?
--   plain Subject?) with `lower(address) = lower(?)`, which no index of `addresses` answered, so
--   SQLite read every address of every player;
-- * the players who take the daily digest: cron read every player's mail settings;
-- * the clock: cron read every running game not moved for a day (most of them, in correspondence
--   play) to find the few whose nag or forfeit is due. `games.clock_at` is the first time the clock
--   can have something to do with the game: a day after its last move (triggers below, so no writer
--   has to know of it), then, once cron has looked, the time its next nag or forfeit falls due
--   (cron writes it: the nag and forfeit times are the server's configuration, which SQL cannot
--   see; `clock_basis` holds the times it was computed with, and cron starts again from a day after
--   each last move when they change). A change to a game's own clock (its times, a nag recorded)
--   sets it back to a day after the last move, for cron to compute again;
-- * `chats.game_id`, a foreign key to games without an index: a new game's insert (with the
--   trigger below) planned a scan of every chat for it.
-- Never edit this file once landed: add a new one instead.

CREATE INDEX addresses_by_address ON addresses(lower(address));

CREATE INDEX mail_settings_digest ON mail_settings(user_id) WHERE digest = 1;

CREATE INDEX chats_by_game ON chats(game_id);

ALTER TABLE games ADD COLUMN clock_at INTEGER NOT NULL DEFAULT 0;

UPDATE games SET clock_at = updated_at + 86400;

CREATE INDEX games_clock ON games(clock_at) WHERE finished = 0;

CREATE TRIGGER games_clock_on_insert AFTER INSERT ON games
BEGIN
    UPDATE games SET clock_at = NEW.updated_at + 86400 WHERE id = NEW.id;
END;

CREATE TRIGGER games_clock_on_move AFTER UPDATE OF updated_at ON games
BEGIN
    UPDATE games SET clock_at = NEW.updated_at + 86400 WHERE id = NEW.id;
END;

CREATE TRIGGER games_clock_on_new_clock AFTER INSERT ON game_clocks
BEGIN
    UPDATE games SET clock_at = updated_at + 86400 WHERE id = NEW.game_id;
END;

CREATE TRIGGER games_clock_on_clock_change
AFTER UPDATE OF nag_days, forfeit_days, nag_wait, nags_sent, first_nag_at ON game_clocks
BEGIN
    UPDATE games SET clock_at = updated_at + 86400 WHERE id = NEW.game_id;
END;

CREATE TABLE clock_basis (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    nag_days     INTEGER NOT NULL,
    forfeit_days INTEGER NOT NULL,
    warning      INTEGER NOT NULL  -- seconds a first nag must be old before a forfeit
);

-- Speed at scale (issue 12): lists and the clock read small rows, never a game's whole state.
-- Never edit this file once landed: add 0012_... instead.

-- A game's JSON document moves to its own table: in `games` it sat before `finished` and
-- `updated_at`, so reading those columns walked the state's overflow pages of every row scanned
-- (`standings`, `games`, `history` and `pbem cron` all scan games).
CREATE TABLE game_states (
    game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    state   TEXT    NOT NULL                   -- the rules engine's JSON document
);
INSERT INTO game_states (game_id, state) SELECT id, state FROM games;
ALTER TABLE games DROP COLUMN state;

-- What the lists show of a game, written with every save of its state, so that no list loads
-- (replays) a game. NULL in rows saved before this migration: filled in when first listed.
ALTER TABLE games ADD COLUMN to_move INTEGER;  -- 0-based seat to move; NULL once over
ALTER TABLE games ADD COLUMN status  TEXT;     -- "Red (alice) to move.", "Game over: ..."

-- The clock looks only at running games whose last move is old enough to be due.
CREATE INDEX games_running ON games(updated_at) WHERE finished = 0;
-- `history`: the newest finished games of a type first.
CREATE INDEX games_finished ON games(game_type, updated_at) WHERE finished = 1;

-- Pruning the sent mail (`mail.outbox_keep_days`) finds it without reading the whole outbox.
CREATE INDEX outbox_sent ON outbox(sent_at) WHERE sent_at IS NOT NULL;

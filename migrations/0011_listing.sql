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

-- `standings` without counting every seat and result of the game type: one row per player and game
-- type, kept by triggers on the tables it counts, so that every way a game starts, ends or is
-- settled (now or in a later command) keeps it right. Filled here from what is stored.
CREATE TABLE standings (
    game_type TEXT    NOT NULL,
    user_id   INTEGER NOT NULL REFERENCES users(id),
    played    INTEGER NOT NULL DEFAULT 0,      -- settled (rated) games: rows of game_results
    won       INTEGER NOT NULL DEFAULT 0,
    lost      INTEGER NOT NULL DEFAULT 0,
    drawn     INTEGER NOT NULL DEFAULT 0,
    active    INTEGER NOT NULL DEFAULT 0,      -- seats in running games
    PRIMARY KEY (game_type, user_id)
) WITHOUT ROWID;

INSERT INTO standings (game_type, user_id, played, won, lost, drawn, active)
SELECT game_type, user_id, SUM(played), SUM(won), SUM(lost), SUM(drawn), SUM(active)
FROM (SELECT g.game_type, r.user_id, 1 AS played, r.result = 'won' AS won,
             r.result = 'lost' AS lost, r.result = 'drew' AS drawn, 0 AS active
      FROM game_results r JOIN games g ON g.id = r.game_id
      UNION ALL
      SELECT g.game_type, s.user_id, 0, 0, 0, 0, 1
      FROM seats s JOIN games g ON g.id = s.game_id WHERE g.finished = 0)
GROUP BY game_type, user_id;

CREATE TRIGGER standings_seat_added AFTER INSERT ON seats
WHEN (SELECT finished FROM games WHERE id = NEW.game_id) = 0
BEGIN
    INSERT INTO standings (game_type, user_id, active)
    SELECT game_type, NEW.user_id, 1 FROM games WHERE id = NEW.game_id
    ON CONFLICT (game_type, user_id) DO UPDATE SET active = active + 1;
END;

CREATE TRIGGER standings_seat_removed AFTER DELETE ON seats
WHEN (SELECT finished FROM games WHERE id = OLD.game_id) = 0
BEGIN
    UPDATE standings SET active = active - 1
    WHERE user_id = OLD.user_id
      AND game_type = (SELECT game_type FROM games WHERE id = OLD.game_id);
END;

CREATE TRIGGER standings_seat_replaced AFTER UPDATE OF user_id ON seats
WHEN (SELECT finished FROM games WHERE id = NEW.game_id) = 0
BEGIN
    UPDATE standings SET active = active - 1
    WHERE user_id = OLD.user_id
      AND game_type = (SELECT game_type FROM games WHERE id = OLD.game_id);
    INSERT INTO standings (game_type, user_id, active)
    SELECT game_type, NEW.user_id, 1 FROM games WHERE id = NEW.game_id
    ON CONFLICT (game_type, user_id) DO UPDATE SET active = active + 1;
END;

-- A game that ends (or is taken back to running) moves its seats out of (into) active.
CREATE TRIGGER standings_game_finished AFTER UPDATE OF finished ON games
WHEN OLD.finished <> NEW.finished
BEGIN
    UPDATE standings SET active = active + CASE WHEN NEW.finished THEN -1 ELSE 1 END
    WHERE game_type = NEW.game_type
      AND user_id IN (SELECT user_id FROM seats WHERE game_id = NEW.id);
END;

-- A running game deleted: its seats leave active (the seats' own trigger no longer sees the game).
CREATE TRIGGER standings_game_deleted BEFORE DELETE ON games
WHEN OLD.finished = 0
BEGIN
    UPDATE standings SET active = active - 1
    WHERE game_type = OLD.game_type
      AND user_id IN (SELECT user_id FROM seats WHERE game_id = OLD.id);
END;

CREATE TRIGGER standings_result_added AFTER INSERT ON game_results
BEGIN
    INSERT INTO standings (game_type, user_id, played, won, lost, drawn)
    SELECT game_type, NEW.user_id, 1, NEW.result = 'won', NEW.result = 'lost', NEW.result = 'drew'
    FROM games WHERE id = NEW.game_id
    ON CONFLICT (game_type, user_id) DO UPDATE SET
        played = played + 1,
        won = won + (NEW.result = 'won'),
        lost = lost + (NEW.result = 'lost'),
        drawn = drawn + (NEW.result = 'drew');
END;

CREATE TRIGGER standings_result_removed AFTER DELETE ON game_results
BEGIN
    UPDATE standings SET
        played = played - 1,
        won = won - (OLD.result = 'won'),
        lost = lost - (OLD.result = 'lost'),
        drawn = drawn - (OLD.result = 'drew')
    WHERE user_id = OLD.user_id
      AND game_type = (SELECT game_type FROM games WHERE id = OLD.game_id);
END;

-- Admin overrides (issue 16): a game the admin cancelled ends unrated. What the admin did, and why,
-- is in the game's verdict lines (game_clocks.verdict), shown with its board and history.
-- Never edit this file once landed: add 0017_... instead.
ALTER TABLE games ADD COLUMN cancelled_at INTEGER;   -- unix seconds; NULL: not cancelled

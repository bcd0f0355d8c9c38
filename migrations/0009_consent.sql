-- Trust (issue 11): a game counts only when every player in it agreed to it, and nobody forfeits by the
-- clock without a warning.

-- When the player in this seat agreed to the game by an authenticated act (a move or other command with
-- the password, an `accept`, or a challenge carrying the challenger's password); NULL: not yet. A game
-- is rated only if every seat agreed. Games that began before this migration counted: they agreed.
ALTER TABLE seats ADD COLUMN agreed_at INTEGER;
UPDATE seats SET agreed_at = (SELECT created_at FROM games WHERE games.id = seats.game_id);

-- The first nag of the wait in `nag_wait` (a forfeit needs one sent long enough before).
ALTER TABLE game_clocks ADD COLUMN first_nag_at INTEGER;
UPDATE game_clocks SET first_nag_at = last_nag_at WHERE nags_sent > 0;

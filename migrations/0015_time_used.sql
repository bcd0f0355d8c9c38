-- Time used per player (issue 16), shown under the times of every board mail: the seconds each seat
-- had the move, added when the move is made (the time since the game's previous change). Games saved
-- before migration 0011 start counting at their next move.
-- Never edit this file once landed: add 0016_... instead.
ALTER TABLE seats ADD COLUMN time_used INTEGER NOT NULL DEFAULT 0;

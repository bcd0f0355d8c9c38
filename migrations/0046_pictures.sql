-- Board pictures, drawn once a position and kept (issue 35, items 2 and 3). A board mail's picture
-- is the PNG of the board's SVG; every mail that shows the same position (each player's copy, the
-- subscribers', a chat's or a proposal's board mail, a resend from the outbox, a mail sent by
-- another process) reads these bytes instead of drawing them again.
--
-- The key is the game and the SHA-256 of the SVG document the picture was drawn from (with the
-- drawing's version, see `mail_out::picture_digest`): whatever changes the position (a move, an
-- undo, a takeback, a move played again differently at the same move number) changes the document,
-- so a picture can never be served for a position it does not show.
--
-- Bounded: a game keeps its two latest pictures (the position now, and the one before it or a
-- `show` of an older one), and a picture not drawn for `mail.outbox_keep_days` goes with the
-- outbox's prune (games finished or left alone). Never edit this file once landed: add a new one.

CREATE TABLE pictures (
    id        INTEGER PRIMARY KEY,
    game_id   INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    digest    BLOB NOT NULL,
    png       BLOB NOT NULL,
    drawn_at  INTEGER NOT NULL,
    UNIQUE (game_id, digest)
);

CREATE INDEX pictures_drawn ON pictures(drawn_at);

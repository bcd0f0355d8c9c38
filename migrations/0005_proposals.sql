-- Proposals (`propose undo|draw`, answered by `accept` or `reject`) and queued moves.
-- Never edit this file once landed: add a new one instead.

-- At most one open proposal per game; the row goes when it is settled (accepted by all, rejected, or
-- lapsed because the game changed).
CREATE TABLE proposals (
    game_id     INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    kind        TEXT    NOT NULL CHECK (kind IN ('undo', 'draw')),
    proposer_id INTEGER NOT NULL REFERENCES users(id),
    move_number INTEGER NOT NULL,              -- the move awaited when it was proposed
    created_at  INTEGER NOT NULL               -- unix seconds
);

-- The other players who have accepted the open proposal so far.
CREATE TABLE proposal_accepts (
    game_id INTEGER NOT NULL REFERENCES proposals(game_id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id),
    PRIMARY KEY (game_id, user_id)
);

-- One move per player per game, kept until that player's turn comes.
CREATE TABLE queued_moves (
    game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL REFERENCES users(id),
    move       TEXT    NOT NULL,               -- as written, without the #N guard
    guard      INTEGER,                        -- #N: play it only at move N
    comment    TEXT    NOT NULL DEFAULT '',    -- the queue mail's body, passwords masked
    created_at INTEGER NOT NULL,
    -- Set, for the length of one command, when the move has just been played at this move number: the
    -- board mails of that move say it was queued, then the row goes.
    played_at  INTEGER,
    PRIMARY KEY (game_id, user_id)
);

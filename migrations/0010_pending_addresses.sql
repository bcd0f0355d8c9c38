-- Trust (issue 11): an address given to `signup` or `change address` that is not the sender's own gets
-- no mail of the account until it is confirmed: it receives one confirmation mail (capped per hour
-- server-wide) and answers it with `confirm userid code`, or the player adds it later from it.
CREATE TABLE pending_addresses (
    id           INTEGER PRIMARY KEY,
    user_id      INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    address      TEXT    NOT NULL,
    code         TEXT    NOT NULL,           -- the code of the confirmation mail
    created_at   INTEGER NOT NULL,           -- unix seconds
    mailed_at    INTEGER,                    -- when the confirmation mail was queued; NULL: not sent
    confirmed_at INTEGER                     -- when it was confirmed; NULL: not yet
);
CREATE INDEX pending_addresses_by_user ON pending_addresses(user_id);
CREATE INDEX pending_addresses_by_mailed ON pending_addresses(mailed_at);

-- A forgotten password (issue 16): `password reset userid` mails a one-time code to the account's
-- registered addresses; `password set userid code new` sets a new password with it, once, within 24
-- hours. Only the code's SHA-256 is kept: the table holds nothing that logs in.
-- Never edit this file once landed: add 0014_... instead.
CREATE TABLE password_resets (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    code_sha256 TEXT    NOT NULL,            -- hex
    created_at  INTEGER NOT NULL,            -- unix seconds; the code is good for 24 hours
    used_at     INTEGER                      -- when it set a password (or a newer one did); NULL: not yet
);
CREATE INDEX password_resets_by_user ON password_resets(user_id, created_at);

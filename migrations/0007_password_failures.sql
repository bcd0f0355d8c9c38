-- Wrong passwords, for the hourly throttle that replaced the account lock-out (issue 11): a lock that
-- strangers could trigger kept a player out of his own games. Throttled attempts are not recorded
-- (they ran no argon2), so the rows bound the guesses that reached a hash. No password is stored.
CREATE TABLE password_failures (
    userid_key TEXT    NOT NULL,                 -- the userid named, lowercase (known or not)
    sender     TEXT    NOT NULL,                 -- the reply address of the mail, lowercase
    at         INTEGER NOT NULL,                 -- unix seconds
    registered INTEGER NOT NULL CHECK (registered IN (0, 1))  -- sender is one of the account's addresses
);
CREATE INDEX password_failures_by_sender ON password_failures(sender, at);
CREATE INDEX password_failures_by_userid ON password_failures(userid_key, at);

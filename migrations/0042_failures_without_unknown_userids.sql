-- Issue 34, item 3: nothing a mail holds goes into the database in clear. The word in a userid's
-- place of a wrong password may be a password typed there (`limit move 101 hunter2x alice ...`);
-- from now on a row names a userid that is no account's by its SHA-256 (`sha256:<hex>`), a
-- registered (public) userid as before. Rows written before that name an unknown userid as
-- written: they go (the throttle forgets at most an hour of wrong passwords for unknown userids).
DELETE FROM password_failures WHERE userid_key NOT IN (SELECT userid_key FROM users);

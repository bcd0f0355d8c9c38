-- One Subject a game by default (issue 37, section 3): Gmail starts a new conversation whenever the
-- Subject changes, so a board mail's Subject is now `Hex Board 101` alone unless the player asks
-- for the state after it with `set ... subject state`.
-- * state_subject: 1 for a player who chose `subject state`; 0 (and no row) is the plain Subject.
-- * plain_subject (0025) goes: it recorded only who chose `subject plain`. Nobody could be recorded
--   as having chosen the old Subjects (`subject state` was the default, so setting it wrote nothing,
--   or left a row no different from a player who never chose), so every existing account takes the
--   new default; a player who wants the state back sends `subject state`, which the answer to
--   every `set` and the welcome mail name.
-- Never edit this file once landed: add a new one instead.

ALTER TABLE mail_settings ADD COLUMN state_subject INTEGER NOT NULL DEFAULT 0;
ALTER TABLE mail_settings DROP COLUMN plain_subject;

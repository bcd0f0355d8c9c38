-- Who holds the claim on an outbox mail (issue 11, "sent twice"): the claiming process's pid and its
-- start time, so that `outbox flush` takes over at once the mail of a claimer that died (kill -9, a
-- crash) instead of waiting for the claim to grow stale. NULL for claims written by an older pbem, or
-- where the start time cannot be read: those keep the stale-claim rule.
-- Never edit this file once landed: add a new one instead.

ALTER TABLE outbox ADD COLUMN claimed_pid INTEGER;
ALTER TABLE outbox ADD COLUMN claimed_start TEXT;   -- `<boot id>/<pid namespace>/<clock ticks since boot>`

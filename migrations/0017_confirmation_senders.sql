-- Issue 22, item 5b: the hourly cap on confirmation mails was server-wide only, so twenty signups by
-- one stranger held back every player's confirmation for the hour. Each pending address now records
-- the mail's sender (its reply address, lowercase), and the cap counts per sender, under a higher
-- server-wide ceiling. Rows from before have no sender: they count for the ceiling only.
ALTER TABLE pending_addresses ADD COLUMN sender TEXT;
CREATE INDEX pending_addresses_by_sender ON pending_addresses(sender, mailed_at);

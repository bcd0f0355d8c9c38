-- Replies sent to each sender address, so that a misbehaving autoresponder (one that sets none of the
-- headers that mark automatic mail) cannot keep the server answering it: past
-- limits.replies_per_address_per_hour the server stays silent towards that address.
CREATE TABLE reply_log (
    address TEXT    NOT NULL,                  -- lowercase
    sent_at INTEGER NOT NULL                   -- unix seconds
);
CREATE INDEX reply_log_by_address ON reply_log(address, sent_at);

-- When each session was last used (a page or an API call carrying its cookie, marked at most
-- once a day), so that sessions nobody uses any more are forgotten: a year unused, or a month
-- for one that never did anything (no name, account or seat: a crawler, a one-off visit).
ALTER TABLE sessions ADD COLUMN seen_unix_ms BIGINT NOT NULL DEFAULT 0;
UPDATE sessions SET seen_unix_ms = created_unix_ms;
CREATE INDEX sessions_seen ON sessions (seen_unix_ms);

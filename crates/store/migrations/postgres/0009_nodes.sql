-- The nodes of a cluster (`arbiter serve --cluster`): each holds a lease it renews, timed by the
-- database's clock. The epoch rises each time the lease is taken anew, and every commit of a
-- node's command log checks its epoch: a node whose lease another took over writes nothing.
CREATE TABLE nodes (
    id TEXT PRIMARY KEY,
    epoch BIGINT NOT NULL,
    expires_unix_ms BIGINT NOT NULL
);

-- The node whose referee runs the game (none: a single server, or not yet placed).
ALTER TABLE games ADD COLUMN owner TEXT;
CREATE INDEX games_owner ON games (owner, finished);

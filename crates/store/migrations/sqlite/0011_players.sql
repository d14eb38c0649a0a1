-- Accounts: a name and an argon2id hash of its password, nothing else. `name_key` is the name
-- folded to lower case: names that differ only in case are one name.
CREATE TABLE accounts (
    name TEXT PRIMARY KEY,
    name_key TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_unix_ms BIGINT NOT NULL
);

-- Sessions: one a browser, from its first visit. The cookie holds the id; only its hash is
-- kept, so a leaked database opens no session.
CREATE TABLE sessions (
    id_hash TEXT PRIMARY KEY,
    display_name TEXT,
    account TEXT REFERENCES accounts (name),
    created_unix_ms BIGINT NOT NULL
);

-- The seats each holder plays: a session (`session:HASH`) or, once signed in, an account
-- (`account:NAME`), so every browser of the account finds them. The token itself is kept: it
-- is what the holder's pages play the seat with.
CREATE TABLE held_seats (
    holder TEXT NOT NULL,
    game_id TEXT NOT NULL REFERENCES games (id),
    side TEXT NOT NULL,
    token TEXT NOT NULL,
    created_unix_ms BIGINT NOT NULL,
    PRIMARY KEY (holder, game_id, side)
);
CREATE INDEX held_seats_game ON held_seats (game_id);

-- How each game ended as PGN gives it (1-0, 0-1, 1/2-1/2; none: no result), for the players'
-- pages.
ALTER TABLE games ADD COLUMN outcome TEXT;

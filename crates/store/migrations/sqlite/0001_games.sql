-- One row a game; its state is the replay of its commands.
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    rules TEXT NOT NULL,
    clock_limit_ms INTEGER,
    clock_increment_ms INTEGER,
    token_first TEXT NOT NULL,
    token_second TEXT NOT NULL,
    created_unix_ms INTEGER NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    result TEXT
);
CREATE INDEX games_unfinished ON games (finished);

-- Every command the referee was given, in order: written before it is applied.
CREATE TABLE commands (
    game_id TEXT NOT NULL REFERENCES games (id),
    seq INTEGER NOT NULL,
    at_ms INTEGER NOT NULL,
    side TEXT NOT NULL,
    command TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- One row a game; its state is the replay of its commands.
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    rules TEXT NOT NULL,
    clock_limit_ms BIGINT,
    clock_increment_ms BIGINT,
    token_first TEXT NOT NULL,
    token_second TEXT NOT NULL,
    created_unix_ms BIGINT NOT NULL,
    finished BIGINT NOT NULL DEFAULT 0,
    result TEXT
);
CREATE INDEX games_unfinished ON games (finished);

-- Every command the referee was given, in order: written before it is applied.
CREATE TABLE commands (
    game_id TEXT NOT NULL REFERENCES games (id),
    seq BIGINT NOT NULL,
    at_ms BIGINT NOT NULL,
    side TEXT NOT NULL,
    command TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

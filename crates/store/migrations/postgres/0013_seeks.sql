-- Finding an opponent through the site. One table for the three ways, told apart by `mode`:
-- `seek` (listed in the lobby while its seeker's lobby keeps asking, `seen_unix_ms`),
-- `challenge` (a game made at once; its link seats the first other visitor) and `rematch` (an
-- offer on the finished game `source_game`, one a game). `holder` is who made it
-- (`session:HASH` or `account:NAME`, as held_seats has them), `taker` who accepted it: set by
-- one conditional UPDATE, so of two accepters exactly one gets it. `game_id` is the game it
-- made; `open_token` a challenge's free seat until taken.
CREATE TABLE seeks (
    id TEXT PRIMARY KEY,
    mode TEXT NOT NULL,
    holder TEXT NOT NULL,
    name TEXT,
    kind TEXT NOT NULL,
    time_control TEXT NOT NULL,
    rated INTEGER NOT NULL,
    colour TEXT NOT NULL,
    source_game TEXT UNIQUE,
    game_id TEXT,
    holder_side TEXT,
    open_token TEXT,
    taker TEXT,
    created_unix_ms BIGINT NOT NULL,
    seen_unix_ms BIGINT NOT NULL
);
CREATE INDEX seeks_listed ON seeks (mode, seen_unix_ms);
CREATE INDEX seeks_holder ON seeks (holder);

-- Whether a game counts for rating (chosen with its seek or challenge; kept, shown, and not yet
-- applied to any rating list).
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
-- A limit on every single move besides the main time (the Chinese rules' 每步限时), ms.
ALTER TABLE games ADD COLUMN clock_per_move_ms BIGINT;

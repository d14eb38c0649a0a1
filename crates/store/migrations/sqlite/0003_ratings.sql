-- Rating lists: a name, a system (levels, elo or glicko2) and a version every update raises,
-- so two updates read from the same version cannot both be saved.
CREATE TABLE rating_lists (
    name TEXT PRIMARY KEY,
    system TEXT NOT NULL CHECK (system IN ('levels', 'elo', 'glicko2')),
    version INTEGER NOT NULL
);
-- Each player's current standing in a list: the system's state as JSON text (levels: level,
-- points, games; elo: rating, games, reached_2400; glicko2: rating, rd, volatility, games).
CREATE TABLE ratings (
    list TEXT NOT NULL REFERENCES rating_lists(name),
    player TEXT NOT NULL,
    state TEXT NOT NULL,
    PRIMARY KEY (list, player)
);
-- What each update changed: a row per player, with the update's source (an event, a file) and
-- where the state before came from (list: the list itself; start: given starting values; new:
-- the system's default for a new player).
CREATE TABLE rating_history (
    list TEXT NOT NULL REFERENCES rating_lists(name),
    version INTEGER NOT NULL,
    player TEXT NOT NULL,
    source TEXT NOT NULL,
    origin TEXT NOT NULL CHECK (origin IN ('list', 'start', 'new')),
    state_before TEXT NOT NULL,
    state_after TEXT NOT NULL,
    at TEXT NOT NULL DEFAULT (datetime('now')),
    PRIMARY KEY (list, version, player)
);

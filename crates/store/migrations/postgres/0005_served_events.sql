-- Events run by the server (arbiter serve): what the event's document does not hold.
-- The games its pairings are played as: kind, rulesets and clock, and whether anyone with the
-- event's id may register themselves.
CREATE TABLE served_events (
    event TEXT PRIMARY KEY REFERENCES events(name),
    kind TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    rules TEXT NOT NULL,
    clock_limit_ms BIGINT,
    clock_increment_ms BIGINT,
    open_registration BIGINT NOT NULL DEFAULT 0
);
-- Bearer tokens, as their hashes only: the organiser's (entrant 0) and each entrant's. An
-- entrant's token is also their seat token in every game of theirs.
CREATE TABLE event_tokens (
    hash TEXT PRIMARY KEY,
    event TEXT NOT NULL REFERENCES events(name),
    entrant BIGINT NOT NULL
);
CREATE INDEX event_tokens_entrant ON event_tokens (event, entrant);
-- Each game of a pairing (1, 2, … in its match, play-offs after) played as a live game, and
-- whether its result has been entered into the event.
CREATE TABLE event_games (
    event TEXT NOT NULL REFERENCES events(name),
    pairing TEXT NOT NULL,
    game BIGINT NOT NULL,
    game_id TEXT NOT NULL REFERENCES games(id),
    entered BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (event, pairing, game)
);
CREATE INDEX event_games_open ON event_games (entered);
CREATE INDEX event_games_game ON event_games (game_id);

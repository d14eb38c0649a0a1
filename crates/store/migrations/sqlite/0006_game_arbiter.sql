-- A game's arbiter: the hash of the arbiter's token (the token itself is never stored); none
-- for a game made before the arbiter's console, or without an arbiter.
ALTER TABLE games ADD COLUMN token_arbiter TEXT;

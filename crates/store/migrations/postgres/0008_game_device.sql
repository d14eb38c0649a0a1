-- A game's board device (one device at the table plays both sides' moves and claims): the hash
-- of its token, set by the game's arbiter (a new one replaces the old); none until then.
ALTER TABLE games ADD COLUMN token_device TEXT;

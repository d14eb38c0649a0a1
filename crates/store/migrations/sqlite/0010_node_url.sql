-- The URL clients reach each node at (`arbiter serve --advertise`): a game's answers name its
-- owner's, so a client can talk to the node that runs the game rather than be forwarded.
ALTER TABLE nodes ADD COLUMN url TEXT;

-- The seat the computer plays, if any, and its level: `second:4` (side, level 1-8). Kept so a
-- restarted server, or the node that takes a game over, puts the computer back in its seat.
ALTER TABLE games ADD COLUMN computer TEXT;

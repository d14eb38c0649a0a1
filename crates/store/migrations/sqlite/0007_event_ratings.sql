-- The rating list a served event's games are rated into when it ends (none: not rated), and
-- the system to start the list with if it does not exist by then. Whether it has been rated
-- is the list's history (an update whose source is the event's name), saved in the rating's
-- own transaction, so an event is rated once whatever stops the server.
ALTER TABLE served_events ADD COLUMN rating_list TEXT;
ALTER TABLE served_events ADD COLUMN rating_system TEXT;
-- Standings the public sees only as the organiser publishes them (0: live, as results come),
-- and the last published: the event's version then and its standings (JSON).
ALTER TABLE served_events ADD COLUMN publish_standings INTEGER NOT NULL DEFAULT 0;
ALTER TABLE served_events ADD COLUMN published_version INTEGER;
ALTER TABLE served_events ADD COLUMN published_standings TEXT;
-- The organiser paused the round in play (its games adjourned) and has not resumed it.
ALTER TABLE served_events ADD COLUMN paused INTEGER NOT NULL DEFAULT 0;

-- The rating list a served event's games are rated into when it ends (none: not rated), and
-- the system to start the list with if it does not exist by then. Whether it has been rated
-- is the list's history (an update whose source is the event's name), saved in the rating's
-- own transaction, so an event is rated once whatever stops the server.
ALTER TABLE served_events ADD COLUMN rating_list TEXT;
ALTER TABLE served_events ADD COLUMN rating_system TEXT;
-- The event's version whose standings the organiser published (none: not published).
ALTER TABLE served_events ADD COLUMN published_version INTEGER;

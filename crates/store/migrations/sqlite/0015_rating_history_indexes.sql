-- Asked at every rated game's end: whether the game was rated already (by its source), and
-- when each of its players was last rated (their deviation grows with the time away).
CREATE INDEX rating_history_source ON rating_history (list, source);
CREATE INDEX rating_history_player ON rating_history (list, player);

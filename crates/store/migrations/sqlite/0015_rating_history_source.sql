-- Whether a game was rated already is asked of its source at every rated game's end: an index,
-- so the answer does not read the list's whole history.
CREATE INDEX rating_history_source ON rating_history (list, source);

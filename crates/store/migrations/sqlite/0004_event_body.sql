-- Events of every format: the body is a Swiss event's TRF or any event's JSON document.
ALTER TABLE events RENAME COLUMN trf TO body;

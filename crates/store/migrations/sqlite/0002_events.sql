-- Swiss events, each kept as its TRF text with a version every change raises, and the log of
-- those changes. IF NOT EXISTS: files written before the migrations (by the events store alone)
-- already hold these tables, with these columns.
CREATE TABLE IF NOT EXISTS events (
    name TEXT PRIMARY KEY,
    trf TEXT NOT NULL,
    version INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS changes (
    event TEXT NOT NULL REFERENCES events(name),
    version INTEGER NOT NULL,
    action TEXT NOT NULL,
    at TEXT NOT NULL DEFAULT (datetime('now')),
    PRIMARY KEY (event, version)
);

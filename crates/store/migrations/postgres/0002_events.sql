-- Swiss events, each kept as its TRF text with a version every change raises, and the log of
-- those changes. IF NOT EXISTS: databases written before the migrations (by the events store
-- alone) already hold these tables, with these columns.
CREATE TABLE IF NOT EXISTS events (
    name TEXT PRIMARY KEY,
    trf TEXT NOT NULL,
    version BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS changes (
    event TEXT NOT NULL REFERENCES events(name),
    version BIGINT NOT NULL,
    action TEXT NOT NULL,
    at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (event, version)
);

-- 001: the hardware catalogue.
-- Applied by ws-store.c inside one transaction when PRAGMA user_version < 1;
-- the store sets user_version to this file's number afterwards.
--
-- Each record keeps its full JSON form (the `hw export` format) in `record`,
-- so every field of WsGpu/WsCpu/WsLink round-trips without a column per
-- field; the columns beside it exist for lookups, sorting and listing.

CREATE TABLE hw_kind (
  kind TEXT PRIMARY KEY
) WITHOUT ROWID;

INSERT INTO hw_kind (kind) VALUES ('gpu'), ('cpu'), ('link');

CREATE TABLE hw (
  id           INTEGER PRIMARY KEY,
  kind         TEXT NOT NULL REFERENCES hw_kind (kind),
  -- Names are unique across kinds so `hw show NAME` is never ambiguous.
  name         TEXT NOT NULL UNIQUE COLLATE NOCASE,
  architecture TEXT,                  -- GPUs only
  record       TEXT NOT NULL CHECK (json_valid (record)),
  origin       TEXT NOT NULL DEFAULT 'user' CHECK (origin IN ('seed', 'user')),
  created      TEXT NOT NULL DEFAULT (strftime ('%Y-%m-%dT%H:%M:%SZ', 'now')),
  modified     TEXT NOT NULL DEFAULT (strftime ('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE INDEX hw_kind_name ON hw (kind, name);
CREATE INDEX hw_architecture ON hw (architecture);

-- Key/value facts about the database itself (seed version, creator).
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

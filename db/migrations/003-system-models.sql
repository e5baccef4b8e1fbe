-- 003: system and application models, and their runs (core/system).
-- Applied by ws-store.c inside one transaction when PRAGMA user_version < 3.
--
-- Models keep their full JSON form (the `model export` format) in `record`.
-- A sweep (a single `model run` is a sweep of one point) keeps every input:
-- the system and application records as they were, the predictor, and each
-- point's variables; its results are the rows of model_run, model_run_op and
-- model_run_busy.  All rows of one sweep are written in one transaction.

CREATE TABLE system_model (
  id       INTEGER PRIMARY KEY,
  name     TEXT NOT NULL UNIQUE COLLATE NOCASE,
  record   TEXT NOT NULL CHECK (json_valid (record)),
  origin   TEXT NOT NULL DEFAULT 'user' CHECK (origin IN ('demo', 'user')),
  created  TEXT NOT NULL DEFAULT (strftime ('%Y-%m-%dT%H:%M:%SZ', 'now')),
  modified TEXT NOT NULL DEFAULT (strftime ('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE TABLE app_model (
  id       INTEGER PRIMARY KEY,
  name     TEXT NOT NULL UNIQUE COLLATE NOCASE,
  record   TEXT NOT NULL CHECK (json_valid (record)),
  origin   TEXT NOT NULL DEFAULT 'user' CHECK (origin IN ('demo', 'user')),
  created  TEXT NOT NULL DEFAULT (strftime ('%Y-%m-%dT%H:%M:%SZ', 'now')),
  modified TEXT NOT NULL DEFAULT (strftime ('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE TABLE model_sweep (
  id            INTEGER PRIMARY KEY,
  system_name   TEXT NOT NULL,
  app_name      TEXT NOT NULL,
  system_record TEXT NOT NULL CHECK (json_valid (system_record)),
  app_record    TEXT NOT NULL CHECK (json_valid (app_record)),
  predictor     TEXT NOT NULL,
  n_points      INTEGER NOT NULL CHECK (n_points >= 1),
  n_failed      INTEGER NOT NULL DEFAULT 0,
  wall_seconds  REAL,
  created       TEXT NOT NULL DEFAULT (strftime ('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE INDEX model_sweep_models ON model_sweep (system_name, app_name);

CREATE TABLE model_run (
  id            INTEGER PRIMARY KEY,
  sweep_id      INTEGER NOT NULL REFERENCES model_sweep (id) ON DELETE CASCADE,
  point         INTEGER NOT NULL,
  variables     TEXT NOT NULL CHECK (json_valid (variables)),
  status        TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
  error         TEXT,
  total_seconds REAL,
  UNIQUE (sweep_id, point)
);

CREATE TABLE model_run_op (
  run_id    INTEGER NOT NULL REFERENCES model_run (id) ON DELETE CASCADE,
  seq       INTEGER NOT NULL,
  label     TEXT NOT NULL,
  rank      INTEGER NOT NULL,
  op        TEXT NOT NULL CHECK (op IN ('h2d', 'd2h', 'kernel', 'host', 'send', 'recv', 'barrier', 'sync')),
  component TEXT NOT NULL,
  name      TEXT,
  bytes     REAL NOT NULL,
  start     REAL NOT NULL,
  "end"     REAL NOT NULL,
  PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;

CREATE TABLE model_run_busy (
  run_id       INTEGER NOT NULL REFERENCES model_run (id) ON DELETE CASCADE,
  component    TEXT NOT NULL,
  busy_seconds REAL NOT NULL,
  PRIMARY KEY (run_id, component)
) WITHOUT ROWID;

-- 004: measured data (core/measure): measurement sets imported from the
-- measurement CSV (docs/measurement.md) and the scaling parameters of seed
-- 004 calibrated from them (λk of eq. 4.1, t_s and λc of eq. 4.6).
-- Applied by ws-store.c inside one transaction when PRAGMA user_version < 4.

CREATE TABLE measurement_set (
  id       INTEGER PRIMARY KEY,
  name     TEXT NOT NULL UNIQUE COLLATE NOCASE,
  gpu      TEXT NOT NULL,              -- catalogue GPU the data was taken on
  source   TEXT,                       -- the imported file
  trace    TEXT,                       -- trace of the same program, for modelled kernel times
  analytic TEXT NOT NULL DEFAULT '[]' CHECK (json_valid (analytic)), -- analytic kernel files
  created  TEXT NOT NULL DEFAULT (strftime ('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE TABLE measurement (
  set_id       INTEGER NOT NULL REFERENCES measurement_set (id) ON DELETE CASCADE,
  row          INTEGER NOT NULL,        -- order in the file (program order)
  kind         TEXT NOT NULL CHECK (kind IN ('kernel', 'memcpy')),
  name         TEXT NOT NULL,
  occurrence   INTEGER NOT NULL CHECK (occurrence >= 0),
  grid_x       INTEGER, grid_y INTEGER, grid_z INTEGER,
  block_x      INTEGER, block_y INTEGER, block_z INTEGER,
  shared_bytes INTEGER,
  registers    INTEGER,
  direction    TEXT CHECK (direction IS NULL OR direction IN ('HtoD', 'DtoH', 'DtoD', 'HtoH', 'PtoP')),
  bytes        INTEGER,
  runs         INTEGER NOT NULL CHECK (runs >= 1),
  duration_ns  REAL NOT NULL CHECK (duration_ns >= 0),
  PRIMARY KEY (set_id, row)
);

CREATE INDEX measurement_by_name ON measurement (set_id, kind, name);

-- λk of eq. 4.1 per kernel and architecture (the volkov plugin's default).
CREATE TABLE lambda_kernel (
  kernel        TEXT NOT NULL,
  architecture  TEXT NOT NULL COLLATE NOCASE,
  lambda        REAL NOT NULL CHECK (lambda > 0),
  n_points      INTEGER NOT NULL,
  rms_rel_error REAL,
  set_name      TEXT NOT NULL,
  gpu           TEXT NOT NULL,
  created       TEXT NOT NULL DEFAULT (strftime ('%Y-%m-%dT%H:%M:%SZ', 'now')),
  PRIMARY KEY (kernel, architecture)
);

-- t_s and λc of eq. 4.6 per link (catalogue link, or the GPU's PCIe link
-- when none was named) and direction.
CREATE TABLE lambda_link (
  link          TEXT NOT NULL COLLATE NOCASE,
  direction     TEXT NOT NULL CHECK (direction IN ('HtoD', 'DtoH', 'DtoD', 'HtoH', 'PtoP')),
  startup_s     REAL NOT NULL,
  lambda        REAL NOT NULL CHECK (lambda > 0),
  bandwidth_gbs REAL NOT NULL CHECK (bandwidth_gbs > 0),
  n_points      INTEGER NOT NULL,
  rms_rel_error REAL,
  set_name      TEXT NOT NULL,
  gpu           TEXT NOT NULL,
  created       TEXT NOT NULL DEFAULT (strftime ('%Y-%m-%dT%H:%M:%SZ', 'now')),
  PRIMARY KEY (link, direction)
);

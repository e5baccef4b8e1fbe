-- 002: detailed-simulator runs (core/tbpoint ws_sim_run_store_put).
-- One row per `warpscope-cli simulate` (or GUI) run: what was simulated
-- (trace, GPU, sampling, scheduler), the full configuration as JSON (the
-- simulator and TBPoint options and the GPU record used, so a run stays
-- reproducible after the catalogue changes), the headline numbers as
-- columns for listing and sorting, and the complete result as JSON.

CREATE TABLE sim_run (
  id                          INTEGER PRIMARY KEY,
  created                     TEXT NOT NULL DEFAULT (strftime ('%Y-%m-%dT%H:%M:%SZ', 'now')),
  trace                       TEXT NOT NULL,
  gpu                         TEXT NOT NULL,
  sampling                    TEXT NOT NULL CHECK (sampling IN ('none', 'tbpoint', 'random')),
  scheduler                   TEXT NOT NULL CHECK (scheduler IN ('rr', 'gto')),
  config                      TEXT NOT NULL CHECK (json_valid (config)),
  cycles                      INTEGER NOT NULL,
  ipc                         REAL NOT NULL,
  warp_instructions           INTEGER NOT NULL,
  simulated_warp_instructions INTEGER NOT NULL,
  sample_fraction             REAL NOT NULL,
  wall_seconds                REAL NOT NULL,
  result                      TEXT NOT NULL CHECK (json_valid (result))
);

CREATE INDEX sim_run_trace_gpu ON sim_run (trace, gpu);

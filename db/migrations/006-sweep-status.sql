-- 006: whether a stored sweep ran to its end (issue 19).
-- Applied by ws-store.c inside one transaction when PRAGMA user_version < 6.
--
-- A sweep stopped by SIGINT/SIGTERM (`model run`) or cancelled is stored
-- with status 'cancelled': the points that finished are its model_run rows
-- (at their own point numbers), n_points stays the number the sweep would
-- have had.  Sweeps stored before this migration ran to their end.

ALTER TABLE model_sweep ADD COLUMN status TEXT NOT NULL DEFAULT 'complete'
  CHECK (status IN ('complete', 'cancelled'));
